/*
 * cli_int.h — what the console's three files (cli.c: the command table
 * and dispatch; cli_run.c: the prompt, batch, -x and signals; complete.c:
 * TAB completion) share and nobody else uses.
 *
 * Context: control (cli_now_ns and cli_set_interrupted are
 * async-signal-safe, called from a signal handler).
 *
 * Included by: console.
 */
#ifndef FG_CLI_INT_H
#define FG_CLI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "cli.h"

#define CLI_MAX_MATCHES 10000 /* completion candidates kept */

/* control: fn for every visible row: the caller's, then unshadowed built-ins. */
void cli_for_each_cmd(void (*fn)(const struct cli_cmd *, void *), void *arg);

/*
 * any context, async-signal-safe: set (a SIGINT arrived) or clear the flag
 * that cli_interrupted() reads.
 */
void cli_set_interrupted(bool on);

/* control: the descriptor of cli_set_poll (-1: none) and its function. */
int cli_poll_fd(void);
void cli_poll_run(void);

/* control: forget a quit/exit of an earlier run; each cli_run_* begins so. */
void cli_quit_reset(void);

/* any context, async-signal-safe: CLOCK_MONOTONIC in nanoseconds. */
static inline int64_t cli_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#endif
