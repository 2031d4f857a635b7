/*
 * stats.h — statistics: aggregation of the workers' counter blocks and the
 * NICs' counters, rates, the "clear" baseline, and the `stats` output
 * (aligned text tables or one JSON object).
 *
 * Workers only ever write their own struct ctr_worker (ctr.h). A sampler
 * thread on the control side sums the blocks every 100 ms, joins the NIC
 * counters in, and keeps a short ring of samples; rates are the difference
 * between two samples about one second apart divided by the measured
 * interval, never a requested rate. "clear" stores a baseline that the
 * reader subtracts; nothing is written back into a worker's block.
 *
 * Context: control. The sampler thread (stats.c) and the callers of this
 * API (the console's thread: `stats`, bench, the dashboard; run.c) share
 * state under one lock; the sampler calls the pure sums and rates and the
 * link and port-id hooks, the readers the other hooks. The types of a sample and of a
 * snapshot, and the pure sums, rates and formatters, are
 * src/core/stats_snap.h.
 *
 * Included by: control and console.
 */
#ifndef FG_STATS_H
#define FG_STATS_H

struct jw; /* json.h */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ctr.h"
#include "fg.h"
#include "stats_snap.h"

/* Sections of `stats` (flags -g -p -a -l -w); 0 means all. */
enum stats_section {
	STATS_G = 1 << 0, /* global */
	STATS_P = 1 << 1, /* ports */
	STATS_A = 1 << 2, /* stateful flows */
	STATS_L = 1 << 3, /* latency */
	STATS_W = 1 << 4, /* workers */
	STATS_ALL = STATS_G | STATS_P | STATS_A | STATS_L | STATS_W,
	STATS_H = 1 << 5, /* host pairs (--pairs): never part of "all" */
	STATS_T = 1 << 6, /* flows per group of templates (-t): text only with it;
			     the JSON's templates[] comes with STATS_A too */
};

#define STATS_HIST 120	    /* tx/rx pps history points (one per 0.5 s) */
#define STATS_SAMPLE_MS 100 /* sampler period */

/* Optional providers; any member may be NULL. Called from control threads. */
struct stats_hooks {
	/* fill up to max rows, return how many (or <0 on error) */
	int (*latency)(struct stats_lat_row *rows, int max);
	/* server side: distinct translated source addresses and ports seen */
	void (*nat)(uint64_t *distinct_addrs, uint64_t *distinct_ports);
	/* link state; when absent rte_eth_link_get_nowait is used */
	bool (*port_link)(int port, bool *up, uint32_t *speed_mbps);
	/* the DPDK port id of a port index (<0: none); absent: the index */
	int (*port_id)(int port);
	/* host pairs: rows (malloc'ed, *rows) and unmatched frames; how many */
	int (*pairs)(struct stats_pair_row **rows, uint64_t *unmatched);
	/* called by stats_clear: modules with statistics of their own reset */
	void (*clear)(void);
	/* port p's next hops, IPv4's and IPv6's (left zeroed: none) */
	void (*next_hops)(int port, struct stats_next_hop *nh);
	/* the port's mbuf pool (struct stats_pool); false: none read */
	bool (*mempool)(int port, struct stats_pool *out);
};

/* control: once at start-up, after the ports exist (DPDK ids 0..nports-1). */
int stats_init(struct ctr_worker *workers, int nworkers, int nports, uint64_t tsc_hz);
/* control: worker id's lcore and the ports it serves (bit p: port p). */
void stats_set_worker(int id, unsigned lcore, uint32_t port_mask);
/* control: install optional providers (copied); NULL removes them. */
void stats_set_hooks(const struct stats_hooks *h);
/* control: start / stop the sampler thread (every STATS_SAMPLE_MS). */
void stats_start(void);
void stats_stop(void);
/* control: baseline = now, NIC counters included; calls hooks->clear. */
void stats_clear(void);
/*
 * control: the run that starts (run.c, before its stats_clear): its mode
 * (enum prof_mode) and, for a flows run, its templates and their groups
 * (map may be NULL: none). Snapshots carry both from then on.
 */
void stats_set_run(int mode, const struct stats_tpl_map *map);
/*
 * control: what the current run offers per second at its current MULT
 * (run.c on start, update and the tui's +/-): frames for streams,
 * connections for flows; both 0 for none (-m max). The sampler compares
 * it with the achieved rate while the workers run (offer.h).
 */
void stats_set_offer(double pps, double cps);
/*
 * control: the start of the run that run.c starts now: a (system clock,
 * TSC) pair read at the start command, and the start, ns since the epoch
 * (wallclock.h), planned for a time of day (start --at) or not.
 * Snapshots carry both; the writers turn the workers' first frames into
 * times with the pair (flowgen(8), STATISTICS: start_planned,
 * first_frame). A planned run's pair is the one a worker took last as it
 * held for the start (ctr.h, at_tsc), once there is one: the two clocks
 * can run apart over the lead.
 */
void stats_set_start(const struct wc_pair *pair, int64_t planned_ns, bool planned);
/* control: the latest aggregate, baselined, with rates and hook data. */
void stats_get(struct stats_snap *out);
/* control: the same with out->grp[] per template, not per group:
 * out->map.tpl[t] names template t and out->map.name[t] its group (GET
 * /metrics, which sums groups in PromQL), and no latency rows (nlat 0) */
void stats_get_templates(struct stats_snap *out);
/* control: tx/rx pps history, oldest first; returns the number of points. */
int stats_history(double *tx_pps, double *rx_pps, int max);
/* control: the host pairs of the current streams run (the pairs hook):
 * rows malloc'ed into *rows (free it), unmatched frames; how many rows. */
int stats_pair_rows(struct stats_pair_row **rows, uint64_t *unmatched);
/* control: print the sections (0 = all) as tables or one JSON object. */
int stats_print(FILE *f, unsigned sections, bool json);
/* control: the sections (0 = all) of the latest snapshot as one JSON object through j. */
int stats_emit(struct jw *j, unsigned sections);

/*
 * A failed flow as `stats --failed` lists it (flowgen(8), STATISTICS,
 * "failed flows"): the worker's entry (fail-t.h), its template's name in
 * the run and the system clock's time of its TSC (0: no run's clock).
 */
struct stats_failed {
	struct fail_rec rec;
	char tpl[STATS_NAME_MAX];
	int64_t rt_ns;
};
/* The most `stats --failed N` lists: every entry of every worker's ring. */
#define STATS_FAILED_MAX (FG_FAIL_RING * FG_MAX_WORKERS)
/*
 * control: the last max (at most STATS_FAILED_MAX) failed flows of run
 * `run` (ctl_run_id()) since the last `clear` from the workers' rings,
 * read without a lock (fails.h), newest first, into out[]; *held: how
 * many the rings hold of them (entries found torn by a write are
 * skipped: they are newer than what was listed). Returns how many.
 */
size_t stats_failed_get(uint32_t run, struct stats_failed *out, size_t max, size_t *held);
/* control: the last n of them as a table, or as the JSON object
 * {"held": H, "flows": [...]} through j (member key of the object open
 * on j, or a value when key is NULL). 0 or <0. */
int stats_failed_print(FILE *f, uint32_t run, size_t n);
int stats_failed_json(struct jw *j, const char *key, uint32_t run, size_t n);

/*
 * control: write snapshot s as one JSON object (one line); each port's
 * object joins its driver's extended statistics, read at print time.
 */
int stats_write_json(FILE *f, const struct stats_snap *s, unsigned sections);
/* pure: the same object through the writer j (text or value, json.h). 0 or <0. */
int stats_json(struct jw *j, const struct stats_snap *s, unsigned sections);
/* pure: the same object as the member `key` of the object open on j (the
 * record's "stats", record.h); key NULL: as stats_json. 0 or <0. */
int stats_json_at(struct jw *j, const char *key, const struct stats_snap *s, unsigned sections);
/* control: write snapshot s as text tables (STATS_H: the host pairs, read
 * through stats_pair_rows when printed). */
int stats_write_text(FILE *f, const struct stats_snap *s, unsigned sections);

#endif
