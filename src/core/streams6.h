/*
 * streams6.h — IPv6 test frames of the streams engine: a header prebuilt
 * once per frame size whose UDP checksum is finished per frame from
 * partial sums (RFC 1624 style), as pkt_udp_fast does for IPv4. A stream's
 * IPv6 addresses vary only in their last 32 bits (flowgen-profile(5)), so
 * a frame writes 4 bytes of each address, the ports and the checksum, and
 * the pseudo header's fixed part is summed once. IPv6 has no header
 * checksum; the UDP one is mandatory (RFC 8200 section 8.1).
 *
 * Context: pure; the fill is worker-safe.
 *
 * Included by: every folder.
 */
#ifndef FG_STREAMS6_H
#define FG_STREAMS6_H

#include <stdint.h>
#include <string.h>

#include "pkt6.h"

#define STREAMS6_SA_LO (RTE_ETHER_HDR_LEN + 8 + 12)  /* last 32 bits of the source */
#define STREAMS6_DA_LO (RTE_ETHER_HDR_LEN + 24 + 12) /* ... of the destination */

struct streams6_fast {
	uint8_t hdr[PKT6_UDP_PAY_OFF]; /* Ethernet, IPv6, UDP; low address words, ports, sum zero */
	uint32_t udp_sum; /* pseudo header without the low words + UDP header + fixed payload */
};

/*
 * pure: prepare frames of `paylen` UDP payload bytes from sip to dip (16
 * bytes each, network order; their last 32 bits are ignored) whose
 * payload after the first `vary` bytes is `rest`.
 */
void streams6_fast_init(struct streams6_fast *t, const struct rte_ether_addr *src,
			const struct rte_ether_addr *dst, const uint8_t *sip, const uint8_t *dip,
			uint16_t paylen, uint16_t vary, const uint8_t *rest);

/*
 * pure (worker): the headers of one frame whose first `vary` payload bytes
 * (raw sum vary_sum, unfolded) are in place at f + PKT6_UDP_PAY_OFF: sa
 * and da are the addresses' last 32 bits, network order, addr_sum
 * pkt_sum32(sa) + pkt_sum32(da); ports in network order.
 */
static inline void streams6_fast_fill_be(uint8_t *f, const struct streams6_fast *t, uint32_t sa,
					 uint32_t da, uint32_t addr_sum, uint16_t sp, uint16_t dp,
					 uint32_t vary_sum)
{
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(f + PKT6_L4_OFF);

	memcpy(f, t->hdr, PKT6_UDP_PAY_OFF);
	memcpy(f + STREAMS6_SA_LO, &sa, 4);
	memcpy(f + STREAMS6_DA_LO, &da, 4);
	u->src_port = sp;
	u->dst_port = dp;
	u->dgram_cksum = pkt_udp_cksum(t->udp_sum + addr_sum + sp + dp + pkt_fold(vary_sum));
}

#endif
