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

void tsc_mark(const struct tsc_clock *c, struct tsc_mark *m)
{
	m->tsc = m->ns = 0;
	tsc_pair(c, &m->tsc, &m->ns);
}

uint64_t tsc_measure_from(const struct tsc_clock *c, const struct tsc_mark *m,
			  uint64_t window_ns)
{
	uint64_t t1 = 0, n1 = 0, now = c->ns(c->arg);

	if (now >= m->ns && now - m->ns < window_ns)
		c->sleep_ns(c->arg, window_ns - (now - m->ns));
	tsc_pair(c, &t1, &n1);
	if (t1 <= m->tsc || n1 <= m->ns)
		return 0;
	return (uint64_t)((double)(t1 - m->tsc) * 1e9 / (double)(n1 - m->ns) + 0.5);
}

uint64_t tsc_measure(const struct tsc_clock *c, uint64_t window_ns)
{
	struct tsc_mark m = {0, 0};

	tsc_mark(c, &m);
	return tsc_measure_from(c, &m, window_ns);
}
