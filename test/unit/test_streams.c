/*
 * test_streams.c — the pure parts of the streams engine: the IMIX frame
 * sequence keeps each size's share and spreads it evenly, `start -t`
 * tunables parse or fail with a reason, and an IPv6 test frame built from
 * its prebuilt header and partial sums (streams6.h) is the frame
 * pkt6_build_udp() writes, its UDP checksum the one DPDK's
 * rte_ipv6_udptcp_cksum() computes; TCP and ICMP frames (streams_l4.h)
 * over IPv4 and IPv6 parse as what they are, carry the header fields and
 * the signature asked for, and have DPDK's checksums, before and after
 * the stamp.
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
#include "streams6.h"
#include "streams_l4.h"
#include "streams_opts.h"

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

/* The layer 4 checksum DPDK computes for frame f of len bytes (its field
 * zeroed): TCP and ICMPv6 with the pseudo header, ICMPv4 without. */
static uint16_t dpdk_l4_cksum(uint8_t *f, uint16_t len, const struct streams_l4g *g, bool tcp)
{
	uint16_t l3 = g->v6 ? PKT6_L4_OFF : RTE_ETHER_HDR_LEN + 20, keep, ck;
	void *ip = f + RTE_ETHER_HDR_LEN;

	memcpy(&keep, f + g->ck, 2);
	memset(f + g->ck, 0, 2);
	if (g->v6)
		ck = rte_ipv6_udptcp_cksum(ip, f + l3);
	else if (tcp)
		ck = rte_ipv4_udptcp_cksum(ip, f + l3);
	else
		ck = (uint16_t)~rte_raw_cksum(f + l3, len - l3);
	memcpy(f + g->ck, &keep, 2);
	return ck;
}

/* One TCP or ICMP frame as the parser reads it: kind, payload offset,
 * signature, header fields, checksums. */
static void check_l4_frame(uint8_t *f, uint16_t len, const struct streams_l4g *g,
			   const struct streams_l4_hdr *h, uint32_t id, uint32_t seq, uint16_t w0,
			   uint16_t w1)
{
	bool tcp = h->proto == PROF_L4_TCP;
	uint16_t l3 = g->v6 ? PKT6_L4_OFF : RTE_ETHER_HDR_LEN + 20, ck, w;
	struct pkt_info pi;
	uint32_t rid, rseq;
	uint64_t tsc;
	uint8_t fl;

	assert_int_equal(pkt_parse(f, len, &pi),
			 tcp ? (g->v6 ? PKT_TCP6 : PKT_TCP) : (g->v6 ? PKT_ICMP6 : PKT_ICMP));
	assert_int_equal(pi.payload, g->hlen);
	assert_true(lat_sig_read(f + pi.payload, pi.paylen, &rid, &rseq, &tsc, &fl));
	assert_int_equal(rid, id);
	assert_int_equal(rseq, seq);
	memcpy(&ck, f + g->ck, 2);
	assert_int_equal(ck, dpdk_l4_cksum(f, len, g, tcp));
	if (!g->v6) {
		struct rte_ipv4_hdr ip;

		memcpy(&ip, f + RTE_ETHER_HDR_LEN, sizeof(ip));
		ip.hdr_checksum = 0;
		assert_int_equal(((struct rte_ipv4_hdr *)(f + RTE_ETHER_HDR_LEN))->hdr_checksum,
				 rte_ipv4_cksum(&ip));
	}
	memcpy(&w, f + g->words, 2);
	assert_int_equal(rte_be_to_cpu_16(w), w0);
	memcpy(&w, f + g->words + 2, 2);
	assert_int_equal(rte_be_to_cpu_16(w), w1);
	if (tcp) {
		const struct rte_tcp_hdr *t = (const struct rte_tcp_hdr *)(f + l3);

		assert_int_equal(t->tcp_flags, h->tcp_flags);
		assert_int_equal(rte_be_to_cpu_32(t->sent_seq), h->tcp_seq);
		assert_int_equal(rte_be_to_cpu_32(t->recv_ack), h->tcp_ack);
		assert_int_equal(rte_be_to_cpu_16(t->rx_win), h->tcp_win);
		assert_int_equal(t->data_off, 0x50);
	} else {
		assert_int_equal(f[l3], h->icmp_type);
		assert_int_equal(f[l3 + 1], h->icmp_code);
	}
}

/*
 * TCP and ICMP streams over IPv4 and IPv6, at their floor and beyond, with
 * random addresses, words and signatures: the fill (with the signature's
 * sum, as the worker does with a stamp of 0), then the stamp (the TSC's
 * bytes and their sum added to the checksum at its offset), each gives a
 * frame the parser accepts with DPDK's checksums.
 */
static void test_l4_frames(void **st)
{
	static const uint16_t extra[] = {0, 1, 44, 1400};
	struct rte_ether_addr src = {{2, 0, 0, 0, 0, 1}};
	uint8_t sip[16] = {0x20, 0x01, 0, 2}, dip[16] = {0x20, 0x01, 0, 2, 0, 0, 0, 1};
	struct streams_l4_hdr hs[] = {
	    {.proto = PROF_L4_TCP,
	     .tcp_flags = 0x12,
	     .tcp_seq = 1000,
	     .tcp_ack = 0xdeadbeef,
	     .tcp_win = 1024},
	    {.proto = PROF_L4_ICMP, .icmp_type = 8},
	    {.proto = PROF_L4_ICMP, .icmp_type = 129, .icmp_code = 3},
	};
	uint64_t rng = 11;
	static uint8_t f[9000];

	(void)st;
	for (size_t k = 0; k < FG_ARRAY_SIZE(hs); k++) {
		for (int v6 = 0; v6 < 2; v6++) {
			const struct streams_l4_hdr *h = &hs[k];
			struct streams_l4g g;

			if (h->proto == PROF_L4_ICMP && (h->icmp_type >= 128) != v6)
				continue;
			streams_l4_geom(&g, h->proto, v6);
			assert_int_equal(g.hlen + LAT_SIG_LEN + 4,
					 FG_PROF_FRAME_MIN_OF(h->proto, v6));
			for (size_t e = 0; e < FG_ARRAY_SIZE(extra); e++) {
				uint16_t len = (uint16_t)(g.hlen + LAT_SIG_LEN + extra[e]);
				struct streams_l4t t;

				streams_l4_init(&t, &g, h, &src, sip, dip, len);
				for (int i = 0; i < 32; i++) {
					uint64_t r = fgen_rand64(&rng), tsc = r & LAT_TSC_MASK;
					uint32_t sa = rte_cpu_to_be_32((uint32_t)r);
					uint32_t da = rte_cpu_to_be_32((uint32_t)(r >> 32));
					uint32_t id = (uint32_t)r * 3u, seq = (uint32_t)(r >> 17);
					uint16_t w0 = (uint16_t)(r >> 8), w1 = (uint16_t)(r >> 40);
					uint32_t sig =
					    lat_sig_sum_fixed(id, 0, 0) + lat_sig_sum_seq(seq);
					uint16_t ck;

					memset(f, 0xee, len);
					memset(f + g.hlen, 0, len - g.hlen);
					lat_sig_write(f + g.hlen, id, seq, 0, 0);
					streams_l4_fill_be(
					    f, &t, &g, sa, da, pkt_sum32(sa) + pkt_sum32(da),
					    rte_cpu_to_be_16(w0), rte_cpu_to_be_16(w1), sig);
					check_l4_frame(f, len, &g, h, id, seq, w0, w1);
					/* the stamp, as the worker's streams_stamp; the
					 * first one a TSC that brings the sum to zero (its
					 * low word is the checksum): sent as zero, as
					 * DPDK's from-scratch sum has it, not as 0xffff */
					memcpy(&ck, f + g.ck, 2);
					if (i == 0)
						tsc = ck;
					lat_sig_stamp(f + g.hlen, tsc);
					ck = pkt_cksum_add(ck, lat_sig_sum_tsc(tsc), false);
					if (i == 0)
						assert_int_equal(ck, 0);
					memcpy(f + g.ck, &ck, 2);
					check_l4_frame(f, len, &g, h, id, seq, w0, w1);
				}
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_imix_default_shares),
	    cmocka_unit_test(test_imix_truncated_and_bad),
	    cmocka_unit_test(test_size_seq),
	    cmocka_unit_test(test_tunables),
	    cmocka_unit_test(test_ipv6_frame),
	    cmocka_unit_test(test_l4_frames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
