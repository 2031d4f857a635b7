/*
 * stats_snap.h — statistics as data: a sample of the workers' counter
 * blocks and the NICs' counters (struct stats_raw), the snapshot a user
 * sees (struct stats_snap: counters less the "clear" baseline, rates over
 * the measured interval), and the arithmetic and formatting of
 * stats_snap.c: stats_sum adds up the blocks, stats_compute makes a
 * snapshot of two samples and a baseline, and the cell and number
 * formatters the text tables of `stats` and the dashboard share. The
 * sampler, the baseline and the writers are control's (src/control/stats.h).
 *
 * Context: pure (no globals, no I/O; stats_sum reads the workers' blocks
 * with relaxed loads, from any thread; unit-tested in test/unit/test_stats.c).
 *
 * Included by: every folder.
 */
#ifndef FG_STATS_SNAP_H
#define FG_STATS_SNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctr.h"
#include "fg.h"
#include "offer.h"
#include "wallclock.h"

#define STATS_MAX_LAT 64    /* latency rows kept per snapshot */
#define STATS_FCS_BYTES 4   /* counted bytes exclude the FCS; bps add it */
#define STATS_L1_BYTES 20   /* preamble + SFD + inter-frame gap */

/* The NIC's own counters for one port (rte_eth_stats_get). */
struct stats_nic {
	uint64_t opackets, ipackets, obytes, ibytes;
	uint64_t oerrors, ierrors, imissed;
};

/* One worker's own counters in a sample (its ports summed). */
struct stats_wraw {
	uint64_t tx_pkts, rx_pkts, redirected;
	uint64_t loop_tsc, busy_tsc;
	uint64_t stalls, stall_tsc, stall_late_tsc;
	uint64_t active_client, active_server, stall_max_tsc; /* gauges, not baselined */
	uint64_t first_tx_tsc; /* the run's first test frame (ctr.h); 0: none yet */
	uint64_t at_rt;	       /* how the hold's last stretch ran (ctr.h); 0: no hold */
};

/*
 * Raw totals: the workers' blocks summed, plus the NICs' counters. All
 * counters except the gauges are monotonic; `nic_ok[p]` says whether the
 * NIC of port p answered rte_eth_stats_get.
 */
struct stats_raw {
	struct ctr_port port[FG_MAX_PORTS];
	struct ctr_client client; /* the templates' blocks summed, and the workers' late */
	struct ctr_server server;
	struct ctr_tpl tpl[FG_PROF_MAX_TEMPLATES]; /* each template, the workers summed */
	uint64_t loop_tsc, busy_tsc;		   /* summed over the workers */
	struct ctr_gauge gauge;			   /* not baselined */
	struct stats_nic nic[FG_MAX_PORTS];
	bool nic_ok[FG_MAX_PORTS];
	uint64_t tsc; /* when this sample was taken (rte_rdtsc) */
	int nworkers;
	struct stats_wraw w[FG_MAX_WORKERS]; /* each worker apart */
	bool running; /* a worker generates traffic (state CTR_RUNNING) */
};

/*
 * One latency row, the fields of flowgen(8) STATISTICS, "latency". A
 * figure that was not measured (no stamped frame received: a stream
 * without latency, or none arrived yet; jitter: fewer than two delays
 * from one receiver) is NAN, printed as null and "-" (stats_lat_figures).
 */
struct stats_lat_row {
	char stream[32];
	int port;
	uint64_t tx, rx, lost, dup, ooo;
	uint64_t tx_bytes, rx_bytes; /* of the tx and rx frames, without FCS */
	uint64_t tx_dropped; /* refused by the sender's TX queue: neither tx nor lost */
	uint64_t late;	     /* due but not sent in time (the sender fell behind) */
	uint64_t stale;	     /* frames of an earlier run received */
	double min_us, avg_us, max_us, p50_us, p99_us, p999_us, jitter_us; /* NAN: not measured */
};

/*
 * One host pair of the L3 test in one direction (flowgen(8), stats
 * --pairs): pair `pair` of stream `stream`, received on `port`. lost is tx
 * - rx (0 when more arrived): exact once the run has drained, frames in
 * flight included while it runs.
 */
struct stats_pair_row {
	char stream[32];
	int port;
	uint32_t pair;
	char src[46], dst[46]; /* as the sender put them in the frames */
	uint64_t tx, rx, lost;
	double loss_pct;	       /* of tx; not measured (null, "-") when tx is 0 */
	double min_us, avg_us, max_us; /* NAN: no delay measured */
};

/*
 * A port's next hop of one family (flowgen(8), STATISTICS, next_hop and
 * next_hop6), as control's Neighbour Unreachability Detection (nud.h)
 * knows it when the snapshot is taken: its MAC now, its state, and its
 * counters less the "clear" baseline. present false: the port has no
 * such next hop (no default_gw, or no default_gw6).
 */
struct stats_next_hop {
	bool present;
	bool known;	   /* the MAC is known (`arp`, or a static dest_mac) */
	bool is_static;	   /* dest_mac, or a loop pair's peer: never changed */
	char ip[48];	   /* the next hop's address, as text */
	uint64_t mac;	   /* the MAC word (port_addr.h), bit 48 clear */
	int state;	   /* enum nud_state */
	uint64_t mac_changes, announced, reresolved, probes_ucast, probes_mcast, failures;
	int64_t changed_ns; /* system clock of the last change, ns since the epoch; 0: none */
};

/*
 * A port's mbuf pool (flowgen(8), STATISTICS, ports: mempool), read on
 * control when a snapshot is taken (stats.h, the mempool hook), never on
 * a worker: its size; avail, DPDK's rte_mempool_avail_count (the mbufs in
 * the pool's ring plus those in the lcores' caches, which DPDK counts as
 * available); cached, the part of avail in the lcores' caches; in_use,
 * size - avail (rte_mempool_in_use_count): in a driver's queues, in
 * flight, held by a worker or by control. The caches' lengths are read
 * without a lock while the workers move mbufs, so one reading may be off
 * by a burst. ok false: no pool read (the total column: no port's).
 */
struct stats_pool {
	bool ok;
	char name[32];
	uint32_t cache_size; /* each lcore's cache (0: none) */
	uint64_t size, in_use, avail, cached;
};

/*
 * Rates need an interval between two samples: without one (rated false)
 * the rates and line_util are 0 and were not measured; so is line_util
 * without a link speed. The writers print null and "-" for them.
 */
struct stats_port_snap {
	bool link_up;
	bool rated; /* the rates were measured (an interval) */
	uint32_t speed_mbps;
	bool from_nic; /* tx/rx pkts/bytes are the NIC's counters */
	uint64_t tx_pkts, rx_pkts, tx_bytes, rx_bytes;
	double tx_pps, rx_pps, tx_bps, rx_bps, tx_bps_l1, rx_bps_l1;
	double line_util; /* tx L1 bps / link speed, % */
	uint64_t oerrors, ierrors, imissed;
	uint64_t rx_bad, rx_unknown, tx_queue_full, mbuf_fail;
	/* ICMP errors received and what they did (ctr.h, struct ctr_port) */
	uint64_t rx_icmp_unreach, rx_icmp_frag_needed;
	uint64_t icmp_err_unmatched, icmp_err_invalid, icmp_err_kept, icmp_mss_lowered;
	struct stats_next_hop nh[2]; /* IPv4's, IPv6's (filled by control's hook) */
	uint64_t punt, punt_drop; /* frames passed up to control / dropped, the ring full */
	struct stats_pool pool; /* the total column: the ports' pools summed */
};

struct stats_global {
	double tx_pps, rx_pps, tx_bps, rx_bps, tx_bps_l1, rx_bps_l1;
	uint64_t tx_pkts, rx_pkts;
	double drop_rate;    /* pps, tx_pps - rx_pps clipped at 0 */
	double cpu_util;     /* %, cycles of busy loop turns / all cycles, workers averaged */
	double cpu_util_max; /* %, the busiest worker's cpu_util */
	bool cpu_measured;   /* cpu_util: the workers looped over the interval */
	uint64_t active_flows;
	double cps;
	uint64_t queue_full;
	uint64_t tsc_hz; /* the TSC rate every time and rate uses (clock.h) */
	/* offered against achieved (flowgen(8), STATISTICS; offer.h) */
	double completed_cps;  /* rate of client.completed */
	double offered_pps;    /* streams: frames/s the current MULT asks for; 0: none */
	double offered_cps;    /* flows: connections/s the current MULT asks for; 0: none */
	bool short_of_offer;   /* achieved < 98 % of the offer for the last 2 s */
	int offer_limit;       /* enum offer_limit: the likely limit while short */
	double offer_cpu, offer_late, offer_refused, offer_failed; /* the signs of that guess */
};

struct stats_flows {
	struct ctr_client client; /* baselined */
	struct ctr_server server; /* baselined */
	uint64_t active_client, active_server;
	uint64_t active_target; /* the client flows held: start --active (a group's:
				   its climits); 0 = none */
	double target_held_s;	/* how long active has stayed at the target (start
				   --active, stats_hold_update); 0: not at it */
	uint64_t distinct_addrs, distinct_ports;
	double cps; /* rate of client.started */
	double completed_cps; /* rate of client.completed */
};

/*
 * The templates of the current (or last) flows run and the groups they
 * form (flowgen-profile(5), `group`): group[t] is template t's group,
 * groups numbered in the order of their first template. Control sets it
 * at each start (stats_set_run, stats.h); ntpl 0: no flows run.
 */
#define STATS_NAME_MAX 65 /* a template's or a group's name, its NUL included */

struct stats_tpl_map {
	int ntpl, ngroups;
	uint8_t group[FG_PROF_MAX_TEMPLATES];
	char tpl[FG_PROF_MAX_TEMPLATES][STATS_NAME_MAX];  /* template names */
	char name[FG_PROF_MAX_TEMPLATES][STATS_NAME_MAX]; /* group names */
	/* the concurrent client flows the run holds (start --active), and each
	 * group's (the sum of its templates' climit when each has one); 0 = none */
	uint64_t active_target;
	uint64_t climit[FG_PROF_MAX_TEMPLATES];
};

/* One worker (flowgen(8), STATISTICS, "workers"). */
struct stats_worker_snap {
	int id;
	unsigned lcore;
	uint32_t port_mask;		       /* bit p: the worker serves port p */
	uint64_t tx_pkts, rx_pkts, redirected; /* baselined */
	uint64_t active_flows;		       /* the larger of its client and server tables */
	double cpu_util;		       /* %, time-weighted over the rate interval */
	bool cpu_measured;		       /* cpu_util: the worker looped over it */
	/* stalls (struct ctr_worker): how many, their time and its part
	 * beyond the pacers' bound, baselined; the longest since the worker's
	 * last START */
	uint64_t stalls;
	double stalled_ms, stall_late_ms, stall_max_ms;
	uint64_t first_tx_tsc; /* the TSC of its first test frame of the run; 0: none yet */
	uint8_t at_rt;	       /* start --at: its hold's last stretch, ctr.h's at_rt */
};

struct stats_snap {
	int nports;
	int nworkers;
	struct stats_worker_snap w[FG_MAX_WORKERS];
	double interval; /* seconds between the two samples of the rates; 0: no
			    rates (global, flows, groups: not measured) */
	struct stats_global g;
	struct stats_port_snap port[FG_MAX_PORTS];
	struct stats_port_snap total;
	struct stats_flows flows;
	int mode; /* enum prof_mode of the current (or last) run; 0: none yet */
	/* per group of templates (stats_groups): the figures of flows, less
	 * distinct_* and client.late, which no template has */
	struct stats_tpl_map map;
	struct stats_flows grp[FG_PROF_MAX_TEMPLATES];
	int nlat;
	struct stats_lat_row lat[STATS_MAX_LAT];
	/*
	 * The run's start (flowgen(8), STATISTICS: start_planned and
	 * first_frame): the earliest first test frame of the workers (TSC;
	 * 0: none yet), and, set by control with the run (hz 0: no run yet),
	 * the pair that turns the TSC into the system clock's time
	 * (wallclock.h) and the planned start on that clock.
	 */
	uint64_t first_tx_tsc;
	struct wc_pair start_pair;
	int64_t start_planned_ns;
	/* start --at: how much faster the system clock ran than the TSC (at
	 * tsc_hz) from the start command to the planned start, parts per
	 * million; NAN: no planned start, or not come yet */
	double clock_ppm;
};

/*
 * pure: sum the workers' blocks (relaxed loads) into out (NIC part
 * zeroed); out->w[i] keeps worker i's own figures.
 */
void stats_sum(const struct ctr_worker *w, int nworkers, int nports, struct stats_raw *out);
/*
 * pure: the figures of each group of map into out->grp[0..map->ngroups-1]:
 * counters of now less base (may be NULL), summed over
 * the group's templates; cps and completed_cps over dt seconds since prev
 * (NULL, or dt <= 0: none); active the templates' gauges. out->map is
 * set to *map.
 */
void stats_groups(const struct stats_raw *now, const struct stats_raw *prev,
		  const struct stats_raw *base, double dt, const struct stats_tpl_map *map,
		  struct stats_snap *out);
/* A failure reason of one side with its count (stats_top_fails). */
struct stats_fail_top {
	int side;	 /* 0 client, 1 server */
	unsigned reason; /* enum fg_fail (fail-t.h; fails_name() names it) */
	uint64_t n;
};

/*
 * pure: the reasons of fl with the largest counts, client and server
 * apart, at most max of them, largest first (ties: client first, then
 * the reasons' order); reasons at 0 are left out. Returns how many.
 */
int stats_top_fails(const struct stats_flows *fl, struct stats_fail_top *out, int max);

/* pure: a - b, clipped at 0 (a NIC reset must not show 2^64 packets). */
uint64_t stats_sub0(uint64_t a, uint64_t b);
/* pure: the rate of a counter that went from prev to now in dt seconds
 * (clipped at 0); 0 when dt is not positive. */
double stats_rate(uint64_t now, uint64_t prev, double dt);
/*
 * pure: build a snapshot from the newest sample `now`, an older sample
 * `prev` (rates over now->tsc - prev->tsc at tsc_hz; prev may be NULL: no
 * rates), the baseline `base` (may be NULL) and per-port link state.
 * Hook data (flows.distinct_*, lat) is left zero, and so are each
 * worker's lcore and port_mask (stats_get fills them in).
 */
void stats_compute(const struct stats_raw *now, const struct stats_raw *prev,
		   const struct stats_raw *base, uint64_t tsc_hz, int nports, const bool *link_up,
		   const uint32_t *speed_mbps, struct stats_snap *out);
/* pure: s->total, the ports' column "total": s->port[0..nports-1] summed
 * (rates too; line_util over the links' speeds summed). */
void stats_total(struct stats_snap *s);
/*
 * pure: the warning `stats`, `stats -g` and the tui show while g is short
 * of its offer ("short of offer: offered 150.00 Kcps, achieved 85.00 Kcps;
 * likely limit: the worker's CPU (cpu_util 100 %)"). 1 written, 0 none.
 */
int stats_offer_warning(char *buf, size_t len, const struct stats_global *g);
/* pure: the likely limit of g while it is short of its offer (offer.h):
 * g->offer_limit, or OFFER_LIMIT_UNKNOWN when it is none of them. */
enum offer_limit stats_offer_limit(const struct stats_global *g);

struct lat_hist;

/*
 * pure: the latency figures of row r from the merged delays h: min, avg,
 * max, percentiles and jitter in microseconds (lat_summarize, no lost
 * frames ranked), NAN for what h did not measure: all of them when h is
 * empty, jitter when no two consecutive delays were seen by one receiver.
 */
void stats_lat_figures(struct stats_lat_row *r, const struct lat_hist *h);

/* pure: whether the rates of s were measured (an interval between samples). */
static inline bool stats_rated(const struct stats_snap *s) { return s->interval > 0; }

/*
 * pure: a delay in microseconds in at most 7 characters: "-" when not
 * measured (NAN), "12.3" below 100,000, "123456" below 10^7, "12.34M"
 * beyond; "inf" for INFINITY.
 */
const char *stats_fmt_us(char *buf, size_t len, double us);

/*
 * pure: a counter in at most `width` characters (width >= 5): as is when
 * it fits, else stats_fmt_count's compact form.
 */
const char *stats_fmt_fit(char *buf, size_t len, uint64_t v, int width);

/* pure: a rate as stats_fmt_si writes it, "-" when not measured (measured
 * false, or v NAN). */
const char *stats_fmt_rate(char *buf, size_t len, double v, const char *unit, bool measured);

/* pure: "1.23 M" style scaling of v into buf (K/M/G/T, 1000-based). */
const char *stats_fmt_si(char *buf, size_t len, double v, const char *unit);

/* pure: a counter in at most 5 characters: as is below 100,000, else "123M",
 * "12.3M", "1.23M". */
const char *stats_fmt_count(char *buf, size_t len, uint64_t v);

/* How a port table shows a field of struct stats_port_snap. */
enum stats_cell {
	STATS_CELL_U64 = 1, /* the counter as is */
	STATS_CELL_COUNT,   /* the counter, compact (stats_fmt_count) */
	STATS_CELL_PPS,	    /* a rate: "-" when not measured (!rated) */
	STATS_CELL_BPS,
	STATS_CELL_PCT,	    /* line_util: "-" when not rated or without a link speed */
	STATS_CELL_LINK,    /* "UP 10G" from link_up and speed_mbps */
};

/* A row of a port table (the text `stats` and the tui share the cells). */
struct stats_port_row {
	const char *label;
	enum stats_cell kind;
	size_t off; /* offsetof(struct stats_port_snap, ...) */
};

#define STATS_PORT_ROW(l, k, m)                                                                    \
	{                                                                                          \
		l, k, offsetof(struct stats_port_snap, m)                                          \
	}

/* pure: the cell of row r for port o; percentages with pct_digits decimals. */
void stats_port_cell(char *buf, size_t len, const struct stats_port_row *r,
		     const struct stats_port_snap *o, int pct_digits);

/*
 * How long the client flows have held start --active's target: held while
 * active is within STATS_HOLD_PCT % below it (a flow that ends is replaced
 * on the worker's next turn), the time since it last came to it. One
 * tracker per sampler.
 */
#define STATS_HOLD_PCT 0.1

struct stats_hold {
	uint64_t since_tsc; /* when active last came within the band */
	bool on;
};

/* pure: track a sample (target 0: none) at now_tsc; the seconds held so far. */
double stats_hold_update(struct stats_hold *h, uint64_t target, uint64_t active,
			 uint64_t now_tsc, uint64_t tsc_hz);

#endif
