/*
 * plot_bins.c — the display bins of a latency histogram (plot_bins.h):
 * its buckets regrouped into equal bins from its least delay
 * to its p99.9, plus one overflow bin, for the charts of `--plot`
 * (src/console/plot.c). Pure: it reads only the histogram it is given.
 */
#include "fg.h"
#include "lat.h"
#include "plot_bins.h"

int plot_hist_bins(const struct lat_hist *h, int nbins, double *lo_us, double *hi_us,
		   double *count)
{
	double lo, hi, bw;

	if (!h->count || nbins < 1)
		return 0;
	lo = (double)h->min;
	hi = (double)lat_percentile(h, 99.9);
	if (hi < lo)
		hi = lo;
	bw = (hi - lo) / nbins;
	if (bw < 1)
		bw = 1;
	for (int i = 0; i <= nbins; i++) {
		lo_us[i] = (lo + bw * i) / 1000;
		hi_us[i] = (lo + bw * (i + 1)) / 1000;
		count[i] = 0;
	}
	hi_us[nbins] = FG_MAX((double)h->max / 1000, lo_us[nbins]);
	for (unsigned b = 0; b < LAT_NBUCKETS; b++) {
		double v;
		long i;

		if (!h->bucket[b])
			continue;
		/* a bucket's delays stand at the value lat_percentile gives
		 * them, so the bin of p99.9 is the last before the overflow */
		v = (double)(lat_bucket_low(b) + (lat_bucket_width(b) - 1) / 2);
		v = FG_MIN(FG_MAX(v, (double)h->min), (double)h->max);
		if (v > hi)
			i = nbins;
		else
			i = FG_MIN((long)((v - lo) / bw), (long)nbins - 1);
		count[i] += (double)h->bucket[b];
	}
	return count[nbins] > 0 ? nbins + 1 : nbins;
}
