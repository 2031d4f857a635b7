/*
 * streams_ctl.h — the control side of the stateless streams engine
 * (streams_ctl.c): its load at -m 1, its per-worker states, the emulated
 * hosts of its profile, and the counts `stats`, `plot` and `bench` read.
 * Only run.c calls these, through its table of engines (run.h); the worker
 * side is streams_engine (src/dataplane/streams.h).
 *
 * Included by: control.
 */
#ifndef FG_STREAMS_CTL_H
#define FG_STREAMS_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct engine;
struct lat_hist;
struct lat_seq;
struct load;
struct run_params;
struct stats_lat_row;
struct stats_pair_row;

/*
 * What the run of rp sends per port at -m 1 (rp->prof, port_mask and
 * link_bps set): the engine's side of the load model (load.h). 0 or
 * -errno with err set (e.g. a stream whose `rate:` is a % of a link of
 * unknown speed).
 */
int streams_load(const struct run_params *rp, struct load *l, char *err, size_t errlen);

/*
 * Build the per-worker states (states[w] for w in 0..fg_nworkers-1) for
 * the rates of rp->factor and return the engine's worker ops in *ops. 0 or
 * -errno with err set (e.g. a next hop whose MAC is not known).
 */
int streams_prepare(const struct run_params *rp, void **states, const struct engine **ops,
		    char *err, size_t errlen);

/*
 * Once the previous run has stopped (no traffic runs), just before START:
 * the profile's emulated hosts on the ports, and the run whose rows
 * `stats` shows. 0, or -errno with err set and nothing changed.
 */
int streams_activate(void **states, char *err, size_t errlen);

/* Free the states of a finished run (the workers no longer use them). */
void streams_release(void **states);

/* stats hook: the per-stream latency rows of the current run. */
int streams_latency_rows(struct stats_lat_row *rows, int max);

/* The host pairs of the current run (stats.h, stats --pairs): rows
 * malloc'ed into *rows, frames to no pair in *unmatched; how many rows
 * (0: none counted), or -ENOMEM. */
int streams_pair_rows(struct stats_pair_row **rows, uint64_t *unmatched);

/* The delays of latency row `row` of streams_latency_rows; 0, or -ENOENT
 * when there is no such row (no run, fewer rows). */
int streams_latency_hist(int row, struct lat_hist *h);

/*
 * The test frames of the current streams run, every stream and port
 * merged (only the streams with latency on when stamped_only): the
 * receive sequence counts, the frames sent and, if h is not NULL, one
 * delay histogram. *span_s (if not NULL): the longest time a worker sent
 * measured traffic, from the start of its measured phase to its last
 * burst. 0, or -ENOENT when no streams run exists.
 */
int streams_totals(bool stamped_only, struct lat_hist *h, struct lat_seq *q, uint64_t *tx,
		   double *span_s);

#endif
