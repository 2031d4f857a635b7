/*
 * streams6.c — the prebuilt IPv6 headers of the streams engine's test
 * frames (streams6.h): pure code, run by control when it
 * prepares a run and by the unit tests; the workers finish each frame
 * with the inline fill of the header.
 */
#include <string.h>

#include <rte_byteorder.h>

#include "streams6.h"

void streams6_fast_init(struct streams6_fast *t, const struct rte_ether_addr *src,
			const struct rte_ether_addr *dst, const uint8_t *sip, const uint8_t *dip,
			uint16_t paylen, uint16_t vary, const uint8_t *rest)
{
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(t->hdr + PKT6_L4_OFF);
	uint8_t sa[16], da[16];
	uint16_t ulen = rte_cpu_to_be_16(8 + paylen);

	memcpy(sa, sip, 12);
	memcpy(da, dip, 12);
	memset(sa + 12, 0, 4);
	memset(da + 12, 0, 4);
	pkt6_build_eth_ip(t->hdr, src, dst, sa, da, IPPROTO_UDP, 8 + paylen, 64);
	u->src_port = u->dst_port = 0;
	u->dgram_len = ulen;
	u->dgram_cksum = 0;
	/* the pseudo header (its length as 32 bits), then the UDP header's
	 * length and the payload bytes that never change */
	t->udp_sum = pkt6_phdr_sum(sa, da, IPPROTO_UDP, 8u + paylen) + ulen;
	if (paylen > vary)
		t->udp_sum += pkt_raw_sum(rest, paylen - vary);
}
