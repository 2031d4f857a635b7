/*
 * pkt.h — frame building and parsing: Ethernet/IPv4/UDP/TCP/ARP/ICMP
 * headers laid out layer by layer, software checksums (the lab's veths and
 * the ring ports offload nothing), and a strict RX parser that tells a
 * malformed frame (truncated, bad checksum, bad length) from a foreign one.
 *
 * Context: pure (operates on the bytes it is given); worker-safe.
 */
#ifndef FG_PKT_H
#define FG_PKT_H

#include <rte_arp.h>
#include <rte_ether.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "fg.h"

enum pkt_kind {
	PKT_BAD = 0,	/* malformed: count rx_bad and drop */
	PKT_OTHER = 1,	/* well formed, nothing flowgen handles */
	PKT_ARP = 2,
	PKT_ICMP = 3,	/* ICMP (echo request / reply), checksum verified */
	PKT_UDP = 4,
	PKT_TCP = 5,
};
#define PKT_KIND_COUNT (PKT_TCP + 1)
extern const char *const pkt_kind_names[PKT_KIND_COUNT];

/* What the parser found; offsets are from the start of the frame. */
struct pkt_info {
	enum pkt_kind kind;
	uint16_t l3, l4, payload;	/* header offsets */
	uint16_t paylen;		/* L4 payload bytes */
	uint32_t sip, dip;		/* host order */
	uint16_t sport, dport;		/* host order */
	uint8_t proto, tcp_flags;
};

/* pure: parse and validate a frame of `len` contiguous bytes. */
enum pkt_kind pkt_parse(const uint8_t *f, uint32_t len, struct pkt_info *pi);

/*
 * pure: write Ethernet + IPv4 + UDP headers for `paylen` payload bytes at
 * `f` (the payload must already be in place at f + 42 for the checksum).
 * Returns the frame length without FCS.
 */
uint16_t pkt_build_udp(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
		       uint32_t sip, uint32_t dip, uint16_t sport, uint16_t dport, uint16_t paylen);

/* pure: Ethernet + IPv4 + TCP (20-byte header, + 4 with the MSS option). */
uint16_t pkt_build_tcp(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
		       uint32_t sip, uint32_t dip, uint16_t sport, uint16_t dport, uint32_t seq,
		       uint32_t ack, uint8_t flags, uint16_t win, uint16_t mss, uint16_t paylen);
#define PKT_TCP_HDR_OFF (RTE_ETHER_HDR_LEN + 20)
#define PKT_UDP_PAY_OFF (RTE_ETHER_HDR_LEN + 20 + 8)

/* pure: ARP request (op 1) or reply (op 2) frame; returns 42. */
uint16_t pkt_build_arp(uint8_t *f, uint16_t op, const struct rte_ether_addr *sha, uint32_t sip,
		       const struct rte_ether_addr *tha, uint32_t tip);

/* pure: ICMP echo request with `paylen` payload bytes (pattern), returns frame length. */
uint16_t pkt_build_echo(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
			uint32_t sip, uint32_t dip, uint16_t id, uint16_t seq, uint16_t paylen,
			uint64_t stamp);

/*
 * pure: turn a received frame in place into the answer to it: an ARP
 * request into the reply from `mac`, an ICMP echo request into the echo
 * reply. Returns false when the frame is not such a request.
 */
bool pkt_answer_arp(uint8_t *f, uint32_t len, const struct rte_ether_addr *mac);
bool pkt_answer_echo(uint8_t *f, uint32_t len, const struct pkt_info *pi);

/* pure: the MSS option of a TCP header, or 0. */
uint16_t pkt_tcp_mss(const uint8_t *f, const struct pkt_info *pi);

#endif
