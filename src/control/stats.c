/*
 * stats.c — the control side of flowgen's statistics.
 *
 * Workers write only their own struct ctr_worker with FG_CTR_ADD. Here a
 * sampler thread wakes every STATS_SAMPLE_MS, sums the blocks with relaxed
 * loads (stats_sum), reads each NIC's counters and link, and pushes the
 * result into a small ring. Everything a user sees is computed from that
 * ring by the pure stats_compute: counters minus the "clear" baseline, and
 * rates as the difference of two samples about one second apart divided by
 * the interval actually measured between them (TSC). The JSON and the text
 * tables come from the same snapshot, so `stats`, `stats --json` and the
 * dashboard always agree.
 *
 * Locking: one mutex between control threads (sampler, REPL, dashboard);
 * the workers never see it.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "stats.h"

#define STATS_RING 16	   /* samples kept: 1.6 s at 100 ms */
#define STATS_RATE_BACK 10 /* rates over ~10 samples = ~1 s */
#define STATS_HIST_EVERY 5 /* one history point per 5 samples = 0.5 s */
#define STATS_LINK_EVERY 5 /* link state polled every 0.5 s */

_Static_assert(sizeof(struct ctr_port) % sizeof(uint64_t) == 0,
	       "ctr_port must hold only uint64_t counters");
_Static_assert(sizeof(struct ctr_client) % sizeof(uint64_t) == 0,
	       "ctr_client must hold only uint64_t counters");
_Static_assert(sizeof(struct ctr_server) % sizeof(uint64_t) == 0,
	       "ctr_server must hold only uint64_t counters");
_Static_assert(sizeof(struct ctr_gauge) % sizeof(uint64_t) == 0,
	       "ctr_gauge must hold only uint64_t gauges");

#define NWORDS(type) (sizeof(type) / sizeof(uint64_t))

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
	pthread_t thread;
	bool running;
	bool stop; /* read by the sampler, written under lock */
	pthread_cond_t wake;
} st = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
};

/* ---- pure parts ------------------------------------------------------ */

/* dst[i] += *src[i], each source word loaded relaxed (single writer). */
static void add_words(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] += __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

/* a - b, clipped at 0 (a NIC reset must not show 2^64 packets). */
static uint64_t sub0(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

static void sub_words(uint64_t *dst, const uint64_t *a, const uint64_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = sub0(a[i], b ? b[i] : 0);
}

void stats_sum(const struct ctr_worker *w, int nworkers, int nports, struct stats_raw *out)
{
	memset(out, 0, sizeof(*out));
	if (nports > FG_MAX_PORTS)
		nports = FG_MAX_PORTS;
	for (int i = 0; i < nworkers; i++) {
		const struct ctr_worker *cw = &w[i];

		for (int p = 0; p < nports; p++)
			add_words((uint64_t *)&out->port[p], (const uint64_t *)&cw->port[p],
				  NWORDS(struct ctr_port));
		add_words((uint64_t *)&out->client, (const uint64_t *)&cw->client,
			  NWORDS(struct ctr_client));
		add_words((uint64_t *)&out->server, (const uint64_t *)&cw->server,
			  NWORDS(struct ctr_server));
		add_words(&out->loop_tsc, &cw->loop_tsc, 1);
		add_words(&out->busy_tsc, &cw->busy_tsc, 1);
		add_words((uint64_t *)&out->gauge, (const uint64_t *)&cw->gauge,
			  NWORDS(struct ctr_gauge));
	}
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
 * count shows zeros while the workers have moved frames: then the workers'
 * counters are used instead.
 */
static bool use_nic(const struct stats_raw *r, int p)
{
	if (!r->nic_ok[p])
		return false;
	if (r->nic[p].opackets || r->nic[p].ipackets)
		return true;
	return !(r->port[p].tx_pkts || r->port[p].rx_pkts);
}

static double rate(uint64_t now, uint64_t prev, double dt)
{
	return dt > 0 ? (double)sub0(now, prev) / dt : 0;
}

/* L2 bits per second, FCS included: bytes counted exclude it. */
static double bps_l2(double byte_rate, double pps)
{
	return (byte_rate + STATS_FCS_BYTES * pps) * 8;
}

static double bps_l1(double l2, double pps) { return l2 + STATS_L1_BYTES * 8 * pps; }

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
	o->tx_pkts = sub0(cn.tx_pkts, cb.tx_pkts);
	o->rx_pkts = sub0(cn.rx_pkts, cb.rx_pkts);
	o->tx_bytes = sub0(cn.tx_bytes, cb.tx_bytes);
	o->rx_bytes = sub0(cn.rx_bytes, cb.rx_bytes);
	if (prev) {
		o->tx_pps = rate(cn.tx_pkts, cp.tx_pkts, dt);
		o->rx_pps = rate(cn.rx_pkts, cp.rx_pkts, dt);
		o->tx_bps = bps_l2(rate(cn.tx_bytes, cp.tx_bytes, dt), o->tx_pps);
		o->rx_bps = bps_l2(rate(cn.rx_bytes, cp.rx_bytes, dt), o->rx_pps);
		o->tx_bps_l1 = bps_l1(o->tx_bps, o->tx_pps);
		o->rx_bps_l1 = bps_l1(o->rx_bps, o->rx_pps);
	}
	if (now->nic_ok[p]) {
		const struct stats_nic *n = &now->nic[p];
		const struct stats_nic *nb = base && base->nic_ok[p] ? &base->nic[p] : NULL;

		o->oerrors = sub0(n->oerrors, nb ? nb->oerrors : 0);
		o->ierrors = sub0(n->ierrors, nb ? nb->ierrors : 0);
		o->imissed = sub0(n->imissed, nb ? nb->imissed : 0);
	}
	o->rx_bad = sub0(w->rx_bad, wb ? wb->rx_bad : 0);
	o->rx_unknown = sub0(w->rx_unknown, wb ? wb->rx_unknown : 0);
	o->tx_queue_full = sub0(w->tx_queue_full, wb ? wb->tx_queue_full : 0);
	o->mbuf_fail = sub0(w->mbuf_fail, wb ? wb->mbuf_fail : 0);
	if (o->speed_mbps)
		o->line_util = o->tx_bps_l1 / (o->speed_mbps * 1e6) * 100;
}

static void port_add(struct stats_port_snap *t, const struct stats_port_snap *o)
{
	t->link_up = t->link_up || o->link_up;
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
	out->interval = dt;

	for (int p = 0; p < nports; p++) {
		struct stats_port_snap *o = &out->port[p];

		o->link_up = link_up ? link_up[p] : false;
		o->speed_mbps = speed_mbps ? speed_mbps[p] : 0;
		port_snap(now, prev, base, dt, p, o);
		port_add(&out->total, o);
	}
	if (out->total.speed_mbps)
		out->total.line_util = out->total.tx_bps_l1 / (out->total.speed_mbps * 1e6) * 100;

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
	if (prev && now->loop_tsc > prev->loop_tsc)
		g->cpu_util = 100.0 * (double)sub0(now->busy_tsc, prev->busy_tsc) /
			      (double)(now->loop_tsc - prev->loop_tsc);
	if (g->cpu_util > 100)
		g->cpu_util = 100;
	/*
	 * A flow of a port pair sits in the client table of one worker and
	 * the server table of another: the larger side is the flow count.
	 */
	g->active_flows = FG_MAX(now->gauge.active_client, now->gauge.active_server);
	if (prev)
		g->cps = rate(now->client.started, prev->client.started, dt);

	struct stats_flows *f = &out->flows;

	sub_words((uint64_t *)&f->client, (const uint64_t *)&now->client,
		  base ? (const uint64_t *)&base->client : NULL, NWORDS(struct ctr_client));
	sub_words((uint64_t *)&f->server, (const uint64_t *)&now->server,
		  base ? (const uint64_t *)&base->server : NULL, NWORDS(struct ctr_server));
	f->active_client = now->gauge.active_client;
	f->active_server = now->gauge.active_server;
	f->cps = g->cps;
}

/* ---- number formatting ------------------------------------------------ */

/* JSON has no NaN or infinity: print 0 for them. */
static double fin(double v) { return isfinite(v) ? v : 0; }

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

void stats_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* ---- JSON ------------------------------------------------------------- */

static void json_global(FILE *f, const struct stats_snap *s)
{
	const struct stats_global *g = &s->g;

	fprintf(f,
		"\"global\":{\"tx_pps\":%.2f,\"rx_pps\":%.2f,\"tx_bps\":%.2f,"
		"\"rx_bps\":%.2f,\"tx_bps_l1\":%.2f,\"rx_bps_l1\":%.2f,"
		"\"tx_pkts\":%" PRIu64 ",\"rx_pkts\":%" PRIu64 ","
		"\"drop_rate\":%.2f,\"cpu_util\":%.2f,"
		"\"active_flows\":%" PRIu64 ",\"cps\":%.2f,"
		"\"queue_full\":%" PRIu64 ",\"interval\":%.3f}",
		fin(g->tx_pps), fin(g->rx_pps), fin(g->tx_bps), fin(g->rx_bps), fin(g->tx_bps_l1),
		fin(g->rx_bps_l1), g->tx_pkts, g->rx_pkts, fin(g->drop_rate), fin(g->cpu_util),
		g->active_flows, fin(g->cps), g->queue_full, fin(s->interval));
}

/*
 * The driver's extended statistics (rte_eth_xstats), joined into each
 * port's JSON object as "xstats": the non-zero ones, less the baseline
 * taken by `clear`. Read at print time on control; absent for a port
 * DPDK does not know (unit tests).
 */
#define STATS_XSTATS_MAX 512
static uint64_t xstats_base[FG_MAX_PORTS][STATS_XSTATS_MAX];

static int xstats_read(int port, struct rte_eth_xstat *xs, int max)
{
	int n;

	if (port < 0 || port >= FG_MAX_PORTS || !rte_eth_dev_is_valid_port((uint16_t)port))
		return 0;
	n = rte_eth_xstats_get((uint16_t)port, xs, (unsigned)max);
	return n < 0 || n > max ? 0 : n;
}

static void xstats_baseline(int nports)
{
	struct rte_eth_xstat xs[STATS_XSTATS_MAX];

	for (int p = 0; p < nports && p < FG_MAX_PORTS; p++) {
		int n = xstats_read(p, xs, STATS_XSTATS_MAX);

		memset(xstats_base[p], 0, sizeof(xstats_base[p]));
		for (int i = 0; i < n; i++)
			if (xs[i].id < STATS_XSTATS_MAX)
				xstats_base[p][xs[i].id] = xs[i].value;
	}
}

static void json_xstats(FILE *f, int port)
{
	struct rte_eth_xstat xs[STATS_XSTATS_MAX];
	struct rte_eth_xstat_name names[STATS_XSTATS_MAX];
	int n = xstats_read(port, xs, STATS_XSTATS_MAX), k = 0;

	if (n <= 0 || rte_eth_xstats_get_names((uint16_t)port, names, STATS_XSTATS_MAX) != n)
		return;
	fputs(",\"xstats\":{", f);
	for (int i = 0; i < n; i++) {
		uint64_t base = xs[i].id < STATS_XSTATS_MAX ? xstats_base[port][xs[i].id] : 0;
		uint64_t v = xs[i].value >= base ? xs[i].value - base : 0;

		if (!v || xs[i].id >= (uint64_t)n)
			continue;
		fprintf(f, "%s\"", k++ ? "," : "");
		for (const char *c = names[xs[i].id].name; *c; c++)
			if (*c != '"' && *c != '\\' && (unsigned char)*c >= 0x20)
				fputc(*c, f);
		fprintf(f, "\":%" PRIu64, v);
	}
	fputc('}', f);
}

static void json_port(FILE *f, int port, const struct stats_port_snap *o)
{
	fprintf(f,
		"{\"port\":%d,\"link\":%s,\"speed_mbps\":%" PRIu32 ","
		"\"tx_pkts\":%" PRIu64 ",\"rx_pkts\":%" PRIu64 ","
		"\"tx_bytes\":%" PRIu64 ",\"rx_bytes\":%" PRIu64 ","
		"\"tx_pps\":%.2f,\"rx_pps\":%.2f,\"tx_bps\":%.2f,"
		"\"rx_bps\":%.2f,\"tx_bps_l1\":%.2f,\"line_util\":%.2f,"
		"\"oerrors\":%" PRIu64 ",\"ierrors\":%" PRIu64 ","
		"\"imissed\":%" PRIu64 ",\"rx_bad\":%" PRIu64 ","
		"\"rx_unknown\":%" PRIu64 ",\"tx_queue_full\":%" PRIu64 ","
		"\"mbuf_fail\":%" PRIu64 ",\"counters\":\"%s\"",
		port, o->link_up ? "true" : "false", o->speed_mbps, o->tx_pkts, o->rx_pkts,
		o->tx_bytes, o->rx_bytes, fin(o->tx_pps), fin(o->rx_pps), fin(o->tx_bps),
		fin(o->rx_bps), fin(o->tx_bps_l1), fin(o->line_util), o->oerrors, o->ierrors,
		o->imissed, o->rx_bad, o->rx_unknown, o->tx_queue_full, o->mbuf_fail,
		o->from_nic ? "nic" : "workers");
	json_xstats(f, port);
	fputc('}', f);
}

static void json_flows(FILE *f, const struct stats_snap *s)
{
	const struct stats_flows *fl = &s->flows;
	const struct ctr_client *c = &fl->client;
	const struct ctr_server *v = &fl->server;

	fprintf(f,
		"\"flows\":{\"client\":{\"started\":%" PRIu64 ",\"established\":%" PRIu64
		",\"completed\":%" PRIu64 ",\"failed\":%" PRIu64 ",\"active\":%" PRIu64
		",\"fail_no_reply\":%" PRIu64 ",\"fail_reset\":%" PRIu64 ",\"fail_retx\":%" PRIu64
		",\"fail_table_full\":%" PRIu64 ",\"tx_pkts\":%" PRIu64 ",\"rx_pkts\":%" PRIu64
		",\"tx_bytes\":%" PRIu64 ",\"rx_bytes\":%" PRIu64 ",\"retx\":%" PRIu64
		",\"cps\":%.2f},",
		c->started, c->established, c->completed, c->failed, fl->active_client,
		c->fail_no_reply, c->fail_reset, c->fail_retx, c->fail_table_full, c->tx_pkts,
		c->rx_pkts, c->tx_bytes, c->rx_bytes, c->retx, fin(fl->cps));
	fprintf(f,
		"\"server\":{\"accepted\":%" PRIu64 ",\"completed\":%" PRIu64 ",\"failed\":%" PRIu64
		",\"active\":%" PRIu64 ",\"tx_pkts\":%" PRIu64 ",\"rx_pkts\":%" PRIu64
		",\"tx_bytes\":%" PRIu64 ",\"rx_bytes\":%" PRIu64 ",\"translated\":%" PRIu64
		",\"untranslated\":%" PRIu64 ",\"distinct_src_addrs\":%" PRIu64
		",\"distinct_src_ports\":%" PRIu64 ",\"retx\":%" PRIu64 "}}",
		v->accepted, v->completed, v->failed, fl->active_server, v->tx_pkts, v->rx_pkts,
		v->tx_bytes, v->rx_bytes, v->translated, v->untranslated, fl->distinct_addrs,
		fl->distinct_ports, v->retx);
}

static void json_lat(FILE *f, const struct stats_lat_row *l)
{
	fputs("{\"stream\":", f);
	stats_json_str(f, l->stream);
	fprintf(f,
		",\"port\":%d,\"tx\":%" PRIu64 ",\"rx\":%" PRIu64 ",\"lost\":%" PRIu64
		",\"dup\":%" PRIu64 ",\"ooo\":%" PRIu64
		",\"min_us\":%.3f,\"avg_us\":%.3f,\"max_us\":%.3f"
		",\"p50_us\":%.3f,\"p99_us\":%.3f,\"p999_us\":%.3f"
		",\"jitter_us\":%.3f}",
		l->port, l->tx, l->rx, l->lost, l->dup, l->ooo, fin(l->min_us), fin(l->avg_us),
		fin(l->max_us), fin(l->p50_us), fin(l->p99_us), fin(l->p999_us), fin(l->jitter_us));
}

int stats_write_json(FILE *f, const struct stats_snap *s, unsigned sections)
{
	const char *sep = "";

	if (!sections)
		sections = STATS_ALL;
	fputc('{', f);
	if (sections & STATS_G) {
		json_global(f, s);
		sep = ",";
	}
	if (sections & STATS_P) {
		fprintf(f, "%s\"ports\":[", sep);
		for (int p = 0; p < s->nports; p++) {
			if (p)
				fputc(',', f);
			json_port(f, p, &s->port[p]);
		}
		fputc(']', f);
		sep = ",";
	}
	if (sections & STATS_A) {
		fputs(sep, f);
		json_flows(f, s);
		sep = ",";
	}
	if (sections & STATS_L) {
		fprintf(f, "%s\"latency\":[", sep);
		for (int i = 0; i < s->nlat; i++) {
			if (i)
				fputc(',', f);
			json_lat(f, &s->lat[i]);
		}
		fputc(']', f);
	}
	fputs("}\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- text tables ------------------------------------------------------ */

#define LBL_W 14 /* label column */
#define COL_W 16 /* value columns */

static void text_global(FILE *f, const struct stats_snap *s)
{
	const struct stats_global *g = &s->g;
	char a[32], b[32];

	fprintf(f, "Global Statistics\n\n");
	fprintf(f, "%-*s: %-18s %-*s: %s\n", LBL_W, "total_tx_L2",
		stats_fmt_si(a, sizeof(a), g->tx_bps, "bps"), LBL_W, "total_rx_L2",
		stats_fmt_si(b, sizeof(b), g->rx_bps, "bps"));
	fprintf(f, "%-*s: %-18s %-*s: %s\n", LBL_W, "total_tx_L1",
		stats_fmt_si(a, sizeof(a), g->tx_bps_l1, "bps"), LBL_W, "total_rx_L1",
		stats_fmt_si(b, sizeof(b), g->rx_bps_l1, "bps"));
	fprintf(f, "%-*s: %-18s %-*s: %s\n", LBL_W, "total_tx_pps",
		stats_fmt_si(a, sizeof(a), g->tx_pps, "pps"), LBL_W, "total_rx_pps",
		stats_fmt_si(b, sizeof(b), g->rx_pps, "pps"));
	fprintf(f, "%-*s: %-18" PRIu64 " %-*s: %" PRIu64 "\n", LBL_W, "tx_pkts", g->tx_pkts, LBL_W,
		"rx_pkts", g->rx_pkts);
	fprintf(f, "%-*s: %-18s %-*s: %.2f %%\n", LBL_W, "drop_rate",
		stats_fmt_si(a, sizeof(a), g->drop_rate, "pps"), LBL_W, "cpu_util",
		fin(g->cpu_util));
	fprintf(f, "%-*s: %-18s %-*s: %" PRIu64 "\n", LBL_W, "cps",
		stats_fmt_si(a, sizeof(a), g->cps, "cps"), LBL_W, "active_flows", g->active_flows);
	fprintf(f, "%-*s: %-18" PRIu64 " %-*s: %.3f s\n\n", LBL_W, "queue_full", g->queue_full,
		LBL_W, "interval", fin(s->interval));
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
};

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
		stats_fmt_si(buf, len, *(const double *)(base + r->off), "pps");
		break;
	case STATS_CELL_BPS:
		stats_fmt_si(buf, len, *(const double *)(base + r->off), "bps");
		break;
	case STATS_CELL_PCT:
		snprintf(buf, len, "%.*f %%", pct_digits, fin(*(const double *)(base + r->off)));
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

static void text_flows(FILE *f, const struct stats_snap *s)
{
	const struct stats_flows *fl = &s->flows;
	const struct ctr_client *c = &fl->client;
	const struct ctr_server *v = &fl->server;
	char a[32];

	fprintf(f, "Flows\n\n");
	flow_row(f, "", "client", "server");
	flow_row(f, "------------------", "----------------", "----------------");
	flow_row_u(f, "started/accepted", true, c->started, true, v->accepted);
	flow_row_u(f, "established", true, c->established, false, 0);
	flow_row_u(f, "completed", true, c->completed, true, v->completed);
	flow_row_u(f, "failed", true, c->failed, true, v->failed);
	flow_row_u(f, "active", true, fl->active_client, true, fl->active_server);
	flow_row_u(f, "  no reply", true, c->fail_no_reply, false, 0);
	flow_row_u(f, "  reset", true, c->fail_reset, false, 0);
	flow_row_u(f, "  retx limit", true, c->fail_retx, false, 0);
	flow_row_u(f, "  table full", true, c->fail_table_full, false, 0);
	flow_row_u(f, "tx_pkts", true, c->tx_pkts, true, v->tx_pkts);
	flow_row_u(f, "rx_pkts", true, c->rx_pkts, true, v->rx_pkts);
	flow_row_u(f, "tx_bytes", true, c->tx_bytes, true, v->tx_bytes);
	flow_row_u(f, "rx_bytes", true, c->rx_bytes, true, v->rx_bytes);
	flow_row_u(f, "retransmits", true, c->retx, true, v->retx);
	flow_row_u(f, "translated", false, 0, true, v->translated);
	flow_row_u(f, "untranslated", false, 0, true, v->untranslated);
	flow_row_u(f, "distinct src addrs", false, 0, true, fl->distinct_addrs);
	flow_row_u(f, "distinct src ports", false, 0, true, fl->distinct_ports);
	flow_row(f, "cps", stats_fmt_si(a, sizeof(a), fl->cps, "cps"), "-");
	fputc('\n', f);
}

static void text_lat(FILE *f, const struct stats_snap *s)
{
	fprintf(f, "Latency (usec)\n\n");
	fprintf(f,
		"%-16s %4s %12s %12s %10s %8s %8s %9s %9s %9s %9s %9s %9s "
		"%9s\n",
		"stream", "port", "tx", "rx", "lost", "dup", "ooo", "min", "avg", "max", "p50",
		"p99", "p99.9", "jitter");
	if (!s->nlat)
		fprintf(f, "(no latency streams)\n");
	for (int i = 0; i < s->nlat; i++) {
		const struct stats_lat_row *l = &s->lat[i];

		fprintf(f,
			"%-16.16s %4d %12" PRIu64 " %12" PRIu64 " %10" PRIu64 " %8" PRIu64
			" %8" PRIu64 " %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f\n",
			l->stream, l->port, l->tx, l->rx, l->lost, l->dup, l->ooo, fin(l->min_us),
			fin(l->avg_us), fin(l->max_us), fin(l->p50_us), fin(l->p99_us),
			fin(l->p999_us), fin(l->jitter_us));
	}
	fputc('\n', f);
}

int stats_write_text(FILE *f, const struct stats_snap *s, unsigned sections)
{
	if (!sections)
		sections = STATS_ALL;
	if (sections & STATS_G)
		text_global(f, s);
	if (sections & STATS_P)
		text_ports(f, s);
	if (sections & STATS_A)
		text_flows(f, s);
	if (sections & STATS_L)
		text_lat(f, s);
	fflush(f);
	return ferror(f) ? -EIO : 0;
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

		if (!rte_eth_dev_is_valid_port((uint16_t)p) ||
		    rte_eth_stats_get((uint16_t)p, &es) != 0)
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

/* Push one sample into the ring and maybe the history. Lock held. */
static void sample_push(void)
{
	struct stats_raw *r = &st.ring[st.nsamples % STATS_RING];

	if (st.nsamples % STATS_LINK_EVERY == 0)
		poll_links();
	sample_into(r);
	st.nsamples++;
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
	st.tsc_hz = tsc_hz ? tsc_hz : rte_get_tsc_hz();
	st.nsamples = 0;
	st.nhist = 0;
	st.have_base = false;
	memset(st.link_up, 0, sizeof(st.link_up));
	memset(st.speed, 0, sizeof(st.speed));
	pthread_mutex_unlock(&st.lock);
	return 0;
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
	xstats_baseline(st.nports);
	st.have_base = true;
	clear = st.hooks.clear;
	pthread_mutex_unlock(&st.lock);
	if (clear)
		clear();
}

void stats_get(struct stats_snap *out)
{
	struct stats_hooks h;

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
	h = st.hooks;
	pthread_mutex_unlock(&st.lock);

	/* Providers run outside the lock: they may take their own. */
	if (h.nat)
		h.nat(&out->flows.distinct_addrs, &out->flows.distinct_ports);
	if (h.latency) {
		int n = h.latency(out->lat, STATS_MAX_LAT);

		out->nlat = n < 0 ? 0 : FG_MIN(n, STATS_MAX_LAT);
	}
}

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
