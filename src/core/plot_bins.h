/*
 * plot_bins.h — the display bins of a latency histogram (plot_bins.c),
 * which the charts of `--plot` (src/console/plot.h) draw.
 *
 * Context: pure (unit-tested in test/unit/test_plot.c).
 *
 * Included by: every folder.
 */
#ifndef FG_PLOT_BINS_H
#define FG_PLOT_BINS_H

struct lat_hist;

/* pure: the histogram h cut into nbins equal display bins from its least
 * delay to its p99.9 (each bucket placed where lat_percentile puts its
 * delays), plus one overflow bin up to the largest delay when any lies
 * beyond: lo_us[i]..hi_us[i] and count[i] (arrays of nbins + 1). Returns
 * the number of bins (the counts sum to h->count); 0 when h is empty. */
int plot_hist_bins(const struct lat_hist *h, int nbins, double *lo_us, double *hi_us,
		   double *count);

#endif
