/*
 * pace.c — set-up and control of the TSC pacer, pure code with no globals:
 * control calls it to build a pacer before a run, the worker that owns the
 * pacer to change its rate, pause, resume or restart it. The per-call work
 * is the inline pace_due() in pace.h; divisions happen here, never per
 * packet: the backlog bound (PACE_BOUND_MS of traffic at the rate, pace.h)
 * is computed when the rate is set, as the credit that bound's cycles
 * accrue, so a stall of exactly the bound is owed in full.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "pace.h"

/* max_delta: enough cycles to fill the slack from empty, plus one. */
static void pace_limits(struct pace *p)
{
	unsigned __int128 d;

	if (!p->inc) {
		p->max_delta = UINT64_MAX;
		return;
	}
	d = (p->slack_fp + ((unsigned __int128)1 << 64)) / p->inc + 1;
	p->max_delta = d > UINT64_MAX ? UINT64_MAX : (uint64_t)d;
}

/*
 * The backlog bound at the rate (run_inc, kept while paused): the credit of
 * bound_tsc cycles, within [slack_min, max(PACE_SLACK_MAX, slack_min)]
 * events. Credit beyond a bound that shrank is dropped now.
 */
static void pace_bound(struct pace *p)
{
	unsigned __int128 lo = (unsigned __int128)p->slack_min << 64;
	unsigned __int128 hi =
	    (unsigned __int128)(p->slack_min > PACE_SLACK_MAX ? p->slack_min : PACE_SLACK_MAX)
	    << 64;
	/* run_inc < 2^64 and bound_tsc < 2^64 / 50: no overflow */
	unsigned __int128 s = (unsigned __int128)p->run_inc * p->bound_tsc;

	if (s < lo)
		s = lo;
	if (s > hi)
		s = hi;
	p->slack_fp = s;
	p->slack = (uint32_t)(s >> 64);
	pace_trim(p);
}

int pace_init(struct pace *p, uint64_t hz, uint32_t burst, uint32_t slack, uint64_t now_tsc)
{
	if (hz == 0 || burst == 0)
		return -EINVAL;
	if (slack == 0)
		slack = burst;
	if (slack < burst || slack > (1u << 30))
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->hz = hz;
	p->burst = burst;
	p->slack_min = slack;
	/* hz * PACE_BOUND_MS / 1000 without overflow */
	p->bound_tsc = hz / 1000 * PACE_BOUND_MS + hz % 1000 * PACE_BOUND_MS / 1000;
	pace_bound(p);
	/* Half an event of credit: over a period, rate events +-0.5 round. */
	p->credit = (unsigned __int128)1 << 63;
	p->last_tsc = now_tsc;
	p->paused = true;
	pace_limits(p);
	return 0;
}

static void pace_accrue(struct pace *p, uint64_t now_tsc)
{
	/* Accrue without releasing: pace_due() with an unlimited burst. */
	uint32_t burst = p->burst;
	bool unpaced = p->unpaced;

	p->burst = UINT32_MAX;
	p->unpaced = false;
	p->credit += (unsigned __int128)pace_due(p, now_tsc) << 64;
	p->burst = burst;
	p->unpaced = unpaced;
}

int pace_set_rate(struct pace *p, double rate, uint64_t now_tsc)
{
	double inc;

	if (!(rate > 0) || !isfinite(rate))
		return -EINVAL;
	inc = rate / (double)p->hz * 18446744073709551616.0;
	if (inc >= 18446744073709551615.0)
		return -EINVAL;
	pace_accrue(p, now_tsc);
	p->run_inc = (uint64_t)inc;
	if (p->run_inc == 0)
		p->run_inc = 1;
	if (!p->paused)
		p->inc = p->run_inc;
	pace_bound(p);
	pace_limits(p);
	return 0;
}

void pace_set_max(struct pace *p, bool unpaced) { p->unpaced = unpaced; }

void pace_pause(struct pace *p, uint64_t now_tsc)
{
	pace_accrue(p, now_tsc);
	p->paused = true;
	p->inc = 0;
	pace_limits(p);
}

void pace_resume(struct pace *p, uint64_t now_tsc)
{
	p->last_tsc = now_tsc;
	p->paused = false;
	p->inc = p->run_inc;
	pace_limits(p);
}

void pace_clear(struct pace *p, uint64_t now_tsc)
{
	p->credit = (unsigned __int128)1 << 63;
	p->last_tsc = now_tsc;
}

void pace_restart(struct pace *p, uint64_t now_tsc, bool running)
{
	pace_clear(p, now_tsc);
	p->paused = !running;
	p->inc = running ? p->run_inc : 0;
	pace_limits(p);
}
