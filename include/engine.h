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

/* Free the states of a finished run (the workers no longer use them). */
void flows_release(void **states);
void streams_release(void **states);

/* stats hooks: server-side NAT report; per-stream latency rows. */
void flows_nat_report(uint64_t *distinct_addrs, uint64_t *distinct_ports);
struct stats_lat_row;
int streams_latency_rows(struct stats_lat_row *rows, int max);

#endif
