/*
 * fuzz_pkt.c — libFuzzer harness for the RX classifier and the in-place
 * answers built on it: pkt_parse() (ARP, IPv4, IPv6, ICMPv6, 802.1Q),
 * pkt_parse_defer() with pkt_sum_finish(), pkt_answer_arp(),
 * pkt_answer_echo(), pkt6_answer_ns(), pkt6_answer_echo(),
 * pkt6_nd_lladdr() and pkt_tcp_mss(), and the ICMP errors read on them
 * (src/core/icmperr.c: icmperr_parse(), icmperr_mss(), icmperr_key()).
 * These run on every frame a worker receives, so any byte sequence a wire
 * can carry must be safe.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -std=gnu11 -Iinclude -Isrc/core -Isrc/config \
 *       -Isrc/dataplane -Isrc/control -Isrc/console \
 *       $(pkg-config --cflags libdpdk) test/fuzz/fuzz_pkt.c src/core/pkt.c \
 *       src/core/pkt6.c src/core/icmperr.c $(pkg-config --libs libdpdk) -o build/fuzz/fuzz_pkt
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
 * pkt_parse() finds the frame good. An ICMP error's quote read by
 * icmperr_parse() lies inside the frame, names UDP or TCP when it is
 * read, and the MSS of a too big is 0 or within its floor and the quoted
 * length; an error the builders wrap around a UDP or TCP frame (cases 10
 * and 11, its quote cut anywhere) reads back that frame's addresses,
 * ports and sequence number exactly when the quote holds its IP header
 * and 8 bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "icmperr.h"
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

/* An ICMP error's reading: inside the frame, of UDP or TCP, a sane MSS. */
static void check_icmperr(const uint8_t *f, const struct pkt_info *pi, uint32_t len)
{
	struct icmperr e;
	struct flowtab_key k;
	enum icmperr_res r;
	uint16_t mss;

	if (icmperr_kind_of(f, pi) == ICMPERR_NONE)
		return;
	r = icmperr_parse(f, pi, &e);
	if (r == ICMPERR_BAD)
		return;
	if (e.kind != icmperr_kind_of(f, pi) || e.v6 != (pi->kind == PKT_ICMP6) ||
	    e.q3 != pi->payload || e.o3 != pi->l3)
		abort();
	if (r == ICMPERR_FOREIGN)
		return;
	if (r != ICMPERR_OK || (e.proto != IPPROTO_UDP && e.proto != IPPROTO_TCP) ||
	    (uint32_t)e.q3 + (e.v6 ? 48u : 28u) > len || (uint32_t)e.qpay + e.qpaylen > len)
		abort();
	mss = icmperr_mss(&e);
	if (e.kind == ICMPERR_TOO_BIG && mss &&
	    (mss < (e.v6 ? ICMPERR_MSS6_MIN : ICMPERR_MSS4_MIN) ||
	     mss > FG_MAX(e.qlen, e.v6 ? 1280u : 576u)))
		abort();
	icmperr_key(&e, e.sip, FLOWTAB_CLIENT, &k);
	if (k.sip != e.dip || k.dip != e.sip || k.sport != e.dport || k.dport != e.sport)
		abort();
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
	if (k == PKT_ICMP || k == PKT_ICMP6)
		check_icmperr(f, &pi, len);
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

/*
 * An ICMP error (v6: ICMPv6) of type and code around the frame q of qlen
 * bytes (from Ethernet on), its quote cut to cut bytes; written to f,
 * returns its length. Then checks that the quote reads back as q's
 * tuple when it holds the IP header and 8 bytes, and as bad when not.
 */
static uint32_t wrap_err(uint8_t *f, const uint8_t *q, uint32_t qlen, bool v6, uint8_t type,
			 uint8_t code, uint32_t mtu, uint32_t cut)
{
	static const struct rte_ether_addr a = {{0x02, 0, 0, 0, 0, 0x0c}}, b = {{0x02, 0, 0, 0, 0, 0x0d}};
	static const uint8_t r6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
	const uint32_t l3 = RTE_ETHER_HDR_LEN, l4 = l3 + (v6 ? 40u : 20u);
	uint32_t n = qlen - RTE_ETHER_HDR_LEN, ihl;
	struct pkt_info pi, qi;
	struct icmperr e;
	uint8_t *ic = f + l4;
	uint16_t ck;

	if (pkt_parse(q, qlen, &qi) == PKT_BAD || qi.tagged)
		return 0;
	if (cut < n)
		n = cut;
	if (n > 1232)
		n = 1232; /* an error fits the minimum MTU, as RFC 4443 says */
	if (v6)
		pkt6_build_eth_ip(f, &b, &a, r6, q + l3 + 8, IPPROTO_ICMPV6, (uint16_t)(8 + n), 64);
	else
		pkt_build_eth_ip(f, &b, &a, 0xc6120101u, qi.sip, IPPROTO_ICMP, (uint16_t)(8 + n));
	ic[0] = type;
	ic[1] = code;
	ic[2] = ic[3] = 0;
	ic[4] = (uint8_t)(mtu >> 24);
	ic[5] = (uint8_t)(mtu >> 16);
	ic[6] = (uint8_t)(mtu >> 8);
	ic[7] = (uint8_t)mtu;
	memcpy(ic + 8, q + l3, n);
	ck = v6 ? pkt6_l4_cksum(f + l3, ic, 8 + n) : (uint16_t)~pkt_raw_sum(ic, 8 + n);
	memcpy(ic + 2, &ck, 2);
	if (pkt_parse(f, l4 + 8 + n, &pi) != (v6 ? PKT_ICMP6 : PKT_ICMP))
		abort();
	ihl = v6 ? 40 : (q[l3] & 0xfu) * 4;
	switch (icmperr_parse(f, &pi, &e)) {
	case ICMPERR_OK:
		if (n < ihl + 8 || e.sport != qi.sport || e.dport != qi.dport ||
		    e.proto != qi.proto || e.sip != qi.sip || e.dip != qi.dip)
			abort();
		if (qi.proto == IPPROTO_TCP &&
		    e.seq != ((uint32_t)q[qi.l4 + 4] << 24 | (uint32_t)q[qi.l4 + 5] << 16 |
			      (uint32_t)q[qi.l4 + 6] << 8 | q[qi.l4 + 7]))
			abort();
		break;
	case ICMPERR_BAD:
		if (n >= ihl + 8 && (qi.kind == PKT_UDP || qi.kind == PKT_TCP ||
				     qi.kind == PKT_UDP6 || qi.kind == PKT_TCP6))
			abort();
		break;
	default:
		if (qi.kind == PKT_UDP || qi.kind == PKT_TCP || qi.kind == PKT_UDP6 ||
		    qi.kind == PKT_TCP6)
			abort();
		break;
	}
	return l4 + 8 + n;
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
	what = (what & 0x7f) % 12;
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
	case 10:
	case 11: {
		/* an ICMP error around a UDP or TCP frame of either family,
		 * its quote cut where the input says */
		uint8_t *q = calloc(1, FUZZ_PKT_MAX);
		bool six = what == 11, tcp = sport & 1;
		uint32_t cut = take(r, 2), mtu = take(r, 2);
		uint8_t code = (uint8_t)take(r, 1);

		if (!q)
			break;
		if (six && tcp)
			len = pkt6_build_tcp(q, &src, &dst, s6, d6, sport, dport, sip, dip, RTE_TCP_ACK_FLAG,
					     1000, 0, paylen);
		else if (six)
			len = pkt6_build_udp(q, &src, &dst, s6, d6, sport, dport, paylen);
		else if (tcp)
			len = pkt_build_tcp(q, &src, &dst, sip, dip, sport, dport, sip, dip, RTE_TCP_ACK_FLAG,
					    1000, 0, paylen);
		else
			len = pkt_build_udp(q, &src, &dst, sip, dip, sport, dport, paylen);
		len = wrap_err(f, q, len, six, six ? (uint8_t)(1 + (code & 1)) : 3, code % 16, mtu,
			       cut);
		free(q);
		want = six ? PKT_ICMP6 : PKT_ICMP;
		if (!len) {
			free(f);
			return;
		}
		break;
	}
	}
	if (what >= 10) {
		/* wrap_err() checked the error's reading; tag and damage it
		 * as the others */
		if (tag)
			len = pkt_vlan_push(f, (uint16_t)len, tci);
		k = pkt_parse(f, len, &pi);
		check_info(f, &pi, k, len);
		if (k != want || pi.tagged != tag)
			abort();
		goto damage;
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
damage:
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
