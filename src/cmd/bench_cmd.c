/*
 * bench_cmd.c — the console side of `bench`: what the user types and
 * reads. The command table calls bench_cmd on the console's thread; it
 * parses the options, then hands the test to the control half
 * (src/control/bench.c, bench_run), which runs the trials and reports
 * back through struct bench_report (src/control/bench.h). Everything printed comes
 * from here: the heading and one table line per trial as each ends, the
 * result as text or, with --json, as one JSON object holding every trial
 * and the result, and one CSV row per trial with --csv. With --json,
 * standard output carries that object alone: the heading, the trial lines
 * and every warning and error go to standard error (flowgen(8), bench).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_search.h"
#include "bench.h"
#include "bench_cmd.h"
#include "cli.h"
#include "json.h"
#include "natb.h"
#include "natb_cmd.h"
#include "plot.h"
#include "port.h"
#include "stats.h"
#include "units.h"

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
    [BENCH_TEARDOWN] = {"cps", "started", "completed", "failed", "teardown_cps"},
};

/* The report's context: the options and the --csv file. */
struct bench_out {
	struct cmd_ctx *x; /* the text on x->out (x->errout with --json); the value */
	const struct bench_opts *o;
	const struct bench_words *w;
	FILE *csv;
	bool plot_failed;
	bool json_failed;
};

/* ---- options ---------------------------------------------------------------- */

/* The searches' form; the row's usage adds bench nat's (natb_cmd.c). */
#define BENCH_SEARCH_USAGE                                                                          \
	"bench throughput|latency|cps|capacity|teardown -f PROFILE [-m MULT] [--loss PCT] "        \
	"[--resolution PCT] [--trial SECONDS] [--confirm SECONDS] [--pause SECONDS] [-p PORTS] "   \
	"[-t KEY=VAL,...] [--json] [--csv FILE] [--plot FILE.svg] [--reuse] [--dut-timeout SECONDS] " \
	"[--max N] [--dut-cmd CMD] [--dut-count CMD]"

const char bench_usage[] = BENCH_SEARCH_USAGE " | " NATB_USAGE;

static const struct option bench_longs[] = {
    {"loss", required_argument, NULL, 'L'},  {"resolution", required_argument, NULL, 'R'},
    {"trial", required_argument, NULL, 'T'}, {"confirm", required_argument, NULL, 'K'},
    {"json", no_argument, NULL, 'J'},	     {"csv", required_argument, NULL, 'C'},
    {"pause", required_argument, NULL, 'P'}, {"plot", required_argument, NULL, 'G'},
    {"reuse", no_argument, NULL, 'U'},	     {"dut-timeout", required_argument, NULL, 'D'},
    {"dut-cmd", required_argument, NULL, 'X'}, {"dut-count", required_argument, NULL, 'Y'},
    {"max", required_argument, NULL, 'N'},   {NULL, 0, NULL, 0}};
static const char *const bench_tests[] = {"throughput", "latency", "cps", "capacity", "teardown",
					  "nat", NULL};

const struct cli_optspec bench_spec = {
    .shorts = "f:m:p:t:", .longs = bench_longs, .words = bench_tests, .next = &natb_spec};

static int bench_bad(struct cmd_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bench_bad(struct cmd_ctx *x, const char *fmt, ...)
{
	char msg[FG_ERRLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return cmd_fail(x, FG_E_USAGE, NULL, NULL, "bench: %s; usage: %s", msg, BENCH_SEARCH_USAGE);
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

/* What the options of one test need and refuse, once they are read. */
static int bench_check(struct cmd_ctx *x, const struct bench_opts *o)
{
	if (!o->file)
		return bench_bad(x, "-f PROFILE is required");
	if (o->kind == BENCH_LATENCY && !o->have_mult)
		return bench_bad(x, "latency needs -m MULT, the load to measure at");
	if (o->kind == BENCH_CAPACITY && !o->have_mult)
		return bench_bad(x, "capacity needs -m MULT, a connection rate the DUT sustains");
	if (o->kind == BENCH_TEARDOWN && !o->have_mult)
		return bench_bad(x, "teardown needs -m MULT, a connection rate the DUT sustains");
	if (o->kind == BENCH_TEARDOWN && (!o->dut_cmd || !o->dut_cmd[0]))
		return bench_bad(x, "teardown needs --dut-cmd CMD, the command that deletes the "
				 "DUT's connection tracking table (RFC 9693)");
	if ((o->dut_cmd || o->dut_count) && o->kind != BENCH_TEARDOWN)
		return bench_bad(x, "--dut-cmd and --dut-count are for teardown");
	if (o->max_conns && o->kind != BENCH_CAPACITY && o->kind != BENCH_TEARDOWN)
		return bench_bad(x, "--max is for capacity and teardown");
	if (o->have_confirm && o->kind != BENCH_THROUGHPUT && o->kind != BENCH_CPS)
		return bench_bad(x, "--confirm is for throughput and cps");
	if (o->have_mult && o->mult.kind == UNITS_MAX)
		return bench_bad(x, "-m max is unpaced: give a rate");
	if ((o->reuse || o->dut_timeout > 0) && !bench_kind_flows(o->kind))
		return bench_bad(x, "--reuse and --dut-timeout are for cps, capacity and teardown");
	/* a trial that reuses tuples the DUT still holds measures its table,
	 * not its new connections */
	if (o->reuse && o->dut_timeout > 0 && o->pause_s < o->dut_timeout)
		return bench_bad(x, "--reuse with --pause %g s, shorter than --dut-timeout %g s: the "
				 "DUT would still hold the connections of the trial before and "
				 "pass them as established",
				 o->pause_s, o->dut_timeout);
	return 0;
}

static int bench_parse(struct cmd_ctx *x, int argc, char **argv, struct bench_opts *o)
{
	char err[FG_ERRLEN];
	int c;

	memset(o, 0, sizeof(*o));
	o->res_pct = BENCH_DEF_RES_PCT;
	o->trial_s = BENCH_DEF_TRIAL_S;
	o->confirm_s = BENCH_DEF_CONFIRM_S;
	o->mask = -1;
	o->json = cmd_json();
	if (argc < 2 || argv[1][0] == '-')
		return bench_bad(x, "which test? throughput, latency, cps, capacity or teardown");
	for (int k = 1; k < BENCH_KIND_COUNT; k++)
		if (strcmp(argv[1], bench_kind_names[k]) == 0)
			o->kind = (enum bench_kind)k;
	if (!o->kind)
		return bench_bad(x, "unknown test '%s' (throughput, latency, cps, capacity, teardown)",
				 argv[1]);
	cli_getopt_reset();
	while ((c = cli_getopt(argc - 1, argv + 1, &bench_spec)) != -1) {
		switch (c) {
		case 'f':
			o->file = optarg;
			break;
		case 'm':
			if (units_parse_mult(optarg, &o->mult, err, sizeof(err)) != 0)
				return bench_bad(x, "-m %s", err);
			o->have_mult = true;
			break;
		case 'p':
			if ((o->mask = cmd_parse_ports(optarg, fg_nports)) <= 0)
				return bench_bad(x, "-p '%s': no such ports (0..%d)", optarg,
						 fg_nports - 1);
			break;
		case 't':
			o->tunables = optarg;
			break;
		case 'L':
			if (bench_pct(optarg, 0, false, 100, &o->loss_pct) != 0)
				return bench_bad(x, "--loss '%s': a percentage from 0 to 100", optarg);
			break;
		case 'R':
			if (bench_pct(optarg, 0, true, 50, &o->res_pct) != 0)
				return bench_bad(x, 
				    "--resolution '%s': a percentage above 0, at most 50", optarg);
			break;
		case 'T':
			if (units_parse_duration(optarg, &o->trial_s, err, sizeof(err)) != 0 ||
			    !(o->trial_s >= 0.1) || o->trial_s > 86400)
				return bench_bad(x, "--trial '%s': a duration from 100ms to 24h",
						 optarg);
			break;
		case 'K':
			if (units_parse_duration(optarg, &o->confirm_s, err, sizeof(err)) != 0 ||
			    (o->confirm_s != 0 && !(o->confirm_s >= 0.1)) || o->confirm_s > 86400)
				return bench_bad(x, "--confirm '%s': 0 (none) or 100ms to 24h",
						 optarg);
			o->have_confirm = true;
			break;
		case 'J':
			o->json = true;
			break;
		case 'C':
			o->csv_path = optarg;
			break;
		case 'G':
			o->plot_path = optarg;
			break;
		case 'P':
			if (units_parse_duration(optarg, &o->pause_s, err, sizeof(err)) != 0 ||
			    o->pause_s > 3600)
				return bench_bad(x, "--pause '%s': a duration up to 1h", optarg);
			break;
		case 'U':
			o->reuse = true;
			break;
		case 'X':
			o->dut_cmd = optarg;
			break;
		case 'Y':
			o->dut_count = optarg;
			break;
		case 'N': {
			char *e;

			o->max_conns = strtoull(optarg, &e, 10);
			if (e == optarg || *e || optarg[0] == '-' || !o->max_conns ||
			    o->max_conns > 1000000000ull)
				return bench_bad(x, "--max '%s': a count of connections, 1..1000000000",
						 optarg);
			break;
		}
		case 'D':
			if (units_parse_duration(optarg, &o->dut_timeout, err, sizeof(err)) != 0 ||
			    !(o->dut_timeout > 0) || o->dut_timeout > 86400)
				return bench_bad(x, "--dut-timeout '%s': a duration above 0, up to 24h",
						 optarg);
			break;
		default:
			/* optind counts in argv + 1: argv[optind] is the word refused */
			return bench_bad(x, "'%s': unknown option or missing value",
					 optind < argc ? argv[optind] : argv[argc - 1]);
		}
	}
	if (optind + 1 != argc)
		return bench_bad(x, "unexpected '%s'", argv[optind + 1]);
	return bench_check(x, o);
}

/* ---- text ------------------------------------------------------------------- */

/*
 * Heading, trial lines and the text result: standard output, or standard
 * error when standard output carries the JSON.
 */
static void bench_say(const struct bench_out *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void bench_say(const struct bench_out *b, const char *fmt, ...)
{
	FILE *f = b->o->json ? b->x->errout : b->x->out;
	va_list ap;

	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fflush(f);
}

static void bench_trial_head(const struct bench_out *b)
{
	char off[24], ach[24];

	snprintf(off, sizeof(off), "offered %s", b->w->unit);
	snprintf(ach, sizeof(ach), "achieved %s", b->w->unit);
	bench_say(b, "%5s %14s %8s %14s %14s %14s %12s %9s  %s", "trial", off, "line %", ach,
		  b->w->tx, b->w->rx, b->w->lost, "loss %", "verdict");
}

/* A teardown trial's own figures, under its line (RFC 9693's two timestamps). */
static void bench_td_line(const struct bench_out *b, const struct bench_teardown *d)
{
	char cnt[96] = "";

	if (d->counted)
		snprintf(cnt, sizeof(cnt), "; the DUT's entries %" PRIu64 " at A, %" PRIu64 " at B",
			 d->dut_before, d->dut_after);
	bench_say(b,
		  "      teardown: %" PRIu64 " of %" PRIu64 " connections loaded%s; --dut-cmd exit %d, "
		  "TimestampB - TimestampA %.3f ms: %.0f connections/s torn down",
		  d->loaded, d->n, cnt, d->cmd_rc, d->secs * 1e3, d->rate);
}

static void bench_trial_line(const struct bench_out *b, const struct bench_trial *t, size_t n)
{
	char verdict[192], line[24], conf[40] = "";

	if (t->confirm)
		snprintf(conf, sizeof(conf), " (confirmation, %g s)", t->secs);
	if (!t->valid)
		snprintf(verdict, sizeof(verdict), "invalid%s: %s", conf, t->why);
	else
		snprintf(verdict, sizeof(verdict), "%s%s", t->passed ? "pass" : "fail", conf);
	if (bench_kind_flows(b->o->kind))
		snprintf(line, sizeof(line), "-");
	else
		snprintf(line, sizeof(line), "%.3f", t->line_pct);
	bench_say(b, "%5zu %14.0f %8s %14.0f %14" PRIu64 " %14" PRIu64 " %12" PRIu64 " %9.4f  %s",
		  n, t->rate, line, t->achieved, t->tx, t->rx, t->lost, t->loss_pct, verdict);
	if (b->o->kind == BENCH_TEARDOWN)
		bench_td_line(b, &t->td);
}

static const char *us_str(double v, char *buf, size_t len)
{
	if (isinf(v))
		snprintf(buf, len, "inf");
	else
		snprintf(buf, len, "%.1f", v);
	return buf;
}

static void bench_lat_text(const struct bench_out *b, const struct bench_lat *l)
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

/* The figure of a passing trial: its rate and loss, for the result line. */
static void bench_figure(const struct bench_out *b, const struct bench_trial *t, char *buf,
			 size_t len)
{
	if (bench_kind_flows(b->o->kind))
		snprintf(buf, len,
			 "%.0f cps (-m %s), %.4f %% of the flows not completed (goal <= %g %%)",
			 t->rate, t->mult, t->loss_pct, b->o->loss_pct);
	else
		snprintf(buf, len,
			 "%.0f fps (%.3f %% of line rate, -m %s), loss %.4f %% (goal <= %g %%)",
			 t->rate, t->line_pct, t->mult, t->loss_pct, b->o->loss_pct);
}

/* The result as text: the search's figure, and what its confirmation made of it. */
static void bench_search_text(const struct bench_out *b, const struct bench_result *r)
{
	const char *name = bench_kind_names[b->o->kind], *unit = b->w->unit;
	const struct bench_trial *best = r->best >= 0 ? &r->t[r->best] : NULL;
	const struct bench_trial *conf = r->confirmed >= 0 ? &r->t[r->confirmed] : NULL;
	const char *intr = r->interrupted ? ", interrupted" : "";
	char fig[256];
	double low = 0;
	unsigned tried = 0;

	if (!best) {
		bench_say(b, "%s: no trial passed (%zu trials%s)", name, r->n, intr);
		return;
	}
	if (!(b->o->confirm_s > 0)) {
		bench_figure(b, best, fig, sizeof(fig));
		bench_say(b, "%s: %s, %zu trials%s", name, fig, r->n, intr);
	} else if (conf && conf->rate >= best->rate) {
		bench_figure(b, conf, fig, sizeof(fig));
		bench_say(b, "%s: %s, confirmed by a %g s trial, %zu trials%s", name, fig,
			  conf->secs, r->n, intr);
	} else if (conf) {
		bench_figure(b, conf, fig, sizeof(fig));
		bench_say(b,
			  "%s: %s, confirmed by a %g s trial %.2f %% below the search's %.0f %s, "
			  "%zu trials%s",
			  name, fig, conf->secs, (best->rate - conf->rate) * 100.0 / best->rate,
			  best->rate, unit, r->n, intr);
	} else {
		for (size_t i = 0; i < r->n; i++)
			if (r->t[i].confirm) {
				low = tried++ ? FG_MIN(low, r->t[i].rate) : r->t[i].rate;
			}
		bench_figure(b, best, fig, sizeof(fig));
		if (tried)
			bench_say(b,
				  "%s: not confirmed: no %g s trial passed (%u, from %.0f down to "
				  "%.0f %s); the search found %s, %zu trials%s",
				  name, b->o->confirm_s, tried, best->rate, low, unit, fig, r->n,
				  intr);
		else
			bench_say(b, "%s: not confirmed; the search found %s, %zu trials%s", name,
				  fig, r->n, intr);
	}
	if (!bench_kind_flows(b->o->kind) && (conf ? conf : best)->lat.frames)
		bench_lat_text(b, &(conf ? conf : best)->lat);
}

/*
 * Distinct client (address, port) pairs the search used: the trials' sum
 * when each had ports of its own; with --reuse every trial starts from the
 * same first ports, so the largest trial's.
 */
static uint64_t bench_tuples_total(const struct bench_out *b, const struct bench_result *r)
{
	uint64_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		n = b->o->reuse ? FG_MAX(n, r->t[i].tuples) : n + r->t[i].tuples;
	return n;
}

static void bench_tuples_text(const struct bench_out *b, const struct bench_result *r)
{
	if (b->o->reuse)
		bench_say(b,
			  "tuples: every trial starts from the profile's first client ports "
			  "(--reuse)%s",
			  b->o->dut_timeout > 0 ? ", each after the DUT's timeout" : "");
	else
		bench_say(b,
			  "tuples: %" PRIu64 " distinct client (address, port) pairs, each trial "
			  "on client ports no earlier trial used",
			  bench_tuples_total(b, r));
	if (r->n && r->t[0].port_order)
		bench_say(b, "client ports: each address's in %s order%s",
			  r->t[0].port_order == PROF_DIST_RAND ? "pseudorandom" : "increasing",
			  r->t[0].port_order == PROF_DIST_RAND
			      ? " (RFC 9693 §4.4)"
			      : " (the profile's client_ports_order: seq)");
}

/* ---- JSON ------------------------------------------------------------------- */

static void json_lat(struct jw *j, const char *key, const struct bench_lat *l)
{
	if (!l->frames) {
		jw_null(j, key);
		return;
	}
	jw_obj(j, key);
	jw_u64(j, "frames", l->frames);
	jw_u64(j, "samples", l->samples);
	jw_u64(j, "lost", l->lost);
	jw_num(j, "min_us", l->min_us, 3);
	jw_num(j, "avg_us", l->avg_us, 3);
	jw_num(j, "max_us", l->max_us, 3);
	jw_num(j, "p50_us", l->p50_us, 3);
	jw_num(j, "p99_us", l->p99_us, 3);
	jw_num(j, "p999_us", l->p999_us, 3);
	jw_num(j, "pdv_us", l->pdv_us, 3);
	jw_obj_end(j);
}

static void json_trial(struct jw *j, const struct bench_words *w, const struct bench_trial *t,
		       size_t i)
{
	char k[32];

	jw_obj(j, NULL);
	jw_u64(j, "trial", i + 1);
	jw_bool(j, "confirm", t->confirm);
	snprintf(k, sizeof(k), "offered_%s", w->unit);
	jw_num(j, k, t->rate, 3);
	jw_num(j, "offered_line_pct", t->line_pct, 3);
	jw_str(j, "mult", t->mult);
	if (t->conns)
		jw_u64(j, "conns", t->conns);
	if (strcmp(w->unit, "cps") == 0) { /* the flows tests: cps, capacity */
		jw_u64(j, "tuples", t->tuples);
		jw_arr(j, "client_ports");
		jw_u64(j, NULL, t->port_lo);
		jw_u64(j, NULL, t->port_hi);
		jw_arr_end(j);
	}
	if (t->port_order)
		jw_str(j, "client_ports_order", t->port_order == PROF_DIST_RAND ? "rand" : "seq");
	jw_num(j, "send_s", t->span, 3);
	snprintf(k, sizeof(k), "achieved_%s", w->unit);
	jw_num(j, k, t->achieved, 3);
	jw_u64(j, w->tx, t->tx);
	jw_u64(j, w->rx, t->rx);
	jw_u64(j, w->lost, t->lost);
	jw_u64(j, "queue_full", t->queue_full);
	jw_u64(j, "oerrors", t->oerrors);
	jw_u64(j, "imissed", t->imissed);
	jw_num(j, "loss_pct", t->loss_pct, 6);
	jw_bool(j, "valid", t->valid);
	jw_bool(j, "passed", t->passed);
	jw_str(j, "reason", t->why[0] ? t->why : NULL);
	json_lat(j, "latency", &t->lat);
	if (t->td.n) { /* teardown */
		jw_obj(j, "teardown");
		jw_u64(j, "conns", t->td.n);
		jw_u64(j, "started", t->td.started);
		jw_u64(j, "loaded", t->td.loaded);
		jw_u64(j, "failed", t->td.failed);
		jw_i64(j, "dut_cmd_exit", t->td.cmd_rc);
		jw_num(j, "elapsed_s", t->td.secs, 6);
		jw_num(j, "teardown_cps", t->td.rate, 3);
		if (t->td.counted) {
			jw_u64(j, "dut_entries_a", t->td.dut_before);
			jw_u64(j, "dut_entries_b", t->td.dut_after);
		}
		jw_obj_end(j);
	}
	jw_obj_end(j);
}

/* The object up to its result: the test, the profile and every trial. */
static void bench_json_head(const struct bench_out *b, const struct bench_result *r,
			    struct jw *j)
{
	jw_obj(j, NULL);
	jw_str(j, "bench", bench_kind_names[b->o->kind]);
	jw_str(j, "profile", b->o->file);
	jw_num(j, "trial_s", b->o->trial_s, 3);
	jw_bool(j, "interrupted", r->interrupted);
	jw_arr(j, "trials");
	for (size_t i = 0; i < r->n; i++)
		json_trial(j, b->w, &r->t[i], i);
	jw_arr_end(j);
	if (bench_kind_flows(b->o->kind)) {
		jw_u64(j, "tuples", bench_tuples_total(b, r));
		jw_bool(j, "reuse", b->o->reuse);
		jw_num(j, "dut_timeout_s", b->o->dut_timeout, 3);
	}
}

/* throughput and cps: the search's figure and the confirmed one. */
static void bench_search_json(const struct bench_out *b, const struct bench_result *r,
			      struct jw *j)
{
	const struct bench_trial *best = r->best >= 0 ? &r->t[r->best] : NULL;
	const struct bench_trial *conf = r->confirmed >= 0 ? &r->t[r->confirmed] : NULL;
	char k[32];

	jw_bool(j, "found", best);
	jw_bool(j, "confirmed", conf);
	jw_num(j, "loss_goal_pct", b->o->loss_pct, JW_G);
	jw_num(j, "resolution_pct", b->o->res_pct, JW_G);
	jw_num(j, "confirm_s", b->o->confirm_s, 3);
	snprintf(k, sizeof(k), "start_%s", b->w->unit);
	jw_num(j, k, r->plan.rate, 3);
	if (best) {
		jw_num(j, b->w->result, best->rate, 3);
		jw_num(j, "line_pct", best->line_pct, 3);
		jw_str(j, "mult", best->mult);
		jw_i64(j, "trial", r->best + 1);
		jw_num(j, "loss_pct", best->loss_pct, 6);
		json_lat(j, "latency", &best->lat);
	} else {
		jw_u64(j, b->w->result, 0);
	}
	snprintf(k, sizeof(k), "confirmed_%s", b->w->unit);
	if (conf) {
		jw_num(j, k, conf->rate, 3);
		jw_num(j, "confirmed_line_pct", conf->line_pct, 3);
		jw_str(j, "confirmed_mult", conf->mult);
		jw_i64(j, "confirmed_trial", r->confirmed + 1);
		jw_num(j, "confirmed_loss_pct", conf->loss_pct, 6);
	} else {
		jw_u64(j, k, 0);
	}
}

static void bench_capacity_json(const struct bench_out *b, const struct bench_result *r,
				struct jw *j)
{
	jw_bool(j, "found", r->best >= 0);
	jw_u64(j, b->w->result, r->best >= 0 ? r->t[r->best].conns : 0);
	jw_bool(j, "at_limit", r->at_limit);
	jw_num(j, "resolution_pct", b->o->res_pct, JW_G);
	jw_num(j, "rate_cps", r->plan.rate, 3);
	jw_str(j, "mult", r->plan.mult);
	if (r->best >= 0)
		jw_i64(j, "trial", r->best + 1);
}

/* teardown: the tear-down rate at the largest count that passed (RFC 9693 §4.8). */
static void bench_teardown_json(const struct bench_out *b, const struct bench_result *r,
				struct jw *j)
{
	const struct bench_trial *t = r->best >= 0 ? &r->t[r->best] : NULL;

	jw_bool(j, "found", t);
	jw_num(j, b->w->result, t ? t->td.rate : 0, 3);
	jw_u64(j, "conns", t ? t->td.n : 0);
	jw_num(j, "elapsed_s", t ? t->td.secs : 0, 6);
	jw_bool(j, "at_limit", r->at_limit);
	jw_num(j, "rate_cps", r->plan.rate, 3);
	jw_str(j, "mult", r->plan.mult);
	jw_str(j, "dut_cmd", b->o->dut_cmd);
	jw_str(j, "dut_count", b->o->dut_count);
	if (t)
		jw_i64(j, "trial", r->best + 1);
}

static void bench_latency_json(const struct bench_result *r, struct jw *j)
{
	const struct bench_trial *t = r->best >= 0 ? &r->t[r->best] : NULL;

	jw_bool(j, "valid", r->valid);
	if (t) {
		jw_num(j, "offered_fps", t->rate, 3);
		jw_num(j, "achieved_fps", t->achieved, 3);
		json_lat(j, "latency", &t->lat);
	} else {
		jw_null(j, "latency");
	}
}

/* ---- CSV -------------------------------------------------------------------- */

static void csv_header(FILE *f, const struct bench_words *w, bool td)
{
	fprintf(f,
		"bench,trial,offered_%s,offered_line_pct,mult,send_s,achieved_%s,%s,%s,%s,loss_pct,"
		"valid,passed,reason,lat_frames,lat_lost,min_us,avg_us,max_us,p50_us,p99_us,"
		"p999_us,pdv_us,conns,confirm,tuples%s\n",
		w->unit, w->unit, w->tx, w->rx, w->lost,
		td ? ",loaded,dut_cmd_exit,elapsed_s,teardown_cps,dut_entries_a,dut_entries_b" : "");
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.3f", v);
	else
		fputs(",inf", f);
}

static void csv_trial(const struct bench_out *b, const struct bench_trial *t, size_t n)
{
	FILE *f = b->csv;

	if (!f)
		return;
	fprintf(f,
		"%s,%zu,%.3f,%.3f,%s,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f,%d,%d,\"",
		bench_kind_names[b->o->kind], n, t->rate, t->line_pct, t->mult, t->span,
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
	fprintf(f, ",%" PRIu64 ",%d,%" PRIu64, t->conns, t->confirm, t->tuples);
	if (b->o->kind == BENCH_TEARDOWN) {
		fprintf(f, ",%" PRIu64 ",%d,%.6f,%.3f,", t->td.loaded, t->td.cmd_rc, t->td.secs,
			t->td.rate);
		if (t->td.counted)
			fprintf(f, "%" PRIu64 ",%" PRIu64, t->td.dut_before, t->td.dut_after);
		else
			fputc(',', f);
	}
	fputc('\n', f);
	fflush(f);
}

/* ---- the report (struct bench_report) --------------------------------------- */

/* The profile suits the test: open --csv and write its header. */
static int out_begin(void *ctx)
{
	struct bench_out *b = ctx;

	if (!b->o->csv_path)
		return 0;
	b->csv = fopen(b->o->csv_path, "w");
	if (!b->csv)
		return cmd_fail(b->x, FG_E_FAILED, "--csv", NULL, "bench: --csv %s: %s",
				b->o->csv_path, strerror(errno));
	csv_header(b->csv, b->w, b->o->kind == BENCH_TEARDOWN);
	fflush(b->csv);
	return 0;
}

/* The heading of the test, then the head of the trial table. */
static void out_plan(void *ctx, const struct bench_plan *p)
{
	const struct bench_out *b = ctx;
	const struct bench_opts *o = b->o;
	const char *name = bench_kind_names[o->kind];
	char then[64] = "";

	if (o->kind == BENCH_LATENCY) {
		bench_say(b, "latency of %s at -m %s, one trial of %g s", o->file, p->mult,
			  o->trial_s);
	} else if (o->kind == BENCH_CAPACITY) {
		bench_say(b,
			  "capacity of %s: connections at -m %s (%.0f cps), from %" PRIu64
			  " doubling, then binary search to %g %%, %g s between trials",
			  o->file, p->mult, p->rate, p->n0, o->res_pct, o->pause_s);
	} else if (o->kind == BENCH_TEARDOWN) {
		bench_say(b,
			  "teardown of %s (RFC 9693, connection tear-down rate): N connections "
			  "loaded at -m %s (%.0f cps), N from %" PRIu64 " doubling, then binary "
			  "search to %g %%; the DUT's table deleted by `%s` between TimestampA and "
			  "TimestampB",
			  o->file, p->mult, p->rate, p->n0, o->res_pct, o->dut_cmd);
	} else {
		if (o->confirm_s > 0)
			snprintf(then, sizeof(then), ", then a confirmation trial of %g s",
				 o->confirm_s);
		if (bench_kind_flows(o->kind))
			bench_say(b,
				  "%s of %s: binary search from -m %s (%.0f cps), flows not "
				  "completed <= %g %%, resolution %g %%, trials of %g s%s",
				  name, o->file, p->mult, p->rate, o->loss_pct, o->res_pct,
				  o->trial_s, then);
		else
			bench_say(b,
				  "%s of %s: binary search from -m %s (%.0f fps, %.3f %% of line "
				  "rate), loss <= %g %%, resolution %g %%, trials of %g s%s",
				  name, o->file, p->mult, p->rate, p->line_pct, o->loss_pct,
				  o->res_pct, o->trial_s, then);
	}
	bench_trial_head(b);
}

static void out_trial(void *ctx, const struct bench_trial *t, size_t n)
{
	const struct bench_out *b = ctx;

	bench_trial_line(b, t, n);
	csv_trial(b, t, n);
}

/* The JSON object (text on the ctx's out, or its value), or the result as text. */
static void out_result(void *ctx, const struct bench_result *r)
{
	const struct bench_out *b = ctx;
	const struct bench_trial *t = r->best >= 0 ? &r->t[r->best] : NULL;
	const char *intr = r->interrupted ? ", interrupted" : "";

	if (b->o->json) {
		struct jw j;

		cmd_json_begin(b->x, &j, false);
		bench_json_head(b, r, &j);
		jw_obj(&j, "result");
		if (b->o->kind == BENCH_LATENCY)
			bench_latency_json(r, &j);
		else if (b->o->kind == BENCH_CAPACITY)
			bench_capacity_json(b, r, &j);
		else if (b->o->kind == BENCH_TEARDOWN)
			bench_teardown_json(b, r, &j);
		else
			bench_search_json(b, r, &j);
		jw_obj_end(&j);
		jw_obj_end(&j);
		if (cmd_json_end(b->x, &j) < 0)
			((struct bench_out *)ctx)->json_failed = true;
	} else if (b->o->kind == BENCH_LATENCY) {
		if (t)
			bench_lat_text(b, &t->lat);
	} else if (b->o->kind == BENCH_CAPACITY) {
		if (t)
			bench_say(
			    b,
			    "capacity: %" PRIu64 " connections%s at %.0f cps (-m %s), %zu trials%s",
			    t->conns, r->at_limit ? " (no failure up to the largest tried)" : "",
			    r->plan.rate, r->plan.mult, r->n, intr);
		else
			bench_say(b,
				  "capacity: no trial completed all its connections (%zu trials%s)",
				  r->n, intr);
	} else if (b->o->kind == BENCH_TEARDOWN) {
		if (t)
			bench_say(b,
				  "teardown: %.0f connections/s torn down: %" PRIu64
				  " connections deleted in %.3f ms (TimestampB - TimestampA), loaded at "
				  "%.0f cps (-m %s)%s, %zu trials%s",
				  t->td.rate, t->td.n, t->td.secs * 1e3, r->plan.rate, r->plan.mult,
				  r->at_limit ? ", the largest count tried" : "", r->n, intr);
		else
			bench_say(b, "teardown: no trial loaded and tore down all its connections "
				     "(%zu trials%s)", r->n, intr);
	} else {
		bench_search_text(b, r);
	}
	if (!b->o->json && bench_kind_flows(b->o->kind))
		bench_tuples_text(b, r);
	/* latency fails without a valid trial of enough stamped frames: say why */
	if (b->o->kind == BENCH_LATENCY && t && t->valid && t->lat.frames < BENCH_MIN_STAMPED)
		cmd_fail(b->x, FG_E_FAILED, NULL, "a longer --trial or a higher -m",
			 "bench: only %" PRIu64 " stamped frames; RFC 8219 asks for at least %d",
			 t->lat.frames, BENCH_MIN_STAMPED);
	else if (b->o->kind == BENCH_LATENCY && t && !t->valid)
		cmd_fail(b->x, FG_E_FAILED, NULL, NULL, "bench: the trial is invalid: %s", t->why);
	if (b->o->plot_path && plot_bench(b->o->plot_path, b->o->kind, r) != 0)
		((struct bench_out *)ctx)->plot_failed = true;
}

static bool out_stop(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

int bench_cmd(struct cmd_ctx *x, int argc, char **argv)
{
	struct bench_opts o;
	struct bench_out out = {.x = x, .o = &o};
	const struct bench_report rep = {
	    .ctx = &out,
	    .begin = out_begin,
	    .plan = out_plan,
	    .trial = out_trial,
	    .result = out_result,
	    .stop = out_stop,
	};
	int rc;

	if (argc >= 2 && strcmp(argv[1], "nat") == 0)
		return natb_cmd(x, argc - 1, argv + 1);
	if (bench_parse(x, argc, argv, &o) != 0)
		return -1;
	out.w = &bench_words[o.kind];
	rc = bench_run(&o, &rep, &x->err);
	if (rc < 0)
		x->err_shown = false;
	if (out.csv && fclose(out.csv) != 0)
		rc = cmd_fail(x, FG_E_FAILED, "--csv", NULL, "bench: --csv %s: %s", o.csv_path,
			      strerror(errno));
	return out.plot_failed || out.json_failed ? -1 : rc;
}
