/*
 * bench.c — the trials of `bench`, run on the console's thread. The console
 * half (src/console/bench_cmd.c) parses the command and calls bench_run;
 * from here every trial is a run of the profile, loaded once for all of
 * them, through the same life cycle as `start` (run_start,
 * run_wait_idle, run_stop of run.c)
 * for --trial seconds: the streams engine sends its learning frames first,
 * then the measured traffic, then waits BENCH_LATE_WAIT_S for late frames
 * (RFC 2544 §23) before it goes idle. The final counters are read once the
 * run has ended: frames sent and received per stream (by signature only),
 * the delay histogram of the stamped frames and the tester's own drops
 * (TX queue full, NIC oerrors and imissed); src/core/bench_search.c judges
 * the trial and picks the next rate.
 *
 * throughput searches over the offered frame rate (bench_search, RFC 2544
 * §26.1), from 100 % of line rate (or the -m given) down; the rate of a
 * trial is the start -m scaled, so every port keeps its share of the load.
 * cps does the same over the connection rate of a flows profile (RFC 9693
 * §4.5, maximum connection establishment rate; a flows run waits for its
 * connections to complete or time out instead). An invalid search trial is
 * run again, up to BENCH_INVALID_RETRIES times. The rate found is then
 * confirmed by a trial of --confirm seconds (bench_confirm, RFC 2544 §24:
 * stepping down by the resolution after a failure); the search's figure
 * stays in the result beside the confirmed one. capacity runs trials of n
 * connections at one rate, n doubling then bisected (bench_grow, RFC 9693
 * §4.9, connection tracking table capacity). latency runs one trial at -m
 * (RFC 8219 §7.2). teardown measures RFC 9693's connection tear-down rate
 * (§4.8): each trial empties the DUT's table (--dut-cmd; §4.4 starts every
 * experiment from an empty table), loads n connections into it
 * at the safe rate -m, then takes TimestampA, deletes the DUT's table
 * again (--dut-cmd) and takes TimestampB; n grows as capacity's does, and
 * each trial's rate is n / (TimestampB - TimestampA)
 * (bench_teardown_judge). The commands are the user's: flowgen cannot
 * reach into a DUT, and logs each one it runs.
 *
 * Nothing here formats output: the plan, each trial and the result go to
 * the console half through struct bench_report (bench.h), and why a bench
 * could not run is bench_run's error value (fg_error). ^C (the report's
 * stop) ends the trial running (its traffic drains); the trials done so
 * far are reported and the command fails.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_search.h"
#include "bench.h"
#include "ctl.h"
#include "errval.h"
#include "fgen.h"
#include "lat.h"
#include "port.h"
#include "prof.h"
#include "run.h"
#include "stats.h"
#include "units.h"
#include "worker.h"
#include "log.h"

#define BENCH_TRIAL_GUARD_S 120.0 /* learning and drain time beyond the trial */

struct bench {
	const struct bench_opts *o;
	const struct bench_report *rep;
	struct fg_error *err;	 /* why it could not run (bench_run's) */
	struct run_prof *sp;	 /* the profile, loaded once: every trial starts it */
	const struct prof *prof; /* what sp holds, for the checks and the rates */
	struct bench_trial *t;
	size_t n, cap;
	unsigned senders;
	bool interrupted;
	struct units_rate top; /* the -m of the start rate */
	double top_rate;
	bool fresh;		  /* flows: every trial on client ports no earlier one used */
	struct bench_tuples tup;  /* the windows of client ports handed out */
	uint32_t cport_lo, cport_hi; /* the next trial's window */
};

static bool bench_flows(const struct bench *b) { return bench_kind_flows(b->o->kind); }

/* The bench cannot go on: why, as its error value. Returns -1. */
__attribute__((format(printf, 5, 6))) static int bench_fail(struct bench *b, enum fg_errcode code,
							    const char *path, const char *hint,
							    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fg_error_vset(b->err, code, path, hint, fmt, ap);
	va_end(ap);
	return -1;
}

static bool bench_stopped(struct bench *b)
{
	if (b->rep->stop(b->rep->ctx))
		b->interrupted = true;
	return b->interrupted;
}

/* ---- progress (GET /metrics) ---------------------------------------------- */

static pthread_mutex_t prog_mu = PTHREAD_MUTEX_INITIALIZER;
static struct bench_progress prog;

void bench_progress_get(struct bench_progress *out)
{
	pthread_mutex_lock(&prog_mu);
	*out = prog;
	pthread_mutex_unlock(&prog_mu);
}

/* A test begins (kind) or ends (0). */
static void prog_test(enum bench_kind kind)
{
	pthread_mutex_lock(&prog_mu);
	prog.running = kind != 0;
	if (kind) {
		prog.kind = kind;
		prog.best = 0;
		prog.rate = 0;
		prog.conns = 0;
	}
	pthread_mutex_unlock(&prog_mu);
}

/* A trial begins (judged false) or was judged (t's verdict counted). */
static void prog_trial(const struct bench_trial *t, uint64_t conns, bool judged)
{
	pthread_mutex_lock(&prog_mu);
	prog.rate = t->rate;
	prog.conns = conns;
	if (judged) {
		prog.trials++;
		if (t->passed) {
			prog.passed++;
			prog.best = fmax(prog.best, t->rate);
		}
	}
	pthread_mutex_unlock(&prog_mu);
}

/* ---- a trial ---------------------------------------------------------------- */

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
	rp->prof = b->prof;
	rp->mult = *mult;
	rp->duration_s = b->o->trial_s;
	rp->port_mask = (uint32_t)b->o->mask;
	rp->tunables = b->o->tunables;
	rp->drain_s = BENCH_LATE_WAIT_S;
	rp->cport_lo = b->cport_lo;
	rp->cport_hi = b->cport_hi;
	if (bench_flows(b))
		rp->cport_order = bench_tuples_order(b->prof->ip_gen.client_ports_order);
}

/* ---- fresh tuples (bench_tuples.h) ----------------------------------------------- */

/*
 * A flows test offers the DUT only connections it has never seen, unless
 * --reuse: the client ports of the profile are cut into one window per
 * trial. 0, or -1 (said why).
 */
static int bench_tuples_setup(struct bench *b)
{
	const struct prof_ip_gen *g = &b->prof->ip_gen;
	uint32_t plo = g->client_ports.lo, phi = g->client_ports.hi,
		 naddrs = (uint32_t)g->client.n_list;
	struct fgen cli;
	uint32_t nq = fg_nworkers > 0 ? FG_MAX(fg_worker[0].nq, 1) : 1;

	b->fresh = bench_flows(b) && !b->o->reuse;
	if (!b->fresh)
		return 0;
	if (plo == 0 && phi == 0) {
		plo = FG_PROF_SPORT_DEFAULT;
		phi = 65535;
	}
	if (!g->client.list)
		naddrs = fgen_init(&cli, FGEN_INC, g->client.range.lo, g->client.range.hi, true, 0)
			     ? 0
			     : fgen_count(&cli);
	if (bench_tuples_init(&b->tup, naddrs, nq, plo, phi) != 0)
		return bench_fail(b, FG_E_REFUSED, b->o->file, NULL,
				  "bench: %s: no usable client address or port", b->o->file);
	return 0;
}

/* The tuple space of the profile, for messages. */
static void bench_tuples_say(const struct bench *b, char *buf, size_t len)
{
	snprintf(buf, len, "%u client addresses x client ports %u-%u", b->tup.naddrs,
		 b->tup.port_lo, b->tup.port_hi);
}

/*
 * The window of the next trial: conns connections at `rate` per second.
 * 0, or -1: the profile's client ports are used up (said why).
 */
static int bench_tuples_next(struct bench *b, double conns, double rate)
{
	char sp[96];

	if (!b->fresh)
		return 0;
	if (bench_tuples_take(&b->tup, conns, rate * b->prof->timeout, &b->cport_lo,
			      &b->cport_hi) == 0)
		return 0;
	bench_tuples_say(b, sp, sizeof(sp));
	return bench_fail(b, FG_E_REFUSED, NULL,
			  "widen the profile's client range or client_ports, shorten --trial, or "
			  "allow --reuse with --pause at least the DUT's connection timeout "
			  "(--dut-timeout)",
			  "bench: trial %zu needs %u client ports no earlier trial used, %u are "
			  "left (%s)",
			  b->n + 1, bench_tuples_ports(&b->tup, conns, rate * b->prof->timeout),
			  bench_tuples_left(&b->tup), sp);
}

/*
 * What a run at rp->mult offers, through the same load model as `start`:
 * frames/s (streams) or connections/s over every pair (flows), and the
 * busiest port's share of its line rate.
 */
static int bench_offered(const struct bench *b, struct run_params *rp, double *rate,
			 double *line_pct, char *err, size_t errlen)
{
	struct load_offer o;
	int rc = run_offered(rp, &o, err, errlen);

	if (rc)
		return rc;
	*rate = bench_flows(b) ? o.cps : o.pps;
	*line_pct = o.line_pct;
	if (!(*rate > 0)) {
		snprintf(err, errlen, "-p selects no port that sends (a flows run needs both ports of a pair)");
		return -EINVAL;
	}
	return 0;
}

/* Pacers of the run: (stream, port) pairs, or one per worker for flows. */
static unsigned bench_senders(const struct bench *b)
{
	unsigned n = 0;

	if (bench_flows(b))
		return (unsigned)FG_MAX(fg_nworkers, 1);
	for (size_t i = 0; i < b->prof->n_streams; i++)
		for (int p = 0; p < fg_nports; p++)
			if ((b->prof->streams[i].tx_mask >> p & 1) && (p ^ 1) < fg_nports &&
			    (b->o->mask >> p & 1))
				n++;
	return n;
}

/*
 * A flows run that ended: connections started, completed and not
 * completed. A connection completed when both of its ends, the client
 * (initiator) and the server (responder) side of the pair, ran their
 * programs to the end: every frame of phase 1 arrived (RFC 9693 §4.2,
 * §4.5), and a server's answer on the tuple it received came back
 * through the DUT (the check of §4.6, sent at once rather than after the
 * whole load). One
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
	rc = run_totals(false, NULL, q, &t->tx, &t->span);
	if (rc)
		goto out;
	t->lost = lat_seq_lost(q, t->tx);
	t->rx = q->rx - q->dup;
	rc = run_totals(true, h, q, &tx, NULL);
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
	if (bench_offered(b, &rp, &t->rate, &t->line_pct, err, sizeof(err)) != 0)
		return bench_fail(b, FG_E_REFUSED, NULL, NULL, "bench: %s", err);
	if (bench_tuples_next(b, t->rate * secs, t->rate) != 0)
		return -1;
	rp.cport_lo = b->cport_lo;
	rp.cport_hi = b->cport_hi;
	t->port_lo = b->cport_lo;
	t->port_hi = b->cport_hi;
	t->port_order = rp.cport_order;
	bench_mult_str(mult, t->mult, sizeof(t->mult));
	t->secs = secs;
	t->senders = b->senders;
	prog_trial(t, 0, false);
	if (run_start(b->sp, &rp, 0, "bench", b->err) != 0)
		return -1;
	if (!run_wait_idle(secs + b->prof->timeout + BENCH_TRIAL_GUARD_S, true)) {
		bench_stopped(b);
		run_stop(false);
		if (!b->interrupted)
			bench_fail(b, FG_E_FAILED, NULL, NULL,
				   "bench: the trial did not end within %.0f s; stopped",
				   secs + b->prof->timeout + BENCH_TRIAL_GUARD_S);
		return -1;
	}
	if ((bench_flows(b) ? bench_collect_flows(t) : bench_collect(t)) != 0)
		return bench_fail(b, FG_E_INTERNAL, NULL, NULL,
				  "bench: the trial's counters could not be read");
	if (bench_flows(b))
		t->tuples = run_fresh_tuples();
	bench_trial_judge(t, b->o->kind == BENCH_LATENCY ? 100 : b->o->loss_pct);
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

/* --pause between trials, cut short by ^C. */
static bool bench_pause(struct bench *b)
{
	for (double left = b->o->pause_s; left > 0; left -= 0.01) {
		if (bench_stopped(b))
			return false;
		usleep(10 * 1000);
	}
	return true;
}

/*
 * Run a trial of `secs` into the next slot (after --pause if one ran
 * before) and report it; NULL when none was recorded. confirm marks a
 * confirmation trial.
 */
static struct bench_trial *bench_step_for(struct bench *b, const struct units_rate *mult,
					  double secs, uint64_t conns, bool confirm)
{
	struct bench_trial *t = bench_add(b), tr;

	if (!t) {
		bench_fail(b, FG_E_INTERNAL, NULL, NULL, "bench: out of memory");
		return NULL;
	}
	if (b->n && !bench_pause(b))
		return NULL;
	if (bench_trial(b, mult, secs, &tr) != 0)
		return NULL;
	tr.conns = conns;
	tr.confirm = confirm;
	prog_trial(&tr, conns, true);
	*t = tr;
	b->n++;
	b->rep->trial(b->rep->ctx, t, b->n);
	return t;
}

static struct bench_trial *bench_step(struct bench *b, const struct units_rate *mult)
{
	return bench_step_for(b, mult, b->o->trial_s, 0, false);
}

/* ---- the tests -------------------------------------------------------------- */

static void bench_result_init(const struct bench *b, const struct bench_plan *p,
			      struct bench_result *r)
{
	memset(r, 0, sizeof(*r));
	r->t = b->t;
	r->n = b->n;
	r->interrupted = b->interrupted;
	r->plan = *p;
	r->best = -1;
	r->confirmed = -1;
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
	if (bench_confirm_init(&c, found, b->o->res_pct) != 0)
		return bench_fail(b, FG_E_FAILED, NULL, NULL, "bench: %g cannot be confirmed", found);
	while ((rate = bench_confirm_next(&c)) > 0) {
		struct units_rate m = bench_scaled(&b->top, rate / b->top_rate);
		const struct bench_trial *t = bench_step_for(b, &m, b->o->confirm_s, 0, true);

		for (int again = 0; t && !t->valid && again < BENCH_INVALID_RETRIES; again++)
			t = bench_step_for(b, &m, b->o->confirm_s, 0, true);
		if (!t)
			break;
		bench_confirm_record(&c, t->passed);
		if (t->passed)
			*iconf = (long)(t - b->t);
	}
	return rate > 0 && !b->interrupted ? -1 : 0;
}

/*
 * throughput and cps: the binary search, then the confirmation of the
 * highest rate that passed (unless --confirm 0).
 */
static int bench_search_run(struct bench *b)
{
	struct bench_plan plan = {0};
	struct bench_result r;
	struct bench_search s;
	long ibest = -1, iconf = -1;
	char err[FG_ERRLEN];
	struct run_params rp;
	double rate;

	b->top =
	    b->o->have_mult ? b->o->mult : (struct units_rate){.kind = UNITS_PCT, .value = 100};
	bench_mult_str(&b->top, plan.mult, sizeof(plan.mult));
	bench_run_params(b, &b->top, &rp);
	if (bench_offered(b, &rp, &b->top_rate, &plan.line_pct, err, sizeof(err)) != 0)
		return bench_fail(b, FG_E_REFUSED, "-m", NULL, "bench: -m %s: %s", plan.mult, err);
	if (bench_search_init(&s, b->top_rate, b->o->res_pct) != 0)
		return bench_fail(b, FG_E_USAGE, "-m", NULL, "bench: -m %s offers no traffic",
				  plan.mult);
	if (b->fresh) {
		uint64_t need = bench_tuples_search_need(&b->tup, b->top_rate, b->o->res_pct,
							 b->o->trial_s, b->o->confirm_s,
							 b->prof->timeout);
		char sp[96];

		if (need > bench_tuples_left(&b->tup)) {
			bench_tuples_say(b, sp, sizeof(sp));
			return bench_fail(b, FG_E_REFUSED, "-m",
					  "widen its client range or client_ports, lower -m or "
					  "--trial, or allow --reuse with --pause at least the "
					  "DUT's connection timeout (--dut-timeout)",
					  "bench: -m %s: the search may need %" PRIu64
					  " client ports that no earlier trial used, the profile "
					  "has %u (%s)",
					  plan.mult, need, bench_tuples_left(&b->tup), sp);
		}
	}
	plan.rate = b->top_rate;
	b->rep->plan(b->rep->ctx, &plan);
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
	if (ibest >= 0 && b->o->confirm_s > 0 && !b->interrupted &&
	    bench_confirm_run(b, bench_search_result(&s), &iconf) != 0)
		return -1;
	bench_result_init(b, &plan, &r);
	r.best = ibest;
	r.confirmed = iconf;
	b->rep->result(b->rep->ctx, &r);
	return b->interrupted ? -1 : 0;
}

/*
 * capacity and teardown: the plan of trials of n connections at the safe
 * rate -m, n growing from rate x --trial up to --max (or
 * BENCH_CAPACITY_MAX_S of the rate) as bench_grow does; reported. -1 when
 * the rate cannot be offered (said why).
 */
static int bench_conns_plan(struct bench *b, struct bench_plan *plan, struct bench_grow *g)
{
	struct run_params rp;
	char err[FG_ERRLEN];
	double line;
	uint64_t max;

	bench_mult_str(&b->o->mult, plan->mult, sizeof(plan->mult));
	bench_run_params(b, &b->o->mult, &rp);
	if (bench_offered(b, &rp, &plan->rate, &line, err, sizeof(err)) != 0)
		return bench_fail(b, FG_E_REFUSED, "-m", NULL, "bench: -m %s: %s", plan->mult, err);
	max = b->o->max_conns ? b->o->max_conns
			      : (uint64_t)FG_MAX(1, llround(plan->rate * BENCH_CAPACITY_MAX_S));
	if (bench_grow_init(g, FG_MIN(max, (uint64_t)FG_MAX(1, llround(plan->rate * b->o->trial_s))),
			    max, b->o->res_pct) != 0)
		return bench_fail(b, FG_E_USAGE, "-m", NULL, "bench: -m %s offers no connections",
				  plan->mult);
	plan->n0 = g->n0;
	b->rep->plan(b->rep->ctx, plan);
	return 0;
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
	struct bench_plan plan = {0};
	struct bench_result r;
	struct bench_grow g;
	long ibest = -1;
	uint64_t n;

	if (bench_conns_plan(b, &plan, &g) != 0)
		return -1;
	while ((n = bench_grow_next(&g)) > 0) {
		double secs = (double)n / plan.rate;
		const struct bench_trial *t = bench_step_for(b, &b->o->mult, secs, n, false);

		for (int again = 0; t && !t->valid && again < BENCH_INVALID_RETRIES; again++)
			t = bench_step_for(b, &b->o->mult, secs, n, false);
		if (!t)
			break;
		bench_grow_record(&g, n, t->passed);
		if (t->passed && (ibest < 0 || n > b->t[ibest].conns))
			ibest = (long)(t - b->t);
	}
	if (n > 0 && !b->interrupted)
		return -1; /* a trial could not run: said why */
	bench_result_init(b, &plan, &r);
	r.best = ibest;
	r.at_limit = !g.hi;
	b->rep->result(b->rep->ctx, &r);
	return b->interrupted ? -1 : 0;
}

/* ---- teardown (RFC 9693 §4.8, connection tear-down rate) ------------------------- */

static int64_t bench_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * Run one of the user's commands on the DUT (/bin/sh -c), logged on
 * standard error with why, its exit status and how long it took; its
 * first number of output into *count when count is not NULL. The exit
 * status, or -1 when it could not run (or printed no number for count).
 */
static int bench_dut(const char *what, const char *cmd, uint64_t *count)
{
	int64_t t0 = bench_mono_ns();
	char out[256] = "";
	FILE *p = popen(cmd, "r");
	int st, rc;
	size_t n = 0;

	if (!p) {
		fg_err("bench: dut: %s: `%s` could not run: %s", what, cmd, strerror(errno));
		return -1;
	}
	while (n + 1 < sizeof(out) && fgets(out + n, (int)(sizeof(out) - n), p))
		n = strlen(out);
	while (fgetc(p) != EOF) /* the rest: the command must not block on its pipe */
		;
	st = pclose(p);
	rc = st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (count) {
		char *e;
		unsigned long long v = strtoull(out, &e, 10);

		if (e == out)
			rc = rc ? rc : -1;
		*count = v;
	}
	fprintf(stderr, "bench: dut: %s: `%s`: exit %d in %.1f ms%s%s\n", what, cmd, rc,
		(double)(bench_mono_ns() - t0) / 1e6, count ? ", count " : "",
		count ? strtok(out, "\n") ? out : "(none)" : "");
	return rc;
}

/* Until the load of n connections is through the DUT, or its time (with
 * the profile's timeout) is over: the server sides that accepted and the
 * clients that failed account for all n. */
static void bench_td_wait_loaded(const struct bench *b, uint64_t n, double secs,
				 struct stats_snap *s)
{
	uint64_t end = (uint64_t)bench_mono_ns() +
		       (uint64_t)((secs + b->prof->timeout + 5) * 1e9);

	for (;;) {
		stats_get(s);
		if (s->flows.server.accepted + s->flows.client.failed >= n &&
		    s->flows.client.started >= n)
			return;
		if ((uint64_t)bench_mono_ns() > end || !run_busy())
			return;
		usleep(10 * 1000);
	}
}

/*
 * One teardown trial of n connections at -m over secs: the DUT's table
 * emptied, the load, TimestampA, the DUT's table deleted, TimestampB;
 * then the run's end (its flows end by their programs) and the judgement.
 */
static int bench_td_trial(struct bench *b, uint64_t n, double secs, struct bench_trial *t)
{
	struct bench_teardown *d = &t->td;
	struct stats_snap *s = malloc(sizeof(*s));
	struct run_params rp;
	char err[FG_ERRLEN];
	int rc = -1;

	if (!s)
		return bench_fail(b, FG_E_INTERNAL, NULL, NULL, "bench: out of memory");
	memset(t, 0, sizeof(*t));
	bench_run_params(b, &b->o->mult, &rp);
	rp.duration_s = secs;
	if (bench_offered(b, &rp, &t->rate, &t->line_pct, err, sizeof(err)) != 0) {
		bench_fail(b, FG_E_REFUSED, NULL, NULL, "bench: %s", err);
		goto out;
	}
	if (bench_tuples_next(b, (double)n, t->rate) != 0)
		goto out;
	rp.cport_lo = t->port_lo = b->cport_lo;
	rp.cport_hi = t->port_hi = b->cport_hi;
	t->port_order = rp.cport_order;
	bench_mult_str(&b->o->mult, t->mult, sizeof(t->mult));
	t->secs = secs;
	t->senders = b->senders;
	d->n = n;
	prog_trial(t, n, false);
	/* from an empty table: what the load puts there is what is torn down */
	if (bench_dut("empty the DUT's table before the load", b->o->dut_cmd, NULL) != 0) {
		bench_fail(b, FG_E_FAILED, "--dut-cmd", NULL, "bench: --dut-cmd failed");
		goto out;
	}
	if (run_start(b->sp, &rp, 0, "bench", b->err) != 0)
		goto out;
	bench_td_wait_loaded(b, n, secs, s);
	d->loaded = s->flows.server.accepted;
	d->failed = s->flows.client.failed;
	d->started = s->flows.client.started;
	if (b->o->dut_count)
		d->counted = bench_dut("the DUT's entries at TimestampA", b->o->dut_count,
				       &d->dut_before) == 0;
	d->ta_ns = bench_mono_ns();
	d->cmd_rc = bench_dut("delete the DUT's table (TimestampA to TimestampB)", b->o->dut_cmd,
			      NULL);
	d->tb_ns = bench_mono_ns();
	if (d->counted)
		d->counted = bench_dut("the DUT's entries at TimestampB", b->o->dut_count,
				       &d->dut_after) == 0;
	if (!run_wait_idle(secs + prof_flow_time(b->prof) + BENCH_TRIAL_GUARD_S, true)) {
		bench_stopped(b);
		run_stop(false);
		if (!b->interrupted)
			bench_fail(b, FG_E_FAILED, NULL, NULL,
				   "bench: the trial did not end in time; stopped");
		goto out;
	}
	if (bench_collect_flows(t) != 0) {
		bench_fail(b, FG_E_INTERNAL, NULL, NULL, "bench: the trial's counters could not be read");
		goto out;
	}
	t->tuples = run_fresh_tuples();
	bench_teardown_judge(t);
	rc = 0;
out:
	free(s);
	return rc;
}

/*
 * teardown: trials of n connections at the safe rate -m, n doubling from
 * rate x --trial while every connection is loaded and torn down, then a
 * binary search (bench_grow, as capacity); each trial's tear-down rate.
 * The result is the trial of the largest n that passed.
 */
static int bench_teardown(struct bench *b)
{
	struct bench_plan plan = {0};
	struct bench_result r;
	struct bench_grow g;
	long ibest = -1;
	uint64_t n;

	if (bench_conns_plan(b, &plan, &g) != 0)
		return -1;
	while ((n = bench_grow_next(&g)) > 0) {
		struct bench_trial *t = bench_add(b), tr;

		if (!t) {
			bench_fail(b, FG_E_INTERNAL, NULL, NULL, "bench: out of memory");
			break;
		}
		if (b->n && !bench_pause(b))
			break;
		if (bench_td_trial(b, n, (double)n / plan.rate, &tr) != 0)
			break;
		tr.conns = n;
		prog_trial(&tr, n, true);
		*t = tr;
		b->n++;
		b->rep->trial(b->rep->ctx, t, b->n);
		/* an invalid trial measured nothing: the search stops there */
		if (!t->valid)
			break;
		bench_grow_record(&g, n, t->passed);
		if (t->passed && (ibest < 0 || n > b->t[ibest].conns))
			ibest = (long)(t - b->t);
	}
	if (n > 0 && !b->interrupted && (b->n == 0 || b->t[b->n - 1].valid))
		return -1; /* a trial could not run: said why */
	bench_result_init(b, &plan, &r);
	r.best = ibest;
	r.at_limit = !g.hi;
	b->rep->result(b->rep->ctx, &r);
	return b->interrupted ? -1 : 0;
}

/* latency: one trial at -m; fails without BENCH_MIN_STAMPED stamped frames. */
static int bench_latency(struct bench *b)
{
	struct bench_plan plan = {0};
	const struct bench_trial *t;
	struct bench_result r;
	bool any = false;

	for (size_t i = 0; i < b->prof->n_streams; i++)
		any |= b->prof->streams[i].latency;
	if (!any)
		return bench_fail(b, FG_E_REFUSED, b->o->file, NULL,
				  "bench: latency: no stream of %s has latency: true", b->o->file);
	bench_mult_str(&b->o->mult, plan.mult, sizeof(plan.mult));
	b->rep->plan(b->rep->ctx, &plan);
	t = bench_step(b, &b->o->mult);
	if (!t && !b->interrupted)
		return -1;
	bench_result_init(b, &plan, &r);
	r.best = t ? (long)(t - b->t) : -1;
	r.valid = t && t->valid && t->lat.frames >= BENCH_MIN_STAMPED;
	b->rep->result(b->rep->ctx, &r);
	return r.valid ? 0 : -1;
}

int bench_run(const struct bench_opts *o, const struct bench_report *rep, struct fg_error *fe)
{
	struct bench b;
	char err[FG_ERRLEN];
	struct prof p;
	int rc = -1;

	memset(&b, 0, sizeof(b));
	b.o = o;
	b.rep = rep;
	b.err = fe;
	if (ctl_busy())
		return bench_fail(&b, FG_E_REFUSED, NULL, "stop it first",
				  "bench: traffic is running");
	/* once for every trial: each starts the same profile (run_prof) */
	if (prof_load(o->file, &p, err, sizeof(err)) != 0)
		return bench_fail(&b, FG_E_FAILED, o->file, NULL, "%s", err);
	b.sp = run_prof_new(&p, fe);
	if (!b.sp)
		return -1;
	b.prof = run_prof_get(b.sp);
	for (size_t i = 0; i < b.prof->n_warnings; i++)
		fg_warn("%s", b.prof->warnings[i]);
	if (b.prof->mode != (bench_flows(&b) ? PROF_FLOWS : PROF_STREAMS)) {
		bench_fail(&b, FG_E_REFUSED, o->file, NULL, "bench %s: %s is not a %s profile",
			   bench_kind_names[o->kind], o->file, bench_flows(&b) ? "flows" : "streams");
		goto out;
	}
	b.senders = bench_senders(&b);
	if (bench_tuples_setup(&b) != 0)
		goto out;
	if (rep->begin(rep->ctx) != 0)
		goto out;
	prog_test(o->kind);
	rc = o->kind == BENCH_LATENCY	 ? bench_latency(&b)
	     : o->kind == BENCH_CAPACITY ? bench_capacity(&b)
	     : o->kind == BENCH_TEARDOWN ? bench_teardown(&b)
					 : bench_search_run(&b);
	prog_test(0);
	if (b.interrupted)
		bench_fail(&b, FG_E_FAILED, NULL, NULL, "bench: interrupted; traffic stopped");
out:
	free(b.t);
	run_prof_put(b.sp); /* the last trial's run keeps its own reference */
	return rc;
}
