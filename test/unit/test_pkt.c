/*
 * test_pkt.c — the frame builders and the strict parser: every frame the
 * builders make parses back to what was built, damaged frames are told
 * apart from foreign ones, and the incremental UDP template gives the very
 * bytes pkt_build_udp gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lat.h"
#include "pkt.h"

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
		uint16_t n = lens[i], len, ck, ipck;
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + RTE_ETHER_HDR_LEN);
		struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)(f + PKT_TCP_HDR_OFF);
		struct rte_udp_hdr *u = (struct rte_udp_hdr *)(f + RTE_ETHER_HDR_LEN + 20);

		for (uint16_t j = 0; j < n; j++)
			f[PKT_TCP_HDR_OFF + 20 + j] = (uint8_t)(j * 7 + i);
		len = pkt_build_tcp(f, &A, &B, 0xc6120001 + i, 0xc6130001, 1024 + i, 80,
				    0x89abcdefu * i, 0x12345678u + i, RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG,
				    65535, 0, n);
		assert_int_equal(pkt_parse(f, len, &pi), PKT_TCP);
		assert_int_equal(pi.paylen, n);
		ck = t->cksum;
		ipck = ip->hdr_checksum;
		t->cksum = 0;
		ip->hdr_checksum = 0;
		assert_int_equal(ck, rte_ipv4_udptcp_cksum(ip, t));
		assert_int_equal(ipck, rte_ipv4_cksum(ip));
		t->cksum = ck;
		ip->hdr_checksum = ipck;
		for (uint16_t j = PKT_TCP_HDR_OFF; j < len; j += 1 + n / 8) {
			f[j] ^= 0x10;
			assert_int_equal(pkt_parse(f, len, &pi), PKT_BAD);
			f[j] ^= 0x10;
		}
		/* SYN with the MSS option */
		len = pkt_build_tcp(f, &A, &B, 1, 2, 3, 4, 0xfffffff0u + i, 0, RTE_TCP_SYN_FLAG,
				    1000 + i, 1460 - i, 0);
		ck = t->cksum;
		t->cksum = 0;
		assert_int_equal(ck, rte_ipv4_udptcp_cksum(ip, t));
		t->cksum = ck;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_roundtrip),
		cmocka_unit_test(test_tcp_mss),
		cmocka_unit_test(test_arp_answer),
		cmocka_unit_test(test_echo_answer),
		cmocka_unit_test(test_udp_fast_equals_build),
		cmocka_unit_test(test_raw_sum_equals_dpdk),
		cmocka_unit_test(test_build_sums_equal_dpdk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
