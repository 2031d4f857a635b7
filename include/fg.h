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

/*
 * An error value: what a command or a control call refused or failed, as
 * data for every front end (the console prints "error: MESSAGE" and the
 * hint under it; the HTTP API answers {code, message, hint, path}).
 * The code's name is fg_errcode_name() (core/errval.h).
 */
enum fg_errcode {
	FG_E_NONE = 0,	   /* no error */
	FG_E_USAGE = 1,	   /* a bad option or argument (path names it) */
	FG_E_UNKNOWN = 2,  /* no such command */
	FG_E_REFUSED = 3,  /* refused in the present state (a run going, a port down, ...) */
	FG_E_FAILED = 4,   /* tried and failed (a file, a port, the DUT) */
	FG_E_INTERNAL = 5, /* out of memory, or a fault of flowgen's */
};

struct fg_error {
	enum fg_errcode code;
	char message[FG_ERRLEN]; /* what is wrong, one line, no "error: " */
	char hint[256];		 /* what to do about it, or "" */
	char path[128];		 /* the option, argument or field at fault, or "" */
};

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
