/*
 * streams_l4.h — TCP and ICMP test frames of the streams engine (a
 * stream's `proto: tcp` or `proto: icmp`, flowgen-profile(5)), over IPv4
 * or IPv6: a header prebuilt once per frame size and finished per frame
 * from partial sums (RFC 1624), as pkt_udp_fast (pkt.h) and streams6.h do
 * for UDP. A frame writes the addresses (an IPv6 one's last 32 bits), two
 * 16-bit words (the TCP ports; ICMP echo's identifier and sequence
 * number, RFC 792 and RFC 4443 §4.1), the IPv4 header checksum and the
 * layer 4 checksum; the signature (lat.h) follows the headers. The ICMPv4
 * checksum covers the message only; TCP's and ICMPv6's cover the pseudo
 * header too (RFC 9293 §3.1, RFC 4443 §2.3). A TCP header is 20 bytes
 * (data offset 5, no options).
 *
 * Context: pure; the fill is worker-safe.
 *
 * Included by: every folder.
 */
#ifndef FG_STREAMS_L4_H
#define FG_STREAMS_L4_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "pkt.h"
#include "pkt6.h"
#include "streams6.h"

#define STREAMS_L4_HDR_MAX (PKT6_L4_OFF + 20) /* Ethernet, IPv6, TCP */

/* The header fields a stream fixes (the profile's `tcp:` and `icmp:`). */
struct streams_l4_hdr {
	int proto; /* enum prof_l4: PROF_L4_TCP or PROF_L4_ICMP */
	uint8_t tcp_flags;
	uint32_t tcp_seq, tcp_ack;
	uint16_t tcp_win;
	uint8_t icmp_type, icmp_code;
};

/* Where a stream's frames carry what varies (the same for every size). */
struct streams_l4g {
	uint16_t hlen;	/* Ethernet to the end of layer 4: the signature's offset */
	uint16_t ck;	/* the layer 4 checksum */
	uint16_t words; /* the two varying 16-bit words */
	bool v6;
	bool pseudo; /* the addresses are in the layer 4 sum */
};

/* One frame size's header and partial sums. */
struct streams_l4t {
	uint8_t hdr[STREAMS_L4_HDR_MAX]; /* varying parts and checksums zero */
	uint32_t ip_sum;		 /* IPv4: the header's sum without the addresses */
	uint32_t l4_sum; /* the pseudo header's fixed part (when it counts), the header, the
			    zeros of the payload */
};

/* pure: the geometry of proto's frames (enum prof_l4, TCP or ICMP). */
void streams_l4_geom(struct streams_l4g *g, int proto, bool v6);

/*
 * pure: the header of frames of len bytes (without FCS) from the port
 * MAC src (the next hop's is patched in by the worker); IPv6: sip and dip
 * the addresses (16 bytes, network order; their last 32 bits ignored).
 */
void streams_l4_init(struct streams_l4t *t, const struct streams_l4g *g,
		     const struct streams_l4_hdr *h, const struct rte_ether_addr *src,
		     const uint8_t *sip6, const uint8_t *dip6, uint16_t len);

/*
 * pure (worker): the headers of one frame: sa and da the addresses (IPv6:
 * their last 32 bits), network order, addr_sum pkt_sum32(sa) +
 * pkt_sum32(da); w0 and w1 the varying words, network order; pay_sum the
 * raw sum of the payload's non-zero bytes (the signature), unfolded.
 */
static inline void streams_l4_fill_be(uint8_t *f, const struct streams_l4t *t,
				      const struct streams_l4g *g, uint32_t sa, uint32_t da,
				      uint32_t addr_sum, uint16_t w0, uint16_t w1, uint32_t pay_sum)
{
	uint16_t ck;

	memcpy(f, t->hdr, g->hlen);
	if (g->v6) {
		memcpy(f + STREAMS6_SA_LO, &sa, 4);
		memcpy(f + STREAMS6_DA_LO, &da, 4);
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + RTE_ETHER_HDR_LEN);

		ip->src_addr = sa;
		ip->dst_addr = da;
		ip->hdr_checksum = (uint16_t)~pkt_fold(t->ip_sum + addr_sum);
	}
	memcpy(f + g->words, &w0, 2);
	memcpy(f + g->words + 2, &w1, 2);
	/* TCP or ICMP: a sum of zero goes as zero (pkt_cksum_add) */
	ck = (uint16_t)~pkt_fold(t->l4_sum + (g->pseudo ? addr_sum : 0) + w0 + w1 +
				 pkt_fold(pay_sum));
	memcpy(f + g->ck, &ck, 2);
}

#endif
