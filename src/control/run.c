/*
 * run.c — the traffic run: the one place that knows which engine a
 * profile's mode picks (the table run_engines below, of struct engine,
 * run.h), keeps the current run (its profile, the engine's per-worker
 * states, the load and the factors -m gave it) and drives the workers
 * through ctl.c.
 *
 * A start prepares the new run completely before it stops the old one, so
 * a profile or rate that is refused leaves running traffic running; what
 * the new run changes outside its own states (the streams' emulated hosts)
 * takes effect only once the old run has stopped (the engine's activate). Every
 * rate goes through the load model (load.h): the engine describes what
 * its ports send at -m 1, load_factors() applies -m and refuses what a
 * link cannot carry, and `update` and the tui's +/- are checked the same
 * way before the workers hear of them.
 *
 * Context: control (the console thread). The statistics thread calls the
 * report hooks; run_mu keeps them apart from the release of a run.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "ctl.h"
#include "errval.h"
#include "flows_ctl.h"
#include "port.h"
#include "prof.h"
#include "record.h"
#include "run.h"
#include "stats.h"
#include "streams_ctl.h"
#include "svc.h"
#include "worker.h"
#include "clock.h"
#include "log.h"

/* The engines, one row per profile mode (struct engine, run.h). */
static const struct engine *const run_engines[PROF_MODE_COUNT] = {
    [PROF_FLOWS] = &flows_engine,
    [PROF_STREAMS] = &streams_engine,
};

static struct {
	uint32_t flows_max;
	/* the current (or last) run */
	const struct engine *eng;	/* NULL: no run */
	struct run_prof *sp;		/* its profile (a reference) */
	void *states[FG_MAX_WORKERS];
	struct units_rate mult;		/* -m of the start */
	struct load load;
	double factor[FG_MAX_PORTS];	/* of the start */
	uint64_t link_bps[FG_MAX_PORTS];
	double scale;			/* update / tui: against the start rate */
	double duration_s;		/* of the start (0: none) */
	bool service;			/* service mode was on at the start */
	int64_t at_ns;			/* the planned start (wallclock.h) */
	bool planned;			/* by --at */
	uint64_t run_id;
	int origin;			/* enum run_origin of the current run */
	int cur_origin;			/* of the command being run */
} run;

const char *const run_origin_names[RUN_ORIGIN_COUNT] = {
    [RUN_ORIGIN_CONSOLE] = "console",
    [RUN_ORIGIN_API] = "API",
};

int run_set_origin(int origin)
{
	int prev = run.cur_origin;

	run.cur_origin = origin;
	return prev;
}

int run_going_origin(void)
{
	return ctl_busy() ? run.origin : -1;
}

/*
 * The statistics thread reads the run's engine states through the hooks
 * while the console may free them (run_release): run_mu keeps the two
 * apart. Workers never take it.
 */
static pthread_mutex_t run_mu = PTHREAD_MUTEX_INITIALIZER;

const struct engine *run_engine(int mode)
{
	if (mode < PROF_FLOWS || mode >= PROF_MODE_COUNT)
		return NULL;
	return run_engines[mode];
}

uint64_t run_worker_mem(uint32_t flows_max)
{
	uint64_t most = 0;

	for (int m = 0; m < PROF_MODE_COUNT; m++)
		if (run_engines[m] && run_engines[m]->worker_mem)
			most = FG_MAX(most, run_engines[m]->worker_mem(flows_max));
	return most;
}

static const struct engine *run_engine_of(const struct prof *p)
{
	return run_engine(p->mode);
}

struct run_prof {
	struct prof prof;
	unsigned refs; /* the console's thread only */
};

struct run_prof *run_prof_new(struct prof *p, struct fg_error *e)
{
	struct run_prof *sp = calloc(1, sizeof(*sp));

	if (!sp) {
		prof_free(p);
		fg_error_set(e, FG_E_FAILED, NULL, NULL, "out of memory");
		return NULL;
	}
	sp->prof = *p;
	memset(p, 0, sizeof(*p));
	sp->refs = 1;
	return sp;
}

const struct prof *run_prof_get(const struct run_prof *sp) { return &sp->prof; }

void run_prof_put(struct run_prof *sp)
{
	if (!sp || --sp->refs)
		return;
	prof_free(&sp->prof);
	free(sp);
}

int run_latency_pow2(struct stats_lat_row *rows, struct lat_pow2 *pow2, int max)
{
	int n = 0;

	pthread_mutex_lock(&run_mu);
	if (run.eng && run.eng->latency_rows)
		n = run.eng->latency_rows(rows, pow2, max);
	pthread_mutex_unlock(&run_mu);
	return n;
}

static int hook_pairs(struct stats_pair_row **rows, uint64_t *unmatched)
{
	int n = 0;

	pthread_mutex_lock(&run_mu);
	if (run.eng && run.eng->pair_rows)
		n = run.eng->pair_rows(rows, unmatched);
	pthread_mutex_unlock(&run_mu);
	return n;
}

static void hook_nat(uint64_t *addrs, uint64_t *ports)
{
	*addrs = *ports = 0;
	pthread_mutex_lock(&run_mu);
	if (run.eng && run.eng->nat_report)
		run.eng->nat_report(addrs, ports);
	pthread_mutex_unlock(&run_mu);
}

static bool hook_link(int p, bool *up, uint32_t *speed)
{
	if (p < 0 || p >= fg_nports)
		return false;
	*up = port_link(p, speed);
	return true;
}

static int hook_latency(struct stats_lat_row *rows, int max)
{
	return run_latency_pow2(rows, NULL, max);
}

int run_latency_rows(struct stats_lat_row *rows, int max) { return hook_latency(rows, max); }

int run_latency_hist(int row, struct lat_hist *h)
{
	int rc = -ENOENT;

	pthread_mutex_lock(&run_mu);
	if (run.eng && run.eng->latency_hist)
		rc = run.eng->latency_hist(row, h);
	pthread_mutex_unlock(&run_mu);
	return rc;
}

int run_totals(bool stamped_only, struct lat_hist *h, struct lat_seq *q, uint64_t *tx,
	       double *span_s)
{
	int rc = -ENOENT;

	pthread_mutex_lock(&run_mu);
	if (run.eng && run.eng->totals)
		rc = run.eng->totals(stamped_only, h, q, tx, span_s);
	pthread_mutex_unlock(&run_mu);
	return rc;
}

uint64_t run_fresh_tuples(void)
{
	uint64_t n = 0;

	pthread_mutex_lock(&run_mu);
	if (run.eng && run.eng->fresh_tuples)
		n = run.eng->fresh_tuples();
	pthread_mutex_unlock(&run_mu);
	return n;
}

static const struct stats_hooks run_hooks = {
    .latency = hook_latency,
    .pairs = hook_pairs,
    .nat = hook_nat,
    .port_link = hook_link,
    .port_id = port_dpdk_id,
    .clear = svc_stats_clear,
    .next_hops = svc_next_hops,
    .mempool = port_mempool,
};

void run_init(uint32_t flows_max)
{
	run.flows_max = flows_max;
	run.scale = 1.0;
	stats_set_hooks(&run_hooks);
}

static void run_release(void)
{
	/* the record takes the run's end figures while they are there (the
	 * engine's latency rows go with its states, a new start clears) */
	if (run.eng)
		record_run_ends();
	pthread_mutex_lock(&run_mu);
	if (run.eng) {
		run.eng->release(run.states);
		run_prof_put(run.sp);
	}
	run.eng = NULL;
	run.sp = NULL;
	memset(run.states, 0, sizeof(run.states));
	pthread_mutex_unlock(&run_mu);
}

bool run_wait_idle(double secs, bool interruptible)
{
	uint64_t end = rte_get_timer_cycles() + (uint64_t)(secs * rte_get_timer_hz());

	while (ctl_busy()) {
		if ((interruptible && ctl_cancelled()) ||
		    (secs >= 0 && rte_get_timer_cycles() > end))
			return false;
		usleep(10 * 1000);
	}
	return true;
}

/* Frames of a stopped run are in flight for at most the profile's timeout
 * (with the delays of a flow's programs, prof_flow_time()). */
static double run_drain_time(void)
{
	return (run.eng ? prof_flow_time(&run.sp->prof) : 3.0) + 2.0;
}

int run_stop_serving(bool interruptible, void (*between)(void))
{
	double drain = run_drain_time();
	uint64_t hz = rte_get_timer_hz(), end;

	if (!ctl_busy())
		return 1;
	ctl_stop();
	end = rte_get_timer_cycles() + (uint64_t)(drain * hz);
	for (;;) {
		uint64_t now = rte_get_timer_cycles();
		double step = between ? 0.05 : drain;

		if (now < end && run_wait_idle(FG_MIN(step, (double)(end - now) / hz), interruptible))
			return 0;
		if (rte_get_timer_cycles() >= end || (interruptible && ctl_cancelled()))
			break;
		if (between)
			between();
	}
	if (!ctl_busy())
		return 0;
	fg_warn("traffic did not drain in %.0f s", drain);
	return -1;
}

/*
 * The flows still in the tables of workers that left their loops
 * undrained: aborted, not failed (the tester ended them, not the DUT;
 * flowgen(8), STATISTICS, "aborted"). Each template's gauges of active
 * flows move into its aborted counters, so that started = completed +
 * failed + aborted + active still holds. The workers are gone: their
 * blocks have no writer but this one now (ctr.h).
 */
static void run_abort_flows(int nworkers)
{
	for (int i = 0; i < nworkers; i++) {
		struct ctr_worker *w = &fg_ctr[i];

		for (int t = 0; t < FG_PROF_MAX_TEMPLATES; t++) {
			struct ctr_tpl *c = &w->tpl[t];
			uint64_t ac = FG_CTR_GET(c->active_client), as = FG_CTR_GET(c->active_server);

			if (!ac && !as)
				continue;
			FG_CTR_SET(c->client.aborted, FG_CTR_GET(c->client.aborted) + ac);
			FG_CTR_SET(c->server.aborted, FG_CTR_GET(c->server.aborted) + as);
			FG_CTR_SET(c->active_client, 0);
			FG_CTR_SET(c->active_server, 0);
		}
		FG_CTR_SET(w->gauge.active_client, 0);
		FG_CTR_SET(w->gauge.active_server, 0);
	}
}
int run_stop(bool interruptible) { return run_stop_serving(interruptible, NULL); }

void run_halt(void)
{
	int nworkers = fg_nworkers;

	/* A run that did not drain (SIGTERM or ^C cut the wait short, or its
	 * time ran out) still has workers running on its states: they leave
	 * their loops before the states are freed (freed under them, a flow
	 * table's expiry read unmapped memory). */
	if (run_stop(true) < 0) {
		ctl_shutdown();
		run_abort_flows(nworkers);
	}
}

void run_fini(void)
{
	run_halt();
	run_release();
}

/*
 * The load of rp and the factors its -m gives: rp->load, rp->factor and
 * rp->link_bps are filled in. 0 or -errno with err set.
 */
static int run_apply_mult(const struct engine *e, struct run_params *rp, char *err,
			  size_t errlen)
{
	int rc;

	for (int p = 0; p < FG_MAX_PORTS; p++) {
		uint32_t mbps = 0;

		if (p < fg_nports)
			(void)port_link(p, &mbps); /* a port that is down keeps its speed */
		rp->link_bps[p] = (uint64_t)mbps * 1000000ull;
	}
	memset(&rp->load, 0, sizeof(rp->load));
	rc = e->load(rp, &rp->load, err, errlen);
	if (rc)
		return rc;
	return load_factors(&rp->load, &rp->mult, rp->link_bps, rp->factor, err, errlen);
}

/*
 * Every port that sends (a flows run's server port too: it answers) needs
 * its next hop's MAC, or its frames would go to an unknown address.
 */
static int run_check_next_hops(const struct run_params *rp, char *err, size_t errlen, char *hint,
			       size_t hintlen)
{
	for (int p = 0; p < fg_nports; p++) {
		unsigned fam = rp->load.tx[p].pps > 0 ? prof_port_families(rp->prof, p) : 0;

		if ((fam & PROF_FAM_V4) && !(fg_port[p].gw_mac & PORT_MAC_KNOWN)) {
			snprintf(err, errlen, "port %d: next-hop MAC unknown", p);
			snprintf(hint, hintlen, "run `arp` first or set dest_mac");
			return -EHOSTUNREACH;
		}
		if ((fam & PROF_FAM_V6) && !(port_gw6_word(&fg_port[p]) & PORT_MAC_KNOWN)) {
			snprintf(err, errlen, "port %d: IPv6 next-hop MAC unknown", p);
			snprintf(hint, hintlen,
				 "run `arp` first: it resolves default_gw6 by Neighbour Discovery; "
				 "or set dest_mac");
			return -EHOSTUNREACH;
		}
	}
	return 0;
}

/*
 * What the current run offers at factors f (flowgen(8), STATISTICS:
 * offered_pps for streams, offered_cps for flows), handed to the sampler
 * that compares it with what is achieved. -m max offers no known rate.
 */
static void run_publish_offer(const double *f)
{
	struct load_offer o = {0};

	if (run.eng && run.mult.kind != UNITS_MAX)
		load_offered(&run.load, f, run.link_bps, &o);
	if (run.load.scope == LOAD_SHARED)
		stats_set_offer(0, o.cps);
	else
		stats_set_offer(o.pps, 0);
}

int run_offered(struct run_params *rp, struct load_offer *o, char *err, size_t errlen)
{
	const struct engine *e = run_engine_of(rp->prof);
	int rc;

	if (!e) {
		snprintf(err, errlen, "the profile has no traffic mode");
		return -EINVAL;
	}
	if (rp->mult.kind == UNITS_MAX) {
		snprintf(err, errlen, "-m max is unpaced: it offers no known rate");
		return -EINVAL;
	}
	rc = run_apply_mult(e, rp, err, errlen);
	if (rc)
		return rc;
	load_offered(&rp->load, rp->factor, rp->link_bps, o);
	return 0;
}

/*
 * The statistics' view of the run of p: its mode and, for flows, its
 * templates by group (flowgen-profile(5), `group`), which `stats -t`,
 * the JSON's templates[] and the tui's group page show.
 */
static void run_stats_groups(const struct prof *p, uint64_t active)
{
	static struct stats_tpl_map m; /* the console's thread only */

	memset(&m, 0, sizeof(m));
	m.ngroups = (int)prof_groups(p, m.group);
	m.ntpl = m.ngroups ? (int)p->n_templates : 0;
	for (int t = 0; t < m.ntpl; t++) {
		snprintf(m.tpl[t], sizeof(m.tpl[t]), "%s", p->templates[t].name);
		if (!m.name[m.group[t]][0])
			snprintf(m.name[m.group[t]], sizeof(m.name[0]), "%s",
				 prof_tpl_group(&p->templates[t]));
	}
	/* the targets: --active, and a group's climits when all its templates have one */
	m.active_target = active;
	for (int t = 0; t < m.ntpl; t++)
		m.climit[m.group[t]] += p->templates[t].climit;
	for (int t = 0; t < m.ntpl; t++)
		if (!p->templates[t].climit)
			m.climit[m.group[t]] = 0;
	stats_set_run(p->mode, &m);
}

/* The code of a refusal of rc: a resource that failed, or what was asked. */
static int run_code(int rc)
{
	return rc == -ENOMEM || rc == -EIO || rc == -ETIMEDOUT ? FG_E_FAILED : FG_E_REFUSED;
}

/* What refuses any start before its profile is looked at: a run from the
 * other origin going, or one going without RUN_FORCE. 0 or -1 (e set). */
static int run_may_start(unsigned flags, const char *who, struct fg_error *e)
{
	if (ctl_busy() && run.origin != run.cur_origin)
		return fg_error_set(e, FG_E_REFUSED, NULL, NULL,
				    "%s: a run started from the %s is going: the %s cannot start "
				    "another until it ends or is stopped",
				    who, run_origin_names[run.origin],
				    run_origin_names[run.cur_origin]);
	if (ctl_busy() && !(flags & RUN_FORCE))
		return fg_error_set(e, FG_E_REFUSED, NULL,
				    strcmp(who, "start") == 0 ? "stop it first, or start --force"
							      : "stop it first",
				    "%s: traffic is running", who);
	return 0;
}

/*
 * The new run of rp->prof through its engine e: its load and the factors
 * of -m, the checks of the ports, and the engine's per-worker states in
 * nstates. 0 or -1 (e set; nothing is left allocated).
 */
static int run_prepare(const struct engine *e, struct run_params *rp, void **nstates,
		       const char *who, struct fg_error *fe)
{
	const struct prof *p = rp->prof;
	char err[FG_ERRLEN], hint[sizeof(((struct fg_error *)0)->hint)] = "";
	int rc;

	if (!e)
		return fg_error_set(fe, FG_E_REFUSED, NULL, NULL,
				    "%s: %s: the profile has no traffic mode", who, p->file);
	if (rp->active && p->mode != PROF_FLOWS)
		return fg_error_set(fe, FG_E_REFUSED, NULL, NULL,
				    "%s: --active holds concurrent flows: %s is not 'mode: flows'",
				    who, p->file);
	rc = run_apply_mult(e, rp, err, sizeof(err));
	if (!rc)
		rc = run_check_next_hops(rp, err, sizeof(err), hint, sizeof(hint));
	if (rc)
		return fg_error_set(fe, run_code(rc), NULL, hint, "%s: %s", who, err);
	if (prof_max_frame(p) > port_frame_max())
		return fg_error_set(fe, FG_E_REFUSED, NULL, NULL,
				    "%s: %s: a frame of %u bytes does not fit the ports' buffers "
				    "(%u bytes at most; jumbo frames are not supported)",
				    who, p->file, prof_max_frame(p), port_frame_max());
	rc = e->prepare(rp, nstates, err, sizeof(err));
	if (rc)
		return fg_error_set(fe, run_code(rc), NULL, NULL, "%s: %s", who, err);
	return 0;
}

/*
 * start --at: the planned start of rp against the system clock now, in
 * *at_ns, and rp->at_lead_s; a time that has passed, or is too far
 * ahead, is refused (after: the second look, once the run is prepared).
 * 0 or -1 (e set).
 */
static int run_at(struct run_params *rp, int64_t *at_ns, bool after, const char *who,
		  struct fg_error *fe)
{
	char err[FG_ERRLEN], now_s[WC_TEXT_MAX], hint[96];
	int64_t now = clock_rt_ns();

	if (rp->at.kind == START_AT_NONE)
		return 0;
	if (!after && start_at_resolve(&rp->at, now, at_ns, err, sizeof(err)) != 0) {
		wc_fmt(now, now_s, sizeof(now_s));
		snprintf(hint, sizeof(hint), "a later time: the system clock reads %s", now_s);
		return fg_error_set(fe, FG_E_REFUSED, "--at", hint, "%s: %s", who, err);
	}
	if (after && now >= *at_ns)
		return fg_error_set(fe, FG_E_REFUSED, "--at", "a later time",
				    "%s: --at %s: that time passed while the run was prepared "
				    "(%.3f s ago)",
				    who, rp->at.text, (double)(now - *at_ns) / 1e9);
	rp->at_lead_s = (double)(*at_ns - now) / 1e9;
	return 0;
}

int run_start(struct run_prof *sp, struct run_params *rp, unsigned flags, const char *who,
	      struct fg_error *fe)
{
	const struct prof *np = &sp->prof;
	const struct engine *e = run_engine_of(np);
	void *nstates[FG_MAX_WORKERS] = {0};
	char err[FG_ERRLEN];
	struct wc_pair pair;
	int64_t at_ns = 0;
	int rc;

	fg_error_clear(fe);
	if (run_may_start(flags, who, fe))
		return -1;
	rp->at_lead_s = 0;
	if (run_at(rp, &at_ns, false, who, fe))
		return -1;
	rp->prof = np;
	rp->hz = fg_tsc_hz;
	rp->flows_max = run.flows_max;
	if (run_prepare(e, rp, nstates, who, fe)) {
		rp->prof = NULL;
		return -1;
	}
	/* a table of flows takes a while to prepare: look again */
	if (run_at(rp, &at_ns, true, who, fe))
		goto err_release;
	/* the old run keeps its ports as they are until it has stopped: a
	 * drain that fails leaves it running with them */
	if (ctl_busy() && run_stop(true) < 0) {
		fg_error_set(fe, FG_E_FAILED, NULL, NULL,
			     "%s: the traffic running did not drain: nothing was started", who);
		goto err_release;
	}
	run_release();
	if (e->activate && (rc = e->activate(nstates, err, sizeof(err))) != 0) {
		fg_error_set(fe, run_code(rc), NULL, NULL, "%s: %s", who, err);
		goto err_release;
	}
	sp->refs++;
	pthread_mutex_lock(&run_mu);
	run.sp = sp;
	memcpy(run.states, nstates, sizeof(run.states));
	run.eng = e;
	pthread_mutex_unlock(&run_mu);
	run.origin = run.cur_origin;
	run.mult = rp->mult;
	run.load = rp->load;
	memcpy(run.factor, rp->factor, sizeof(run.factor));
	memcpy(run.link_bps, rp->link_bps, sizeof(run.link_bps));
	run.scale = 1.0;
	run.duration_s = rp->duration_s;
	run.service = svc_service();
	run_stats_groups(np, rp->active);
	/* Like TRex, a start shows the new run's counters (--nc keeps them). */
	if (!(flags & RUN_KEEP_COUNTERS))
		stats_clear();
	run_publish_offer(run.factor);
	/* One pair of the two clocks for the run: its TSC counts become
	 * times through it (wallclock.h), and, planned, through the pair the
	 * workers take as they hold for the planned start (stats.c,
	 * stats_run_pair). Without --at the start is planned for now. */
	clock_rt_pair(&pair);
	run.planned = rp->at.kind != START_AT_NONE;
	run.at_ns = run.planned ? at_ns : pair.rt_ns;
	stats_set_start(&pair, run.at_ns, run.planned);
	/* what each port's counters speak for, to its next hops' NUD (svc.h) */
	for (int p = 0; p < fg_nports; p++) {
		unsigned fam = rp->load.tx[p].pps > 0 ? prof_port_families(&sp->prof, p) : 0;

		svc_set_families(p, (fam & PROF_FAM_V4 ? SVC_FAM_V4 : 0) |
					(fam & PROF_FAM_V6 ? SVC_FAM_V6 : 0));
	}
	ctl_start(e->worker, run.states, ++run.run_id, run.planned ? at_ns : 0);
	return 0;

err_release:
	e->release(nstates);
	rp->prof = NULL;
	return -1;
}

int run_info(struct run_info *ri)
{
	const struct prof *np;

	memset(ri, 0, sizeof(*ri));
	if (!run.eng || !run.sp)
		return -ENOENT;
	np = &run.sp->prof;
	ri->file = np->file;
	ri->engine = run.eng->name;
	if (run.mult.kind == UNITS_MULT)
		snprintf(ri->mult, sizeof(ri->mult), "x%g", run.mult.value);
	else
		load_fmt_mult(&run.mult, ri->mult, sizeof(ri->mult));
	ri->seed = np->seed;
	ri->run_id = run.run_id;
	ri->duration_s = run.duration_s;
	ri->counted = run.duration_s <= 0 && prof_streams_counted(np);
	ri->service = run.service;
	ri->at_ns = run.at_ns;
	ri->planned = run.planned;
	ri->warnings = (const char *const *)np->warnings;
	ri->n_warnings = np->n_warnings;
	ri->tables = run.eng->tables ? run.eng->tables() : NULL;
	return 0;
}

int run_start_file(const char *file, struct run_params *rp, unsigned flags, const char *who,
		   struct fg_error *fe)
{
	char err[FG_ERRLEN];
	struct run_prof *sp;
	struct prof p;
	int rc;

	fg_error_clear(fe);
	/* refused before the profile is read, as ever */
	if (run_may_start(flags, who, fe))
		return -1;
	if (prof_load(file, &p, err, sizeof(err)) != 0) {
		fg_error_set(fe, FG_E_FAILED, NULL, NULL, "%s", err);
		if (fe)
			snprintf(fe->path, sizeof(fe->path), "%s", file);
		return -1;
	}
	sp = run_prof_new(&p, fe);
	if (!sp)
		return -1;
	rc = run_start(sp, rp, flags, who, fe);
	run_prof_put(sp);
	return rc;
}

int run_pause(bool on)
{
	if (!ctl_busy())
		return -ENOENT;
	ctl_pause(on);
	return 0;
}

bool run_active(void)
{
	int s = ctl_state();

	return s == CTR_RUNNING || s == CTR_PAUSED;
}

bool run_busy(void)
{
	return ctl_busy();
}

double run_scale(void)
{
	return run.scale;
}

int run_rescale(double f, char *err, size_t errlen)
{
	double factor[FG_MAX_PORTS], scale = run.scale * f;
	struct units_rate m;
	int rc;

	if (!run_active() || !run.eng) {
		snprintf(err, errlen, "no traffic running");
		return -ENOENT;
	}
	if (run.mult.kind == UNITS_MAX) {
		snprintf(err, errlen, "-m max is unpaced: there is no rate to change");
		return -EINVAL;
	}
	if (!(scale > 0)) {
		snprintf(err, errlen, "the rate must stay above 0");
		return -EINVAL;
	}
	for (int p = 0; p < FG_MAX_PORTS; p++)
		factor[p] = run.factor[p] * scale;
	m = load_scaled(&run.mult, scale);
	rc = load_check(&run.load, &m, factor, run.link_bps, err, errlen);
	if (rc)
		return rc;
	/* the flow tables were sized for the start's rate (flowplan.h) */
	if (run.eng->fits && (rc = run.eng->fits(scale, err, errlen)) != 0)
		return rc;
	run.scale = scale;
	ctl_rate(scale);
	run_publish_offer(factor);
	return 0;
}

int run_update(const struct units_rate *m, char *err, size_t errlen)
{
	if (!run_active() || !run.eng) {
		snprintf(err, errlen, "no traffic running");
		return -ENOENT;
	}
	if (m->kind != run.mult.kind || m->kind == UNITS_MAX || run.mult.value <= 0 ||
	    m->l1 != run.mult.l1) {
		snprintf(err, errlen, "-m must have the form start used (%s%s)",
			 units_kind_names[run.mult.kind],
			 run.mult.kind == UNITS_BPS && run.mult.l1 ? ", L1" : "");
		return -EINVAL;
	}
	return run_rescale(m->value / run.mult.value / run.scale, err, errlen);
}
