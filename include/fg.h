/*
 * fg.h — things every flowgen module shares: exit codes (sysexits style),
 * limits, single-writer counter helpers and the log functions.
 *
 * Contexts used in every header:
 *   pure     no globals, no I/O; unit-tested without EAL
 *   control  the main lcore (REPL, commands) or a control helper thread
 *   worker   a worker lcore: never blocks, allocates, locks, prints or
 *            makes system calls
 */
#ifndef FG_H
#define FG_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

enum fg_exit {
	FG_EXIT_OK = 0,
	FG_EXIT_FAIL = 1,     /* a command failed (batch / -x) */
	FG_EXIT_USAGE = 64,   /* EX_USAGE */
	FG_EXIT_SOFTWARE = 70, /* EX_SOFTWARE: DPDK / port initialisation */
	FG_EXIT_CONFIG = 78,  /* EX_CONFIG */
};

#define FG_MAX_PORTS 16
#define FG_MAX_WORKERS 32
#define FG_ERRLEN 512

#define FG_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define FG_MIN(a, b) ((a) < (b) ? (a) : (b))
#define FG_MAX(a, b) ((a) > (b) ? (a) : (b))

/*
 * Single-writer counters. The owning thread adds with a plain load and a
 * relaxed store (no read-modify-write atomics); any reader loads relaxed.
 * A reader may see a value one update old, never a torn one.
 */
#define FG_CTR_ADD(c, n) __atomic_store_n(&(c), (c) + (n), __ATOMIC_RELAXED)
#define FG_CTR_INC(c) FG_CTR_ADD(c, 1)
#define FG_CTR_SET(c, v) __atomic_store_n(&(c), (v), __ATOMIC_RELAXED)
#define FG_CTR_GET(c) __atomic_load_n(&(c), __ATOMIC_RELAXED)

/* control: messages for the user. fg_err goes to stderr. */
void fg_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fg_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* control: while the dashboard owns the screen, messages are held back. */
void fg_log_hold(bool hold);

#endif
