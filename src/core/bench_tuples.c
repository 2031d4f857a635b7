/*
 * bench_tuples.c — fresh connections for every trial of `bench cps` and
 * `bench capacity` (bench_tuples.h): the window of client ports each
 * trial gets, disjoint from every earlier trial's, and the
 * worst case a cps search needs, so that a profile too small for it is
 * refused before the first trial.
 *
 * Context: pure (src/control/bench.c calls it between trials on the
 * console's thread; test/unit/test_bench.c tests it).
 */
#include <errno.h>
#include <math.h>

#include "bench_search.h"
#include "bench_tuples.h"
#include "prof-t.h"

int bench_tuples_init(struct bench_tuples *t, uint32_t naddrs, uint32_t nq, uint32_t port_lo,
		      uint32_t port_hi)
{
	if (!naddrs || !nq || port_lo > port_hi || port_hi > 65535)
		return -EINVAL;
	*t = (struct bench_tuples){
	    .naddrs = naddrs, .nq = nq, .port_lo = port_lo, .port_hi = port_hi, .next = port_lo};
	return 0;
}

uint32_t bench_tuples_ports(const struct bench_tuples *t, double conns, double open)
{
	double per_addr, n;

	if (!(conns > 0))
		conns = 0;
	if (!(open > 0))
		open = 0;
	/* each worker of the pair opens its share over every address, in a
	 * slice of the window of its own: round up per worker */
	per_addr = (conns + open) * BENCH_TUPLE_MARGIN / ((double)t->naddrs * t->nq);
	n = ceil(per_addr) * t->nq + t->nq;
	return n > 65536 ? 65536 : (uint32_t)n;
}

int bench_tuples_take(struct bench_tuples *t, double conns, double open, uint32_t *lo, uint32_t *hi)
{
	uint32_t n = bench_tuples_ports(t, conns, open);

	if (n > bench_tuples_left(t))
		return -ENOSPC;
	*lo = t->next;
	*hi = t->next + n - 1;
	t->next += n;
	t->taken += n;
	return 0;
}

uint64_t bench_tuples_search_need(const struct bench_tuples *t, double top, double res_pct,
				  double trial_s, double confirm_s, double timeout_s)
{
	struct bench_search s;
	uint64_t need = 0;
	double rate, c;

	if (bench_search_init(&s, top, res_pct) != 0)
		return 0;
	while ((rate = bench_search_next(&s)) > 0) {
		need += bench_tuples_ports(t, rate * trial_s, rate * timeout_s);
		bench_search_record(&s, rate, s.trials > 0, 0);
	}
	c = bench_search_result(&s);
	for (int k = 0; confirm_s > 0 && k <= BENCH_CONFIRM_STEPS; k++) {
		need += bench_tuples_ports(t, c * confirm_s, c * timeout_s);
		c *= 1 - res_pct / 100;
	}
	return need;
}

int bench_tuples_order(int profile_order)
{
	return profile_order == PROF_DIST_SEQ ? PROF_DIST_SEQ : PROF_DIST_RAND;
}
