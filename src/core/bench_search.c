/*
 * bench_search.c — the arithmetic of `bench`, apart from the trials it
 * steers. A measurement is a series of trials; what rate the next one
 * runs at, when the series is over (bench_search for throughput and cps,
 * bench_confirm for the full-length confirmation, bench_grow for the
 * capacity count), whether a trial was valid and passed, and what its
 * stamped frames say about latency are all decided here, from numbers
 * alone. Control's orchestration (src/control/bench.c) calls
 * these functions between trials, and test/unit/test_bench.c runs them
 * against simulated devices; nothing here touches the EAL, prints or keeps
 * state outside the structures it is handed.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_search.h"
#include "fg.h"
#include "lat.h"
#include "units.h"

const char *const bench_kind_names[BENCH_KIND_COUNT] = {
    [BENCH_THROUGHPUT] = "throughput",
    [BENCH_LATENCY] = "latency",
    [BENCH_CPS] = "cps",
    [BENCH_CAPACITY] = "capacity",
    [BENCH_TEARDOWN] = "teardown",
};

/* ---- the binary search (RFC 2544 §26.1) --------------------------------- */

int bench_search_init(struct bench_search *s, double top, double res_pct)
{
	if (!(top > 0) || !isfinite(top) || !(res_pct > 0) || !(res_pct < 100))
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->top = top;
	s->res_pct = res_pct;
	s->floor = top * BENCH_FLOOR_FRAC;
	s->hi = top;
	return 0;
}

double bench_search_next(const struct bench_search *s)
{
	if (!s->trials)
		return s->top;
	if (s->hi - s->lo <= s->res_pct / 100.0 * s->hi)
		return 0;
	if (s->lo == 0 && s->hi <= s->floor)
		return 0;
	return (s->lo + s->hi) / 2;
}

void bench_search_record(struct bench_search *s, double rate, bool passed, double cap)
{
	s->trials++;
	if (passed) {
		if (rate > s->lo)
			s->lo = FG_MIN(rate, s->hi);
		return;
	}
	if (rate < s->hi)
		s->hi = rate;
	if (cap > 0 && cap < s->hi)
		s->hi = cap;
	if (s->hi < s->lo)
		s->hi = s->lo;
}

/* ---- the confirmation (RFC 2544 §24: full-length trials) ---------------- */

int bench_confirm_init(struct bench_confirm *c, double found, double res_pct)
{
	if (!(found > 0) || !isfinite(found) || !(res_pct > 0) || !(res_pct < 100))
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	c->found = found;
	c->res_pct = res_pct;
	c->rate = found;
	return 0;
}

void bench_confirm_record(struct bench_confirm *c, bool passed)
{
	if (c->over)
		return;
	if (passed) {
		c->passed = true;
		c->over = true;
		return;
	}
	if (c->steps >= BENCH_CONFIRM_STEPS) {
		c->over = true;
		return;
	}
	c->steps++;
	c->rate *= 1 - c->res_pct / 100.0;
}

/* ---- the capacity count (RFC 9693 §4.9, connection tracking table capacity) */

int bench_grow_init(struct bench_grow *g, uint64_t n0, uint64_t max, double res_pct)
{
	if (n0 < 1 || max < n0 || !(res_pct > 0) || !(res_pct < 100))
		return -EINVAL;
	memset(g, 0, sizeof(*g));
	g->n0 = n0;
	g->max = max;
	g->res_pct = res_pct;
	return 0;
}

uint64_t bench_grow_next(const struct bench_grow *g)
{
	if (!g->trials)
		return g->n0;
	if (!g->hi) /* nothing failed yet: double, up to max */
		return g->lo >= g->max ? 0 : FG_MIN(g->lo * 2, g->max);
	if (g->hi - g->lo <= 1 || (double)(g->hi - g->lo) <= g->res_pct / 100.0 * (double)g->hi)
		return 0;
	return g->lo + (g->hi - g->lo) / 2;
}

void bench_grow_record(struct bench_grow *g, uint64_t n, bool passed)
{
	g->trials++;
	if (passed && n > g->lo)
		g->lo = n;
	if (!passed && (!g->hi || n < g->hi))
		g->hi = n;
	if (g->hi && g->hi <= g->lo)
		g->lo = g->hi - 1;
}

/* ---- latency (RFC 8219 §7.2, §7.3) and the verdict of a trial ----------- */

void bench_lat_summary(const struct lat_hist *h, uint64_t frames, uint64_t lost,
		       struct bench_lat *out)
{
	struct lat_summary l;

	lat_summarize(h, lost, &l);
	memset(out, 0, sizeof(*out));
	out->frames = frames;
	out->lost = lost;
	out->samples = l.samples;
	out->min_us = l.min_us;
	out->avg_us = l.avg_us;
	out->max_us = l.max_us;
	out->p50_us = l.p50_us;
	out->p99_us = l.p99_us;
	out->p999_us = l.p999_us;
	out->pdv_us = l.pdv_us;
}

void bench_trial_judge(struct bench_trial *t, double loss_goal_pct)
{
	double tol = BENCH_TX_TOLERANCE_PCT / 100.0, expect, off;

	t->achieved = t->span > 0 ? (double)t->tx / t->span : 0;
	t->loss_pct = t->tx ? (double)t->lost * 100.0 / (double)t->tx : 0;
	t->valid = false;
	t->passed = false;
	t->why[0] = '\0';
	if (!t->tx || !(t->span > 0)) {
		snprintf(t->why, sizeof(t->why), "nothing was sent");
		return;
	}
	if (t->span > t->secs * (1 + tol)) {
		snprintf(t->why, sizeof(t->why),
			 "sending took %.3f s, longer than the trial's %g s", t->span, t->secs);
		return;
	}
	if (t->span < t->secs * BENCH_SPAN_MIN_FRAC) {
		snprintf(t->why, sizeof(t->why), "sending stopped %.0f ms before the trial's end",
			 (t->secs - t->span) * 1000);
		return;
	}
	expect = t->rate * t->span;
	off = (double)t->tx - expect;
	if (fabs(off) > FG_MAX(expect * tol, (double)t->senders)) {
		snprintf(t->why, sizeof(t->why), "achieved rate %.3f %% %s the offered one",
			 fabs(off) * 100.0 / expect, off < 0 ? "below" : "above");
		return;
	}
	if (t->queue_full) {
		snprintf(t->why, sizeof(t->why), "tester TX queue full (%" PRIu64 " frames)",
			 t->queue_full);
		return;
	}
	if (t->oerrors) {
		snprintf(t->why, sizeof(t->why), "tester NIC oerrors (%" PRIu64 ")", t->oerrors);
		return;
	}
	if (t->imissed) {
		snprintf(t->why, sizeof(t->why), "tester NIC imissed (%" PRIu64 ")", t->imissed);
		return;
	}
	t->valid = true;
	t->passed = t->loss_pct <= loss_goal_pct;
	if (!t->passed)
		snprintf(t->why, sizeof(t->why), "loss %.4f %% above %g %%", t->loss_pct,
			 loss_goal_pct);
}

/* ---- the connection tear-down rate (RFC 9693 §4.8) ------------------------ */

void bench_teardown_judge(struct bench_trial *t)
{
	struct bench_teardown *d = &t->td;

	t->valid = t->passed = false;
	t->why[0] = '\0';
	t->loss_pct = t->tx ? (double)t->lost * 100.0 / (double)t->tx : 0;
	t->achieved = t->span > 0 ? (double)t->tx / t->span : 0;
	d->secs = (double)(d->tb_ns - d->ta_ns) / 1e9;
	d->rate = d->secs > 0 ? (double)d->loaded / d->secs : 0;
	if (d->cmd_rc != 0) {
		snprintf(t->why, sizeof(t->why), "--dut-cmd %s %d",
			 d->cmd_rc < 0 ? "could not run:" : "exited", d->cmd_rc);
		return;
	}
	if (!(d->secs > 0)) {
		snprintf(t->why, sizeof(t->why), "TimestampB not after TimestampA");
		return;
	}
	if (d->counted && d->dut_after > 0) {
		snprintf(t->why, sizeof(t->why),
			 "the DUT still held %" PRIu64 " entries when --dut-cmd returned",
			 d->dut_after);
		return;
	}
	if ((double)d->started < (double)d->n * (1 - BENCH_TX_TOLERANCE_PCT / 100.0)) {
		snprintf(t->why, sizeof(t->why),
			 "the tester started %" PRIu64 " of %" PRIu64 " connections", d->started,
			 d->n);
		return;
	}
	t->valid = true;
	if (d->failed || d->loaded < d->started) {
		snprintf(t->why, sizeof(t->why),
			 "%" PRIu64 " of %" PRIu64 " connections loaded (%" PRIu64 " failed)",
			 d->loaded, d->started, d->failed);
		return;
	}
	if (d->counted && d->dut_before < d->loaded) {
		snprintf(t->why, sizeof(t->why),
			 "the DUT held %" PRIu64 " entries of %" PRIu64 " connections loaded",
			 d->dut_before, d->loaded);
		return;
	}
	t->passed = true;
}

/* ---- the -m of a trial ---------------------------------------------------- */

void bench_mult_str(const struct units_rate *r, char *buf, size_t len)
{
	static const char *const unit[UNITS_KIND_COUNT] = {
	    [UNITS_MULT] = "", [UNITS_PPS] = "pps", [UNITS_BPS] = "bps",
	    [UNITS_PCT] = "%", [UNITS_CPS] = "cps", [UNITS_MAX] = "",
	};
	const char *u = r->kind >= UNITS_MULT && r->kind <= UNITS_MAX ? unit[r->kind] : "";
	const char *l1 = r->kind == UNITS_BPS && r->l1 ? "_l1" : "";

	/* whole numbers for large rates: 14880952pps, not 1.48810e+07pps */
	if (r->value >= 1e5)
		snprintf(buf, len, "%.0f%s%s", r->value, u, l1);
	else
		snprintf(buf, len, "%.6g%s%s", r->value, u, l1);
}
