/*
 * test_icmperr.c — unit tests of the reading of ICMP errors (icmperr.h):
 * which messages are errors flowgen reads, the quote of a UDP or TCP
 * datagram read back from ICMPv4 and ICMPv6 errors built around frames of
 * pkt.c's and pkt6.c's own builders (addresses, ports, TCP sequence
 * number, the payload quoted, the MTU), quotes that are truncated, of
 * another protocol, of a later fragment or behind an IPv6 extension
 * header, the hard and soft codes, the MSS a too big leaves, and the
 * match: the key the error gives is the key of the flow's own received
 * frames in a flow table, on its side only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "flowtab.h"
#include "flowtab_mem.h"
#include "icmperr.h"
#include "pkt.h"
#include "pkt6.h"
#include "tcp.h"

static const struct rte_ether_addr A = {{0x02, 0, 0, 0, 0, 0x0a}}, B = {{0x02, 0, 0, 0, 0, 0x0b}};

#define CLI 0xc6120005u /* 198.18.0.5 */
#define SRV 0xc6130007u /* 198.19.0.7 */
#define NAT 0xc6130101u /* 198.19.1.1 */
#define GW0 0xc6120101u /* 198.18.1.1, the DUT's inside address */

static const uint8_t C6[16] = {0x20, 0x01, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5};
static const uint8_t S6[16] = {0x20, 0x01, 0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 7};
static const uint8_t R6[16] = {0x20, 0x01, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1};

/* A client's UDP datagram of pay bytes (pattern), IPv4, into f; its length. */
static uint16_t udp4(uint8_t *f, uint16_t pay)
{
	for (uint16_t i = 0; i < pay; i++)
		f[PKT_UDP_PAY_OFF + i] = (uint8_t)(i * 7);
	return pkt_build_udp(f, &A, &B, CLI, SRV, 1024, 4321, pay);
}

/* A client's TCP segment with seq and pay bytes, IPv4. */
static uint16_t tcp4(uint8_t *f, uint32_t seq, uint16_t pay)
{
	memset(f + PKT_TCP_HDR_OFF + 20, 0x55, pay);
	return pkt_build_tcp(f, &A, &B, CLI, SRV, 1024, 8080, seq, 77, TCP_ACK, 65535, 0, pay);
}

/*
 * An ICMPv4 error from the gateway to the client quoting qn bytes of the
 * frame q (from its IP header on), into f; its length and pi parsed.
 */
static uint16_t err4(uint8_t *f, uint8_t type, uint8_t code, uint16_t mtu, const uint8_t *q,
		     uint16_t qn, struct pkt_info *pi)
{
	uint8_t *ic = f + RTE_ETHER_HDR_LEN + 20;
	uint16_t ck;

	pkt_build_eth_ip(f, &B, &A, GW0, CLI, IPPROTO_ICMP, (uint16_t)(8 + qn));
	memset(ic, 0, 8);
	ic[0] = type;
	ic[1] = code;
	ic[6] = (uint8_t)(mtu >> 8);
	ic[7] = (uint8_t)mtu;
	memcpy(ic + 8, q, qn);
	ck = (uint16_t)~pkt_raw_sum(ic, 8u + qn);
	memcpy(ic + 2, &ck, 2);
	assert_int_equal(pkt_parse(f, RTE_ETHER_HDR_LEN + 20u + 8 + qn, pi), PKT_ICMP);
	return (uint16_t)(RTE_ETHER_HDR_LEN + 20 + 8 + qn);
}

/* The same as ICMPv6 from the router R6 to the client C6. */
static uint16_t err6(uint8_t *f, uint8_t type, uint8_t code, uint32_t mtu, const uint8_t *q,
		     uint16_t qn, struct pkt_info *pi)
{
	uint8_t *ic = f + PKT6_L4_OFF;
	uint16_t ck;

	pkt6_build_eth_ip(f, &B, &A, R6, C6, IPPROTO_ICMPV6, (uint16_t)(8 + qn), 64);
	memset(ic, 0, 8);
	ic[0] = type;
	ic[1] = code;
	ic[4] = (uint8_t)(mtu >> 24);
	ic[5] = (uint8_t)(mtu >> 16);
	ic[6] = (uint8_t)(mtu >> 8);
	ic[7] = (uint8_t)mtu;
	memcpy(ic + 8, q, qn);
	ck = pkt6_l4_cksum(f + RTE_ETHER_HDR_LEN, ic, 8u + qn);
	memcpy(ic + 2, &ck, 2);
	assert_int_equal(pkt_parse(f, PKT6_L4_OFF + 8u + qn, pi), PKT_ICMP6);
	return (uint16_t)(PKT6_L4_OFF + 8 + qn);
}

static void test_kind_of(void **state)
{
	static const struct {
		bool v6;
		uint8_t type, code;
		enum icmperr_kind want;
	} c[] = {
	    {false, 3, 0, ICMPERR_UNREACH}, {false, 3, 1, ICMPERR_UNREACH},
	    {false, 3, 3, ICMPERR_UNREACH}, {false, 3, 13, ICMPERR_UNREACH},
	    {false, 3, 4, ICMPERR_TOO_BIG}, {false, 0, 0, ICMPERR_NONE},
	    {false, 8, 0, ICMPERR_NONE},    {false, 11, 0, ICMPERR_NONE},
	    {false, 5, 1, ICMPERR_NONE},    {true, 1, 0, ICMPERR_UNREACH},
	    {true, 1, 4, ICMPERR_UNREACH},  {true, 2, 0, ICMPERR_TOO_BIG},
	    {true, 3, 0, ICMPERR_NONE},	    {true, 128, 0, ICMPERR_NONE},
	    {true, 135, 0, ICMPERR_NONE},
	};
	uint8_t q[2048], f[2048];
	struct pkt_info pi;
	uint16_t n = udp4(q, 20);

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		if (c[i].v6)
			err6(f, c[i].type, c[i].code, 0, q + RTE_ETHER_HDR_LEN, 48, &pi);
		else
			err4(f, c[i].type, c[i].code, 0, q + RTE_ETHER_HDR_LEN,
			     (uint16_t)(n - RTE_ETHER_HDR_LEN), &pi);
		assert_int_equal(icmperr_kind_of(f, &pi), c[i].want);
	}
	/* a UDP frame is no error, whatever its bytes */
	assert_int_equal(pkt_parse(q, n, &pi), PKT_UDP);
	assert_int_equal(icmperr_kind_of(q, &pi), ICMPERR_NONE);
}

static void test_parse_udp4(void **state)
{
	uint8_t q[2048], f[2048];
	struct pkt_info pi;
	struct icmperr e;
	uint16_t n = udp4(q, 100), qn = (uint16_t)(n - RTE_ETHER_HDR_LEN);

	(void)state;
	/* the whole datagram quoted (as Linux quotes up to 576 bytes) */
	err4(f, 3, 1, 0, q + RTE_ETHER_HDR_LEN, qn, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
	assert_int_equal(e.kind, ICMPERR_UNREACH);
	assert_int_equal(e.code, 1);
	assert_false(e.v6);
	assert_false(e.hard);
	assert_int_equal(e.proto, IPPROTO_UDP);
	assert_int_equal(e.sip, CLI);
	assert_int_equal(e.dip, SRV);
	assert_int_equal(e.odip, CLI);
	assert_int_equal(e.sport, 1024);
	assert_int_equal(e.dport, 4321);
	assert_int_equal(e.mtu, 0);
	assert_int_equal(e.qlen, 20 + 8 + 100);
	assert_int_equal(e.o3, RTE_ETHER_HDR_LEN);
	assert_int_equal(e.q3, RTE_ETHER_HDR_LEN + 20 + 8);
	assert_int_equal(e.qpay, e.q3 + 28);
	assert_int_equal(e.qpaylen, 100);
	assert_memory_equal(f + e.qpay, q + PKT_UDP_PAY_OFF, 100);
	/* RFC 792's minimum: the header and 8 bytes, no payload */
	err4(f, 3, 3, 0, q + RTE_ETHER_HDR_LEN, 28, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
	assert_true(e.hard);
	assert_int_equal(e.sport, 1024);
	assert_int_equal(e.qpaylen, 0);
	/* cut inside the payload: what is there */
	err4(f, 3, 0, 0, q + RTE_ETHER_HDR_LEN, 28 + 10, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
	assert_int_equal(e.qpaylen, 10);
}

static void test_parse_tcp4_and_mtu(void **state)
{
	uint8_t q[2048], f[2048];
	struct pkt_info pi;
	struct icmperr e;
	uint16_t n = tcp4(q, 0xdeadbeefu, 1460);

	(void)state;
	err4(f, 3, 4, 1280, q + RTE_ETHER_HDR_LEN, 20 + 8, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
	assert_int_equal(e.kind, ICMPERR_TOO_BIG);
	assert_false(e.hard);
	assert_int_equal(e.proto, IPPROTO_TCP);
	assert_int_equal(e.seq, 0xdeadbeefu);
	assert_int_equal(e.sport, 1024);
	assert_int_equal(e.dport, 8080);
	assert_int_equal(e.mtu, 1280);
	assert_int_equal(e.qlen, n - RTE_ETHER_HDR_LEN);
	assert_int_equal(e.qlen, 1500);
	assert_int_equal(icmperr_mss(&e), 1240);
}

static void test_parse_bad_quotes(void **state)
{
	uint8_t q[2048], f[2048];
	struct pkt_info pi;
	struct icmperr e;
	const uint8_t *ip;

	(void)state;
	udp4(q, 40);
	ip = q + RTE_ETHER_HDR_LEN;
	/* shorter than the header and 8 bytes: truncated */
	for (uint16_t qn = 0; qn < 28; qn++) {
		err4(f, 3, 1, 0, ip, qn, &pi);
		assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_BAD);
	}
	/* not IPv4 inside ICMPv4 */
	memcpy(f + 1024, ip, 68);
	f[1024] = 0x65;
	err4(f, 3, 1, 0, f + 1024, 68, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_BAD);
	/* a header length under 20 */
	memcpy(f + 1024, ip, 68);
	f[1024] = 0x44;
	err4(f, 3, 1, 0, f + 1024, 68, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_BAD);
	/* a header length beyond what is quoted (15 x 4 = 60 + 8 > 40) */
	memcpy(f + 1024, ip, 40);
	f[1024] = 0x4f;
	err4(f, 3, 1, 0, f + 1024, 40, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_BAD);
	/* a total length that holds no transport header */
	memcpy(f + 1024, ip, 68);
	f[1024 + 2] = 0;
	f[1024 + 3] = 27;
	err4(f, 3, 1, 0, f + 1024, 68, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_BAD);
	/* IP options: the ports behind them */
	memcpy(f + 1024, ip, 20);
	f[1024] = 0x46;
	memcpy(f + 1024 + 20, "\x01\x01\x01\x00", 4);
	memcpy(f + 1024 + 24, ip + 20, 48);
	err4(f, 3, 1, 0, f + 1024, 72, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
	assert_int_equal(e.sport, 1024);
	assert_int_equal(e.dport, 4321);
	assert_int_equal(e.qpaylen, 40);
}

static void test_parse_foreign_quotes(void **state)
{
	uint8_t q[2048], f[2048];
	struct pkt_info pi;
	struct icmperr e;
	uint16_t n;

	(void)state;
	/* an echo request of ours: another protocol */
	n = pkt_build_echo(q, &A, &B, CLI, SRV, 1, 2, 32, 0);
	err4(f, 3, 1, 0, q + RTE_ETHER_HDR_LEN, (uint16_t)(n - RTE_ETHER_HDR_LEN), &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_FOREIGN);
	assert_int_equal(e.kind, ICMPERR_UNREACH);
	/* GRE */
	n = udp4(q, 40);
	q[RTE_ETHER_HDR_LEN + 9] = 47;
	err4(f, 3, 1, 0, q + RTE_ETHER_HDR_LEN, (uint16_t)(n - RTE_ETHER_HDR_LEN), &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_FOREIGN);
	/* a later fragment: no transport header; a first one has it */
	n = udp4(q, 40);
	q[RTE_ETHER_HDR_LEN + 6] = 0x20;
	q[RTE_ETHER_HDR_LEN + 7] = 0x10;
	err4(f, 3, 1, 0, q + RTE_ETHER_HDR_LEN, (uint16_t)(n - RTE_ETHER_HDR_LEN), &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_FOREIGN);
	q[RTE_ETHER_HDR_LEN + 7] = 0;
	err4(f, 3, 1, 0, q + RTE_ETHER_HDR_LEN, (uint16_t)(n - RTE_ETHER_HDR_LEN), &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
}

static void test_parse_v6(void **state)
{
	uint8_t q[2048], f[2048];
	struct pkt_info pi;
	struct icmperr e;
	uint16_t n;

	(void)state;
	for (int i = 0; i < 100; i++)
		q[PKT6_UDP_PAY_OFF + i] = (uint8_t)i;
	n = pkt6_build_udp(q, &A, &B, C6, S6, 1024, 4321, 100);
	err6(f, 1, 4, 0, q + RTE_ETHER_HDR_LEN, (uint16_t)(n - RTE_ETHER_HDR_LEN), &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
	assert_true(e.v6);
	assert_true(e.hard);
	assert_int_equal(e.kind, ICMPERR_UNREACH);
	assert_int_equal(e.sip, 5);
	assert_int_equal(e.dip, 7);
	assert_int_equal(e.odip, 5);
	assert_int_equal(e.sport, 1024);
	assert_int_equal(e.dport, 4321);
	assert_int_equal(e.qlen, 40 + 8 + 100);
	assert_int_equal(e.qpaylen, 100);
	assert_memory_equal(f + e.q3 + 8, C6, 16);
	assert_memory_equal(f + e.o3 + 24, C6, 16);
	/* no route (code 0) is soft */
	err6(f, 1, 0, 0, q + RTE_ETHER_HDR_LEN, 48, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
	assert_false(e.hard);
	/* packet too big for a 1500-byte TCP segment: all 32 bits of the MTU */
	memset(q + PKT6_TCP_HDR_OFF + 20, 0x55, 1440);
	n = pkt6_build_tcp(q, &A, &B, C6, S6, 1024, 8080, 12345, 1, TCP_ACK, 65535, 0, 1440);
	err6(f, 2, 0, 1280, q + RTE_ETHER_HDR_LEN, 1232, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
	assert_int_equal(e.kind, ICMPERR_TOO_BIG);
	assert_int_equal(e.mtu, 1280);
	assert_int_equal(e.seq, 12345);
	assert_int_equal(e.qlen, n - RTE_ETHER_HDR_LEN);
	assert_int_equal(icmperr_mss(&e), 1220);
	/* truncated: fewer than 40 + 8 bytes */
	err6(f, 2, 0, 1280, q + RTE_ETHER_HDR_LEN, 47, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_BAD);
	/* IPv4 inside ICMPv6 */
	udp4(q, 40);
	err6(f, 1, 0, 0, q + RTE_ETHER_HDR_LEN, 68, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_BAD);
	/* a fragment header first: not a datagram flowgen sends */
	n = pkt6_build_udp(q, &A, &B, C6, S6, 1024, 4321, 100);
	q[RTE_ETHER_HDR_LEN + 6] = 44;
	err6(f, 1, 0, 0, q + RTE_ETHER_HDR_LEN, (uint16_t)(n - RTE_ETHER_HDR_LEN), &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_FOREIGN);
}

static void test_hard_codes(void **state)
{
	(void)state;
	for (uint8_t c = 0; c < 16; c++)
		assert_int_equal(icmperr_hard(false, c), c == 2 || c == 3);
	for (uint8_t c = 0; c < 8; c++)
		assert_int_equal(icmperr_hard(true, c), c == 4);
}

static void test_mss(void **state)
{
	struct icmperr e = {.kind = ICMPERR_TOO_BIG};

	(void)state;
	/* IPv4: MTU - 40, floor 536, nothing when the datagram fit */
	e.qlen = 1500;
	e.mtu = 1280;
	assert_int_equal(icmperr_mss(&e), 1240);
	e.mtu = 1499;
	assert_int_equal(icmperr_mss(&e), 1459);
	e.mtu = 1500;
	assert_int_equal(icmperr_mss(&e), 0);
	e.mtu = 9000;
	assert_int_equal(icmperr_mss(&e), 0);
	e.mtu = 576;
	assert_int_equal(icmperr_mss(&e), 536);
	e.mtu = 300;
	assert_int_equal(icmperr_mss(&e), 536);
	e.mtu = 20;
	assert_int_equal(icmperr_mss(&e), 536);
	/* no MTU given (RFC 1191 §5): the plateau below the quoted length */
	e.mtu = 0;
	assert_int_equal(icmperr_mss(&e), 1492 - 40);
	e.qlen = 1492;
	assert_int_equal(icmperr_mss(&e), 1006 - 40);
	e.qlen = 9000;
	assert_int_equal(icmperr_mss(&e), 8166 - 40);
	e.qlen = 1000;
	assert_int_equal(icmperr_mss(&e), 536); /* plateau 508, floor 536 */
	e.qlen = 60;
	assert_int_equal(icmperr_mss(&e), 0); /* nothing below 68 */
	/* IPv6: MTU - 60, never below 1280 (RFC 8201 §4) */
	e.v6 = true;
	e.qlen = 1500;
	e.mtu = 1280;
	assert_int_equal(icmperr_mss(&e), 1220);
	e.mtu = 1400;
	assert_int_equal(icmperr_mss(&e), 1340);
	e.mtu = 1000;
	assert_int_equal(icmperr_mss(&e), 1220);
	e.mtu = 0;
	assert_int_equal(icmperr_mss(&e), 1220);
	e.mtu = 1500;
	assert_int_equal(icmperr_mss(&e), 0);
	e.mtu = 70000;
	assert_int_equal(icmperr_mss(&e), 0);
}

/*
 * The match: in a flow table holding the client flow CLI:1024 -> SRV:4321
 * (keyed as its replies arrive) and the server flow NAT:1024 -> SRV:4321
 * (keyed as its requests arrive, translated), an error quoting the
 * client's datagram finds the client flow on the client side and nothing
 * on the server side; one quoting the server's reply finds the server
 * flow; a quote the NAT left translated finds the client flow through
 * the outer destination (the NAT kept the port).
 */
static void test_key_matches_flows(void **state)
{
	struct flowtab_params p = {.max_flows = 64, .entry_size = 8, .tick_tsc = 1000};
	struct flowtab *t = flowtab_create(&p);
	uint8_t q[2048], f[2048];
	struct flowtab_key k;
	struct pkt_info pi;
	struct icmperr e;
	uint32_t ci, si;
	uint16_t n;

	(void)state;
	assert_non_null(t);
	/* the flows, keyed from their own received frames */
	n = pkt_build_udp(q, &B, &A, SRV, CLI, 4321, 1024, 18);
	assert_int_equal(pkt_parse(q, n, &pi), PKT_UDP);
	flowtab_key(&k, pi.sip, pi.dip, pi.sport, pi.dport, pi.proto, FLOWTAB_CLIENT);
	assert_int_equal(flowtab_insert(t, &k, &ci), 0);
	n = pkt_build_udp(q, &A, &B, NAT, SRV, 1024, 4321, 18);
	assert_int_equal(pkt_parse(q, n, &pi), PKT_UDP);
	flowtab_key(&k, pi.sip, pi.dip, pi.sport, pi.dport, pi.proto, FLOWTAB_SERVER);
	assert_int_equal(flowtab_insert(t, &k, &si), 0);
	/* the client's request, quoted back to the client */
	n = udp4(q, 18);
	err4(f, 3, 0, 0, q + RTE_ETHER_HDR_LEN, (uint16_t)(n - RTE_ETHER_HDR_LEN), &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
	icmperr_key(&e, e.sip, FLOWTAB_CLIENT, &k);
	assert_int_equal(flowtab_lookup(t, &k), ci);
	icmperr_key(&e, e.sip, FLOWTAB_SERVER, &k);
	assert_int_equal(flowtab_lookup(t, &k), FLOWTAB_NIL);
	/* the same request quoted as it left the NAT: only the outer
	 * destination names the client */
	n = pkt_build_udp(q, &A, &B, NAT, SRV, 1024, 4321, 18);
	err4(f, 3, 0, 0, q + RTE_ETHER_HDR_LEN, (uint16_t)(n - RTE_ETHER_HDR_LEN), &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
	icmperr_key(&e, e.sip, FLOWTAB_CLIENT, &k);
	assert_int_equal(flowtab_lookup(t, &k), FLOWTAB_NIL);
	icmperr_key(&e, e.odip, FLOWTAB_CLIENT, &k);
	assert_int_equal(flowtab_lookup(t, &k), ci);
	/* the server's reply, quoted back to the server port */
	n = pkt_build_udp(q, &B, &A, SRV, NAT, 4321, 1024, 18);
	err4(f, 3, 3, 0, q + RTE_ETHER_HDR_LEN, (uint16_t)(n - RTE_ETHER_HDR_LEN), &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
	icmperr_key(&e, e.sip, FLOWTAB_SERVER, &k);
	assert_int_equal(flowtab_lookup(t, &k), si);
	icmperr_key(&e, e.sip, FLOWTAB_CLIENT, &k);
	assert_int_equal(flowtab_lookup(t, &k), FLOWTAB_NIL);
	/* TCP on the same ports: another flow */
	n = tcp4(q, 1, 0);
	err4(f, 3, 0, 0, q + RTE_ETHER_HDR_LEN, 28, &pi);
	assert_int_equal(icmperr_parse(f, &pi, &e), ICMPERR_OK);
	icmperr_key(&e, e.sip, FLOWTAB_CLIENT, &k);
	assert_int_equal(flowtab_lookup(t, &k), FLOWTAB_NIL);
	flowtab_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kind_of),
	    cmocka_unit_test(test_parse_udp4),
	    cmocka_unit_test(test_parse_tcp4_and_mtu),
	    cmocka_unit_test(test_parse_bad_quotes),
	    cmocka_unit_test(test_parse_foreign_quotes),
	    cmocka_unit_test(test_parse_v6),
	    cmocka_unit_test(test_hard_codes),
	    cmocka_unit_test(test_mss),
	    cmocka_unit_test(test_key_matches_flows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
