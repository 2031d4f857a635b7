/*
 * stats_fmt.c — flowgen's statistics as text: a snapshot (struct
 * stats_snap, made by stats_get in stats.c) written as the aligned tables
 * of `stats` (stats_write_text), and the failed flows of `stats --failed`
 * (stats_failed_print). The same snapshot as JSON is in stats_json.c;
 * the helpers both share are in stats_int.h, and the number and cell
 * formatters the dashboard shares with these tables are pure, in
 * src/core/stats_snap.c. What each figure means is in flowgen(8),
 * STATISTICS.
 *
 * Run by control threads: the commands `stats` (through stats_print)
 * and `stats --failed` of src/cmd/cmds.c, and `stats --from`
 * (src/cmd/record_cmd.c, a record's line turned back into a snapshot).
 * The tables show the snapshot they are given, but for the host pairs
 * (STATS_H), read through stats_pair_rows when printed.
 */
#include <errno.h>
#include <netinet/in.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fails.h"
#include "port_addr.h"
#include "stats.h"
#include "stats_int.h"
#include "tcp.h"

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

/* The TCP state of a TCP flow ("SYN_SENT"), "step N" of a UDP one. */
static const char *failed_where(char *buf, size_t len, const struct fail_rec *r)
{
	if (r->proto == IPPROTO_TCP && r->state < TCP_STATE_COUNT)
		snprintf(buf, len, "%s", tcp_state_names[r->state]);
	else
		snprintf(buf, len, "step %u", r->step);
	return buf;
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
