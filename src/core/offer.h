/*
 * offer.h — offered against achieved: whether a run is falling short of
 * the rate its MULT asks for, and what most likely holds it back.
 *
 * The statistics sampler (src/control/stats.c) feeds offer_track_update()
 * every sample with what the run offers (the load model's figure for the
 * current MULT: frames/s for streams, connections/s for flows) and what
 * the counters show it achieved over the last second. The run is short of
 * its offer while the achieved rate has stayed below OFFER_SHORT_PCT % of
 * the offer for OFFER_SHORT_S seconds without a break (flowgen(8),
 * STATISTICS, "short_of_offer"); a change of the offer starts the count
 * again, so the ramp after `start` or `update -m` is not a shortfall.
 *
 * offer_limit_guess() names the likely limit from the same snapshot's
 * signs, in this order: the ports' line rate, the TX queue refusing frames,
 * the worker's CPU (busy, or its pacer dropping what it could not release
 * in time), the DUT (no reply: flows failing or frames lost).
 *
 * Context: pure (no globals, no I/O; unit-tested in test/unit/test_offer.c).
 *
 * Included by: every folder.
 */
#ifndef FG_OFFER_H
#define FG_OFFER_H

#include <stdbool.h>
#include <stdint.h>

#define OFFER_SHORT_PCT 98.0   /* achieved below this share of the offer is short */
#define OFFER_SHORT_S 2.0      /* for this long without a break */
#define OFFER_CPU_PCT 95.0     /* a worker this busy is the likely limit */
#define OFFER_LINE_PCT 98.0    /* a port this close to its line rate is the limit */
#define OFFER_CHANGE_FRAC 1e-6 /* an offer that moves more than this is new */

struct offer_track {
	double offer;	/* the offer being tracked; 0: none */
	uint64_t since; /* clock value at which the run fell short, if below */
	bool below;	/* the last sample was short */
};

/*
 * pure: one sample at clock value `now` (ticks of hz per second): `offer`
 * per second (<= 0: nothing is offered, for example -m max or no run) and
 * the `achieved` rate. Returns true while short of the offer.
 */
bool offer_track_update(struct offer_track *t, double offer, double achieved, uint64_t now,
			uint64_t hz);

enum offer_limit {
	OFFER_LIMIT_UNKNOWN = 0,
	OFFER_LIMIT_LINE = 1, /* a port sends at its line rate */
	OFFER_LIMIT_TXQ = 2,  /* the TX queue refuses frames */
	OFFER_LIMIT_CPU = 3,  /* a worker is saturated */
	OFFER_LIMIT_DUT = 4,  /* no reply: flows fail or frames are lost */
};
#define OFFER_LIMIT_COUNT (OFFER_LIMIT_DUT + 1)

/* pure: how the warning names each limit ("the worker's CPU"). */
extern const char *const offer_limit_names[OFFER_LIMIT_COUNT];

/* What a snapshot shows of each possible limit (rates over the same interval). */
struct offer_signs {
	double line_util_max; /* the busiest port's TX share of its line rate, % (0: unknown) */
	double tx_refused;    /* frames/s refused by TX queues (tx_dropped, queue full, oerrors) */
	double cpu_util_max;  /* the busiest worker, % */
	double late;	      /* events/s a pacer dropped: its worker fell behind */
	double dut_failed;    /* flows/s failed, or frames/s lost */
};

/* pure: the likely limit from the signs. */
enum offer_limit offer_limit_guess(const struct offer_signs *s);

#endif
