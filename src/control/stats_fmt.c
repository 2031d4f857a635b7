/*
 * stats_fmt.c — the output side of flowgen's statistics: a snapshot
 * (struct stats_snap, made by stats_get in stats.c) written as one JSON
 * object or as the aligned text tables of `stats`; the number and cell
 * formatters the dashboard shares with those tables are pure, in
 * src/core/stats_snap.c. What each field means is in flowgen(8),
 * STATISTICS.
 *
 * Run by control threads: the REPL and batch runs (`stats`, `stats
 * --json`, through stats_print) and the recorder's thread (record.h, one
 * JSON object per line of the record). The writers work on the snapshot they are given, with
 * one exception: the driver's extended statistics (xstats) joined into
 * each port's JSON object are read from DPDK at print time, less the
 * baseline that stats_clear takes through stats_xstats_baseline.
 */
#include <errno.h>
#include <netinet/in.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include "fails.h"
#include "json.h"
#include "nud.h"
#include "offer.h"
#include "port_addr.h"
#include "stats.h"
#include "stats_int.h"
#include "tcp.h"

/* JSON has no NaN or infinity: print 0 for them. */
static double fin(double v) { return isfinite(v) ? v : 0; }

/* ---- JSON ------------------------------------------------------------- */

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

/* A next hop's state as shown: "static", or its NUD state (nud.h). */
static const char *nh_state(const struct stats_next_hop *h)
{
	return h->is_static ? "static" : nud_state_name((enum nud_state)h->state);
}

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

/* The ports' next hops, a line each, under the ports' table. */
static void text_next_hops(FILE *f, const struct stats_snap *s)
{
	bool any = false;

	for (int p = 0; p < s->nports; p++)
		for (int i = 0; i < 2; i++) {
			const struct stats_next_hop *h = &s->port[p].nh[i];
			char m[PORT_MAC_TEXT] = "-";

			if (!h->present)
				continue;
			if (!any)
				fprintf(f, "Next hops\n\n");
			any = true;
			if (h->known)
				port_mac_text(h->mac, m);
			fprintf(f,
				"port %d %s %s MAC %s %s: %" PRIu64 " MAC changes (%" PRIu64
				" announced, %" PRIu64 " re-resolved), %" PRIu64 " unicast and %" PRIu64
				" broadcast probes\n",
				p, i ? "IPv6" : "IPv4", h->ip[0] ? h->ip : "-", m, nh_state(h),
				h->mac_changes, h->announced, h->reresolved, h->probes_ucast,
				h->probes_mcast);
		}
	if (any)
		fputc('\n', f);
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

/* ---- text tables ------------------------------------------------------ */

#define LBL_W 14 /* label column */
#define COL_W 16 /* value columns */

static void text_global(FILE *f, const struct stats_snap *s)
{
	const struct stats_global *g = &s->g;
	bool r = stats_rated(s);
	char a[32], b[32], warn[200];

	fprintf(f, "Global Statistics\n\n");
	fprintf(f, "%-*s: %-18s %-*s: %s\n", LBL_W, "total_tx_L2",
		stats_fmt_rate(a, sizeof(a), g->tx_bps, "bps", r), LBL_W, "total_rx_L2",
		stats_fmt_rate(b, sizeof(b), g->rx_bps, "bps", r));
	fprintf(f, "%-*s: %-18s %-*s: %s\n", LBL_W, "total_tx_L1",
		stats_fmt_rate(a, sizeof(a), g->tx_bps_l1, "bps", r), LBL_W, "total_rx_L1",
		stats_fmt_rate(b, sizeof(b), g->rx_bps_l1, "bps", r));
	fprintf(f, "%-*s: %-18s %-*s: %s\n", LBL_W, "total_tx_pps",
		stats_fmt_rate(a, sizeof(a), g->tx_pps, "pps", r), LBL_W, "total_rx_pps",
		stats_fmt_rate(b, sizeof(b), g->rx_pps, "pps", r));
	fprintf(f, "%-*s: %-18" PRIu64 " %-*s: %" PRIu64 "\n", LBL_W, "tx_pkts", g->tx_pkts, LBL_W,
		"rx_pkts", g->rx_pkts);
	if (g->cpu_measured)
		snprintf(b, sizeof(b), "%.2f %%", fin(g->cpu_util));
	else
		snprintf(b, sizeof(b), "-");
	fprintf(f, "%-*s: %-18s %-*s: %s\n", LBL_W, "drop_rate",
		stats_fmt_rate(a, sizeof(a), g->drop_rate, "pps", r), LBL_W, "cpu_util", b);
	fprintf(f, "%-*s: %-18s %-*s: %" PRIu64 "\n", LBL_W, "cps",
		stats_fmt_rate(a, sizeof(a), g->cps, "cps", r), LBL_W, "active_flows",
		g->active_flows);
	fprintf(f, "%-*s: %-18s %-*s: %s\n", LBL_W, "completed_cps",
		stats_fmt_rate(a, sizeof(a), g->completed_cps, "cps", r), LBL_W, "offered",
		g->offered_cps > 0   ? stats_fmt_si(b, sizeof(b), g->offered_cps, "cps")
		: g->offered_pps > 0 ? stats_fmt_si(b, sizeof(b), g->offered_pps, "pps")
				     : "-");
	fprintf(f, "%-*s: %-18" PRIu64 " %-*s: %.3f s\n\n", LBL_W, "queue_full", g->queue_full,
		LBL_W, "interval", fin(s->interval));
	if (stats_offer_warning(warn, sizeof(warn), g))
		fprintf(f, "WARNING: %s\n\n", warn);
}

static const struct stats_port_row port_rows[] = {
    STATS_PORT_ROW("link", STATS_CELL_LINK, link_up),
    STATS_PORT_ROW("Tx bps L2", STATS_CELL_BPS, tx_bps),
    STATS_PORT_ROW("Tx bps L1", STATS_CELL_BPS, tx_bps_l1),
    STATS_PORT_ROW("Rx bps L2", STATS_CELL_BPS, rx_bps),
    STATS_PORT_ROW("Tx pps", STATS_CELL_PPS, tx_pps),
    STATS_PORT_ROW("Rx pps", STATS_CELL_PPS, rx_pps),
    STATS_PORT_ROW("line util.", STATS_CELL_PCT, line_util),
    STATS_PORT_ROW("opackets", STATS_CELL_U64, tx_pkts),
    STATS_PORT_ROW("ipackets", STATS_CELL_U64, rx_pkts),
    STATS_PORT_ROW("obytes", STATS_CELL_U64, tx_bytes),
    STATS_PORT_ROW("ibytes", STATS_CELL_U64, rx_bytes),
    STATS_PORT_ROW("oerrors", STATS_CELL_U64, oerrors),
    STATS_PORT_ROW("ierrors", STATS_CELL_U64, ierrors),
    STATS_PORT_ROW("imissed", STATS_CELL_U64, imissed),
    STATS_PORT_ROW("tx_queue_full", STATS_CELL_U64, tx_queue_full),
    STATS_PORT_ROW("rx_bad", STATS_CELL_U64, rx_bad),
    STATS_PORT_ROW("rx_unknown", STATS_CELL_U64, rx_unknown),
    STATS_PORT_ROW("icmp unreach", STATS_CELL_U64, rx_icmp_unreach),
    STATS_PORT_ROW("icmp too big", STATS_CELL_U64, rx_icmp_frag_needed),
    STATS_PORT_ROW("  unmatched", STATS_CELL_U64, icmp_err_unmatched),
    STATS_PORT_ROW("  invalid", STATS_CELL_U64, icmp_err_invalid),
    STATS_PORT_ROW("  kept", STATS_CELL_U64, icmp_err_kept),
    STATS_PORT_ROW("  mss lowered", STATS_CELL_U64, icmp_mss_lowered),
    STATS_PORT_ROW("mbuf_fail", STATS_CELL_U64, mbuf_fail),
    STATS_PORT_ROW("punt_drop", STATS_CELL_U64, punt_drop),
};

/*
 * The rows of the ports' mbuf pools under the port table, a column per
 * port and the total ("-": no pool read): size, in use, available and,
 * of those, in the lcores' caches (stats_snap.h, struct stats_pool).
 */
static void text_mempool(FILE *f, const struct stats_snap *s)
{
	static const struct {
		const char *label;
		size_t off;
	} rows[] = {
	    {"mbufs", offsetof(struct stats_pool, size)},
	    {"mbufs in use", offsetof(struct stats_pool, in_use)},
	    {"mbufs avail", offsetof(struct stats_pool, avail)},
	    {"mbufs cached", offsetof(struct stats_pool, cached)},
	};

	for (size_t r = 0; r < FG_ARRAY_SIZE(rows); r++) {
		fprintf(f, "%-*s", LBL_W, rows[r].label);
		for (int p = 0; p <= s->nports; p++) {
			const struct stats_pool *m = p < s->nports ? &s->port[p].pool : &s->total.pool;

			if (m->ok)
				fprintf(f, " | %*" PRIu64, COL_W,
					*(const uint64_t *)((const char *)m + rows[r].off));
			else
				fprintf(f, " | %*s", COL_W, "-");
		}
		fputc('\n', f);
	}
}

static void text_ports(FILE *f, const struct stats_snap *s)
{
	char cell[40];

	fprintf(f, "Port Statistics\n\n%-*s", LBL_W, "port");
	for (int p = 0; p < s->nports; p++)
		fprintf(f, " | %*d", COL_W, p);
	fprintf(f, " | %*s\n", COL_W, "total");
	for (int i = 0; i < LBL_W; i++)
		fputc('-', f);
	for (int p = 0; p <= s->nports; p++) {
		fputs("-+-", f);
		for (int i = 0; i < COL_W; i++)
			fputc('-', f);
	}
	fputc('\n', f);
	for (size_t r = 0; r < FG_ARRAY_SIZE(port_rows); r++) {
		fprintf(f, "%-*s", LBL_W, port_rows[r].label);
		for (int p = 0; p <= s->nports; p++) {
			const struct stats_port_snap *o = p < s->nports ? &s->port[p] : &s->total;

			stats_port_cell(cell, sizeof(cell), &port_rows[r], o, 2);
			fprintf(f, " | %*s", COL_W, cell);
		}
		fputc('\n', f);
	}
	text_mempool(f, s);
	fputc('\n', f);
}

static void flow_row(FILE *f, const char *label, const char *c, const char *s)
{
	fprintf(f, "%-*s | %*s | %*s\n", LBL_W + 4, label, COL_W, c, COL_W, s);
}

static void flow_row_u(FILE *f, const char *label, bool has_c, uint64_t c, bool has_s, uint64_t s)
{
	char a[32] = "-", b[32] = "-";

	if (has_c)
		snprintf(a, sizeof(a), "%" PRIu64, c);
	if (has_s)
		snprintf(b, sizeof(b), "%" PRIu64, s);
	flow_row(f, label, a, b);
}

/* The failed flows by reason (fails.h), client and server: every reason,
 * under the name the JSON and GET /metrics give it. */
static void text_reasons(FILE *f, const uint64_t *c, const uint64_t *v)
{
	enum { W = 22 }; /* "retransmits_exhausted" */

	fprintf(f, "%-*s | %*s | %*s\n", W, "failed by reason", COL_W, "client", COL_W, "server");
	fprintf(f, "%-*s | %*s | %*s\n", W, "----------------------", COL_W, "----------------",
		COL_W, "----------------");
	for (unsigned r = 0; r < FG_FAIL_N; r++)
		fprintf(f, "%-*s | %*" PRIu64 " | %*" PRIu64 "\n", W, fails_name(r), COL_W, c[r], COL_W,
			v[r]);
	fputc('\n', f);
}

/*
 * The flows table of fl under its title; a group's (grp) leaves out what
 * no template has: the pacer's late flows and the distinct sources.
 */
static void text_flows(FILE *f, const struct stats_flows *fl, const char *title, bool grp,
		       bool rated)
{
	const struct ctr_client *c = &fl->client;
	const struct ctr_server *v = &fl->server;
	char a[32];

	fprintf(f, "%s\n\n", title);
	flow_row(f, "", "client", "server");
	flow_row(f, "------------------", "----------------", "----------------");
	flow_row_u(f, "started/accepted", true, c->started, true, v->accepted);
	flow_row_u(f, "established", true, c->established, false, 0);
	flow_row_u(f, "completed", true, c->completed, true, v->completed);
	flow_row_u(f, "failed", true, c->failed, true, v->failed);
	flow_row_u(f, "active", true, fl->active_client, true, fl->active_server);
	if (fl->active_target)
		flow_row_u(f, "  target", true, fl->active_target, false, 0);
	if (fl->active_target && fl->target_held_s > 0) {
		snprintf(a, sizeof(a), "%.1f", fl->target_held_s);
		flow_row(f, "  held (s)", a, "-");
	}
	flow_row_u(f, "aborted", true, c->aborted, true, v->aborted);
	flow_row_u(f, "tx_pkts", true, c->tx_pkts, true, v->tx_pkts);
	flow_row_u(f, "rx_pkts", true, c->rx_pkts, true, v->rx_pkts);
	flow_row_u(f, "tx_bytes", true, c->tx_bytes, true, v->tx_bytes);
	flow_row_u(f, "rx_bytes", true, c->rx_bytes, true, v->rx_bytes);
	flow_row_u(f, "retransmits", true, c->retx, true, v->retx);
	if (!grp)
		flow_row_u(f, "late (pacer)", true, c->late, false, 0);
	flow_row_u(f, "foreign server", true, c->foreign_server, false, 0);
	flow_row_u(f, "translated", false, 0, true, v->translated);
	flow_row_u(f, "untranslated", false, 0, true, v->untranslated);
	if (!grp) {
		flow_row_u(f, "distinct src addrs", false, 0, true, fl->distinct_addrs);
		flow_row_u(f, "distinct src ports", false, 0, true, fl->distinct_ports);
	}
	flow_row(f, "cps", stats_fmt_rate(a, sizeof(a), fl->cps, "cps", rated), "-");
	flow_row(f, "completed_cps", stats_fmt_rate(a, sizeof(a), fl->completed_cps, "cps", rated),
		 "-");
	fputc('\n', f);
	text_reasons(f, c->fail, v->fail);
	if (c->foreign_server)
		fprintf(f,
			"note: %" PRIu64 " flow%s answered by a server that is not flowgen: payloads "
			"not checked (-t payload_check=1 checks them)\n\n",
			c->foreign_server, c->foreign_server == 1 ? "" : "s");
}

/* The title of group g's table: "Flows of group NAME (templates A B)". */
static void group_title(char *buf, size_t len, const struct stats_tpl_map *m, int g)
{
	size_t n = (size_t)snprintf(buf, len, "Flows of group %s (templates", m->name[g]);

	for (int t = 0; t < m->ntpl && n < len; t++)
		if (m->group[t] == g)
			n += (size_t)snprintf(buf + n, len - n, " %s", m->tpl[t]);
	if (n < len)
		snprintf(buf + n, len - n, ")");
}

/* One flows table per group of templates (stats -t). */
static void text_groups(FILE *f, const struct stats_snap *s)
{
	char title[FG_PROF_MAX_TEMPLATES * STATS_NAME_MAX + 128]; /* never cut */

	if (!s->map.ngroups) {
		fprintf(f, "Flows by group\n\n(no flows run)\n\n");
		return;
	}
	for (int g = 0; g < s->map.ngroups; g++) {
		group_title(title, sizeof(title), &s->map, g);
		text_flows(f, &s->grp[g], title, true, stats_rated(s));
	}
}

/*
 * The latency rows in two tables of at most 80 columns: the frames (counts
 * as they are while they fit their column, else compact: "12.3M"; exact in
 * --json) and the delays in microseconds ("-": not measured, the stream
 * has no stamped frame received).
 */
#define LAT_NAME_W 15

static void text_lat(FILE *f, const struct stats_snap *s)
{
	fprintf(f, "Latency frames\n\n");
	fprintf(f, "%-*s %4s %9s %9s %7s %5s %5s %7s %5s %5s\n", LAT_NAME_W, "stream", "port", "tx",
		"rx", "lost", "dup", "ooo", "tx_drop", "late", "stale");
	if (!s->nlat)
		fprintf(f, "(no latency streams)\n");
	for (int i = 0; i < s->nlat; i++) {
		const struct stats_lat_row *l = &s->lat[i];
		const uint64_t v[8] = {l->tx,  l->rx,	      l->lost, l->dup,
				       l->ooo, l->tx_dropped, l->late, l->stale};
		static const int w[8] = {9, 9, 7, 5, 5, 7, 5, 5};
		char c[8][16];

		for (int k = 0; k < 8; k++)
			stats_fmt_fit(c[k], sizeof(c[k]), v[k], w[k]);
		fprintf(f, "%-*.*s %4d %9s %9s %7s %5s %5s %7s %5s %5s\n", LAT_NAME_W, LAT_NAME_W,
			l->stream, l->port, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
	}
	fprintf(f, "\nLatency (usec)\n\n");
	fprintf(f, "%-*s %4s %7s %7s %7s %7s %7s %7s %7s\n", LAT_NAME_W, "stream", "port", "min",
		"avg", "p50", "p99", "p99.9", "max", "jitter");
	if (!s->nlat)
		fprintf(f, "(no latency streams)\n");
	for (int i = 0; i < s->nlat; i++) {
		const struct stats_lat_row *l = &s->lat[i];
		const double v[7] = {l->min_us,	 l->avg_us, l->p50_us,	 l->p99_us,
				     l->p999_us, l->max_us, l->jitter_us};
		char c[7][16];

		for (int k = 0; k < 7; k++)
			stats_fmt_us(c[k], sizeof(c[k]), v[k]);
		fprintf(f, "%-*.*s %4d %7s %7s %7s %7s %7s %7s %7s\n", LAT_NAME_W, LAT_NAME_W,
			l->stream, l->port, c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
	}
	fputc('\n', f);
}

/* A delay of the host pairs' table: "%.1f", "-" when not measured. */
static const char *us_1f(char *buf, size_t len, double us)
{
	if (isnan(us))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", fin(us));
	return buf;
}

static void text_pairs(FILE *f)
{
	struct stats_pair_row *r;
	uint64_t unmatched;
	int n = stats_pair_rows(&r, &unmatched);

	fprintf(f, "Host pairs (usec)\n\n");
	fprintf(f, "%-16s %4s %6s %-15s %-15s %12s %12s %10s %8s %9s %9s %9s\n", "stream", "port",
		"pair", "src", "dst", "tx", "rx", "lost", "loss %", "min", "avg", "max");
	if (!n)
		fprintf(f, "(no host pairs: a streams run with emulated hosts and paired addresses)\n");
	for (int i = 0; i < n; i++) {
		const struct stats_pair_row *p = &r[i];

		char loss[16] = "-", us[3][16];

		if (p->tx)
			snprintf(loss, sizeof(loss), "%.3f", fin(p->loss_pct));
		fprintf(f,
			"%-16.16s %4d %6u %-15s %-15s %12" PRIu64 " %12" PRIu64 " %10" PRIu64
			" %8s %9s %9s %9s\n",
			p->stream, p->port, p->pair, p->src, p->dst, p->tx, p->rx, p->lost, loss,
			us_1f(us[0], sizeof(us[0]), p->min_us),
			us_1f(us[1], sizeof(us[1]), p->avg_us),
			us_1f(us[2], sizeof(us[2]), p->max_us));
	}
	if (unmatched)
		fprintf(f, "unmatched: %" PRIu64 " stream frames to no pair of their stream\n",
			unmatched);
	fputc('\n', f);
	free(r);
}

static void text_workers(FILE *f, const struct stats_snap *s)
{
	bool any = false;

	fprintf(f, "Workers\n\n");
	fprintf(f, "%4s %6s %-12s %14s %14s %12s %12s %8s\n", "id", "lcore", "ports", "tx_pkts",
		"rx_pkts", "redirected", "active", "cpu %");
	for (int i = 0; i < s->nworkers; i++) {
		const struct stats_worker_snap *w = &s->w[i];
		char ports[64];
		size_t n = 0;
		char cpu[16] = "-";

		if (w->cpu_measured)
			snprintf(cpu, sizeof(cpu), "%.1f", fin(w->cpu_util));
		any |= w->cpu_measured;
		ports[0] = 0;
		for (int p = 0; p < FG_MAX_PORTS && n < sizeof(ports); p++)
			if (w->port_mask >> p & 1)
				n += (size_t)snprintf(ports + n, sizeof(ports) - n, "%s%d",
						      n ? "," : "", p);
		fprintf(f,
			"%4d %6u %-12s %14" PRIu64 " %14" PRIu64 " %12" PRIu64 " %12" PRIu64
			" %8s\n",
			w->id, w->lcore, ports[0] ? ports : "-", w->tx_pkts, w->rx_pkts,
			w->redirected, w->active_flows, cpu);
	}
	if (s->nworkers > 1 && any)
		fprintf(f, "busiest cpu_util: %.1f %% (of %d)\n", fin(s->g.cpu_util_max),
			s->nworkers);
	else if (s->nworkers > 1)
		fprintf(f, "busiest cpu_util: - (of %d)\n", s->nworkers);
	fputc('\n', f);
}

int stats_write_text(FILE *f, const struct stats_snap *s, unsigned sections)
{
	if (!sections)
		sections = STATS_ALL;
	if (sections & STATS_G)
		text_global(f, s);
	if (sections & STATS_P) {
		text_ports(f, s);
		text_next_hops(f, s);
	}
	if (sections & STATS_A)
		text_flows(f, &s->flows, "Flows", false, stats_rated(s));
	if (sections & STATS_T)
		text_groups(f, s);
	if (sections & STATS_L)
		text_lat(f, s);
	if (sections & STATS_W)
		text_workers(f, s);
	if (sections & STATS_H)
		text_pairs(f);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

/* ---- failed flows (stats --failed) ------------------------------------ */

/* The failed flows of run to print: at most n, malloc'ed into *out. */
static size_t failed_get(uint32_t run, size_t n, struct stats_failed **out, size_t *held)
{
	if (n > STATS_FAILED_MAX)
		n = STATS_FAILED_MAX;
	*out = calloc(n ? n : 1, sizeof(**out));
	*held = 0;
	return *out ? stats_failed_get(run, *out, n, held) : 0;
}

/* The TCP state of a TCP flow ("SYN_SENT"), "step N" of a UDP one. */
static const char *failed_where(char *buf, size_t len, const struct fail_rec *r)
{
	if (r->proto == IPPROTO_TCP && r->state < TCP_STATE_COUNT)
		snprintf(buf, len, "%s", tcp_state_names[r->state]);
	else
		snprintf(buf, len, "step %u", r->step);
	return buf;
}

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

/* A failed flow's end point as text: a.b.c.d:port, [v6]:port (RFC 3986). */
static const char *failed_ep(char *buf, size_t len, const struct fail_rec *r, bool src)
{
	char a[64];

	snprintf(buf, len, r->v6 ? "[%s]:%u" : "%s:%u",
		 fails_addr(a, sizeof(a), r, src ? r->src : r->dst), src ? r->sport : r->dport);
	return buf;
}

int stats_failed_print(FILE *f, uint32_t run, size_t n)
{
	struct stats_failed *v;
	size_t held, k = failed_get(run, n, &v, &held);
	int ew = 21, tw = 8; /* "255.255.255.255:65535", "template" */

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < k; i++) {
		char e[80];

		ew = FG_MAX(ew, (int)strlen(failed_ep(e, sizeof(e), &v[i].rec, true)));
		ew = FG_MAX(ew, (int)strlen(failed_ep(e, sizeof(e), &v[i].rec, false)));
		tw = FG_MAX(tw, (int)strlen(v[i].tpl));
	}
	fprintf(f, "Failed flows (the last %zu of %zu held, newest first)\n\n", k, held);
	if (k)
		fprintf(f, "%-30s %-6s %-*s %-5s %-*s %-*s %-11s %s\n", "time", "side", tw,
			"template", "proto", ew, "src", ew, "dst", "state", "reason");
	for (size_t i = 0; i < k; i++) {
		const struct fail_rec *r = &v[i].rec;
		char t[WC_TEXT_MAX] = "-", sa[80], da[80], w[32];

		if (v[i].rt_ns && !wc_fmt(v[i].rt_ns, t, sizeof(t)))
			snprintf(t, sizeof(t), "-");
		fprintf(f, "%-30s %-6s %-*s %-5s %-*s %-*s %-11s %s\n", t,
			r->side ? "server" : "client", tw, v[i].tpl,
			r->proto == IPPROTO_TCP ? "tcp" : "udp", ew, failed_ep(sa, sizeof(sa), r, true),
			ew, failed_ep(da, sizeof(da), r, false), failed_where(w, sizeof(w), r),
			fails_name(r->reason));
	}
	fputc('\n', f);
	free(v);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
