/*
 * start_opts.h — the options of the console's `start` (flowgen(8),
 * "start") as data, and the split of a run's caps over its workers:
 * start_opts_parse() reads `start`'s arguments without acting on them,
 * start_share() gives each generating worker its exact share of a figure
 * (start --active N, a template's limit and climit, flowgen-profile(5)),
 * start_at_parse() and start_at_resolve() read a common start's time
 * (start --at TIME) and place it against the system clock's now.
 *
 * Context: pure (no I/O; start_opts_parse uses getopt_long's globals, so
 * only the console's thread calls it).
 *
 * Included by: console, control and the unit tests.
 */
#ifndef FG_START_OPTS_H
#define FG_START_OPTS_H

#include <stdbool.h>
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "units.h"

/* The largest --active: more concurrent flows than any flow table holds. */
#define START_ACTIVE_MAX 1000000000ULL

/*
 * start --at: how far ahead a start may be planned, one day. The workers
 * follow the system clock while they wait (they read it again at each
 * step, src/dataplane/worker.c), so the limit is not the clocks': a run
 * that waits longer holds the workers and the ports' traffic for it, and
 * a time further ahead is more likely a wrong date than a plan.
 */
#define START_AT_AHEAD_MAX_S 86400

enum start_at_kind {
	START_AT_NONE = 0, /* start now */
	START_AT_TIME = 1, /* at an RFC 3339 time: ns since the epoch */
	START_AT_IN = 2,   /* +SECONDS: ns from the moment control takes it */
};

struct start_at {
	int kind;	  /* enum start_at_kind */
	int64_t ns;	  /* the time, or the offset from now */
	const char *text; /* as given, for messages */
};

struct start_opts {
	const char *file;	/* -f PROFILE */
	struct units_rate mult; /* -m; x1 by default, max with --active alone */
	bool has_mult;
	double duration_s;    /* -d; 0 = until stop */
	const char *ports;    /* -p as given (the caller knows the ports), or NULL */
	const char *tunables; /* -t KEY=VAL,... or NULL */
	uint64_t active;      /* --active N: concurrent flows to hold; 0 = none */
	struct start_at at;   /* --at TIME; kind START_AT_NONE without */
	bool force, keep;     /* --force, --nc */
	bool verbose;	      /* -v: print the flow tables' plan (flowplan.h) */
};

/*
 * pure: parse `start`'s argv (argv[0] the command) into o. --active N
 * (1..START_ACTIVE_MAX, decimal) holds N flows at once; without -m it
 * makes the rate unpaced (-m max): the pacer no longer bounds how fast
 * ended flows are replaced. Returns 0, or -EINVAL with err set (a bad
 * value names its option; a bad form says "usage").
 */
int start_opts_parse(int argc, char **argv, struct start_opts *o, char *err, size_t errlen);

/*
 * pure: --at's TIME: an RFC 3339 date-time (§5.6, wc_parse: fractions of
 * a second, Z or an offset) or +SECONDS (decimal, a fraction to the
 * nanosecond, at most START_AT_AHEAD_MAX_S) from now. 0, or -EINVAL with
 * err naming --at and the forms it takes.
 */
int start_at_parse(const char *s, struct start_at *a, char *err, size_t errlen);

/*
 * pure: the time of a (parsed) against the system clock's now_ns, in
 * *at_ns (ns since the epoch). A time not after now is refused (-ETIME:
 * it has passed), and so is one more than START_AT_AHEAD_MAX_S ahead
 * (-ERANGE); err says which, naming --at. START_AT_NONE: *at_ns = now_ns.
 */
int start_at_resolve(const struct start_at *a, int64_t now_ns, int64_t *at_ns, char *err,
		     size_t errlen);

/* The options start_opts_parse takes: getopt's two tables (the command table's too). */
#define START_OPTS_SHORTS "f:m:d:p:t:v"
extern const struct option start_opts_longs[];

/*
 * pure: worker i's share (0 <= i < k) of n split over k workers: n / k,
 * plus one for the first n % k workers. The k shares add up to n
 * exactly; k = 0 gives 0.
 */
static inline uint64_t start_share(uint64_t n, unsigned k, unsigned i)
{
	if (!k || i >= k)
		return 0;
	return n / k + (i < n % k);
}

#endif
