/*
 * engine.h — how control prepares a traffic run for the workers. A run is
 * a profile plus the console's `start` arguments; the engine of the
 * profile's mode (flows or streams) turns it into one immutable
 * per-worker state each, which control hands over with START. The worker
 * side of an engine is its struct engine (worker.h).
 *
 * Context: control.
 */
#ifndef FG_ENGINE_H
#define FG_ENGINE_H

#include "fg.h"
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
};

/*
 * Build the per-worker states (states[w] for w in 0..fg_nworkers-1) and
 * return the engine's ops in *ops. 0 or -errno with err set (e.g. a rate
 * the ports cannot reach, naming the maximum).
 */
int flows_prepare(const struct run_params *rp, void **states, const struct engine **ops, char *err,
		  size_t errlen);
int streams_prepare(const struct run_params *rp, void **states, const struct engine **ops,
		    char *err, size_t errlen);

/*
 * The connections/s a flows run would open on each port pair it uses (as
 * flows_prepare computes them). -EINVAL for a profile that is not flows or
 * for -m max; -ERANGE for a rate above line rate.
 */
int flows_offered_cps(const struct run_params *rp, double *cps, char *err, size_t errlen);

/* Free the states of a finished run (the workers no longer use them). */
void flows_release(void **states);
void streams_release(void **states);

/* stats hooks: server-side NAT report; per-stream latency rows. */
void flows_nat_report(uint64_t *distinct_addrs, uint64_t *distinct_ports);
struct stats_lat_row;
int streams_latency_rows(struct stats_lat_row *rows, int max);

/*
 * The frames/s the streams of rp would offer, summed over the ports, and
 * the load of the busiest port in % of its line rate (L1). -EINVAL for a
 * profile that is not streams or for -m max (unpaced: no known rate);
 * -ERANGE, as streams_prepare, for a rate a port cannot carry.
 */
int streams_offered(const struct run_params *rp, double *pps, double *line_pct, char *err,
		    size_t errlen);

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
