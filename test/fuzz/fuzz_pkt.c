/*
 * fuzz_pkt.c — libFuzzer harness for the RX classifier and the in-place
 * answers built on it: pkt_parse() (ARP, IPv4, IPv6, ICMPv6, 802.1Q),
 * pkt_parse_defer() with pkt_sum_finish(), pkt_answer_arp(),
 * pkt_answer_echo(), pkt6_answer_ns(), pkt6_answer_echo(),
 * pkt6_nd_lladdr() and pkt_tcp_mss(). These run on
 * every frame a worker receives, so any byte sequence a wire can carry
 * must be safe.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -std=gnu11 -Iinclude -Isrc/core -Isrc/config \
 *       -Isrc/dataplane -Isrc/control -Isrc/console \
 *       $(pkg-config --cflags libdpdk) test/fuzz/fuzz_pkt.c src/core/pkt.c \
 *       src/core/pkt6.c $(pkg-config --libs libdpdk) -o build/fuzz/fuzz_pkt
 *
 * pkt.c and pkt6.c only use DPDK's inline header helpers (checksums, byte order), so
 * no EAL is needed. The input's first byte picks how it is used:
 *
 *   even: the rest is a raw frame, copied into a buffer of exactly its
 *         length (so the sanitizer sees any read past the end);
 *   odd:  the rest describes a frame that pkt_build_* or pkt6_build_*
 *         builds with valid checksums (kind, addresses, ports, sizes,
 *         maybe an 802.1Q tag), then a few of its bytes are overwritten
 *         and its length cut, so the parser's deeper branches are reached
 *         despite the checksums.
 *
 * Properties checked, besides memory safety: the parser's offsets and
 * payload lie inside the frame; a frame the builders made parses back to
 * its kind, addresses and ports; an ARP request answered in place parses as
 * ARP with the addresses swapped; an echo request answered in place still
 * parses as ICMP with valid checksums and swapped addresses; the same for
 * ICMPv6 echo; an NS answered in place parses as an NA for the same target
 * to the asker, under the same tag; the MSS the SYN builder wrote is the
 * one pkt_tcp_mss() reads; a tag pushed is the tag parsed, and the kind
 * behind it is the untagged frame's; pkt_parse_defer() reads every frame
 * as pkt_parse() does, except that a checksum it leaves to finish
 * (sum_todo) holds, with the payload's pkt_raw_sum(), exactly when
 * pkt_parse() finds the frame good.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pkt.h"
#include "pkt6.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_PKT_MAX 9018 /* largest frame a port receives, without FCS */

struct reader {
	const uint8_t *p;
	size_t n;
};

static uint32_t take(struct reader *r, unsigned bytes)
{
	uint32_t v = 0;

	while (bytes--) {
		v <<= 8;
		if (r->n) {
			v |= *r->p++;
			r->n--;
		}
	}
	return v;
}

/* The last 32 bits of the IPv6 address at a, host order: what pkt_parse
 * leaves in sip/dip of an IPv6 frame (the flows engine's key). */
static uint32_t low32(const uint8_t *a)
{
	return (uint32_t)a[12] << 24 | (uint32_t)a[13] << 16 | (uint32_t)a[14] << 8 | a[15];
}

static void check_info(const uint8_t *f, const struct pkt_info *pi, enum pkt_kind k, uint32_t len)
{
	if (pi->kind != k)
		abort();
	if (k != PKT_BAD && pi->l3 != RTE_ETHER_HDR_LEN + (pi->tagged ? 4u : 0u))
		abort();
	switch (k) {
	case PKT_UDP:
	case PKT_TCP:
	case PKT_ICMP:
		if (pi->l4 < pi->l3 + 20u || pi->payload < pi->l4 + 8u)
			abort();
		if ((uint32_t)pi->payload + pi->paylen > len)
			abort();
		break;
	case PKT_UDP6:
	case PKT_TCP6:
	case PKT_ICMP6:
		if (pi->l4 != pi->l3 + 40u || pi->payload < pi->l4 + 8u ||
		    pi->sip != low32(f + pi->l3 + 8) || pi->dip != low32(f + pi->l3 + 24))
			abort();
		if ((uint32_t)pi->payload + pi->paylen > len)
			abort();
		break;
	case PKT_ARP:
		if (len < pi->l3 + sizeof(struct rte_arp_hdr))
			abort();
		break;
	case PKT_BAD:
	case PKT_OTHER:
		break;
	default:
		abort();
	}
}

/* Parse f, check it, exercise the answers on a copy of the frame. */
static enum pkt_kind exercise(uint8_t *f, uint32_t len)
{
	static const struct rte_ether_addr me = {{0x02, 0x00, 0x5e, 0x10, 0x00, 0x01}};
	struct pkt_info pi, pi2;
	enum pkt_kind k = pkt_parse(f, len, &pi), kd = pkt_parse_defer(f, len, &pi2);
	bool later = pi2.sum_todo;

	check_info(f, &pi, k, len);
	if (later) {
		if (kd != PKT_TCP || pi2.paylen < PKT_SUM_LATER_MIN ||
		    pkt_sum_finish(&pi2, pkt_raw_sum(f + pi2.payload, pi2.paylen)) != (k == PKT_TCP))
			abort();
		pi2.sum_todo = 0;
		pi2.l4sum = 0;
	}
	/* the same info (both start from a zeroed one), but for a frame
	 * whose checksum, left to finish, failed */
	if (!(later && k != PKT_TCP) && (kd != k || memcmp(&pi, &pi2, sizeof(pi))))
		abort();
	if (k == PKT_TCP || k == PKT_TCP6)
		(void)pkt_tcp_mss(f, &pi);
	if (k == PKT_ICMP6) {
		struct rte_ether_addr mac;
		uint8_t t[16], t2[16];
		uint32_t cap = len + 128;
		uint8_t *c = malloc(cap);
		uint16_t n;

		if (!c)
			return k;
		(void)pkt6_nd_lladdr(f, &pi, 1, &mac);
		(void)pkt6_nd_lladdr(f, &pi, 2, &mac);
		memcpy(c, f, len);
		n = pkt6_answer_ns(c, len, cap, &pi, &me);
		if (n) {
			/* an NA for the same target, to the asker, from us */
			if (n > cap || pkt_parse(c, n, &pi2) != PKT_ICMP6 ||
			    pkt6_nd_target(f, &pi, t) != PKT6_NS ||
			    pkt6_nd_target(c, &pi2, t2) != PKT6_NA || memcmp(t, t2, 16) ||
			    memcmp(pkt6_dst(c, &pi2), pkt6_src(f, &pi), 16) ||
			    pi2.tagged != pi.tagged || pi2.vlan != pi.vlan ||
			    !pkt6_nd_lladdr(c, &pi2, 2, &mac) || memcmp(&mac, &me, 6))
				abort();
		}
		memcpy(c, f, len);
		if (pkt6_answer_echo(c, len, &pi)) {
			if (pkt_parse(c, len, &pi2) != PKT_ICMP6 || pi2.icmp_type != PKT6_ECHO_REPLY ||
			    memcmp(pkt6_src(c, &pi2), pkt6_dst(f, &pi), 16) ||
			    memcmp(pkt6_dst(c, &pi2), pkt6_src(f, &pi), 16) || pi2.paylen != pi.paylen)
				abort();
		}
		free(c);
	}
	if (k == PKT_ARP) {
		uint8_t *c = malloc(len);

		if (!c)
			return k;
		memcpy(c, f, len);
		if (pkt_answer_arp(c, len, &me)) {
			/* The reply goes back to the asker, from us. */
			if (pkt_parse(c, len, &pi2) != PKT_ARP || pi2.sip != pi.dip ||
			    pi2.dip != pi.sip)
				abort();
			if (memcmp(c + 6, &me, 6) || memcmp(c, f + 22, 6))
				abort();
		}
		free(c);
	}
	if (k == PKT_ICMP) {
		uint8_t *c = malloc(len);

		if (!c)
			return k;
		memcpy(c, f, len);
		if (pkt_answer_echo(c, len, &pi)) {
			if (pkt_parse(c, len, &pi2) != PKT_ICMP || pi2.sip != pi.dip ||
			    pi2.dip != pi.sip || pi2.paylen != pi.paylen)
				abort();
			if (c[pi.l4] != RTE_IP_ICMP_ECHO_REPLY)
				abort();
		}
		free(c);
	}
	return k;
}

/* Exercise a copy of exactly len bytes, so the end of the frame really is
 * the end of the buffer for the sanitizer. */
static void exact(const uint8_t *data, size_t len)
{
	uint8_t *f;

	if (len > FUZZ_PKT_MAX)
		len = FUZZ_PKT_MAX;
	/* malloc(0) may return NULL: keep one byte so the zero-length case runs. */
	f = malloc(len ? len : 1);
	if (!f)
		return;
	memcpy(f, data, len);
	exercise(f, (uint32_t)len);
	free(f);
}

static void built(struct reader *r)
{
	struct rte_ether_addr src = {{0x02, 0, 0, 0, 0, 0x0a}}, dst = {{0x02, 0, 0, 0, 0, 0x0b}};
	uint8_t *f = calloc(1, FUZZ_PKT_MAX);
	unsigned what = take(r, 1);
	uint16_t tci = take(r, 2);
	bool tag = what & 0x80;
	uint32_t sip = take(r, 4), dip = take(r, 4);
	uint8_t s6[16], d6[16];
	uint16_t sport = take(r, 2), dport = take(r, 2);
	uint16_t paylen = take(r, 2) % 1500, mss = 0;
	uint32_t len = 0, cut;
	enum pkt_kind want = PKT_BAD, k;
	struct pkt_info pi;

	if (!f)
		return;
	what = (what & 0x7f) % 10;
	for (int i = 0; i < 16; i++) {
		s6[i] = (uint8_t)take(r, 1);
		d6[i] = (uint8_t)take(r, 1);
	}
	switch (what) {
	case 0:
		for (uint16_t i = 0; i < paylen; i++)
			f[PKT_UDP_PAY_OFF + i] = (uint8_t)(i * 7);
		len = pkt_build_udp(f, &src, &dst, sip, dip, sport, dport, paylen);
		want = PKT_UDP;
		break;
	case 1:
		mss = take(r, 2);
		if (mss)
			paylen = 0; /* the builder puts an MSS only on payload-less SYNs */
		for (uint16_t i = 0; i < paylen; i++)
			f[PKT_TCP_HDR_OFF + 20 + i] = (uint8_t)(i * 3);
		len = pkt_build_tcp(f, &src, &dst, sip, dip, sport, dport, take(r, 4), take(r, 4),
				    take(r, 1), take(r, 2), mss, paylen);
		want = PKT_TCP;
		break;
	case 2:
		len = pkt_build_arp(f, RTE_ARP_OP_REQUEST, &src, sip, &dst, dip);
		want = PKT_ARP;
		break;
	case 3:
		len = pkt_build_arp(f, RTE_ARP_OP_REPLY, &src, sip, &dst, dip);
		want = PKT_ARP;
		break;
	case 4:
		len = pkt_build_echo(f, &src, &dst, sip, dip, sport, dport, paylen, 0x1122334455667788ull);
		want = PKT_ICMP;
		break;
	case 5:
		for (uint16_t i = 0; i < paylen; i++)
			f[PKT6_UDP_PAY_OFF + i] = (uint8_t)(i * 5);
		len = pkt6_build_udp(f, &src, &dst, s6, d6, sport, dport, paylen);
		want = PKT_UDP6;
		break;
	case 6:
		mss = take(r, 2);
		if (mss)
			paylen = 0;
		for (uint16_t i = 0; i < paylen; i++)
			f[PKT6_TCP_HDR_OFF + 20 + i] = (uint8_t)(i * 11);
		len = pkt6_build_tcp(f, &src, &dst, s6, d6, sport, dport, take(r, 4), take(r, 4),
				     take(r, 1), take(r, 2), mss, paylen);
		want = PKT_TCP6;
		break;
	case 7:
		len = pkt6_build_echo(f, &src, &dst, s6, d6, sport, dport, paylen, 42);
		want = PKT_ICMP6;
		break;
	case 8:
		len = pkt6_build_ns(f, &src, s6, d6);
		want = PKT_ICMP6;
		break;
	case 9:
		len = pkt6_build_na(f, &src, &dst, s6, d6, sport & 1);
		want = PKT_ICMP6;
		break;
	}
	if (tag)
		len = pkt_vlan_push(f, (uint16_t)len, tci);
	k = pkt_parse(f, len, &pi);
	check_info(f, &pi, k, len);
	/* IPv6: sip/dip are the addresses' last 32 bits (an NS goes to the
	 * solicited-node group, not d6) */
	if (want >= PKT_ICMP6) {
		sip = low32(s6);
		dip = k == want ? low32(pkt6_dst(f, &pi)) : 0;
	}
	if (k != want || pi.sip != sip || pi.dip != dip || pi.tagged != tag ||
	    (tag && pi.vlan != tci))
		abort();
	if (want >= PKT_ICMP6 && (memcmp(pkt6_src(f, &pi), s6, 16) ||
				  (what != 8 && memcmp(pkt6_dst(f, &pi), d6, 16))))
		abort();
	if ((k == PKT_UDP || k == PKT_TCP || k == PKT_UDP6 || k == PKT_TCP6) &&
	    (pi.sport != sport || pi.dport != dport))
		abort();
	if ((k == PKT_TCP || k == PKT_TCP6) && pkt_tcp_mss(f, &pi) != mss)
		abort();
	exact(f, len);

	/* Damage: up to 8 (offset, byte) pokes, then a new length. */
	for (unsigned n = take(r, 1) % 9; n && r->n; n--) {
		uint16_t at = take(r, 2) % len;

		f[at] = take(r, 1);
	}
	cut = take(r, 2);
	exact(f, cut && cut < len ? cut : len);
	free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = {data + 1, size ? size - 1 : 0};

	if (size == 0)
		return 0;
	if (data[0] & 1)
		built(&r);
	else
		exact(data + 1, size - 1);
	return 0;
}
