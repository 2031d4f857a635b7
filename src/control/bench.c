/*
 * bench.c — `bench`: measurements made of trials (SPEC §8, METHOD.md).
 *
 * A trial is a run of the profile through the same path as `start`
 * (cmds_run_start) for --trial seconds: the streams engine sends its
 * learning frames first, then the measured traffic, then waits
 * BENCH_LATE_WAIT_S for late frames (RFC 2544) before it goes idle. The
 * final counters are read once the run has ended: frames sent and received
 * per stream (by signature only), the delay histogram of the stamped frames
 * and the tester's own drops (TX queue full, NIC oerrors and imissed).
 *
 * throughput searches with bench_search over the offered frame rate, from
 * 100 % of line rate (or the -m given) down; the rate of a trial is the
 * start -m scaled, so every port keeps its share of the load. cps does the
 * same over the connection rate of a flows profile (a flows run waits for
 * its connections to complete or time out instead). An invalid search
 * trial is run again, up to BENCH_INVALID_RETRIES times. The rate found is
 * then confirmed by a trial of --confirm seconds (bench_confirm: stepping
 * down by the resolution after a failure); the search's figure stays in
 * the result beside the confirmed one. capacity runs
 * trials of n connections at one rate, n doubling then bisected
 * (bench_grow). latency runs one trial at -m. Each trial is printed as it ends, also to --csv; the
 * result follows as text or, with --json, as one JSON object holding every
 * trial and the result.
 *
 * ^C: the trial running is stopped (its traffic drains), the trials done
 * so far are reported, and the command fails.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "cmds.h"
#include "ctl.h"
#include "engine.h"
#include "lat.h"
#include "port.h"
#include "prof.h"
#include "stats.h"
#include "units.h"
#include "worker.h"

#define BENCH_TRIAL_GUARD_S 120.0 /* learning and drain time beyond the trial */

const char *const bench_kind_names[BENCH_KIND_COUNT] = {
    [BENCH_THROUGHPUT] = "throughput",
    [BENCH_LATENCY] = "latency",
    [BENCH_CPS] = "cps",
    [BENCH_CAPACITY] = "capacity",
};

/* What a trial counts, by test: frames (streams) or connections (flows). */
struct bench_words {
	const char *unit;	    /* of the rates: fps or cps */
	const char *tx, *rx, *lost; /* the three counts */
	const char *result;	    /* the JSON key of the figure found */
};

static const struct bench_words bench_words[BENCH_KIND_COUNT] = {
    [BENCH_THROUGHPUT] = {"fps", "tx", "rx", "lost", "throughput_fps"},
    [BENCH_LATENCY] = {"fps", "tx", "rx", "lost", "offered_fps"},
    [BENCH_CPS] = {"cps", "started", "completed", "failed", "max_cps"},
    [BENCH_CAPACITY] = {"cps", "started", "completed", "failed", "capacity"},
};

/* ---- pure: the search ------------------------------------------------- */

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

/* ---- pure: latency and the verdict of a trial ---------------------------- */

double bench_pct_with_loss(const struct lat_hist *h, uint64_t lost, double q)
{
	double n = (double)h->count + (double)lost, rank;

	if (n == 0)
		return 0;
	rank = ceil(q / 100.0 * n);
	if (rank < 1)
		rank = 1;
	if (rank > (double)h->count)
		return INFINITY;
	/* the rank among the measured delays, mid-way so that ceil() in
	 * lat_percentile lands on it whatever the rounding */
	return (double)lat_percentile(h, (rank - 0.5) * 100.0 / (double)h->count);
}

void bench_lat_summary(const struct lat_hist *h, uint64_t frames, uint64_t lost,
		       struct bench_lat *out)
{
	memset(out, 0, sizeof(*out));
	out->frames = frames;
	out->lost = lost;
	out->samples = h->count;
	if (h->count) {
		out->min_us = (double)h->min / 1000;
		out->avg_us = (double)lat_avg_ns(h) / 1000;
		out->max_us = (double)h->max / 1000;
	}
	if (!h->count && !lost)
		return;
	out->p50_us = bench_pct_with_loss(h, lost, 50) / 1000;
	out->p99_us = bench_pct_with_loss(h, lost, 99) / 1000;
	out->p999_us = bench_pct_with_loss(h, lost, 99.9) / 1000;
	out->pdv_us = isinf(out->p999_us) ? INFINITY : out->p999_us - out->min_us;
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

/* ---- control: options --------------------------------------------------- */

struct bench_opts {
	enum bench_kind kind;
	const char *file;
	struct units_rate mult;
	bool have_mult;
	double loss_pct, res_pct, trial_s, pause_s;
	double confirm_s; /* 0: no confirmation trial */
	bool have_confirm;
	int64_t mask;
	const char *tunables;
	bool json;
	const char *csv_path;
};

struct bench {
	struct bench_opts o;
	struct prof prof; /* the profile as loaded for the checks and the rates */
	FILE *csv;
	struct bench_trial *t;
	size_t n, cap;
	unsigned senders;
	bool interrupted;
	struct units_rate top; /* the -m of the start rate */
	double top_rate, top_line;
};

static const char bench_usage[] =
    "bench throughput|latency|cps|capacity -f PROFILE [-m MULT] [--loss PCT] "
    "[--resolution PCT] [--trial SECONDS] [--confirm SECONDS] [--pause SECONDS] [-p PORTS] "
    "[-t KEY=VAL,...] [--json] [--csv FILE]";

static int bench_bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bench_bad(const char *fmt, ...)
{
	char msg[FG_ERRLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fg_err("bench: %s; usage: %s", msg, bench_usage);
	return -1;
}

/* A percentage in [lo, hi]: strict at lo when lo_open. */
static int bench_pct(const char *s, double lo, bool lo_open, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end != s && *end == '%')
		end++;
	if (end == s || *end || !isfinite(v) || v < lo || (lo_open && v == lo) || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

static int bench_parse(int argc, char **argv, struct bench_opts *o)
{
	static const struct option lo[] = {
	    {"loss", required_argument, NULL, 'L'},  {"resolution", required_argument, NULL, 'R'},
	    {"trial", required_argument, NULL, 'T'}, {"confirm", required_argument, NULL, 'K'},
	    {"json", no_argument, NULL, 'J'},	     {"csv", required_argument, NULL, 'C'},
	    {"pause", required_argument, NULL, 'P'}, {NULL, 0, NULL, 0}};
	char err[FG_ERRLEN];
	int c;

	memset(o, 0, sizeof(*o));
	o->res_pct = BENCH_DEF_RES_PCT;
	o->trial_s = BENCH_DEF_TRIAL_S;
	o->confirm_s = BENCH_DEF_CONFIRM_S;
	o->mask = -1;
	o->json = cmds_json();
	if (argc < 2 || argv[1][0] == '-')
		return bench_bad("which test? throughput, latency, cps or capacity");
	for (int k = 1; k < BENCH_KIND_COUNT; k++)
		if (strcmp(argv[1], bench_kind_names[k]) == 0)
			o->kind = (enum bench_kind)k;
	if (!o->kind)
		return bench_bad("unknown test '%s' (throughput, latency, cps, capacity)", argv[1]);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc - 1, argv + 1, "f:m:p:t:", lo, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->file = optarg;
			break;
		case 'm':
			if (units_parse_mult(optarg, &o->mult, err, sizeof(err)) != 0)
				return bench_bad("-m %s", err);
			o->have_mult = true;
			break;
		case 'p':
			if ((o->mask = cmds_parse_ports(optarg)) <= 0)
				return bench_bad("-p '%s': no such ports (0..%d)", optarg,
						 fg_nports - 1);
			break;
		case 't':
			o->tunables = optarg;
			break;
		case 'L':
			if (bench_pct(optarg, 0, false, 100, &o->loss_pct) != 0)
				return bench_bad("--loss '%s': a percentage from 0 to 100", optarg);
			break;
		case 'R':
			if (bench_pct(optarg, 0, true, 50, &o->res_pct) != 0)
				return bench_bad(
				    "--resolution '%s': a percentage above 0, at most 50", optarg);
			break;
		case 'T':
			if (units_parse_duration(optarg, &o->trial_s, err, sizeof(err)) != 0 ||
			    !(o->trial_s >= 0.1) || o->trial_s > 86400)
				return bench_bad("--trial '%s': a duration from 100ms to 24h",
						 optarg);
			break;
		case 'K':
			if (units_parse_duration(optarg, &o->confirm_s, err, sizeof(err)) != 0 ||
			    (o->confirm_s != 0 && !(o->confirm_s >= 0.1)) || o->confirm_s > 86400)
				return bench_bad("--confirm '%s': 0 (none) or 100ms to 24h",
						 optarg);
			o->have_confirm = true;
			break;
		case 'J':
			o->json = true;
			break;
		case 'C':
			o->csv_path = optarg;
			break;
		case 'P':
			if (units_parse_duration(optarg, &o->pause_s, err, sizeof(err)) != 0 ||
			    o->pause_s > 3600)
				return bench_bad("--pause '%s': a duration up to 1h", optarg);
			break;
		default:
			/* optind counts in argv + 1: argv[optind] is the word refused */
			return bench_bad("'%s': unknown option or missing value",
					 optind < argc ? argv[optind] : argv[argc - 1]);
		}
	}
	if (optind + 1 != argc)
		return bench_bad("unexpected '%s'", argv[optind + 1]);
	if (!o->file)
		return bench_bad("-f PROFILE is required");
	if (o->kind == BENCH_LATENCY && !o->have_mult)
		return bench_bad("latency needs -m MULT, the load to measure at");
	if (o->kind == BENCH_CAPACITY && !o->have_mult)
		return bench_bad("capacity needs -m MULT, a connection rate the DUT sustains");
	if (o->have_confirm && o->kind != BENCH_THROUGHPUT && o->kind != BENCH_CPS)
		return bench_bad("--confirm is for throughput and cps");
	if (o->have_mult && o->mult.kind == UNITS_MAX)
		return bench_bad("-m max is unpaced: give a rate");
	return 0;
}

/* ---- control: output ------------------------------------------------------ */

/* Progress lines: stdout, or stderr when stdout carries the JSON. */
static void bench_say(const struct bench *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void bench_say(const struct bench *b, const char *fmt, ...)
{
	FILE *f = b->o.json ? stderr : stdout;
	va_list ap;

	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fflush(f);
}

/* The -m that units_parse_mult reads back as r. */
static void bench_fmt_mult(const struct units_rate *r, char *buf, size_t len)
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

static void json_num(FILE *f, const char *key, double v)
{
	if (isfinite(v))
		fprintf(f, "\"%s\":%.3f", key, v);
	else
		fprintf(f, "\"%s\":null", key);
}

static void json_lat(FILE *f, const struct bench_lat *l)
{
	if (!l->frames) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"frames\":%" PRIu64 ",\"samples\":%" PRIu64 ",\"lost\":%" PRIu64 ",",
		l->frames, l->samples, l->lost);
	const struct {
		const char *key;
		double v;
	} us[] = {{"min_us", l->min_us}, {"avg_us", l->avg_us}, {"max_us", l->max_us},
		  {"p50_us", l->p50_us}, {"p99_us", l->p99_us}, {"p999_us", l->p999_us},
		  {"pdv_us", l->pdv_us}};

	for (size_t i = 0; i < FG_ARRAY_SIZE(us); i++) {
		json_num(f, us[i].key, us[i].v);
		fputc(i + 1 < FG_ARRAY_SIZE(us) ? ',' : '}', f);
	}
}

static void json_trial(FILE *f, const struct bench_words *w, const struct bench_trial *t, size_t i)
{
	char k[32];

	fprintf(f, "{\"trial\":%zu,\"confirm\":%s,", i + 1, t->confirm ? "true" : "false");
	snprintf(k, sizeof(k), "offered_%s", w->unit);
	json_num(f, k, t->rate);
	fputc(',', f);
	json_num(f, "offered_line_pct", t->line_pct);
	fputs(",\"mult\":", f);
	stats_json_str(f, t->mult);
	fputc(',', f);
	if (t->conns)
		fprintf(f, "\"conns\":%" PRIu64 ",", t->conns);
	json_num(f, "send_s", t->span);
	fputc(',', f);
	snprintf(k, sizeof(k), "achieved_%s", w->unit);
	json_num(f, k, t->achieved);
	fprintf(f,
		",\"%s\":%" PRIu64 ",\"%s\":%" PRIu64 ",\"%s\":%" PRIu64 ",\"queue_full\":%" PRIu64
		",\"oerrors\":%" PRIu64 ",\"imissed\":%" PRIu64 ",",
		w->tx, t->tx, w->rx, t->rx, w->lost, t->lost, t->queue_full, t->oerrors,
		t->imissed);
	fprintf(f, "\"loss_pct\":%.6f,\"valid\":%s,\"passed\":%s,\"reason\":", t->loss_pct,
		t->valid ? "true" : "false", t->passed ? "true" : "false");
	if (t->why[0])
		stats_json_str(f, t->why);
	else
		fputs("null", f);
	fputs(",\"latency\":", f);
	json_lat(f, &t->lat);
	fputc('}', f);
}

static void csv_header(FILE *f, const struct bench_words *w)
{
	fprintf(f,
		"bench,trial,offered_%s,offered_line_pct,mult,send_s,achieved_%s,%s,%s,%s,loss_pct,"
		"valid,passed,reason,lat_frames,lat_lost,min_us,avg_us,max_us,p50_us,p99_us,"
		"p999_us,pdv_us,conns,confirm\n",
		w->unit, w->unit, w->tx, w->rx, w->lost);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.3f", v);
	else
		fputs(",inf", f);
}

static void csv_trial(const struct bench *b, const struct bench_trial *t)
{
	FILE *f = b->csv;

	if (!f)
		return;
	fprintf(f,
		"%s,%zu,%.3f,%.3f,%s,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f,%d,%d,\"",
		bench_kind_names[b->o.kind], b->n, t->rate, t->line_pct, t->mult, t->span,
		t->achieved, t->tx, t->rx, t->lost, t->loss_pct, t->valid, t->passed);
	for (const char *s = t->why; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fprintf(f, "\",%" PRIu64 ",%" PRIu64, t->lat.frames, t->lat.lost);
	csv_num(f, t->lat.min_us);
	csv_num(f, t->lat.avg_us);
	csv_num(f, t->lat.max_us);
	csv_num(f, t->lat.p50_us);
	csv_num(f, t->lat.p99_us);
	csv_num(f, t->lat.p999_us);
	csv_num(f, t->lat.pdv_us);
	fprintf(f, ",%" PRIu64 ",%d\n", t->conns, t->confirm);
	fflush(f);
}

static void bench_trial_head(const struct bench *b)
{
	const struct bench_words *w = &bench_words[b->o.kind];
	char off[24], ach[24];

	snprintf(off, sizeof(off), "offered %s", w->unit);
	snprintf(ach, sizeof(ach), "achieved %s", w->unit);
	bench_say(b, "%5s %14s %8s %14s %14s %14s %12s %9s  %s", "trial", off, "line %", ach, w->tx,
		  w->rx, w->lost, "loss %", "verdict");
}

static bool bench_flows(const struct bench *b);

static void bench_trial_line(const struct bench *b, const struct bench_trial *t)
{
	char verdict[192], line[24], conf[40] = "";

	if (t->confirm)
		snprintf(conf, sizeof(conf), " (confirmation, %g s)", t->secs);
	if (!t->valid)
		snprintf(verdict, sizeof(verdict), "invalid%s: %s", conf, t->why);
	else
		snprintf(verdict, sizeof(verdict), "%s%s", t->passed ? "pass" : "fail", conf);
	if (bench_flows(b))
		snprintf(line, sizeof(line), "-");
	else
		snprintf(line, sizeof(line), "%.3f", t->line_pct);
	bench_say(b, "%5zu %14.0f %8s %14.0f %14" PRIu64 " %14" PRIu64 " %12" PRIu64 " %9.4f  %s",
		  b->n, t->rate, line, t->achieved, t->tx, t->rx, t->lost, t->loss_pct, verdict);
}

static const char *us_str(double v, char *buf, size_t len)
{
	if (isinf(v))
		snprintf(buf, len, "inf");
	else
		snprintf(buf, len, "%.1f", v);
	return buf;
}

static void bench_lat_text(const struct bench *b, const struct bench_lat *l)
{
	char a[24], c[24], d[24], e[24];

	if (!l->frames) {
		bench_say(b, "latency: no stamped frames (no stream has latency: true)");
		return;
	}
	bench_say(b,
		  "latency (us): min %.1f avg %.1f max %.1f median %s p99 %s p99.9 %s PDV %s "
		  "(%" PRIu64 " stamped frames, %" PRIu64 " lost)",
		  l->min_us, l->avg_us, l->max_us, us_str(l->p50_us, a, sizeof(a)),
		  us_str(l->p99_us, c, sizeof(c)), us_str(l->p999_us, d, sizeof(d)),
		  us_str(l->pdv_us, e, sizeof(e)), l->frames, l->lost);
}

/* ---- control: a trial ----------------------------------------------------- */

/* The -m of the start rate scaled by f (every form is linear in its value). */
static struct units_rate bench_scaled(const struct units_rate *top, double f)
{
	struct units_rate r = *top;

	r.value *= f;
	return r;
}

static void bench_run_params(const struct bench *b, const struct units_rate *mult,
			     struct run_params *rp)
{
	memset(rp, 0, sizeof(*rp));
	rp->prof = &b->prof;
	rp->mult = *mult;
	rp->duration_s = b->o.trial_s;
	rp->port_mask = (uint32_t)b->o.mask;
	rp->tunables = b->o.tunables;
	rp->drain_s = BENCH_LATE_WAIT_S;
}

static bool bench_flows(const struct bench *b)
{
	return b->o.kind == BENCH_CPS || b->o.kind == BENCH_CAPACITY;
}

/* Port pairs a flows run opens connections on (both ports selected). */
static unsigned bench_pairs(const struct bench *b)
{
	unsigned n = 0;

	for (int p = 0; p + 1 < fg_nports; p += 2)
		n += (b->o.mask >> p & 1) && (b->o.mask >> (p + 1) & 1);
	return n;
}

/*
 * What a run at mult offers: frames/s (streams) or connections/s over
 * every pair (flows), and the busiest port's share of line rate (streams;
 * 0 for flows: unknown).
 */
static int bench_offered(const struct bench *b, const struct run_params *rp, double *rate,
			 double *line_pct, char *err, size_t errlen)
{
	int rc;

	if (!bench_flows(b))
		return streams_offered(rp, rate, line_pct, err, errlen);
	*line_pct = 0;
	rc = flows_offered_cps(rp, rate, err, errlen);
	*rate *= bench_pairs(b);
	if (!rc && !(*rate > 0)) {
		snprintf(err, errlen, "-p selects no whole port pair");
		rc = -EINVAL;
	}
	return rc;
}

/* Pacers of the run: (stream, port) pairs, or one per worker for flows. */
static unsigned bench_senders(const struct bench *b)
{
	unsigned n = 0;

	if (bench_flows(b))
		return (unsigned)FG_MAX(fg_nworkers, 1);
	for (size_t i = 0; i < b->prof.n_streams; i++)
		for (int p = 0; p < fg_nports; p++)
			if ((b->prof.streams[i].tx_mask >> p & 1) && (p ^ 1) < fg_nports &&
			    (b->o.mask >> p & 1))
				n++;
	return n;
}

/*
 * A flows run that ended: connections started, completed and not
 * completed. A connection completed when both of its ends, the client
 * (initiator) and the server (responder) side of the pair, ran their
 * programs to the end: every frame of phase 1 arrived (RFC 9693). One
 * that did not failed (no reply, reset, retransmit limit, table full) or
 * never reached the server. Flows report no sending time of their own:
 * the trial's time is used.
 */
static int bench_collect_flows(struct bench_trial *t)
{
	struct stats_snap *s = malloc(sizeof(*s));

	if (!s)
		return -ENOMEM;
	stats_get(s);
	t->tx = s->flows.client.started;
	t->rx = FG_MIN(s->flows.client.completed, s->flows.server.completed);
	t->lost = t->tx > t->rx ? t->tx - t->rx : 0;
	t->span = t->secs;
	t->queue_full = s->total.tx_queue_full;
	t->oerrors = s->total.oerrors;
	t->imissed = s->total.imissed;
	free(s);
	return 0;
}

/* The final counters of the run that just ended, into t. */
static int bench_collect(struct bench_trial *t)
{
	struct lat_hist *h = malloc(sizeof(*h));
	struct lat_seq *q = malloc(sizeof(*q));
	struct stats_snap *s = malloc(sizeof(*s));
	uint64_t tx = 0;
	int rc = -ENOMEM;

	if (!h || !q || !s)
		goto out;
	rc = streams_totals(false, NULL, q, &t->tx, &t->span);
	if (rc)
		goto out;
	t->lost = lat_seq_lost(q, t->tx);
	t->rx = q->rx - q->dup;
	rc = streams_totals(true, h, q, &tx, NULL);
	if (rc)
		goto out;
	bench_lat_summary(h, tx, lat_seq_lost(q, tx), &t->lat);
	stats_get(s);
	t->queue_full = s->total.tx_queue_full;
	t->oerrors = s->total.oerrors;
	t->imissed = s->total.imissed;
out:
	free(h);
	free(q);
	free(s);
	return rc;
}

/*
 * Run one trial at `mult` and judge it. 0, or -1: the trial could not run
 * (error printed) or was interrupted (b->interrupted).
 */
static int bench_trial(struct bench *b, const struct units_rate *mult, double secs,
		       struct bench_trial *t)
{
	struct run_params rp;
	char err[FG_ERRLEN];

	memset(t, 0, sizeof(*t));
	bench_run_params(b, mult, &rp);
	rp.duration_s = secs;
	if (bench_offered(b, &rp, &t->rate, &t->line_pct, err, sizeof(err)) != 0) {
		fg_err("bench: %s", err);
		return -1;
	}
	bench_fmt_mult(mult, t->mult, sizeof(t->mult));
	t->secs = secs;
	t->senders = b->senders;
	if (cmds_run_start(b->o.file, &rp, CMDS_RUN_QUIET, "bench") != 0)
		return -1;
	if (!cmds_wait_idle(secs + b->prof.timeout + BENCH_TRIAL_GUARD_S, true)) {
		b->interrupted = cli_interrupted();
		cmds_stop_traffic();
		if (!b->interrupted)
			fg_err("bench: the trial did not end within %.0f s; stopped",
			       secs + b->prof.timeout + BENCH_TRIAL_GUARD_S);
		return -1;
	}
	if ((bench_flows(b) ? bench_collect_flows(t) : bench_collect(t)) != 0) {
		fg_err("bench: the trial's counters could not be read");
		return -1;
	}
	bench_trial_judge(t, b->o.kind == BENCH_LATENCY ? 100 : b->o.loss_pct);
	return 0;
}

static struct bench_trial *bench_add(struct bench *b)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 16;
		struct bench_trial *t = realloc(b->t, cap * sizeof(*t));

		if (!t)
			return NULL;
		b->t = t;
		b->cap = cap;
	}
	return &b->t[b->n];
}

/* Run a trial into the next slot, print it; NULL when none was recorded. */
/* --pause between trials, cut short by ^C. */
static bool bench_pause(struct bench *b)
{
	for (double left = b->o.pause_s; left > 0; left -= 0.01) {
		if (cli_interrupted()) {
			b->interrupted = true;
			return false;
		}
		usleep(10 * 1000);
	}
	return true;
}

/*
 * Run a trial of `secs` into the next slot (after --pause if one ran
 * before), print it; NULL when none was recorded. confirm marks a
 * confirmation trial.
 */
static struct bench_trial *bench_step_for(struct bench *b, const struct units_rate *mult,
					  double secs, uint64_t conns, bool confirm)
{
	struct bench_trial *t = bench_add(b), tr;

	if (!t) {
		fg_err("bench: out of memory");
		return NULL;
	}
	if (b->n && !bench_pause(b))
		return NULL;
	if (bench_trial(b, mult, secs, &tr) != 0)
		return NULL;
	tr.conns = conns;
	tr.confirm = confirm;
	*t = tr;
	b->n++;
	bench_trial_line(b, t);
	csv_trial(b, t);
	return t;
}

static struct bench_trial *bench_step(struct bench *b, const struct units_rate *mult)
{
	return bench_step_for(b, mult, b->o.trial_s, 0, false);
}

/* ---- control: the tests ----------------------------------------------------- */

static void bench_json_head(const struct bench *b, FILE *f)
{
	fprintf(f, "{\"bench\":\"%s\",\"profile\":", bench_kind_names[b->o.kind]);
	stats_json_str(f, b->o.file);
	fputc(',', f);
	json_num(f, "trial_s", b->o.trial_s);
	fprintf(f, ",\"interrupted\":%s,\"trials\":[", b->interrupted ? "true" : "false");
	for (size_t i = 0; i < b->n; i++) {
		if (i)
			fputc(',', f);
		json_trial(f, &bench_words[b->o.kind], &b->t[i], i);
	}
	fputs("],", f);
}

/*
 * The confirmation of the rate found (bench_confirm): trials of --confirm
 * seconds, an invalid one run again like a search trial, then counted as
 * failed. *iconf: the index of the trial that confirmed, or -1. 0, or -1:
 * a trial could not run (said why); ^C sets b->interrupted and returns 0.
 */
static int bench_confirm_run(struct bench *b, double found, long *iconf)
{
	struct bench_confirm c;
	double rate;

	*iconf = -1;
	if (bench_confirm_init(&c, found, b->o.res_pct) != 0) {
		fg_err("bench: %g cannot be confirmed", found);
		return -1;
	}
	while ((rate = bench_confirm_next(&c)) > 0) {
		struct units_rate m = bench_scaled(&b->top, rate / b->top_rate);
		const struct bench_trial *t = bench_step_for(b, &m, b->o.confirm_s, 0, true);

		for (int again = 0; t && !t->valid && again < BENCH_INVALID_RETRIES; again++)
			t = bench_step_for(b, &m, b->o.confirm_s, 0, true);
		if (!t)
			break;
		bench_confirm_record(&c, t->passed);
		if (t->passed)
			*iconf = (long)(t - b->t);
	}
	return rate > 0 && !b->interrupted ? -1 : 0;
}

/* The figure of a passing trial: its rate and loss, for the result line. */
static void bench_figure(const struct bench *b, const struct bench_trial *t, char *buf, size_t len)
{
	if (bench_flows(b))
		snprintf(buf, len,
			 "%.0f cps (-m %s), %.4f %% of the flows not completed (goal <= %g %%)",
			 t->rate, t->mult, t->loss_pct, b->o.loss_pct);
	else
		snprintf(buf, len,
			 "%.0f fps (%.3f %% of line rate, -m %s), loss %.4f %% (goal <= %g %%)",
			 t->rate, t->line_pct, t->mult, t->loss_pct, b->o.loss_pct);
}

/* The result as text: the search's figure, and what its confirmation made of it. */
static void bench_search_text(const struct bench *b, const struct bench_trial *best,
			      const struct bench_trial *conf)
{
	const char *name = bench_kind_names[b->o.kind], *unit = bench_words[b->o.kind].unit;
	const char *intr = b->interrupted ? ", interrupted" : "";
	char fig[256];
	double low = 0;
	unsigned tried = 0;

	if (!best) {
		bench_say(b, "%s: no trial passed (%zu trials%s)", name, b->n, intr);
		return;
	}
	if (!(b->o.confirm_s > 0)) {
		bench_figure(b, best, fig, sizeof(fig));
		bench_say(b, "%s: %s, %zu trials%s", name, fig, b->n, intr);
	} else if (conf && conf->rate >= best->rate) {
		bench_figure(b, conf, fig, sizeof(fig));
		bench_say(b, "%s: %s, confirmed by a %g s trial, %zu trials%s", name, fig,
			  conf->secs, b->n, intr);
	} else if (conf) {
		bench_figure(b, conf, fig, sizeof(fig));
		bench_say(b,
			  "%s: %s, confirmed by a %g s trial %.2f %% below the search's %.0f %s, "
			  "%zu trials%s",
			  name, fig, conf->secs, (best->rate - conf->rate) * 100.0 / best->rate,
			  best->rate, unit, b->n, intr);
	} else {
		for (size_t i = 0; i < b->n; i++)
			if (b->t[i].confirm) {
				low = tried++ ? FG_MIN(low, b->t[i].rate) : b->t[i].rate;
			}
		bench_figure(b, best, fig, sizeof(fig));
		if (tried)
			bench_say(b,
				  "%s: not confirmed: no %g s trial passed (%u, from %.0f down to "
				  "%.0f %s); the search found %s, %zu trials%s",
				  name, b->o.confirm_s, tried, best->rate, low, unit, fig, b->n,
				  intr);
		else
			bench_say(b, "%s: not confirmed; the search found %s, %zu trials%s", name,
				  fig, b->n, intr);
	}
	if (!bench_flows(b) && (conf ? conf : best)->lat.frames)
		bench_lat_text(b, &(conf ? conf : best)->lat);
}

/*
 * throughput and cps: the binary search, then the confirmation of the
 * highest rate that passed (unless --confirm 0).
 */
static int bench_search_run(struct bench *b)
{
	const struct bench_words *w = &bench_words[b->o.kind];
	const char *name = bench_kind_names[b->o.kind];
	const struct bench_trial *best = NULL, *conf = NULL;
	struct bench_search s;
	long ibest = -1, iconf = -1;
	char topm[48], err[FG_ERRLEN], k[32], then[64] = "";
	struct run_params rp;
	double rate;

	b->top = b->o.have_mult ? b->o.mult : (struct units_rate){.kind = UNITS_PCT, .value = 100};
	bench_fmt_mult(&b->top, topm, sizeof(topm));
	bench_run_params(b, &b->top, &rp);
	if (bench_offered(b, &rp, &b->top_rate, &b->top_line, err, sizeof(err)) != 0) {
		fg_err("bench: -m %s: %s", topm, err);
		return -1;
	}
	if (bench_search_init(&s, b->top_rate, b->o.res_pct) != 0) {
		fg_err("bench: -m %s offers no traffic", topm);
		return -1;
	}
	if (b->o.confirm_s > 0)
		snprintf(then, sizeof(then), ", then a confirmation trial of %g s", b->o.confirm_s);
	if (bench_flows(b))
		bench_say(b,
			  "%s of %s: binary search from -m %s (%.0f cps), flows not completed <= "
			  "%g %%, resolution %g %%, trials of %g s%s",
			  name, b->o.file, topm, b->top_rate, b->o.loss_pct, b->o.res_pct,
			  b->o.trial_s, then);
	else
		bench_say(b,
			  "%s of %s: binary search from -m %s (%.0f fps, %.3f %% of line rate), "
			  "loss <= %g %%, resolution %g %%, trials of %g s%s",
			  name, b->o.file, topm, b->top_rate, b->top_line, b->o.loss_pct,
			  b->o.res_pct, b->o.trial_s, then);
	bench_trial_head(b);
	while ((rate = bench_search_next(&s)) > 0) {
		struct units_rate m = bench_scaled(&b->top, rate / b->top_rate);
		const struct bench_trial *t = bench_step(b, &m);

		/* an invalid trial measured the tester, not the DUT: again */
		for (int again = 0; t && !t->valid && again < BENCH_INVALID_RETRIES; again++)
			t = bench_step(b, &m);
		if (!t)
			break;
		/* an invalid trial that sent too little bounds what can be tried */
		bench_search_record(&s, rate, t->passed,
				    !t->valid && t->achieved < rate ? t->achieved : 0);
		if (t->passed && (ibest < 0 || t->rate > b->t[ibest].rate))
			ibest = (long)(t - b->t);
	}
	if (rate > 0 && !b->interrupted)
		return -1; /* a trial could not run: said why */
	/* the rate of the search's own trial, so that the -m is the same */
	if (ibest >= 0 && b->o.confirm_s > 0 && !b->interrupted &&
	    bench_confirm_run(b, bench_search_result(&s), &iconf) != 0)
		return -1;
	/* after the confirmation: b->t may have moved */
	best = ibest >= 0 ? &b->t[ibest] : NULL;
	conf = iconf >= 0 ? &b->t[iconf] : NULL;

	if (b->o.json) {
		FILE *f = stdout;

		bench_json_head(b, f);
		fprintf(f, "\"result\":{\"found\":%s,\"confirmed\":%s,", best ? "true" : "false",
			conf ? "true" : "false");
		fprintf(f, "\"loss_goal_pct\":%g,\"resolution_pct\":%g,", b->o.loss_pct,
			b->o.res_pct);
		json_num(f, "confirm_s", b->o.confirm_s);
		fputc(',', f);
		snprintf(k, sizeof(k), "start_%s", w->unit);
		json_num(f, k, b->top_rate);
		fputc(',', f);
		if (best) {
			json_num(f, w->result, best->rate);
			fputc(',', f);
			json_num(f, "line_pct", best->line_pct);
			fputs(",\"mult\":", f);
			stats_json_str(f, best->mult);
			fprintf(f,
				",\"trial\":%zu,\"loss_pct\":%.6f,\"latency\":", (size_t)ibest + 1,
				best->loss_pct);
			json_lat(f, &best->lat);
		} else {
			fprintf(f, "\"%s\":0", w->result);
		}
		snprintf(k, sizeof(k), "confirmed_%s", w->unit);
		if (conf) {
			fputc(',', f);
			json_num(f, k, conf->rate);
			fputc(',', f);
			json_num(f, "confirmed_line_pct", conf->line_pct);
			fputs(",\"confirmed_mult\":", f);
			stats_json_str(f, conf->mult);
			fprintf(f, ",\"confirmed_trial\":%ld,\"confirmed_loss_pct\":%.6f",
				iconf + 1, conf->loss_pct);
		} else {
			fprintf(f, ",\"%s\":0", k);
		}
		fputs("}}\n", f);
		fflush(f);
	} else {
		bench_search_text(b, best, conf);
	}
	return b->interrupted ? -1 : 0;
}

/*
 * capacity: at the safe rate -m, trials of n connections (n / rate
 * seconds each), n doubling from rate x --trial until one leaves
 * connections uncompleted, then a binary search for the largest n whose
 * connections all completed. The DUT must forget the connections of a
 * trial before the next (--pause: its connection timeout).
 */
static int bench_capacity(struct bench *b)
{
	const struct bench_words *w = &bench_words[b->o.kind];
	struct bench_grow g;
	struct run_params rp;
	char m[48], err[FG_ERRLEN];
	double rate, line;
	long ibest = -1;
	uint64_t n;

	bench_fmt_mult(&b->o.mult, m, sizeof(m));
	bench_run_params(b, &b->o.mult, &rp);
	if (bench_offered(b, &rp, &rate, &line, err, sizeof(err)) != 0) {
		fg_err("bench: -m %s: %s", m, err);
		return -1;
	}
	if (bench_grow_init(&g, (uint64_t)FG_MAX(1, llround(rate * b->o.trial_s)),
			    (uint64_t)FG_MAX(1, llround(rate * BENCH_CAPACITY_MAX_S)),
			    b->o.res_pct) != 0) {
		fg_err("bench: -m %s offers no connections", m);
		return -1;
	}
	bench_say(b,
		  "capacity of %s: connections at -m %s (%.0f cps), from %" PRIu64
		  " doubling, then binary search to %g %%, %g s between trials",
		  b->o.file, m, rate, g.n0, b->o.res_pct, b->o.pause_s);
	bench_trial_head(b);
	while ((n = bench_grow_next(&g)) > 0) {
		double secs = (double)n / rate;
		const struct bench_trial *t = bench_step_for(b, &b->o.mult, secs, n, false);

		for (int again = 0; t && !t->valid && again < BENCH_INVALID_RETRIES; again++)
			t = bench_step_for(b, &b->o.mult, secs, n, false);
		if (!t)
			break;
		bench_grow_record(&g, n, t->passed);
		if (t->passed && (ibest < 0 || n > b->t[ibest].conns))
			ibest = (long)(t - b->t);
	}
	if (n > 0 && !b->interrupted)
		return -1; /* a trial could not run: said why */
	if (b->o.json) {
		FILE *f = stdout;

		bench_json_head(b, f);
		fprintf(f, "\"result\":{\"found\":%s,\"%s\":%" PRIu64 ",",
			ibest >= 0 ? "true" : "false", w->result,
			ibest >= 0 ? b->t[ibest].conns : 0);
		fprintf(f, "\"at_limit\":%s,\"resolution_pct\":%g,", g.hi ? "false" : "true",
			b->o.res_pct);
		json_num(f, "rate_cps", rate);
		fputs(",\"mult\":", f);
		stats_json_str(f, m);
		if (ibest >= 0)
			fprintf(f, ",\"trial\":%ld", ibest + 1);
		fputs("}}\n", f);
		fflush(f);
	} else if (ibest >= 0) {
		bench_say(b,
			  "capacity: %" PRIu64 " connections%s at %.0f cps (-m %s), %zu trials%s",
			  b->t[ibest].conns, g.hi ? "" : " (no failure up to the largest tried)",
			  rate, m, b->n, b->interrupted ? ", interrupted" : "");
	} else {
		bench_say(b, "capacity: no trial completed all its connections (%zu trials%s)",
			  b->n, b->interrupted ? ", interrupted" : "");
	}
	return b->interrupted ? -1 : 0;
}

static int bench_latency(struct bench *b)
{
	const struct bench_trial *t;
	char m[48];
	bool ok;

	{
		bool any = false;

		for (size_t i = 0; i < b->prof.n_streams; i++)
			any |= b->prof.streams[i].latency;
		if (!any) {
			fg_err("bench: latency: no stream of %s has latency: true", b->o.file);
			return -1;
		}
	}
	bench_fmt_mult(&b->o.mult, m, sizeof(m));
	bench_say(b, "latency of %s at -m %s, one trial of %g s", b->o.file, m, b->o.trial_s);
	bench_trial_head(b);
	t = bench_step(b, &b->o.mult);
	if (!t && !b->interrupted)
		return -1;
	ok = t && t->valid && t->lat.frames >= BENCH_MIN_STAMPED;
	if (b->o.json) {
		FILE *f = stdout;

		bench_json_head(b, f);
		fprintf(f, "\"result\":{\"valid\":%s,", ok ? "true" : "false");
		if (t) {
			json_num(f, "offered_fps", t->rate);
			fputc(',', f);
			json_num(f, "achieved_fps", t->achieved);
			fputs(",\"latency\":", f);
			json_lat(f, &t->lat);
		} else {
			fputs("\"latency\":null", f);
		}
		fputs("}}\n", f);
		fflush(f);
	} else if (t) {
		bench_lat_text(b, &t->lat);
	}
	if (t && t->valid && t->lat.frames < BENCH_MIN_STAMPED)
		fg_err("bench: only %" PRIu64 " stamped frames; RFC 8219 asks for at least %d "
		       "(a longer --trial or a higher -m)",
		       t->lat.frames, BENCH_MIN_STAMPED);
	else if (t && !t->valid)
		fg_err("bench: the trial is invalid: %s", t->why);
	return ok ? 0 : -1;
}

int bench_cmd(int argc, char **argv)
{
	struct bench b;
	char err[FG_ERRLEN];
	int rc = -1;

	memset(&b, 0, sizeof(b));
	if (bench_parse(argc, argv, &b.o) != 0)
		return -1;
	if (ctl_busy()) {
		fg_err("bench: traffic is running (stop it first)");
		return -1;
	}
	if (prof_load(b.o.file, &b.prof, err, sizeof(err)) != 0) {
		fg_err("%s", err);
		return -1;
	}
	for (size_t i = 0; i < b.prof.n_warnings; i++)
		fg_warn("%s", b.prof.warnings[i]);
	if (b.prof.mode != (bench_flows(&b) ? PROF_FLOWS : PROF_STREAMS)) {
		fg_err("bench %s: %s is not a %s profile", bench_kind_names[b.o.kind], b.o.file,
		       bench_flows(&b) ? "flows" : "streams");
		goto out;
	}
	b.senders = bench_senders(&b);
	if (b.o.csv_path) {
		b.csv = fopen(b.o.csv_path, "w");
		if (!b.csv) {
			fg_err("bench: --csv %s: %s", b.o.csv_path, strerror(errno));
			goto out;
		}
		csv_header(b.csv, &bench_words[b.o.kind]);
		fflush(b.csv);
	}
	rc = b.o.kind == BENCH_LATENCY	  ? bench_latency(&b)
	     : b.o.kind == BENCH_CAPACITY ? bench_capacity(&b)
					  : bench_search_run(&b);
	if (b.interrupted)
		fg_err("bench: interrupted; traffic stopped");
out:
	if (b.csv && fclose(b.csv) != 0) {
		fg_err("bench: --csv %s: %s", b.o.csv_path, strerror(errno));
		rc = -1;
	}
	free(b.t);
	prof_free(&b.prof);
	return rc;
}
