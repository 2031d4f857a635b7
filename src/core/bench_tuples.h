/*
 * bench_tuples.h — pure: the client ports of a flows `bench` (cps,
 * capacity), handed out so that every trial opens fresh connections
 * (bench_tuples.c).
 *
 * Included by: every folder.
 */
#ifndef FG_BENCH_TUPLES_H
#define FG_BENCH_TUPLES_H

#include <stdint.h>

/*
 * Fresh connections for every trial of a flows test (src/core/bench_tuples.c).
 * A DUT that tracks connections passes a 4-tuple it still holds as
 * established, not new: a trial that reused an earlier trial's tuples would
 * measure the DUT's table, not its rate of new connections (RFC 9693 §4.4:
 * every frame of the load makes a new entry, by a four-tuple of its own). So
 * each trial gets a window of client ports that no earlier trial of the
 * search used; every client address of the profile opens at most one flow
 * per port of the window (a margin of BENCH_TUPLE_MARGIN covers an uneven
 * spread, and the flows a trial has open at once keep theirs). When the
 * profile's client ports run out, the search cannot go on with fresh
 * tuples: it is refused (before it starts when the worst case is known).
 */
#define BENCH_TUPLE_MARGIN 1.25

struct bench_tuples {
	uint32_t naddrs;     /* client addresses of a pair's range */
	uint32_t nq;	     /* workers of a pair: each takes a slice of a window */
	uint32_t port_lo;    /* the profile's client ports */
	uint32_t port_hi;
	uint32_t next;	     /* first port of the next window */
	uint64_t taken;	     /* ports handed out in windows so far */
};

/* pure: 1 <= naddrs, 1 <= nq, port_lo <= port_hi <= 65535; 0 or -EINVAL. */
int bench_tuples_init(struct bench_tuples *t, uint32_t naddrs, uint32_t nq, uint32_t port_lo,
		      uint32_t port_hi);

/*
 * pure: the ports of a trial's window: `conns` connections in all, `open`
 * of them open at once at most (rate x the profile's timeout).
 */
uint32_t bench_tuples_ports(const struct bench_tuples *t, double conns, double open);

/*
 * pure: the next trial's window [*lo, *hi], taken for good. 0, or -ENOSPC
 * (the profile's client ports are used up; nothing is taken).
 */
int bench_tuples_take(struct bench_tuples *t, double conns, double open, uint32_t *lo,
		      uint32_t *hi);

/* pure: client ports left for later windows. */
static inline uint32_t bench_tuples_left(const struct bench_tuples *t)
{
	return t->port_hi + 1 - t->next;
}

/*
 * pure: the client ports the worst case of a cps search needs: from `top`
 * connections/s, trials of trial_s seconds (the first fails, every later one
 * passes: the rates climb back towards top), then 1 + BENCH_CONFIRM_STEPS
 * confirmation trials of confirm_s (0: none) just below top; open at most
 * rate x timeout_s at once.
 */
uint64_t bench_tuples_search_need(const struct bench_tuples *t, double top, double res_pct,
				  double trial_s, double confirm_s, double timeout_s);

/*
 * pure: the order each client address takes its ports in during a flows
 * test (enum prof_dist): the profile's client_ports_order when it gives
 * one (0 when not), else pseudorandom. RFC 9693 §4.4 REQUIRES pseudorandom
 * port numbers (as RFC 4814 does) and allows increasing order as an
 * additional measurement.
 */
int bench_tuples_order(int profile_order);

#endif
