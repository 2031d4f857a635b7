/*
 * test_record.c — reading a record back (src/core/record_fmt.h): a line
 * is a record line or is skipped with a FILE:LINE warning (bad JSON, a
 * member missing, a partial last line cut off by a kill), `stats --from`
 * takes the last record line or the one of a seq, `record plot` the lines
 * of the file's last recording; the header as written parses back; and a
 * snapshot written as `stats --json` writes it and read back by
 * record_snap prints the same text tables and the same JSON.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "json.h"
#include "offer.h"
#include "record_fmt.h"
#include "stats.h"

#define HZ 1000000000ULL

/* a record line of seq, run, tx_pps (<0: null) */
static void line(char *buf, size_t len, unsigned seq, const char *reason, int run, double tx,
		 bool final)
{
	char r[16] = "null", t[32] = "null";

	if (run)
		snprintf(r, sizeof(r), "%d", run);
	if (tx >= 0)
		snprintf(t, sizeof(t), "%.2f", tx);
	snprintf(
	    buf, len,
	    "{\"t\":%u.5,\"seq\":%u,\"reason\":\"%s\",\"run_id\":%s,\"state\":\"running\","
	    "\"final\":%s,\"stats\":{\"global\":{\"tx_pps\":%s,\"rx_pps\":%s,\"tx_pkts\":%u}}}\n",
	    1000 + seq, seq, reason, r, final ? "true" : "false", t, t, seq * 10);
}

/* the warnings a reader gave, one per line */
struct warned {
	char text[2048];
	int n;
};

static void warn(void *arg, const char *msg)
{
	struct warned *w = arg;
	size_t o = strlen(w->text);

	snprintf(w->text + o, sizeof(w->text) - o, "%s\n", msg);
	w->n++;
}

static FILE *text_file(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	return f;
}

static void test_parse(void **state)
{
	char l[512], why[256];
	json_t *o;

	(void)state;
	line(l, sizeof(l), 3, "interval", 1, 10, false);
	assert_int_equal(record_parse(l, strlen(l), &o, why, sizeof(why)), 0);
	assert_int_equal(json_integer_value(json_object_get(o, "seq")), 3);
	json_decref(o);
	/* without its newline, or with a CR before it */
	assert_int_equal(record_parse(l, strlen(l) - 1, &o, why, sizeof(why)), 0);
	json_decref(o);
	assert_int_equal(record_parse("{\"t\":1,\"seq\":0,\"final\":true,\"stats\":{}}\r\n", 40, &o,
				      why, sizeof(why)),
			 0);
	json_decref(o);

	static const struct {
		const char *line, *why;
	} bad[] = {
	    {"garbage", "expected near 'garbage'"},
	    {"{\"t\":1,\"seq\":0,\"final\":true,\"stats\":{}", "column"}, /* cut off */
	    {"[1, 2]", "not a JSON object"},
	    {"{\"seq\":0,\"final\":true,\"stats\":{}}", "no \"t\""},
	    {"{\"t\":1,\"seq\":-1,\"final\":true,\"stats\":{}}", "no \"seq\""},
	    {"{\"t\":1,\"seq\":0.5,\"final\":true,\"stats\":{}}", "no \"seq\""},
	    {"{\"t\":1,\"seq\":0,\"final\":1,\"stats\":{}}", "no \"final\""},
	    {"{\"t\":1,\"seq\":0,\"final\":false,\"stats\":[]}", "no \"stats\""},
	    {"{\"t\":1,\"seq\":0,\"final\":false,\"stats\":{}} {}", "end of file expected"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = (json_t *)1;
		assert_int_equal(
		    record_parse(bad[i].line, strlen(bad[i].line), &o, why, sizeof(why)), -1);
		assert_null(o);
		if (!strstr(why, bad[i].why))
			fail_msg("%s: why '%s' lacks '%s'", bad[i].line, why, bad[i].why);
	}
}

/* The last record line; each bad one skipped with FILE:LINE, a cut-off last line said so. */
static void test_pick_last(void **state)
{
	char text[4096] = "", l[512];
	struct warned w = {.n = 0};
	struct record_warn rw = {warn, &w};
	unsigned long lineno;
	json_t *o;
	FILE *f;

	(void)state;
	for (unsigned s = 0; s < 3; s++) {
		line(l, sizeof(l), s, s ? "interval" : "start", s ? 1 : 0, s * 100.0, false);
		strcat(text, l);
		if (s == 1)
			strcat(text, "not json at all\n\n   \n");
	}
	/* a line cut off by a kill: the first 60 bytes of one, no newline */
	line(l, sizeof(l), 3, "interval", 1, 300, false);
	l[60] = '\0';
	strcat(text, l);
	f = text_file(text);
	assert_int_equal(record_pick(f, "rec.jsonl", NULL, &rw, &o, &lineno), 0);
	fclose(f);
	assert_int_equal(lineno, 6); /* seq 2: lines 1, 2, (3 bad, 4 and 5 blank), 6 */
	assert_int_equal(json_integer_value(json_object_get(o, "seq")), 2);
	json_decref(o);
	assert_int_equal(w.n, 2);
	assert_non_null(strstr(w.text, "rec.jsonl:3: skipped: not a record line ("));
	assert_non_null(strstr(
	    w.text, "rec.jsonl:7: skipped: a partial last line, cut off while it was written ("));
}

static void test_pick_seq(void **state)
{
	char text[4096] = "", l[512];
	unsigned long lineno;
	struct record_sel sel = {.by_seq = true, .seq = 1};
	json_t *o;
	FILE *f;

	(void)state;
	/* two recordings appended: seq 1 of the second is taken */
	for (unsigned r = 0; r < 2; r++)
		for (unsigned s = 0; s < 3; s++) {
			line(l, sizeof(l), s, "interval", (int)r + 1, 10.0 * r + s, false);
			strcat(text, l);
		}
	f = text_file(text);
	assert_int_equal(record_pick(f, "r", &sel, NULL, &o, &lineno), 0);
	fclose(f);
	assert_int_equal(lineno, 5);
	assert_int_equal(json_integer_value(json_object_get(o, "run_id")), 2);
	json_decref(o);
	sel.seq = 9;
	f = text_file(text);
	assert_int_equal(record_pick(f, "r", &sel, NULL, &o, &lineno), -ENOENT);
	fclose(f);
	assert_null(o);
	/* nothing but bad lines, and an empty file */
	f = text_file("x\ny\n");
	assert_int_equal(record_pick(f, "r", NULL, NULL, &o, &lineno), -ENOENT);
	fclose(f);
	f = fmemopen((void *)"", 1, "r");
	assert_int_equal(record_pick(f, "r", NULL, NULL, &o, &lineno), -ENOENT);
	fclose(f);
}

/* The points of the last recording: rates null where not measured, the run's end. */
static void test_points(void **state)
{
	char text[4096] = "", l[512];
	struct record_point *p;
	size_t n;
	FILE *f;

	(void)state;
	line(l, sizeof(l), 0, "start", 0, 1, false);
	strcat(text, l);
	line(l, sizeof(l), 1, "interval", 1, 5, false);
	strcat(text, l);
	/* the second recording, appended */
	line(l, sizeof(l), 0, "start", 0, -1, false);
	strcat(text, l);
	strcat(text, "{broken\n");
	line(l, sizeof(l), 1, "interval", 2, 1000, false);
	strcat(text, l);
	line(l, sizeof(l), 2, "end", 2, 0, true);
	strcat(text, l);
	line(l, sizeof(l), 3, "exit", 2, 0, true);
	strcat(text, l);
	f = text_file(text);
	assert_int_equal(record_points(f, "r", NULL, &p, &n), 0);
	fclose(f);
	assert_int_equal(n, 4);
	assert_int_equal(p[0].line, 3);
	assert_false(p[0].rated);
	assert_true(p[1].rated);
	assert_true(p[1].tx_pps == 1000 && p[1].rx_pps == 1000);
	assert_true(p[1].t == 1001.5);
	assert_int_equal(p[1].run_id, 2);
	assert_true(p[2].end && p[2].final);
	assert_true(!p[3].end && p[3].final);
	assert_int_equal(p[3].line, 7);
	free(p);
	f = text_file("nothing\n");
	assert_int_equal(record_points(f, "r", NULL, &p, &n), -ENOENT);
	fclose(f);
}

/* The header as the recorder writes it parses back as a record line. */
static void test_head(void **state)
{
	struct record_head h = {.t = 1765000000.123456,
				.seq = 7,
				.reason = RECORD_END,
				.run_id = 3,
				.state = "idle",
				.final = true};
	char *buf = NULL, why[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jw j;
	json_t *o;

	(void)state;
	jw_init(&j, f, false);
	jw_obj(&j, NULL);
	record_head_json(&j, &h);
	jw_obj(&j, "stats");
	jw_obj_end(&j);
	jw_obj_end(&j);
	fclose(f);
	assert_string_equal(buf,
			    "{\"t\":1765000000.123456,\"seq\":7,\"reason\":\"end\",\"run_id\":3,"
			    "\"state\":\"idle\",\"final\":true,\"stats\":{}}");
	assert_int_equal(record_parse(buf, len, &o, why, sizeof(why)), 0);
	json_decref(o);
	free(buf);
	/* no run yet: run_id null */
	h.run_id = 0;
	h.reason = RECORD_START;
	buf = NULL;
	f = open_memstream(&buf, &len);
	jw_init(&j, f, false);
	jw_obj(&j, NULL);
	record_head_json(&j, &h);
	jw_obj_end(&j);
	fclose(f);
	assert_non_null(strstr(buf, "\"reason\":\"start\",\"run_id\":null,"));
	free(buf);
}

/* A snapshot with every section: two ports, flows in two groups, latency rows, workers. */
static void fill(struct stats_snap *s)
{
	struct stats_raw prev, now;
	bool up[2] = {true, false};
	uint32_t speed[2] = {10000, 0};

	memset(&prev, 0, sizeof(prev));
	memset(&now, 0, sizeof(now));
	now.tsc = HZ;
	prev.nworkers = 2;
	now.port[0].tx_pkts = 12345;
	now.port[0].tx_bytes = 12345 * 60;
	now.port[1].rx_pkts = 12000;
	now.port[1].rx_bytes = 12000 * 60;
	now.port[1].rx_unknown = 3;
	now.port[0].rx_icmp_unreach = 11;
	now.port[0].rx_icmp_frag_needed = 6;
	now.port[0].icmp_err_unmatched = 2;
	now.port[0].icmp_err_invalid = 1;
	now.port[0].icmp_err_kept = 3;
	now.port[0].icmp_mss_lowered = 4;
	now.nic_ok[0] = true;
	now.nic[0].imissed = 4;
	now.nworkers = 2;
	now.w[0].tx_pkts = 12345;
	now.w[0].loop_tsc = 1000;
	now.w[0].busy_tsc = 250;
	now.w[1].rx_pkts = 12000;
	now.w[1].stalls = 2;
	now.w[1].stall_tsc = HZ / 500;
	now.client.started = 300;
	now.client.completed = 290;
	now.client.failed = 5;
	now.client.late = 7;
	/* a count of its own for every reason, on both sides */
	for (unsigned r = 0; r < FG_FAIL_N; r++) {
		now.client.fail[r] = 10 + r;
		now.server.fail[r] = 30 + r;
	}
	now.client.aborted = 3;
	now.server.aborted = 4;
	now.server.accepted = 295;
	now.server.translated = 295;
	now.gauge.active_client = 5;
	now.loop_tsc = 2000;
	now.busy_tsc = 500;
	stats_compute(&now, &prev, NULL, HZ, 2, up, speed, s);
	s->w[0].lcore = 1;
	s->w[0].port_mask = 3;
	s->w[1].lcore = 2;
	s->w[1].port_mask = 3;
	s->flows.distinct_addrs = 1;
	s->flows.distinct_ports = 290;
	s->map.ntpl = 3;
	s->map.ngroups = 2;
	s->map.group[0] = 0;
	s->map.group[1] = 1;
	s->map.group[2] = 0;
	snprintf(s->map.tpl[0], sizeof(s->map.tpl[0]), "dns");
	snprintf(s->map.tpl[1], sizeof(s->map.tpl[1]), "http");
	snprintf(s->map.tpl[2], sizeof(s->map.tpl[2]), "ntp");
	snprintf(s->map.name[0], sizeof(s->map.name[0]), "udp");
	snprintf(s->map.name[1], sizeof(s->map.name[1]), "web");
	s->grp[0].client.started = 200;
	s->grp[0].cps = 200;
	s->grp[1].client.started = 100;
	s->grp[1].client.failed = 5;
	s->grp[1].client.fail[FG_FAIL_PEER_CLOSED] = 5;
	s->grp[1].server.fail[FG_FAIL_TIMEOUT] = 2;
	s->grp[0].server.aborted = 1;
	s->grp[1].active_target = 50;
	s->nlat = 2;
	snprintf(s->lat[0].stream, sizeof(s->lat[0].stream), "bulk");
	s->lat[0].port = 1;
	s->lat[0].tx = 100;
	s->lat[0].rx = 98;
	s->lat[0].lost = 2;
	s->lat[0].min_us = 1.5;
	s->lat[0].avg_us = 2.25;
	s->lat[0].max_us = 9.125;
	s->lat[0].p50_us = 2;
	s->lat[0].p99_us = 8.5;
	s->lat[0].p999_us = 9;
	s->lat[0].jitter_us = NAN;
	snprintf(s->lat[1].stream, sizeof(s->lat[1].stream), "a \"quoted\" one");
	s->lat[1].tx = 7;
	s->lat[1].min_us = s->lat[1].avg_us = s->lat[1].max_us = NAN;
	s->lat[1].p50_us = s->lat[1].p99_us = s->lat[1].p999_us = s->lat[1].jitter_us = NAN;
	/* short of the offer, the worker's CPU the likely limit */
	s->g.offered_pps = 20000;
	s->g.short_of_offer = true;
	s->g.offer_limit = OFFER_LIMIT_CPU;
	s->g.offer_cpu = 100;
	s->g.offer_late = 12.5;
}

static char *text_of(const struct stats_snap *s, unsigned sections)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(stats_write_text(f, s, sections), 0);
	fclose(f);
	return buf;
}

static json_t *json_of(const struct stats_snap *s)
{
	struct jw j;

	jw_init_value(&j);
	assert_int_equal(stats_json(&j, s, 0), 0);
	return jw_take(&j);
}

/* stats --json read back: the same tables, the same JSON (every member mapped). */
static void test_snap_round_trip(void **state)
{
	struct stats_snap *s = calloc(1, sizeof(*s)), *r = calloc(1, sizeof(*r));
	unsigned all = STATS_ALL | STATS_T;
	json_t *v, *w;
	char *a, *b;

	(void)state;
	assert_non_null(s);
	assert_non_null(r);
	fill(s);
	v = json_of(s);
	assert_non_null(v);
	assert_int_equal(record_snap(v, r), 0);
	a = text_of(s, all);
	b = text_of(r, all);
	assert_string_equal(a, b);
	/* the warning with its signs, the total, the busiest worker are there */
	assert_non_null(strstr(b, "likely limit: the worker's CPU (cpu_util 100 %, 12 frames/s not "
				  "opened in time)"));
	assert_non_null(strstr(b, "busiest cpu_util: 25.0 %"));
	assert_non_null(strstr(b, "Flows of group web (templates http)"));
	w = json_of(r);
	if (!json_equal(v, w)) {
		char *x = json_dumps(v, JSON_COMPACT), *y = json_dumps(w, JSON_COMPACT);

		fail_msg("JSON differs:\n%s\n%s", x, y);
	}
	json_decref(v);
	json_decref(w);
	free(a);
	free(b);
	/* not a stats object: nothing */
	assert_int_equal(record_snap(NULL, r), -EINVAL);
	v = json_array();
	assert_int_equal(record_snap(v, r), -EINVAL);
	json_decref(v);
	/* an empty one: no port, no row, nothing measured */
	v = json_object();
	assert_int_equal(record_snap(v, r), 0);
	assert_int_equal(r->nports + r->nlat + r->nworkers + r->map.ngroups, 0);
	assert_false(stats_rated(r));
	json_decref(v);
	free(s);
	free(r);
}

/* A record written before fail_reasons: the client's old keys, under their reasons now. */
static void test_snap_old_reasons(void **state)
{
	static const char old[] =
	    "{\"flows\":{\"client\":{\"started\":20,\"failed\":15,\"fail_no_reply\":1,"
	    "\"fail_reset\":2,\"fail_retx\":3,\"fail_table_full\":4,\"rx_payload_bad\":5},"
	    "\"server\":{\"failed\":0}}}";
	struct stats_snap *r = calloc(1, sizeof(*r));
	json_t *v = json_loads(old, 0, NULL);
	const uint64_t *f;

	(void)state;
	assert_non_null(r);
	assert_non_null(v);
	assert_int_equal(record_snap(v, r), 0);
	f = r->flows.client.fail;
	assert_int_equal(f[FG_FAIL_NO_REPLY], 1);
	assert_int_equal(f[FG_FAIL_RESET], 2);
	assert_int_equal(f[FG_FAIL_RETX], 3);
	assert_int_equal(f[FG_FAIL_TABLE_FULL], 4);
	assert_int_equal(f[FG_FAIL_PAYLOAD], 5);
	assert_int_equal(f[FG_FAIL_TIMEOUT] + f[FG_FAIL_ICMP_UNREACH] + f[FG_FAIL_PEER_CLOSED], 0);
	for (unsigned i = 0; i < FG_FAIL_N; i++)
		assert_int_equal(r->flows.server.fail[i], 0);
	json_decref(v);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),    cmocka_unit_test(test_pick_last),
	    cmocka_unit_test(test_pick_seq), cmocka_unit_test(test_points),
	    cmocka_unit_test(test_head),     cmocka_unit_test(test_snap_round_trip),
	    cmocka_unit_test(test_snap_old_reasons),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
