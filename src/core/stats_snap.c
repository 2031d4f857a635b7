/*
 * stats_snap.c — the pure half of flowgen's statistics (stats_snap.h):
 * the sum of the workers' counter blocks (stats_sum, relaxed loads, as the
 * sampler thread takes it), a snapshot of two samples and a baseline
 * (stats_compute: counters less the baseline, rates over the TSC interval
 * actually measured between the samples, CPU use per worker), and the
 * formatting of single figures that the text tables of `stats` and the
 * dashboard share (stats_fmt_si, stats_fmt_count, stats_port_cell, the
 * short-of-offer warning). The sampler, the baseline and the writers are
 * in src/control/stats.c, stats_json.c (JSON) and stats_fmt.c (text).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lat.h"
#include "offer.h"
#include "stats_snap.h"

_Static_assert(sizeof(struct ctr_port) % sizeof(uint64_t) == 0,
	       "ctr_port must hold only uint64_t counters");
_Static_assert(sizeof(struct ctr_client) % sizeof(uint64_t) == 0,
	       "ctr_client must hold only uint64_t counters");
_Static_assert(sizeof(struct ctr_server) % sizeof(uint64_t) == 0,
	       "ctr_server must hold only uint64_t counters");
_Static_assert(sizeof(struct ctr_gauge) % sizeof(uint64_t) == 0,
	       "ctr_gauge must hold only uint64_t gauges");
_Static_assert(FG_PROF_MAX_TEMPLATES <= UINT8_MAX + 1, "stats_tpl_map.group[] holds uint8_t");

#define NWORDS(type) (sizeof(type) / sizeof(uint64_t))

/* ---- sums and rates --------------------------------------------------- */

/* dst[i] += *src[i], each source word loaded relaxed (single writer). */
static void add_words(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] += __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

int stats_top_fails(const struct stats_flows *fl, struct stats_fail_top *out, int max)
{
	struct stats_fail_top all[2 * FG_FAIL_N];
	int k = 0;

	for (int side = 0; side < 2; side++)
		for (unsigned r = 0; r < FG_FAIL_N; r++) {
			uint64_t n = side ? fl->server.fail[r] : fl->client.fail[r];
			int i = k++;

			if (!n) {
				k--;
				continue;
			}
			/* insertion, stable: an equal count stays behind */
			for (; i > 0 && all[i - 1].n < n; i--)
				all[i] = all[i - 1];
			all[i] = (struct stats_fail_top){.side = side, .reason = r, .n = n};
		}
	if (k > max)
		k = max < 0 ? 0 : max;
	memcpy(out, all, (size_t)k * sizeof(*out));
	return k;
}

/* a - b, clipped at 0 (a NIC reset must not show 2^64 packets). */
uint64_t stats_sub0(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

static void sub_words(uint64_t *dst, const uint64_t *a, const uint64_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = stats_sub0(a[i], b ? b[i] : 0);
}

/*
 * The flows counters: each template's block summed over the workers, and
 * the totals summed over the templates (the workers keep no totals of
 * their own, ctr.h), plus the pacer's late flows, which have no template.
 */
static void sum_templates(const struct ctr_worker *w, int nworkers, struct stats_raw *out)
{
	for (int i = 0; i < nworkers; i++) {
		for (int t = 0; t < FG_PROF_MAX_TEMPLATES; t++) {
			const struct ctr_tpl *c = &w[i].tpl[t];
			struct ctr_tpl *o = &out->tpl[t];

			add_words((uint64_t *)&o->client, (const uint64_t *)&c->client,
				  NWORDS(struct ctr_client));
			add_words((uint64_t *)&o->server, (const uint64_t *)&c->server,
				  NWORDS(struct ctr_server));
			add_words(&o->active_client, &c->active_client, 1);
			add_words(&o->active_server, &c->active_server, 1);
		}
		add_words(&out->client.late, &w[i].late, 1);
	}
	for (int t = 0; t < FG_PROF_MAX_TEMPLATES; t++) {
		const struct ctr_tpl *o = &out->tpl[t];

		for (size_t k = 0; k < NWORDS(struct ctr_client); k++)
			((uint64_t *)&out->client)[k] += ((const uint64_t *)&o->client)[k];
		for (size_t k = 0; k < NWORDS(struct ctr_server); k++)
			((uint64_t *)&out->server)[k] += ((const uint64_t *)&o->server)[k];
	}
}

void stats_sum(const struct ctr_worker *w, int nworkers, int nports, struct stats_raw *out)
{
	memset(out, 0, sizeof(*out));
	if (nports > FG_MAX_PORTS)
		nports = FG_MAX_PORTS;
	if (nworkers > FG_MAX_WORKERS)
		nworkers = FG_MAX_WORKERS;
	out->nworkers = nworkers < 0 ? 0 : nworkers;
	for (int i = 0; i < nworkers; i++) {
		const struct ctr_worker *cw = &w[i];
		struct stats_wraw *o = &out->w[i];

		for (int p = 0; p < nports; p++) {
			add_words(&o->tx_pkts, &cw->port[p].tx_pkts, 1);
			add_words(&o->rx_pkts, &cw->port[p].rx_pkts, 1);
		}
		add_words(&o->redirected, &cw->redirected, 1);
		add_words(&o->loop_tsc, &cw->loop_tsc, 1);
		add_words(&o->busy_tsc, &cw->busy_tsc, 1);
		add_words(&o->stalls, &cw->stalls, 1);
		add_words(&o->stall_tsc, &cw->stall_tsc, 1);
		add_words(&o->stall_late_tsc, &cw->stall_late_tsc, 1);
		add_words(&o->stall_max_tsc, &cw->stall_max_tsc, 1);
		add_words(&o->first_tx_tsc, &cw->first_tx_tsc, 1);
		add_words(&o->at_rt, &cw->at_rt, 1);
		add_words(&o->active_client, &cw->gauge.active_client, 1);
		add_words(&o->active_server, &cw->gauge.active_server, 1);
		if (__atomic_load_n(&cw->gauge.state, __ATOMIC_RELAXED) == CTR_RUNNING)
			out->running = true;
		for (int p = 0; p < nports; p++)
			add_words((uint64_t *)&out->port[p], (const uint64_t *)&cw->port[p],
				  NWORDS(struct ctr_port));
		add_words(&out->loop_tsc, &cw->loop_tsc, 1);
		add_words(&out->busy_tsc, &cw->busy_tsc, 1);
		add_words((uint64_t *)&out->gauge, (const uint64_t *)&cw->gauge,
			  NWORDS(struct ctr_gauge));
	}
	sum_templates(w, out->nworkers, out);
}

/* The four traffic counters of a port, from the NIC or from the workers. */
struct port_counts {
	uint64_t tx_pkts, rx_pkts, tx_bytes, rx_bytes;
};

static void port_counts(const struct stats_raw *r, int p, bool nic, struct port_counts *c)
{
	if (nic && r->nic_ok[p]) {
		c->tx_pkts = r->nic[p].opackets;
		c->rx_pkts = r->nic[p].ipackets;
		c->tx_bytes = r->nic[p].obytes;
		c->rx_bytes = r->nic[p].ibytes;
	} else {
		c->tx_pkts = r->port[p].tx_pkts;
		c->rx_pkts = r->port[p].rx_pkts;
		c->tx_bytes = r->port[p].tx_bytes;
		c->rx_bytes = r->port[p].rx_bytes;
	}
}

/*
 * The NIC's counters are the truth when it keeps them. A PMD that does not
 * count shows zeros while the workers have moved frames, and one that counts
 * frames but not bytes (net_ring) has no byte rates: then the workers'
 * counters are used instead.
 */
static bool use_nic(const struct stats_raw *r, int p)
{
	if (!r->nic_ok[p])
		return false;
	/* frames counted without their bytes (net_ring): the workers' */
	if ((r->nic[p].opackets && !r->nic[p].obytes) || (r->nic[p].ipackets && !r->nic[p].ibytes))
		return false;
	if (r->nic[p].opackets || r->nic[p].ipackets)
		return true;
	return !(r->port[p].tx_pkts || r->port[p].rx_pkts);
}

double stats_rate(uint64_t now, uint64_t prev, double dt)
{
	return dt > 0 ? (double)stats_sub0(now, prev) / dt : 0;
}

/* L2 bits per second, FCS included: bytes counted exclude it. */
static double bps_l2(double byte_rate, double pps)
{
	return (byte_rate + STATS_FCS_BYTES * pps) * 8;
}

static double bps_l1(double l2, double pps) { return l2 + STATS_L1_BYTES * 8 * pps; }

/* The ICMP error counters of a port (ctr.h) less the baseline. */
static void port_icmp(const struct ctr_port *w, const struct ctr_port *wb,
		      struct stats_port_snap *o)
{
	o->rx_icmp_unreach = stats_sub0(w->rx_icmp_unreach, wb ? wb->rx_icmp_unreach : 0);
	o->rx_icmp_frag_needed = stats_sub0(w->rx_icmp_frag_needed, wb ? wb->rx_icmp_frag_needed : 0);
	o->icmp_err_unmatched = stats_sub0(w->icmp_err_unmatched, wb ? wb->icmp_err_unmatched : 0);
	o->icmp_err_invalid = stats_sub0(w->icmp_err_invalid, wb ? wb->icmp_err_invalid : 0);
	o->icmp_err_kept = stats_sub0(w->icmp_err_kept, wb ? wb->icmp_err_kept : 0);
	o->icmp_mss_lowered = stats_sub0(w->icmp_mss_lowered, wb ? wb->icmp_mss_lowered : 0);
}

static void port_icmp_add(struct stats_port_snap *t, const struct stats_port_snap *o)
{
	t->rx_icmp_unreach += o->rx_icmp_unreach;
	t->rx_icmp_frag_needed += o->rx_icmp_frag_needed;
	t->icmp_err_unmatched += o->icmp_err_unmatched;
	t->icmp_err_invalid += o->icmp_err_invalid;
	t->icmp_err_kept += o->icmp_err_kept;
	t->icmp_mss_lowered += o->icmp_mss_lowered;
}

static void port_snap(const struct stats_raw *now, const struct stats_raw *prev,
		      const struct stats_raw *base, double dt, int p, struct stats_port_snap *o)
{
	bool nic = use_nic(now, p);
	struct port_counts cn, cp = {0}, cb = {0};
	const struct ctr_port *w = &now->port[p];
	const struct ctr_port *wb = base ? &base->port[p] : NULL;

	port_counts(now, p, nic, &cn);
	if (prev)
		port_counts(prev, p, nic, &cp);
	if (base)
		port_counts(base, p, nic, &cb);
	o->from_nic = nic;
	o->tx_pkts = stats_sub0(cn.tx_pkts, cb.tx_pkts);
	o->rx_pkts = stats_sub0(cn.rx_pkts, cb.rx_pkts);
	o->tx_bytes = stats_sub0(cn.tx_bytes, cb.tx_bytes);
	o->rx_bytes = stats_sub0(cn.rx_bytes, cb.rx_bytes);
	if (prev) {
		o->rated = true;
		o->tx_pps = stats_rate(cn.tx_pkts, cp.tx_pkts, dt);
		o->rx_pps = stats_rate(cn.rx_pkts, cp.rx_pkts, dt);
		o->tx_bps = bps_l2(stats_rate(cn.tx_bytes, cp.tx_bytes, dt), o->tx_pps);
		o->rx_bps = bps_l2(stats_rate(cn.rx_bytes, cp.rx_bytes, dt), o->rx_pps);
		o->tx_bps_l1 = bps_l1(o->tx_bps, o->tx_pps);
		o->rx_bps_l1 = bps_l1(o->rx_bps, o->rx_pps);
	}
	if (now->nic_ok[p]) {
		const struct stats_nic *n = &now->nic[p];
		const struct stats_nic *nb = base && base->nic_ok[p] ? &base->nic[p] : NULL;

		o->oerrors = stats_sub0(n->oerrors, nb ? nb->oerrors : 0);
		o->ierrors = stats_sub0(n->ierrors, nb ? nb->ierrors : 0);
		o->imissed = stats_sub0(n->imissed, nb ? nb->imissed : 0);
	}
	o->rx_bad = stats_sub0(w->rx_bad, wb ? wb->rx_bad : 0);
	o->rx_unknown = stats_sub0(w->rx_unknown, wb ? wb->rx_unknown : 0);
	o->tx_queue_full = stats_sub0(w->tx_queue_full, wb ? wb->tx_queue_full : 0);
	o->mbuf_fail = stats_sub0(w->mbuf_fail, wb ? wb->mbuf_fail : 0);
	port_icmp(w, wb, o);
	o->punt = stats_sub0(w->punt, wb ? wb->punt : 0);
	o->punt_drop = stats_sub0(w->punt_drop, wb ? wb->punt_drop : 0);
	if (o->speed_mbps)
		o->line_util = o->tx_bps_l1 / (o->speed_mbps * 1e6) * 100;
}

static void port_add(struct stats_port_snap *t, const struct stats_port_snap *o)
{
	t->link_up = t->link_up || o->link_up;
	t->rated = t->rated || o->rated;
	t->speed_mbps += o->speed_mbps;
	t->tx_pkts += o->tx_pkts;
	t->rx_pkts += o->rx_pkts;
	t->tx_bytes += o->tx_bytes;
	t->rx_bytes += o->rx_bytes;
	t->tx_pps += o->tx_pps;
	t->rx_pps += o->rx_pps;
	t->tx_bps += o->tx_bps;
	t->rx_bps += o->rx_bps;
	t->tx_bps_l1 += o->tx_bps_l1;
	t->rx_bps_l1 += o->rx_bps_l1;
	t->oerrors += o->oerrors;
	t->ierrors += o->ierrors;
	t->imissed += o->imissed;
	t->rx_bad += o->rx_bad;
	t->rx_unknown += o->rx_unknown;
	t->tx_queue_full += o->tx_queue_full;
	t->mbuf_fail += o->mbuf_fail;
	port_icmp_add(t, o);
	t->punt += o->punt;
	t->punt_drop += o->punt_drop;
	if (o->pool.ok) {
		t->pool.ok = true;
		t->pool.size += o->pool.size;
		t->pool.in_use += o->pool.in_use;
		t->pool.avail += o->pool.avail;
		t->pool.cached += o->pool.cached;
	}
}

void stats_total(struct stats_snap *s)
{
	memset(&s->total, 0, sizeof(s->total));
	for (int p = 0; p < s->nports && p < FG_MAX_PORTS; p++)
		port_add(&s->total, &s->port[p]);
	if (s->total.speed_mbps)
		s->total.line_util = s->total.tx_bps_l1 / (s->total.speed_mbps * 1e6) * 100;
}

/* busy / loop cycles between two samples, in %; 0 without an interval. */
static double util(uint64_t busy_now, uint64_t busy_prev, uint64_t loop_now, uint64_t loop_prev)
{
	double u;

	if (loop_now <= loop_prev)
		return 0;
	u = 100.0 * (double)stats_sub0(busy_now, busy_prev) / (double)(loop_now - loop_prev);
	return u > 100 ? 100 : u;
}

/*
 * Each worker apart: its counters less the baseline, its CPU share over
 * the same interval as the global one (time-weighted: a worker's busy
 * cycles over its loop cycles), the busiest share, and its stalls.
 */
static void workers_snap(const struct stats_raw *now, const struct stats_raw *prev,
			 const struct stats_raw *base, uint64_t tsc_hz, struct stats_snap *out)
{
	out->nworkers = FG_MIN(FG_MAX(now->nworkers, 0), FG_MAX_WORKERS);
	for (int i = 0; i < out->nworkers; i++) {
		const struct stats_wraw *n = &now->w[i];
		const struct stats_wraw *b = base && i < base->nworkers ? &base->w[i] : NULL;
		const struct stats_wraw *p = prev && i < prev->nworkers ? &prev->w[i] : NULL;
		struct stats_worker_snap *o = &out->w[i];

		o->id = i;
		o->tx_pkts = stats_sub0(n->tx_pkts, b ? b->tx_pkts : 0);
		o->rx_pkts = stats_sub0(n->rx_pkts, b ? b->rx_pkts : 0);
		o->redirected = stats_sub0(n->redirected, b ? b->redirected : 0);
		o->active_flows = FG_MAX(n->active_client, n->active_server);
		o->first_tx_tsc = n->first_tx_tsc;
		o->at_rt = (uint8_t)n->at_rt;
		if (n->first_tx_tsc && (!out->first_tx_tsc || n->first_tx_tsc < out->first_tx_tsc))
			out->first_tx_tsc = n->first_tx_tsc;
		o->stalls = stats_sub0(n->stalls, b ? b->stalls : 0);
		if (tsc_hz) {
			o->stalled_ms = 1e3 * (double)stats_sub0(n->stall_tsc, b ? b->stall_tsc : 0) /
					(double)tsc_hz;
			o->stall_late_ms = 1e3 *
					   (double)stats_sub0(n->stall_late_tsc, b ? b->stall_late_tsc : 0) /
					   (double)tsc_hz;
			o->stall_max_ms = 1e3 * (double)n->stall_max_tsc / (double)tsc_hz;
		}
		if (p && n->loop_tsc > p->loop_tsc) {
			o->cpu_util = util(n->busy_tsc, p->busy_tsc, n->loop_tsc, p->loop_tsc);
			o->cpu_measured = true;
		}
		if (o->cpu_util > out->g.cpu_util_max)
			out->g.cpu_util_max = o->cpu_util;
	}
}

void stats_compute(const struct stats_raw *now, const struct stats_raw *prev,
		   const struct stats_raw *base, uint64_t tsc_hz, int nports, const bool *link_up,
		   const uint32_t *speed_mbps, struct stats_snap *out)
{
	double dt = 0;

	memset(out, 0, sizeof(*out));
	if (nports > FG_MAX_PORTS)
		nports = FG_MAX_PORTS;
	if (nports < 0)
		nports = 0;
	if (prev && tsc_hz && now->tsc > prev->tsc)
		dt = (double)(now->tsc - prev->tsc) / (double)tsc_hz;
	if (dt <= 0)
		prev = NULL; /* no interval, no rates */
	out->nports = nports;
	out->g.tsc_hz = tsc_hz;
	out->interval = dt;

	for (int p = 0; p < nports; p++) {
		struct stats_port_snap *o = &out->port[p];

		o->link_up = link_up ? link_up[p] : false;
		o->speed_mbps = speed_mbps ? speed_mbps[p] : 0;
		port_snap(now, prev, base, dt, p, o);
	}
	stats_total(out);

	struct stats_global *g = &out->g;

	g->tx_pps = out->total.tx_pps;
	g->rx_pps = out->total.rx_pps;
	g->tx_bps = out->total.tx_bps;
	g->rx_bps = out->total.rx_bps;
	g->tx_bps_l1 = out->total.tx_bps_l1;
	g->rx_bps_l1 = out->total.rx_bps_l1;
	g->tx_pkts = out->total.tx_pkts;
	g->rx_pkts = out->total.rx_pkts;
	g->drop_rate = g->tx_pps > g->rx_pps ? g->tx_pps - g->rx_pps : 0;
	g->queue_full = out->total.tx_queue_full;
	g->cpu_measured = prev && now->loop_tsc > prev->loop_tsc;
	if (g->cpu_measured)
		g->cpu_util = 100.0 * (double)stats_sub0(now->busy_tsc, prev->busy_tsc) /
			      (double)(now->loop_tsc - prev->loop_tsc);
	if (g->cpu_util > 100)
		g->cpu_util = 100;
	workers_snap(now, prev, base, tsc_hz, out);
	/*
	 * A flow of a port pair sits in the client table of one worker and
	 * the server table of another: the larger side is the flow count.
	 */
	g->active_flows = FG_MAX(now->gauge.active_client, now->gauge.active_server);
	if (prev) {
		g->cps = stats_rate(now->client.started, prev->client.started, dt);
		g->completed_cps = stats_rate(now->client.completed, prev->client.completed, dt);
	}

	struct stats_flows *f = &out->flows;

	sub_words((uint64_t *)&f->client, (const uint64_t *)&now->client,
		  base ? (const uint64_t *)&base->client : NULL, NWORDS(struct ctr_client));
	sub_words((uint64_t *)&f->server, (const uint64_t *)&now->server,
		  base ? (const uint64_t *)&base->server : NULL, NWORDS(struct ctr_server));
	f->active_client = now->gauge.active_client;
	f->active_server = now->gauge.active_server;
	f->cps = g->cps;
	f->completed_cps = g->completed_cps;
}

/* ---- groups of templates ---------------------------------------------- */

/* dst += a - b word by word (b may be NULL), each difference clipped at 0. */
static void add_diff(uint64_t *dst, const uint64_t *a, const uint64_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] += stats_sub0(a[i], b ? b[i] : 0);
}

void stats_groups(const struct stats_raw *now, const struct stats_raw *prev,
		  const struct stats_raw *base, double dt, const struct stats_tpl_map *map,
		  struct stats_snap *out)
{
	int ntpl = FG_MAX(0, FG_MIN(map->ntpl, FG_PROF_MAX_TEMPLATES));

	out->map = *map;
	out->map.ntpl = ntpl;
	out->map.ngroups = FG_MAX(0, FG_MIN(map->ngroups, ntpl));
	memset(out->grp, 0, sizeof(out->grp));
	out->flows.active_target = map->active_target;
	for (int g = 0; g < out->map.ngroups; g++)
		out->grp[g].active_target = map->climit[g];
	if (!prev || dt <= 0)
		prev = NULL;
	for (int t = 0; t < ntpl; t++) {
		const struct ctr_tpl *n = &now->tpl[t], *b = base ? &base->tpl[t] : NULL;
		struct stats_flows *g;

		if (map->group[t] >= out->map.ngroups)
			continue;
		g = &out->grp[map->group[t]];
		add_diff((uint64_t *)&g->client, (const uint64_t *)&n->client,
			 b ? (const uint64_t *)&b->client : NULL, NWORDS(struct ctr_client));
		add_diff((uint64_t *)&g->server, (const uint64_t *)&n->server,
			 b ? (const uint64_t *)&b->server : NULL, NWORDS(struct ctr_server));
		g->active_client += n->active_client;
		g->active_server += n->active_server;
		if (prev) {
			g->cps += stats_rate(n->client.started, prev->tpl[t].client.started, dt);
			g->completed_cps +=
			    stats_rate(n->client.completed, prev->tpl[t].client.completed, dt);
		}
	}
}

/* ---- latency figures --------------------------------------------------- */

void stats_lat_figures(struct stats_lat_row *r, const struct lat_hist *h)
{
	struct lat_summary sum;

	/* the percentiles of the delays measured: the lost frames of a live
	 * run include those still in flight */
	lat_summarize(h, 0, &sum);
	if (!sum.samples) {
		r->min_us = r->avg_us = r->max_us = NAN;
		r->p50_us = r->p99_us = r->p999_us = r->jitter_us = NAN;
		return;
	}
	r->min_us = sum.min_us;
	r->avg_us = sum.avg_us;
	r->max_us = sum.max_us;
	r->p50_us = sum.p50_us;
	r->p99_us = sum.p99_us;
	r->p999_us = sum.p999_us;
	r->jitter_us = h->jit_n ? sum.jitter_us : NAN;
}

/* ---- number and cell formatting ---------------------------------------- */

/* No NaN or infinity in a figure: 0 for them. */
static double fin(double v) { return isfinite(v) ? v : 0; }

const char *stats_fmt_rate(char *buf, size_t len, double v, const char *unit, bool measured)
{
	if (!measured || isnan(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	return stats_fmt_si(buf, len, v, unit);
}

const char *stats_fmt_us(char *buf, size_t len, double us)
{
	if (isnan(us))
		snprintf(buf, len, "-");
	else if (isinf(us))
		snprintf(buf, len, "inf");
	else if (us < 99999.95)
		snprintf(buf, len, "%.1f", us);
	else if (us < 9999999.5)
		snprintf(buf, len, "%.0f", us);
	else
		snprintf(buf, len, "%.2fM", us / 1e6);
	return buf;
}

const char *stats_fmt_fit(char *buf, size_t len, uint64_t v, int width)
{
	int n = snprintf(buf, len, "%" PRIu64, v);

	return n > width ? stats_fmt_count(buf, len, v) : buf;
}

const char *stats_fmt_si(char *buf, size_t len, double v, const char *unit)
{
	static const char pfx[] = {' ', 'K', 'M', 'G', 'T', 'P'};
	unsigned i = 0;

	v = fin(v);
	while (fabs(v) >= 1000 && i + 1 < sizeof(pfx)) {
		v /= 1000;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.2f %s", v, unit);
	else
		snprintf(buf, len, "%.2f %c%s", v, pfx[i], unit);
	return buf;
}

enum offer_limit stats_offer_limit(const struct stats_global *g)
{
	return g->offer_limit > 0 && g->offer_limit < OFFER_LIMIT_COUNT ? g->offer_limit
									 : OFFER_LIMIT_UNKNOWN;
}

int stats_offer_warning(char *buf, size_t len, const struct stats_global *g)
{
	char a[32], b[32], why[96] = "";
	bool flows = g->offered_cps > 0;
	enum offer_limit l = stats_offer_limit(g);

	if (!g->short_of_offer)
		return 0;
	if (l == OFFER_LIMIT_CPU && g->offer_late > 0)
		snprintf(why, sizeof(why), " (cpu_util %.0f %%, %.0f %s/s not opened in time)",
			 fin(g->offer_cpu), fin(g->offer_late), flows ? "flows" : "frames");
	else if (l == OFFER_LIMIT_CPU)
		snprintf(why, sizeof(why), " (cpu_util %.0f %%)", fin(g->offer_cpu));
	else if (l == OFFER_LIMIT_TXQ)
		snprintf(why, sizeof(why), " (%s refused)",
			 stats_fmt_si(a, sizeof(a), g->offer_refused, "pps"));
	else if (l == OFFER_LIMIT_DUT)
		snprintf(why, sizeof(why), " (%.0f %s failing)", fin(g->offer_failed),
			 flows ? "flows/s" : "frames/s");
	snprintf(buf, len, "short of offer: offered %s, achieved %s; likely limit: %s%s",
		 stats_fmt_si(a, sizeof(a), flows ? g->offered_cps : g->offered_pps,
			      flows ? "cps" : "pps"),
		 stats_fmt_si(b, sizeof(b), flows ? g->cps : g->tx_pps, flows ? "cps" : "pps"),
		 l == OFFER_LIMIT_UNKNOWN ? "not known" : offer_limit_names[l], why);
	return 1;
}

const char *stats_fmt_count(char *buf, size_t len, uint64_t v)
{
	static const char pfx[] = "KMGTPE";
	double d = (double)v;
	unsigned i = 0;

	if (v < 100000) {
		snprintf(buf, len, "%" PRIu64, v);
		return buf;
	}
	d /= 1000;
	while (d >= 999.5 && i + 1 < sizeof(pfx) - 1) {
		d /= 1000;
		i++;
	}
	snprintf(buf, len, d < 9.995 ? "%.2f%c" : d < 99.95 ? "%.1f%c" : "%.0f%c", d, pfx[i]);
	return buf;
}

void stats_port_cell(char *buf, size_t len, const struct stats_port_row *r,
		     const struct stats_port_snap *o, int pct_digits)
{
	const char *base = (const char *)o;

	switch (r->kind) {
	case STATS_CELL_U64:
		snprintf(buf, len, "%" PRIu64, *(const uint64_t *)(base + r->off));
		break;
	case STATS_CELL_COUNT:
		stats_fmt_count(buf, len, *(const uint64_t *)(base + r->off));
		break;
	case STATS_CELL_PPS:
	case STATS_CELL_BPS:
		if (!o->rated)
			snprintf(buf, len, "-");
		else
			stats_fmt_si(buf, len, *(const double *)(base + r->off),
				     r->kind == STATS_CELL_PPS ? "pps" : "bps");
		break;
	case STATS_CELL_PCT:
		if (!o->rated || !o->speed_mbps)
			snprintf(buf, len, "-");
		else
			snprintf(buf, len, "%.*f %%", pct_digits,
				 fin(*(const double *)(base + r->off)));
		break;
	case STATS_CELL_LINK:
		if (o->speed_mbps >= 1000)
			snprintf(buf, len, "%s %uG", o->link_up ? "UP" : "DOWN",
				 o->speed_mbps / 1000);
		else
			snprintf(buf, len, "%s %uM", o->link_up ? "UP" : "DOWN", o->speed_mbps);
		break;
	}
}

/* ---- the hold of start --active's target ------------------------------------- */

double stats_hold_update(struct stats_hold *h, uint64_t target, uint64_t active,
			 uint64_t now_tsc, uint64_t tsc_hz)
{
	double low = (double)target * (1.0 - STATS_HOLD_PCT / 100.0);

	if (!target || (double)active < low || !tsc_hz) {
		h->on = false;
		return 0;
	}
	if (!h->on) {
		h->on = true;
		h->since_tsc = now_tsc;
	}
	return now_tsc > h->since_tsc ? (double)(now_tsc - h->since_tsc) / (double)tsc_hz : 0;
}
