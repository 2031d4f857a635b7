/*
 * test_otg.c — the OTG config translation (src/api/otg_plan.c,
 * otg_hdr.c, otg_pat.c, otg_yaml.c) without DPDK: three configs of the
 * acceptance set (IPv4 UDP of a fixed size; IPv6 UDP with incrementing
 * source addresses; IMIX weight pairs; each with latency metrics and
 * fixed_packets) become the plans and the streams profiles they should,
 * and the profile loads through prof_load_buf; configs the engine cannot
 * send fail with the path of the first bad field; the pcapng filter of
 * the capture replies keeps one port's packets.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "otg_int.h"
#include "prof.h"

#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

static struct otg_env env4(void)
{
	struct otg_env e = {.nports = 4};

	for (int p = 0; p < 4; p++)
		snprintf(e.iface[p], sizeof(e.iface[p]), "net_af_packet%d,iface=fg%d", p, p);
	snprintf(e.kiface[0], sizeof(e.kiface[0]), "fg0");
	snprintf(e.kiface[1], sizeof(e.kiface[1]), "fg1");
	return e;
}

static const char ports_json[] = "\"ports\": [{\"name\": \"p1\", \"location\": \"0\"}, {\"name\": "
				 "\"p2\", \"location\": \"fg1\"}]";

/* Translate text; 0 or the error. */
static int plan_of(const char *text, struct otg_plan *pl, char *err, size_t len)
{
	struct otg_env e = env4();
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	int rc;

	if (!j)
		fail_msg("bad test JSON: %s at %d:%d", je.text, je.line, je.column);
	rc = otg_plan_from_json(j, &e, pl, err, len);
	json_decref(j);
	return rc;
}

static void load_yaml(const struct otg_plan *pl, struct prof *p)
{
	char *y = otg_plan_yaml(pl, NULL), err[FG_ERRLEN];

	assert_non_null(y);
	if (prof_load_buf("otg.yaml", y, strlen(y), p, err, sizeof(err)))
		fail_msg("%s\n%s", err, y);
	free(y);
}

/* Acceptance 1: IPv4 UDP, 128-byte frames, 1000 pps, 5000 packets, latency. */
static void test_ipv4_udp_fixed(void **state)
{
	static const char cfg[] =
	    "{%s, \"flows\": [{\"name\": \"f1\", \"tx_rx\": {\"choice\": \"port\", \"port\": "
	    "{\"tx_name\": \"p1\", \"rx_names\": [\"p2\"]}},"
	    " \"packet\": [{\"choice\": \"ethernet\", \"ethernet\": {}},"
	    "  {\"choice\": \"ipv4\", \"ipv4\": {\"src\": {\"choice\": \"value\", \"value\": "
	    "\"198.18.0.1\"}, \"dst\": {\"choice\": \"value\", \"value\": \"198.19.0.1\"}}},"
	    "  {\"choice\": \"udp\", \"udp\": {\"src_port\": {\"choice\": \"value\", \"value\": "
	    "1024},"
	    "   \"dst_port\": {\"choice\": \"value\", \"value\": 4321}}}],"
	    " \"size\": {\"choice\": \"fixed\", \"fixed\": 128},"
	    " \"rate\": {\"choice\": \"pps\", \"pps\": 1000},"
	    " \"duration\": {\"choice\": \"fixed_packets\", \"fixed_packets\": {\"packets\": "
	    "5000}},"
	    " \"metrics\": {\"enable\": true, \"loss\": true, \"latency\": {\"enable\": true}}}]}";
	char text[4096], err[FG_ERRLEN];
	struct otg_plan pl;
	struct prof p;

	(void)state;
	snprintf(text, sizeof(text), cfg, ports_json);
	if (plan_of(text, &pl, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(pl.n_ports, 2);
	assert_int_equal(pl.ports[1].index, 1);
	assert_int_equal(pl.n_flows, 1);
	assert_string_equal(pl.flows[0].stream, "f1");
	assert_int_equal(pl.flows[0].tx, 0);
	assert_int_equal(pl.flows[0].rx, 1);
	assert_int_equal(pl.flows[0].frame, 128);
	assert_true(pl.flows[0].latency);
	assert_int_equal(pl.flows[0].packets, 5000);
	assert_true(pl.duration_s == 0); /* the stream's count ends the run */
	assert_int_equal(pl.n_warnings, 0);
	load_yaml(&pl, &p);
	assert_int_equal(p.n_streams, 1);
	assert_int_equal(p.streams[0].frame, 128);
	assert_int_equal(p.streams[0].count, 5000);
	assert_true(prof_streams_counted(&p));
	assert_int_equal(p.streams[0].port, 0);
	assert_true(p.streams[0].latency);
	assert_int_equal(p.streams[0].rate.kind, UNITS_PPS);
	assert_true(p.streams[0].rate.value == 1000);
	assert_int_equal(p.streams[0].src.lo, IP(198, 18, 0, 1));
	assert_int_equal(p.streams[0].dst.lo, IP(198, 19, 0, 1));
	assert_int_equal(p.streams[0].sport.lo, 1024);
	assert_int_equal(p.streams[0].dport.lo, 4321);
	prof_free(&p);
	otg_plan_free(&pl);
}

/* Acceptance 2: IPv6 UDP, source incrementing over 100 addresses. */
static void test_ipv6_increment(void **state)
{
	static const char cfg[] =
	    "{%s, \"flows\": [{\"name\": \"v6 flow\", \"tx_rx\": {\"port\": {\"tx_name\": \"p2\", "
	    "\"rx_names\": [\"p1\"]}},"
	    " \"packet\": [{\"choice\": \"ethernet\"},"
	    "  {\"choice\": \"ipv6\", \"ipv6\": {\"src\": {\"choice\": \"increment\", "
	    "\"increment\": "
	    "{\"start\": \"2001:2::10\", \"step\": \"::1\", \"count\": 100}}, \"dst\": {\"value\": "
	    "\"2001:2:0:100::1\"}}},"
	    "  {\"choice\": \"udp\", \"udp\": {\"src_port\": {\"choice\": \"random\", \"random\": "
	    "{\"min\": 1024, \"max\": 65535, \"seed\": 7}}}}],"
	    " \"size\": {\"fixed\": 256}, \"rate\": {\"choice\": \"pps\", \"pps\": 2000},"
	    " \"duration\": {\"choice\": \"fixed_packets\", \"fixed_packets\": {\"packets\": 100}},"
	    " \"metrics\": {\"enable\": true, \"latency\": {\"enable\": true}}}]}";
	char text[4096], err[FG_ERRLEN];
	struct otg_plan pl;
	struct prof p;

	(void)state;
	snprintf(text, sizeof(text), cfg, ports_json);
	if (plan_of(text, &pl, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(pl.flows[0].stream, "flow0"); /* the name has a space */
	assert_int_equal(pl.flows[0].tx, 1);
	assert_true(pl.flows[0].v6);
	assert_int_equal(pl.flows[0].src.lo, 0x10);
	assert_int_equal(pl.flows[0].src.hi, 0x10 + 99);
	assert_int_equal(pl.flows[0].src.mode, PROF_VAR_INC);
	assert_true(pl.has_seed);
	assert_int_equal(pl.seed, 7);
	load_yaml(&pl, &p);
	assert_true(p.streams[0].v6);
	assert_int_equal(p.streams[0].src.lo, 0x10);
	assert_int_equal(p.streams[0].src.hi, 0x10 + 99);
	assert_int_equal(p.streams[0].src.mode, PROF_VAR_INC);
	assert_int_equal(p.streams[0].sport.mode, PROF_VAR_RAND);
	assert_int_equal(p.streams[0].sport.lo, 1024);
	assert_int_equal(p.streams[0].sport.hi, 65535);
	assert_int_equal(p.streams[0].tx_mask, 1u << 1);
	assert_int_equal(p.seed, 7);
	assert_int_equal(p.streams[0].src6[15], 0x10);
	assert_int_equal(p.streams[0].dst6[1], 0x01);
	prof_free(&p);
	otg_plan_free(&pl);
}

/* Acceptance 3: IMIX weight pairs, predefined and custom. */
static void test_imix(void **state)
{
	static const char cfg[] =
	    "{%s, \"flows\": [{\"name\": \"imix\", \"tx_rx\": {\"port\": {\"tx_name\": \"p1\"}},"
	    " \"packet\": [{\"ethernet\": {}}, {\"ipv4\": {\"src\": {\"values\": [\"10.0.0.1\", "
	    "\"10.0.0.2\", \"10.0.0.3\"]}, \"dst\": {\"choice\": \"decrement\", \"decrement\": "
	    "{\"start\": \"10.1.0.9\", \"count\": 5}}}}, {\"udp\": {}}],"
	    " \"size\": {\"choice\": \"weight_pairs\", \"weight_pairs\": {\"choice\": \"%s\", %s}},"
	    " \"rate\": {\"choice\": \"mbps\", \"mbps\": 100},"
	    " \"duration\": {\"choice\": \"fixed_seconds\", \"fixed_seconds\": {\"seconds\": 2}},"
	    " \"metrics\": {\"enable\": true, \"latency\": {\"enable\": true}}}]}";
	char text[4096], err[FG_ERRLEN];
	struct otg_plan pl;
	struct prof p;

	(void)state;
	snprintf(text, sizeof(text), cfg, ports_json, "predefined", "\"predefined\": \"imix\"");
	if (plan_of(text, &pl, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(pl.flows[0].imix);
	assert_int_equal(pl.n_imix, 3);
	assert_int_equal(pl.imix[1].size, 570);
	assert_int_equal(pl.imix[1].weight, 4);
	assert_int_equal(pl.flows[0].src.mode, PROF_VAR_INC);
	assert_int_equal(pl.flows[0].src.hi, IP(10, 0, 0, 3));
	assert_int_equal(pl.flows[0].dst.lo, IP(10, 1, 0, 5));
	assert_int_equal(pl.flows[0].dst.mode, PROF_VAR_DEC);
	assert_true(pl.duration_s == 2.0);
	load_yaml(&pl, &p);
	assert_true(p.streams[0].imix);
	assert_int_equal(p.n_imix, 3);
	assert_int_equal(p.imix[0].size, 64);
	assert_int_equal(p.imix[0].weight, 7);
	assert_int_equal(p.streams[0].rate.kind, UNITS_BPS);
	assert_true(p.streams[0].rate.value == 100e6);
	assert_int_equal(p.streams[0].dst.mode, PROF_VAR_DEC);
	prof_free(&p);
	otg_plan_free(&pl);

	snprintf(
	    text, sizeof(text), cfg, ports_json, "custom",
	    "\"custom\": [{\"size\": 64, \"weight\": 0.5}, {\"size\": 1500, \"weight\": 1.5}]");
	if (plan_of(text, &pl, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(pl.n_imix, 2);
	assert_int_equal(pl.imix[0].weight, 1);
	assert_int_equal(pl.imix[1].weight, 3);
	load_yaml(&pl, &p);
	prof_free(&p);
	otg_plan_free(&pl);
}

/* A config that fails names its first bad field. */
static void expect(const char *flow_tail, const char *want)
{
	char text[4096], err[FG_ERRLEN];
	struct otg_plan pl;

	snprintf(text, sizeof(text),
		 "{%s, \"flows\": [{\"name\": \"ok\", \"tx_rx\": {\"port\": {\"tx_name\": \"p1\"}},"
		 " \"packet\": [{\"ethernet\": {}}, {\"ipv4\": {}}, {\"udp\": {}}]},"
		 " {\"name\": \"f\", \"tx_rx\": {\"port\": {\"tx_name\": \"p1\"}}, %s}]}",
		 ports_json, flow_tail);
	if (!plan_of(text, &pl, err, sizeof(err)))
		fail_msg("accepted: %s", flow_tail);
	if (strncmp(err, want, strlen(want)))
		fail_msg("got '%s', want '%s...'", err, want);
	assert_null(pl.flows);
}

#define PKT_UDP "\"packet\": [{\"ethernet\": {}}, {\"ipv4\": {}}, {\"udp\": {}}]"
#define PKT4(x) "\"packet\": [{\"ethernet\": {}}, {\"ipv4\": " x "}, {\"udp\": {}}]"
#define PKT_L4(ip, l4, x)                                                                          \
	"\"packet\": [{\"ethernet\": {}}, {\"ipv4\": " ip "}, {\"choice\": \"" l4 "\", \"" l4      \
	"\": " x "}]"

static void test_errors(void **state)
{
	(void)state;
	expect(PKT4("{\"src\": {\"values\": [\"1.1.1.1\", \"1.1.1.9\"]}}"),
	       "flows[1].packet[1].ipv4.src.values: not supported");
	expect(PKT4("{\"src\": {\"choice\": \"increment\", \"increment\": {\"start\": \"1.1.1.1\", "
		    "\"step\": \"0.0.0.2\", \"count\": 4}}}"),
	       "flows[1].packet[1].ipv4.src.increment: not supported: step 2");
	expect(PKT4("{\"time_to_live\": {\"value\": 3}}"),
	       "flows[1].packet[1].ipv4: time_to_live: not supported");
	expect(PKT4("{\"bogus\": 1}"), "flows[1].packet[1].ipv4: unknown field 'bogus'");
	expect(PKT4("{\"src\": {\"value\": 7}}"),
	       "flows[1].packet[1].ipv4.src.value: must be an IPv4");
	expect(PKT4("{\"src\": {\"choice\": \"random\", \"random\": {}}, \"dst\": {\"choice\": "
		    "\"auto\"}}"),
	       "flows[1].packet[1].ipv4: dst.auto: not supported");
	expect(PKT_L4("{}", "tcp",
		      "{\"ctl_syn\": {\"choice\": \"increment\", \"increment\": "
		      "{\"start\": 0, \"count\": 2}}}"),
	       "flows[1].packet[2].tcp: ctl_syn: not supported: flowgen sends one value");
	expect(
	    PKT_L4("{}", "tcp", "{\"data_offset\": {\"value\": 6}}"),
	    "flows[1].packet[2].tcp: data_offset: not supported: flowgen sends a 20-byte header");
	expect(PKT_L4("{}", "tcp",
		      "{\"checksum\": {\"choice\": \"generated\", \"generated\": "
		      "\"bad\"}}"),
	       "flows[1].packet[2].tcp: checksum: not supported: flowgen sends good checksums");
	expect(PKT_L4("{\"protocol\": {\"value\": 17}}", "tcp", "{}"),
	       "flows[1].packet[1].ipv4.protocol: not supported: 17, but the header that follows "
	       "is tcp (6)");
	expect(PKT_L4("{}", "icmp", "{\"echo\": {\"type\": {\"value\": 3}}}"),
	       "flows[1].packet[2].icmp.echo: type: not supported: flowgen sends echo requests (8) "
	       "and replies (0)");
	expect(PKT_L4("{}", "icmp", "{\"echo\": {\"identifier\": {\"choice\": \"random\"}}}"),
	       "flows[1].packet[2].icmp.echo.identifier: choice 'random' is not one the model has");
	expect(PKT_L4("{}", "icmp", "{\"choice\": \"nope\"}"),
	       "flows[1].packet[2].icmp: choice 'nope' is not one of the model's");
	expect("\"packet\": [{\"ethernet\": {}}, {\"ipv6\": {}}, {\"icmp\": {}}]",
	       "flows[1].packet[2]: icmp: not supported here");
	expect("\"packet\": [{\"ethernet\": {}}, {\"ipv4\": {}}, {\"icmpv6\": {}}]",
	       "flows[1].packet[2]: icmpv6: not supported here");
	expect(PKT_L4("{}", "tcp", "{}") ", \"size\": {\"fixed\": 70}",
	       "flows[1].size: fixed: not supported: 70");
	expect("\"packet\": [{\"ethernet\": {}}, {\"gre\": {}}]",
	       "flows[1].packet[1]: gre: not supported");
	expect("\"packet\": [{\"ethernet\": {}}, {\"vlan\": {}}, {\"ipv4\": {}}, {\"udp\": {}}]",
	       "flows[1].packet[1].vlan: not supported: port 0 sends untagged");
	expect("\"packet\": [{\"ipv4\": {}}, {\"udp\": {}}]",
	       "flows[1].packet[0]: ipv4: not supported here");
	expect("\"packet\": [{\"ethernet\": {}}, {\"ipv4\": {}}]",
	       "flows[1]: packet: not supported");
	expect("\"packet\": [{\"wat\": {}}]", "flows[1].packet[0]: unknown field 'wat'");
	expect(PKT4("{}") ", \"size\": {\"choice\": \"increment\", \"increment\": {\"start\": 60}}",
	       "flows[1].size.increment: not supported: 60 to 1518");
	expect(PKT4("{}") ", \"size\": {\"random\": {\"min\": 900, \"max\": 900}}",
	       "flows[1].size.random: min must be below max");
	expect(PKT4("{}") ", \"size\": {\"increment\": {\"start\": 64, \"end\": 70, \"step\": 7}}",
	       "flows[1].size.increment: step: 7 is more than end - start");
	expect(PKT4("{}") ", \"size\": {\"fixed\": 60}", "flows[1].size: fixed: not supported: 60");
	expect(PKT4("{}") ", \"size\": {\"weight_pairs\": {\"predefined\": \"standard_imix\"}}",
	       "flows[1].size.weight_pairs: not supported: size 58");
	expect(PKT4("{}") ", \"rate\": {\"pps\": \"x\"}",
	       "flows[1].rate: 'pps' must be an unsigned");
	expect(PKT4("{}") ", \"duration\": {\"choice\": \"burst\", \"burst\": {}}",
	       "flows[1].duration: burst: not supported");
	expect(PKT4("{}") ", \"rate\": {\"percentage\": 5}, \"duration\": {\"fixed_seconds\": "
			  "{\"seconds\": 3}}",
	       "flows[1].duration: not supported: flows[1] runs 3 s at a rate not in pps (it "
	       "stops with the run) and flows[0] continuously");
	expect(PKT4("{}") ", \"metrics\": {\"enable\": 1}",
	       "flows[1].metrics: 'enable' must be a boolean");
	expect("\"packet\": [{\"ethernet\": {}}, {\"ipv4\": {}}, {\"udp\": {}}], \"tx_rx\": {}",
	       "flows[1].tx_rx.port: tx_name: required"); /* a duplicate key: the last counts */
}

static void test_config_errors(void **state)
{
	struct otg_plan pl;
	char err[FG_ERRLEN];

	(void)state;
	assert_int_equal(plan_of("{\"devices\": [{\"name\": \"d\"}]}", &pl, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "devices: not supported by flowgen");
	assert_int_equal(plan_of("{\"ports\": [{\"name\": \"a\", \"location\": \"eth9\"}]}", &pl,
				 err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "ports[0]: location: 'eth9' is none of flowgen's ports"));
	assert_int_equal(plan_of("{\"ports\": 3}", &pl, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "ports: 'ports' must be an array");
	assert_int_equal(plan_of("{\"port\": []}", &pl, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "config: unknown field 'port'");
	assert_int_equal(plan_of("{\"ports\": [{\"name\": \"a\", \"location\": \"2\"}], \"flows\": "
				 "[{\"name\": \"x\", \"tx_rx\": {\"port\": {\"tx_name\": \"a\", "
				 "\"rx_name\": \"a\"}}, \"packet\": [{\"ethernet\": {}}]}]}",
				 &pl, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "flows[0].tx_rx.port.rx_name: not supported: port 2 sends to its "
				 "pair, port 3");
	assert_int_equal(
	    plan_of("{\"ports\": [{\"name\": \"a\"}], \"captures\": [{\"name\": \"c\", "
		    "\"port_names\": [\"b\"]}]}",
		    &pl, err, sizeof(err)),
	    -EINVAL);
	assert_string_equal(err, "captures[0].port_names[0]: no port named 'b'");
	assert_int_equal(
	    plan_of("{\"ports\": [{\"name\": \"a\"}], \"captures\": [{\"name\": \"c\", "
		    "\"port_names\": [\"a\"], \"format\": \"pcapng\"}]}",
		    &pl, err, sizeof(err)),
	    0);
	assert_int_equal(pl.n_caps, 1);
	assert_true(pl.caps[0].pcapng);
	assert_int_equal(pl.caps[0].port_mask, 1);
	otg_plan_free(&pl);
}

/* Warnings: what flowgen ignores, and a pick of flows in the profile. */
static void test_warnings_and_pick(void **state)
{
	static const char cfg[] =
	    "{%s, \"flows\": [{\"name\": \"a\", \"tx_rx\": {\"port\": {\"tx_name\": \"p1\"}},"
	    " \"packet\": [{\"ethernet\": {\"dst\": {\"value\": \"00:11:22:33:44:55\"}}}, "
	    "{\"ipv4\": "
	    "{}}, {\"udp\": {}}], \"metrics\": {\"timestamps\": true}},"
	    " {\"name\": \"b\", \"tx_rx\": {\"port\": {\"tx_name\": \"p2\"}}, \"packet\": "
	    "[{\"ethernet\": {}}, {\"ipv4\": {}}, {\"udp\": {}}]}]}";
	char text[4096], err[FG_ERRLEN], *y;
	bool pick[2] = {false, true};
	struct otg_plan pl;
	struct prof p;

	(void)state;
	snprintf(text, sizeof(text), cfg, ports_json);
	if (plan_of(text, &pl, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(pl.n_warnings, 2);
	assert_non_null(strstr(pl.warnings[0], "flows[0].packet[0].ethernet.dst: ignored"));
	y = otg_plan_yaml(&pl, pick);
	assert_non_null(y);
	if (prof_load_buf("otg.yaml", y, strlen(y), &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(p.n_streams, 1);
	assert_string_equal(p.streams[0].name, "b");
	assert_int_equal(p.streams[0].port, 1);
	prof_free(&p);
	free(y);
	otg_plan_free(&pl);
}

/* Is there a warning containing each of want (NULL-terminated), and no other? */
static void warnings_are(const struct otg_plan *pl, const char *const *want)
{
	size_t n = 0;

	for (; want[n]; n++) {
		size_t i;

		for (i = 0; i < pl->n_warnings && !strstr(pl->warnings[i], want[n]); i++)
			;
		if (i == pl->n_warnings)
			fail_msg("no warning '%s' (%zu warnings, first: %s)", want[n],
				 pl->n_warnings, pl->n_warnings ? pl->warnings[0] : "-");
	}
	if (pl->n_warnings != n)
		fail_msg("%zu warnings, %zu expected (first: %s)", pl->n_warnings, n,
			 pl->warnings[0]);
}

/*
 * Fields the model has and flowgen accepts without acting on them are
 * answered with a warning naming them: metrics.enable false, metrics.loss
 * false, captures[].overwrite true. Their other values are what flowgen
 * does, and say nothing.
 */
static void test_unused_fields_warn(void **state)
{
	static const char cfg[] =
	    "{%s, \"flows\": [{\"name\": \"a\", \"tx_rx\": {\"port\": {\"tx_name\": \"p1\"}},"
	    " \"packet\": [{\"ethernet\": {}}, {\"ipv4\": {}}, {\"udp\": {}}],"
	    " \"metrics\": {\"enable\": %s, \"loss\": %s}},"
	    " {\"name\": \"b\", \"tx_rx\": {\"port\": {\"tx_name\": \"p2\"}}, \"packet\": "
	    "[{\"ethernet\": {}}, {\"ipv4\": {}}, {\"udp\": {}}], \"metrics\": {\"enable\": true, "
	    "\"loss\": true}}],"
	    " \"captures\": [{\"name\": \"c\", \"port_names\": [\"p2\"], \"overwrite\": %s}]}";
	static const char cfg_bare[] =
	    "{%s, \"flows\": [{\"name\": \"a\", \"tx_rx\": {\"port\": {\"tx_name\": \"p1\"}},"
	    " \"packet\": [{\"ethernet\": {}}, {\"ipv4\": {}}, {\"udp\": {}}], \"metrics\": {}}],"
	    " \"captures\": [{\"name\": \"c\", \"port_names\": [\"p2\"]}]}";
	static const char *const all[] = {"flows[0].metrics.enable: false ignored",
					  "flows[0].metrics.loss: false ignored",
					  "captures[0].overwrite: true ignored", NULL};
	static const char *const none[] = {NULL};
	char text[4096], err[FG_ERRLEN];
	struct otg_plan pl;

	(void)state;
	snprintf(text, sizeof(text), cfg, ports_json, "false", "false", "true");
	if (plan_of(text, &pl, err, sizeof(err)))
		fail_msg("%s", err);
	warnings_are(&pl, all);
	assert_false(pl.flows[0].metrics);
	otg_plan_free(&pl);
	/* the values flowgen honours: no warning */
	snprintf(text, sizeof(text), cfg, ports_json, "true", "true", "false");
	if (plan_of(text, &pl, err, sizeof(err)))
		fail_msg("%s", err);
	warnings_are(&pl, none);
	otg_plan_free(&pl);
	/* absent: the model's defaults, nothing to say */
	snprintf(text, sizeof(text), cfg_bare, ports_json);
	if (plan_of(text, &pl, err, sizeof(err)))
		fail_msg("%s", err);
	warnings_are(&pl, none);
	otg_plan_free(&pl);
}

static void put32(uint8_t *b, uint32_t v) { memcpy(b, &v, 4); }

/* A pcapng file of two interfaces, one packet on each; keep interface 1. */
static void test_pcapng_port(void **state)
{
	uint8_t f[512], *out = NULL;
	size_t n = 0, len = 0;
	uint32_t v;

	(void)state;
	/* section header: type, length 28, magic, version 1.0, section length -1 */
	put32(f + n, 0x0a0d0d0a), put32(f + n + 4, 28), put32(f + n + 8, 0x1a2b3c4d);
	put32(f + n + 12, 1), put32(f + n + 16, 0xffffffff), put32(f + n + 20, 0xffffffff);
	put32(f + n + 24, 28), n += 28;
	for (int i = 0; i < 2; i++) { /* interface: linktype 1, snaplen 0, tsresol 9 */
		put32(f + n, 1), put32(f + n + 4, 32), put32(f + n + 8, 1), put32(f + n + 12, 0);
		put32(f + n + 16, 1 << 16 | 9), put32(f + n + 20, 9), put32(f + n + 24, 0);
		put32(f + n + 28, 32), n += 32;
	}
	for (uint32_t i = 0; i < 2; i++) { /* enhanced packet: 4 bytes of data */
		put32(f + n, 6), put32(f + n + 4, 36), put32(f + n + 8, i), put32(f + n + 12, 0);
		put32(f + n + 16, 1000000000u + i), put32(f + n + 20, 4), put32(f + n + 24, 60);
		put32(f + n + 28, 0xa0b0c0d0 + i), put32(f + n + 32, 36), n += 36;
	}
	assert_int_equal(otg_pcapng_port(f, n, 1, false, &out, &len), 0);
	assert_int_equal(len, 28 + 64 + 36);
	memcpy(&v, out + 28 + 64 + 8, 4);
	assert_int_equal(v, 1);
	free(out);
	assert_int_equal(otg_pcapng_port(f, n, 1, true, &out, &len), 0);
	assert_int_equal(len, 24 + 16 + 4);
	memcpy(&v, out, 4);
	assert_int_equal(v, 0xa1b23c4d); /* nanosecond pcap */
	memcpy(&v, out + 24 + 4, 4);	 /* nanoseconds of the one packet */
	assert_int_equal(v, 1000000001u % 1000000000u);
	memcpy(&v, out + 24 + 12, 4); /* original length */
	assert_int_equal(v, 60);
	free(out);
	assert_int_equal(otg_pcapng_port(f, 10, 1, true, &out, &len), -EINVAL);
}

/*
 * Each flow's own duration: fixed_packets is the stream's count at any
 * rate, fixed_seconds at a rate in pps is one too; a flow timed at a rate
 * in percent sets the run's duration; sizes increment and random are the
 * stream's range of sizes.
 */
static void test_durations_and_sizes(void **state)
{
	static const char cfg[] =
	    "{%s, \"flows\": [{\"name\": \"a\", \"tx_rx\": {\"port\": {\"tx_name\": \"p1\"}},"
	    " " PKT_UDP ", \"rate\": {\"percentage\": 1}, \"duration\": {\"fixed_packets\": "
	    "{\"packets\": 1500}}, \"size\": {\"increment\": {\"start\": 100, \"end\": 200, "
	    "\"step\": 30}}},"
	    " {\"name\": \"b\", \"tx_rx\": {\"port\": {\"tx_name\": \"p2\"}}, " PKT_UDP ","
	    " \"rate\": {\"pps\": 2000}, \"duration\": {\"fixed_seconds\": {\"seconds\": 1.25}},"
	    " \"size\": {\"random\": {\"min\": 64, \"max\": 1518}}},"
	    " {\"name\": \"c\", \"tx_rx\": {\"port\": {\"tx_name\": \"p1\"}}, " PKT_UDP ","
	    " \"rate\": {\"percentage\": 2}, \"duration\": {\"fixed_seconds\": {\"seconds\": 4}}}"
	    "]}";
	char text[4096], err[FG_ERRLEN];
	struct otg_plan pl;
	struct prof p;

	(void)state;
	snprintf(text, sizeof(text), cfg, ports_json);
	if (plan_of(text, &pl, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(pl.flows[0].packets, 1500);
	assert_int_equal(pl.flows[1].packets, 2500);
	assert_int_equal(pl.flows[2].packets, 0);
	assert_true(pl.duration_s == 4.0);
	load_yaml(&pl, &p);
	assert_int_equal(p.streams[0].count, 1500);
	assert_int_equal(p.streams[0].frames.mode, PROF_VAR_INC);
	assert_int_equal(p.streams[0].frames.lo, 100);
	assert_int_equal(p.streams[0].frames.hi, 200);
	assert_int_equal(p.streams[0].frame_step, 30);
	/* 100, 130, 160, 190: 145 on average */
	assert_true(prof_stream_avg_frame(&p, &p.streams[0]) == 145.0);
	assert_int_equal(p.streams[1].count, 2500);
	assert_int_equal(p.streams[1].frames.mode, PROF_VAR_RAND);
	assert_int_equal(p.streams[1].frames.hi, 1518);
	assert_int_equal(p.streams[2].count, 0);
	assert_int_equal(p.streams[2].frame, 64);
	assert_false(prof_streams_counted(&p));
	prof_free(&p);
	otg_plan_free(&pl);
}

/*
 * tcp, icmp and icmpv6 headers: the stream's proto and fixed fields, the
 * ports (or the echo identifier and sequence number) as its sport and
 * dport, the defaults of the model, and the floor of a TCP frame.
 */
static void test_tcp_icmp(void **state)
{
	static const char cfg[] =
	    "{%s, \"flows\": [{\"name\": \"t\", \"tx_rx\": {\"port\": {\"tx_name\": \"p1\"}},"
	    " \"packet\": [{\"ethernet\": {}}, {\"ipv4\": {\"protocol\": {\"value\": 6}}},"
	    " {\"tcp\": {\"src_port\": {\"increment\": {\"start\": 2000, \"count\": 50}},"
	    " \"seq_num\": {\"value\": 1000}, \"ack_num\": {\"value\": 9}, \"window\": "
	    "{\"value\": 1024}, \"ctl_syn\": {\"value\": 1}, \"ctl_ack\": {\"value\": 1},"
	    " \"ecn_cwr\": {\"value\": 1}, \"data_offset\": {\"value\": 5}}}],"
	    " \"size\": {\"fixed\": 76}},"
	    " {\"name\": \"i\", \"tx_rx\": {\"port\": {\"tx_name\": \"p1\"}},"
	    " \"packet\": [{\"ethernet\": {}}, {\"ipv4\": {}}, {\"icmp\": {\"echo\": "
	    "{\"identifier\": {\"value\": 7}, \"sequence_number\": {\"increment\": {\"start\": "
	    "1, \"count\": 1000}}}}}]},"
	    " {\"name\": \"i6\", \"tx_rx\": {\"port\": {\"tx_name\": \"p2\"}},"
	    " \"packet\": [{\"ethernet\": {}}, {\"ipv6\": {\"src\": {\"value\": \"2001:2::1\"}, "
	    "\"dst\": {\"value\": \"2001:2::2\"}}}, {\"icmpv6\": {\"choice\": \"echo\", "
	    "\"echo\": {\"type\": {\"value\": 129}, \"code\": {\"value\": 4}}}}],"
	    " \"size\": {\"fixed\": 84}}]}";
	char text[4096], err[FG_ERRLEN];
	struct otg_plan pl;
	struct prof p;

	(void)state;
	snprintf(text, sizeof(text), cfg, ports_json);
	if (plan_of(text, &pl, err, sizeof(err)))
		fail_msg("%s", err);
	load_yaml(&pl, &p);
	assert_int_equal(p.streams[0].proto, PROF_L4_TCP);
	assert_int_equal(p.streams[0].tcp.flags, 0x92); /* CWR, ACK, SYN */
	assert_int_equal(p.streams[0].tcp.seq, 1000);
	assert_int_equal(p.streams[0].tcp.ack, 9);
	assert_int_equal(p.streams[0].tcp.window, 1024);
	assert_int_equal(p.streams[0].sport.lo, 2000);
	assert_int_equal(p.streams[0].sport.hi, 2049);
	assert_int_equal(p.streams[0].sport.mode, PROF_VAR_INC);
	assert_int_equal(p.streams[0].dport.lo, 0); /* the model's default */
	assert_int_equal(p.streams[0].frame, 76);
	assert_int_equal(p.streams[1].proto, PROF_L4_ICMP);
	assert_int_equal(p.streams[1].icmp.type, 8); /* echo request, the default */
	assert_int_equal(p.streams[1].icmp.code, 0);
	assert_int_equal(p.streams[1].sport.lo, 7);
	assert_int_equal(p.streams[1].sport.mode, PROF_VAR_FIXED);
	assert_int_equal(p.streams[1].dport.lo, 1);
	assert_int_equal(p.streams[1].dport.hi, 1000);
	assert_int_equal(p.streams[1].dport.mode, PROF_VAR_INC);
	assert_int_equal(p.streams[2].proto, PROF_L4_ICMP);
	assert_true(p.streams[2].v6);
	assert_int_equal(p.streams[2].icmp.type, 129);
	assert_int_equal(p.streams[2].icmp.code, 4);
	prof_free(&p);
	otg_plan_free(&pl);
}

/* The JSON errors of the pattern and value types. */
static void test_pattern_errors(void **state)
{
	(void)state;
	expect(PKT4("{\"src\": {\"choice\": \"bogus\"}}"),
	       "flows[1].packet[1].ipv4.src: choice 'bogus' is not one of the model's");
	expect("\"packet\": [{\"ethernet\": {}}, {\"ipv6\": {\"src\": {\"choice\": \"random\"}}}, "
	       "{\"udp\": {}}]",
	       "flows[1].packet[1].ipv6.src: choice 'random' is not one the model has");
	expect("\"packet\": [{\"ethernet\": {}}, {\"ipv6\": {\"src\": {\"values\": [\"2001:2::1\", "
	       "\"2001:3::2\"]}}}, {\"udp\": {}}]",
	       "flows[1].packet[1].ipv6.src.values: not supported: values must share");
	expect("\"packet\": [{\"ethernet\": {}}, {\"ipv4\": {}}, {\"udp\": {\"dst_port\": "
	       "{\"choice\": \"increment\", \"increment\": {\"start\": 65535, \"count\": 2}}}}]",
	       "flows[1].packet[2].udp.dst_port.increment: start and count run past");
	expect("\"packet\": [{\"ethernet\": {}}, {\"ipv4\": {}}, {\"udp\": {\"src_port\": "
	       "{\"value\": 70000}}}]",
	       "flows[1].packet[2].udp.src_port.value: 70000 is above the maximum 65535");
	expect(
	    "\"packet\": [{\"ethernet\": {\"src\": {\"choice\": \"increment\", \"increment\": "
	    "{\"start\": \"00:00:00:00:00:01\", \"count\": 2}}}}, {\"ipv4\": {}}, {\"udp\": {}}]",
	    "flows[1].packet[0].ethernet: src: not supported");
	expect(PKT4("{\"options\": [{\"choice\": \"router_alert\"}]}"),
	       "flows[1].packet[1].ipv4: options: not supported");
	expect(PKT4("{\"header_checksum\": {\"choice\": \"generated\", \"generated\": \"bad\"}}"),
	       "flows[1].packet[1].ipv4: header_checksum: not supported");
}

/*
 * The profile a start runs (otg_plan_prof): built and loaded in memory
 * under the name otg-config, one stream per flow picked, and each
 * stream's rate the config's number itself, not a rounding of its text
 * (33.3333333333333 % was 33.3333 % through "%.6g").
 */
static void test_plan_prof(void **state)
{
	static const char cfg[] =
	    "{%s, \"flows\": [{\"name\": \"a\", \"tx_rx\": {\"port\": {\"tx_name\": \"p1\"}},"
	    " " PKT_UDP ", \"rate\": {\"percentage\": 33.333333333333336}},"
	    " {\"name\": \"b\", \"tx_rx\": {\"port\": {\"tx_name\": \"p2\"}}, " PKT_UDP ","
	    " \"rate\": {\"kbps\": 1234567}},"
	    " {\"name\": \"c\", \"tx_rx\": {\"port\": {\"tx_name\": \"p1\"}}, " PKT_UDP ","
	    " \"rate\": {\"pps\": 777}}]}";
	const bool pick[3] = {true, false, true}, none[3] = {false, false, false};
	char text[4096], err[FG_ERRLEN];
	struct otg_plan pl;
	struct prof p;

	(void)state;
	snprintf(text, sizeof(text), cfg, ports_json);
	if (plan_of(text, &pl, err, sizeof(err)))
		fail_msg("%s", err);
	if (otg_plan_prof(&pl, NULL, &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(p.file, "otg-config");
	assert_int_equal(p.n_streams, 3);
	assert_int_equal(p.streams[0].rate.kind, UNITS_PCT);
	assert_true(p.streams[0].rate.value == 33.333333333333336);
	assert_int_equal(p.streams[1].rate.kind, UNITS_BPS);
	assert_true(p.streams[1].rate.value == 1234567e3);
	assert_false(p.streams[1].rate.l1);
	assert_int_equal(p.streams[2].rate.kind, UNITS_PPS);
	assert_true(p.streams[2].rate.value == 777);
	prof_free(&p);
	if (otg_plan_prof(&pl, pick, &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(p.n_streams, 2);
	assert_string_equal(p.streams[1].name, "c");
	assert_true(p.streams[1].rate.value == 777);
	prof_free(&p);
	assert_int_equal(otg_plan_prof(&pl, none, &p, err, sizeof(err)), -ENOENT);
	otg_plan_free(&pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ipv4_udp_fixed), cmocka_unit_test(test_ipv6_increment),
	    cmocka_unit_test(test_imix),	   cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_config_errors),  cmocka_unit_test(test_warnings_and_pick),
	    cmocka_unit_test(test_unused_fields_warn),
	    cmocka_unit_test(test_pcapng_port), cmocka_unit_test(test_plan_prof),	   cmocka_unit_test(test_durations_and_sizes),
	    cmocka_unit_test(test_pattern_errors), cmocka_unit_test(test_tcp_icmp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
