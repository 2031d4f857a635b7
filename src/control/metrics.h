/*
 * metrics.h — flowgen's figures for Prometheus (flowgen(8), API, "GET
 * /metrics"): the statistics `stats --json` shows, as counters and
 * gauges with the labels instance, port, stream, template, group (and
 * side, reason, error, worker, test where a figure has them), and the
 * per-stream latency as Prometheus histograms cut at powers of two of
 * flowgen's own latency bins (lat.h, lat_pow2).
 *
 * A scrape reads what `stats` reads: the workers' counter blocks with
 * relaxed loads and the streams' published snapshots (streams_ctl.c),
 * under the statistics' short locks; it never waits for a command and
 * never writes to a worker.
 *
 * Context: control, any thread (an HTTP thread of the API).
 *
 * Included by: control and api.
 */
#ifndef FG_METRICS_H
#define FG_METRICS_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Write the exposition to f: OpenMetrics text when openmetrics, else
 * Prometheus' text format 0.0.4; instance labels every sample. 0, or
 * -ENOMEM / -EIO.
 */
int metrics_write(FILE *f, bool openmetrics, const char *instance);

#endif
