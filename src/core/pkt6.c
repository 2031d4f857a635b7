/*
 * pkt6.c — IPv6 frames: the builders for UDP, TCP and ICMPv6 (echo,
 * Neighbour Solicitation and Advertisement), the pseudo-header checksum,
 * and the in-place answers to a Neighbour Solicitation and an echo
 * request. Pure code on byte buffers: the workers answer NS and echo with
 * it, control (the service thread) sends NS and echo requests with it, the unit
 * tests and the classifier's fuzz harness run it without EAL.
 */
#include <string.h>

#include <rte_byteorder.h>

#include "pkt6.h"

uint32_t pkt6_phdr_sum(const uint8_t *sa, const uint8_t *da, uint8_t proto, uint32_t l4len)
{
	/* RFC 8200 section 8.1: source, destination, 32-bit length, three
	 * zero bytes and the next header */
	return (uint32_t)pkt_raw_sum(sa, 16) + pkt_raw_sum(da, 16) +
	       pkt_sum32(rte_cpu_to_be_32(l4len)) + rte_cpu_to_be_16(proto);
}

uint16_t pkt6_l4_cksum(const void *ip6, const void *l4, uint32_t l4len)
{
	const struct rte_ipv6_hdr *ip = ip6;
	uint16_t ck = (uint16_t)~pkt_fold(pkt6_phdr_sum(ip->src_addr, ip->dst_addr, ip->proto, l4len) +
					  pkt_raw_sum(l4, l4len));

	/* RFC 768: a UDP sum of zero goes as all ones (zero means none) */
	return ck == 0 && ip->proto == IPPROTO_UDP ? 0xffff : ck;
}

/* The IPv6 header at ip. */
static void build_ip6(uint8_t *ip6, const uint8_t *sip, const uint8_t *dip, uint8_t proto,
		      uint16_t l4len, uint8_t hops)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)ip6;

	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(l4len);
	ip->proto = proto;
	ip->hop_limits = hops;
	memcpy(ip->src_addr, sip, 16);
	memcpy(ip->dst_addr, dip, 16);
}

void pkt6_build_eth_ip(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
		       const uint8_t *sip, const uint8_t *dip, uint8_t proto, uint16_t l4len,
		       uint8_t hops)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;

	rte_ether_addr_copy(dst, &eth->dst_addr);
	rte_ether_addr_copy(src, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	build_ip6(f + RTE_ETHER_HDR_LEN, sip, dip, proto, l4len, hops);
}

uint16_t pkt6_build_udp(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
			const uint8_t *sip, const uint8_t *dip, uint16_t sport, uint16_t dport,
			uint16_t paylen)
{
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(f + PKT6_L4_OFF);

	pkt6_build_eth_ip(f, src, dst, sip, dip, IPPROTO_UDP, 8 + paylen, 64);
	u->src_port = rte_cpu_to_be_16(sport);
	u->dst_port = rte_cpu_to_be_16(dport);
	u->dgram_len = rte_cpu_to_be_16(8 + paylen);
	u->dgram_cksum = 0;
	u->dgram_cksum = pkt6_l4_cksum(f + RTE_ETHER_HDR_LEN, u, 8 + paylen);
	return PKT6_UDP_PAY_OFF + paylen;
}

uint16_t pkt6_build_tcp(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
			const uint8_t *sip, const uint8_t *dip, uint16_t sport, uint16_t dport,
			uint32_t seq, uint32_t ack, uint8_t flags, uint16_t win, uint16_t mss,
			uint16_t paylen)
{
	struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)(f + PKT6_TCP_HDR_OFF);
	uint16_t hl = mss ? 24 : 20;

	/* an MSS option only rides on SYNs, which carry no payload */
	pkt6_build_eth_ip(f, src, dst, sip, dip, IPPROTO_TCP, hl + paylen, 64);
	t->src_port = rte_cpu_to_be_16(sport);
	t->dst_port = rte_cpu_to_be_16(dport);
	t->sent_seq = rte_cpu_to_be_32(seq);
	t->recv_ack = rte_cpu_to_be_32(ack);
	t->data_off = (hl / 4) << 4;
	t->tcp_flags = flags;
	t->rx_win = rte_cpu_to_be_16(win);
	t->tcp_urp = 0;
	t->cksum = 0;
	if (mss) {
		uint8_t *o = (uint8_t *)(t + 1);

		o[0] = 2;
		o[1] = 4;
		o[2] = mss >> 8;
		o[3] = mss & 0xff;
	}
	t->cksum = pkt6_l4_cksum(f + RTE_ETHER_HDR_LEN, t, hl + paylen);
	return PKT6_TCP_HDR_OFF + hl + paylen;
}

uint16_t pkt6_build_echo(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
			 const uint8_t *sip, const uint8_t *dip, uint16_t id, uint16_t seq,
			 uint16_t paylen, uint64_t stamp)
{
	struct rte_icmp_hdr *ic = (struct rte_icmp_hdr *)(f + PKT6_L4_OFF);
	uint8_t *pay = (uint8_t *)(ic + 1);

	if (paylen < sizeof(stamp))
		paylen = sizeof(stamp);
	pkt6_build_eth_ip(f, src, dst, sip, dip, IPPROTO_ICMPV6, 8 + paylen, 64);
	ic->icmp_type = PKT6_ECHO_REQUEST;
	ic->icmp_code = 0;
	ic->icmp_ident = rte_cpu_to_be_16(id);
	ic->icmp_seq_nb = rte_cpu_to_be_16(seq);
	memcpy(pay, &stamp, sizeof(stamp));
	for (uint16_t i = sizeof(stamp); i < paylen; i++)
		pay[i] = (uint8_t)i;
	ic->icmp_cksum = 0;
	ic->icmp_cksum = pkt6_l4_cksum(f + RTE_ETHER_HDR_LEN, ic, 8 + paylen);
	return PKT6_L4_OFF + 8 + paylen;
}

void pkt6_solicited_node(const uint8_t *a, uint8_t *out)
{
	static const uint8_t pfx[13] = {0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff};

	memcpy(out, pfx, sizeof(pfx));
	memcpy(out + 13, a + 13, 3);
}

void pkt6_mcast_mac(const uint8_t *group, struct rte_ether_addr *mac)
{
	mac->addr_bytes[0] = 0x33;
	mac->addr_bytes[1] = 0x33;
	memcpy(&mac->addr_bytes[2], group + 12, 4);
}

/*
 * An NS or NA with its link-layer option at ip6 (the IPv6 header): 24
 * bytes of message (type, code, checksum, flags, target), then the 8-byte
 * option. Returns the IPv6 packet's length.
 */
static uint16_t build_nd(uint8_t *ip6, uint8_t type, uint32_t flags, const uint8_t *sip,
			 const uint8_t *dip, const uint8_t *target, uint8_t opt,
			 const struct rte_ether_addr *mac)
{
	uint8_t *m = ip6 + 40;
	uint32_t fl = rte_cpu_to_be_32(flags);
	uint16_t ck;

	build_ip6(ip6, sip, dip, IPPROTO_ICMPV6, 32, PKT6_HOP_ND);
	m[0] = type;
	m[1] = 0;
	m[2] = m[3] = 0;
	memcpy(m + 4, &fl, 4);
	memcpy(m + 8, target, 16);
	m[24] = opt;
	m[25] = 1; /* in units of 8 bytes */
	memcpy(m + 26, mac->addr_bytes, 6);
	ck = pkt6_l4_cksum(ip6, m, 32);
	memcpy(m + 2, &ck, 2);
	return 40 + 32;
}

uint16_t pkt6_build_ns(uint8_t *f, const struct rte_ether_addr *mac, const uint8_t *sip,
		       const uint8_t *target)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;
	uint8_t group[16];

	pkt6_solicited_node(target, group);
	pkt6_mcast_mac(group, &eth->dst_addr);
	rte_ether_addr_copy(mac, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	return RTE_ETHER_HDR_LEN + build_nd(f + RTE_ETHER_HDR_LEN, PKT6_NS, 0, sip, group, target, 1, mac);
}

uint16_t pkt6_build_ns_unicast(uint8_t *f, const struct rte_ether_addr *mac, const uint8_t *sip,
			       const uint8_t *target, const struct rte_ether_addr *dmac)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;

	rte_ether_addr_copy(dmac, &eth->dst_addr);
	rte_ether_addr_copy(mac, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	return RTE_ETHER_HDR_LEN + build_nd(f + RTE_ETHER_HDR_LEN, PKT6_NS, 0, sip, target, target, 1, mac);
}

uint8_t pkt6_na_flags(const uint8_t *f, const struct pkt_info *pi)
{
	uint8_t target[16];

	if (pkt6_nd_target(f, pi, target) != PKT6_NA)
		return 0;
	return f[pi->l4 + 4];
}

/* NA flags (RFC 4861 section 4.4): Router, Solicited, Override. */
#define ND_NA_S (1u << 30)
#define ND_NA_O (1u << 29)

uint16_t pkt6_build_na(uint8_t *f, const struct rte_ether_addr *mac, const struct rte_ether_addr *dmac,
		       const uint8_t *target, const uint8_t *dip, bool solicited)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;

	rte_ether_addr_copy(dmac, &eth->dst_addr);
	rte_ether_addr_copy(mac, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	return RTE_ETHER_HDR_LEN + build_nd(f + RTE_ETHER_HDR_LEN, PKT6_NA,
					    ND_NA_O | (solicited ? ND_NA_S : 0), target, dip,
					    target, 2, mac);
}

uint8_t pkt6_nd_target(const uint8_t *f, const struct pkt_info *pi, uint8_t *target)
{
	const uint8_t *m = f + pi->l4;

	if (pi->kind != PKT_ICMP6 || (pi->icmp_type != PKT6_NS && pi->icmp_type != PKT6_NA))
		return 0;
	/* the parser saw 8 + paylen bytes of message */
	if (pi->paylen + 8u < 24 || m[1] != 0 || f[pi->l3 + 7] != PKT6_HOP_ND)
		return 0;
	memcpy(target, m + 8, 16);
	return pi->icmp_type;
}

bool pkt6_nd_lladdr(const uint8_t *f, const struct pkt_info *pi, uint8_t opt,
		    struct rte_ether_addr *mac)
{
	uint8_t target[16];
	const uint8_t *o, *end;

	if (!pkt6_nd_target(f, pi, target))
		return false;
	o = f + pi->l4 + 24;
	end = f + pi->l4 + 8 + pi->paylen;
	/* options: type, length in 8-byte units (0 is invalid), value */
	while (o + 2 <= end) {
		unsigned n = o[1] * 8u;

		if (!n || o + n > end)
			return false;
		if (o[0] == opt && n >= 8) {
			memcpy(mac->addr_bytes, o + 2, 6);
			return true;
		}
		o += n;
	}
	return false;
}

uint16_t pkt6_answer_ns(uint8_t *f, uint32_t len, uint32_t cap, const struct pkt_info *pi,
			const struct rte_ether_addr *mac)
{
	static const uint8_t any[16];
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;
	uint8_t target[16], dip[16];

	(void)len;
	if (pkt6_nd_target(f, pi, target) != PKT6_NS || cap < pi->l3 + 72u)
		return 0;
	/* a duplicate address probe (from ::) is not answered: flowgen does
	 * not defend addresses, it only tells where they are */
	if (!memcmp(pkt6_src(f, pi), any, 16))
		return 0;
	memcpy(dip, pkt6_src(f, pi), 16);
	rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
	rte_ether_addr_copy(mac, &eth->src_addr);
	/* the tag, if any, stays as it was */
	return pi->l3 + build_nd(f + pi->l3, PKT6_NA, ND_NA_S | ND_NA_O, target, dip, target, 2, mac);
}

bool pkt6_answer_echo(uint8_t *f, uint32_t len, const struct pkt_info *pi)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(f + pi->l3);
	struct rte_icmp_hdr *ic = (struct rte_icmp_hdr *)(f + pi->l4);
	struct rte_ether_addr tmp;
	uint8_t a[16];

	if (pi->kind != PKT_ICMP6 || len < pi->l4 + 8u || pi->icmp_type != PKT6_ECHO_REQUEST)
		return false;
	rte_ether_addr_copy(&eth->src_addr, &tmp);
	rte_ether_addr_copy(&eth->dst_addr, &eth->src_addr);
	rte_ether_addr_copy(&tmp, &eth->dst_addr);
	memcpy(a, ip->src_addr, 16);
	memcpy(ip->src_addr, ip->dst_addr, 16);
	memcpy(ip->dst_addr, a, 16);
	ip->hop_limits = 64;
	ic->icmp_type = PKT6_ECHO_REPLY;
	ic->icmp_cksum = 0;
	ic->icmp_cksum = pkt6_l4_cksum(ip, ic, 8 + pi->paylen);
	return true;
}
