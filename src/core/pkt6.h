/*
 * pkt6.h — IPv6 frames: Ethernet + IPv6 (RFC 8200) + UDP/TCP/ICMPv6
 * builders, the IPv6 pseudo-header checksum, ICMPv6 echo (RFC 4443) and
 * Neighbour Discovery (RFC 4861: Neighbour Solicitation and
 * Advertisement) built and answered in place. pkt_parse() (pkt.h)
 * classifies received IPv6 frames as PKT_UDP6, PKT_TCP6 and PKT_ICMP6;
 * what it found is read back here. Addresses are 16 bytes in network
 * order, as on the wire.
 *
 * Context: pure (operates on the bytes it is given); worker-safe.
 *
 * Included by: every folder.
 */
#ifndef FG_PKT6_H
#define FG_PKT6_H

#include "pkt.h"

#define PKT6_L4_OFF (RTE_ETHER_HDR_LEN + 40)	/* untagged: the upper layer */
#define PKT6_UDP_PAY_OFF (PKT6_L4_OFF + 8)
#define PKT6_TCP_HDR_OFF PKT6_L4_OFF
#define PKT6_HOP_ND 255				/* ND messages carry hop limit 255 */
#define PKT6_ND_LEN (PKT6_L4_OFF + 24 + 8)	/* NS/NA with a link-layer option */

/* ICMPv6 types flowgen handles (RFC 4443, RFC 4861). */
enum {
	PKT6_ECHO_REQUEST = 128,
	PKT6_ECHO_REPLY = 129,
	PKT6_NS = 135,
	PKT6_NA = 136,
};

/* pure: the addresses of a parsed IPv6 frame (pi->l3 as pkt_parse left it). */
static inline const uint8_t *pkt6_src(const uint8_t *f, const struct pkt_info *pi)
{
	return f + pi->l3 + 8;
}

static inline const uint8_t *pkt6_dst(const uint8_t *f, const struct pkt_info *pi)
{
	return f + pi->l3 + 24;
}

/* pure: the raw (unfolded) sum of the IPv6 pseudo header for `l4len` bytes
 * of protocol `proto`; sa and da as on the wire. */
uint32_t pkt6_phdr_sum(const uint8_t *sa, const uint8_t *da, uint8_t proto, uint32_t l4len);

/*
 * pure: the UDP/TCP/ICMPv6 checksum to write for the `l4len` bytes at l4
 * (their checksum field zero) under the IPv6 header `ip6` (whose addresses
 * and next header are used). As rte_ipv6_udptcp_cksum(): a UDP sum of zero
 * is sent as 0xffff.
 */
uint16_t pkt6_l4_cksum(const void *ip6, const void *l4, uint32_t l4len);

/* pure: Ethernet + IPv6 header for `l4len` bytes of `proto`, hop limit `hops`. */
void pkt6_build_eth_ip(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
		       const uint8_t *sip, const uint8_t *dip, uint8_t proto, uint16_t l4len,
		       uint8_t hops);

/* pure: Ethernet + IPv6 + UDP for `paylen` payload bytes already at
 * f + PKT6_UDP_PAY_OFF; the checksum always set. Returns the frame length. */
uint16_t pkt6_build_udp(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
			const uint8_t *sip, const uint8_t *dip, uint16_t sport, uint16_t dport,
			uint16_t paylen);

/* pure: Ethernet + IPv6 + TCP (20 bytes, 24 with the MSS option), the
 * payload already at PKT6_TCP_HDR_OFF + 20. Returns the frame length. */
uint16_t pkt6_build_tcp(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
			const uint8_t *sip, const uint8_t *dip, uint16_t sport, uint16_t dport,
			uint32_t seq, uint32_t ack, uint8_t flags, uint16_t win, uint16_t mss,
			uint16_t paylen);

/* pure: ICMPv6 echo request, `paylen` bytes (the first 8 carry `stamp`). */
uint16_t pkt6_build_echo(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
			 const uint8_t *sip, const uint8_t *dip, uint16_t id, uint16_t seq,
			 uint16_t paylen, uint64_t stamp);

/* pure: the solicited-node multicast address of `a` (RFC 4291 section
 * 2.7.1) and the Ethernet address of an IPv6 multicast group (RFC 2464). */
void pkt6_solicited_node(const uint8_t *a, uint8_t *out);
void pkt6_mcast_mac(const uint8_t *group, struct rte_ether_addr *mac);

/* pure: Neighbour Solicitation for `target` from (mac, sip), sent to the
 * target's solicited-node group, with the source link-layer option.
 * Returns PKT6_ND_LEN. */
uint16_t pkt6_build_ns(uint8_t *f, const struct rte_ether_addr *mac, const uint8_t *sip,
		       const uint8_t *target);

/* pure: the unicast Neighbour Solicitation of Neighbour Unreachability
 * Detection's probes (RFC 4861 §7.2.2, §7.3.3): for `target`, sent to
 * `target` itself at its cached MAC dmac, with the source link-layer
 * option. Returns PKT6_ND_LEN. */
uint16_t pkt6_build_ns_unicast(uint8_t *f, const struct rte_ether_addr *mac, const uint8_t *sip,
			       const uint8_t *target, const struct rte_ether_addr *dmac);

/* NA flags (RFC 4861 §4.4), as pkt6_na_flags returns them. */
#define PKT6_NA_R 0x80u /* Router */
#define PKT6_NA_S 0x40u /* Solicited */
#define PKT6_NA_O 0x20u /* Override */

/* pure: the flags byte of a valid NA (PKT6_NA_*); 0 for anything else. */
uint8_t pkt6_na_flags(const uint8_t *f, const struct pkt_info *pi);

/* pure: Neighbour Advertisement of `target` at `mac` to (dmac, dip), with
 * the target link-layer option; solicited sets S, O is always set. */
uint16_t pkt6_build_na(uint8_t *f, const struct rte_ether_addr *mac, const struct rte_ether_addr *dmac,
		       const uint8_t *target, const uint8_t *dip, bool solicited);

/*
 * pure: the target of a valid NS or NA (RFC 4861 sections 7.1.1, 7.1.2:
 * hop limit 255, code 0, at least 24 bytes), copied to `target`; the
 * message type, or 0 when the frame is no valid NS/NA.
 */
uint8_t pkt6_nd_target(const uint8_t *f, const struct pkt_info *pi, uint8_t *target);

/* pure: the link-layer address option `opt` (1 source, 2 target) of a
 * valid NS/NA; false when it has none. */
bool pkt6_nd_lladdr(const uint8_t *f, const struct pkt_info *pi, uint8_t opt,
		    struct rte_ether_addr *mac);

/*
 * pure: turn a received NS (parsed into pi) in place into the solicited
 * NA from `mac`, for the NS's target; `cap` bytes are writable at f (the
 * answer takes PKT6_ND_LEN plus any 802.1Q tag). Returns the new frame
 * length, or 0 when the frame is no NS flowgen answers (a duplicate
 * address probe from :: is not). The caller checks the target is its own.
 */
uint16_t pkt6_answer_ns(uint8_t *f, uint32_t len, uint32_t cap, const struct pkt_info *pi,
			const struct rte_ether_addr *mac);

/* pure: an ICMPv6 echo request turned in place into the reply. */
bool pkt6_answer_echo(uint8_t *f, uint32_t len, const struct pkt_info *pi);

#endif
