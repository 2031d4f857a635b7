/*
 * offer.c — offered against achieved (offer.h): the shortfall tracker the
 * statistics sampler feeds every sample, and the guess at what limits a
 * run that falls short.
 *
 * Context: pure; the statistics sampler thread (control) calls it.
 */
#include <math.h>

#include "offer.h"

const char *const offer_limit_names[OFFER_LIMIT_COUNT] = {
    [OFFER_LIMIT_UNKNOWN] = "unknown",
    [OFFER_LIMIT_LINE] = "the ports' line rate",
    [OFFER_LIMIT_TXQ] = "the TX queue",
    [OFFER_LIMIT_CPU] = "the worker's CPU",
    [OFFER_LIMIT_DUT] = "the DUT (no reply)",
};

bool offer_track_update(struct offer_track *t, double offer, double achieved, uint64_t now,
			uint64_t hz)
{
	bool below;

	if (!(offer > 0) || !isfinite(offer) || !hz) {
		*t = (struct offer_track){0};
		return false;
	}
	if (fabs(offer - t->offer) > OFFER_CHANGE_FRAC * offer) {
		/* a new offer: the achieved rate needs time to follow it */
		*t = (struct offer_track){.offer = offer};
	}
	below = !(achieved >= offer * OFFER_SHORT_PCT / 100);
	if (!below) {
		t->below = false;
		return false;
	}
	if (!t->below) {
		t->below = true;
		t->since = now;
	}
	return now >= t->since && (double)(now - t->since) >= OFFER_SHORT_S * (double)hz;
}

enum offer_limit offer_limit_guess(const struct offer_signs *s)
{
	if (s->line_util_max >= OFFER_LINE_PCT)
		return OFFER_LIMIT_LINE;
	if (s->tx_refused > 0)
		return OFFER_LIMIT_TXQ;
	if (s->cpu_util_max >= OFFER_CPU_PCT || s->late > 0)
		return OFFER_LIMIT_CPU;
	if (s->dut_failed > 0)
		return OFFER_LIMIT_DUT;
	return OFFER_LIMIT_UNKNOWN;
}
