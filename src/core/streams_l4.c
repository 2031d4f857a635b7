/*
 * streams_l4.c — the prebuilt TCP and ICMP headers of the streams
 * engine's test frames (streams_l4.h): pure code, run by control when it
 * prepares a run and by the unit tests; the workers finish each frame
 * with the inline fill.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_tcp.h>

#include "prof-t.h"
#include "streams_l4.h"

void streams_l4_geom(struct streams_l4g *g, int proto, bool v6)
{
	uint16_t l4 = v6 ? PKT6_L4_OFF : RTE_ETHER_HDR_LEN + 20;
	bool tcp = proto == PROF_L4_TCP;

	g->v6 = v6;
	g->hlen = (uint16_t)(l4 + (tcp ? 20 : 8));
	g->ck = (uint16_t)(l4 + (tcp ? 16 : 2));
	/* TCP: the ports; ICMP echo: identifier and sequence number */
	g->words = (uint16_t)(l4 + (tcp ? 0 : 4));
	g->pseudo = tcp || v6;
}

void streams_l4_init(struct streams_l4t *t, const struct streams_l4g *g,
		     const struct streams_l4_hdr *h, const struct rte_ether_addr *src,
		     const uint8_t *sip6, const uint8_t *dip6, uint16_t len)
{
	static const struct rte_ether_addr none;
	uint16_t l3 = g->v6 ? PKT6_L4_OFF : RTE_ETHER_HDR_LEN + 20;
	uint16_t l4len = (uint16_t)(len - l3);
	bool tcp = h->proto == PROF_L4_TCP;
	uint8_t proto = tcp ? IPPROTO_TCP : g->v6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP;
	uint8_t *l4 = t->hdr + l3;
	uint32_t ps;

	memset(t, 0, sizeof(*t));
	if (g->v6) {
		uint8_t sa[16], da[16];

		memcpy(sa, sip6, 12);
		memcpy(da, dip6, 12);
		memset(sa + 12, 0, 4);
		memset(da + 12, 0, 4);
		pkt6_build_eth_ip(t->hdr, src, &none, sa, da, proto, l4len, 64);
		ps = pkt6_phdr_sum(sa, da, proto, l4len);
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(t->hdr + RTE_ETHER_HDR_LEN);

		ps = pkt_build_eth_ip(t->hdr, src, &none, 0, 0, proto, l4len);
		ip->hdr_checksum = 0;
		t->ip_sum = pkt_raw_sum(ip, 20);
	}
	if (tcp) {
		struct rte_tcp_hdr *th = (struct rte_tcp_hdr *)l4;

		th->sent_seq = rte_cpu_to_be_32(h->tcp_seq);
		th->recv_ack = rte_cpu_to_be_32(h->tcp_ack);
		th->data_off = 5 << 4;
		th->tcp_flags = h->tcp_flags;
		th->rx_win = rte_cpu_to_be_16(h->tcp_win);
	} else {
		l4[0] = h->icmp_type;
		l4[1] = h->icmp_code;
	}
	/* the payload is zeros but for the signature, which each frame adds */
	t->l4_sum = (g->pseudo ? ps : 0) + pkt_raw_sum(l4, (uint32_t)(g->hlen - l3));
}
