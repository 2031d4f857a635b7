/*
 * test_streams.c — the pure parts of the streams engine: the IMIX frame
 * sequence keeps each size's share and spreads it evenly, `start -t`
 * tunables parse or fail with a reason, and an IPv6 test frame built from
 * its prebuilt header and partial sums (streams6.h) is the frame
 * pkt6_build_udp() writes, its UDP checksum the one DPDK's
 * rte_ipv6_udptcp_cksum() computes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <rte_ip.h>

#include "fgen.h"
#include "lat.h"
#include "pkt6.h"
#include "prof-t.h"
#include "streams_opts.h"
#include "streams6.h"

static void test_imix_default_shares(void **st)
{
	uint16_t seq[64];
	int n = streams_imix_seq(units_imix_default, 3, seq, 64);
	int count[3] = {0}, run = 0, maxrun = 0;

	(void)st;
	assert_int_equal(n, 12); /* 7 + 4 + 1 */
	for (int i = 0; i < n; i++) {
		if (seq[i] == 60)
			count[0]++;
		else if (seq[i] == 590)
			count[1]++;
		else if (seq[i] == 1514)
			count[2]++;
		else
			fail_msg("unexpected size %u", seq[i]);
		/* evenly spread: the 64-byte frames never come 4 in a row */
		run = seq[i] == 60 ? run + 1 : 0;
		maxrun = run > maxrun ? run : maxrun;
	}
	assert_int_equal(count[0], 7);
	assert_int_equal(count[1], 4);
	assert_int_equal(count[2], 1);
	assert_true(maxrun <= 3);
}

static void test_imix_truncated_and_bad(void **st)
{
	static const struct units_imix_entry big[] = {{64, 1000}, {1518, 1000}};
	static const struct units_imix_entry zero[] = {{64, 0}};
	uint16_t seq[16];
	int n = streams_imix_seq(big, 2, seq, 16);

	(void)st;
	assert_int_equal(n, 16);
	assert_int_equal(streams_imix_seq(zero, 1, seq, 16), -EINVAL);
	assert_int_equal(streams_imix_seq(big, 0, seq, 16), -EINVAL);
}

/* A stream's range of sizes: inc and dec walk it by step, rand draws in it. */
static void test_size_seq(void **st)
{
	struct prof_field inc = {64, 80, PROF_VAR_INC}, dec = {64, 80, PROF_VAR_DEC};
	struct prof_field rnd = {64, 67, PROF_VAR_RAND}, big = {64, 9000, PROF_VAR_INC};
	uint16_t seq[STREAMS_SIZE_RAND_LEN], again[STREAMS_SIZE_RAND_LEN];
	int seen[4] = {0};

	(void)st;
	assert_int_equal(streams_size_seq(&inc, 5, 1, seq, 16), 4);
	assert_int_equal(seq[0], 60); /* without the FCS */
	assert_int_equal(seq[1], 65);
	assert_int_equal(seq[3], 75);
	assert_int_equal(streams_size_seq(&dec, 5, 1, seq, 16), 4);
	assert_int_equal(seq[0], 75);
	assert_int_equal(seq[3], 60);
	assert_int_equal(streams_size_seq(&inc, 1, 1, seq, 32), 17);
	assert_int_equal(seq[16], 76);
	assert_int_equal(streams_size_seq(&big, 1, 1, seq, 16), -E2BIG);
	assert_int_equal(streams_size_seq(&inc, 0, 1, seq, 16), -EINVAL);
	assert_int_equal(streams_size_seq(&rnd, 1, 7, seq, STREAMS_SIZE_RAND_LEN),
			 STREAMS_SIZE_RAND_LEN);
	for (int i = 0; i < STREAMS_SIZE_RAND_LEN; i++) {
		assert_true(seq[i] >= 60 && seq[i] <= 63);
		seen[seq[i] - 60]++;
	}
	/* uniform: each of the 4 sizes about a quarter of the draws */
	for (int k = 0; k < 4; k++)
		assert_true(seen[k] > 900 && seen[k] < 1150);
	/* the same seed, the same sizes; another seed, others */
	streams_size_seq(&rnd, 1, 7, again, STREAMS_SIZE_RAND_LEN);
	assert_memory_equal(seq, again, sizeof(seq));
	streams_size_seq(&rnd, 1, 8, again, STREAMS_SIZE_RAND_LEN);
	assert_memory_not_equal(seq, again, sizeof(seq));
}

static void test_tunables(void **st)
{
	struct streams_tun t = {.learn = true, .learn_wait = 1.5, .drain = 1};
	char err[160];

	(void)st;
	assert_int_equal(tun_parse(&streams_tun_table, NULL, &t, err, sizeof(err)), 0);
	assert_true(t.learn);
	assert_int_equal(tun_parse(&streams_tun_table, "learn=0,learn_wait=3", &t, err, sizeof(err)),
			 0);
	assert_false(t.learn);
	assert_true(t.learn_wait == 3.0);
	assert_true(t.drain == 1.0);
	assert_int_equal(tun_parse(&streams_tun_table, "drain=2.5", &t, err, sizeof(err)), 0);
	assert_true(t.drain == 2.5);
	assert_int_not_equal(tun_parse(&streams_tun_table, "drain=4", &t, err, sizeof(err)), 0);
	assert_true(t.drain == 2.5);
	assert_string_equal(err, "-t drain=4: unknown key or value out of range "
				 "(streams: learn=0|1, learn_wait=0..60, drain=0..3)");
	assert_int_not_equal(tun_parse(&streams_tun_table, "nope=1", &t, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "nope"));
	assert_non_null(strstr(err, "unknown key"));
	assert_int_not_equal(tun_parse(&streams_tun_table, "learn_wait=99", &t, err, sizeof(err)), 0);
	assert_int_not_equal(tun_parse(&streams_tun_table, "learn=", &t, err, sizeof(err)), 0);
	assert_string_equal(err, "-t learn: bad value ''");
}

/* The UDP checksum DPDK computes for the IPv6 frame f (its field zeroed). */
static uint16_t dpdk_cksum6(uint8_t *f)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(f + RTE_ETHER_HDR_LEN);
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(f + PKT6_L4_OFF);
	uint16_t keep = u->dgram_cksum, ck;

	u->dgram_cksum = 0;
	ck = rte_ipv6_udptcp_cksum(ip, u);
	u->dgram_cksum = keep;
	return ck;
}

/*
 * Frames of several sizes (the 84-byte floor, odd lengths) with random
 * low address words, ports and signatures: the fast fill (as a sender
 * whose fields vary) and the fixed header plus the signature's sum (as a
 * sender whose fields are fixed) both give pkt6_build_udp()'s frame.
 */
static void test_ipv6_frame(void **st)
{
	static const uint16_t sizes[] = {84, 85, 128, 1518, 9000};
	static const uint8_t zeros[9000];
	struct rte_ether_addr src = {{2, 0, 0, 0, 0, 1}}, dst = {{2, 0, 0, 0, 0, 2}};
	uint8_t sip[16] = {0x20, 0x01, 0, 2, [15] = 9}, dip[16] = {0x20, 0x01, 0, 2, 0, 0, 0, 1};
	uint64_t rng = 7;

	(void)st;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint16_t len = (uint16_t)(sizes[k] - 4), pay = (uint16_t)(len - PKT6_UDP_PAY_OFF);
		static uint8_t a[9000], b[9000];
		struct streams6_fast t;

		assert_int_equal(pay, len - 62);
		streams6_fast_init(&t, &src, &dst, sip, dip, pay, LAT_SIG_LEN, zeros);
		for (int i = 0; i < 64; i++) {
			uint64_t r = fgen_rand64(&rng);
			uint32_t sa = (uint32_t)r, da = (uint32_t)(r >> 32), id = (uint32_t)r * 3u;
			uint32_t seq = (uint32_t)(r >> 17), sbe = rte_cpu_to_be_32(sa);
			uint32_t dbe = rte_cpu_to_be_32(da), as = pkt_sum32(sbe) + pkt_sum32(dbe);
			uint16_t sp = (uint16_t)(r >> 8), dp = (uint16_t)(r >> 40);
			uint64_t tsc = r & LAT_TSC_MASK;
			uint32_t sig = lat_sig_sum_fixed(id, tsc, LAT_SIG_F_LATENCY) + lat_sig_sum_seq(seq);
			uint8_t s6[16], d6[16];
			uint16_t ck;

			/* the reference: the whole frame, summed byte by byte */
			memset(b, 0, len);
			memcpy(s6, sip, 12);
			memcpy(s6 + 12, &sbe, 4);
			memcpy(d6, dip, 12);
			memcpy(d6 + 12, &dbe, 4);
			lat_sig_write(b + PKT6_UDP_PAY_OFF, id, seq, tsc, LAT_SIG_F_LATENCY);
			assert_int_equal(pkt6_build_udp(b, &src, &dst, s6, d6, sp, dp, pay), len);
			assert_int_equal(((struct rte_udp_hdr *)(b + PKT6_L4_OFF))->dgram_cksum,
					 dpdk_cksum6(b));

			/* a varying sender's frame */
			memset(a, 0xee, len);
			memset(a + PKT6_UDP_PAY_OFF, 0, pay);
			lat_sig_write(a + PKT6_UDP_PAY_OFF, id, seq, tsc, LAT_SIG_F_LATENCY);
			streams6_fast_fill_be(a, &t, sbe, dbe, as, rte_cpu_to_be_16(sp),
					      rte_cpu_to_be_16(dp), sig);
			assert_memory_equal(a, b, len);
			assert_int_equal(((struct rte_udp_hdr *)(a + PKT6_L4_OFF))->dgram_cksum,
					 dpdk_cksum6(a));

			/* a fixed sender's: the header with a signature sum of 0,
			 * then the UDP sum finished with the signature's */
			memset(a, 0xee, len);
			memset(a + PKT6_UDP_PAY_OFF, 0, pay);
			streams6_fast_fill_be(a, &t, sbe, dbe, as, rte_cpu_to_be_16(sp),
					      rte_cpu_to_be_16(dp), 0);
			lat_sig_write(a + PKT6_UDP_PAY_OFF, id, seq, tsc, LAT_SIG_F_LATENCY);
			ck = (uint16_t)~pkt_fold(pkt_fold(t.udp_sum + as + rte_cpu_to_be_16(sp) +
							  rte_cpu_to_be_16(dp)) +
						 sig);
			((struct rte_udp_hdr *)(a + PKT6_L4_OFF))->dgram_cksum = ck ? ck : 0xffff;
			assert_int_equal(((struct rte_udp_hdr *)(a + PKT6_L4_OFF))->dgram_cksum,
					 dpdk_cksum6(a));
			assert_memory_equal(a, b, len);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_imix_default_shares),
		cmocka_unit_test(test_imix_truncated_and_bad),
		cmocka_unit_test(test_size_seq), cmocka_unit_test(test_tunables),
		cmocka_unit_test(test_ipv6_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
