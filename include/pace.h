/*
 * pace.h — TSC pacing: release N events per second spread evenly.
 *
 * A pacer turns elapsed TSC cycles into "events due" (packets to send,
 * connections to open). Fractional events carry over between calls, and
 * over a second exactly rate events come out (+-1), at any call frequency.
 * Credit is kept as 64.64 fixed point (a 128-bit integer), so 1 event/s on
 * a 3 GHz TSC is as exact as 100 M/s. Each call releases at most `burst`
 * events; credit beyond `slack` events is dropped (counted in `dropped`),
 * so a worker that stalls never sends a second's worth in one burst: it
 * catches up by at most slack events, released burst by burst.
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
 */
#ifndef FG_PACE_H
#define FG_PACE_H

#include <stdbool.h>
#include <stdint.h>

struct pace {
	unsigned __int128 credit;   /* events owed, 64.64 fixed point */
	unsigned __int128 slack_fp; /* slack in 64.64 */
	uint64_t inc;		    /* credit per TSC cycle (64 fraction bits); 0 when paused */
	uint64_t run_inc;	    /* the rate's inc, kept while paused */
	uint64_t last_tsc;	    /* credit accrued up to here */
	uint64_t max_delta;	    /* cycles beyond which credit would exceed slack */
	uint64_t hz;
	uint64_t dropped; /* events skipped because the caller fell behind */
	uint32_t burst;
	uint32_t slack;
	bool unpaced;
	bool paused;
};

/*
 * pure: set up a pacer for a TSC of hz cycles per second, releasing at most
 * burst events per call and accumulating at most slack (>= burst; 0 means
 * burst) events of backlog. Starts paused at rate 0. Returns 0 or -EINVAL.
 */
int pace_init(struct pace *p, uint64_t hz, uint32_t burst, uint32_t slack, uint64_t now_tsc);

/*
 * pure: set the rate in events per second (0 < rate < hz), keeping
 * the fractional credit; credit up to now is accrued at the old rate. A
 * negative or NaN rate is -EINVAL. Does not resume a paused pacer.
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
 * burst, slack, unpaced mode and the dropped count are kept.
 */
void pace_restart(struct pace *p, uint64_t now_tsc, bool running);

/* pure (worker hot path): events due at now_tsc, 0 .. burst. */
static inline uint32_t pace_due(struct pace *p, uint64_t now_tsc)
{
	uint64_t delta = now_tsc - p->last_tsc, n;
	const unsigned __int128 one = (unsigned __int128)1 << 64;

	if (p->unpaced)
		return p->burst;
	if ((int64_t)delta < 0)
		return 0; /* a time before the last call (a deadline already passed) */
	p->last_tsc = now_tsc;
	if (delta > p->max_delta) {
		p->dropped +=
		    (uint64_t)(((unsigned __int128)(delta - p->max_delta) * p->inc) >> 64);
		delta = p->max_delta;
	}
	p->credit += (unsigned __int128)delta * p->inc;
	if (p->credit >= p->slack_fp + one) {
		p->dropped += (uint64_t)((p->credit - p->slack_fp) >> 64);
		p->credit = p->slack_fp + (uint64_t)p->credit;
	}
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
