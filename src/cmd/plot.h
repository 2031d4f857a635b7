/*
 * plot.h — the pictures of `--plot FILE.svg` (flowgen(8), bench and stats):
 * bench's search (offered rate against loss, one point per trial, the
 * figure found marked), the latency histogram of a latency test, and for
 * `stats` a latency histogram per latency row plus, with several rows (an
 * L3 test's directions, several streams), their loss and latency side by
 * side. Built with the SVG writer of svg.h; every data mark carries its
 * figures (data-x, data-y, data-label) as `--json` prints them.
 *
 * Context: control (the console's thread). The display bins of a
 * histogram, which the charts use, are pure: src/core/plot_bins.h.
 *
 * Included by: cmd.
 */
#ifndef FG_PLOT_H
#define FG_PLOT_H

#include "bench_search.h"

struct bench_result;

/* control: write `bench` result r of test kind to path; 0 or -1 (said why). */
int plot_bench(const char *path, enum bench_kind kind, const struct bench_result *r);

/* control: write the latency rows of the current streams run to path; 0 or
 * -1 (said why: no run, no latency rows, the file). */
int plot_stats(const char *path);

#endif
