/*
 * otg_plan.c — an OTG Config (the `POST /config` body) translated into a
 * plan for the streams engine: ports by location (a flowgen port number
 * or its interface), one stream per flow (tx port to its pair, the
 * packet headers of otg_hdr.c, a fixed size or the one imix table, a
 * rate, the run's duration, latency), and the captures. What the model
 * has and the engine cannot do fails with the path of the field
 * ("flows[1].size.increment: not supported: ..."); what is harmless to
 * ignore becomes a warning. Pure: no DPDK, no globals (otg_int.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otg_int.h"

#define PATH_LEN 320

void otg_plan_warn(struct otg_plan *pl, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	if (pl->n_warnings >= OTG_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pl->warnings[pl->n_warnings] = strdup(buf);
	if (pl->warnings[pl->n_warnings])
		pl->n_warnings++;
}

void otg_plan_free(struct otg_plan *pl)
{
	free(pl->ports);
	free(pl->flows);
	free(pl->caps);
	for (size_t i = 0; i < pl->n_warnings; i++)
		free(pl->warnings[i]);
	memset(pl, 0, sizeof(*pl));
}

int otg_plan_flow(const struct otg_plan *pl, const char *name)
{
	for (size_t i = 0; i < pl->n_flows; i++)
		if (!strcmp(pl->flows[i].name, name))
			return (int)i;
	return -1;
}

int otg_plan_port(const struct otg_plan *pl, const char *name)
{
	for (size_t i = 0; i < pl->n_ports; i++)
		if (!strcmp(pl->ports[i].name, name))
			return (int)i;
	return -1;
}

/* --- ports -------------------------------------------------------------------------- */

/* A location: a port number, its interface spec, or its kernel interface. */
static int port_locate(const struct otg_env *env, const char *loc)
{
	char *end;
	long v;

	if (*loc >= '0' && *loc <= '9') {
		v = strtol(loc, &end, 10);
		if (!*end && v < env->nports)
			return (int)v;
	}
	for (int p = 0; p < env->nports; p++)
		if (!strcmp(env->iface[p], loc) ||
		    (env->kiface[p][0] && !strcmp(env->kiface[p], loc)))
			return p;
	return -1;
}

static int plan_ports(struct otg_err *e, const json_t *cfg, const struct otg_env *env,
		      struct otg_plan *pl)
{
	static const char *const keys[] = {"name", "location", NULL};
	char path[PATH_LEN];
	int bad;
	const json_t *a = otg_get(e, "ports", cfg, "ports", JSON_ARRAY, &bad);
	size_t n = json_array_size(a);

	if (bad)
		return bad;
	if (n > (size_t)env->nports)
		return otg_fail(e, "ports", "%zu ports, flowgen has %d", n, env->nports);
	pl->ports = calloc(n ? n : 1, sizeof(*pl->ports));
	if (!pl->ports)
		return otg_fail(e, "ports", "out of memory");
	for (size_t i = 0; i < n; i++) {
		const json_t *o = json_array_get(a, i);
		struct otg_port *pt = &pl->ports[i];

		otg_pathf(path, sizeof(path), "ports[%zu]", i);
		if (!json_is_object(o))
			return otg_fail(e, path, "must be an object");
		if (otg_keys(e, path, o, keys) ||
		    otg_get_str(e, path, o, "name", "", pt->name, sizeof(pt->name)) ||
		    otg_get_str(e, path, o, "location", "", pt->location, sizeof(pt->location)))
			return -EINVAL;
		if (!pt->name[0])
			return otg_fail(e, path, "name: required");
		if (otg_plan_port(pl, pt->name) >= 0)
			return otg_fail(e, path, "name: '%s' is not unique", pt->name);
		if (!pt->location[0])
			snprintf(pt->location, sizeof(pt->location), "%zu", i);
		pt->index = port_locate(env, pt->location);
		if (pt->index < 0)
			return otg_fail(e, path,
					"location: '%s' is none of flowgen's ports (a "
					"number 0..%d or an interface of the config)",
					pt->location, env->nports - 1);
		for (size_t j = 0; j < i; j++)
			if (pl->ports[j].index == pt->index)
				return otg_fail(e, path, "location: port %d is ports[%zu] already",
						pt->index, j);
		pl->n_ports++;
	}
	return 0;
}

/* The flowgen port of the OTG port named by obj[key]. */
static int port_ref(struct otg_err *e, const char *path, const struct otg_plan *pl, const json_t *v,
		    int *port)
{
	int i;

	if (!json_is_string(v))
		return otg_fail(e, path, "must be a port name");
	i = otg_plan_port(pl, json_string_value(v));
	if (i < 0)
		return otg_fail(e, path, "no port named '%.64s'", json_string_value(v));
	*port = pl->ports[i].index;
	return 0;
}

/* --- flows -------------------------------------------------------------------------- */

static int flow_txrx(struct otg_err *e, const char *path, const json_t *f,
		     const struct otg_env *env, const struct otg_plan *pl, struct otg_flow *fl)
{
	static const char *const names[] = {"", "port", "device", NULL};
	static const char *const keys[] = {"choice", "port", "device", NULL};
	static const char *const pkeys[] = {"tx_name", "rx_name", "rx_names", NULL};
	char fp[PATH_LEN], ip[PATH_LEN];
	int bad, ch, rx;
	const json_t *t = otg_get(e, path, f, "tx_rx", JSON_OBJECT, &bad), *p, *rxs, *one;

	otg_pathf(fp, sizeof(fp), "%s.tx_rx", path);
	if (bad)
		return bad;
	if (!t)
		return otg_fail(e, fp, "required");
	if (otg_keys(e, fp, t, keys) || otg_choice(e, fp, t, names, 1, &ch))
		return -EINVAL;
	if (ch == 2)
		return otg_fail(e, fp, "device: not supported: flowgen emulates no devices");
	p = otg_get(e, fp, t, "port", JSON_OBJECT, &bad);
	otg_pathf(fp, sizeof(fp), "%s.tx_rx.port", path);
	if (bad)
		return bad;
	if (!p || !json_object_get(p, "tx_name"))
		return otg_fail(e, fp, "tx_name: required");
	if (otg_keys(e, fp, p, pkeys))
		return -EINVAL;
	otg_pathf(ip, sizeof(ip), "%s.tx_name", fp);
	if (port_ref(e, ip, pl, json_object_get(p, "tx_name"), &fl->tx))
		return -EINVAL;
	if ((fl->tx ^ 1) >= env->nports)
		return otg_fail(e, ip, "port %d has no pair (port %d)", fl->tx, fl->tx ^ 1);
	fl->rx = fl->tx ^ 1;
	rxs = otg_get(e, fp, p, "rx_names", JSON_ARRAY, &bad);
	if (bad)
		return bad;
	one = json_object_get(p, "rx_name");
	if (json_array_size(rxs) > 1)
		return otg_fail(e, fp,
				"rx_names: not supported: a stream goes to one port, the "
				"pair of its tx port");
	otg_pathf(ip, sizeof(ip), "%s.%s", fp, json_array_size(rxs) ? "rx_names[0]" : "rx_name");
	if (json_array_size(rxs))
		one = json_array_get(rxs, 0);
	if (one && !json_is_null(one)) {
		if (port_ref(e, ip, pl, one, &rx))
			return -EINVAL;
		if (rx != fl->rx)
			return otg_fail(e, ip, "not supported: port %d sends to its pair, port %d",
					fl->tx, fl->rx);
	}
	return 0;
}

/* The predefined size distributions of the model, weights x100. */
struct imix_def {
	const char *name;
	struct units_imix_entry t[4];
	size_t n;
};
static const struct imix_def imix_defs[] = {
    {"imix", {{64, 7}, {570, 4}, {1518, 1}}, 3},
    {"ipsec_imix", {{90, 5867}, {92, 200}, {594, 2366}, {1418, 1567}}, 4},
    {"ipv6_imix", {{60, 5867}, {496, 200}, {594, 2366}, {1518, 1567}}, 4},
    {"standard_imix", {{58, 5867}, {62, 200}, {594, 2366}, {1518, 1567}}, 4},
    {"tcp_imix", {{90, 5867}, {92, 200}, {594, 2366}, {1518, 1567}}, 4},
};

static uint32_t gcd32(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* weight_pairs custom: float weights as whole numbers in the same ratio. */
/* Why a flow's frames start at their floor: its headers, the signature
 * and the FCS (FG_PROF_FRAME_MIN_OF). */
static const char *size_why(const struct otg_flow *fl)
{
	static const char *const why[2][3] = {
	    {" (Ethernet, IPv4, UDP, signature, FCS)", " (Ethernet, IPv4, TCP, signature, FCS)",
	     " (Ethernet, IPv4, ICMP, signature, FCS)"},
	    {" (Ethernet, IPv6, UDP, signature, FCS)", " (Ethernet, IPv6, TCP, signature, FCS)",
	     " (Ethernet, IPv6, ICMPv6, signature, FCS)"},
	};
	int k = fl->proto == PROF_L4_TCP ? 1 : fl->proto == PROF_L4_ICMP ? 2 : 0;

	return why[fl->v6][k];
}

static int imix_custom(struct otg_err *e, const char *path, const json_t *a,
		       struct units_imix_entry *t, size_t *n)
{
	static const char *const keys[] = {"size", "weight", NULL};
	char fp[PATH_LEN];
	double w[FG_PROF_MAX_IMIX], wmax = 0, m;
	uint64_t size;
	uint32_t g = 0;

	*n = json_array_size(a);
	if (!*n || *n > FG_PROF_MAX_IMIX)
		return otg_fail(e, path, "not supported: 1 to %d sizes", FG_PROF_MAX_IMIX);
	for (size_t i = 0; i < *n; i++) {
		const json_t *o = json_array_get(a, i);

		otg_pathf(fp, sizeof(fp), "%s[%zu]", path, i);
		if (!json_is_object(o))
			return otg_fail(e, fp, "must be an object");
		if (otg_keys(e, fp, o, keys) ||
		    otg_get_uint(e, fp, o, "size", 12, 65535, 64, &size) ||
		    otg_get_num(e, fp, o, "weight", 0, 1e9, 1, &w[i]))
			return -EINVAL;
		if (!(w[i] > 0))
			return otg_fail(e, fp, "weight: must be above 0");
		t[i].size = (uint32_t)size;
		wmax = FG_MAX(wmax, w[i]);
	}
	/* the smallest power of ten that makes every weight whole, else the
	 * ratio rounded to 1,000,000 for the largest (the table's limit) */
	for (m = 1; m <= 1e6; m *= 10) {
		size_t i;

		for (i = 0;
		     i < *n && fabs(w[i] * m - floor(w[i] * m + 0.5)) < 1e-6 && w[i] * m <= 1e6;
		     i++)
			;
		if (i == *n)
			break;
	}
	for (size_t i = 0; i < *n; i++) {
		double v = m <= 1e6 ? floor(w[i] * m + 0.5) : floor(w[i] / wmax * 1e6 + 0.5);

		t[i].weight = v < 1 ? 1 : (uint32_t)v;
		g = gcd32(g, t[i].weight);
	}
	for (size_t i = 0; i < *n; i++)
		t[i].weight /= g;
	return 0;
}

static int flow_imix(struct otg_err *e, const char *path, const json_t *wp, struct otg_plan *pl,
		     struct otg_flow *fl, size_t fi)
{
	static const char *const names[] = {"", "predefined", "custom", NULL};
	static const char *const keys[] = {"choice", "predefined", "custom", NULL};
	struct units_imix_entry t[FG_PROF_MAX_IMIX];
	char pre[32];
	size_t n = 0;
	int ch;

	if (otg_keys(e, path, wp, keys) || otg_choice(e, path, wp, names, 1, &ch))
		return -EINVAL;
	if (ch == 2) {
		char fp[PATH_LEN];

		otg_pathf(fp, sizeof(fp), "%s.custom", path);
		if (imix_custom(e, fp, json_object_get(wp, "custom"), t, &n))
			return -EINVAL;
	} else {
		size_t i;

		if (otg_get_str(e, path, wp, "predefined", "imix", pre, sizeof(pre)))
			return -EINVAL;
		for (i = 0; i < FG_ARRAY_SIZE(imix_defs) && strcmp(imix_defs[i].name, pre); i++)
			;
		if (i == FG_ARRAY_SIZE(imix_defs))
			return otg_fail(e, path, "predefined: '%s' is not one of the model's", pre);
		n = imix_defs[i].n;
		memcpy(t, imix_defs[i].t, n * sizeof(t[0]));
	}
	for (size_t i = 0; i < n; i++)
		if (t[i].size < (FG_PROF_FRAME_MIN_OF(fl->proto, fl->v6)) ||
		    t[i].size > FG_PROF_FRAME_MAX)
			return otg_fail(e, path,
					"not supported: size %u: flowgen sends %u to %u "
					"bytes%s",
					t[i].size, FG_PROF_FRAME_MIN_OF(fl->proto, fl->v6),
					FG_PROF_FRAME_MAX, size_why(fl));
	if (pl->n_imix && (pl->n_imix != n || memcmp(pl->imix, t, n * sizeof(t[0]))))
		return otg_fail(e, path,
				"not supported: the imix flows of a config share one table "
				"(flows[%zu]'s is another)",
				fi);
	memcpy(pl->imix, t, n * sizeof(t[0]));
	pl->n_imix = n;
	fl->imix = true;
	return 0;
}

/*
 * `size.increment` {start, end, step} or `size.random` {min, max}: the
 * stream's `frame: {range, mode: inc|rand, step}` (flowgen-profile(5)).
 */
static int flow_size_range(struct otg_err *e, const char *path, const json_t *s, bool rnd,
			   struct otg_flow *fl)
{
	static const char *const ikeys[] = {"start", "end", "step", NULL};
	static const char *const rkeys[] = {"min", "max", NULL};
	const char *key = rnd ? "random" : "increment";
	unsigned lo = FG_PROF_FRAME_MIN_OF(fl->proto, fl->v6);
	char fp[PATH_LEN];
	uint64_t a, b, step = 1;
	int bad;
	const json_t *o = otg_get(e, path, s, key, JSON_OBJECT, &bad);

	otg_pathf(fp, sizeof(fp), "%s.%s", path, key);
	if (bad)
		return bad;
	if (otg_keys(e, fp, o, rnd ? rkeys : ikeys) ||
	    otg_get_uint(e, fp, o, rnd ? "min" : "start", 0, UINT32_MAX, 64, &a) ||
	    otg_get_uint(e, fp, o, rnd ? "max" : "end", 0, UINT32_MAX, 1518, &b) ||
	    (!rnd && otg_get_uint(e, fp, o, "step", 1, UINT32_MAX, 1, &step)))
		return -EINVAL;
	if (a < lo || b > FG_PROF_FRAME_MAX)
		return otg_fail(e, fp,
				"not supported: %" PRIu64 " to %" PRIu64 ": flowgen sends %u "
				"to %u bytes%s",
				a, b, lo, FG_PROF_FRAME_MAX, size_why(fl));
	if (a >= b)
		return otg_fail(e, fp, "%s must be below %s", rnd ? "min" : "start",
				rnd ? "max" : "end");
	if (step > b - a)
		return otg_fail(e, fp, "step: %" PRIu64 " is more than end - start", step);
	fl->frames = (struct prof_field){(uint32_t)a, (uint32_t)b,
					 rnd ? PROF_VAR_RAND : PROF_VAR_INC};
	fl->frame_step = (uint32_t)step;
	fl->frame = 0;
	return 0;
}

static int flow_size(struct otg_err *e, const char *path, const json_t *f, struct otg_plan *pl,
		     struct otg_flow *fl, size_t *imix_flow)
{
	static const char *const names[] = {"",	      "fixed",	      "increment",
					    "random", "weight_pairs", NULL};
	static const char *const keys[] = {"choice", "fixed",	     "increment",
					   "random", "weight_pairs", NULL};
	char fp[PATH_LEN];
	int bad, ch;
	uint64_t v;
	const json_t *s = otg_get(e, path, f, "size", JSON_OBJECT, &bad), *wp;
	unsigned lo = FG_PROF_FRAME_MIN_OF(fl->proto, fl->v6);

	otg_pathf(fp, sizeof(fp), "%s.size", path);
	if (bad)
		return bad;
	if (s && (otg_keys(e, fp, s, keys) || otg_choice(e, fp, s, names, 1, &ch)))
		return -EINVAL;
	if (!s || ch == 1) {
		if (otg_get_uint(e, fp, s, "fixed", 0, UINT32_MAX, 64, &v))
			return -EINVAL;
		if (v < lo || v > FG_PROF_FRAME_MAX)
			return otg_fail(e, fp,
					"fixed: not supported: %" PRIu64 ": flowgen sends %u "
					"to %u bytes%s",
					v, lo, FG_PROF_FRAME_MAX, size_why(fl));
		fl->frame = (uint32_t)v;
		return 0;
	}
	if (ch == 2 || ch == 3)
		return flow_size_range(e, fp, s, ch == 3, fl);
	wp = otg_get(e, fp, s, "weight_pairs", JSON_OBJECT, &bad);
	if (bad)
		return bad;
	otg_pathf(fp, sizeof(fp), "%s.size.weight_pairs", path);
	if (flow_imix(e, fp, wp, pl, fl, *imix_flow))
		return -EINVAL;
	if (*imix_flow == SIZE_MAX)
		*imix_flow = (size_t)(fl - pl->flows);
	return 0;
}

static int flow_rate(struct otg_err *e, const char *path, const json_t *f, struct otg_flow *fl)
{
	static const char *const names[] = {"",	    "pps",  "bps",	  "kbps",
					    "mbps", "gbps", "percentage", NULL};
	static const double scale[] = {0, 1, 1, 1e3, 1e6, 1e9}; /* to frames or bits /s */
	static const uint64_t defs[] = {0, 1000, 1000000000, 1000000, 1000, 1};
	static const uint64_t mins[] = {0, 1, 672, 1, 1, 1};
	char fp[PATH_LEN];
	int bad, ch = 1;
	uint64_t v;
	double pct;
	const json_t *r = otg_get(e, path, f, "rate", JSON_OBJECT, &bad);

	otg_pathf(fp, sizeof(fp), "%s.rate", path);
	if (bad)
		return bad;
	if (r && (otg_keys(e, fp, r,
			   (const char *const[]){"choice", "pps", "bps", "kbps", "mbps", "gbps",
						 "percentage", NULL}) ||
		  otg_choice(e, fp, r, names, 1, &ch)))
		return -EINVAL;
	if (ch == 6) {
		if (otg_get_num(e, fp, r, "percentage", 0, 100, 100, &pct))
			return -EINVAL;
		if (!(pct > 0))
			return otg_fail(e, fp, "percentage: not supported: 0 (a stream sends)");
		fl->rate = (struct units_rate){.kind = UNITS_PCT, .value = pct};
		return 0;
	}
	if (otg_get_uint(e, fp, r, names[ch], mins[ch], ch == 5 ? UINT32_MAX : (uint64_t)1e15,
			 defs[ch], &v))
		return -EINVAL;
	fl->rate = (struct units_rate){.kind = ch == 1 ? UNITS_PPS : UNITS_BPS,
				       .value = (double)v * scale[ch]};
	fl->pps = ch == 1 ? (double)v : 0;
	return 0;
}

/* The duration of a flow, in seconds of the run (0: continuous). */
static int flow_duration(struct otg_err *e, const char *path, const json_t *f, struct otg_plan *pl,
			 struct otg_flow *fl)
{
	static const char *const names[] = {"",	     "fixed_packets", "fixed_seconds",
					    "burst", "continuous",    NULL};
	static const char *const keys[] = {"choice", "fixed_packets", "fixed_seconds",
					   "burst",  "continuous",    NULL};
	static const char *const sub[] = {"packets", "seconds", "gap", "delay", NULL};
	char fp[PATH_LEN];
	int bad, ch = 4;
	uint64_t gap;
	const json_t *d = otg_get(e, path, f, "duration", JSON_OBJECT, &bad), *m;

	otg_pathf(fp, sizeof(fp), "%s.duration", path);
	if (bad)
		return bad;
	if (d && (otg_keys(e, fp, d, keys) || otg_choice(e, fp, d, names, 4, &ch)))
		return -EINVAL;
	if (ch == 3)
		return otg_fail(e, fp, "burst: not supported: flowgen's streams are paced evenly");
	m = d ? otg_get(e, fp, d, names[ch], JSON_OBJECT, &bad) : NULL;
	if (bad)
		return bad;
	otg_pathf(fp, sizeof(fp), "%s.duration.%s", path, names[ch]);
	if (m &&
	    (otg_keys(e, fp, m, sub) || otg_get_uint(e, fp, m, "gap", 0, UINT32_MAX, 12, &gap)))
		return -EINVAL;
	if (m && gap != 12)
		otg_plan_warn(pl, "%s.gap: ignored: frames are paced evenly at the rate", fp);
	if (m && json_object_get(m, "delay"))
		otg_plan_warn(pl, "%s.delay: ignored: every flow starts with the run", fp);
	if (ch == 1)
		return otg_get_uint(e, fp, m, "packets", 1, UINT32_MAX, 1, &fl->packets) ? -EINVAL
											  : 0;
	if (ch == 2) {
		if (otg_get_num(e, fp, m, "seconds", 0, 1e7, 1, &fl->seconds))
			return -EINVAL;
		if (!(fl->seconds > 0))
			return otg_fail(e, fp, "seconds: must be above 0");
		/* at a rate in pps, the seconds are a count of frames: the
		 * stream stops by itself, whatever the other flows do */
		if (fl->pps > 0 && fl->seconds * fl->pps <= UINT32_MAX) {
			fl->packets = (uint64_t)FG_MAX(1.0, round(fl->seconds * fl->pps));
			fl->seconds = 0;
		}
	}
	return 0;
}

static int flow_metrics(struct otg_err *e, const char *path, const json_t *f, struct otg_plan *pl,
			struct otg_flow *fl)
{
	static const char *const keys[] = {"enable",  "loss",	     "timestamps",
					   "latency", "rx_tx_ratio", "predefined_metric_tags",
					   NULL};
	static const char *const lkeys[] = {"enable", "mode", NULL};
	char fp[PATH_LEN];
	int bad;
	const json_t *m = otg_get(e, path, f, "metrics", JSON_OBJECT, &bad), *l, *v;

	otg_pathf(fp, sizeof(fp), "%s.metrics", path);
	if (bad || !m)
		return bad;
	if (otg_keys(e, fp, m, keys))
		return -EINVAL;
	for (size_t i = 0; i < 3; i++)
		if (otg_get(e, fp, m, keys[i], JSON_TRUE, &bad), bad)
			return bad;
	fl->metrics = json_is_true(json_object_get(m, "enable"));
	/* every flow's frames carry the signature and are counted: a flow
	 * cannot go without its metrics, nor without its loss */
	if (json_is_false(json_object_get(m, "enable")))
		otg_plan_warn(pl,
			      "%s.enable: false ignored: every flow's frames carry flowgen's "
			      "signature and its metrics are reported",
			      fp);
	if (json_is_false(json_object_get(m, "loss")))
		otg_plan_warn(pl, "%s.loss: false ignored: every flow's loss is reported", fp);
	if (json_is_true(json_object_get(m, "timestamps")))
		otg_plan_warn(pl, "%s.timestamps: first and last timestamps are not reported", fp);
	if (json_object_get(m, "rx_tx_ratio") || json_object_get(m, "predefined_metric_tags"))
		otg_plan_warn(pl, "%s: rx_tx_ratio and predefined_metric_tags ignored", fp);
	l = otg_get(e, fp, m, "latency", JSON_OBJECT, &bad);
	otg_pathf(fp, sizeof(fp), "%s.metrics.latency", path);
	if (bad || !l)
		return bad;
	if (otg_keys(e, fp, l, lkeys) || (otg_get(e, fp, l, "enable", JSON_TRUE, &bad), bad) ||
	    (v = otg_get(e, fp, l, "mode", JSON_STRING, &bad), bad))
		return -EINVAL;
	if (v && strcmp(json_string_value(v), "store_forward") &&
	    strcmp(json_string_value(v), "cut_through"))
		return otg_fail(e, fp, "mode: must be store_forward or cut_through");
	fl->latency = json_is_true(json_object_get(l, "enable"));
	if (fl->latency && v && !strcmp(json_string_value(v), "cut_through"))
		otg_plan_warn(pl,
			      "%s.mode: latency is measured from the timestamp in the frame, "
			      "sent, to its receipt (cut_through ignored)",
			      fp);
	return 0;
}

/* The stream's name: the flow's when it is short and plain, else flowN. */
static void flow_stream_name(struct otg_plan *pl, struct otg_flow *fl, size_t i)
{
	size_t n = strlen(fl->name);
	bool plain = n && n < OTG_STREAM_NAME;

	for (size_t k = 0; plain && k < n; k++) {
		char c = fl->name[k];

		plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			(c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
	}
	for (size_t k = 0; plain && k < i; k++)
		plain = strcmp(pl->flows[k].stream, fl->name) != 0;
	if (plain)
		memcpy(fl->stream, fl->name, n + 1); /* n < OTG_STREAM_NAME */
	else
		snprintf(fl->stream, sizeof(fl->stream), "flow%zu", i);
	for (size_t k = 0; !plain && k < i; k++)
		if (!strcmp(pl->flows[k].stream, fl->stream))
			snprintf(fl->stream, sizeof(fl->stream), "otg_flow%zu", i);
}

static int plan_flow(struct otg_err *e, const json_t *f, const struct otg_env *env,
		     struct otg_plan *pl, size_t i, size_t *imix_flow)
{
	static const char *const keys[] = {"tx_rx",   "packet",	  "egress_packet", "size",
					   "rate",    "duration", "metrics",	   "name",
					   "payload", NULL};
	char path[PATH_LEN];
	struct otg_flow *fl = &pl->flows[i];
	struct otg_hdr_ctx hc = {.e = e, .pl = pl, .env = env, .fl = fl};

	otg_pathf(path, sizeof(path), "flows[%zu]", i);
	if (!json_is_object(f))
		return otg_fail(e, path, "must be an object");
	if (otg_keys(e, path, f, keys) ||
	    otg_get_str(e, path, f, "name", "", fl->name, sizeof(fl->name)))
		return -EINVAL;
	if (!fl->name[0])
		return otg_fail(e, path, "name: required");
	if (otg_plan_flow(pl, fl->name) >= 0 && otg_plan_flow(pl, fl->name) < (int)i)
		return otg_fail(e, path, "name: '%s' is not unique", fl->name);
	flow_stream_name(pl, fl, i);
	if (flow_txrx(e, path, f, env, pl, fl) || otg_hdr_packet(&hc, path, f) ||
	    flow_size(e, path, f, pl, fl, imix_flow) || flow_rate(e, path, f, fl) ||
	    flow_duration(e, path, f, pl, fl) || flow_metrics(e, path, f, pl, fl))
		return -EINVAL;
	if (json_object_get(f, "payload"))
		otg_plan_warn(pl, "%s.payload: ignored: the payload is flowgen's signature", path);
	if (json_array_size(json_object_get(f, "egress_packet")))
		otg_plan_warn(pl, "%s.egress_packet: ignored", path);
	return 0;
}

/*
 * The run's duration (-d). A flow with a count (fixed_packets, or
 * fixed_seconds at a rate in pps) stops by itself. A flow timed at a rate
 * in bps or percent stops with the run: such flows share one time, and do
 * not run beside continuous ones. 0: the run ends when every stream has
 * sent its count, or runs until stopped.
 */
static int plan_duration(struct otg_err *e, struct otg_plan *pl)
{
	char path[PATH_LEN];
	size_t timed = SIZE_MAX, cont = SIZE_MAX;

	for (size_t i = 0; i < pl->n_flows; i++) {
		const struct otg_flow *b = &pl->flows[i];

		if (b->packets)
			continue;
		otg_pathf(path, sizeof(path), "flows[%zu].duration", i);
		if (b->seconds > 0 && timed == SIZE_MAX)
			timed = i;
		else if (!(b->seconds > 0) && cont == SIZE_MAX)
			cont = i;
		if (timed != SIZE_MAX && cont != SIZE_MAX)
			return otg_fail(e, path,
					"not supported: flows[%zu] runs %g s at a rate not in pps "
					"(it stops with the run) and flows[%zu] continuously: give "
					"the timed flow its rate in pps",
					timed, pl->flows[timed].seconds, cont);
		if (b->seconds > 0 && fabs(pl->flows[timed].seconds - b->seconds) >
					  1e-9 * FG_MAX(b->seconds, 1.0))
			return otg_fail(e, path,
					"not supported: flows[%zu] runs %g s, this flow %g s, both at "
					"a rate not in pps (they stop with the run): give their "
					"rates in pps to time each on its own",
					timed, pl->flows[timed].seconds, b->seconds);
	}
	pl->duration_s = timed == SIZE_MAX ? 0 : pl->flows[timed].seconds;
	return 0;
}

static int plan_flows(struct otg_err *e, const json_t *cfg, const struct otg_env *env,
		      struct otg_plan *pl)
{
	int bad;
	const json_t *a = otg_get(e, "flows", cfg, "flows", JSON_ARRAY, &bad);
	size_t n = json_array_size(a), imix_flow = SIZE_MAX;

	if (bad)
		return bad;
	if (n > OTG_MAX_FLOWS)
		return otg_fail(e, "flows", "not supported: %zu flows, at most %d", n,
				OTG_MAX_FLOWS);
	pl->flows = calloc(n ? n : 1, sizeof(*pl->flows));
	if (!pl->flows)
		return otg_fail(e, "flows", "out of memory");
	for (size_t i = 0; i < n; i++) {
		if (plan_flow(e, json_array_get(a, i), env, pl, i, &imix_flow))
			return -EINVAL;
		pl->n_flows++;
	}
	return plan_duration(e, pl);
}

/* --- captures ----------------------------------------------------------------------- */

static int plan_capture(struct otg_err *e, const char *path, const json_t *o, struct otg_plan *pl,
			struct otg_capture *c)
{
	static const char *const keys[] = {"port_names", "name",	"format", "filters",
					   "overwrite",	 "packet_size", NULL};
	char fmt[16], fp[PATH_LEN];
	int bad, port;
	const json_t *pn;

	if (!json_is_object(o))
		return otg_fail(e, path, "must be an object");
	if (otg_keys(e, path, o, keys) ||
	    otg_get_str(e, path, o, "name", "", c->name, sizeof(c->name)) ||
	    otg_get_str(e, path, o, "format", "pcap", fmt, sizeof(fmt)) ||
	    (pn = otg_get(e, path, o, "port_names", JSON_ARRAY, &bad), bad) ||
	    (otg_get(e, path, o, "overwrite", JSON_TRUE, &bad), bad))
		return -EINVAL;
	if (!c->name[0])
		return otg_fail(e, path, "name: required");
	if (strcmp(fmt, "pcap") && strcmp(fmt, "pcapng"))
		return otg_fail(e, path, "format: must be pcap or pcapng");
	c->pcapng = !strcmp(fmt, "pcapng");
	if (json_array_size(json_object_get(o, "filters")))
		return otg_fail(e, path,
				"filters: not supported (the console's capture --filter "
				"takes a pcap-filter expression)");
	if (json_object_get(o, "packet_size"))
		otg_plan_warn(pl, "%s.packet_size: ignored: frames are captured whole", path);
	/* false is what flowgen does: nothing captured is ever overwritten */
	if (json_is_true(json_object_get(o, "overwrite")))
		otg_plan_warn(pl,
			      "%s.overwrite: true ignored: the capture keeps every frame from "
			      "the first until stopped (none is overwritten; what the workers "
			      "cannot copy in time is dropped and counted)",
			      path);
	if (!json_array_size(pn))
		return otg_fail(e, path, "port_names: required");
	for (size_t i = 0; i < json_array_size(pn); i++) {
		otg_pathf(fp, sizeof(fp), "%s.port_names[%zu]", path, i);
		if (port_ref(e, fp, pl, json_array_get(pn, i), &port))
			return -EINVAL;
		for (size_t k = 0; k < pl->n_caps; k++)
			if (pl->caps[k].port_mask >> port & 1)
				return otg_fail(e, fp, "port %d is in captures[%zu] already", port,
						k);
		c->port_mask |= 1u << port;
	}
	return 0;
}

static int plan_captures(struct otg_err *e, const json_t *cfg, struct otg_plan *pl)
{
	char path[PATH_LEN];
	int bad;
	const json_t *a = otg_get(e, "captures", cfg, "captures", JSON_ARRAY, &bad);
	size_t n = json_array_size(a);

	if (bad)
		return bad;
	pl->caps = calloc(n ? n : 1, sizeof(*pl->caps));
	if (!pl->caps)
		return otg_fail(e, "captures", "out of memory");
	for (size_t i = 0; i < n; i++) {
		otg_pathf(path, sizeof(path), "captures[%zu]", i);
		if (plan_capture(e, path, json_array_get(a, i), pl, &pl->caps[i]))
			return -EINVAL;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(pl->caps[k].name, pl->caps[i].name))
				return otg_fail(e, path, "name: '%s' is not unique",
						pl->caps[i].name);
		pl->n_caps++;
	}
	return 0;
}

int otg_plan_from_json(const json_t *cfg, const struct otg_env *env, struct otg_plan *pl, char *err,
		       size_t errlen)
{
	static const char *const keys[] = {"ports",
					   "lags",
					   "layer1",
					   "captures",
					   "devices",
					   "flows",
					   "events",
					   "options",
					   "lldp",
					   "stateful_flows",
					   "egress_only_tracking",
					   NULL};
	static const char *const refused[] = {
	    "lags", "layer1", "devices", "lldp", "egress_only_tracking", NULL};
	struct otg_err e = {err, errlen};
	int rc = -EINVAL;

	memset(pl, 0, sizeof(*pl));
	if (errlen)
		err[0] = 0;
	if (!json_is_object(cfg)) {
		otg_fail(&e, "config", "must be a JSON object");
		return -EINVAL;
	}
	if (otg_keys(&e, "config", cfg, keys))
		goto err_free;
	for (size_t i = 0; refused[i]; i++)
		if (json_array_size(json_object_get(cfg, refused[i]))) {
			otg_fail(&e, refused[i], "not supported by flowgen");
			goto err_free;
		}
	if (json_object_get(cfg, "stateful_flows")) {
		otg_fail(&e, "stateful_flows", "not supported (flowgen's flows profiles are YAML)");
		goto err_free;
	}
	if (json_object_size(json_object_get(cfg, "events")) ||
	    json_object_size(json_object_get(cfg, "options")))
		otg_plan_warn(pl, "events and options: ignored");
	if (plan_ports(&e, cfg, env, pl) || plan_flows(&e, cfg, env, pl) ||
	    plan_captures(&e, cfg, pl))
		goto err_free;
	return 0;
err_free:
	otg_plan_free(pl);
	return rc;
}
