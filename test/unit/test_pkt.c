/*
 * test_pkt.c — the frame builders and the strict parser: every frame the
 * builders make parses back to what was built, damaged frames are told
 * apart from foreign ones, and the incremental UDP template gives the very
 * bytes pkt_build_udp gives. IPv6: the builders' UDP, TCP and ICMPv6
 * checksums equal DPDK's rte_ipv6_udptcp_cksum(), Neighbour Discovery is
 * built, parsed and answered in place, and 802.1Q tags are pushed,
 * recognised and popped. pkt_parse_defer() leaves a long TCP payload's
 * share of the checksum to its caller, and pkt_sum_finish() with the
 * payload's sum, counted or in closed form, finds every damaged byte. A
 * sum of zero goes as 0 in TCP and as all ones in UDP.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lat.h"
#include "pkt.h"
#include "pkt6.h"
#include "tcp.h"

static const struct rte_ether_addr A = {{0x02, 0, 0, 0, 0, 1}}, B = {{0x02, 0, 0, 0, 0, 2}};

static void test_udp_roundtrip(void **st)
{
	uint8_t f[1600] = {0};
	struct pkt_info pi;
	uint16_t len;

	(void)st;
	memset(f + PKT_UDP_PAY_OFF, 0xab, 100);
	len = pkt_build_udp(f, &A, &B, 0xc6120001, 0xc6130001, 1024, 4321, 100);
	assert_int_equal(len, PKT_UDP_PAY_OFF + 100);
	assert_int_equal(pkt_parse(f, len, &pi), PKT_UDP);
	assert_int_equal(pi.sip, 0xc6120001);
	assert_int_equal(pi.dip, 0xc6130001);
	assert_int_equal(pi.sport, 1024);
	assert_int_equal(pi.dport, 4321);
	assert_int_equal(pi.paylen, 100);
	/* one flipped payload bit breaks the UDP checksum */
	f[PKT_UDP_PAY_OFF + 7] ^= 1;
	assert_int_equal(pkt_parse(f, len, &pi), PKT_BAD);
	f[PKT_UDP_PAY_OFF + 7] ^= 1;
	/* a truncated frame is bad, not foreign */
	assert_int_equal(pkt_parse(f, len - 10, &pi), PKT_BAD);
	assert_int_equal(pkt_parse(f, 20, &pi), PKT_BAD);
}

static void test_tcp_mss(void **st)
{
	uint8_t f[128] = {0};
	struct pkt_info pi;
	uint16_t len;

	(void)st;
	len = pkt_build_tcp(f, &A, &B, 1, 2, 3, 4, 1000, 0, RTE_TCP_SYN_FLAG, 65535, 1460, 0);
	assert_int_equal(pkt_parse(f, len, &pi), PKT_TCP);
	assert_int_equal(pi.tcp_flags, RTE_TCP_SYN_FLAG);
	assert_int_equal(pkt_tcp_mss(f, &pi), 1460);
	assert_int_equal(pi.paylen, 0);
}

static void test_arp_answer(void **st)
{
	uint8_t f[64] = {0};
	struct rte_ether_addr z = {{0}};
	struct pkt_info pi;
	uint16_t len = pkt_build_arp(f, RTE_ARP_OP_REQUEST, &A, 0xc6120101, &z, 0xc6120102);

	(void)st;
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ARP);
	assert_true(pkt_answer_arp(f, len, &B));
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ARP);
	assert_int_equal(pi.sip, 0xc6120102);
	assert_int_equal(pi.dip, 0xc6120101);
	assert_memory_equal(f, A.addr_bytes, 6);
	/* a reply is not answered again */
	assert_false(pkt_answer_arp(f, len, &B));
}

static void test_echo_answer(void **st)
{
	uint8_t f[128] = {0};
	struct pkt_info pi;
	uint16_t len = pkt_build_echo(f, &A, &B, 1, 2, 7, 9, 32, 12345);

	(void)st;
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP);
	assert_true(pkt_answer_echo(f, len, &pi));
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP);
	assert_int_equal(pi.sip, 2);
	assert_int_equal(pi.dip, 1);
}

/* The incremental template must give byte for byte what the full builder gives. */
static void test_udp_fast_equals_build(void **st)
{
	static const uint16_t sizes[] = {18, 19, 100, 548, 1472, 8958};
	uint8_t ref[9100], fast[9100], rest[9000];

	(void)st;
	srand(42);
	for (size_t i = 0; i < sizeof(rest); i++)
		rest[i] = (uint8_t)rand();
	for (size_t k = 0; k < FG_ARRAY_SIZE(sizes); k++) {
		uint16_t pay = sizes[k];
		struct pkt_udp_fast t;

		pkt_udp_fast_init(&t, &A, &B, pay, LAT_SIG_LEN, rest);
		for (int n = 0; n < 2000; n++) {
			uint32_t sip = (uint32_t)rand() * 2654435761u, dip = (uint32_t)rand();
			uint16_t sp = (uint16_t)rand(), dp = (uint16_t)rand();
			struct pkt_info pi;

			memset(ref, 0, sizeof(ref));
			memset(fast, 0x55, sizeof(fast));
			uint32_t id = rand(), seq = rand();
			uint64_t tsc = ((uint64_t)rand() << 31) ^ rand();
			uint32_t vs = lat_sig_sum_fixed(id, tsc, 1) + lat_sig_sum_seq(seq);

			lat_sig_write(ref + PKT_UDP_PAY_OFF, id, seq, tsc, 1);
			/* the arithmetic sum is the sum of the written bytes */
			assert_int_equal(pkt_fold(vs), pkt_fold(rte_raw_cksum(ref + PKT_UDP_PAY_OFF,
									      LAT_SIG_LEN)));
			memcpy(ref + PKT_UDP_PAY_OFF + LAT_SIG_LEN, rest, pay - LAT_SIG_LEN);
			memcpy(fast + PKT_UDP_PAY_OFF, ref + PKT_UDP_PAY_OFF, pay);
			pkt_build_udp(ref, &A, &B, sip, dip, sp, dp, pay);
			pkt_udp_fast_fill(fast, &t, sip, dip, sp, dp, vs);
			assert_memory_equal(ref, fast, PKT_UDP_PAY_OFF + pay);
			assert_int_equal(pkt_parse(fast, PKT_UDP_PAY_OFF + pay, &pi), PKT_UDP);
		}
	}
}

/* The IPv4 and TCP checksums of the segment at f are DPDK's (computed
 * from scratch with the fields zeroed); f is left as it was. */
static void assert_tcp_sums_dpdk(uint8_t *f)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + RTE_ETHER_HDR_LEN);
	struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)(f + PKT_TCP_HDR_OFF);
	uint16_t ck = t->cksum, ipck = ip->hdr_checksum;

	t->cksum = 0;
	ip->hdr_checksum = 0;
	assert_int_equal(ck, rte_ipv4_udptcp_cksum(ip, t));
	assert_int_equal(ipck, rte_ipv4_cksum(ip));
	t->cksum = ck;
	ip->hdr_checksum = ipck;
}

/*
 * One TCP template, many segments written over the last frame's bytes:
 * every header field and both checksums come out as DPDK computes them
 * from scratch, with and without the MSS option.
 */
static void test_tcp_fast_reuse(void **st)
{
	static uint8_t f[1600];
	struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)(f + PKT_TCP_HDR_OFF);
	struct pkt_tcp_fast tf;

	(void)st;
	srand(7);
	memset(f, 0x55, sizeof(f));
	pkt_tcp_fast_init(&tf, &A, &B);
	for (int n = 0; n < 4000; n++) {
		uint32_t sip = (uint32_t)rand() * 2654435761u, dip = (uint32_t)rand();
		uint16_t sp = (uint16_t)rand(), dp = (uint16_t)rand(), win = (uint16_t)rand();
		uint32_t seq = (uint32_t)rand() * 3u, ack = (uint32_t)rand() * 5u;
		uint16_t mss = n % 3 == 0 ? (uint16_t)(536 + rand() % 9000) : 0;
		uint16_t pay = mss ? 0 : (uint16_t)(rand() % 1461);
		uint8_t flags = (uint8_t)(rand() & 0x1f) | (mss ? RTE_TCP_SYN_FLAG : 0);
		uint16_t len;
		struct pkt_info pi;

		for (uint16_t j = 0; j < pay; j++)
			f[PKT_TCP_HDR_OFF + 20 + j] = (uint8_t)rand();
		len = pkt_tcp_fast_fill(f, &tf, sip, dip, sp, dp, seq, ack, flags, win, mss, pay,
					pay ? pkt_raw_sum(f + PKT_TCP_HDR_OFF + 20, pay) : 0);
		assert_int_equal(len, PKT_TCP_HDR_OFF + (mss ? 24 : 20) + pay);
		assert_int_equal(pkt_parse(f, len, &pi), PKT_TCP);
		assert_memory_equal(f, &B, 6);
		assert_memory_equal(f + 6, &A, 6);
		assert_true(pi.sip == sip && pi.dip == dip && pi.sport == sp && pi.dport == dp);
		assert_true(pi.tcp_flags == flags && pi.paylen == pay);
		assert_int_equal(rte_be_to_cpu_32(t->sent_seq), seq);
		assert_int_equal(rte_be_to_cpu_32(t->recv_ack), ack);
		assert_int_equal(rte_be_to_cpu_16(t->rx_win), win);
		assert_int_equal(t->tcp_urp, 0);
		if (mss)
			assert_int_equal(pkt_tcp_mss(f, &pi), mss);
		assert_tcp_sums_dpdk(f);
	}
}

/* pkt_raw_sum() is rte_raw_cksum() at any length and alignment. */
static void test_raw_sum_equals_dpdk(void **st)
{
	uint8_t buf[1600];
	uint32_t r = 12345;

	(void)st;
	for (size_t i = 0; i < sizeof(buf); i++) {
		r = r * 1103515245u + 12345u;
		buf[i] = (uint8_t)(r >> 16);
	}
	for (uint32_t off = 0; off < 8; off++)
		for (uint32_t len = 0; len <= 600; len++)
			assert_int_equal(pkt_raw_sum(buf + off, len), rte_raw_cksum(buf + off, len));
	assert_int_equal(pkt_raw_sum(buf, 1500), rte_raw_cksum(buf, 1500));
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(pkt_raw_sum(buf, 1501), rte_raw_cksum(buf, 1501));
	memset(buf, 0, sizeof(buf));
	assert_int_equal(pkt_raw_sum(buf, 64), 0);
}

/*
 * The builders' checksums, computed from the field values, are the ones
 * DPDK computes from the bytes; a damaged byte anywhere in the TCP
 * segment makes the frame bad.
 */
static void test_build_sums_equal_dpdk(void **st)
{
	static const uint16_t lens[] = {0, 1, 2, 3, 63, 64, 511, 512, 1460};
	uint8_t f[1600];
	struct pkt_info pi;

	(void)st;
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint16_t n = lens[i], len, ck;
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + RTE_ETHER_HDR_LEN);
		struct rte_udp_hdr *u = (struct rte_udp_hdr *)(f + RTE_ETHER_HDR_LEN + 20);

		for (uint16_t j = 0; j < n; j++)
			f[PKT_TCP_HDR_OFF + 20 + j] = (uint8_t)(j * 7 + i);
		len = pkt_build_tcp(f, &A, &B, 0xc6120001 + i, 0xc6130001, 1024 + i, 80,
				    0x89abcdefu * i, 0x12345678u + i, RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG,
				    65535, 0, n);
		assert_int_equal(pkt_parse(f, len, &pi), PKT_TCP);
		assert_int_equal(pi.paylen, n);
		assert_tcp_sums_dpdk(f);
		for (uint16_t j = PKT_TCP_HDR_OFF; j < len; j += 1 + n / 8) {
			f[j] ^= 0x10;
			assert_int_equal(pkt_parse(f, len, &pi), PKT_BAD);
			f[j] ^= 0x10;
		}
		/* SYN with the MSS option */
		len = pkt_build_tcp(f, &A, &B, 1, 2, 3, 4, 0xfffffff0u + i, 0, RTE_TCP_SYN_FLAG,
				    1000 + i, 1460 - i, 0);
		assert_tcp_sums_dpdk(f);
		assert_int_equal(pkt_parse(f, len, &pi), PKT_TCP);
		/* UDP */
		for (uint16_t j = 0; j < n; j++)
			f[PKT_UDP_PAY_OFF + j] = (uint8_t)(j * 13 + i);
		len = pkt_build_udp(f, &A, &B, 0xc6120001, 0xc6130001 + i, 1024, 4321 + i, n);
		assert_int_equal(pkt_parse(f, len, &pi), PKT_UDP);
		ck = u->dgram_cksum;
		u->dgram_cksum = 0;
		assert_int_equal(ck, rte_ipv4_udptcp_cksum(ip, u));
		u->dgram_cksum = ck;
	}
}

/*
 * A segment whose sum comes to zero: its two payload bytes are the
 * checksum it had with zeros there. TCP sends 0 (what DPDK and a
 * checker such as tshark compute from scratch), UDP all ones (RFC 768);
 * both parse as good, and so does the stamp's incremental update to zero
 * (pkt_cksum_add).
 */
static void test_zero_sum(void **st)
{
	uint8_t f[128];
	struct pkt_info pi;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + RTE_ETHER_HDR_LEN);
	struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)(f + PKT_TCP_HDR_OFF);
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(f + RTE_ETHER_HDR_LEN + 20);
	uint16_t len, ck;

	(void)st;
	for (uint32_t i = 0; i < 64; i++) {
		memset(f + PKT_TCP_HDR_OFF + 20, 0, 2);
		pkt_build_tcp(f, &A, &B, 0xc6120001 + i, 0xc6130001, 1024 + i, 80, 77 * i, 1,
			      RTE_TCP_ACK_FLAG, 1024, 0, 2);
		memcpy(f + PKT_TCP_HDR_OFF + 20, &t->cksum, 2);
		len = pkt_build_tcp(f, &A, &B, 0xc6120001 + i, 0xc6130001, 1024 + i, 80, 77 * i, 1,
				    RTE_TCP_ACK_FLAG, 1024, 0, 2);
		assert_int_equal(t->cksum, 0);
		t->cksum = 0;
		assert_int_equal(rte_ipv4_udptcp_cksum(ip, t), 0);
		assert_int_equal(pkt_parse(f, len, &pi), PKT_TCP);
		/* the same zero by the incremental update, for TCP and UDP */
		memset(f + PKT_TCP_HDR_OFF + 20, 0, 2);
		pkt_build_tcp(f, &A, &B, 0xc6120001 + i, 0xc6130001, 1024 + i, 80, 77 * i, 1,
			      RTE_TCP_ACK_FLAG, 1024, 0, 2);
		ck = t->cksum;
		assert_int_equal(pkt_cksum_add(ck, ck, false), 0);
		assert_int_equal(pkt_cksum_add(ck, ck, true), 0xffff);
		/* UDP */
		memset(f + PKT_UDP_PAY_OFF, 0, 2);
		pkt_build_udp(f, &A, &B, 0xc6120001, 0xc6130001 + i, 1024, 4321 + i, 2);
		memcpy(f + PKT_UDP_PAY_OFF, &u->dgram_cksum, 2);
		len = pkt_build_udp(f, &A, &B, 0xc6120001, 0xc6130001 + i, 1024, 4321 + i, 2);
		assert_int_equal(u->dgram_cksum, 0xffff);
		u->dgram_cksum = 0;
		assert_int_equal(rte_ipv4_udptcp_cksum(ip, u), 0xffff);
		u->dgram_cksum = 0xffff;
		assert_int_equal(pkt_parse(f, len, &pi), PKT_UDP);
	}
}

/* A TCP frame with the stream pattern at offset off (the flows engine's). */
static uint16_t pattern_frame(uint8_t *f, uint32_t off, uint16_t n)
{
	tcp_payload_fill(f + PKT_TCP_HDR_OFF + 20, off, n);
	return pkt_build_tcp(f, &A, &B, 0xc6120001, 0xc6130001, 1024, 80, 1000 + off, 77,
			     RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG, 65535, 0, n);
}

static void test_parse_defer(void **st)
{
	static const uint16_t lens[] = {0, 64, PKT_SUM_LATER_MIN - 1, PKT_SUM_LATER_MIN, 512, 1460};
	uint8_t f[1600];
	struct pkt_info pi, full;

	(void)st;
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint16_t n = lens[i];
		uint32_t off = (uint32_t)i * 1000;
		uint16_t len = pattern_frame(f, off, n), closed = tcp_payload_sum(off, n);
		bool later = n >= PKT_SUM_LATER_MIN;

		/* the same frame as pkt_parse() reads it, the payload's sum to finish */
		assert_int_equal(pkt_parse(f, len, &full), PKT_TCP);
		assert_int_equal(pkt_parse_defer(f, len, &pi), PKT_TCP);
		assert_int_equal(pi.sum_todo, later);
		assert_int_equal(full.sum_todo, 0);
		assert_int_equal(pi.payload, full.payload);
		assert_int_equal(pi.paylen, n);
		assert_int_equal(pi.sport, full.sport);
		assert_int_equal(pi.dport, full.dport);
		assert_int_equal(pi.tcp_flags, full.tcp_flags);
		if (later) {
			assert_true(pkt_sum_finish(&pi, pkt_raw_sum(f + pi.payload, n)));
			assert_true(pkt_sum_finish(&pi, closed));
		}
		/* any damaged byte of the IP or TCP header or of the payload */
		for (uint16_t j = RTE_ETHER_HDR_LEN; j < len; j++) {
			enum pkt_kind k;

			f[j] ^= 0x21;
			k = pkt_parse_defer(f, len, &pi);
			if (k != PKT_BAD) {
				assert_int_equal(k, PKT_TCP);
				assert_true(later && pi.sum_todo);
				/* counted, as for a payload that is not the pattern */
				assert_false(pkt_sum_finish(&pi, pkt_raw_sum(f + pi.payload, pi.paylen)));
				/* the pattern's sum, as for one compared equal to it */
				if (j < PKT_TCP_HDR_OFF + 20)
					assert_false(pkt_sum_finish(&pi, closed));
			}
			assert_int_equal(pkt_parse(f, len, &full), PKT_BAD);
			f[j] ^= 0x21;
		}
	}
	/* a UDP datagram is verified in full either way */
	memset(f, 0xa5, sizeof(f));
	assert_int_equal(pkt_parse_defer(f, pkt_build_udp(f, &A, &B, 1, 2, 3, 4, 1000), &pi), PKT_UDP);
	assert_int_equal(pi.sum_todo, 0);
}

/* 2001:2::/48 (RFC 5180), as the tester's addresses */
static const uint8_t S6[16] = {0x20, 0x01, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a},
		     D6[16] = {0x20, 0x01, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34};

static void test_ip6_sums_equal_dpdk(void **st)
{
	uint8_t f[9100];
	struct pkt_info pi;
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(f + RTE_ETHER_HDR_LEN);

	(void)st;
	srand(6);
	for (int i = 0; i < 300; i++) {
		uint16_t n = (uint16_t)(i < 200 ? i : rand() % 8900);
		uint8_t sa[16], da[16];
		uint16_t len, ck, *ckp;

		for (int b = 0; b < 16; b++) {
			sa[b] = (uint8_t)rand();
			da[b] = (uint8_t)rand();
		}
		memset(f, 0, sizeof(f));
		for (uint16_t j = 0; j < n; j++)
			f[PKT6_UDP_PAY_OFF + j] = (uint8_t)(j * 31 + i);
		/* UDP */
		len = pkt6_build_udp(f, &A, &B, sa, da, (uint16_t)rand(), (uint16_t)rand(), n);
		assert_int_equal(len, PKT6_UDP_PAY_OFF + n);
		assert_int_equal(pkt_parse(f, len, &pi), PKT_UDP6);
		assert_int_equal(pi.paylen, n);
		assert_int_equal(pi.payload, PKT6_UDP_PAY_OFF);
		assert_memory_equal(pkt6_src(f, &pi), sa, 16);
		assert_memory_equal(pkt6_dst(f, &pi), da, 16);
		ckp = (uint16_t *)(f + PKT6_L4_OFF + 6);
		ck = *ckp;
		assert_int_not_equal(ck, 0);
		*ckp = 0;
		assert_int_equal(ck, rte_ipv6_udptcp_cksum(ip, f + PKT6_L4_OFF));
		/* the pseudo header alone, as DPDK sums it */
		assert_int_equal(pkt_fold(pkt6_phdr_sum(sa, da, IPPROTO_UDP, 8 + n)),
				 rte_ipv6_phdr_cksum(ip, 0));
		/* a zero checksum is no checksum, which IPv6 forbids */
		assert_int_equal(pkt_parse(f, len, &pi), PKT_BAD);
		*ckp = ck;
		f[len - 1] ^= 0x40;
		assert_int_equal(pkt_parse(f, len, &pi), PKT_BAD);
		f[len - 1] ^= 0x40;
		assert_int_equal(pkt_parse(f, len - 1, &pi), PKT_BAD);
		/* TCP, with and without the MSS option */
		len = pkt6_build_tcp(f, &A, &B, sa, da, 1024, 80, (uint32_t)rand(), (uint32_t)rand(),
				     RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG, 512, 0, n);
		assert_int_equal(pkt_parse(f, len, &pi), PKT_TCP6);
		assert_int_equal(pi.tcp_flags, RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG);
		assert_int_equal(pi.sport, 1024);
		assert_int_equal(pi.paylen, n);
		ckp = (uint16_t *)(f + PKT6_TCP_HDR_OFF + 16);
		ck = *ckp;
		*ckp = 0;
		assert_int_equal(ck, rte_ipv6_udptcp_cksum(ip, f + PKT6_L4_OFF));
		*ckp = ck;
		len = pkt6_build_tcp(f, &A, &B, sa, da, 1, 2, 7, 0, RTE_TCP_SYN_FLAG, 9, 1440, 0);
		assert_int_equal(pkt_parse(f, len, &pi), PKT_TCP6);
		assert_int_equal(pkt_tcp_mss(f, &pi), 1440);
		ck = *ckp;
		*ckp = 0;
		assert_int_equal(ck, rte_ipv6_udptcp_cksum(ip, f + PKT6_L4_OFF));
		/* ICMPv6 echo: the same sum over next header 58 */
		len = pkt6_build_echo(f, &A, &B, sa, da, 7, (uint16_t)i, n, 99);
		assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP6);
		assert_int_equal(pi.icmp_type, PKT6_ECHO_REQUEST);
		ckp = (uint16_t *)(f + PKT6_L4_OFF + 2);
		ck = *ckp;
		*ckp = 0;
		assert_int_equal(ck, rte_ipv6_udptcp_cksum(ip, f + PKT6_L4_OFF));
		*ckp = ck;
	}
}

static void test_ip6_malformed(void **st)
{
	uint8_t f[256] = {0};
	struct pkt_info pi;
	uint16_t len = pkt6_build_udp(f, &A, &B, S6, D6, 5, 6, 20);

	(void)st;
	assert_int_equal(pkt_parse(f, len, &pi), PKT_UDP6);
	/* a payload length past the frame */
	f[RTE_ETHER_HDR_LEN + 5] += 1;
	assert_int_equal(pkt_parse(f, len, &pi), PKT_BAD);
	f[RTE_ETHER_HDR_LEN + 5] -= 1;
	/* version 4 in an IPv6 ethertype */
	f[RTE_ETHER_HDR_LEN] = 0x40;
	assert_int_equal(pkt_parse(f, len, &pi), PKT_BAD);
	f[RTE_ETHER_HDR_LEN] = 0x60;
	/* a header shorter than 40 bytes */
	assert_int_equal(pkt_parse(f, RTE_ETHER_HDR_LEN + 39, &pi), PKT_BAD);
	/* an extension header (hop-by-hop) is foreign, not bad */
	f[RTE_ETHER_HDR_LEN + 6] = 0;
	assert_int_equal(pkt_parse(f, len, &pi), PKT_OTHER);
}

static void test_nd(void **st)
{
	uint8_t f[256] = {0}, t[16], grp[16];
	struct rte_ether_addr m, mc;
	struct pkt_info pi;
	uint16_t len = pkt6_build_ns(f, &A, S6, D6);

	(void)st;
	assert_int_equal(len, PKT6_ND_LEN);
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP6);
	assert_int_equal(pkt6_nd_target(f, &pi, t), PKT6_NS);
	assert_memory_equal(t, D6, 16);
	/* to the target's solicited-node group ff02::1:ff00:1234 and 33:33:ff:00:12:34 */
	pkt6_solicited_node(D6, grp);
	assert_memory_equal(pkt6_dst(f, &pi), grp, 16);
	assert_int_equal(grp[0], 0xff);
	assert_int_equal(grp[11], 1);
	assert_int_equal(grp[12], 0xff);
	pkt6_mcast_mac(grp, &mc);
	assert_memory_equal(f, ((const uint8_t[]){0x33, 0x33, 0xff, 0, 0x12, 0x34}), 6);
	assert_memory_equal(f, mc.addr_bytes, 6);
	assert_true(pkt6_nd_lladdr(f, &pi, 1, &m));
	assert_memory_equal(m.addr_bytes, A.addr_bytes, 6);
	assert_false(pkt6_nd_lladdr(f, &pi, 2, &m));
	/* answered in place: the NA from B for the target, to the asker */
	len = pkt6_answer_ns(f, len, sizeof(f), &pi, &B);
	assert_int_equal(len, PKT6_ND_LEN);
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP6);
	assert_int_equal(pkt6_nd_target(f, &pi, t), PKT6_NA);
	assert_memory_equal(t, D6, 16);
	assert_memory_equal(pkt6_src(f, &pi), D6, 16);
	assert_memory_equal(pkt6_dst(f, &pi), S6, 16);
	assert_memory_equal(f, A.addr_bytes, 6);
	assert_true(pkt6_nd_lladdr(f, &pi, 2, &m));
	assert_memory_equal(m.addr_bytes, B.addr_bytes, 6);
	/* solicited and override (RFC 4861 section 4.4) */
	assert_int_equal(f[PKT6_L4_OFF + 4], 0x60);
	/* an NA is not answered; nor is an NS that left its link (hop limit) */
	assert_int_equal(pkt6_answer_ns(f, len, sizeof(f), &pi, &B), 0);
	len = pkt6_build_na(f, &B, &A, D6, S6, false);
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP6);
	assert_int_equal(pkt6_nd_target(f, &pi, t), PKT6_NA);
	assert_int_equal(f[PKT6_L4_OFF + 4], 0x20);
	len = pkt6_build_ns(f, &A, S6, D6);
	f[RTE_ETHER_HDR_LEN + 7] = 254;
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP6);
	assert_int_equal(pkt6_nd_target(f, &pi, t), 0);
	/* no room for the answer */
	f[RTE_ETHER_HDR_LEN + 7] = 255;
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP6);
	assert_int_equal(pkt6_answer_ns(f, len, len - 1, &pi, &B), 0);
	/* a duplicate address probe, from :: */
	memset(f + RTE_ETHER_HDR_LEN + 8, 0, 16);
	{
		uint16_t ck = 0;

		memcpy(f + PKT6_L4_OFF + 2, &ck, 2);
		ck = pkt6_l4_cksum(f + RTE_ETHER_HDR_LEN, f + PKT6_L4_OFF, 32);
		memcpy(f + PKT6_L4_OFF + 2, &ck, 2);
	}
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP6);
	assert_int_equal(pkt6_answer_ns(f, len, sizeof(f), &pi, &B), 0);
}

/* NUD's probe: an NS to the target itself at its cached MAC; NA flags */
static void test_nd_unicast(void **st)
{
	uint8_t f[256] = {0}, t[16];
	struct rte_ether_addr m;
	struct pkt_info pi;
	uint16_t len = pkt6_build_ns_unicast(f, &A, S6, D6, &B);

	(void)st;
	assert_int_equal(len, PKT6_ND_LEN);
	assert_memory_equal(f, B.addr_bytes, 6);
	assert_memory_equal(f + 6, A.addr_bytes, 6);
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP6);
	assert_int_equal(pkt6_nd_target(f, &pi, t), PKT6_NS);
	assert_memory_equal(t, D6, 16);
	assert_memory_equal(pkt6_dst(f, &pi), D6, 16);
	assert_memory_equal(pkt6_src(f, &pi), S6, 16);
	assert_true(pkt6_nd_lladdr(f, &pi, 1, &m));
	assert_memory_equal(m.addr_bytes, A.addr_bytes, 6);
	/* its checksum holds by DPDK's check */
	assert_int_equal(rte_ipv6_udptcp_cksum_verify((const struct rte_ipv6_hdr *)(f + RTE_ETHER_HDR_LEN),
						      f + PKT6_L4_OFF),
			 0);
	/* an NS has no NA flags; the answer and an unsolicited NA have theirs */
	assert_int_equal(pkt6_na_flags(f, &pi), 0);
	len = pkt6_answer_ns(f, len, sizeof(f), &pi, &B);
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP6);
	assert_int_equal(pkt6_na_flags(f, &pi), PKT6_NA_S | PKT6_NA_O);
	len = pkt6_build_na(f, &B, &A, D6, S6, false);
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP6);
	assert_int_equal(pkt6_na_flags(f, &pi), PKT6_NA_O);
}

static void test_echo6_answer(void **st)
{
	uint8_t f[256] = {0};
	struct pkt_info pi;
	uint16_t len = pkt6_build_echo(f, &A, &B, S6, D6, 7, 9, 56, 12345);

	(void)st;
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP6);
	assert_true(pkt6_answer_echo(f, len, &pi));
	assert_int_equal(pkt_parse(f, len, &pi), PKT_ICMP6);
	assert_int_equal(pi.icmp_type, PKT6_ECHO_REPLY);
	assert_int_equal(pi.paylen, 56);
	assert_memory_equal(pkt6_src(f, &pi), D6, 16);
	assert_memory_equal(pkt6_dst(f, &pi), S6, 16);
	assert_memory_equal(f, A.addr_bytes, 6);
	/* a reply is not answered again */
	assert_false(pkt6_answer_echo(f, len, &pi));
}

static void test_vlan(void **st)
{
	uint8_t f[256] = {0}, ref[256];
	struct pkt_info pi;
	uint16_t len = pkt_build_udp(f, &A, &B, 0xc6120001, 0xc6130001, 1, 2, 30), tl;

	(void)st;
	memcpy(ref, f, len);
	tl = pkt_vlan_push(f, len, 0x2000 | 100);
	assert_int_equal(tl, len + 4);
	/* the tag sits after the MAC addresses: 81 00, then the TCI */
	assert_memory_equal(f + 12, ((const uint8_t[]){0x81, 0x00, 0x20, 100, 0x08, 0x00}), 6);
	assert_int_equal(pkt_parse(f, tl, &pi), PKT_UDP);
	assert_true(pi.tagged);
	assert_int_equal(pi.vlan, 0x2000 | 100);
	assert_int_equal(PKT_VLAN_ID(pi.vlan), 100);
	assert_int_equal(pi.l3, 18);
	assert_int_equal(pi.payload, PKT_UDP_PAY_OFF + 4);
	assert_int_equal(pi.sip, 0xc6120001);
	assert_int_equal(pi.paylen, 30);
	/* a tag with nothing behind it */
	assert_int_equal(pkt_parse(f, 17, &pi), PKT_BAD);
	assert_int_equal(pkt_vlan_pop(f, tl), len);
	assert_memory_equal(f, ref, len);
	/* untagged stays untagged */
	assert_int_equal(pkt_vlan_pop(f, len), len);
	assert_int_equal(pkt_parse(f, len, &pi), PKT_UDP);
	assert_false(pi.tagged);
	/* IPv6 and ND behind a tag */
	len = pkt6_build_ns(f, &A, S6, D6);
	tl = pkt_vlan_push(f, len, 4094);
	assert_int_equal(pkt_parse(f, tl, &pi), PKT_ICMP6);
	assert_int_equal(pi.vlan, 4094);
	assert_memory_equal(pkt6_src(f, &pi), S6, 16);
	/* the answer keeps the tag */
	tl = pkt6_answer_ns(f, tl, sizeof(f), &pi, &B);
	assert_int_equal(tl, PKT6_ND_LEN + 4);
	assert_int_equal(pkt_parse(f, tl, &pi), PKT_ICMP6);
	assert_int_equal(pi.vlan, 4094);
	assert_int_equal(pi.icmp_type, PKT6_NA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_roundtrip),
		cmocka_unit_test(test_tcp_mss),
		cmocka_unit_test(test_arp_answer),
		cmocka_unit_test(test_echo_answer),
		cmocka_unit_test(test_udp_fast_equals_build),
		cmocka_unit_test(test_tcp_fast_reuse),
		cmocka_unit_test(test_raw_sum_equals_dpdk),
		cmocka_unit_test(test_build_sums_equal_dpdk),
		cmocka_unit_test(test_zero_sum),
		cmocka_unit_test(test_parse_defer),
		cmocka_unit_test(test_ip6_sums_equal_dpdk),
		cmocka_unit_test(test_ip6_malformed),
		cmocka_unit_test(test_nd),
		cmocka_unit_test(test_nd_unicast),
		cmocka_unit_test(test_echo6_answer),
		cmocka_unit_test(test_vlan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
