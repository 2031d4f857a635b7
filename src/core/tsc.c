/*
 * tsc.c — measuring the TSC rate against a reference clock (see tsc.h for
 * why). Pure: the clocks are the caller's (src/control/clock.c passes the
 * real ones, the unit test fakes).
 */
#include "tsc.h"

#define TSC_TRIES 5

void tsc_pair(const struct tsc_clock *c, uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < TSC_TRIES; i++) {
		uint64_t a = c->tsc(c->arg), n = c->ns(c->arg), b = c->tsc(c->arg);

		if (b >= a && b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = n;
		}
	}
}

uint64_t tsc_measure(const struct tsc_clock *c, uint64_t window_ns)
{
	uint64_t t0 = 0, n0 = 0, t1 = 0, n1 = 0;

	tsc_pair(c, &t0, &n0);
	c->sleep_ns(c->arg, window_ns);
	tsc_pair(c, &t1, &n1);
	if (t1 <= t0 || n1 <= n0)
		return 0;
	return (uint64_t)((double)(t1 - t0) * 1e9 / (double)(n1 - n0) + 0.5);
}
