/*
 * plot.c — the builders behind `bench ... --plot FILE.svg` and `stats
 * --plot FILE.svg` and `record plot` (plot.h), run on the console's thread
 * once the figures exist: they take bench's result (the trials as run),
 * the current streams run's latency rows and histograms, or a record's
 * lines (record_fmt.h), lay them out as charts with
 * the SVG writer (src/core/svg.c) and write the file. Each mark's data-x /
 * data-y attributes hold the figure `--json` prints for it, so a script
 * can check the picture against the numbers.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "lat.h"
#include "plot.h"
#include "plot_bins.h"
#include "record_fmt.h"
#include "run.h"
#include "stats.h"
#include "svg.h"
#include "log.h"

#define PLOT_W 820
#define PLOT_H 420
#define PLOT_BINS 40
#define PLOT_PASS "#2ca02c"
#define PLOT_FAIL "#d62728"
#define PLOT_INVALID "#999999"
#define PLOT_LINE "#1f77b4"
#define PLOT_ALT "#ff7f0e"

/* Write s to path; who names the option or command in a message. */
static int plot_write_as(const char *who, const char *path, struct svg *s)
{
	FILE *f;
	int rc = svg_end(s);

	if (rc) {
		fg_err("%s %s: out of memory", who, path);
		svg_free(s);
		return -1;
	}
	f = fopen(path, "w");
	if (!f || fwrite(s->buf, 1, s->len, f) != s->len || fclose(f) != 0) {
		fg_err("%s %s: %s", who, path, strerror(errno));
		if (f)
			fclose(f);
		svg_free(s);
		return -1;
	}
	svg_free(s);
	return 0;
}

static int plot_write(const char *path, struct svg *s)
{
	return plot_write_as("--plot", path, s);
}

/* One histogram chart at `top`: bars of delays, p50/p99/p99.9 marked. */
static void plot_hist_chart(struct svg *s, double top, const char *title,
			    const struct lat_hist *h)
{
	double lo[PLOT_BINS + 1], hi[PLOT_BINS + 1], cnt[PLOT_BINS + 1], ymax = 1;
	int n = plot_hist_bins(h, PLOT_BINS, lo, hi, cnt);
	struct lat_summary sum;
	struct svg_chart c;
	char label[96];

	lat_summarize(h, 0, &sum);
	for (int i = 0; i < n; i++)
		ymax = FG_MAX(ymax, cnt[i]);
	svg_chart_init(&c, PLOT_W, PLOT_H, title, "one-way delay (us)", n ? lo[0] : 0,
		       n ? hi[n - 1] : 1, "frames", 0, ymax);
	svg_chart_move(&c, top);
	svg_frame(s, &c);
	for (int i = 0; i < n; i++) {
		snprintf(label, sizeof(label), "%s%.3f-%.3f us", i == PLOT_BINS ? "beyond p99.9: " : "",
			 lo[i], hi[i]);
		svg_bar(s, &c, lo[i], hi[i], cnt[i], i == PLOT_BINS ? PLOT_ALT : PLOT_LINE, label);
	}
	if (sum.samples) {
		svg_vline(s, &c, sum.p50_us, "black", "p50_us");
		svg_vline(s, &c, sum.p99_us, PLOT_FAIL, "p99_us");
		if (isfinite(sum.p999_us))
			svg_vline(s, &c, sum.p999_us, PLOT_ALT, "p999_us");
	}
	svg_legend(s, &c, 0, PLOT_LINE, "delays (frames per bin)");
	svg_legend(s, &c, 1, "black", "p50");
	svg_legend(s, &c, 2, PLOT_FAIL, "p99");
	svg_legend(s, &c, 3, PLOT_ALT, "p99.9 and beyond");
}

/* The search: offered rate (or connections) against loss, per trial. */
static int plot_search(const char *path, enum bench_kind kind, const struct bench_result *r)
{
	static const char *const title[BENCH_KIND_COUNT] = {
	    [BENCH_THROUGHPUT] = "RFC 2544 throughput search: loss per trial",
	    [BENCH_CPS] = "RFC 9693 connection rate search: failed connections per trial",
	    [BENCH_CAPACITY] = "RFC 9693 connection table capacity: failed connections per trial",
	    [BENCH_TEARDOWN] = "RFC 9693 connection tear-down rate per trial",
	};
	const char *xl = kind == BENCH_THROUGHPUT ? "offered rate (frames/s)"
			 : kind == BENCH_CPS	  ? "offered rate (connections/s)"
						  : "connections";
	double *x = calloc(r->n + 1, sizeof(double)), *y = calloc(r->n + 1, sizeof(double));
	double xmax = 1, ymax = 1;
	struct svg s = {0};
	struct svg_chart c;
	char label[96];

	if (!x || !y) {
		free(x);
		free(y);
		fg_err("--plot %s: out of memory", path);
		return -1;
	}
	for (size_t i = 0; i < r->n; i++) {
		x[i] = kind == BENCH_CAPACITY || kind == BENCH_TEARDOWN ? (double)r->t[i].conns
									 : r->t[i].rate;
		/* teardown: the rate each count was torn down at */
		y[i] = kind == BENCH_TEARDOWN ? r->t[i].td.rate : r->t[i].loss_pct;
		xmax = FG_MAX(xmax, x[i]);
		ymax = FG_MAX(ymax, y[i]);
	}
	svg_chart_init(&c, PLOT_W, PLOT_H, title[kind], xl, 0, xmax,
		       kind == BENCH_THROUGHPUT   ? "loss (% of frames sent)"
		       : kind == BENCH_TEARDOWN ? "torn down (connections/s)"
						: "failed (% of connections started)",
		       0, ymax);
	svg_begin(&s, &c);
	/* the search's path, then each trial coloured by its verdict */
	if (r->n > 1) {
		svg_printf(&s, "<polyline fill=\"none\" stroke=\"#bbbbbb\" points=\"");
		for (size_t i = 0; i < r->n; i++)
			svg_printf(&s, "%s%.1f,%.1f", i ? " " : "", svg_map(&c.x, x[i]),
				   svg_map(&c.y, y[i]));
		svg_printf(&s, "\"/>\n");
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct bench_trial *t = &r->t[i];

		snprintf(label, sizeof(label), "trial %zu %s%s", i + 1,
			 !t->valid ? "invalid" : t->passed ? "pass" : "fail",
			 t->confirm ? " (confirmation)" : "");
		svg_point(&s, &c, x[i], y[i],
			  !t->valid ? PLOT_INVALID : t->passed ? PLOT_PASS : PLOT_FAIL, label);
		/* the trial's number beside it, the order of the search */
		svg_printf(&s, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
			       "font-family=\"sans-serif\" fill=\"#555555\">%zu</text>\n",
			   svg_map(&c.x, x[i]) + 6, svg_map(&c.y, y[i]) - 6 - 10.0 * (i % 2), i + 1);
	}
	if (r->best >= 0)
		svg_vline(&s, &c, x[r->best], "black",
			  kind == BENCH_CAPACITY ? "capacity" : kind == BENCH_TEARDOWN ? "largest N" : "found");
	svg_legend(&s, &c, 0, PLOT_PASS, "pass");
	svg_legend(&s, &c, 1, PLOT_FAIL, "fail");
	svg_legend(&s, &c, 2, PLOT_INVALID, "invalid (repeated)");
	svg_legend(&s, &c, 3, "black",
		   kind == BENCH_CAPACITY   ? "capacity"
		   : kind == BENCH_TEARDOWN ? "largest N loaded and torn down"
					    : "rate found");
	free(x);
	free(y);
	return plot_write(path, &s);
}

int plot_bench(const char *path, enum bench_kind kind, const struct bench_result *r)
{
	struct lat_hist *h;
	struct lat_seq q;
	struct svg s = {0};
	uint64_t tx;
	char title[128];

	if (kind != BENCH_LATENCY)
		return plot_search(path, kind, r);
	/* latency: the trial's delays, still held by the run that made them */
	h = malloc(sizeof(*h));
	if (!h) {
		fg_err("--plot %s: out of memory", path);
		return -1;
	}
	if (run_totals(true, h, &q, &tx, NULL) != 0 || !h->count) {
		fg_err("--plot %s: no delays were measured", path);
		free(h);
		return -1;
	}
	snprintf(title, sizeof(title), "RFC 8219 latency at %.0f frames/s: %" PRIu64 " delays",
		 r->n ? r->t[r->n - 1].rate : 0, h->count);
	svg_doc(&s, PLOT_W, PLOT_H);
	plot_hist_chart(&s, 0, title, h);
	free(h);
	return plot_write(path, &s);
}

/* Each row's name above its bars: "stream -> port N". */
static void plot_row_names(struct svg *s, const struct svg_chart *c,
			   const struct stats_lat_row *rows, int n)
{
	char label[64];

	for (int i = 0; i < n && n <= 16; i++) {
		snprintf(label, sizeof(label), "%s -> port %d", rows[i].stream, rows[i].port);
		svg_label(s, c, i + 0.5, label);
	}
}

/* Several rows: loss and latency per row, side by side. */
static void plot_rows_charts(struct svg *s, double top, const struct stats_lat_row *rows, int n)
{
	struct svg_chart c;
	double lmax = 1, dmax = 1;
	char label[96];

	for (int i = 0; i < n; i++) {
		if (rows[i].tx)
			lmax = FG_MAX(lmax, (double)rows[i].lost * 100 / (double)rows[i].tx);
		if (isfinite(rows[i].p99_us)) /* NAN: not measured */
			dmax = FG_MAX(dmax, rows[i].p99_us);
	}
	svg_chart_init(&c, PLOT_W, PLOT_H, "frame loss per stream and receiving port",
		       "latency row (stream, receiving port)", 0, n, "loss (% of frames sent)", 0,
		       lmax);
	svg_chart_move(&c, top);
	svg_frame(s, &c);
	for (int i = 0; i < n; i++) {
		snprintf(label, sizeof(label), "row %d: %s rx port %d loss_pct", i, rows[i].stream,
			 rows[i].port);
		svg_bar(s, &c, i + 0.1, i + 0.9,
			rows[i].tx ? (double)rows[i].lost * 100 / (double)rows[i].tx : 0,
			PLOT_FAIL, label);
	}
	plot_row_names(s, &c, rows, n);
	svg_chart_init(&c, PLOT_W, PLOT_H, "latency per stream and receiving port",
		       "latency row (stream, receiving port)", 0, n, "one-way delay (us)", 0, dmax);
	svg_chart_move(&c, top + PLOT_H);
	svg_frame(s, &c);
	for (int i = 0; i < n; i++) {
		if (isnan(rows[i].p50_us)) /* no delay measured: no bars */
			continue;
		snprintf(label, sizeof(label), "row %d: %s rx port %d p50_us", i, rows[i].stream,
			 rows[i].port);
		svg_bar(s, &c, i + 0.1, i + 0.5, rows[i].p50_us, PLOT_LINE, label);
		snprintf(label, sizeof(label), "row %d: %s rx port %d p99_us", i, rows[i].stream,
			 rows[i].port);
		svg_bar(s, &c, i + 0.5, i + 0.9, isfinite(rows[i].p99_us) ? rows[i].p99_us : 0,
			PLOT_ALT, label);
	}
	plot_row_names(s, &c, rows, n);
	svg_legend(s, &c, 0, PLOT_LINE, "p50");
	svg_legend(s, &c, 1, PLOT_ALT, "p99");
}

/*
 * The L3 test's picture: per host pair and direction (the rows of stats
 * --pairs, x = the row's index), the loss, then the latency's min, avg and
 * max.
 */
static void plot_pairs_charts(struct svg *s, double top, const struct stats_pair_row *r, int n)
{
	static const char *const what[3] = {"min_us", "avg_us", "max_us"};
	static const char *const color[3] = {PLOT_LINE, "black", PLOT_ALT};
	struct svg_chart c;
	double lmax = 1, dmax = 1;
	char label[192];

	for (int i = 0; i < n; i++) {
		lmax = FG_MAX(lmax, r[i].loss_pct);
		if (isfinite(r[i].max_us))
			dmax = FG_MAX(dmax, r[i].max_us);
	}
	svg_chart_init(&c, PLOT_W, PLOT_H, "frame loss per host pair and direction",
		       "host pair (row of stats --pairs: stream, receiving port, pair)", 0, n,
		       "loss (% of frames sent)", 0, lmax);
	svg_chart_move(&c, top);
	svg_frame(s, &c);
	for (int i = 0; i < n; i++) {
		snprintf(label, sizeof(label), "row %d: %s %s -> %s rx port %d loss_pct", i,
			 r[i].stream, r[i].src, r[i].dst, r[i].port);
		svg_point(s, &c, i, r[i].loss_pct, r[i].lost ? PLOT_FAIL : PLOT_PASS, label);
	}
	svg_chart_init(&c, PLOT_W, PLOT_H, "latency per host pair and direction",
		       "host pair (row of stats --pairs: stream, receiving port, pair)", 0, n,
		       "one-way delay (us)", 0, dmax);
	svg_chart_move(&c, top + PLOT_H);
	svg_frame(s, &c);
	for (int i = 0; i < n; i++) {
		const double v[3] = {r[i].min_us, r[i].avg_us, r[i].max_us};

		for (int k = 0; k < 3 && isfinite(v[0]); k++) {
			snprintf(label, sizeof(label), "row %d: %s %s -> %s rx port %d %s", i,
				 r[i].stream, r[i].src, r[i].dst, r[i].port, what[k]);
			svg_point(s, &c, i, v[k], color[k], label);
		}
	}
	for (int k = 0; k < 3; k++)
		svg_legend(s, &c, k, color[k], what[k]);
}

int plot_stats(const char *path)
{
	struct stats_lat_row *rows = calloc(STATS_MAX_LAT, sizeof(*rows));
	struct lat_hist *h = malloc(sizeof(*h));
	struct stats_pair_row *pr = NULL;
	struct svg s = {0};
	char title[128];
	uint64_t unmatched;
	int n, nh = 0, np, rc = -1;

	if (!rows || !h) {
		fg_err("--plot %s: out of memory", path);
		goto out;
	}
	n = run_latency_rows(rows, STATS_MAX_LAT);
	np = stats_pair_rows(&pr, &unmatched);
	if (n <= 0 && np <= 0) {
		fg_err("--plot %s: no latency rows or host pairs to draw (a streams run with "
		       "latency: true)",
		       path);
		goto out;
	}
	for (int i = 0; i < n; i++)
		if (run_latency_hist(i, h) == 0 && h->count)
			nh++;
	svg_doc(&s, PLOT_W, PLOT_H * (nh + (n > 1 ? 2 : 0) + (np > 0 ? 2 : 0)));
	nh = 0;
	for (int i = 0; i < n; i++) {
		if (run_latency_hist(i, h) != 0 || !h->count)
			continue;
		snprintf(title, sizeof(title), "latency of stream %s received on port %d: %" PRIu64
			 " delays", rows[i].stream, rows[i].port, h->count);
		svg_printf(&s, "<g class=\"row\" data-row=\"%d\">\n", i);
		plot_hist_chart(&s, PLOT_H * nh++, title, h);
		svg_printf(&s, "</g>\n");
	}
	if (n > 1)
		plot_rows_charts(&s, PLOT_H * nh, rows, n);
	if (np > 0)
		plot_pairs_charts(&s, PLOT_H * (nh + (n > 1 ? 2 : 0)), pr, np);
	rc = plot_write(path, &s);
out:
	free(rows);
	free(h);
	free(pr);
	return rc;
}

int plot_record(const char *path, const char *name, const struct record_point *p, size_t n)
{
	double *x = calloc(n + 1, sizeof(double)), *tx = calloc(n + 1, sizeof(double));
	double *rx = calloc(n + 1, sizeof(double)), xmax = 1, ymax = 1;
	struct svg s = {0};
	struct svg_chart c;
	char title[256], label[64];
	size_t m = 0;

	if (!x || !tx || !rx) {
		free(x);
		free(tx);
		free(rx);
		fg_err("record plot %s: out of memory", path);
		return -1;
	}
	/* the lines whose rates were measured; x from the recording's first line */
	for (size_t i = 0; i < n; i++) {
		xmax = FG_MAX(xmax, p[i].t - p[0].t);
		if (!p[i].rated)
			continue;
		x[m] = p[i].t - p[0].t;
		tx[m] = p[i].tx_pps;
		rx[m] = p[i].rx_pps;
		ymax = FG_MAX(ymax, FG_MAX(tx[m], rx[m]));
		m++;
	}
	snprintf(title, sizeof(title), "frames per second in %s", name);
	svg_chart_init(&c, PLOT_W, PLOT_H, title, "seconds since the recording began", 0, xmax,
		       "frames per second", 0, ymax);
	svg_begin(&s, &c);
	/* each run's end, where its final figures were taken */
	for (size_t i = 0; i < n; i++)
		if (p[i].end && p[i].run_id) {
			snprintf(label, sizeof(label), "end of run %" PRIu64, p[i].run_id);
			svg_vline(&s, &c, p[i].t - p[0].t, "#999999", label);
		}
	svg_series(&s, &c, x, tx, m, PLOT_LINE, "tx_pps");
	svg_series(&s, &c, x, rx, m, PLOT_ALT, "rx_pps");
	svg_legend(&s, &c, 0, PLOT_LINE, "tx frames/s (global tx_pps)");
	svg_legend(&s, &c, 1, PLOT_ALT, "rx frames/s (global rx_pps)");
	svg_legend(&s, &c, 2, "#999999", "a run's end");
	free(x);
	free(tx);
	free(rx);
	return plot_write_as("record plot", path, &s);
}
