/*
 * otg_metrics.c — POST /monitor/metrics: the model's port and flow
 * metrics from flowgen's own figures. Ports: the statistics module's
 * counters and rates (stats_get: frames, bytes with the FCS as a frame
 * size counts it, rates measured over the sampler's interval, link,
 * capture). Flows: the streams engine's per-stream rows (run_latency_rows:
 * frames and their bytes sent and received, loss, latency: the engine
 * counts each stream's bytes as it sends and receives its frames), and
 * rates as the change of the counts between two requests over the time
 * between them. Nothing is computed from a requested rate or a frame
 * size. Runs on the console's thread.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture.h"
#include "otg_int.h"
#include "port.h"
#include "run.h"
#include "stats.h"
#include "tsc.h"

static const char *const port_columns[] = {
    "transmit",	     "location",      "link",	     "capture",	       "frames_tx",
    "frames_rx",     "bytes_tx",      "bytes_rx",    "frames_tx_rate", "frames_rx_rate",
    "bytes_tx_rate", "bytes_rx_rate", "last_change", "speed",	       NULL};
/* names of the model's that flowgen cannot answer (a metrics reply has no
 * warnings: asking for one is an Error naming it) */
static const char *const port_refused[] = {"last_change", NULL};
static const char *const port_refused_why[] = {
    "not supported: flowgen keeps no time of a port's last change"};
static const char *const no_refused[] = {NULL};

static const char *const tagged_columns[] = {"frames_tx",      "frames_rx",	 "bytes_tx",
					     "bytes_rx",       "frames_tx_rate", "frames_rx_rate",
					     NULL};

static const char *const flow_columns[] = {"transmit",	     "frames_tx",      "frames_rx",
					   "bytes_tx",	     "bytes_rx",       "frames_tx_rate",
					   "frames_rx_rate", "tx_l1_rate_bps", "rx_l1_rate_bps",
					   "tx_rate_bytes",  "rx_rate_bytes",  "tx_rate_bps",
					   "rx_rate_bps",    "tx_rate_kbps",   "rx_rate_kbps",
					   "tx_rate_mbps",   "rx_rate_mbps",   NULL};

/* The counts of each flow at the previous request, for its rates. */
struct flow_prev {
	uint64_t tx, rx, btx, brx; /* frames, bytes */
	double t, tx_fps, rx_fps, tx_Bps, rx_Bps;
	bool have;
};
static struct flow_prev prev[OTG_MAX_FLOWS];
static const json_t *prev_config;

/* names: the requested column names, checked against the model's; one
 * flowgen refuses (refused, with why) fails naming it. */
static int columns(const json_t *req, const char *path, const char *key, const char *const *model,
		   const char *const *refused, const char *const *why, const json_t **out,
		   char *err, size_t errlen)
{
	struct otg_err e = {err, errlen};
	char fp[96];
	int bad;

	*out = otg_get(&e, path, req, key, JSON_ARRAY, &bad);
	if (bad)
		return bad;
	for (size_t i = 0; i < json_array_size(*out); i++) {
		const json_t *v = json_array_get(*out, i);
		size_t k;

		for (k = 0; json_is_string(v) && model[k] && strcmp(model[k], json_string_value(v));
		     k++)
			;
		snprintf(fp, sizeof(fp), "%s.%s[%zu]", path, key, i);
		if (!json_is_string(v) || !model[k])
			return otg_fail(&e, fp, "not one of the model's names");
		for (k = 0; refused[k]; k++)
			if (!strcmp(refused[k], json_string_value(v)))
				return otg_fail(&e, fp, "%s: %s", refused[k], why[k]);
	}
	return 0;
}

static bool want(const json_t *cols, const char *name)
{
	if (!json_array_size(cols))
		return true;
	for (size_t i = 0; i < json_array_size(cols); i++)
		if (!strcmp(json_string_value(json_array_get(cols, i)), name))
			return true;
	return false;
}

static void put_u64(json_t *o, const json_t *cols, const char *k, uint64_t v)
{
	if (want(cols, k))
		json_object_set_new(o, k, json_integer((json_int_t)v));
}

static void put_num(json_t *o, const json_t *cols, const char *k, double v)
{
	if (want(cols, k))
		json_object_set_new(o, k, json_real(isfinite(v) ? v : 0));
}

static void put_str(json_t *o, const json_t *cols, const char *k, const char *v)
{
	if (want(cols, k))
		json_object_set_new(o, k, json_string(v));
}

/* Does flowgen port p send traffic now? */
static bool port_sends(const struct otg_state *st, int p)
{
	if (!run_active() || st->paused)
		return false;
	if (!st->running)
		return true; /* a run of the console's */
	for (size_t i = 0; i < st->plan.n_flows; i++)
		if (st->picked[i] && st->plan.flows[i].tx == p)
			return true;
	return false;
}

static json_t *port_metric(const struct otg_state *st, const struct otg_port *pt,
			   const struct stats_snap *s, const struct cap_status *cs,
			   const json_t *cols)
{
	const struct stats_port_snap *o = &s->port[pt->index];
	json_t *m = json_pack("{s:s}", "name", pt->name);

	if (!m)
		return NULL;
	put_str(m, cols, "location", pt->location);
	put_str(m, cols, "link", o->link_up ? "up" : "down");
	put_str(m, cols, "capture",
		cs->running && ((cs->rx_ports | cs->tx_ports) >> pt->index & 1) ? "started"
										: "stopped");
	put_str(m, cols, "transmit", port_sends(st, pt->index) ? "started" : "stopped");
	put_u64(m, cols, "frames_tx", o->tx_pkts);
	put_u64(m, cols, "frames_rx", o->rx_pkts);
	put_u64(m, cols, "bytes_tx", o->tx_bytes + STATS_FCS_BYTES * o->tx_pkts);
	put_u64(m, cols, "bytes_rx", o->rx_bytes + STATS_FCS_BYTES * o->rx_pkts);
	put_num(m, cols, "frames_tx_rate", o->tx_pps);
	put_num(m, cols, "frames_rx_rate", o->rx_pps);
	put_num(m, cols, "bytes_tx_rate", o->tx_bps / 8);
	put_num(m, cols, "bytes_rx_rate", o->rx_bps / 8);
	if (o->speed_mbps) /* the model's unit: kilobytes per second */
		put_u64(m, cols, "speed", (uint64_t)o->speed_mbps * 125);
	return m;
}

static int port_metrics(const json_t *req, json_t *resp, char *err, size_t errlen)
{
	struct otg_state *st = otg_state();
	struct otg_err e = {err, errlen};
	const json_t *cols, *names;
	struct stats_snap *s;
	struct cap_status cs;
	json_t *a = json_array();
	char fp[64];
	int bad;

	if (!a)
		return otg_fail(&e, "port", "out of memory");
	json_object_set_new(resp, "port_metrics", a);
	if (otg_keys(&e, "port", req, (const char *const[]){"port_names", "column_names", NULL}) ||
	    columns(req, "port", "column_names", port_columns, port_refused, port_refused_why,
		    &cols, err, errlen) ||
	    (names = otg_get(&e, "port", req, "port_names", JSON_ARRAY, &bad), bad))
		return -EINVAL;
	for (size_t i = 0; i < json_array_size(names); i++) {
		const json_t *v = json_array_get(names, i);

		snprintf(fp, sizeof(fp), "port.port_names[%zu]", i);
		if (!json_is_string(v) || otg_plan_port(&st->plan, json_string_value(v)) < 0)
			return otg_fail(&e, fp, "no such port");
	}
	s = malloc(sizeof(*s));
	if (!s)
		return otg_fail(&e, "port", "out of memory");
	stats_get(s);
	capture_status(&cs);
	for (size_t i = 0; i < st->plan.n_ports; i++) {
		const struct otg_port *pt = &st->plan.ports[i];
		bool pick = !json_array_size(names);

		for (size_t k = 0; !pick && k < json_array_size(names); k++)
			pick = !strcmp(json_string_value(json_array_get(names, k)), pt->name);
		if (pick)
			json_array_append_new(a, port_metric(st, pt, s, &cs, cols));
	}
	free(s);
	return 0;
}

/*
 * stopped once the run has ended, its receivers drained (the figures read
 * then are final), or, for a flow with a count, once it has sent it and
 * every frame has arrived (tx, rx frames): a client that polls until
 * every flow is stopped then reads final figures.
 */
static const char *flow_transmit_state(const struct otg_state *st, size_t i, uint64_t tx,
				       uint64_t rx)
{
	const struct otg_flow *fl = &st->plan.flows[i];

	if (!st->running || !st->picked[i] || !run_busy() ||
	    (fl->packets && tx >= fl->packets && rx >= tx))
		return "stopped";
	if (!run_active())
		return "started"; /* sent, its last frames still being received */
	return st->paused ? "paused" : "started";
}

/*
 * A flow's byte counts, with the FCS as its frame sizes count it: the
 * bytes of the frames its stream sent and received (the engine counts
 * them per stream, as it counts the frames) plus 4 per frame.
 */
static void flow_bytes(const struct stats_lat_row *r, uint64_t *tx, uint64_t *rx)
{
	*tx = r ? r->tx_bytes + STATS_FCS_BYTES * r->tx : 0;
	*rx = r ? r->rx_bytes + STATS_FCS_BYTES * r->rx : 0;
}

static json_t *flow_metric(const struct otg_state *st, size_t i, const struct stats_lat_row *r,
			   const json_t *cols, double t, bool tagged)
{
	const struct otg_flow *fl = &st->plan.flows[i];
	struct flow_prev *pv = &prev[i];
	uint64_t tx = r ? r->tx : 0, rx = r ? r->rx : 0, btx, brx;
	double txr, rxr, txb, rxb;
	json_t *m = json_pack("{s:s}", "name", fl->name);

	if (!m)
		return NULL;
	flow_bytes(r, &btx, &brx);
	for (size_t k = 0; k < st->plan.n_ports; k++) {
		if (st->plan.ports[k].index == fl->tx)
			json_object_set_new(m, "port_tx", json_string(st->plan.ports[k].name));
		if (st->plan.ports[k].index == fl->rx)
			json_object_set_new(m, "port_rx", json_string(st->plan.ports[k].name));
	}
	if (pv->have && t - pv->t >= 0.05 && tx >= pv->tx && rx >= pv->rx) {
		pv->tx_fps = (double)(tx - pv->tx) / (t - pv->t);
		pv->rx_fps = (double)(rx - pv->rx) / (t - pv->t);
		pv->tx_Bps = (double)(btx - pv->btx) / (t - pv->t);
		pv->rx_Bps = (double)(brx - pv->brx) / (t - pv->t);
	} else if (!pv->have || tx < pv->tx || rx < pv->rx) {
		pv->tx_fps = pv->rx_fps = pv->tx_Bps = pv->rx_Bps = 0; /* first request, or a new run */
	}
	if (!pv->have || t - pv->t >= 0.05 || tx < pv->tx || rx < pv->rx)
		*pv = (struct flow_prev){tx,	     rx,	 btx,	     brx,	 t,
					 pv->tx_fps, pv->rx_fps, pv->tx_Bps, pv->rx_Bps, true};
	txr = pv->tx_fps;
	rxr = pv->rx_fps;
	txb = pv->tx_Bps;
	rxb = pv->rx_Bps;
	put_str(m, cols, "transmit", flow_transmit_state(st, i, tx, rx));
	put_u64(m, cols, "frames_tx", tx);
	put_u64(m, cols, "frames_rx", rx);
	put_u64(m, cols, "bytes_tx", btx);
	put_u64(m, cols, "bytes_rx", brx);
	put_num(m, cols, "frames_tx_rate", txr);
	put_num(m, cols, "frames_rx_rate", rxr);
	put_num(m, cols, "tx_l1_rate_bps", (txb + txr * STATS_L1_BYTES) * 8);
	put_num(m, cols, "rx_l1_rate_bps", (rxb + rxr * STATS_L1_BYTES) * 8);
	put_num(m, cols, "tx_rate_bytes", txb);
	put_num(m, cols, "rx_rate_bytes", rxb);
	put_num(m, cols, "tx_rate_bps", txb * 8);
	put_num(m, cols, "rx_rate_bps", rxb * 8);
	put_num(m, cols, "tx_rate_kbps", txb * 8e-3);
	put_num(m, cols, "rx_rate_kbps", rxb * 8e-3);
	put_num(m, cols, "tx_rate_mbps", txb * 8e-6);
	put_num(m, cols, "rx_rate_mbps", rxb * 8e-6);
	json_object_set_new(m, "loss",
			    json_real(tx && r ? 100.0 * (double)r->lost / (double)tx : 0));
	if (fl->latency && r && rx && isfinite(r->min_us) && isfinite(r->avg_us))
		json_object_set_new(m, "latency",
				    json_pack("{s:f, s:f, s:f}", "minimum_ns", r->min_us * 1e3,
					      "maximum_ns", r->max_us * 1e3, "average_ns",
					      r->avg_us * 1e3));
	/* a config's metric tags are refused: a flow has no tagged metrics */
	if (tagged)
		json_object_set_new(m, "tagged_metrics", json_array());
	return m;
}

/*
 * flow.tagged_metrics: include (default true), include_empty_metrics,
 * metric_names, filters, checked against the model. The metrics of a
 * flow's tags: none, since a config's metric tags are refused, so the
 * answer is an empty tagged_metrics per flow when include is true.
 */
static int tagged_request(const json_t *req, bool *tagged, char *err, size_t errlen)
{
	static const char *const keys[] = {"include", "include_empty_metrics", "metric_names",
					   "filters", NULL};
	struct otg_err e = {err, errlen};
	const char *path = "flow.tagged_metrics";
	const json_t *cols;
	int bad;
	const json_t *tm = otg_get(&e, "flow", req, "tagged_metrics", JSON_OBJECT, &bad);

	*tagged = false;
	if (bad)
		return bad;
	if (!tm)
		return 0;
	if (otg_keys(&e, path, tm, keys) ||
	    (otg_get(&e, path, tm, "include", JSON_TRUE, &bad), bad) ||
	    (otg_get(&e, path, tm, "include_empty_metrics", JSON_TRUE, &bad), bad) ||
	    (otg_get(&e, path, tm, "filters", JSON_ARRAY, &bad), bad) ||
	    columns(tm, path, "metric_names", tagged_columns, no_refused, NULL, &cols, err,
		    errlen))
		return -EINVAL;
	*tagged = !json_is_false(json_object_get(tm, "include"));
	return 0;
}

static int flow_metrics(const json_t *req, json_t *resp, char *err, size_t errlen)
{
	struct otg_state *st = otg_state();
	struct otg_err e = {err, errlen};
	struct stats_lat_row *rows;
	const json_t *cols, *names;
	json_t *a = json_array();
	int bad, n;
	bool tagged;
	double t = (double)fg_mono_ns() / 1e9;
	char fp[64];

	if (!a)
		return otg_fail(&e, "flow", "out of memory");
	json_object_set_new(resp, "flow_metrics", a);
	if (otg_keys(&e, "flow", req,
		     (const char *const[]){"flow_names", "metric_names", "tagged_metrics", NULL}) ||
	    columns(req, "flow", "metric_names", flow_columns, no_refused, NULL, &cols, err,
		    errlen) ||
	    (names = otg_get(&e, "flow", req, "flow_names", JSON_ARRAY, &bad), bad) ||
	    tagged_request(req, &tagged, err, errlen))
		return -EINVAL;
	for (size_t i = 0; i < json_array_size(names); i++) {
		const json_t *v = json_array_get(names, i);

		snprintf(fp, sizeof(fp), "flow.flow_names[%zu]", i);
		if (!json_is_string(v) || otg_plan_flow(&st->plan, json_string_value(v)) < 0)
			return otg_fail(&e, fp, "no such flow");
	}
	if (prev_config != st->config) {
		memset(prev, 0, sizeof(prev));
		prev_config = st->config;
	}
	rows = calloc(OTG_MAX_FLOWS * 2, sizeof(*rows));
	if (!rows)
		return otg_fail(&e, "flow", "out of memory");
	n = st->running || run_busy() ? run_latency_rows(rows, OTG_MAX_FLOWS * 2) : 0;
	for (size_t i = 0; i < st->plan.n_flows; i++) {
		const struct otg_flow *fl = &st->plan.flows[i];
		const struct stats_lat_row *r = NULL;
		bool pick = !json_array_size(names);

		for (size_t k = 0; !pick && k < json_array_size(names); k++)
			pick = !strcmp(json_string_value(json_array_get(names, k)), fl->name);
		for (int k = 0; st->picked[i] && k < n && !r; k++)
			if (!strcmp(rows[k].stream, fl->stream) && rows[k].port == fl->rx)
				r = &rows[k];
		if (pick)
			json_array_append_new(a, flow_metric(st, i, r, cols, t, tagged));
	}
	free(rows);
	return 0;
}

int otg_metrics(const json_t *req, json_t **resp, char *err, size_t errlen)
{
	static const char *const names[] = {"", "port", "flow", NULL};
	struct otg_err e = {err, errlen};
	const char *k;
	json_t *v, *sub;
	int ch, rc;

	*resp = NULL;
	v = json_object_get(req, "choice");
	if (json_is_string(v) && strcmp(json_string_value(v), "port") &&
	    strcmp(json_string_value(v), "flow"))
		return otg_fail(&e, "choice",
				"'%.64s' not supported: flowgen reports port and flow "
				"metrics",
				json_string_value(v));
	if (otg_choice(&e, "metrics_request", req, names, 1, &ch))
		return -EINVAL;
	json_object_foreach((json_t *)req, k, v)
	{
		(void)v;
		if (strcmp(k, "choice") && strcmp(k, "port") && strcmp(k, "flow"))
			return otg_fail(&e, k,
					"not supported: flowgen reports port and flow metrics");
	}
	sub = json_object_get(req, names[ch]);
	if (sub && !json_is_object(sub))
		return otg_fail(&e, names[ch], "must be an object");
	*resp = json_pack("{s:s}", "choice", ch == 1 ? "port_metrics" : "flow_metrics");
	if (!*resp)
		return otg_fail(&e, "metrics_request", "out of memory");
	if (!sub)
		sub = json_object();
	else
		json_incref(sub);
	rc =
	    ch == 1 ? port_metrics(sub, *resp, err, errlen) : flow_metrics(sub, *resp, err, errlen);
	json_decref(sub);
	if (rc) {
		json_decref(*resp);
		*resp = NULL;
	}
	return rc;
}
