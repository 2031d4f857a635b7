/*
 * test_prof.c — traffic profiles: every shipped profile loads and means what
 * flowgen-profile(5) says (frame sizes, address ranges, programs), defaults are
 * filled in, and every bad file of test/data/prof_*.yaml fails with exactly
 * the FILE:LINE:COL message written on its first line.
 */
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fg.h"
#include "prof.h"

#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

static const char *dir(const char *env, const char *def)
{
	const char *d = getenv(env);

	return d ? d : def;
}

static void load(const char *name, struct prof *p)
{
	char path[512], err[FG_ERRLEN] = "";

	snprintf(path, sizeof(path), "%s/%s", dir("FG_PROFILES", "profiles"), name);
	if (prof_load(path, p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(p->n_warnings, 0);
}

static void test_all_shipped_load(void **state)
{
	char pattern[512], err[FG_ERRLEN];
	glob_t g;
	size_t i;

	(void)state;
	snprintf(pattern, sizeof(pattern), "%s/*.yaml", dir("FG_PROFILES", "profiles"));
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 6);
	for (i = 0; i < g.gl_pathc; i++) {
		struct prof p;

		if (prof_load(g.gl_pathv[i], &p, err, sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(p.n_warnings, 0);
		prof_free(&p);
	}
	globfree(&g);
}

/* Frame = 14 eth + 20 IPv4 + 8 UDP + payload + 4 FCS. */
static uint32_t udp_frame(uint32_t payload) { return 14 + 20 + 8 + payload + 4; }

static void test_udp_short(void **state)
{
	const struct prof_template *t;
	struct prof p;

	(void)state;
	load("udp_short.yaml", &p);
	assert_int_equal(p.mode, PROF_FLOWS);
	assert_true(p.timeout == FG_PROF_TIMEOUT_DEFAULT);
	assert_int_equal(p.seed, 1);
	assert_int_equal(p.ip_gen.client.range.lo, IP(198, 18, 0, 1));
	assert_int_equal(p.ip_gen.client.range.hi, IP(198, 18, 0, 254));
	assert_int_equal(p.ip_gen.server.range.lo, IP(198, 19, 0, 1));
	assert_int_equal(p.ip_gen.client.dist, PROF_DIST_SEQ);
	assert_int_equal(p.ip_gen.offset, IP(0, 1, 0, 0));
	assert_int_equal(p.ip_gen.client_ports.lo, 1024);
	assert_int_equal(p.ip_gen.client_ports.hi, 65535);
	assert_int_equal(p.n_templates, 1);
	t = &p.templates[0];
	assert_string_equal(t->name, "udp_short");
	assert_int_equal(t->proto, PROF_UDP);
	assert_int_equal(t->port, 4321);
	assert_true(t->cps == 1);
	assert_true(prof_total_cps(&p) == 1);
	assert_int_equal(t->client.n, 1);
	assert_int_equal(t->client.steps[0].op, PROF_OP_SEND);
	assert_int_equal(udp_frame(t->client.steps[0].arg), 64);
	assert_int_equal(t->server.steps[0].op, PROF_OP_RECV);
	assert_int_equal(t->server.steps[0].arg, 18);
	prof_free(&p);
	assert_null(p.templates);
}

static void test_udp_imix_tcp_short(void **state)
{
	static const uint32_t frames[3] = {64, 594, 1518};
	const struct prof_template *t;
	struct prof p;
	size_t i;

	(void)state;
	load("udp_imix.yaml", &p);
	t = &p.templates[0];
	assert_int_equal(t->client.n, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(t->client.steps[i].op, PROF_OP_SEND);
		assert_int_equal(udp_frame(t->client.steps[i].arg), frames[i]);
		assert_int_equal(t->server.steps[i].op, PROF_OP_RECV);
		assert_int_equal(t->server.steps[i].arg, t->client.steps[i].arg);
	}
	prof_free(&p);

	load("tcp_short.yaml", &p);
	t = &p.templates[0];
	assert_int_equal(t->proto, PROF_TCP);
	assert_int_equal(t->client.n, 2);
	assert_true(t->client.steps[0].op == PROF_OP_SEND && t->client.steps[0].arg == 64);
	assert_true(t->client.steps[1].op == PROF_OP_RECV && t->client.steps[1].arg == 512);
	assert_true(t->server.steps[0].op == PROF_OP_RECV && t->server.steps[0].arg == 64);
	assert_true(t->server.steps[1].op == PROF_OP_SEND && t->server.steps[1].arg == 512);
	prof_free(&p);
}

static void test_stl(void **state)
{
	const struct prof_stream *s;
	struct prof p;

	(void)state;
	load("stl_64b.yaml", &p);
	assert_int_equal(p.mode, PROF_STREAMS);
	assert_int_equal(p.n_streams, 1);
	s = &p.streams[0];
	assert_int_equal(s->frame, 64);
	assert_false(s->imix);
	assert_int_equal(s->tx_mask, 1u); /* port 0 -> 1 */
	assert_int_equal(s->src.lo, IP(198, 18, 0, 1));
	assert_int_equal(s->dst.hi, IP(198, 19, 0, 254));
	assert_int_equal(s->src.mode, PROF_VAR_INC);
	assert_true(s->dport.lo == 4321 && s->dport.mode == PROF_VAR_FIXED);
	assert_int_equal(s->rate.kind, UNITS_PPS);
	assert_true(prof_stream_avg_frame(&p, s) == 64);
	assert_int_equal(p.n_imix, 3); /* default table filled in */
	prof_free(&p);

	load("stl_imix.yaml", &p);
	s = &p.streams[0];
	assert_true(s->imix);
	assert_true(fabs(prof_stream_avg_frame(&p, s) - 4342.0 / 12) < 1e-9);
	assert_true(s->sport.mode == PROF_VAR_RAND && s->sport.lo == 1024 && s->sport.hi == 65535);
	prof_free(&p);
}

/* 2,500 address pairs, none ending in .0 or .255, 1518 B, 10 %, both ways. */
static void test_l3_many_hosts(void **state)
{
	uint64_t addrs[2] = {0, 0}, stream_addrs = 0;
	double pct = 0;
	struct prof p;
	size_t i;
	uint32_t a;

	(void)state;
	load("l3_many_hosts.yaml", &p);
	for (i = 0; i < p.n_hosts; i++) {
		assert_true(p.hosts[i].port < 2);
		for (a = p.hosts[i].lo; a <= p.hosts[i].hi; a++) {
			assert_true((a & 0xff) != 0 && (a & 0xff) != 255);
			addrs[p.hosts[i].port]++;
		}
	}
	assert_int_equal(addrs[0], 2500);
	assert_int_equal(addrs[1], 2500);
	for (i = 0; i < p.n_streams; i++) {
		const struct prof_stream *s = &p.streams[i];

		assert_int_equal(s->frame, 1518);
		assert_true(s->latency);
		assert_int_equal(s->tx_mask, 3u);
		assert_int_equal(s->rate.kind, UNITS_PCT);
		pct += s->rate.value;
		assert_int_equal(s->src.hi - s->src.lo, s->dst.hi - s->dst.lo);
		stream_addrs += s->src.hi - s->src.lo + 1;
	}
	assert_int_equal(stream_addrs, 2500);
	assert_true(fabs(pct - 10) < 1e-9);
	prof_free(&p);
}

static void test_defaults_and_forms(void **state)
{
	static const char yaml[] = "mode: streams\n"
				   "seed: 42\n"
				   "imix: [{size: 128, weight: 1}, {size: 256, weight: 3}]\n"
				   "streams:\n"
				   "  - name: a\n"
				   "    ports: [2, 3]\n"
				   "    frame: imix\n"
				   "    rate: 500mbps\n"
				   "    src: {range: [198.18.0.1, 198.18.0.9]}\n"
				   "    dst: {range: [198.19.0.1, 198.19.0.9], mode: fixed}\n"
				   "    dport: {range: [1, 49151], mode: dec}\n";
	char err[FG_ERRLEN];
	struct prof p;

	(void)state;
	assert_int_equal(prof_load_buf("m.yaml", yaml, strlen(yaml), &p, err, sizeof(err)), 0);
	assert_int_equal(p.seed, 42);
	assert_int_equal(p.streams[0].tx_mask, 0xcu);
	assert_int_equal(p.streams[0].src.mode, PROF_VAR_INC); /* default mode of a range */
	assert_int_equal(p.streams[0].dst.mode, PROF_VAR_FIXED);
	assert_int_equal(p.streams[0].dst.hi, p.streams[0].dst.lo);
	assert_int_equal(p.streams[0].sport.lo, FG_PROF_SPORT_DEFAULT);
	assert_int_equal(p.streams[0].dport.mode, PROF_VAR_DEC);
	assert_false(p.streams[0].latency);
	assert_true(p.streams[0].rate.kind == UNITS_BPS && p.streams[0].rate.value == 500e6);
	assert_true(prof_stream_avg_frame(&p, &p.streams[0]) == (128.0 + 3 * 256) / 4);
	prof_free(&p);
}

/* A stream's count and range of sizes (flowgen-profile(5)). */
static void test_stream_count_and_sizes(void **state)
{
	static const char yaml[] = "mode: streams\n"
				   "streams:\n"
				   "  - name: a\n"
				   "    port: 0\n"
				   "    frame: {range: [64, 1518], step: 2}\n"
				   "    rate: 1kpps\n"
				   "    count: 3000\n"
				   "    src: 198.18.0.1\n"
				   "    dst: 198.19.0.1\n"
				   "  - name: b\n"
				   "    port: 1\n"
				   "    frame: {range: [100, 300], mode: rand}\n"
				   "    rate: 1kpps\n"
				   "    src: 198.19.0.1\n"
				   "    dst: 198.18.0.1\n";
	char err[FG_ERRLEN];
	struct prof p;

	(void)state;
	assert_int_equal(prof_load_buf("c.yaml", yaml, strlen(yaml), &p, err, sizeof(err)), 0);
	assert_int_equal(p.streams[0].count, 3000);
	assert_int_equal(p.streams[0].frames.mode, PROF_VAR_INC); /* the default mode */
	assert_int_equal(p.streams[0].frame_step, 2);
	assert_int_equal(p.streams[0].frame, 0);
	assert_true(prof_stream_avg_frame(&p, &p.streams[0]) == 791.0); /* 64 .. 1518 */
	assert_int_equal(p.streams[1].count, 0);
	assert_int_equal(p.streams[1].frames.mode, PROF_VAR_RAND);
	assert_true(prof_stream_avg_frame(&p, &p.streams[1]) == 200.0);
	assert_int_equal(prof_max_frame(&p), 1518);
	assert_false(prof_streams_counted(&p)); /* b has no count */
	prof_free(&p);
}

/* profiles/stl_syn_icmp.yaml: a TCP and an ICMP stream, the header fields
 * as given, ICMP's identifier and sequence number as the stream's sport
 * and dport; defaults of an inline TCP stream (SYN, window 8192), its
 * flags as a number, and ICMPv6's default type. */
static void test_stl_syn_icmp(void **state)
{
	static const char yaml[] =
	    "mode: streams\n"
	    "streams:\n"
	    "  - {name: a, port: 0, proto: tcp, frame: 96, rate: 1kpps,\n"
	    "     src: 2001:2::1, dst: 2001:2::2}\n"
	    "  - {name: b, port: 0, proto: tcp, tcp: {flags: 17}, frame: 76,\n"
	    "     rate: 1kpps, src: 198.18.0.1, dst: 198.19.0.1}\n"
	    "  - {name: c, ports: [0, 1], proto: icmp, frame: 84, rate: 1kpps,\n"
	    "     src: 2001:2::1, dst: 2001:2::2}\n";
	char err[FG_ERRLEN];
	struct prof p;

	(void)state;
	load("stl_syn_icmp.yaml", &p);
	assert_int_equal(p.n_streams, 2);
	assert_int_equal(p.streams[0].proto, PROF_L4_TCP);
	assert_int_equal(p.streams[0].tcp.flags, 0x02);
	assert_int_equal(p.streams[0].tcp.seq, 1000);
	assert_int_equal(p.streams[0].tcp.ack, 0);
	assert_int_equal(p.streams[0].tcp.window, 64240);
	assert_int_equal(p.streams[0].sport.mode, PROF_VAR_RAND);
	assert_int_equal(p.streams[0].dport.lo, 80);
	assert_int_equal(p.streams[1].proto, PROF_L4_ICMP);
	assert_int_equal(p.streams[1].icmp.type, 8);
	assert_int_equal(p.streams[1].sport.lo, 1);
	assert_int_equal(p.streams[1].sport.mode, PROF_VAR_FIXED);
	assert_int_equal(p.streams[1].dport.lo, 1);
	assert_int_equal(p.streams[1].dport.hi, 65535);
	assert_int_equal(p.streams[1].dport.mode, PROF_VAR_INC);
	prof_free(&p);

	assert_int_equal(prof_load_buf("l4.yaml", yaml, strlen(yaml), &p, err, sizeof(err)), 0);
	assert_int_equal(p.streams[0].tcp.flags, 0x02);
	assert_int_equal(p.streams[0].tcp.window, 8192);
	assert_int_equal(p.streams[0].sport.lo, FG_PROF_SPORT_DEFAULT);
	assert_int_equal(p.streams[1].tcp.flags, 0x11); /* FIN + ACK */
	assert_int_equal(p.streams[2].icmp.type, 128);
	assert_int_equal(p.streams[2].sport.lo, 0);
	assert_int_equal(p.streams[2].dport.lo, 0);
	assert_int_equal(p.streams[2].proto, PROF_L4_ICMP);
	prof_free(&p);
}

/* IPv6 streams: the first address whole, its last 32 bits as the range. */
static void test_streams_ipv6(void **state)
{
	static const char yaml[] = "mode: streams\n"
				   "streams:\n"
				   "  - name: six\n"
				   "    ports: [0, 1]\n"
				   "    frame: 84\n"
				   "    rate: 1kpps\n"
				   "    src: {range: [2001:2::a:1, 2001:2::a:ff], mode: rand}\n"
				   "    dst: 2001:2:0:1::1\n"
				   "  - name: four\n"
				   "    port: 2\n"
				   "    frame: 64\n"
				   "    rate: 1kpps\n"
				   "    src: 198.18.0.1\n"
				   "    dst: 198.19.0.1\n"
				   "hosts:\n"
				   "  - {port: 1, range: [\"2001:2:0:1::10\", \"2001:2:0:1::1f\"]}\n"
				   "  - {port: 3, range: [198.19.0.1, 198.19.0.9]}\n";
	static const uint8_t src6[16] = {0x20, 0x01, 0, 2, [13] = 0x0a, [15] = 1};
	static const uint8_t dst6[16] = {0x20, 0x01, 0, 2, 0, 0, 0, 1, [15] = 1};
	char err[FG_ERRLEN];
	struct prof p;

	(void)state;
	if (prof_load_buf("v6.yaml", yaml, strlen(yaml), &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(p.streams[0].v6);
	assert_false(p.streams[1].v6);
	assert_memory_equal(p.streams[0].src6, src6, 16);
	assert_memory_equal(p.streams[0].dst6, dst6, 16);
	assert_int_equal(p.streams[0].src.lo, 0xa0001u);
	assert_int_equal(p.streams[0].src.hi, 0xa00ffu);
	assert_int_equal(p.streams[0].src.mode, PROF_VAR_RAND);
	assert_int_equal(p.streams[0].dst.lo, 1);
	assert_int_equal(p.streams[0].dst.mode, PROF_VAR_FIXED);
	assert_int_equal(p.streams[1].src.lo, IP(198, 18, 0, 1));
	assert_int_equal(prof_port_families(&p, 0), PROF_FAM_V6);
	assert_int_equal(prof_port_families(&p, 1), PROF_FAM_V6);
	assert_int_equal(prof_port_families(&p, 2), PROF_FAM_V4);
	assert_int_equal(prof_port_families(&p, 3), 0);
	assert_int_equal(p.n_hosts, 2);
	assert_true(p.hosts[0].v6);
	assert_int_equal(p.hosts[0].port, 1);
	assert_memory_equal(p.hosts[0].a6, dst6, 15);
	assert_int_equal(p.hosts[0].a6[15], 0x10);
	assert_int_equal(p.hosts[0].lo, 0x10);
	assert_int_equal(p.hosts[0].hi, 0x1f);
	assert_false(p.hosts[1].v6);
	assert_int_equal(p.hosts[1].lo, IP(198, 19, 0, 1));
	assert_int_equal(p.hosts[1].hi, IP(198, 19, 0, 9));
	prof_free(&p);
}

static void test_template_limit(void **state)
{
	char *yaml, err[FG_ERRLEN];
	size_t len = 0, cap = 65536;
	struct prof p;
	int i;

	(void)state;
	yaml = malloc(cap);
	assert_non_null(yaml);
	len += snprintf(yaml + len, cap - len,
			"mode: flows\nip_gen:\n  client: {range: [198.18.0.1, 198.18.0.2]}\n"
			"  server: {range: [198.19.0.1, 198.19.0.2]}\ntemplates:\n");
	for (i = 0; i < FG_PROF_MAX_TEMPLATES + 1; i++)
		len += snprintf(
		    yaml + len, cap - len,
		    "  - {name: t%d, port: 1, client: [{send: 1}], server: [{recv: 1}]}\n", i);
	assert_int_equal(prof_load_buf("many.yaml", yaml, len, &p, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "many.yaml:6:3: 'templates' has 65 entries, at most 64 allowed");
	free(yaml);
}

/* A flows profile's lines before its templates, for the tests' own. */
#define FLOWS_HEAD                                                                                 \
	"mode: flows\n"                                                                             \
	"ip_gen:\n"                                                                                 \
	"  client: {range: [198.18.0.1, 198.18.0.2]}\n"                                             \
	"  server: {range: [198.19.0.1, 198.19.0.2]}\n"                                             \
	"templates:\n"

/* Statistics groups: `group` names one, a template without it is its own. */
static void test_groups(void **state)
{
	static const char yaml[] =
	    FLOWS_HEAD
	    "  - {name: a, group: web, port: 1, client: [{send: 1}], server: [{recv: 1}]}\n"
	    "  - {name: b, port: 2, client: [{send: 1}], server: [{recv: 1}]}\n"
	    "  - {name: c, group: web, port: 3, client: [{send: 1}], server: [{recv: 1}]}\n"
	    "  - {name: d, group: b, port: 4, client: [{send: 1}], server: [{recv: 1}]}\n"
	    "  - {name: e, port: 5, client: [{send: 1}], server: [{recv: 1}]}\n";
	uint8_t g[FG_PROF_MAX_TEMPLATES];
	char path[512], err[FG_ERRLEN];
	struct prof p;

	(void)state;
	if (prof_load_buf("g.yaml", yaml, strlen(yaml), &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(p.templates[0].group, "web");
	assert_null(p.templates[1].group);
	assert_string_equal(prof_tpl_group(&p.templates[0]), "web");
	assert_string_equal(prof_tpl_group(&p.templates[1]), "b");
	memset(g, 0xff, sizeof(g));
	assert_int_equal(prof_groups(&p, g), 3);
	assert_int_equal(g[0], 0); /* web: a and c */
	assert_int_equal(g[1], 1); /* b: b, and d that names it */
	assert_int_equal(g[2], 0);
	assert_int_equal(g[3], 1);
	assert_int_equal(g[4], 2); /* e alone */
	assert_int_equal(g[5], 0xff);
	prof_free(&p);

	/* the e2e profile: web = web_udp + web_tcp, dns alone */
	snprintf(path, sizeof(path), "%s/flows_groups.yaml", dir("FG_TEST_DATA", "test/data"));
	if (prof_load(path, &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(prof_groups(&p, g), 2);
	assert_true(g[0] == 0 && g[1] == 1 && g[2] == 0);
	assert_true(p.templates[0].cps + p.templates[2].cps == prof_total_cps(&p) / 4);
	prof_free(&p);

	/* a streams profile has no groups */
	load("stl_64b.yaml", &p);
	assert_int_equal(prof_groups(&p, g), 0);
	prof_free(&p);
}

/* A server program of one recv and then sends only is a request's answer
 * (prof_prog_once()): its bytes are the recv's; and each program's
 * smallest datagram (prof_prog_min_send()). */
static void test_prog_once(void **state)
{
	static const char yaml[] =
	    FLOWS_HEAD
	    "  - {name: a, proto: udp, port: 1, client: [{send: 18}, {recv: 18}],\n"
	    "     server: [{recv: 18}, {send: 18}]}\n"
	    "  - {name: b, proto: udp, port: 2, client: [{send: 5}], server: [{recv: 5}]}\n"
	    "  - {name: c, proto: udp, port: 3, client: [{send: 1}, {recv: 3}],\n"
	    "     server: [{recv: 1}, {send: 1}, {send: 2}]}\n"
	    "  - {name: d, proto: udp, port: 4, client: [{recv: 1}, {send: 1}],\n"
	    "     server: [{send: 1}, {recv: 1}]}\n"
	    "  - {name: e, proto: udp, port: 5, client: [{send: 1}, {recv: 1}],\n"
	    "     server: [{recv: 1}, {delay: 5}, {send: 1}]}\n"
	    "  - {name: f, proto: udp, port: 6, client: [{send: 1}, {recv: 1}, {send: 1}],\n"
	    "     server: [{recv: 1}, {send: 1}, {recv: 1}]}\n"
	    "  - {name: g, proto: udp, port: 7, client: [{send: 7}, {send: 3}],\n"
	    "     server: [{recv: 10}]}\n";
	static const bool once[] = {true, true, true, false, false, false, true};
	static const uint32_t need[] = {18, 5, 1, 0, 0, 0, 10};
	/* the smallest datagram of each side: g's client sends one of 3
	 * bytes, fewer than its server's recv (its entry is taken then) */
	static const uint32_t least_c[] = {18, 5, 1, 1, 1, 1, 3};
	static const uint32_t least_s[] = {18, 0, 1, 1, 1, 1, 0};
	char err[FG_ERRLEN];
	struct prof p;

	(void)state;
	if (prof_load_buf("o.yaml", yaml, strlen(yaml), &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(p.n_templates, 7);
	for (size_t i = 0; i < p.n_templates; i++) {
		uint32_t n = UINT32_MAX;

		assert_int_equal(prof_prog_min_send(&p.templates[i].client), least_c[i]);
		assert_int_equal(prof_prog_min_send(&p.templates[i].server), least_s[i]);

		assert_int_equal(prof_prog_once(&p.templates[i].server, &n), once[i]);
		if (once[i])
			assert_int_equal(n, need[i]);
		else
			assert_int_equal(n, UINT32_MAX); /* left as it was */
		/* the clients' programs start with a send, or are d's */
		assert_int_equal(prof_prog_once(&p.templates[i].client, &n), i == 3);
	}
	prof_free(&p);
}

static void test_bad_files(void **state)
{
	char pattern[512], want[FG_ERRLEN + 600], err[FG_ERRLEN], line[FG_ERRLEN];
	glob_t g;
	size_t i;

	(void)state;
	snprintf(pattern, sizeof(pattern), "%s/prof_*.yaml", dir("FG_TEST_DATA", "test/data"));
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 20);
	for (i = 0; i < g.gl_pathc; i++) {
		const char *path = g.gl_pathv[i];
		FILE *f = fopen(path, "r");
		struct prof p;
		int rc;

		assert_non_null(f);
		assert_non_null(fgets(line, sizeof(line), f));
		fclose(f);
		line[strcspn(line, "\n")] = '\0';
		assert_true(strncmp(line, "# error: ", 9) == 0);
		snprintf(want, sizeof(want), "%s%s", path, line + 9);
		rc = prof_load(path, &p, err, sizeof(err));
		if (rc != -EINVAL || strcmp(err, want))
			fail_msg("%s: rc %d\n  want: %s\n  got:  %s", path, rc, want, err);
		assert_null(p.streams);
		assert_null(p.templates);
	}
	globfree(&g);
}

/*
 * A profile from memory (the OTG model's, prof_load_buf): the name the
 * caller gives stands where a file name would, in p->file and in the
 * NAME:LINE:COL of an error, a syntax error (libyaml's) and a schema one
 * alike; on failure nothing is left to free. The buffer need not end in a
 * NUL: len bytes are read, no more.
 */
static void test_load_buf(void **state)
{
	static const char good[] = "mode: streams\n"
				   "streams:\n"
				   "  - {name: s0, port: 0, frame: 128, rate: 12.5%,"
				   " src: 16.0.0.1, dst: 48.0.0.1}\n"
				   "JUNK";
	static const char syntax[] = "mode: streams\nstreams: [\n  - {name: a\n";
	static const char schema[] = "mode: streams\n"
				     "streams:\n"
				     "  - name: s0\n"
				     "    port: 0\n"
				     "    rate: fast\n";
	char err[FG_ERRLEN];
	struct prof p;

	(void)state;
	assert_int_equal(prof_load_buf("otg-config", good, sizeof(good) - 1 - 4, &p, err,
				       sizeof(err)),
			 0);
	assert_string_equal(p.file, "otg-config");
	assert_int_equal(p.mode, PROF_STREAMS);
	assert_int_equal(p.n_streams, 1);
	assert_string_equal(p.streams[0].name, "s0");
	assert_int_equal(p.streams[0].frame, 128);
	assert_int_equal(p.streams[0].rate.kind, UNITS_PCT);
	assert_true(p.streams[0].rate.value == 12.5);
	prof_free(&p);

	assert_int_equal(prof_load_buf("otg-config", syntax, strlen(syntax), &p, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "otg-config:3:3: did not find expected node content while "
				 "parsing a flow node");
	assert_null(p.streams);
	assert_null(p.file);

	assert_int_equal(prof_load_buf("otg-config", schema, strlen(schema), &p, err, sizeof(err)),
			 -EINVAL);
	assert_true(strncmp(err, "otg-config:5:11: ", 17) == 0);
	assert_null(p.streams);
}

static void test_missing_file(void **state)
{
	char err[FG_ERRLEN];
	struct prof p;

	(void)state;
	assert_int_equal(prof_load("profiles/nope.yaml", &p, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "profiles/nope.yaml: No such file or directory");
}

#define PROG_HEAD                                                                                  \
	"mode: flows\n"                                                                            \
	"ip_gen:\n"                                                                                \
	"  client: {range: [198.18.0.1, 198.18.0.254]}\n"                                          \
	"  server: {range: [198.19.0.1, 198.19.0.254]}\n"                                          \
	"templates:\n"                                                                             \
	"  - name: t\n"                                                                            \
	"    proto: tcp\n"                                                                         \
	"    port: 80\n"

static void load_buf(const char *text, struct prof *p)
{
	char err[FG_ERRLEN] = "";

	if (prof_load_buf("t.yaml", text, strlen(text), p, err, sizeof(err)))
		fail_msg("%s", err);
}

/*
 * Address lists (order kept, range the lowest and highest, IPv6 low 32
 * bits with the /96 in hi96) and a template's own client ports beside
 * ip_gen's.
 */
static void test_ip_lists(void **state)
{
	static const char v6[] =
	    "mode: flows\n"
	    "ip_gen:\n"
	    "  client: {list: [\"2001:2::9:1\", \"2001:2::1:7\"]}\n"
	    "  server: {range: [\"2001:2:1::1\", \"2001:2:1::9\"]}\n"
	    "templates:\n"
	    "  - {name: t, port: 9, client: [{send: 1}], server: [{recv: 1}]}\n";
	static const uint8_t hi96[12] = {0x20, 0x01, 0, 2};
	struct prof p;
	struct yamlu_range r;

	(void)state;
	load("addr_lists.yaml", &p);
	assert_int_equal(p.ip_gen.client.n_list, 5);
	assert_int_equal(p.ip_gen.client.list[0], IP(198, 18, 0, 7));
	assert_int_equal(p.ip_gen.client.list[4], IP(198, 18, 0, 250));
	assert_int_equal(p.ip_gen.client.range.lo, IP(198, 18, 0, 7));
	assert_int_equal(p.ip_gen.client.range.hi, IP(198, 18, 0, 250));
	assert_false(p.ip_gen.client.v6);
	assert_int_equal(p.ip_gen.server.n_list, 3);
	assert_int_equal(p.ip_gen.server.dist, PROF_DIST_RAND);
	assert_int_equal(p.n_templates, 2);
	r = prof_client_ports(&p, &p.templates[0]);
	assert_true(p.templates[0].has_client_ports);
	assert_int_equal(r.lo, 20000);
	assert_int_equal(r.hi, 29999);
	r = prof_client_ports(&p, &p.templates[1]);
	assert_int_equal(r.lo, 40000);
	assert_int_equal(r.hi, 49999);
	prof_free(&p);

	load_buf(v6, &p);
	assert_true(p.ip_gen.client.v6);
	assert_int_equal(p.ip_gen.client.n_list, 2);
	assert_int_equal(p.ip_gen.client.list[0], IP(0, 9, 0, 1));
	assert_int_equal(p.ip_gen.client.list[1], IP(0, 1, 0, 7));
	assert_int_equal(p.ip_gen.client.range.lo, IP(0, 1, 0, 7));
	assert_memory_equal(p.ip_gen.client.hi96, hi96, 12);
	assert_null(p.ip_gen.server.list);
	/* no client_ports of its own: ip_gen's default */
	assert_false(p.templates[0].has_client_ports);
	r = prof_client_ports(&p, &p.templates[0]);
	assert_int_equal(r.lo, 1024);
	assert_int_equal(r.hi, 65535);
	prof_free(&p);
}

/* Bytes (YAML escapes, hex), until, close, and repeats unrolled with
 * their stream offsets (prof-t.h). */
static void test_program_bytes(void **state)
{
	static const char text[] =
	    PROG_HEAD "    client:\n"
		      "      - send: {data: \"GET / HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n\"}\n"
		      "      - repeat:\n"
		      "          times: 3\n"
		      "          steps:\n"
		      "            - send: {hex: \"00 ff:10\"}\n"
		      "            - repeat: {times: 2, steps: [ {send: 5}, {delay: 250} ]}\n"
		      "      - close: true\n"
		      "      - recv: {until: \"\\r\\n\\r\\n\"}\n"
		      "      - recv: {until_close: true}\n"
		      "    server:\n"
		      "      - recv: {until: \"\\r\\n\\r\\n\"}\n"
		      "      - send: 100\n";
	const struct prof_program *c, *v;
	struct prof p;

	(void)state;
	load_buf(text, &p);
	c = &p.templates[0].client;
	v = &p.templates[0].server;
	/* 1 + 3 * (1 + 2 * 2) + 3 */
	assert_int_equal(c->n, 19);
	assert_int_equal(c->steps[0].op, PROF_OP_SEND);
	assert_int_equal(c->steps[0].arg, 27);
	assert_memory_equal(c->steps[0].data, "GET / HTTP/1.1\r\nHost: a\r\n\r\n", 27);
	assert_int_equal(c->steps[1].arg, 3);
	assert_memory_equal(c->steps[1].data, "\x00\xff\x10", 3);
	assert_int_equal(c->steps[1].off, 27);
	assert_null(c->steps[2].data);
	assert_int_equal(c->steps[2].off, 30);
	assert_int_equal(c->steps[3].op, PROF_OP_DELAY);
	assert_int_equal(c->steps[3].off, 35); /* the next send's */
	assert_int_equal(c->steps[4].off, 35);
	/* the second iteration shares the first's bytes */
	assert_ptr_equal(c->steps[6].data, c->steps[1].data);
	assert_int_equal(c->steps[6].off, 27 + 13);
	assert_int_equal(c->steps[16].op, PROF_OP_CLOSE);
	assert_int_equal(c->steps[17].op, PROF_OP_UNTIL);
	assert_int_equal(c->steps[17].arg, 4);
	assert_memory_equal(c->steps[17].data, "\r\n\r\n", 4);
	assert_int_equal(c->steps[18].op, PROF_OP_UNTIL_CLOSE);
	assert_int_equal(c->sent, 27 + 3 * 13);
	assert_int_equal(c->delay_ms, 3 * 2 * 250);
	assert_true(c->bytes && c->until && c->closes);
	assert_false(v->bytes || v->closes);
	assert_true(v->until);
	assert_int_equal(v->sent, 100);
	/* the default timeout, 3 s, plus the client's 1.5 s of delays */
	assert_float_equal(prof_tpl_timeout(&p, &p.templates[0]), 4.5, 1e-9);
	assert_float_equal(prof_flow_time(&p), 4.5, 1e-9);
	prof_free(&p);
}

/* `file:` is read relative to the profile's directory; a NUL in the
 * bytes is kept. */
static void test_program_file(void **state)
{
	char dirp[] = "/tmp/fg-prof-XXXXXX", path[600], err[FG_ERRLEN] = "";
	static const char text[] = PROG_HEAD "    client: [ {send: {file: req.bin}} ]\n"
					     "    server: [ {recv: 4} ]\n";
	struct prof p;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dirp));
	snprintf(path, sizeof(path), "%s/req.bin", dirp);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite("a\0b\n", 1, 4, f), 4);
	fclose(f);
	snprintf(path, sizeof(path), "%s/p.yaml", dirp);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	if (prof_load(path, &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(p.templates[0].client.n, 1);
	assert_int_equal(p.templates[0].client.steps[0].arg, 4);
	assert_memory_equal(p.templates[0].client.steps[0].data, "a\0b\n", 4);
	prof_free(&p);
	unlink(path);
	snprintf(path, sizeof(path), "%s/req.bin", dirp);
	unlink(path);
	rmdir(dirp);
}

/* A receiver that waits for a delimiter takes any byte count; one that
 * counts bytes must still match the peer's sends, repeats included. */
static void test_program_balance(void **state)
{
	static const char good[] =
	    PROG_HEAD "    client: [ {repeat: {times: 4, steps: [ {send: 10}, {recv: 3} ]}} ]\n"
		      "    server: [ {repeat: {times: 2, steps: [ {recv: 20}, {send: 6} ]}} ]\n";
	static const char bad[] =
	    PROG_HEAD "    client: [ {repeat: {times: 4, steps: [ {send: 10}, {recv: 3} ]}} ]\n"
		      "    server: [ {repeat: {times: 3, steps: [ {recv: 20}, {send: 4} ]}} ]\n";
	char err[FG_ERRLEN];
	struct prof p;

	(void)state;
	load_buf(good, &p);
	assert_int_equal(p.templates[0].client.n, 8);
	assert_int_equal(p.templates[0].server.n, 4);
	prof_free(&p);
	assert_int_equal(prof_load_buf("t.yaml", bad, strlen(bad), &p, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.yaml:6:5: template 't': the client sends 40 bytes but the "
				 "server receives 60");
}

/*
 * Each step's rcvd_before is the bytes of the recv N steps before it,
 * repeats unrolled (a UDP flow's consumed bytes at that step, flows.h):
 * recvs of 3 and 5 three times, around sends and delays, then 11.
 */
static void test_program_rcvd_before(void **state)
{
	static const char text[] =
	    "mode: flows\n"
	    "ip_gen:\n"
	    "  client: {range: [198.18.0.1, 198.18.0.254]}\n"
	    "  server: {range: [198.19.0.1, 198.19.0.254]}\n"
	    "templates:\n"
	    "  - name: t\n"
	    "    port: 53\n"
	    "    client:\n"
	    "      - send: 7\n"
	    "      - repeat:\n"
	    "          times: 3\n"
	    "          steps:\n"
	    "            - send: 10\n"
	    "            - recv: 3\n"
	    "            - repeat: {times: 2, steps: [ {delay: 1}, {recv: 5} ]}\n"
	    "      - recv: 11\n"
	    "      - send: 1\n"
	    "    server: [ {recv: 38}, {send: 25}, {send: 25} ]\n";
	/* send 7; three times send 10, recv 3, delay, recv 5, delay,
	 * recv 5 (13 bytes an iteration); recv 11; send 1 */
	static const uint32_t want[] = {0,  0,	0,  3,	3,  8,	8,  13, 13, 16, 16,
					21, 21, 26, 26, 29, 29, 34, 34, 39, 50};
	const struct prof_program *c, *v;
	uint32_t sum = 0;
	struct prof p;

	(void)state;
	load_buf(text, &p);
	assert_int_equal(p.templates[0].proto, PROF_UDP);
	c = &p.templates[0].client;
	v = &p.templates[0].server;
	assert_int_equal(c->n, 1 + 3 * 6 + 2);
	assert_int_equal(c->n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < c->n; i++) {
		assert_int_equal(c->steps[i].rcvd_before, want[i]);
		assert_int_equal(c->steps[i].rcvd_before, sum);
		if (c->steps[i].op == PROF_OP_RECV)
			sum += c->steps[i].arg;
	}
	/* the last step's count: all the server sends */
	assert_int_equal(c->steps[c->n - 1].rcvd_before, v->sent);
	assert_int_equal(v->n, 3);
	assert_int_equal(v->steps[0].rcvd_before, 0);
	assert_int_equal(v->steps[1].rcvd_before, 38);
	assert_int_equal(v->steps[2].rcvd_before, 38);
	prof_free(&p);
}

/*
 * profiles/http_simple.yaml: the template built from the capture `make`
 * writes (examples/http_pcap.py): TCP to port 80 from the capture, the
 * client's recorded GET then a recv of the response's size, the server
 * (implied) the other way round; keep_gaps puts the time before the
 * server's response (1.245 ms) before its send; a server of its own
 * and an explicit port stay.
 */
static void test_program_pcap(void **state)
{
	static const char gaps[] =
	    "mode: flows\n"
	    "ip_gen:\n"
	    "  client: {range: [198.18.0.1, 198.18.0.9]}\n"
	    "  server: {range: [198.19.0.1, 198.19.0.9]}\n"
	    "templates:\n"
	    "  - name: a\n"
	    "    port: 8080\n"
	    "    client: {pcap: profiles/http_simple.pcap, keep_gaps: true}\n"
	    "    server: {pcap: profiles/http_simple.pcap, keep_gaps: true}\n";
	const struct prof_program *c, *sv;
	char err[FG_ERRLEN];
	struct prof p;

	(void)state;
	load("http_simple.yaml", &p);
	assert_int_equal(p.templates[0].proto, PROF_TCP);
	assert_int_equal(p.templates[0].port, 80);
	c = &p.templates[0].client;
	sv = &p.templates[0].server;
	assert_int_equal(c->n, 2);
	assert_int_equal(c->steps[0].op, PROF_OP_SEND);
	assert_int_equal(c->steps[0].arg, 80);
	assert_non_null(c->steps[0].data);
	assert_memory_equal(c->steps[0].data, "GET /index.html HTTP/1.1\r\nHost: 198.19.0.1\r\n",
			    42);
	assert_int_equal(c->steps[1].op, PROF_OP_RECV);
	assert_int_equal(c->steps[1].arg, 775);
	assert_int_equal(sv->n, 2);
	assert_int_equal(sv->steps[0].op, PROF_OP_RECV);
	assert_int_equal(sv->steps[0].arg, 80);
	assert_int_equal(sv->steps[1].op, PROF_OP_SEND);
	assert_int_equal(sv->steps[1].arg, 775);
	assert_memory_equal(sv->steps[1].data, "HTTP/1.1 200 OK\r\n", 17);
	assert_true(c->bytes && sv->bytes);
	assert_int_equal(c->sent, 80);
	assert_int_equal(sv->sent, 775);
	prof_free(&p);

	assert_int_equal(prof_load_buf("g.yaml", gaps, strlen(gaps), &p, err, sizeof(err)), 0);
	assert_int_equal(p.templates[0].port, 8080);
	sv = &p.templates[0].server;
	assert_int_equal(sv->n, 3);
	assert_int_equal(sv->steps[1].op, PROF_OP_DELAY);
	assert_int_equal(sv->steps[1].arg, 1);
	assert_int_equal(sv->steps[2].op, PROF_OP_SEND);
	assert_int_equal(p.templates[0].client.n, 2); /* the client speaks first: no gap */
	prof_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_all_shipped_load),
	    cmocka_unit_test(test_udp_short),
	    cmocka_unit_test(test_udp_imix_tcp_short),
	    cmocka_unit_test(test_stl),
	    cmocka_unit_test(test_l3_many_hosts),
	    cmocka_unit_test(test_defaults_and_forms),
	    cmocka_unit_test(test_template_limit),
	    cmocka_unit_test(test_groups),
	    cmocka_unit_test(test_prog_once),
	    cmocka_unit_test(test_bad_files),
	    cmocka_unit_test(test_ip_lists),
	    cmocka_unit_test(test_missing_file),
	    cmocka_unit_test(test_load_buf),
	    cmocka_unit_test(test_stream_count_and_sizes),
	    cmocka_unit_test(test_streams_ipv6),
	    cmocka_unit_test(test_stl_syn_icmp),
	    cmocka_unit_test(test_program_bytes),
	    cmocka_unit_test(test_program_file),
	    cmocka_unit_test(test_program_balance),
	    cmocka_unit_test(test_program_rcvd_before),
	    cmocka_unit_test(test_program_pcap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
