/*
 * plot.h — the pictures of `--plot FILE.svg` (flowgen(8), bench and stats):
 * bench's search (offered rate against loss, one point per trial, the
 * figure found marked), the latency histogram of a latency test, and for
 * `stats` a latency histogram per latency row plus, with several rows (an
 * L3 test's directions, several streams), their loss and latency side by
 * side; `record plot` a record's frame rates over time (record_fmt.h).
 * Built with the SVG writer of svg.h; every data mark carries its
 * figures (data-x, data-y, data-label) as `--json` prints them.
 *
 * Context: control (the console's thread). The display bins of a
 * histogram, which the charts use, are pure: src/core/plot_bins.h.
 *
 * Included by: cmd.
 */
#ifndef FG_PLOT_H
#define FG_PLOT_H

#include <stddef.h>

#include "bench_search.h"

struct bench_result;

/* control: write `bench` result r of test kind to path; 0 or -1 (said why). */
int plot_bench(const char *path, enum bench_kind kind, const struct bench_result *r);

/* control: write the latency rows of the current streams run to path; 0 or
 * -1 (said why: no run, no latency rows, the file). */
int plot_stats(const char *path);

struct record_point;

/*
 * control: write the n lines p of a record (called name in the title) to
 * path: the global tx_pps and rx_pps of each line whose rates were
 * measured against the seconds since the first line (two series, labelled
 * tx_pps and rx_pps), and each run's end (its "end" line) marked. 0 or -1
 * (said why).
 */
int plot_record(const char *path, const char *name, const struct record_point *p, size_t n);

#endif
