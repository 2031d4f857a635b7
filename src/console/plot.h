/*
 * plot.h — the pictures of `--plot FILE.svg` (flowgen(8), bench and stats):
 * bench's search (offered rate against loss, one point per trial, the
 * figure found marked), the latency histogram of a latency test, and for
 * `stats` a latency histogram per latency row plus, with several rows (an
 * L3 test's directions, several streams), their loss and latency side by
 * side. Built with the SVG writer of svg.h; every data mark carries its
 * figures (data-x, data-y, data-label) as `--json` prints them.
 *
 * Context: control (the console's thread).
 *
 * Included by: console.
 */
#ifndef FG_PLOT_H
#define FG_PLOT_H

#include "bench_search.h"

struct bench_result;
struct lat_hist;

/* control: write `bench` result r of test kind to path; 0 or -1 (said why). */
int plot_bench(const char *path, enum bench_kind kind, const struct bench_result *r);

/* control: write the latency rows of the current streams run to path; 0 or
 * -1 (said why: no run, no latency rows, the file). */
int plot_stats(const char *path);

/* pure: the histogram h cut into nbins equal display bins from its least
 * delay to its p99.9 (each bucket placed where lat_percentile puts its
 * delays), plus one overflow bin up to the largest delay when any lies
 * beyond: lo_us[i]..hi_us[i] and count[i] (arrays of nbins + 1). Returns
 * the number of bins (the counts sum to h->count); 0 when h is empty. */
int plot_hist_bins(const struct lat_hist *h, int nbins, double *lo_us, double *hi_us,
		   double *count);

#endif
