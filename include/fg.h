/*
 * fg.h — things every flowgen module shares: exit codes (sysexits style),
 * limits and single-writer counter helpers (the log functions are
 * src/control/log.h).
 *
 * Contexts used in every header:
 *   pure     no globals, no I/O; unit-tested without EAL
 *   control  the main lcore (REPL, commands) or a control helper thread
 *   worker   a worker lcore: never blocks, allocates, locks, prints or
 *            makes system calls
 *
 * Included by: every folder (types only: no prototypes, no data).
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

#endif
