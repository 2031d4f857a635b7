/*
 * metrics.c — GET /metrics (metrics.h): the families, their names and
 * labels, from one snapshot per template (stats_get_templates), the
 * latency rows of every stream with their delays cut at powers of two
 * (run_latency_pow2), and bench's progress (bench_progress_get).
 *
 * Names follow Prometheus' conventions: the unit in the name in base
 * units (seconds, bytes), "_total" on counters, "_per_second" on rates
 * measured by flowgen (the same interval as `stats`). Counters start
 * from 0 at each run's start, as `stats` does (a counter reset to
 * Prometheus' rate() and increase()); a figure not measured (a rate
 * without an interval, a delay without a stamped frame) is NaN.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_search.h"
#include "ctl.h"
#include "ctr.h"
#include "fails.h"
#include "fg.h"
#include "lat.h"
#include "metrics.h"
#include "nud.h"
#include "port.h"
#include "prom.h"
#include "run.h"
#include "stats.h"

#ifndef FG_VERSION
#define FG_VERSION "0.1"
#endif

#define NS_S 1e-9

/* A rate or figure that was measured, else NaN. */
static double measured(double v, bool ok) { return ok && isfinite(v) ? v : NAN; }

/* ---- global and ports ------------------------------------------------------ */

static void global(struct prom *p, const struct stats_snap *s)
{
	const struct stats_global *g = &s->g;

	prom_family(p, "flowgen_build_info", PROM_GAUGE, "flowgen's version (always 1)");
	prom_u64(p, "flowgen_build_info", (struct prom_label[]){{"version", FG_VERSION}}, 1, 1);
	prom_family(p, "flowgen_running", PROM_GAUGE,
		    "1 while a worker generates traffic (stats: running)");
	prom_u64(p, "flowgen_running", NULL, 0, ctl_state() == CTR_RUNNING);
	prom_family(p, "flowgen_offered_frames_per_second", PROM_GAUGE,
		    "streams: the frames per second the current -m asks for (0: none)");
	prom_f64(p, "flowgen_offered_frames_per_second", NULL, 0, g->offered_pps);
	prom_family(p, "flowgen_offered_connections_per_second", PROM_GAUGE,
		    "flows: the connections per second the current -m asks for (0: none)");
	prom_f64(p, "flowgen_offered_connections_per_second", NULL, 0, g->offered_cps);
	prom_family(p, "flowgen_short_of_offer", PROM_GAUGE,
		    "1 when the achieved rate stayed below 98 % of the offer for 2 s");
	prom_u64(p, "flowgen_short_of_offer", NULL, 0, g->short_of_offer);
}

/* One per-port family: the port's figure at offset off of stats_port_snap. */
struct port_fig {
	const char *name, *help;
	enum prom_type type;
	size_t off;
	bool rate; /* a double measured over the interval; else a uint64_t */
};

#define PF(n, t, f, r, h) {n, h, t, offsetof(struct stats_port_snap, f), r}
static const struct port_fig port_figs[] = {
    PF("flowgen_tx_frames_total", PROM_COUNTER, tx_pkts, false,
       "frames sent on the port (the NIC's count where it has one)"),
    PF("flowgen_rx_frames_total", PROM_COUNTER, rx_pkts, false, "frames received on the port"),
    PF("flowgen_tx_bytes_total", PROM_COUNTER, tx_bytes, false,
       "bytes of the frames sent, without the FCS"),
    PF("flowgen_rx_bytes_total", PROM_COUNTER, rx_bytes, false,
       "bytes of the frames received, without the FCS"),
    PF("flowgen_tx_frames_per_second", PROM_GAUGE, tx_pps, true,
       "frames sent per second over the last second (NaN: not measured)"),
    PF("flowgen_rx_frames_per_second", PROM_GAUGE, rx_pps, true,
       "frames received per second over the last second (NaN: not measured)"),
};

/* The error counters of a port, as one family with the label error. */
static const struct {
	const char *error;
	size_t off;
} port_errs[] = {
    {"tx_errors", offsetof(struct stats_port_snap, oerrors)},
    {"rx_errors", offsetof(struct stats_port_snap, ierrors)},
    {"rx_missed", offsetof(struct stats_port_snap, imissed)},
    {"rx_bad", offsetof(struct stats_port_snap, rx_bad)},
    {"rx_unknown", offsetof(struct stats_port_snap, rx_unknown)},
    {"tx_queue_full", offsetof(struct stats_port_snap, tx_queue_full)},
    {"mbuf_alloc_failed", offsetof(struct stats_port_snap, mbuf_fail)},
    {"punt_dropped", offsetof(struct stats_port_snap, punt_drop)},
};

/* A port's ICMP errors by kind, and what they did by outcome
 * (flowgen(8), ICMP ERRORS). */
static const struct {
	const char *label;
	size_t off;
} port_icmp_kinds[] = {
    {"unreachable", offsetof(struct stats_port_snap, rx_icmp_unreach)},
    {"frag_needed", offsetof(struct stats_port_snap, rx_icmp_frag_needed)},
}, port_icmp_outcomes[] = {
    {"unmatched", offsetof(struct stats_port_snap, icmp_err_unmatched)},
    {"invalid", offsetof(struct stats_port_snap, icmp_err_invalid)},
    {"kept", offsetof(struct stats_port_snap, icmp_err_kept)},
    {"mss_lowered", offsetof(struct stats_port_snap, icmp_mss_lowered)},
};

static void ports_icmp(struct prom *p, const struct stats_snap *s, char pn[][12])
{
	prom_family(p, "flowgen_port_icmp_errors_total", PROM_COUNTER,
		    "ICMP errors about the frames sent, received on the port, by kind");
	for (int i = 0; i < s->nports; i++)
		for (size_t k = 0; k < FG_ARRAY_SIZE(port_icmp_kinds); k++)
			prom_u64(p, "flowgen_port_icmp_errors_total",
				 (struct prom_label[]){{"port", pn[i]}, {"kind", port_icmp_kinds[k].label}},
				 2, *(const uint64_t *)((const char *)&s->port[i] + port_icmp_kinds[k].off));
	prom_family(p, "flowgen_port_icmp_error_outcomes_total", PROM_COUNTER,
		    "what the port's ICMP errors did to the flows they named, by outcome");
	for (int i = 0; i < s->nports; i++)
		for (size_t k = 0; k < FG_ARRAY_SIZE(port_icmp_outcomes); k++)
			prom_u64(p, "flowgen_port_icmp_error_outcomes_total",
				 (struct prom_label[]){{"port", pn[i]},
						       {"outcome", port_icmp_outcomes[k].label}},
				 2, *(const uint64_t *)((const char *)&s->port[i] + port_icmp_outcomes[k].off));
}

static void ports(struct prom *p, const struct stats_snap *s)
{
	char pn[FG_MAX_PORTS][12];

	for (int i = 0; i < s->nports; i++)
		snprintf(pn[i], sizeof(pn[i]), "%d", i);
	for (size_t f = 0; f < FG_ARRAY_SIZE(port_figs); f++) {
		const struct port_fig *pf = &port_figs[f];

		prom_family(p, pf->name, pf->type, pf->help);
		for (int i = 0; i < s->nports; i++) {
			const char *o = (const char *)&s->port[i] + pf->off;
			struct prom_label l = {"port", pn[i]};

			if (pf->rate)
				prom_f64(p, pf->name, &l, 1, measured(*(const double *)o, s->port[i].rated));
			else
				prom_u64(p, pf->name, &l, 1, *(const uint64_t *)o);
		}
	}
	prom_family(p, "flowgen_port_errors_total", PROM_COUNTER,
		    "errors and refusals on the port, by kind (flowgen(8), STATISTICS)");
	for (int i = 0; i < s->nports; i++)
		for (size_t e = 0; e < FG_ARRAY_SIZE(port_errs); e++)
			prom_u64(p, "flowgen_port_errors_total",
				 (struct prom_label[]){{"port", pn[i]}, {"error", port_errs[e].error}}, 2,
				 *(const uint64_t *)((const char *)&s->port[i] + port_errs[e].off));
	ports_icmp(p, s, pn);
	prom_family(p, "flowgen_link_up", PROM_GAUGE, "1 when the port's link is up");
	for (int i = 0; i < s->nports; i++)
		prom_u64(p, "flowgen_link_up", (struct prom_label[]){{"port", pn[i]}}, 1,
			 s->port[i].link_up);
}

static uint64_t at(const void *blk, size_t off) { return *(const uint64_t *)((const char *)blk + off); }

/* ---- next hops (svc.h): announcements and Neighbour Unreachability Detection */

/* The counters of a port's next hop, one family each (label family). */
static const struct {
	const char *name, *help;
	size_t off;
} nh_figs[] = {
    {"flowgen_next_hop_mac_changes_total", "times the next hop's MAC was replaced",
     offsetof(struct stats_next_hop, mac_changes)},
    {"flowgen_next_hop_announced_total",
     "next-hop MAC changes by an announcement (gratuitous ARP, unsolicited Neighbour "
     "Advertisement)",
     offsetof(struct stats_next_hop, announced)},
    {"flowgen_next_hop_reresolved_total",
     "next-hop MAC changes by the answer to a probe of a next hop that stopped answering at "
     "its MAC",
     offsetof(struct stats_next_hop, reresolved)},
    {"flowgen_next_hop_failures_total",
     "probe phases that got no answer (the next hop then FAILED)",
     offsetof(struct stats_next_hop, failures)},
};

static void next_hops(struct prom *p, const struct stats_snap *s)
{
	static const char *const fam[2] = {"ipv4", "ipv6"};
	char pn[FG_MAX_PORTS][12];

	for (int i = 0; i < s->nports; i++)
		snprintf(pn[i], sizeof(pn[i]), "%d", i);
	prom_family(p, "flowgen_next_hop_info", PROM_GAUGE,
		    "a port's next hop: its address, MAC and state (always 1)");
	for (int i = 0; i < s->nports; i++)
		for (int f = 0; f < 2; f++) {
			const struct stats_next_hop *h = &s->port[i].nh[f];
			char m[PORT_MAC_TEXT] = "";

			if (!h->present)
				continue;
			if (h->known)
				port_mac_text(h->mac, m);
			prom_u64(p, "flowgen_next_hop_info",
				 (struct prom_label[]){{"port", pn[i]},
						       {"family", fam[f]},
						       {"ip", h->ip},
						       {"mac", m},
						       {"state", h->is_static ? "static"
									   : nud_state_name(h->state)}},
				 5, 1);
		}
	for (size_t k = 0; k < FG_ARRAY_SIZE(nh_figs); k++) {
		prom_family(p, nh_figs[k].name, PROM_COUNTER, nh_figs[k].help);
		for (int i = 0; i < s->nports; i++)
			for (int f = 0; f < 2; f++)
				if (s->port[i].nh[f].present)
					prom_u64(p, nh_figs[k].name,
						 (struct prom_label[]){{"port", pn[i]}, {"family", fam[f]}},
						 2, *(const uint64_t *)((const char *)&s->port[i].nh[f] + nh_figs[k].off));
	}
	prom_family(p, "flowgen_next_hop_probes_total", PROM_COUNTER,
		    "probes of a next hop: unicast to its MAC, then broadcast or multicast");
	for (int i = 0; i < s->nports; i++)
		for (int f = 0; f < 2; f++) {
			const struct stats_next_hop *h = &s->port[i].nh[f];

			if (!h->present)
				continue;
			prom_u64(p, "flowgen_next_hop_probes_total",
				 (struct prom_label[]){{"port", pn[i]}, {"family", fam[f]}, {"kind", "unicast"}},
				 3, h->probes_ucast);
			prom_u64(p, "flowgen_next_hop_probes_total",
				 (struct prom_label[]){{"port", pn[i]}, {"family", fam[f]}, {"kind", "multicast"}},
				 3, h->probes_mcast);
		}
}

/*
 * Each port's mbuf pool (stats_snap.h, struct stats_pool), labels port
 * and pool; a port without a pool read has no sample.
 */
static void mempools(struct prom *p, const struct stats_snap *s)
{
	static const struct {
		const char *name, *help;
		size_t off;
	} figs[] = {
	    {"flowgen_mbuf_pool_size", "mbufs in the port's pool",
	     offsetof(struct stats_pool, size)},
	    {"flowgen_mbuf_pool_in_use",
	     "mbufs of the pool in use: neither in its ring nor in an lcore's cache",
	     offsetof(struct stats_pool, in_use)},
	    {"flowgen_mbuf_pool_available",
	     "mbufs of the pool available: in its ring or in an lcore's cache",
	     offsetof(struct stats_pool, avail)},
	    {"flowgen_mbuf_pool_cached", "mbufs of the pool available in the lcores' caches",
	     offsetof(struct stats_pool, cached)},
	};
	char pn[12];

	for (size_t f = 0; f < FG_ARRAY_SIZE(figs); f++) {
		prom_family(p, figs[f].name, PROM_GAUGE, figs[f].help);
		for (int i = 0; i < s->nports; i++) {
			const struct stats_pool *m = &s->port[i].pool;

			if (!m->ok)
				continue;
			snprintf(pn, sizeof(pn), "%d", i);
			prom_u64(p, figs[f].name, (struct prom_label[]){{"port", pn}, {"pool", m->name}},
				 2, at(m, figs[f].off));
		}
	}
}

/* ---- flows, per template ----------------------------------------------------- */

/* A counter of one side's block (ctr_client or ctr_server) at offset off. */
struct flow_fig {
	const char *name, *help;
	size_t off;
	bool server;
};

#define CF(n, f, h) {n, h, offsetof(struct ctr_client, f), false}
#define SF(n, f, h) {n, h, offsetof(struct ctr_server, f), true}

/* Families with one sample per template and side (label side). */
static const struct {
	const char *name, *help;
	size_t coff, soff; /* SIZE_MAX: the side has none */
} sided[] = {
    {"flowgen_flows_completed_total", "flows that ran their program to the end",
     offsetof(struct ctr_client, completed), offsetof(struct ctr_server, completed)},
    {"flowgen_flows_failed_total", "flows that failed (by reason: flowgen_flow_failures_total)",
     offsetof(struct ctr_client, failed), offsetof(struct ctr_server, failed)},
    {"flowgen_flows_aborted_total", "flows still open when a run was halted before it drained",
     offsetof(struct ctr_client, aborted), offsetof(struct ctr_server, aborted)},
    {"flowgen_flow_tx_frames_total", "frames the flows sent",
     offsetof(struct ctr_client, tx_pkts), offsetof(struct ctr_server, tx_pkts)},
    {"flowgen_flow_rx_frames_total", "frames the flows received",
     offsetof(struct ctr_client, rx_pkts), offsetof(struct ctr_server, rx_pkts)},
    {"flowgen_flow_tx_bytes_total", "bytes of the frames the flows sent, without the FCS",
     offsetof(struct ctr_client, tx_bytes), offsetof(struct ctr_server, tx_bytes)},
    {"flowgen_flow_rx_bytes_total", "bytes of the frames the flows received, without the FCS",
     offsetof(struct ctr_client, rx_bytes), offsetof(struct ctr_server, rx_bytes)},
    {"flowgen_flow_retransmits_total", "TCP segments the flows retransmitted",
     offsetof(struct ctr_client, retx), offsetof(struct ctr_server, retx)},
};

/* Families of one side only. */
static const struct flow_fig one_side[] = {
    CF("flowgen_flows_started_total", started, "client flows opened"),
    CF("flowgen_flows_established_total", established,
       "client flows that reached their server (TCP: the handshake completed)"),
    SF("flowgen_flows_accepted_total", accepted, "server flows accepted"),
    SF("flowgen_flows_translated_total", translated,
       "server flows whose source the DUT translated (NAT)"),
    SF("flowgen_flows_untranslated_total", untranslated,
       "server flows whose source arrived as the client sent it"),
};


static void flows(struct prom *p, const struct stats_snap *s)
{
	const struct stats_tpl_map *m = &s->map;
	bool rated = stats_rated(s);

	for (size_t f = 0; f < FG_ARRAY_SIZE(sided); f++) {
		prom_family(p, sided[f].name, PROM_COUNTER, sided[f].help);
		for (int t = 0; t < m->ntpl; t++)
			for (int side = 0; side < 2; side++)
				prom_u64(p, sided[f].name,
					 (struct prom_label[]){{"template", m->tpl[t]},
							       {"group", m->name[t]},
							       {"side", side ? "server" : "client"}},
					 3,
					 side ? at(&s->grp[t].server, sided[f].soff)
					      : at(&s->grp[t].client, sided[f].coff));
	}
	for (size_t f = 0; f < FG_ARRAY_SIZE(one_side); f++) {
		prom_family(p, one_side[f].name, PROM_COUNTER, one_side[f].help);
		for (int t = 0; t < m->ntpl; t++)
			prom_u64(p, one_side[f].name,
				 (struct prom_label[]){{"template", m->tpl[t]}, {"group", m->name[t]}},
				 2,
				 one_side[f].server ? at(&s->grp[t].server, one_side[f].off)
						    : at(&s->grp[t].client, one_side[f].off));
	}
	prom_family(p, "flowgen_flow_failures_total", PROM_COUNTER,
		    "flows failed, by reason (flowgen(8), STATISTICS, fail_reasons)");
	for (int t = 0; t < m->ntpl; t++)
		for (int side = 0; side < 2; side++)
			for (unsigned r = 0; r < FG_FAIL_N; r++)
				prom_u64(p, "flowgen_flow_failures_total",
					 (struct prom_label[]){{"template", m->tpl[t]},
							       {"group", m->name[t]},
							       {"side", side ? "server" : "client"},
							       {"reason", fails_name(r)}},
					 4,
					 side ? s->grp[t].server.fail[r] : s->grp[t].client.fail[r]);
	prom_family(p, "flowgen_active_flows", PROM_GAUGE, "flows in the workers' tables now");
	for (int t = 0; t < m->ntpl; t++)
		for (int side = 0; side < 2; side++)
			prom_u64(p, "flowgen_active_flows",
				 (struct prom_label[]){{"template", m->tpl[t]},
						       {"group", m->name[t]},
						       {"side", side ? "server" : "client"}},
				 3, side ? s->grp[t].active_server : s->grp[t].active_client);
	prom_family(p, "flowgen_flows_started_per_second", PROM_GAUGE,
		    "client flows opened per second over the last second");
	for (int t = 0; t < m->ntpl; t++)
		prom_f64(p, "flowgen_flows_started_per_second",
			 (struct prom_label[]){{"template", m->tpl[t]}, {"group", m->name[t]}}, 2,
			 measured(s->grp[t].cps, rated));
	prom_family(p, "flowgen_flows_completed_per_second", PROM_GAUGE,
		    "client flows completed per second over the last second");
	for (int t = 0; t < m->ntpl; t++)
		prom_f64(p, "flowgen_flows_completed_per_second",
			 (struct prom_label[]){{"template", m->tpl[t]}, {"group", m->name[t]}}, 2,
			 measured(s->grp[t].completed_cps, rated));
	/* what no template has */
	prom_family(p, "flowgen_flows_late_total", PROM_COUNTER,
		    "client flows the pacer dropped: the worker fell behind");
	prom_u64(p, "flowgen_flows_late_total", NULL, 0, s->flows.client.late);
	prom_family(p, "flowgen_active_flows_target", PROM_GAUGE,
		    "the concurrent client flows the run holds (start --active; 0: none)");
	prom_u64(p, "flowgen_active_flows_target", NULL, 0, s->flows.active_target);
}

/* ---- streams ----------------------------------------------------------------- */

static const struct {
	const char *name, *help;
	size_t off;
} stream_ctrs[] = {
    {"flowgen_stream_tx_frames_total", "the stream's frames sent toward the port",
     offsetof(struct stats_lat_row, tx)},
    {"flowgen_stream_rx_frames_total", "the stream's frames received on the port, once each",
     offsetof(struct stats_lat_row, rx)},
    {"flowgen_stream_tx_bytes_total", "bytes of the stream's frames sent, without the FCS",
     offsetof(struct stats_lat_row, tx_bytes)},
    {"flowgen_stream_rx_bytes_total", "bytes of the stream's frames received, without the FCS",
     offsetof(struct stats_lat_row, rx_bytes)},
    {"flowgen_stream_duplicate_frames_total", "the stream's frames received more than once",
     offsetof(struct stats_lat_row, dup)},
    {"flowgen_stream_out_of_order_frames_total",
     "the stream's frames that arrived after a later one", offsetof(struct stats_lat_row, ooo)},
    {"flowgen_stream_late_frames_total", "the stream's frames due but not sent in time",
     offsetof(struct stats_lat_row, late)},
    {"flowgen_stream_tx_dropped_frames_total", "the stream's frames the TX queue refused",
     offsetof(struct stats_lat_row, tx_dropped)},
};

static void streams(struct prom *p, const struct stats_lat_row *r, const struct lat_pow2 *h, int n)
{
	double le[LAT_POW2_N];
	char pn[12];

	for (int i = 0; i < LAT_POW2_N; i++)
		le[i] = ldexp(1, LAT_POW2_LO + i) * NS_S;
#define SL(i) ((struct prom_label[]){{"stream", r[i].stream}, {"port", (snprintf(pn, sizeof(pn), "%d", r[i].port), pn)}})
	for (size_t f = 0; f < FG_ARRAY_SIZE(stream_ctrs); f++) {
		prom_family(p, stream_ctrs[f].name, PROM_COUNTER, stream_ctrs[f].help);
		for (int i = 0; i < n; i++)
			prom_u64(p, stream_ctrs[f].name, SL(i), 2, at(&r[i], stream_ctrs[f].off));
	}
	prom_family(p, "flowgen_stream_lost_frames", PROM_GAUGE,
		    "the stream's frames sent and not received (frames in flight too while it runs)");
	for (int i = 0; i < n; i++)
		prom_u64(p, "flowgen_stream_lost_frames", SL(i), 2, r[i].lost);
	prom_family(p, "flowgen_stream_latency_seconds", PROM_HISTOGRAM,
		    "one-way delays of the stream's stamped frames; le counts the delays below it "
		    "(powers of two of nanoseconds, edges of flowgen's bins)");
	for (int i = 0; i < n; i++)
		prom_hist(p, "flowgen_stream_latency_seconds", SL(i), 2, le, h[i].cum, LAT_POW2_N,
			  (double)h[i].sum * NS_S, h[i].count);
	prom_family(p, "flowgen_stream_latency_min_seconds", PROM_GAUGE,
		    "the stream's smallest delay (NaN: none measured)");
	for (int i = 0; i < n; i++)
		prom_f64(p, "flowgen_stream_latency_min_seconds", SL(i), 2, r[i].min_us * 1e-6);
	prom_family(p, "flowgen_stream_latency_max_seconds", PROM_GAUGE,
		    "the stream's largest delay (NaN: none measured)");
	for (int i = 0; i < n; i++)
		prom_f64(p, "flowgen_stream_latency_max_seconds", SL(i), 2, r[i].max_us * 1e-6);
	prom_family(p, "flowgen_stream_jitter_seconds", PROM_GAUGE,
		    "the mean difference of consecutive delays (NaN: fewer than two)");
	for (int i = 0; i < n; i++)
		prom_f64(p, "flowgen_stream_jitter_seconds", SL(i), 2, r[i].jitter_us * 1e-6);
#undef SL
}

/* ---- workers and bench --------------------------------------------------------- */

static void workers(struct prom *p, const struct stats_snap *s)
{
	char wn[FG_MAX_WORKERS][12];

	for (int i = 0; i < s->nworkers; i++)
		snprintf(wn[i], sizeof(wn[i]), "%d", s->w[i].id);
	prom_family(p, "flowgen_worker_busy_ratio", PROM_GAUGE,
		    "the share of the worker's loop turns that had work, over the last second");
	for (int i = 0; i < s->nworkers; i++)
		prom_f64(p, "flowgen_worker_busy_ratio", (struct prom_label[]){{"worker", wn[i]}}, 1,
			 measured(s->w[i].cpu_util / 100, s->w[i].cpu_measured));
	prom_family(p, "flowgen_worker_stalls_total", PROM_COUNTER,
		    "loop turns that began more than 1 ms after the previous one");
	for (int i = 0; i < s->nworkers; i++)
		prom_u64(p, "flowgen_worker_stalls_total", (struct prom_label[]){{"worker", wn[i]}}, 1,
			 s->w[i].stalls);
	prom_family(p, "flowgen_worker_stalled_seconds_total", PROM_COUNTER,
		    "the time of those stalls");
	for (int i = 0; i < s->nworkers; i++)
		prom_f64(p, "flowgen_worker_stalled_seconds_total",
			 (struct prom_label[]){{"worker", wn[i]}}, 1, s->w[i].stalled_ms * 1e-3);
}

static void bench(struct prom *p)
{
	struct bench_progress b;

	bench_progress_get(&b);
	prom_family(p, "flowgen_bench_running", PROM_GAUGE,
		    "1 while a bench test runs, labelled with the test");
	for (int k = 1; k < BENCH_KIND_COUNT; k++)
		prom_u64(p, "flowgen_bench_running",
			 (struct prom_label[]){{"test", bench_kind_names[k]}}, 1,
			 b.running && (int)b.kind == k);
	prom_family(p, "flowgen_bench_trials_total", PROM_COUNTER,
		    "bench trials judged since flowgen started");
	prom_u64(p, "flowgen_bench_trials_total", NULL, 0, b.trials);
	prom_family(p, "flowgen_bench_trials_passed_total", PROM_COUNTER,
		    "bench trials that passed since flowgen started");
	prom_u64(p, "flowgen_bench_trials_passed_total", NULL, 0, b.passed);
	prom_family(p, "flowgen_bench_trial_offered_per_second", PROM_GAUGE,
		    "the trial running (or last run): frames or connections offered per second");
	prom_f64(p, "flowgen_bench_trial_offered_per_second", NULL, 0, b.rate);
	prom_family(p, "flowgen_bench_best_passed_per_second", PROM_GAUGE,
		    "the test's highest rate that passed so far (0: none)");
	prom_f64(p, "flowgen_bench_best_passed_per_second", NULL, 0, b.best);
}

int metrics_write(FILE *f, bool openmetrics, const char *instance)
{
	int max = FG_PROF_MAX_STREAMS * FG_MAX_PORTS;
	struct stats_snap *s = malloc(sizeof(*s));
	struct stats_lat_row *rows = calloc((size_t)max, sizeof(*rows));
	struct lat_pow2 *h = calloc((size_t)max, sizeof(*h));
	struct prom p;
	int n, rc = -ENOMEM;

	if (!s || !rows || !h)
		goto out;
	stats_get_templates(s);
	n = run_latency_pow2(rows, h, max);
	prom_init(&p, f, openmetrics);
	prom_common(&p, "instance", instance);
	global(&p, s);
	ports(&p, s);
	next_hops(&p, s);
	mempools(&p, s);
	flows(&p, s);
	streams(&p, rows, h, n < 0 ? 0 : n);
	workers(&p, s);
	bench(&p);
	rc = prom_end(&p);
out:
	free(s);
	free(rows);
	free(h);
	return rc;
}
