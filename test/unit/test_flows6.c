/*
 * test_flows6.c — what is pure in flows over IPv6 and NAT64: the ip_gen
 * of a profile in either family (IPv6 ranges within one /96, keyed by
 * their low 32 bits; nat64_prefix a /96 of RFC 6052), the FILE:LINE:COL
 * errors for mixed or bad families, and the frame a NAT64 client flow
 * sends as flows6.c builds it: to the RFC 6052 address of the IPv4
 * server, UDP checksum equal to DPDK's rte_ipv6_udptcp_cksum(), parsed
 * back with the 32-bit key fields the flow table uses, and owned by the
 * worker its signature names or its port's share says (own.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <rte_ip.h>

#include "addr6.h"
#include "lat.h"
#include "own.h"
#include "pkt6.h"
#include "prof.h"

#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

static int load_str(const char *y, struct prof *p, char *err)
{
	return prof_load_buf("t.yaml", y, strlen(y), p, err, FG_ERRLEN);
}

#define HEAD "mode: flows\nip_gen:\n"
#define TPL                                                                                        \
	"templates:\n  - {name: a, proto: udp, port: 4321, client: [{send: 18}], server: [{recv: "  \
	"18}]}\n"

static void test_v6_ranges(void **state)
{
	static const uint8_t hi[12] = {0x20, 0x01, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0};
	char err[FG_ERRLEN] = "";
	struct prof p;

	(void)state;
	if (load_str(HEAD "  client: {range: [2001:2::7:1, 2001:2::7:ff]}\n"
			  "  server: {range: ['2001:2:0:100::1', '2001:2:0:100::2']}\n" TPL,
		     &p, err))
		fail_msg("%s", err);
	assert_true(p.ip_gen.client.v6);
	assert_true(p.ip_gen.server.v6);
	assert_memory_equal(p.ip_gen.client.hi96, hi, 12);
	assert_int_equal(p.ip_gen.client.range.lo, IP(0, 7, 0, 1));
	assert_int_equal(p.ip_gen.client.range.hi, IP(0, 7, 0, 0xff));
	assert_int_equal(p.ip_gen.server.hi96[6], 1); /* 2001:2:0:100:: */
	assert_int_equal(p.ip_gen.server.range.hi, 2);
	assert_false(p.ip_gen.has_nat64);
	prof_free(&p);
	/* IPv4 stays as it was */
	if (load_str(HEAD "  client: {range: [198.18.0.1, 198.18.0.9]}\n"
			  "  server: {range: [198.19.0.1, 198.19.0.1]}\n" TPL,
		     &p, err))
		fail_msg("%s", err);
	assert_false(p.ip_gen.client.v6);
	assert_int_equal(p.ip_gen.client.range.hi, IP(198, 18, 0, 9));
	prof_free(&p);
}

static void test_nat64_prefix(void **state)
{
	char err[FG_ERRLEN] = "";
	uint8_t want[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0x64};
	struct prof p;

	(void)state;
	if (load_str(HEAD "  client: {range: [2001:2::1, 2001:2::64]}\n"
			  "  server: {range: [198.19.0.1, 198.19.0.254]}\n"
			  "  nat64_prefix: \"2001:db8:64::/96\"\n" TPL,
		     &p, err))
		fail_msg("%s", err);
	assert_true(p.ip_gen.has_nat64);
	assert_int_equal(p.ip_gen.nat64_len, 96);
	assert_memory_equal(p.ip_gen.nat64_prefix, want, 16);
	assert_true(p.ip_gen.client.v6);
	assert_false(p.ip_gen.server.v6);
	prof_free(&p);
}

/* Each bad ip_gen fails with FILE:LINE:COL and the words that say why. */
static void test_errors(void **state)
{
	static const struct {
		const char *yaml, *where, *what;
	} c[] = {
	    {HEAD "  client: {range: [198.18.0.1, 2001:2::1]}\n  server: {range: [198.19.0.1, "
		  "198.19.0.2]}\n" TPL,
	     "t.yaml:3:19:", "one IPv4 and one IPv6"},
	    {HEAD "  client: {range: [2001:2::1, 2001:2:0:1::1]}\n  server: {range: "
		  "[2001:2:0:100::1, 2001:2:0:100::2]}\n" TPL,
	     "t.yaml:3:19:", "within one /96"},
	    {HEAD "  client: {range: [2001:2::9, 2001:2::1]}\n  server: {range: [2001:2:0:100::1, "
		  "2001:2:0:100::2]}\n" TPL,
	     "t.yaml:3:19:", "above the last"},
	    {HEAD "  client: {range: [2001:2::1, '2001:2::zz']}\n  server: {range: [198.19.0.1, "
		  "198.19.0.2]}\n" TPL,
	     "t.yaml:3:31:", "no IPv6 address"},
	    {HEAD "  client: {range: [198.18.0.1, 198.18.0.2]}\n  server: {range: [2001:2::1, "
		  "2001:2::2]}\n" TPL,
	     "t.yaml:4:11:", "IPv4 clients cannot reach IPv6 servers"},
	    {HEAD "  client: {range: [2001:2::1, 2001:2::2]}\n  server: {range: [198.19.0.1, "
		  "198.19.0.2]}\n" TPL,
	     "t.yaml:4:11:", "need 'nat64_prefix'"},
	    {HEAD "  client: {range: [2001:2::1, 2001:2::2]}\n  server: {range: [198.19.0.1, "
		  "198.19.0.2]}\n  nat64_prefix: 2001:db8:64::/64\n" TPL,
	     "t.yaml:5:17:", "flows need a /96"},
	    {HEAD "  client: {range: [2001:2::1, 2001:2::2]}\n  server: {range: [198.19.0.1, "
		  "198.19.0.2]}\n  nat64_prefix: 2001:db8:64::1/96\n" TPL,
	     "t.yaml:5:17:", "nat64_prefix"},
	    {HEAD "  client: {range: [198.18.0.1, 198.18.0.2]}\n  server: {range: [198.19.0.1, "
		  "198.19.0.2]}\n  nat64_prefix: 2001:db8:64::/96\n" TPL,
	     "t.yaml:5:17:", "for IPv6 clients with IPv4 servers"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char err[FG_ERRLEN] = "";
		struct prof p;

		if (load_str(c[i].yaml, &p, err) == 0)
			fail_msg("case %zu loaded", i);
		if (strncmp(err, c[i].where, strlen(c[i].where)) || !strstr(err, c[i].what))
			fail_msg("case %zu: got '%s', want '%s ... %s'", i, err, c[i].where,
				 c[i].what);
	}
}

/*
 * A NAT64 client datagram as flows6.c builds it: from the client range's
 * /96 to nat64_prefix + the server's IPv4 address, the signature first.
 */
static void test_nat64_frame(void **state)
{
	struct rte_ether_addr a = {{2, 0, 0, 0, 0, 1}}, b = {{2, 0, 0, 0, 0, 2}};
	uint8_t pfx[16], src[16], dst[16], f[256] = {0};
	struct own_map m = {.nq = 4, .port_lo = 1024, .port_hi = 65535};
	struct own_frame of = {0};
	struct pkt_info pi;
	uint32_t id = own_id(77, 2), seq, v4;
	unsigned plen;
	uint64_t tsc;
	uint16_t len, ck, *ckp;
	uint8_t fl;
	char e[64];

	(void)state;
	assert_int_equal(addr6_parse_prefix("2001:db8:64::/96", pfx, &plen, e, sizeof(e)), 0);
	assert_int_equal(addr6_synth(pfx, plen, IP(198, 19, 0, 7), dst), 0);
	assert_true(addr6_parse("2001:2::7:1", src));
	lat_sig_write(f + PKT6_UDP_PAY_OFF, id, 5, 123456, 0);
	len = pkt6_build_udp(f, &a, &b, src, dst, 3024, 4321, LAT_SIG_LEN);
	assert_int_equal(len, 14 + 40 + 8 + LAT_SIG_LEN);
	ckp = (uint16_t *)(f + PKT6_L4_OFF + 6);
	ck = *ckp;
	*ckp = 0;
	assert_int_equal(ck, rte_ipv6_udptcp_cksum((const struct rte_ipv6_hdr *)(f + 14),
						   f + PKT6_L4_OFF));
	*ckp = ck;
	assert_int_equal(pkt_parse(f, len, &pi), PKT_UDP6);
	/* the key fields: the low 32 bits, the server's being its IPv4 address */
	assert_int_equal(pi.sip, IP(0, 7, 0, 1));
	assert_int_equal(pi.dip, IP(198, 19, 0, 7));
	assert_int_equal(addr6_extract(pkt6_dst(f, &pi), 96, &v4), 0);
	assert_int_equal(v4, pi.dip);
	/* the server side's owner: the worker the signature names */
	of.dport = pi.dport;
	of.sig = lat_sig_read(f + pi.payload, pi.paylen, &of.sig_id, &seq, &tsc, &fl);
	assert_true(of.sig);
	assert_int_equal(of.sig_id, id);
	assert_int_equal(own_worker(&m, OWN_SERVER, &of, 0), 2);
	/* a reply on the client side: the worker whose share holds its port */
	pkt6_build_udp(f, &b, &a, dst, src, 4321, 3024, LAT_SIG_LEN);
	assert_int_equal(pkt_parse(f, len, &pi), PKT_UDP6);
	of = (struct own_frame){.dport = pi.dport};
	assert_int_equal(own_worker(&m, OWN_CLIENT, &of, 1), 3024 % 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_v6_ranges),
	    cmocka_unit_test(test_nat64_prefix),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_nat64_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
