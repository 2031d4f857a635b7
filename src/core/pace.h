/*
 * pace.h — TSC pacing: release N events per second spread evenly.
 *
 * A pacer turns elapsed TSC cycles into "events due" (packets to send,
 * connections to open). Fractional events carry over between calls, and
 * over a second exactly rate events come out (+-1), at any call frequency.
 * Credit is kept as 64.64 fixed point (a 128-bit integer), so 1 event/s on
 * a 3 GHz TSC is as exact as 100 M/s.
 *
 * Each call releases at most `burst` events. What fell due while the
 * caller was not running (the worker was descheduled) is owed up to a
 * bound of PACE_BOUND_MS of traffic at the current rate, at least the
 * floor given to pace_init (one burst by default) and at most
 * PACE_SLACK_MAX events: a stall shorter than the bound loses nothing,
 * its backlog comes out burst by burst on the next calls. Credit beyond
 * the bound is dropped and counted in `dropped` (the engines report it as
 * `late`, flowgen(8), STATISTICS), so a worker that stalls for a second
 * never sends a second's worth back to back. The bound follows the rate:
 * pace_set_rate() sets it anew (and drops what exceeds a lower bound at
 * once); a paused pacer keeps its rate's bound.
 *
 * Rate changes keep the fractional credit; pause stops credit from
 * accruing (pause is a zero rate, so pace_due() has no extra branch);
 * "max" mode releases burst events on every call (unpaced benchmarks).
 *
 * Contexts: all functions are *pure* (no globals, no I/O). Control sets a
 * pacer up (pace_init, pace_set_rate, pace_set_max) before the run; from
 * START on, its owner is one worker, which control asks to call
 * pace_set_rate() etc. through its mailbox. Only pace.c and the inline
 * functions below write a pacer's fields; callers use these functions.
 *
 * Included by: every folder.
 */
#ifndef FG_PACE_H
#define FG_PACE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The backlog a pacer keeps: this much traffic at the current rate. A
 * worker that shares its CPU is off it for one or a few scheduler ticks
 * at a time (4 ms each at the kernel's usual 250 Hz); 20 ms covers that
 * with room to spare and is still short next to any run.
 */
#define PACE_BOUND_MS 20
/* ... but never more events than this (above 3.3 M/s the bound is shorter). */
#define PACE_SLACK_MAX 65536u

struct pace {
	unsigned __int128 credit;   /* events owed, 64.64 fixed point */
	unsigned __int128 slack_fp; /* the backlog bound in 64.64: slack and its fraction */
	uint64_t inc;		    /* credit per TSC cycle (64 fraction bits); 0 when paused */
	uint64_t run_inc;	    /* the rate's inc, kept while paused */
	uint64_t last_tsc;	    /* credit accrued up to here */
	uint64_t max_delta;	    /* cycles beyond which credit would exceed slack */
	uint64_t hz;
	uint64_t bound_tsc; /* PACE_BOUND_MS in cycles */
	uint64_t dropped;   /* events skipped because the caller fell behind */
	uint32_t burst;
	uint32_t slack;	    /* the backlog bound in whole events (slack_fp's) */
	uint32_t slack_min; /* its floor */
	bool unpaced;
	bool paused;
};

/*
 * pure: set up a pacer for a TSC of hz cycles per second, releasing at most
 * burst events per call and owing at most PACE_BOUND_MS of backlog at the
 * rate, but at least slack events (>= burst; 0 means burst). Starts paused
 * at rate 0 (the bound is then the floor). Returns 0 or -EINVAL.
 */
int pace_init(struct pace *p, uint64_t hz, uint32_t burst, uint32_t slack, uint64_t now_tsc);

/*
 * pure: set the rate in events per second (0 < rate < hz), keeping
 * the fractional credit; credit up to now is accrued at the old rate and
 * its bound, then the backlog bound is the new rate's (a backlog beyond
 * it is dropped now, counted in dropped). A negative or NaN rate is
 * -EINVAL. Does not resume a paused pacer.
 */
int pace_set_rate(struct pace *p, double rate, uint64_t now_tsc);

/* pure: unpaced mode on/off ("-m max"). */
void pace_set_max(struct pace *p, bool unpaced);

/* pure: hold (no credit accrues) / continue from now. */
void pace_pause(struct pace *p, uint64_t now_tsc);
void pace_resume(struct pace *p, uint64_t now_tsc);

/*
 * pure: forget the credit accrued so far (back to the half event of a new
 * pacer): what is released from now on is the rate times the time from now.
 */
void pace_clear(struct pace *p, uint64_t now_tsc);

/*
 * pure: start over at now_tsc, as at the start of measured traffic: the
 * credit accrued so far is forgotten (as pace_clear), and the pacer runs
 * from now (running) or holds until pace_resume (not running). The rate,
 * burst, backlog bound, unpaced mode and the dropped count are kept.
 */
void pace_restart(struct pace *p, uint64_t now_tsc, bool running);

/*
 * pure (worker hot path): credit beyond the backlog bound is dropped,
 * counted in dropped; the fraction stays (over time the events released
 * plus dropped are exactly what the rate asked for).
 */
static inline void pace_trim(struct pace *p)
{
	const unsigned __int128 one = (unsigned __int128)1 << 64;

	if (p->credit >= p->slack_fp + one) {
		uint64_t k = (uint64_t)((p->credit - p->slack_fp) >> 64);

		p->dropped += k;
		p->credit -= (unsigned __int128)k << 64;
	}
}

/*
 * pure (worker hot path): events due at now_tsc, 0 .. burst. The backlog
 * beyond one burst stays owed (up to the bound): the caller gets it on its
 * next calls. No division: a multiply and compares.
 */
static inline uint32_t pace_due(struct pace *p, uint64_t now_tsc)
{
	uint64_t delta = now_tsc - p->last_tsc, n;

	if (p->unpaced)
		return p->burst;
	if ((int64_t)delta < 0)
		return 0; /* a time before the last call (a deadline already passed) */
	p->last_tsc = now_tsc;
	if (delta > p->max_delta) {
		/* beyond the bound whatever the credit was (and no 128-bit
		 * overflow): dropped now, its fraction kept */
		unsigned __int128 x = (unsigned __int128)(delta - p->max_delta) * p->inc;

		p->dropped += (uint64_t)(x >> 64);
		p->credit += (uint64_t)x;
		delta = p->max_delta;
	}
	p->credit += (unsigned __int128)delta * p->inc;
	pace_trim(p);
	n = (uint64_t)(p->credit >> 64);
	if (n > p->burst)
		n = p->burst;
	p->credit -= (unsigned __int128)n << 64;
	return (uint32_t)n;
}

/*
 * pure: give back events that were due but not used (e.g. the TX queue
 * took fewer), so they are sent on the next call instead of lost.
 */
static inline void pace_return(struct pace *p, uint32_t n)
{
	p->credit += (unsigned __int128)n << 64;
}

#endif
