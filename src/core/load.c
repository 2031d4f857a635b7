/*
 * load.c — the load model: an engine's load at -m 1 (frames/s and bit/s
 * per port, connections/s for flows) and the arithmetic that applies a
 * MULT to it. `start`, `update`, the tui and `bench` all reach the rates
 * of a run through these functions, so a `%` means the same thing, and a
 * rate above line rate is refused the same way, whichever asks.
 *
 * Pure: no globals, no I/O.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "load.h"

/* A port may be loaded to its line rate; rounding of -m 100% stays in. */
#define LOAD_LINE_SLACK 1.0001

static bool load_sends(const struct load *l, int p)
{
	return l->tx[p].pps > 0 && l->tx[p].bps_l1 > 0;
}

/*
 * The factor that makes the load `base` (one port's, or the shared
 * reference port's) offer m. 0 with err set when m does not apply.
 */
static int load_one(const struct load *l, const struct load_port *base, const struct units_rate *m,
		    uint64_t link_bps, int p, double *f, char *err, size_t errlen)
{
	switch (m->kind) {
	case UNITS_MULT:
		*f = m->value;
		return 0;
	case UNITS_PPS:
		*f = m->value / base->pps;
		return 0;
	case UNITS_BPS:
		*f = m->value / (m->l1 ? base->bps_l1 : base->bps_l2);
		return 0;
	case UNITS_PCT:
		if (!link_bps) {
			snprintf(err, errlen, "-m %g%%: the link speed of port %d is unknown", m->value,
				 p);
			return -EINVAL;
		}
		*f = m->value / 100.0 * (double)link_bps / base->bps_l1;
		return 0;
	case UNITS_CPS:
		if (l->cps <= 0) {
			snprintf(err, errlen, "-m %gcps applies to flows profiles only", m->value);
			return -EINVAL;
		}
		*f = m->value / l->cps;
		return 0;
	case UNITS_MAX:
		*f = 0;
		return 0;
	}
	snprintf(err, errlen, "-m: unknown rate form");
	return -EINVAL;
}

int load_factors(const struct load *l, const struct units_rate *m, const uint64_t *link_bps,
		 double *factor, char *err, size_t errlen)
{
	bool any = false;
	double shared = 0;
	int rc;

	for (int p = 0; p < FG_MAX_PORTS; p++)
		factor[p] = 0;
	if (l->scope == LOAD_SHARED) {
		if (l->ref < 0 || l->ref >= l->nports || !load_sends(l, l->ref))
			return 0; /* nothing generates: the run only answers */
		rc = load_one(l, &l->tx[l->ref], m, link_bps[l->ref], l->ref, &shared, err, errlen);
		if (rc)
			return rc;
	}
	for (int p = 0; p < l->nports; p++) {
		double f = shared;

		if (!load_sends(l, p))
			continue;
		any = true;
		if (l->scope == LOAD_PER_PORT) {
			rc = load_one(l, &l->tx[p], m, link_bps[p], p, &f, err, errlen);
			if (rc)
				return rc;
		}
		if (m->kind != UNITS_MAX && (!(f > 0) || !isfinite(f))) {
			snprintf(err, errlen, "-m gives port %d no rate above 0", p);
			return -EINVAL;
		}
		factor[p] = f;
	}
	if (!any)
		return 0; /* a run that only answers (e.g. flows' server side, -p 1) */
	return load_check(l, m, factor, link_bps, err, errlen);
}

const char *load_fmt_mult(const struct units_rate *m, char *buf, size_t len)
{
	static const char *const unit[UNITS_KIND_COUNT] = {
	    [UNITS_MULT] = "", [UNITS_PPS] = "pps", [UNITS_BPS] = "bps",
	    [UNITS_PCT] = "%", [UNITS_CPS] = "cps", [UNITS_MAX] = "",
	};
	const char *u = m->kind >= UNITS_MULT && m->kind <= UNITS_MAX ? unit[m->kind] : "";
	const char *l1 = m->kind == UNITS_BPS && m->l1 ? "_l1" : "";

	if (m->kind == UNITS_MAX)
		snprintf(buf, len, "max");
	else if (m->value >= 1e5) /* 14880952pps, not 1.48810e+07pps */
		snprintf(buf, len, "%.0f%s%s", m->value, u, l1);
	else
		snprintf(buf, len, "%.6g%s%s", m->value, u, l1);
	return buf;
}

struct units_rate load_scaled(const struct units_rate *m, double s)
{
	struct units_rate r = *m;

	if (r.kind != UNITS_MAX)
		r.value *= s;
	return r;
}

int load_check(const struct load *l, const struct units_rate *m, const double *factor,
	       const uint64_t *link_bps, char *err, size_t errlen)
{
	for (int p = 0; p < l->nports; p++) {
		double bits = l->tx[p].bps_l1 * factor[p], link = (double)link_bps[p], top;
		struct units_rate best;
		char mb[48];

		if (!link || factor[p] <= 0 || bits <= link * LOAD_LINE_SLACK)
			continue;
		/* Every form scales linearly with the factor: the largest value
		 * of m's own form is the one that puts this port at its link. */
		top = link / bits;
		best = load_scaled(m, top * (1 + 1e-9)); /* 99.99999..% is 100% */
		best.value = floor(best.value * (best.value >= 1e5 ? 1 : 1e4)) /
			     (best.value >= 1e5 ? 1 : 1e4);
		snprintf(err, errlen,
			 "port %d would send %.0f pps (%.4g Mbps L1), which exceeds its link's %.0f "
			 "Mbps; the maximum is -m %s (%.0f pps on port %d)",
			 p, l->tx[p].pps * factor[p], bits / 1e6, link / 1e6,
			 load_fmt_mult(&best, mb, sizeof(mb)), floor(l->tx[p].pps * factor[p] * top),
			 p);
		return -ERANGE;
	}
	return 0;
}

void load_offered(const struct load *l, const double *factor, const uint64_t *link_bps,
		  struct load_offer *o)
{
	o->pps = o->cps = o->line_pct = 0;
	for (int p = 0; p < l->nports; p++) {
		o->pps += l->tx[p].pps * factor[p];
		if (link_bps[p])
			o->line_pct = FG_MAX(o->line_pct,
					     l->tx[p].bps_l1 * factor[p] / (double)link_bps[p] * 100);
	}
	if (l->scope == LOAD_SHARED && l->ref >= 0 && l->ref < l->nports)
		o->cps = l->cps * factor[l->ref] * l->npairs;
}
