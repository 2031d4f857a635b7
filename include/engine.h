/*
 * engine.h — the control side of the traffic engines. A run is a profile
 * plus the console's `start` arguments; run.c picks the engine of the
 * profile's mode (flows or streams) from its table, asks it for its load
 * at -m 1 (load.h), applies -m, and has it turn the run into one
 * per-worker state each, which control hands over with START. The worker
 * side of an engine is its struct engine (worker.h).
 *
 * Context: control.
 */
#ifndef FG_ENGINE_H
#define FG_ENGINE_H

#include "fg.h"
#include "load.h"
#include "units.h"

struct prof;
struct engine;

struct run_params {
	const struct prof *prof;
	struct units_rate mult;		/* -m as parsed (multiplier or absolute rate) */
	double duration_s;		/* -d; 0 = until stop */
	uint32_t port_mask;		/* -p; bit per port, 0 = all */
	const char *tunables;		/* -t KEY=VAL,... or NULL */
	uint64_t hz;			/* TSC ticks per second */
	uint32_t flows_max;		/* flow-table entries per worker (config) */
	double drain_s;			/* wait for frames in flight after the last one;
					   0 = the engine's own (streams: the profile's
					   timeout, at most 1 s) */
	uint32_t cport_lo, cport_hi;	/* flows: client ports in place of the profile's
					   (bench: a window no earlier trial used);
					   both 0 = the profile's */
	/* Filled in by run.c before prepare (see load.h): */
	uint64_t link_bps[FG_MAX_PORTS];	/* each port's link speed, 0 = unknown */
	struct load load;			/* what the engine's load() described */
	double factor[FG_MAX_PORTS];		/* -m applied: port p sends load.tx[p] x factor[p];
						   0 = nothing, or unpaced (-m max) */
};

/*
 * What the run of rp sends per port at -m 1 (rp->prof, port_mask and
 * link_bps set): the engine's side of the load model. 0 or -errno with err
 * set (e.g. a stream whose `rate:` is a % of a link of unknown speed).
 */
int flows_load(const struct run_params *rp, struct load *l, char *err, size_t errlen);
int streams_load(const struct run_params *rp, struct load *l, char *err, size_t errlen);

/*
 * Build the per-worker states (states[w] for w in 0..fg_nworkers-1) for
 * the rates of rp->factor and return the engine's worker ops in *ops. 0 or
 * -errno with err set (e.g. a next hop whose MAC is not known).
 */
int flows_prepare(const struct run_params *rp, void **states, const struct engine **ops, char *err,
		  size_t errlen);
int streams_prepare(const struct run_params *rp, void **states, const struct engine **ops,
		    char *err, size_t errlen);

/*
 * control, once the previous run has stopped (no traffic runs), just before
 * START: make what a run changes outside its states take effect (streams:
 * the profile's emulated hosts on the ports, and the run whose rows `stats`
 * shows). 0, or -errno with err set and nothing changed.
 */
int streams_activate(void **states, char *err, size_t errlen);

/* Free the states of a finished run (the workers no longer use them). */
void flows_release(void **states);
void streams_release(void **states);

/* stats hooks: server-side NAT report; per-stream latency rows. */
void flows_nat_report(uint64_t *distinct_addrs, uint64_t *distinct_ports);
/* control: distinct client (address, port) pairs the current (or last)
 * flows run used, summed over its workers; read once the run is idle. */
uint64_t flows_fresh_tuples(void);
struct stats_lat_row;
int streams_latency_rows(struct stats_lat_row *rows, int max);
struct stats_pair_row;
/* control: the host pairs of the current run (stats.h, stats --pairs):
 * rows malloc'ed into *rows, frames to no pair in *unmatched; how many
 * rows (0: none counted), or -ENOMEM. */
int streams_pair_rows(struct stats_pair_row **rows, uint64_t *unmatched);
struct lat_hist;
/* control: the delays of latency row `row` of streams_latency_rows; 0, or
 * -ENOENT when there is no such row (no run, fewer rows). */
int streams_latency_hist(int row, struct lat_hist *h);

/*
 * The test frames of the current streams run, every stream and port
 * merged (only the streams with latency on when stamped_only): the
 * receive sequence counts, the frames sent and, if h is not NULL, one
 * delay histogram. *span_s (if not NULL): the longest time a worker sent
 * measured traffic, from the start of its measured phase to its last
 * burst. 0, or -ENOENT when no streams run exists.
 */
struct lat_hist;
struct lat_seq;
int streams_totals(bool stamped_only, struct lat_hist *h, struct lat_seq *q, uint64_t *tx,
		   double *span_s);

#endif
