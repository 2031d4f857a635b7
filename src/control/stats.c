/*
 * stats.c — the control side of flowgen's statistics: sampling, the
 * "clear" baseline and snapshots.
 *
 * Workers write only their own struct ctr_worker with FG_CTR_ADD. Here a
 * sampler thread (control) wakes every STATS_SAMPLE_MS, sums the blocks
 * with relaxed loads (stats_sum), reads each NIC's counters and link, and
 * pushes the result into a small ring. Everything a user sees is computed
 * from that ring by the pure stats_compute (src/core/stats_snap.c):
 * counters minus the "clear"
 * baseline, and rates as the difference of two samples about one second
 * apart divided by the interval actually measured between them (TSC).
 * stats_get hands that snapshot to the REPL's `stats`, to bench and to the
 * dashboard; the writers of stats_json.c and stats_fmt.c turn it into JSON
 * or text tables, so `stats`, `stats --json` and the dashboard always
 * agree.
 *
 * Locking: one mutex between control threads (sampler, REPL, dashboard);
 * the workers never see it.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "fails.h"
#include "offer.h"
#include "stats.h"
#include "stats_int.h"
#include "clock.h"
#include "log.h"

#define STATS_RING 16	   /* samples kept: 1.6 s at 100 ms */
#define STATS_RATE_BACK 10 /* rates over ~10 samples = ~1 s */
#define STATS_HIST_EVERY 5 /* one history point per 5 samples = 0.5 s */
#define STATS_LINK_EVERY 5 /* link state polled every 0.5 s */

static struct {
	pthread_mutex_t lock;
	struct ctr_worker *workers;
	int nworkers, nports;
	uint64_t tsc_hz;
	struct stats_hooks hooks;
	struct stats_raw ring[STATS_RING];
	unsigned nsamples; /* samples taken since init; newest at (n-1)%RING */
	struct stats_raw base;
	bool have_base;
	bool link_up[FG_MAX_PORTS];
	uint32_t speed[FG_MAX_PORTS];
	double hist_tx[STATS_HIST], hist_rx[STATS_HIST];
	unsigned nhist;
	struct stats_snap scratch;
	unsigned lcore[FG_MAX_WORKERS];
	uint32_t port_mask[FG_MAX_WORKERS];
	/* offered against achieved (offer.h): set by run.c, tracked per sample */
	double offer_pps, offer_cps;
	/* the current (or last) run: its mode and groups of templates, and
	 * its start (stats_set_start) */
	int mode;
	struct wc_pair start_pair;
	int64_t start_planned_ns;
	bool start_at; /* the run was planned for a time of day (start --at) */
	struct stats_tpl_map map;
	struct offer_track offer;
	bool short_of_offer;
	struct offer_signs signs;
	enum offer_limit limit;
	/* start --active: how long the target has held (stats_hold_update) */
	struct stats_hold hold;
	double held_s;
	pthread_t thread;
	bool running;
	bool stop; /* read by the sampler, written under lock */
	pthread_cond_t wake;
} st = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
};

int stats_port_id(int p)
{
	int (*id)(int) = st.hooks.port_id;

	if (id)
		return id(p);
	return p >= 0 && rte_eth_dev_is_valid_port((uint16_t)p) ? p : -1;
}

/* ---- control side: sampler, baseline, snapshots ------------------------ */

static struct stats_raw *newest(void)
{
	return st.nsamples ? &st.ring[(st.nsamples - 1) % STATS_RING] : NULL;
}

/* The sample about STATS_RATE_BACK periods before the newest, or oldest. */
static struct stats_raw *older(void)
{
	unsigned back = FG_MIN(st.nsamples - 1, STATS_RATE_BACK);

	if (st.nsamples < 2)
		return NULL;
	return &st.ring[(st.nsamples - 1 - back) % STATS_RING];
}

static void poll_links(void)
{
	for (int p = 0; p < st.nports; p++) {
		bool up = false;
		uint32_t speed = 0;

		if (st.hooks.port_link) {
			if (!st.hooks.port_link(p, &up, &speed))
				up = false, speed = 0;
		} else {
			struct rte_eth_link l;

			if (rte_eth_dev_is_valid_port((uint16_t)p) &&
			    rte_eth_link_get_nowait((uint16_t)p, &l) == 0) {
				up = l.link_status == RTE_ETH_LINK_UP;
				speed =
				    l.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ? 0 : l.link_speed;
			}
		}
		st.link_up[p] = up;
		st.speed[p] = speed;
	}
}

/* Take one sample into r. Called with st.lock held. */
static void sample_into(struct stats_raw *r)
{
	stats_sum(st.workers, st.nworkers, st.nports, r);
	for (int p = 0; p < st.nports; p++) {
		struct rte_eth_stats es;

		int id = stats_port_id(p);

		if (id < 0 || rte_eth_stats_get((uint16_t)id, &es) != 0)
			continue;
		r->nic_ok[p] = true;
		r->nic[p].opackets = es.opackets;
		r->nic[p].ipackets = es.ipackets;
		r->nic[p].obytes = es.obytes;
		r->nic[p].ibytes = es.ibytes;
		r->nic[p].oerrors = es.oerrors;
		r->nic[p].ierrors = es.ierrors;
		r->nic[p].imissed = es.imissed;
	}
	r->tsc = rte_rdtsc();
}

/*
 * The signs of what limits a run (offer.h) between the samples of the
 * rates: the busiest port's line use, frames the TX side refused (the
 * workers' queue-full count and the NICs' oerrors; a per-port tx_dropped
 * counter belongs in this sum too), the busiest worker and the flows its
 * pacer could not open in time, and the DUT's
 * failures (flows failed; for streams, frames sent and not received).
 */
static void offer_signs(const struct stats_raw *now, const struct stats_raw *prev,
			const struct stats_snap *s, struct offer_signs *o)
{
	uint64_t refused = 0;

	memset(o, 0, sizeof(*o));
	for (int p = 0; p < s->nports; p++) {
		o->line_util_max = FG_MAX(o->line_util_max, s->port[p].line_util);
		refused += stats_sub0(now->port[p].tx_queue_full, prev->port[p].tx_queue_full);
		if (now->nic_ok[p] && prev->nic_ok[p])
			refused += stats_sub0(now->nic[p].oerrors, prev->nic[p].oerrors);
	}
	if (s->interval > 0) {
		o->tx_refused = (double)refused / s->interval;
		o->dut_failed = st.offer_cps > 0
				    ? stats_rate(now->client.failed, prev->client.failed, s->interval)
				    : s->g.drop_rate;
	}
	o->cpu_util_max = FG_MAX(s->g.cpu_util_max, s->g.cpu_util);
	if (s->interval > 0)
		o->late = stats_rate(now->client.late, prev->client.late, s->interval);
}

/*
 * Offered against achieved, once per sample (lock held): short while the achieved rate has stayed
 * below the offer (offer.h); no offer while the workers do not run.
 */
static void offer_sample(void)
{
	struct stats_raw *now = newest(), *prev = older();
	double offer = st.offer_cps > 0 ? st.offer_cps : st.offer_pps;
	double achieved;

	/* a streams run's learning phase offers no measured rate yet: the
	 * count of a shortfall starts with the measured traffic */
	if (!now || !prev || !now->running || now->gauge.warmup)
		offer = 0;
	if (!(offer > 0)) {
		offer_track_update(&st.offer, 0, 0, 0, st.tsc_hz);
		st.short_of_offer = false;
		return;
	}
	stats_compute(now, prev, NULL, st.tsc_hz, st.nports, st.link_up, st.speed, &st.scratch);
	achieved = st.offer_cps > 0 ? st.scratch.g.cps : st.scratch.g.tx_pps;
	st.short_of_offer = offer_track_update(&st.offer, offer, achieved, now->tsc, st.tsc_hz);
	offer_signs(now, prev, &st.scratch, &st.signs);
	st.limit = offer_limit_guess(&st.signs);
}

void stats_set_run(int mode, const struct stats_tpl_map *map)
{
	pthread_mutex_lock(&st.lock);
	st.mode = mode;
	if (map)
		st.map = *map;
	else
		memset(&st.map, 0, sizeof(st.map));
	pthread_mutex_unlock(&st.lock);
}

void stats_set_start(const struct wc_pair *pair, int64_t planned_ns, bool planned)
{
	pthread_mutex_lock(&st.lock);
	st.start_pair = *pair;
	st.start_planned_ns = planned_ns;
	st.start_at = planned;
	pthread_mutex_unlock(&st.lock);
}

/*
 * The run's pair (stats_set_start): for a planned run, the planned start
 * and the TSC the first worker that holds for it put it at. *ppm (if
 * ppm): how much faster the system clock ran than the TSC (at its
 * measured rate) from the start command to that pair, in parts per
 * million, once the planned start has come (the worker's last reading
 * then lies within a step of it); NAN before, or without a planned
 * start. Lock held.
 */
static struct wc_pair stats_run_pair(double *ppm)
{
	struct wc_pair p = st.start_pair;
	bool held = false;

	for (int i = 0; st.start_at && st.workers && i < st.nworkers; i++) {
		uint64_t t = FG_CTR_GET(st.workers[i].at_tsc);

		if (t) {
			p.rt_ns = st.start_planned_ns;
			p.tsc = t;
			held = (int64_t)(rte_rdtsc() - t) >= 0;
			break;
		}
	}
	if (!ppm)
		return p;
	*ppm = NAN;
	if (held && p.hz && p.tsc > st.start_pair.tsc && p.rt_ns > st.start_pair.rt_ns) {
		double rt = (double)(p.rt_ns - st.start_pair.rt_ns),
		       tsc = (double)(p.tsc - st.start_pair.tsc) * 1e9 / (double)p.hz;

		*ppm = (rt - tsc) / tsc * 1e6;
	}
	return p;
}

void stats_set_offer(double pps, double cps)
{
	pthread_mutex_lock(&st.lock);
	st.offer_pps = pps > 0 ? pps : 0;
	st.offer_cps = cps > 0 ? cps : 0;
	pthread_mutex_unlock(&st.lock);
}

/* Push one sample into the ring and maybe the history. Lock held. */
static void sample_push(void)
{
	struct stats_raw *r = &st.ring[st.nsamples % STATS_RING];

	if (st.nsamples % STATS_LINK_EVERY == 0)
		poll_links();
	sample_into(r);
	st.nsamples++;
	offer_sample();
	st.held_s = stats_hold_update(&st.hold, r->running ? st.map.active_target : 0,
				      r->gauge.active_client, r->tsc, st.tsc_hz);
	if (st.nsamples % STATS_HIST_EVERY == 0) {
		stats_compute(newest(), older(), NULL, st.tsc_hz, st.nports, st.link_up, st.speed,
			      &st.scratch);
		st.hist_tx[st.nhist % STATS_HIST] = st.scratch.g.tx_pps;
		st.hist_rx[st.nhist % STATS_HIST] = st.scratch.g.rx_pps;
		st.nhist++;
	}
}

static void *sampler(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&st.lock);
	while (!st.stop) {
		struct timespec ts;

		sample_push();
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += STATS_SAMPLE_MS * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		while (!st.stop && pthread_cond_timedwait(&st.wake, &st.lock, &ts) == 0)
			;
	}
	pthread_mutex_unlock(&st.lock);
	return NULL;
}

int stats_init(struct ctr_worker *workers, int nworkers, int nports, uint64_t tsc_hz)
{
	if (nworkers < 0 || nworkers > FG_MAX_WORKERS || nports < 0 || nports > FG_MAX_PORTS ||
	    (nworkers && !workers))
		return -EINVAL;
	pthread_mutex_lock(&st.lock);
	st.workers = workers;
	st.nworkers = nworkers;
	st.nports = nports;
	st.tsc_hz = tsc_hz ? tsc_hz : fg_tsc_hz;
	st.nsamples = 0;
	st.nhist = 0;
	st.have_base = false;
	memset(st.link_up, 0, sizeof(st.link_up));
	memset(st.speed, 0, sizeof(st.speed));
	pthread_mutex_unlock(&st.lock);
	return 0;
}

void stats_set_worker(int id, unsigned lcore, uint32_t port_mask)
{
	if (id < 0 || id >= FG_MAX_WORKERS)
		return;
	pthread_mutex_lock(&st.lock);
	st.lcore[id] = lcore;
	st.port_mask[id] = port_mask;
	pthread_mutex_unlock(&st.lock);
}

void stats_set_hooks(const struct stats_hooks *h)
{
	pthread_mutex_lock(&st.lock);
	if (h)
		st.hooks = *h;
	else
		memset(&st.hooks, 0, sizeof(st.hooks));
	pthread_mutex_unlock(&st.lock);
}

void stats_start(void)
{
	pthread_mutex_lock(&st.lock);
	if (st.running) {
		pthread_mutex_unlock(&st.lock);
		return;
	}
	st.stop = false;
	if (pthread_create(&st.thread, NULL, sampler, NULL) == 0)
		st.running = true;
	else
		fg_warn("stats: cannot start the sampler thread");
	pthread_mutex_unlock(&st.lock);
}

void stats_stop(void)
{
	pthread_mutex_lock(&st.lock);
	if (!st.running) {
		pthread_mutex_unlock(&st.lock);
		return;
	}
	st.stop = true;
	pthread_cond_signal(&st.wake);
	pthread_mutex_unlock(&st.lock);
	pthread_join(st.thread, NULL);
	pthread_mutex_lock(&st.lock);
	st.running = false;
	pthread_mutex_unlock(&st.lock);
}

void stats_clear(void)
{
	void (*clear)(void);

	pthread_mutex_lock(&st.lock);
	sample_into(&st.base);
	stats_xstats_baseline(st.nports);
	st.have_base = true;
	clear = st.hooks.clear;
	pthread_mutex_unlock(&st.lock);
	if (clear)
		clear();
}

/*
 * The map of stats_get_templates: each template a group of its own, named
 * after the group it is in (out->map.tpl[t] the template, out->map.name[t]
 * its group). st.lock held.
 */
static void template_map(struct stats_tpl_map *m)
{
	memset(m, 0, sizeof(*m));
	m->ntpl = m->ngroups = st.map.ntpl;
	m->active_target = st.map.active_target;
	for (int t = 0; t < st.map.ntpl; t++) {
		m->group[t] = (uint8_t)t;
		memcpy(m->tpl[t], st.map.tpl[t], sizeof(m->tpl[t]));
		memcpy(m->name[t], st.map.name[st.map.group[t]], sizeof(m->name[t]));
	}
}

/*
 * Each port's mbuf pool through the mempool hook, read here on the
 * caller's thread (control), then the total column again with them.
 */
static void mempools(const struct stats_hooks *h, struct stats_snap *out)
{
	if (!h->mempool)
		return;
	for (int p = 0; p < out->nports && p < FG_MAX_PORTS; p++)
		if (!h->mempool(p, &out->port[p].pool))
			memset(&out->port[p].pool, 0, sizeof(out->port[p].pool));
	stats_total(out);
}

static void get(struct stats_snap *out, bool by_template)
{
	struct stats_hooks h;
	struct stats_tpl_map tm;
	struct stats_raw fresh;

	pthread_mutex_lock(&st.lock);
	/* Without the sampler (batch, tests) each call is a sample itself. */
	if (!st.running || !st.nsamples)
		sample_push();
	/*
	 * Counters are read now, not from the last sample (up to a period
	 * old): `stop; stats` must show the final figures. Rates still span
	 * the interval back to the sample about a second ago.
	 */
	memset(&fresh, 0, sizeof(fresh));
	sample_into(&fresh);
	stats_compute(&fresh, older(), st.have_base ? &st.base : NULL, st.tsc_hz, st.nports,
		      st.link_up, st.speed, out);
	out->mode = st.mode;
	out->flows.target_held_s = st.held_s;
	out->start_pair = stats_run_pair(&out->clock_ppm);
	out->start_planned_ns = st.start_planned_ns;
	if (by_template)
		template_map(&tm);
	stats_groups(&fresh, older(), st.have_base ? &st.base : NULL, out->interval,
		     by_template ? &tm : &st.map, out);
	for (int i = 0; i < out->nworkers; i++) {
		out->w[i].lcore = st.lcore[i];
		out->w[i].port_mask = st.port_mask[i];
	}
	if (fresh.running) {
		out->g.offered_pps = st.offer_pps;
		out->g.offered_cps = st.offer_cps;
		out->g.short_of_offer = st.short_of_offer;
		out->g.offer_limit = st.short_of_offer ? (int)st.limit : OFFER_LIMIT_UNKNOWN;
		out->g.offer_cpu = st.signs.cpu_util_max;
		out->g.offer_late = st.signs.late;
		out->g.offer_refused = st.signs.tx_refused;
		out->g.offer_failed = st.signs.dut_failed;
	}
	h = st.hooks;
	pthread_mutex_unlock(&st.lock);
	if (by_template)
		h.latency = NULL; /* GET /metrics reads every row itself */

	/* Providers run outside the lock: they may take their own. */
	mempools(&h, out);
	if (h.nat)
		h.nat(&out->flows.distinct_addrs, &out->flows.distinct_ports);
	if (h.next_hops)
		for (int p = 0; p < out->nports; p++)
			h.next_hops(p, out->port[p].nh);
	if (h.latency) {
		int n = h.latency(out->lat, STATS_MAX_LAT);

		out->nlat = n < 0 ? 0 : FG_MIN(n, STATS_MAX_LAT);
	}
}

void stats_get(struct stats_snap *out) { get(out, false); }

void stats_get_templates(struct stats_snap *out) { get(out, true); }

int stats_history(double *tx_pps, double *rx_pps, int max)
{
	int n;

	pthread_mutex_lock(&st.lock);
	n = (int)FG_MIN(st.nhist, (unsigned)STATS_HIST);
	n = FG_MIN(n, max);
	for (int i = 0; i < n; i++) {
		unsigned k = (st.nhist - (unsigned)n + (unsigned)i) % STATS_HIST;

		tx_pps[i] = st.hist_tx[k];
		rx_pps[i] = st.hist_rx[k];
	}
	pthread_mutex_unlock(&st.lock);
	return n;
}

int stats_pair_rows(struct stats_pair_row **rows, uint64_t *unmatched)
{
	int (*pairs)(struct stats_pair_row **, uint64_t *);

	*rows = NULL;
	*unmatched = 0;
	pthread_mutex_lock(&st.lock);
	pairs = st.hooks.pairs;
	pthread_mutex_unlock(&st.lock);
	/* outside the lock, as in stats_get */
	return pairs ? pairs(rows, unmatched) : 0;
}

size_t stats_failed_get(uint32_t run, struct stats_failed *out, size_t max, size_t *held)
{
	size_t n = 0, k;
	struct fail_rec *recs;
	struct stats_tpl_map map;
	struct wc_pair pair;
	uint64_t since;
	int nw;

	*held = 0;
	pthread_mutex_lock(&st.lock);
	nw = st.nworkers;
	map = st.map;
	pair = stats_run_pair(NULL);
	/* what `clear` cleared is not listed either: the failures counted */
	since = st.have_base ? st.base.tsc : 0;
	pthread_mutex_unlock(&st.lock);
	if (!max || nw <= 0 || !st.workers)
		return 0;
	recs = malloc((size_t)nw * FG_FAIL_RING * sizeof(*recs));
	if (!recs)
		return 0;
	/* every entry of the run, so that held counts them all */
	for (int i = 0; i < nw; i++) {
		size_t at = n, k0 = fails_collect(&st.workers[i].fails, run, recs + at, FG_FAIL_RING, NULL);

		for (size_t j = 0; j < k0; j++)
			if (recs[at + j].tsc >= since)
				recs[n++] = recs[at + j];
	}
	*held = n;
	k = fails_merge(recs, n, max < STATS_FAILED_MAX ? max : STATS_FAILED_MAX);
	for (size_t i = 0; i < k; i++) {
		const struct fail_rec *r = &recs[i];

		out[i].rec = *r;
		if (r->tpl < map.ntpl)
			snprintf(out[i].tpl, sizeof(out[i].tpl), "%s", map.tpl[r->tpl]);
		else
			snprintf(out[i].tpl, sizeof(out[i].tpl), "%u", r->tpl);
		out[i].rt_ns = pair.hz ? wc_rt_of(&pair, r->tsc) : 0;
	}
	free(recs);
	return k;
}

int stats_print(FILE *f, unsigned sections, bool json)
{
	struct stats_snap *s = malloc(sizeof(*s));
	int rc;

	if (!s)
		return -ENOMEM;
	stats_get(s);
	rc = json ? stats_write_json(f, s, sections) : stats_write_text(f, s, sections);
	free(s);
	return rc;
}

int stats_emit(struct jw *j, unsigned sections)
{
	struct stats_snap *s = malloc(sizeof(*s));
	int rc;

	if (!s)
		return -ENOMEM;
	stats_get(s);
	rc = stats_json(j, s, sections);
	free(s);
	return rc;
}
