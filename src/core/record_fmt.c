/*
 * record_fmt.c — the record's lines (record_fmt.h): the header the
 * recorder writes before each line's "stats" object, and the reading
 * side, pure: a line checked as a record line with jansson, a record read
 * line by line to the line `stats --from` asks for or to the points of
 * its last recording (`record plot`), lines that are no record line
 * skipped with a FILE:LINE warning, and a "stats" object turned back into
 * a struct stats_snap for the text tables. Run by the console's thread
 * (the commands) and the unit tests.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fails.h"
#include "json.h"
#include "offer.h"
#include "record_fmt.h"
#include "stats_snap.h"

const char *const record_reason_names[RECORD_REASON_COUNT] = {
    [RECORD_START] = "start", [RECORD_INTERVAL] = "interval", [RECORD_END] = "end",
    [RECORD_STOP] = "stop",   [RECORD_EXIT] = "exit",
};

void record_head_json(struct jw *j, const struct record_head *h)
{
	jw_num(j, "t", h->t, 6);
	jw_u64(j, "seq", h->seq);
	jw_str(j, "reason",
	       (unsigned)h->reason < RECORD_REASON_COUNT ? record_reason_names[h->reason] : NULL);
	if (h->run_id)
		jw_u64(j, "run_id", h->run_id);
	else
		jw_null(j, "run_id");
	jw_str(j, "state", h->state);
	jw_bool(j, "final", h->final);
}

/* ---- a line --------------------------------------------------------------- */

int record_parse(const char *line, size_t len, json_t **obj, char *why, size_t whylen)
{
	json_error_t e;
	json_t *o, *seq;

	*obj = NULL;
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	o = json_loadb(line, len, 0, &e);
	if (!o) {
		snprintf(why, whylen, "%s at column %d", e.text, e.column);
		return -1;
	}
	seq = json_object_get(o, "seq");
	if (!json_is_object(o))
		snprintf(why, whylen, "not a JSON object");
	else if (!json_is_number(json_object_get(o, "t")))
		snprintf(why, whylen, "no \"t\"");
	else if (!json_is_integer(seq) || json_integer_value(seq) < 0)
		snprintf(why, whylen, "no \"seq\"");
	else if (!json_is_boolean(json_object_get(o, "final")))
		snprintf(why, whylen, "no \"final\"");
	else if (!json_is_object(json_object_get(o, "stats")))
		snprintf(why, whylen, "no \"stats\" object");
	else {
		*obj = o;
		return 0;
	}
	json_decref(o);
	return -1;
}

static void skipped(const struct record_warn *w, const char *name, unsigned long lineno,
		    bool partial, const char *why)
{
	char msg[512];

	if (!w || !w->fn)
		return;
	snprintf(msg, sizeof(msg), "%s:%lu: skipped: %s (%s)", name, lineno,
		 partial ? "a partial last line, cut off while it was written"
			 : "not a record line",
		 why);
	w->fn(w->arg, msg);
}

/*
 * Each record line of f in turn to fn (which takes the reference), the
 * others skipped with a warning; blank lines are passed over. 0, -EIO,
 * or what fn returned when it was not 0.
 */
static int each_line(FILE *f, const char *name, const struct record_warn *w,
		     int (*fn)(void *arg, json_t *o, unsigned long lineno), void *arg)
{
	char *buf = NULL, why[256];
	size_t cap = 0;
	unsigned long lineno = 0;
	ssize_t n;
	int rc = 0;

	while (!rc && (n = getline(&buf, &cap, f)) >= 0) {
		json_t *o;
		bool blank = true;

		lineno++;
		for (ssize_t i = 0; i < n && blank; i++)
			blank = strchr(" \t\r\n", buf[i]) != NULL;
		if (blank)
			continue;
		if (record_parse(buf, (size_t)n, &o, why, sizeof(why)) != 0) {
			skipped(w, name, lineno, buf[n - 1] != '\n', why);
			continue;
		}
		rc = fn(arg, o, lineno);
	}
	free(buf);
	if (!rc && ferror(f))
		rc = -EIO;
	return rc;
}

static uint64_t seq_of(const json_t *o)
{
	return (uint64_t)json_integer_value(json_object_get(o, "seq"));
}

struct pick {
	const struct record_sel *sel;
	json_t *best;
	unsigned long lineno;
};

static int pick_one(void *arg, json_t *o, unsigned long lineno)
{
	struct pick *p = arg;

	if (p->sel && p->sel->by_seq && seq_of(o) != p->sel->seq) {
		json_decref(o);
		return 0;
	}
	json_decref(p->best);
	p->best = o;
	p->lineno = lineno;
	return 0;
}

int record_pick(FILE *f, const char *name, const struct record_sel *sel,
		const struct record_warn *w, json_t **line, unsigned long *lineno)
{
	struct pick p = {.sel = sel};
	int rc = each_line(f, name, w, pick_one, &p);

	*line = NULL;
	*lineno = 0;
	if (rc) {
		json_decref(p.best);
		return rc;
	}
	if (!p.best)
		return -ENOENT;
	*line = p.best;
	*lineno = p.lineno;
	return 0;
}

struct points {
	struct record_point *p;
	size_t n, cap;
};

/* A number member, or NAN when it is null or absent. */
static double num_or_nan(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int point_one(void *arg, json_t *o, unsigned long lineno)
{
	struct points *ps = arg;
	const json_t *g = json_object_get(json_object_get(o, "stats"), "global");
	const json_t *rid = json_object_get(o, "run_id");
	struct record_point *p;

	/* a recording begins at seq 0 (or where seq goes back): the last one counts */
	if (ps->n && (seq_of(o) == 0 || seq_of(o) <= ps->p[ps->n - 1].seq))
		ps->n = 0;
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 256;
		struct record_point *np = realloc(ps->p, cap * sizeof(*np));

		if (!np) {
			json_decref(o);
			return -ENOMEM;
		}
		ps->p = np;
		ps->cap = cap;
	}
	p = &ps->p[ps->n++];
	memset(p, 0, sizeof(*p));
	p->t = json_number_value(json_object_get(o, "t"));
	p->seq = seq_of(o);
	p->run_id = json_is_integer(rid) && json_integer_value(rid) > 0
			? (uint64_t)json_integer_value(rid)
			: 0;
	p->final = json_is_true(json_object_get(o, "final"));
	p->end = json_is_string(json_object_get(o, "reason")) &&
		 !strcmp(json_string_value(json_object_get(o, "reason")),
			 record_reason_names[RECORD_END]);
	p->tx_pps = num_or_nan(g, "tx_pps");
	p->rx_pps = num_or_nan(g, "rx_pps");
	p->rated = isfinite(p->tx_pps) && isfinite(p->rx_pps);
	p->line = lineno;
	json_decref(o);
	return 0;
}

int record_points(FILE *f, const char *name, const struct record_warn *w, struct record_point **pts,
		  size_t *n)
{
	struct points ps = {0};
	int rc = each_line(f, name, w, point_one, &ps);

	*pts = NULL;
	*n = 0;
	if (!rc && !ps.n)
		rc = -ENOENT;
	if (rc) {
		free(ps.p);
		return rc;
	}
	*pts = ps.p;
	*n = ps.n;
	return 0;
}

/* ---- a "stats" object as a snapshot ---------------------------------------- */

/* A counter member (a whole number, 0 or more); 0 when absent or null. */
static uint64_t ju(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v)
							       : 0;
}

/* A figure member; 0 when absent or null (not measured: the flags say so). */
static double jd(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0;
}

static bool jb(const json_t *o, const char *key) { return json_is_true(json_object_get(o, key)); }

static bool measured(const json_t *o, const char *key)
{
	return json_is_number(json_object_get(o, key));
}

static void jstr(const json_t *o, const char *key, char *buf, size_t len)
{
	const char *v = json_string_value(json_object_get(o, key));

	snprintf(buf, len, "%s", v ? v : "");
}

static void snap_global(const json_t *g, struct stats_snap *s)
{
	struct stats_global *o = &s->g;
	const char *limit = json_string_value(json_object_get(g, "offer_limit"));
	const json_t *signs = json_object_get(g, "offer_signs");

	o->tsc_hz = ju(g, "tsc_hz");
	o->tx_pps = jd(g, "tx_pps");
	o->rx_pps = jd(g, "rx_pps");
	o->tx_bps = jd(g, "tx_bps");
	o->rx_bps = jd(g, "rx_bps");
	o->tx_bps_l1 = jd(g, "tx_bps_l1");
	o->rx_bps_l1 = jd(g, "rx_bps_l1");
	o->tx_pkts = ju(g, "tx_pkts");
	o->rx_pkts = ju(g, "rx_pkts");
	o->drop_rate = jd(g, "drop_rate");
	o->cpu_measured = measured(g, "cpu_util");
	o->cpu_util = jd(g, "cpu_util");
	o->active_flows = ju(g, "active_flows");
	o->cps = jd(g, "cps");
	o->queue_full = ju(g, "queue_full");
	s->interval = jd(g, "interval");
	o->completed_cps = jd(g, "completed_cps");
	o->offered_pps = jd(g, "offered_pps");
	o->offered_cps = jd(g, "offered_cps");
	o->short_of_offer = jb(g, "short_of_offer");
	o->offer_limit = OFFER_LIMIT_UNKNOWN;
	for (int l = 0; limit && l < OFFER_LIMIT_COUNT; l++)
		if (!strcmp(limit, offer_limit_names[l]))
			o->offer_limit = l;
	o->offer_cpu = jd(signs, "cpu_util");
	o->offer_late = jd(signs, "late");
	o->offer_refused = jd(signs, "refused");
	o->offer_failed = jd(signs, "failed");
}

static void snap_port(const json_t *j, struct stats_port_snap *o)
{
	const char *from = json_string_value(json_object_get(j, "counters"));

	o->link_up = jb(j, "link");
	o->speed_mbps = (uint32_t)ju(j, "speed_mbps");
	o->tx_pkts = ju(j, "tx_pkts");
	o->rx_pkts = ju(j, "rx_pkts");
	o->tx_bytes = ju(j, "tx_bytes");
	o->rx_bytes = ju(j, "rx_bytes");
	o->rated = measured(j, "tx_pps");
	o->tx_pps = jd(j, "tx_pps");
	o->rx_pps = jd(j, "rx_pps");
	o->tx_bps = jd(j, "tx_bps");
	o->rx_bps = jd(j, "rx_bps");
	o->tx_bps_l1 = jd(j, "tx_bps_l1");
	o->line_util = jd(j, "line_util");
	o->oerrors = ju(j, "oerrors");
	o->ierrors = ju(j, "ierrors");
	o->imissed = ju(j, "imissed");
	o->rx_bad = ju(j, "rx_bad");
	o->rx_unknown = ju(j, "rx_unknown");
	o->tx_queue_full = ju(j, "tx_queue_full");
	o->mbuf_fail = ju(j, "mbuf_fail");
	o->rx_icmp_unreach = ju(j, "rx_icmp_unreach");
	o->rx_icmp_frag_needed = ju(j, "rx_icmp_frag_needed");
	o->icmp_err_unmatched = ju(j, "icmp_err_unmatched");
	o->icmp_err_invalid = ju(j, "icmp_err_invalid");
	o->icmp_err_kept = ju(j, "icmp_err_kept");
	o->icmp_mss_lowered = ju(j, "icmp_mss_lowered");
	o->from_nic = from && !strcmp(from, "nic");
}

/*
 * The failed flows by reason of a client or server object (its
 * fail_reasons, fails.h's names). A record written before the reasons
 * had one object keeps the client's under their keys of then, read
 * under the reason each is now (fail_retx then held the timeouts of
 * established connections too).
 */
static void snap_reasons(const json_t *j, uint64_t *fail, bool client)
{
	static const struct {
		const char *key;
		unsigned r;
	} old[] = {{"fail_no_reply", FG_FAIL_NO_REPLY},
		   {"fail_reset", FG_FAIL_RESET},
		   {"fail_retx", FG_FAIL_RETX},
		   {"fail_table_full", FG_FAIL_TABLE_FULL},
		   {"rx_payload_bad", FG_FAIL_PAYLOAD}};
	const json_t *o = json_object_get(j, "fail_reasons");

	for (unsigned r = 0; r < FG_FAIL_N; r++)
		fail[r] = ju(o, fails_name(r));
	if (o || !client)
		return;
	for (size_t i = 0; i < sizeof(old) / sizeof(old[0]); i++)
		fail[old[i].r] = ju(j, old[i].key);
}

/* a flows object (flows, or a group of templates[]) into fl */
static void snap_flows(const json_t *j, struct stats_flows *fl)
{
	const json_t *c = json_object_get(j, "client"), *v = json_object_get(j, "server");
	struct ctr_client *cc = &fl->client;
	struct ctr_server *sv = &fl->server;

	cc->started = ju(c, "started");
	cc->established = ju(c, "established");
	cc->completed = ju(c, "completed");
	cc->failed = ju(c, "failed");
	fl->active_client = ju(c, "active");
	fl->active_target = ju(c, "active_target");
	snap_reasons(c, cc->fail, true);
	cc->aborted = ju(c, "aborted");
	cc->tx_pkts = ju(c, "tx_pkts");
	cc->rx_pkts = ju(c, "rx_pkts");
	cc->tx_bytes = ju(c, "tx_bytes");
	cc->rx_bytes = ju(c, "rx_bytes");
	cc->retx = ju(c, "retx");
	fl->cps = jd(c, "cps");
	fl->completed_cps = jd(c, "completed_cps");
	cc->late = ju(c, "late");
	cc->foreign_server = ju(c, "foreign_server");
	sv->accepted = ju(v, "accepted");
	sv->completed = ju(v, "completed");
	sv->failed = ju(v, "failed");
	fl->active_server = ju(v, "active");
	snap_reasons(v, sv->fail, false);
	sv->aborted = ju(v, "aborted");
	sv->tx_pkts = ju(v, "tx_pkts");
	sv->rx_pkts = ju(v, "rx_pkts");
	sv->tx_bytes = ju(v, "tx_bytes");
	sv->rx_bytes = ju(v, "rx_bytes");
	sv->translated = ju(v, "translated");
	sv->untranslated = ju(v, "untranslated");
	fl->distinct_addrs = ju(v, "distinct_src_addrs");
	fl->distinct_ports = ju(v, "distinct_src_ports");
	sv->retx = ju(v, "retx");
}

/* templates[]: the map of groups and templates, and each group's flows */
static void snap_groups(const json_t *a, struct stats_snap *s)
{
	struct stats_tpl_map *m = &s->map;

	for (size_t i = 0; i < json_array_size(a); i++) {
		const json_t *g = json_array_get(a, i), *names = json_object_get(g, "templates");

		if (m->ngroups >= FG_PROF_MAX_TEMPLATES)
			break;
		jstr(g, "name", m->name[m->ngroups], sizeof(m->name[0]));
		for (size_t k = 0; k < json_array_size(names); k++) {
			const json_t *t = json_array_get(names, k);

			if (m->ntpl >= FG_PROF_MAX_TEMPLATES)
				break;
			snprintf(m->tpl[m->ntpl], sizeof(m->tpl[0]), "%s",
				 json_string_value(t) ? json_string_value(t) : "");
			m->group[m->ntpl++] = (uint8_t)m->ngroups;
		}
		snap_flows(g, &s->grp[m->ngroups]);
		m->ngroups++;
	}
}

/* a figure in microseconds: NAN when null (not measured) */
static double us(const json_t *o, const char *key) { return num_or_nan(o, key); }

static void snap_lat(const json_t *j, struct stats_lat_row *l)
{
	jstr(j, "stream", l->stream, sizeof(l->stream));
	l->port = (int)json_integer_value(json_object_get(j, "port"));
	l->tx = ju(j, "tx");
	l->rx = ju(j, "rx");
	l->lost = ju(j, "lost");
	l->dup = ju(j, "dup");
	l->ooo = ju(j, "ooo");
	l->min_us = us(j, "min_us");
	l->avg_us = us(j, "avg_us");
	l->max_us = us(j, "max_us");
	l->p50_us = us(j, "p50_us");
	l->p99_us = us(j, "p99_us");
	l->p999_us = us(j, "p999_us");
	l->jitter_us = us(j, "jitter_us");
	l->tx_dropped = ju(j, "tx_dropped");
	l->late = ju(j, "late");
	l->stale = ju(j, "stale");
}

static void snap_worker(const json_t *j, struct stats_worker_snap *w)
{
	const json_t *ports = json_object_get(j, "ports");

	w->id = (int)json_integer_value(json_object_get(j, "id"));
	w->lcore = (unsigned)ju(j, "lcore");
	for (size_t k = 0; k < json_array_size(ports); k++) {
		json_int_t p = json_integer_value(json_array_get(ports, k));

		if (json_is_integer(json_array_get(ports, k)) && p >= 0 && p < FG_MAX_PORTS)
			w->port_mask |= 1u << p;
	}
	w->tx_pkts = ju(j, "tx_pkts");
	w->rx_pkts = ju(j, "rx_pkts");
	w->redirected = ju(j, "redirected");
	w->active_flows = ju(j, "active_flows");
	w->cpu_measured = measured(j, "cpu_util");
	w->cpu_util = jd(j, "cpu_util");
	w->stalls = ju(j, "stalls");
	w->stalled_ms = jd(j, "stalled_ms");
	w->stall_late_ms = jd(j, "stall_late_ms");
	w->stall_max_ms = jd(j, "stall_max_ms");
}

int record_snap(const json_t *stats, struct stats_snap *s)
{
	const json_t *ports = json_object_get(stats, "ports"),
		     *lat = json_object_get(stats, "latency");
	const json_t *workers = json_object_get(stats, "workers");

	memset(s, 0, sizeof(*s));
	if (!json_is_object(stats))
		return -EINVAL;
	snap_global(json_object_get(stats, "global"), s);
	s->nports = (int)FG_MIN(json_array_size(ports), (size_t)FG_MAX_PORTS);
	for (int p = 0; p < s->nports; p++)
		snap_port(json_array_get(ports, (size_t)p), &s->port[p]);
	stats_total(s);
	snap_flows(json_object_get(stats, "flows"), &s->flows);
	snap_groups(json_object_get(stats, "templates"), s);
	s->nlat = (int)FG_MIN(json_array_size(lat), (size_t)STATS_MAX_LAT);
	for (int i = 0; i < s->nlat; i++)
		snap_lat(json_array_get(lat, (size_t)i), &s->lat[i]);
	/* the busiest worker's cpu_util, as stats_compute takes it */
	s->nworkers = (int)FG_MIN(json_array_size(workers), (size_t)FG_MAX_WORKERS);
	for (int i = 0; i < s->nworkers; i++) {
		snap_worker(json_array_get(workers, (size_t)i), &s->w[i]);
		s->g.cpu_util_max = FG_MAX(s->g.cpu_util_max, s->w[i].cpu_util);
	}
	return 0;
}
