/*
 * stats_json.c — flowgen's statistics as JSON: a snapshot (struct
 * stats_snap, made by stats_get in stats.c) written as the one object of
 * `stats --json` (stats_write_json, stats_json, stats_json_at), and the
 * failed flows of `stats --failed --json` (stats_failed_json). The same
 * snapshot as the text tables of `stats` is in stats_fmt.c; the helpers
 * both share are in stats_int.h. What each field means is in flowgen(8),
 * STATISTICS.
 *
 * Run by control threads: the command `stats --json` of the REPL, batch
 * runs and the HTTP API (stats_emit, src/cmd/cmds.c), stats_print, and
 * the recorder's thread (record.h, one JSON object per line of the
 * record, through stats_json_at). The writers work on the snapshot they
 * are given, with one exception: the driver's extended statistics
 * (xstats) joined into each port's object are read from DPDK at print
 * time, less the baseline that stats_clear takes through
 * stats_xstats_baseline, kept here.
 */
#include <errno.h>
#include <netinet/in.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include "fails.h"
#include "json.h"
#include "offer.h"
#include "port_addr.h"
#include "stats.h"
#include "stats_int.h"
#include "tcp.h"

/*
 * A rate or figure of the snapshot: "%.Nf"; null when it was not
 * measured (NAN, or `measured` false: "a figure that was not measured is
 * not zero", flowgen(8) STATISTICS); 0 for infinity.
 */
static void jnum(struct jw *j, const char *key, double v, int prec, bool measured)
{
	if (!measured || isnan(v))
		jw_null(j, key);
	else
		jw_num(j, key, fin(v), prec);
}

/*
 * A time of the run's start as RFC 3339 in UTC to the nanosecond
 * (wallclock.h): a worker's TSC count through the run's pair, or null
 * (0: none yet, or no run yet).
 */
static void jtime_tsc(struct jw *j, const char *key, const struct stats_snap *s, uint64_t tsc)
{
	char t[WC_TEXT_MAX];

	if (!tsc || !s->start_pair.hz || !wc_fmt(wc_rt_of(&s->start_pair, tsc), t, sizeof(t)))
		jw_null(j, key);
	else
		jw_str(j, key, t);
}

static void json_global(struct jw *j, const struct stats_snap *s)
{
	const struct stats_global *g = &s->g;

	bool r = stats_rated(s);

	jw_obj(j, "global");
	jw_u64(j, "tsc_hz", g->tsc_hz);
	jnum(j, "tx_pps", g->tx_pps, 2, r);
	jnum(j, "rx_pps", g->rx_pps, 2, r);
	jnum(j, "tx_bps", g->tx_bps, 2, r);
	jnum(j, "rx_bps", g->rx_bps, 2, r);
	jnum(j, "tx_bps_l1", g->tx_bps_l1, 2, r);
	jnum(j, "rx_bps_l1", g->rx_bps_l1, 2, r);
	jw_u64(j, "tx_pkts", g->tx_pkts);
	jw_u64(j, "rx_pkts", g->rx_pkts);
	jnum(j, "drop_rate", g->drop_rate, 2, r);
	jnum(j, "cpu_util", g->cpu_util, 2, g->cpu_measured);
	jw_u64(j, "active_flows", g->active_flows);
	jnum(j, "cps", g->cps, 2, r);
	jw_u64(j, "queue_full", g->queue_full);
	jnum(j, "interval", s->interval, 3, true);
	jnum(j, "completed_cps", g->completed_cps, 2, r);
	jnum(j, "offered_pps", g->offered_pps, 2, true);
	jnum(j, "offered_cps", g->offered_cps, 2, true);
	jw_bool(j, "short_of_offer", g->short_of_offer);
	jw_str(j, "offer_limit", g->short_of_offer ? offer_limit_names[stats_offer_limit(g)] : NULL);
	/* the signs the limit was guessed from, which the warning names */
	if (g->short_of_offer) {
		jw_obj(j, "offer_signs");
		jw_num(j, "cpu_util", fin(g->offer_cpu), 2);
		jw_num(j, "late", fin(g->offer_late), 2);
		jw_num(j, "refused", fin(g->offer_refused), 2);
		jw_num(j, "failed", fin(g->offer_failed), 2);
		jw_obj_end(j);
	} else {
		jw_null(j, "offer_signs");
	}
	{
		char t[WC_TEXT_MAX];

		if (s->start_pair.hz && wc_fmt(s->start_planned_ns, t, sizeof(t)))
			jw_str(j, "start_planned", t);
		else
			jw_null(j, "start_planned");
	}
	jtime_tsc(j, "first_frame", s, s->first_tx_tsc);
	jw_num(j, "clock_ppm", s->clock_ppm, 1);
	jw_obj_end(j);
}

/*
 * The driver's extended statistics (rte_eth_xstats), joined into each
 * port's JSON object as "xstats": the non-zero ones, less the baseline
 * taken by `clear`. Read at print time on control; absent for a port
 * DPDK does not know (unit tests).
 */
#define STATS_XSTATS_MAX 512
static uint64_t xstats_base[FG_MAX_PORTS][STATS_XSTATS_MAX];
/* the baseline is taken on the console's thread (clear, start) while the
 * recorder's thread may be writing a port's object (record.h) */
static pthread_mutex_t xstats_mu = PTHREAD_MUTEX_INITIALIZER;

static int xstats_read(int port, struct rte_eth_xstat *xs, int max)
{
	int n, id = port >= 0 && port < FG_MAX_PORTS ? stats_port_id(port) : -1;

	if (id < 0)
		return 0;
	n = rte_eth_xstats_get((uint16_t)id, xs, (unsigned)max);
	return n < 0 || n > max ? 0 : n;
}

void stats_xstats_baseline(int nports)
{
	struct rte_eth_xstat xs[STATS_XSTATS_MAX];

	for (int p = 0; p < nports && p < FG_MAX_PORTS; p++) {
		int n = xstats_read(p, xs, STATS_XSTATS_MAX);

		pthread_mutex_lock(&xstats_mu);
		memset(xstats_base[p], 0, sizeof(xstats_base[p]));
		for (int i = 0; i < n; i++)
			if (xs[i].id < STATS_XSTATS_MAX)
				xstats_base[p][xs[i].id] = xs[i].value;
		pthread_mutex_unlock(&xstats_mu);
	}
}

static void json_xstats(struct jw *j, int port)
{
	struct rte_eth_xstat xs[STATS_XSTATS_MAX];
	struct rte_eth_xstat_name names[STATS_XSTATS_MAX];
	int n = xstats_read(port, xs, STATS_XSTATS_MAX);

	if (n <= 0 ||
	    rte_eth_xstats_get_names((uint16_t)stats_port_id(port), names, STATS_XSTATS_MAX) != n)
		return;
	jw_obj(j, "xstats");
	pthread_mutex_lock(&xstats_mu);
	for (int i = 0; i < n; i++) {
		uint64_t base = xs[i].id < STATS_XSTATS_MAX ? xstats_base[port][xs[i].id] : 0;
		uint64_t v = xs[i].value >= base ? xs[i].value - base : 0;

		if (!v || xs[i].id >= (uint64_t)n)
			continue;
		jw_u64(j, names[xs[i].id].name, v);
	}
	pthread_mutex_unlock(&xstats_mu);
	jw_obj_end(j);
}

/* The port's ICMP errors and what they did (flowgen(8), ICMP ERRORS). */
static void json_port_icmp(struct jw *j, const struct stats_port_snap *o)
{
	jw_u64(j, "rx_icmp_unreach", o->rx_icmp_unreach);
	jw_u64(j, "rx_icmp_frag_needed", o->rx_icmp_frag_needed);
	jw_u64(j, "icmp_err_unmatched", o->icmp_err_unmatched);
	jw_u64(j, "icmp_err_invalid", o->icmp_err_invalid);
	jw_u64(j, "icmp_err_kept", o->icmp_err_kept);
	jw_u64(j, "icmp_mss_lowered", o->icmp_mss_lowered);
}

/* ---- next hops (svc.h: announcements, Neighbour Unreachability Detection) */

/* A port's next hop of one family under key; null when the port has none. */
static void json_next_hop(struct jw *j, const char *key, const struct stats_next_hop *h)
{
	char m[PORT_MAC_TEXT], t[WC_TEXT_MAX];

	if (!h->present) {
		jw_null(j, key);
		return;
	}
	port_mac_text(h->mac, m);
	jw_obj(j, key);
	jw_str(j, "ip", h->ip[0] ? h->ip : NULL);
	jw_str(j, "mac", h->known ? m : NULL);
	jw_str(j, "state", nh_state(h));
	jw_u64(j, "mac_changes", h->mac_changes);
	jw_u64(j, "announced", h->announced);
	jw_u64(j, "reresolved", h->reresolved);
	jw_u64(j, "probes_ucast", h->probes_ucast);
	jw_u64(j, "probes_mcast", h->probes_mcast);
	jw_u64(j, "failures", h->failures);
	jw_str(j, "changed", h->changed_ns && wc_fmt(h->changed_ns, t, sizeof(t)) ? t : NULL);
	jw_obj_end(j);
}

/*
 * The port's mbuf pool (stats_snap.h, struct stats_pool) as "mempool",
 * or null when none was read.
 */
static void json_mempool(struct jw *j, const struct stats_pool *m)
{
	if (!m->ok) {
		jw_null(j, "mempool");
		return;
	}
	jw_obj(j, "mempool");
	jw_str(j, "name", m->name);
	jw_u64(j, "size", m->size);
	jw_u64(j, "in_use", m->in_use);
	jw_u64(j, "avail", m->avail);
	jw_u64(j, "cached", m->cached);
	jw_u64(j, "cache_size", m->cache_size);
	jw_obj_end(j);
}

static void json_port(struct jw *j, int port, const struct stats_port_snap *o)
{
	jw_obj(j, NULL);
	jw_i64(j, "port", port);
	jw_bool(j, "link", o->link_up);
	jw_u64(j, "speed_mbps", o->speed_mbps);
	jw_u64(j, "tx_pkts", o->tx_pkts);
	jw_u64(j, "rx_pkts", o->rx_pkts);
	jw_u64(j, "tx_bytes", o->tx_bytes);
	jw_u64(j, "rx_bytes", o->rx_bytes);
	jnum(j, "tx_pps", o->tx_pps, 2, o->rated);
	jnum(j, "rx_pps", o->rx_pps, 2, o->rated);
	jnum(j, "tx_bps", o->tx_bps, 2, o->rated);
	jnum(j, "rx_bps", o->rx_bps, 2, o->rated);
	jnum(j, "tx_bps_l1", o->tx_bps_l1, 2, o->rated);
	jnum(j, "line_util", o->line_util, 2, o->rated && o->speed_mbps);
	jw_u64(j, "oerrors", o->oerrors);
	jw_u64(j, "ierrors", o->ierrors);
	jw_u64(j, "imissed", o->imissed);
	jw_u64(j, "rx_bad", o->rx_bad);
	jw_u64(j, "rx_unknown", o->rx_unknown);
	jw_u64(j, "tx_queue_full", o->tx_queue_full);
	jw_u64(j, "mbuf_fail", o->mbuf_fail);
	json_port_icmp(j, o);
	jw_u64(j, "punt", o->punt);
	jw_u64(j, "punt_drop", o->punt_drop);
	jw_str(j, "counters", o->from_nic ? "nic" : "workers");
	/* the port's frames its TX queue refused, by the name streams use */
	jw_u64(j, "tx_dropped", o->tx_queue_full);
	json_next_hop(j, "next_hop", &o->nh[0]);
	json_next_hop(j, "next_hop6", &o->nh[1]);
	json_xstats(j, port);
	json_mempool(j, &o->pool);
	jw_obj_end(j);
}

/* fail_reasons: {name: count} of every reason (fails.h), in their order. */
static void json_reasons(struct jw *j, const uint64_t *fail)
{
	jw_obj(j, "fail_reasons");
	for (unsigned r = 0; r < FG_FAIL_N; r++)
		jw_u64(j, fails_name(r), fail[r]);
	jw_obj_end(j);
}

/* The client object of fl; a group's (grp) has no late: no template has it.
 * rated: its rates were measured (stats_rated). */
static void json_client(struct jw *j, const struct stats_flows *fl, bool grp, bool rated)
{
	const struct ctr_client *c = &fl->client;

	jw_obj(j, "client");
	jw_u64(j, "started", c->started);
	jw_u64(j, "established", c->established);
	jw_u64(j, "completed", c->completed);
	jw_u64(j, "failed", c->failed);
	jw_u64(j, "active", fl->active_client);
	jw_u64(j, "active_target", fl->active_target);
	if (!grp)
		jw_num(j, "target_held_s", fl->target_held_s, 1);
	json_reasons(j, c->fail);
	jw_u64(j, "aborted", c->aborted);
	jw_u64(j, "tx_pkts", c->tx_pkts);
	jw_u64(j, "rx_pkts", c->rx_pkts);
	jw_u64(j, "tx_bytes", c->tx_bytes);
	jw_u64(j, "rx_bytes", c->rx_bytes);
	jw_u64(j, "retx", c->retx);
	jnum(j, "cps", fl->cps, 2, rated);
	jnum(j, "completed_cps", fl->completed_cps, 2, rated);
	if (!grp)
		jw_u64(j, "late", c->late);
	jw_u64(j, "foreign_server", c->foreign_server);
	jw_obj_end(j);
}

/* The server object of fl; a group's (grp) has no distinct_src_*: the NAT
 * report's sources are kept per worker, not per template. */
static void json_server(struct jw *j, const struct stats_flows *fl, bool grp)
{
	const struct ctr_server *v = &fl->server;

	jw_obj(j, "server");
	jw_u64(j, "accepted", v->accepted);
	jw_u64(j, "completed", v->completed);
	jw_u64(j, "failed", v->failed);
	jw_u64(j, "active", fl->active_server);
	json_reasons(j, v->fail);
	jw_u64(j, "aborted", v->aborted);
	jw_u64(j, "tx_pkts", v->tx_pkts);
	jw_u64(j, "rx_pkts", v->rx_pkts);
	jw_u64(j, "tx_bytes", v->tx_bytes);
	jw_u64(j, "rx_bytes", v->rx_bytes);
	jw_u64(j, "translated", v->translated);
	jw_u64(j, "untranslated", v->untranslated);
	if (!grp) {
		jw_u64(j, "distinct_src_addrs", fl->distinct_addrs);
		jw_u64(j, "distinct_src_ports", fl->distinct_ports);
	}
	jw_u64(j, "retx", v->retx);
	jw_obj_end(j);
}

static void json_flows(struct jw *j, const struct stats_snap *s)
{
	jw_obj(j, "flows");
	json_client(j, &s->flows, false, stats_rated(s));
	json_server(j, &s->flows, false);
	jw_obj_end(j);
}

/* templates[]: one object per group, its name, its templates and its flows. */
static void json_groups(struct jw *j, const struct stats_snap *s)
{
	const struct stats_tpl_map *m = &s->map;

	jw_arr(j, "templates");
	for (int g = 0; g < m->ngroups; g++) {
		jw_obj(j, NULL);
		jw_str(j, "name", m->name[g]);
		jw_arr(j, "templates");
		for (int t = 0; t < m->ntpl; t++)
			if (m->group[t] == g)
				jw_str(j, NULL, m->tpl[t]);
		jw_arr_end(j);
		json_client(j, &s->grp[g], true, stats_rated(s));
		json_server(j, &s->grp[g], true);
		jw_obj_end(j);
	}
	jw_arr_end(j);
}

static void json_lat(struct jw *j, const struct stats_lat_row *l)
{
	jw_obj(j, NULL);
	jw_str(j, "stream", l->stream);
	jw_i64(j, "port", l->port);
	jw_u64(j, "tx", l->tx);
	jw_u64(j, "rx", l->rx);
	jw_u64(j, "lost", l->lost);
	jw_u64(j, "dup", l->dup);
	jw_u64(j, "ooo", l->ooo);
	jnum(j, "min_us", l->min_us, 3, true);
	jnum(j, "avg_us", l->avg_us, 3, true);
	jnum(j, "max_us", l->max_us, 3, true);
	jnum(j, "p50_us", l->p50_us, 3, true);
	jnum(j, "p99_us", l->p99_us, 3, true);
	jnum(j, "p999_us", l->p999_us, 3, true);
	jnum(j, "jitter_us", l->jitter_us, 3, true);
	jw_u64(j, "tx_dropped", l->tx_dropped);
	jw_u64(j, "late", l->late);
	jw_u64(j, "stale", l->stale);
	jw_obj_end(j);
}

/* The host pairs (STATS_H), read when printed: {"unmatched", "rows"}. */
static void json_pairs(struct jw *j)
{
	struct stats_pair_row *r;
	uint64_t unmatched;
	int n = stats_pair_rows(&r, &unmatched);

	jw_obj(j, "pairs");
	jw_u64(j, "unmatched", unmatched);
	jw_arr(j, "rows");
	for (int i = 0; i < n; i++) {
		const struct stats_pair_row *p = &r[i];

		jw_obj(j, NULL);
		jw_str(j, "stream", p->stream);
		jw_i64(j, "port", p->port);
		jw_u64(j, "pair", p->pair);
		jw_str(j, "src", p->src);
		jw_str(j, "dst", p->dst);
		jw_u64(j, "tx", p->tx);
		jw_u64(j, "rx", p->rx);
		jw_u64(j, "lost", p->lost);
		jnum(j, "loss_pct", p->loss_pct, 4, p->tx > 0);
		jnum(j, "min_us", p->min_us, 3, true);
		jnum(j, "avg_us", p->avg_us, 3, true);
		jnum(j, "max_us", p->max_us, 3, true);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_obj_end(j);
	free(r);
}

static void json_worker(struct jw *j, const struct stats_snap *s,
			const struct stats_worker_snap *w)
{
	jw_obj(j, NULL);
	jw_i64(j, "id", w->id);
	jw_u64(j, "lcore", w->lcore);
	jw_arr(j, "ports");
	for (int p = 0; p < FG_MAX_PORTS; p++)
		if (w->port_mask >> p & 1)
			jw_i64(j, NULL, p);
	jw_arr_end(j);
	jw_u64(j, "tx_pkts", w->tx_pkts);
	jw_u64(j, "rx_pkts", w->rx_pkts);
	jw_u64(j, "redirected", w->redirected);
	jw_u64(j, "active_flows", w->active_flows);
	jnum(j, "cpu_util", w->cpu_util, 2, w->cpu_measured);
	jw_u64(j, "stalls", w->stalls);
	jw_num(j, "stalled_ms", w->stalled_ms, 3);
	jw_num(j, "stall_late_ms", w->stall_late_ms, 3);
	jw_num(j, "stall_max_ms", w->stall_max_ms, 3);
	jtime_tsc(j, "first_frame", s, w->first_tx_tsc);
	if (w->at_rt)
		jw_bool(j, "at_realtime", w->at_rt == 1);
	else
		jw_null(j, "at_realtime");
	jw_obj_end(j);
}

int stats_json(struct jw *j, const struct stats_snap *s, unsigned sections)
{
	return stats_json_at(j, NULL, s, sections);
}

int stats_json_at(struct jw *j, const char *key, const struct stats_snap *s, unsigned sections)
{
	if (!sections)
		sections = STATS_ALL;
	jw_obj(j, key);
	if (sections & STATS_G)
		json_global(j, s);
	if (sections & STATS_P) {
		jw_arr(j, "ports");
		for (int p = 0; p < s->nports; p++)
			json_port(j, p, &s->port[p]);
		jw_arr_end(j);
	}
	if (sections & STATS_A)
		json_flows(j, s);
	if (sections & (STATS_A | STATS_T))
		json_groups(j, s);
	if (sections & STATS_L) {
		jw_arr(j, "latency");
		for (int i = 0; i < s->nlat; i++)
			json_lat(j, &s->lat[i]);
		jw_arr_end(j);
	}
	if (sections & STATS_W) {
		jw_arr(j, "workers");
		for (int i = 0; i < s->nworkers; i++)
			json_worker(j, s, &s->w[i]);
		jw_arr_end(j);
	}
	if (sections & STATS_H)
		json_pairs(j);
	jw_obj_end(j);
	return jw_error(j);
}

int stats_write_json(FILE *f, const struct stats_snap *s, unsigned sections)
{
	struct jw j;
	int rc;

	jw_init(&j, f, false);
	rc = stats_json(&j, s, sections);
	fputc('\n', f);
	return rc;
}

/* ---- failed flows (stats --failed) ------------------------------------ */

int stats_failed_json(struct jw *j, const char *key, uint32_t run, size_t n)
{
	struct stats_failed *v;
	size_t held, k = failed_get(run, n, &v, &held);

	if (!v)
		return -ENOMEM;
	jw_obj(j, key);
	jw_u64(j, "held", held);
	jw_arr(j, "flows");
	for (size_t i = 0; i < k; i++) {
		const struct fail_rec *r = &v[i].rec;
		char a[64], t[WC_TEXT_MAX];

		jw_obj(j, NULL);
		if (v[i].rt_ns && wc_fmt(v[i].rt_ns, t, sizeof(t)))
			jw_str(j, "time", t);
		else
			jw_null(j, "time");
		jw_str(j, "side", r->side ? "server" : "client");
		jw_str(j, "template", v[i].tpl);
		jw_str(j, "proto", r->proto == IPPROTO_TCP ? "tcp" : "udp");
		jw_str(j, "family", r->v6 ? "ipv6" : "ipv4");
		jw_str(j, "src", fails_addr(a, sizeof(a), r, r->src));
		jw_u64(j, "sport", r->sport);
		jw_str(j, "dst", fails_addr(a, sizeof(a), r, r->dst));
		jw_u64(j, "dport", r->dport);
		if (r->proto == IPPROTO_TCP && r->state < TCP_STATE_COUNT)
			jw_str(j, "state", tcp_state_names[r->state]);
		else
			jw_null(j, "state");
		jw_u64(j, "step", r->step);
		jw_str(j, "reason", fails_name(r->reason));
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_obj_end(j);
	free(v);
	return 0;
}
