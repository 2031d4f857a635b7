/*
 * pkt.c — frame building and strict parsing. Everything here works on
 * plain byte buffers so the same code serves the workers, the control
 * plane and the unit tests and fuzzers. Checksums are computed in software:
 * none of flowgen's ports offload them.
 */
#include <string.h>

#include <rte_byteorder.h>

#include "pkt.h"

const char *const pkt_kind_names[PKT_KIND_COUNT] = {
	[PKT_BAD] = "bad", [PKT_OTHER] = "other", [PKT_ARP] = "arp",
	[PKT_ICMP] = "icmp", [PKT_UDP] = "udp", [PKT_TCP] = "tcp",
	[PKT_ICMP6] = "icmp6", [PKT_UDP6] = "udp6", [PKT_TCP6] = "tcp6",
};

/*
 * x86-64: 64-bit words through one add-with-carry chain per 32 bytes, the
 * carry out of the top added back in (a one's complement sum in 64-bit
 * words: 2^64 = 1 modulo 0xffff, so it folds to the same 16-bit sum).
 * Elsewhere: 32-bit halves into a 64-bit accumulator (2^32 = 1 modulo
 * 0xffff too), which cannot overflow below 2^32 words.
 */
static inline uint64_t raw_add8(uint64_t acc, uint64_t a)
{
#if defined(__x86_64__)
	__asm__("addq %1, %0\n\tadcq $0, %0" : "+r"(acc) : "r"(a) : "cc");
	return acc;
#else
	return acc + (a & 0xffffffff) + (a >> 32);
#endif
}

static inline uint64_t raw_add32(uint64_t acc, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
#if defined(__x86_64__)
	__asm__("addq %1, %0\n\tadcq %2, %0\n\tadcq %3, %0\n\tadcq %4, %0\n\tadcq $0, %0"
		: "+r"(acc)
		: "r"(a), "r"(b), "r"(c), "r"(d)
		: "cc");
	return acc;
#else
	return raw_add8(raw_add8(raw_add8(raw_add8(acc, a), b), c), d);
#endif
}

uint16_t pkt_raw_sum(const void *buf, uint32_t len)
{
	const uint8_t *p = buf;
	uint64_t acc = 0, tail = 0;

	for (; len >= 32; p += 32, len -= 32) {
		uint64_t a, b, c, d;

		memcpy(&a, p, 8);
		memcpy(&b, p + 8, 8);
		memcpy(&c, p + 16, 8);
		memcpy(&d, p + 24, 8);
		acc = raw_add32(acc, a, b, c, d);
	}
	for (; len >= 8; p += 8, len -= 8) {
		uint64_t a;

		memcpy(&a, p, 8);
		acc = raw_add8(acc, a);
	}
	if (len >= 4) {
		uint32_t a;

		memcpy(&a, p, 4);
		tail += a;
		p += 4;
		len -= 4;
	}
	if (len >= 2) {
		uint16_t a;

		memcpy(&a, p, 2);
		tail += a;
		p += 2;
		len -= 2;
	}
	if (len) {
		uint16_t a = 0;

		memcpy(&a, p, 1); /* the odd byte pads with zero, in memory order */
		tail += a;
	}
	acc = (acc & 0xffffffff) + (acc >> 32) + tail; /* < 2^35 */
	acc = (acc & 0xffffffff) + (acc >> 32);
	acc = (acc & 0xffffffff) + (acc >> 32);
	return pkt_fold((uint32_t)acc);
}

/* pkt_raw_sum() of a 20-byte IPv4 header, inline. */
static inline uint16_t ip_hdr_sum20(const void *ip)
{
	uint32_t w[5];
	uint64_t acc;

	memcpy(w, ip, sizeof(w));
	acc = (uint64_t)w[0] + w[1] + w[2] + w[3] + w[4];
	acc = (acc & 0xffffffff) + (acc >> 32);
	return pkt_fold((uint32_t)acc + (uint32_t)(acc >> 32));
}

/* Raw sum of the IPv4 pseudo header (addresses as on the wire). */
static inline uint32_t phdr_sum(uint32_t sa_be, uint32_t da_be, uint8_t proto, uint16_t l4len)
{
	return pkt_sum32(sa_be) + pkt_sum32(da_be) + rte_cpu_to_be_16(proto) +
	       rte_cpu_to_be_16(l4len);
}

/* Is the UDP/TCP checksum of this IPv4 frame right (l4len bytes at l4)? */
static bool l4_sum_ok(const struct rte_ipv4_hdr *ip, const uint8_t *l4, uint32_t l4len)
{
	uint32_t s = phdr_sum(ip->src_addr, ip->dst_addr, ip->next_proto_id, (uint16_t)l4len);

	return pkt_fold(s + pkt_raw_sum(l4, l4len)) == 0xffff;
}

/*
 * IPv6 (RFC 8200) with the upper layer right behind the fixed header: what
 * the tester and Neighbour Discovery send. Extension headers (hop-by-hop
 * MLD reports, fragments) are foreign, never test traffic.
 */
static enum pkt_kind parse_ip6(const uint8_t *f, uint32_t len, struct pkt_info *pi)
{
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)(f + pi->l3);
	const uint8_t *l4;
	uint32_t plen, s;

	if (len < pi->l3 + 40u || (f[pi->l3] >> 4) != 6)
		return PKT_BAD;
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (plen > len - pi->l3 - 40u)
		return PKT_BAD;
	pi->proto = ip->proto;
	pi->l4 = pi->l3 + 40;
	/* the low 32 bits, what the flows engine keys IPv6 flows on */
	memcpy(&pi->sip, ip->src_addr + 12, 4);
	memcpy(&pi->dip, ip->dst_addr + 12, 4);
	pi->sip = rte_be_to_cpu_32(pi->sip);
	pi->dip = rte_be_to_cpu_32(pi->dip);
	l4 = f + pi->l4;
	/* pseudo header (RFC 8200 section 8.1): addresses, length, next header */
	s = pkt_raw_sum(ip->src_addr, 32) + rte_cpu_to_be_16(ip->proto);
	switch (ip->proto) {
	case IPPROTO_UDP: {
		const struct rte_udp_hdr *u = (const struct rte_udp_hdr *)l4;
		uint16_t ulen;

		if (plen < 8)
			return PKT_BAD;
		ulen = rte_be_to_cpu_16(u->dgram_len);
		/* the checksum is mandatory on IPv6: zero is an error */
		if (ulen < 8 || ulen > plen || !u->dgram_cksum ||
		    pkt_fold(s + rte_cpu_to_be_16(ulen) + pkt_raw_sum(l4, ulen)) != 0xffff)
			return PKT_BAD;
		pi->sport = rte_be_to_cpu_16(u->src_port);
		pi->dport = rte_be_to_cpu_16(u->dst_port);
		pi->payload = pi->l4 + 8;
		pi->paylen = ulen - 8;
		return pi->kind = PKT_UDP6;
	}
	case IPPROTO_TCP: {
		const struct rte_tcp_hdr *t = (const struct rte_tcp_hdr *)l4;
		uint16_t doff;

		if (plen < 20)
			return PKT_BAD;
		doff = (t->data_off >> 4) * 4;
		if (doff < 20 || doff > plen ||
		    pkt_fold(s + rte_cpu_to_be_16(plen) + pkt_raw_sum(l4, plen)) != 0xffff)
			return PKT_BAD;
		pi->sport = rte_be_to_cpu_16(t->src_port);
		pi->dport = rte_be_to_cpu_16(t->dst_port);
		pi->tcp_flags = t->tcp_flags;
		pi->payload = pi->l4 + doff;
		pi->paylen = plen - doff;
		return pi->kind = PKT_TCP6;
	}
	case IPPROTO_ICMPV6:
		if (plen < 8 || pkt_fold(s + rte_cpu_to_be_16(plen) + pkt_raw_sum(l4, plen)) != 0xffff)
			return PKT_BAD;
		pi->icmp_type = l4[0];
		pi->payload = pi->l4 + 8;
		pi->paylen = plen - 8;
		return pi->kind = PKT_ICMP6;
	default:
		return pi->kind = PKT_OTHER;
	}
}

/* pkt_parse() and, with defer, pkt_parse_defer() */
static inline __attribute__((always_inline)) enum pkt_kind
parse(const uint8_t *f, uint32_t len, struct pkt_info *pi, const bool defer)
{
	const struct rte_ether_hdr *eth = (const struct rte_ether_hdr *)f;
	const struct rte_ipv4_hdr *ip;
	uint16_t et, ihl, tot;

	memset(pi, 0, sizeof(*pi));
	pi->kind = PKT_BAD;
	if (len < RTE_ETHER_HDR_LEN)
		return PKT_BAD;
	et = rte_be_to_cpu_16(eth->ether_type);
	pi->l3 = RTE_ETHER_HDR_LEN;
	if (et == RTE_ETHER_TYPE_VLAN) {
		/* IEEE 802.1Q: TCI, then the type of what the tag carries */
		const struct rte_vlan_hdr *vh = (const struct rte_vlan_hdr *)(eth + 1);

		if (len < RTE_ETHER_HDR_LEN + sizeof(*vh))
			return PKT_BAD;
		pi->tagged = 1;
		pi->vlan = rte_be_to_cpu_16(vh->vlan_tci);
		et = rte_be_to_cpu_16(vh->eth_proto);
		pi->l3 += sizeof(*vh);
	}
	if (et == RTE_ETHER_TYPE_ARP) {
		const struct rte_arp_hdr *a = (const struct rte_arp_hdr *)(f + pi->l3);

		if (len < pi->l3 + sizeof(*a))
			return PKT_BAD;
		if (a->arp_hardware != rte_cpu_to_be_16(RTE_ARP_HRD_ETHER) ||
		    a->arp_protocol != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) || a->arp_hlen != 6 ||
		    a->arp_plen != 4)
			return PKT_BAD;
		pi->sip = rte_be_to_cpu_32(a->arp_data.arp_sip);
		pi->dip = rte_be_to_cpu_32(a->arp_data.arp_tip);
		return pi->kind = PKT_ARP;
	}
	if (et == RTE_ETHER_TYPE_IPV6)
		return parse_ip6(f, len, pi);
	if (et != RTE_ETHER_TYPE_IPV4)
		return pi->kind = PKT_OTHER;
	if (len < pi->l3 + sizeof(struct rte_ipv4_hdr))
		return PKT_BAD;
	ip = (const struct rte_ipv4_hdr *)(f + pi->l3);
	ihl = (ip->version_ihl & 0xf) * 4;
	tot = rte_be_to_cpu_16(ip->total_length);
	if ((ip->version_ihl >> 4) != 4 || ihl < 20 || tot < ihl || tot > len - pi->l3)
		return PKT_BAD;
	{
		/* 0xffff when valid; the usual 20-byte header in five words */
		uint16_t hs = ihl == 20 ? ip_hdr_sum20(ip) : pkt_raw_sum(ip, ihl);

		if (hs != 0xffff && hs != 0)
			return PKT_BAD;
	}
	pi->sip = rte_be_to_cpu_32(ip->src_addr);
	pi->dip = rte_be_to_cpu_32(ip->dst_addr);
	pi->proto = ip->next_proto_id;
	pi->l4 = pi->l3 + ihl;
	/* Fragments are never test traffic: the tester sends none. */
	if (rte_be_to_cpu_16(ip->fragment_offset) & (RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK))
		return pi->kind = PKT_OTHER;
	uint32_t l4len = tot - ihl;
	const uint8_t *l4 = f + pi->l4;

	switch (ip->next_proto_id) {
	case IPPROTO_UDP: {
		const struct rte_udp_hdr *u = (const struct rte_udp_hdr *)l4;

		if (l4len < 8 || rte_be_to_cpu_16(u->dgram_len) < 8 ||
		    rte_be_to_cpu_16(u->dgram_len) > l4len)
			return PKT_BAD;
		if (u->dgram_cksum && !l4_sum_ok(ip, l4, l4len))
			return PKT_BAD;
		pi->sport = rte_be_to_cpu_16(u->src_port);
		pi->dport = rte_be_to_cpu_16(u->dst_port);
		pi->payload = pi->l4 + 8;
		pi->paylen = rte_be_to_cpu_16(u->dgram_len) - 8;
		return pi->kind = PKT_UDP;
	}
	case IPPROTO_TCP: {
		const struct rte_tcp_hdr *t = (const struct rte_tcp_hdr *)l4;
		uint16_t doff;

		if (l4len < 20)
			return PKT_BAD;
		doff = (t->data_off >> 4) * 4;
		if (doff < 20 || doff > l4len)
			return PKT_BAD;
		if (defer && l4len - doff >= PKT_SUM_LATER_MIN) {
			/* the payload starts at an even offset (doff is a
			 * multiple of 4): its raw sum adds to the header's */
			pi->l4sum = pkt_fold(phdr_sum(ip->src_addr, ip->dst_addr, IPPROTO_TCP,
						      (uint16_t)l4len) +
					     pkt_raw_sum(l4, doff));
			pi->sum_todo = 1;
		} else if (!l4_sum_ok(ip, l4, l4len)) {
			return PKT_BAD;
		}
		pi->sport = rte_be_to_cpu_16(t->src_port);
		pi->dport = rte_be_to_cpu_16(t->dst_port);
		pi->tcp_flags = t->tcp_flags;
		pi->payload = pi->l4 + doff;
		pi->paylen = l4len - doff;
		return pi->kind = PKT_TCP;
	}
	case IPPROTO_ICMP: {
		if (l4len < 8)
			return PKT_BAD;
		if (pkt_raw_sum(l4, l4len) != 0xffff)
			return PKT_BAD;
		pi->icmp_type = l4[0];
		pi->payload = pi->l4 + 8;
		pi->paylen = l4len - 8;
		return pi->kind = PKT_ICMP;
	}
	default:
		return pi->kind = PKT_OTHER;
	}
}

enum pkt_kind pkt_parse(const uint8_t *f, uint32_t len, struct pkt_info *pi)
{
	return parse(f, len, pi, false);
}

enum pkt_kind pkt_parse_defer(const uint8_t *f, uint32_t len, struct pkt_info *pi)
{
	return parse(f, len, pi, true);
}

uint32_t pkt_build_eth_ip(uint8_t *f, const struct rte_ether_addr *src,
			  const struct rte_ether_addr *dst, uint32_t sip, uint32_t dip,
			  uint8_t proto, uint16_t l4len)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + RTE_ETHER_HDR_LEN);
	uint32_t sa = rte_cpu_to_be_32(sip), da = rte_cpu_to_be_32(dip), ps;
	uint16_t tot = rte_cpu_to_be_16(20 + l4len);

	rte_ether_addr_copy(dst, &eth->dst_addr);
	rte_ether_addr_copy(src, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->type_of_service = 0;
	ip->total_length = tot;
	ip->packet_id = 0;
	ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	ip->time_to_live = 64;
	ip->next_proto_id = proto;
	ip->src_addr = sa;
	ip->dst_addr = da;
	/* The header's sum from the values just written, not read back. */
	ps = pkt_sum32(sa) + pkt_sum32(da);
	ip->hdr_checksum = (uint16_t)~pkt_fold(ps + rte_cpu_to_be_16(RTE_IPV4_VHL_DEF << 8) + tot +
					       rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG) +
					       rte_cpu_to_be_16(64 << 8 | proto));
	return ps + rte_cpu_to_be_16(proto) + rte_cpu_to_be_16(l4len);
}

uint16_t pkt_build_udp(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
		       uint32_t sip, uint32_t dip, uint16_t sport, uint16_t dport, uint16_t paylen)
{
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(f + RTE_ETHER_HDR_LEN + 20);
	uint32_t s = pkt_build_eth_ip(f, src, dst, sip, dip, IPPROTO_UDP, 8 + paylen);

	u->src_port = rte_cpu_to_be_16(sport);
	u->dst_port = rte_cpu_to_be_16(dport);
	u->dgram_len = rte_cpu_to_be_16(8 + paylen);
	u->dgram_cksum = 0;
	u->dgram_cksum = pkt_udp_cksum(s + pkt_raw_sum(u, 8 + paylen));
	return PKT_UDP_PAY_OFF + paylen;
}

void pkt_tcp_fast_init(struct pkt_tcp_fast *t, const struct rte_ether_addr *src,
		       const struct rte_ether_addr *dst)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(t->hdr + RTE_ETHER_HDR_LEN);

	memset(t->hdr, 0, sizeof(t->hdr));
	pkt_build_eth_ip(t->hdr, src, dst, 0, 0, IPPROTO_TCP, 0);
	ip->total_length = 0;
	ip->hdr_checksum = 0;
	t->ip_sum = pkt_raw_sum(ip, 20);
}

uint16_t pkt_build_tcp(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
		       uint32_t sip, uint32_t dip, uint16_t sport, uint16_t dport, uint32_t seq,
		       uint32_t ack, uint8_t flags, uint16_t win, uint16_t mss, uint16_t paylen)
{
	struct pkt_tcp_fast t;

	pkt_tcp_fast_init(&t, src, dst);
	return pkt_tcp_fast_fill(f, &t, sip, dip, sport, dport, seq, ack, flags, win, mss, paylen,
				 paylen ? pkt_raw_sum(f + PKT_TCP_HDR_OFF + 20, paylen) : 0);
}

uint16_t pkt_build_arp(uint8_t *f, uint16_t op, const struct rte_ether_addr *sha, uint32_t sip,
		       const struct rte_ether_addr *tha, uint32_t tip)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;
	struct rte_arp_hdr *a = (struct rte_arp_hdr *)(f + RTE_ETHER_HDR_LEN);
	static const struct rte_ether_addr bcast = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	static const struct rte_ether_addr zero = {{0}};

	rte_ether_addr_copy(op == RTE_ARP_OP_REQUEST ? &bcast : tha, &eth->dst_addr);
	rte_ether_addr_copy(sha, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
	a->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	a->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	a->arp_hlen = 6;
	a->arp_plen = 4;
	a->arp_opcode = rte_cpu_to_be_16(op);
	rte_ether_addr_copy(sha, &a->arp_data.arp_sha);
	a->arp_data.arp_sip = rte_cpu_to_be_32(sip);
	rte_ether_addr_copy(op == RTE_ARP_OP_REQUEST ? &zero : tha, &a->arp_data.arp_tha);
	a->arp_data.arp_tip = rte_cpu_to_be_32(tip);
	return RTE_ETHER_HDR_LEN + sizeof(*a);
}

uint16_t pkt_build_echo(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
			uint32_t sip, uint32_t dip, uint16_t id, uint16_t seq, uint16_t paylen,
			uint64_t stamp)
{
	struct rte_icmp_hdr *ic = (struct rte_icmp_hdr *)(f + RTE_ETHER_HDR_LEN + 20);
	uint8_t *pay = (uint8_t *)(ic + 1);

	if (paylen < sizeof(stamp))
		paylen = sizeof(stamp);
	pkt_build_eth_ip(f, src, dst, sip, dip, IPPROTO_ICMP, 8 + paylen);
	ic->icmp_type = RTE_IP_ICMP_ECHO_REQUEST;
	ic->icmp_code = 0;
	ic->icmp_ident = rte_cpu_to_be_16(id);
	ic->icmp_seq_nb = rte_cpu_to_be_16(seq);
	memcpy(pay, &stamp, sizeof(stamp));
	for (uint16_t i = sizeof(stamp); i < paylen; i++)
		pay[i] = (uint8_t)i;
	ic->icmp_cksum = 0;
	ic->icmp_cksum = ~pkt_raw_sum(ic, 8 + paylen);
	return RTE_ETHER_HDR_LEN + 20 + 8 + paylen;
}

bool pkt_answer_arp(uint8_t *f, uint32_t len, const struct rte_ether_addr *mac)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;
	struct rte_arp_hdr *a = (struct rte_arp_hdr *)(f + RTE_ETHER_HDR_LEN);
	uint32_t tip;

	if (len < RTE_ETHER_HDR_LEN + sizeof(*a) || a->arp_opcode != rte_cpu_to_be_16(RTE_ARP_OP_REQUEST))
		return false;
	tip = a->arp_data.arp_tip;
	a->arp_opcode = rte_cpu_to_be_16(RTE_ARP_OP_REPLY);
	rte_ether_addr_copy(&a->arp_data.arp_sha, &a->arp_data.arp_tha);
	a->arp_data.arp_tip = a->arp_data.arp_sip;
	rte_ether_addr_copy(mac, &a->arp_data.arp_sha);
	a->arp_data.arp_sip = tip;
	rte_ether_addr_copy(&a->arp_data.arp_tha, &eth->dst_addr);
	rte_ether_addr_copy(mac, &eth->src_addr);
	return true;
}

bool pkt_answer_echo(uint8_t *f, uint32_t len, const struct pkt_info *pi)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + pi->l3);
	struct rte_icmp_hdr *ic = (struct rte_icmp_hdr *)(f + pi->l4);
	struct rte_ether_addr tmp;
	uint32_t a;

	if (pi->kind != PKT_ICMP || len < pi->l4 + 8u || ic->icmp_type != RTE_IP_ICMP_ECHO_REQUEST)
		return false;
	rte_ether_addr_copy(&eth->src_addr, &tmp);
	rte_ether_addr_copy(&eth->dst_addr, &eth->src_addr);
	rte_ether_addr_copy(&tmp, &eth->dst_addr);
	a = ip->src_addr;
	ip->src_addr = ip->dst_addr;
	ip->dst_addr = a;
	ip->time_to_live = 64;
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	ic->icmp_type = RTE_IP_ICMP_ECHO_REPLY;
	ic->icmp_cksum = 0;
	ic->icmp_cksum = ~pkt_raw_sum(ic, 8 + pi->paylen);
	return true;
}

uint16_t pkt_vlan_push(uint8_t *f, uint16_t len, uint16_t tci)
{
	struct rte_vlan_hdr *vh = (struct rte_vlan_hdr *)(f + RTE_ETHER_HDR_LEN);

	/* the type moves behind the tag; the MAC addresses stay */
	memmove(f + RTE_ETHER_HDR_LEN + sizeof(*vh) - 2, f + 2 * RTE_ETHER_ADDR_LEN,
		len - 2 * RTE_ETHER_ADDR_LEN);
	((struct rte_ether_hdr *)f)->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
	vh->vlan_tci = rte_cpu_to_be_16(tci);
	return len + sizeof(*vh);
}

uint16_t pkt_vlan_pop(uint8_t *f, uint16_t len)
{
	const struct rte_ether_hdr *eth = (const struct rte_ether_hdr *)f;

	if (len < RTE_ETHER_HDR_LEN + sizeof(struct rte_vlan_hdr) ||
	    eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN))
		return len;
	memmove(f + 2 * RTE_ETHER_ADDR_LEN, f + RTE_ETHER_HDR_LEN + 2,
		len - RTE_ETHER_HDR_LEN - 2);
	return len - sizeof(struct rte_vlan_hdr);
}

uint16_t pkt_tcp_mss(const uint8_t *f, const struct pkt_info *pi)
{
	const uint8_t *o = f + pi->l4 + 20, *end = f + pi->payload;

	while (o < end) {
		if (o[0] == 0)
			break;
		if (o[0] == 1) {
			o++;
			continue;
		}
		if (o + 1 >= end || o[1] < 2 || o + o[1] > end)
			break;
		if (o[0] == 2 && o[1] == 4)
			return (o[2] << 8) | o[3];
		o += o[1];
	}
	return 0;
}

void pkt_udp_fast_init(struct pkt_udp_fast *t, const struct rte_ether_addr *src,
		       const struct rte_ether_addr *dst, uint16_t paylen, uint16_t vary,
		       const uint8_t *rest)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(t->hdr + RTE_ETHER_HDR_LEN);
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(t->hdr + RTE_ETHER_HDR_LEN + 20);
	uint16_t ulen = rte_cpu_to_be_16(8 + paylen);

	pkt_build_eth_ip(t->hdr, src, dst, 0, 0, IPPROTO_UDP, 8 + paylen);
	ip->hdr_checksum = 0;
	u->src_port = u->dst_port = 0;
	u->dgram_len = ulen;
	u->dgram_cksum = 0;
	t->vary = vary;
	t->ip_sum = pkt_raw_sum(ip, 20);
	/* pseudo header: protocol and UDP length; then the UDP header (its
	 * length again) and the payload bytes that never change */
	t->udp_sum = rte_cpu_to_be_16(IPPROTO_UDP) + ulen + ulen;
	if (paylen > vary)
		t->udp_sum += pkt_raw_sum(rest, paylen - vary);
}
