/*
 * pkt.h — frame building and parsing: Ethernet/IPv4/UDP/TCP/ARP/ICMP
 * headers laid out layer by layer (IPv6, ICMPv6 and Neighbour Discovery
 * are in pkt6.h), software checksums (the lab's veths and
 * the ring ports offload nothing), and a strict RX parser that tells a
 * malformed frame (truncated, bad checksum, bad length) from a foreign one.
 *
 * Context: pure (operates on the bytes it is given); worker-safe.
 *
 * Included by: every folder.
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

#include <string.h>

#include "fg.h"

/*
 * Byte swaps through the compiler's builtins. DPDK 22.11's x86
 * rte_byteorder.h swaps a value that is not a constant with `asm volatile`
 * (xchgb, bswap): the compiler may neither move nor merge such a swap, and
 * a 16-bit one goes through a byte register pair, often by way of the
 * stack. rte_cpu_to_be_16() and its kin expand to rte_bswapNN() where they
 * are used, so from here on they compile to a rol, a bswap or a movbe that
 * the compiler schedules (and folds for constants, as before).
 */
#undef rte_bswap16
#undef rte_bswap32
#undef rte_bswap64
#define rte_bswap16(x) ((uint16_t)__builtin_bswap16((uint16_t)(x)))
#define rte_bswap32(x) ((uint32_t)__builtin_bswap32((uint32_t)(x)))
#define rte_bswap64(x) ((uint64_t)__builtin_bswap64((uint64_t)(x)))

enum pkt_kind {
	PKT_BAD = 0,	/* malformed: count rx_bad and drop */
	PKT_OTHER = 1,	/* well formed, nothing flowgen handles */
	PKT_ARP = 2,
	PKT_ICMP = 3,	/* ICMP (echo request / reply), checksum verified */
	PKT_UDP = 4,
	PKT_TCP = 5,
	PKT_ICMP6 = 6,	/* ICMPv6 (echo, Neighbour Discovery, ...), checksum verified */
	PKT_UDP6 = 7,	/* UDP over IPv6, checksum verified (mandatory on IPv6) */
	PKT_TCP6 = 8,	/* TCP over IPv6 */
};
#define PKT_KIND_COUNT (PKT_TCP6 + 1)
extern const char *const pkt_kind_names[PKT_KIND_COUNT];

/*
 * What the parser found; offsets are from the start of the frame. An
 * 802.1Q tagged frame has `tagged` set, its TCI in `vlan` and l3 = 18;
 * the kind is that of what the tag carries. IPv6 frames leave sip and dip
 * zero: their addresses are at f + l3 + 8 and f + l3 + 24 (pkt6.h).
 */
struct pkt_info {
	enum pkt_kind kind;
	uint16_t l3, l4, payload;	/* header offsets */
	uint16_t paylen;		/* L4 payload bytes */
	uint32_t sip, dip;		/* IPv4, host order; IPv6: the low 32 bits */
	uint16_t sport, dport;		/* host order */
	uint8_t proto, tcp_flags;	/* proto: IPv4 protocol or IPv6 next header */
	uint16_t vlan;			/* the tag's TCI (priority, DEI, id), host order */
	uint8_t tagged;			/* 1: one 802.1Q tag after the MAC addresses */
	uint8_t icmp_type;		/* ICMP and ICMPv6: the message type */
	/* pkt_parse_defer(): 1 when the payload's part of the TCP checksum
	 * is still to be added (pkt_sum_finish()); l4sum is the rest's */
	uint8_t sum_todo;
	uint16_t l4sum;
};

#define PKT_VLAN_ID(tci) ((tci) & 0xfff)

/*
 * pure: parse and validate a frame of `len` contiguous bytes: ARP, IPv4
 * (UDP, TCP, ICMP), IPv6 without extension headers (UDP, TCP, ICMPv6),
 * each untagged or behind one 802.1Q tag. Checksums are verified; an IPv6
 * UDP datagram with a zero checksum is bad (RFC 8200 section 8.1).
 */
enum pkt_kind pkt_parse(const uint8_t *f, uint32_t len, struct pkt_info *pi);

/*
 * pure: pkt_parse(), except that the checksum of an IPv4 TCP segment with
 * PKT_SUM_LATER_MIN payload bytes or more is verified only in part: over
 * the pseudo header and the TCP header, whose raw sum goes to pi->l4sum
 * with pi->sum_todo set. The caller must then finish it before it acts on
 * the frame, with pkt_sum_finish() and the payload's raw sum: its
 * pkt_raw_sum(), or the sum of bytes it compared the payload with (the
 * flows engine's stream pattern, whose sum is known in closed form), so
 * that a long payload is read once, not twice.
 */
#define PKT_SUM_LATER_MIN 256
enum pkt_kind pkt_parse_defer(const uint8_t *f, uint32_t len, struct pkt_info *pi);

/*
 * pure: Ethernet + IPv4 headers (DF, TTL 64, no options) for `l4len`
 * bytes of protocol `proto`; returns the raw sum of the pseudo header.
 */
uint32_t pkt_build_eth_ip(uint8_t *f, const struct rte_ether_addr *src,
			  const struct rte_ether_addr *dst, uint32_t sip, uint32_t dip,
			  uint8_t proto, uint16_t l4len);

/*
 * pure: write Ethernet + IPv4 + UDP headers for `paylen` payload bytes at
 * `f` (the payload must already be in place at f + 42 for the checksum).
 * Returns the frame length without FCS.
 */
uint16_t pkt_build_udp(uint8_t *f, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
		       uint32_t sip, uint32_t dip, uint16_t sport, uint16_t dport, uint16_t paylen);

/*
 * pure: Ethernet + IPv4 + TCP (20-byte header, + 4 with the MSS option);
 * the payload must already be in place at PKT_TCP_HDR_OFF + 20.
 */
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

/*
 * A prebuilt UDP frame for senders that change addresses, ports and the
 * first payload bytes (the signature) on every frame: the checksums are
 * updated from precomputed partial sums (RFC 1624 style) instead of
 * scanning the frame, and the header is one 42-byte copy.
 */
struct pkt_udp_fast {
	uint8_t hdr[PKT_UDP_PAY_OFF];	/* Ethernet, IPv4, UDP; addresses, ports, sums zero */
	uint32_t ip_sum;		/* raw sum of that IPv4 header */
	uint32_t udp_sum;		/* pseudo header + UDP header + payload after `vary` bytes */
	uint16_t vary;			/* leading payload bytes written per frame (even) */
};

/* pure: prepare for frames of `paylen` bytes whose payload after the first
 * `vary` bytes is `rest` (paylen - vary bytes). */
void pkt_udp_fast_init(struct pkt_udp_fast *t, const struct rte_ether_addr *src,
		       const struct rte_ether_addr *dst, uint16_t paylen, uint16_t vary,
		       const uint8_t *rest);

static inline uint32_t pkt_sum32(uint32_t be)
{
	return (be & 0xffff) + (be >> 16);
}

static inline uint16_t pkt_fold(uint32_t s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/*
 * pure: the UDP checksum field for s, the raw sum of the pseudo header,
 * the UDP header (its checksum zero) and the payload: its complement,
 * sent as all ones where it is zero (RFC 768: zero means no checksum).
 */
static inline uint16_t pkt_udp_cksum(uint32_t s)
{
	uint16_t ck = (uint16_t)~pkt_fold(s);

	return ck ? ck : 0xffff;
}

/*
 * pure: the layer 4 checksum ck updated for bytes that were zero when it
 * was computed and now add up to add (raw, unfolded): RFC 1624, eqn. 3,
 * with m = 0. A UDP sum of zero goes as all ones (RFC 768: zero means no
 * checksum); TCP's and ICMP's go as zero, the value computed from scratch
 * (RFC 1624, section 3: 0xffff is what no sender computes).
 */
static inline uint16_t pkt_cksum_add(uint16_t ck, uint32_t add, bool udp)
{
	uint16_t r = (uint16_t)~pkt_fold((uint16_t)~ck + add);

	return r == 0 && udp ? 0xffff : r;
}

/* pure: does the checksum that pkt_parse_defer() left to finish hold
 * with the payload's raw sum paysum (as pkt_raw_sum() gives it)? */
static inline bool pkt_sum_finish(const struct pkt_info *pi, uint16_t paysum)
{
	return pkt_fold((uint32_t)pi->l4sum + paysum) == 0xffff;
}

/*
 * pure: write the headers of one frame whose first `vary` payload bytes
 * are already in place at f + PKT_UDP_PAY_OFF (the rest of the payload
 * too); vary_sum is their raw sum (16-bit words in memory order,
 * unfolded). Addresses and ports in network order; addr_sum is
 * pkt_sum32(sa) + pkt_sum32(da), so that a sender with a table of
 * addresses computes it once per table entry.
 */
static inline void pkt_udp_fast_fill_be(uint8_t *f, const struct pkt_udp_fast *t, uint32_t sa,
					uint32_t da, uint32_t addr_sum, uint16_t sp, uint16_t dp,
					uint32_t vary_sum)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + RTE_ETHER_HDR_LEN);
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(f + RTE_ETHER_HDR_LEN + 20);

	memcpy(f, t->hdr, PKT_UDP_PAY_OFF);
	ip->src_addr = sa;
	ip->dst_addr = da;
	ip->hdr_checksum = (uint16_t)~pkt_fold(t->ip_sum + addr_sum);
	u->src_port = sp;
	u->dst_port = dp;
	u->dgram_cksum = pkt_udp_cksum(t->udp_sum + addr_sum + sp + dp + pkt_fold(vary_sum));
}

/* pure: the same with addresses and ports in host order. */
static inline void pkt_udp_fast_fill(uint8_t *f, const struct pkt_udp_fast *t, uint32_t sip,
				     uint32_t dip, uint16_t sport, uint16_t dport, uint32_t vary_sum)
{
	uint32_t sa = rte_cpu_to_be_32(sip), da = rte_cpu_to_be_32(dip);

	pkt_udp_fast_fill_be(f, t, sa, da, pkt_sum32(sa) + pkt_sum32(da), rte_cpu_to_be_16(sport),
			     rte_cpu_to_be_16(dport), vary_sum);
}

/*
 * The headers of TCP segments between two MAC addresses, prebuilt: a
 * sender of many segments (the flows engine) copies them and writes
 * what changes from segment to segment, the addresses, ports, sequence
 * numbers, flags and lengths, and both checksums from their parts (the
 * fixed fields' raw sum is computed once), instead of writing and
 * summing every field.
 */
struct pkt_tcp_fast {
	uint8_t hdr[PKT_TCP_HDR_OFF + 20]; /* Ethernet, IPv4, TCP; what varies is zero */
	uint32_t ip_sum;		   /* raw sum of that IPv4 header */
};

/* pure: prepare for segments from src to dst. */
void pkt_tcp_fast_init(struct pkt_tcp_fast *t, const struct rte_ether_addr *src,
		       const struct rte_ether_addr *dst);

/*
 * pure: write the headers of a segment with `paylen` payload bytes whose
 * raw sum is paysum (pkt_raw_sum() of them, or known without reading
 * them), in place at PKT_TCP_HDR_OFF + 20; with mss, the header takes
 * the MSS option (a SYN's: no payload). Addresses, ports and numbers in
 * host order. Returns the frame length without FCS.
 */
static inline uint16_t pkt_tcp_fast_fill(uint8_t *f, const struct pkt_tcp_fast *t, uint32_t sip,
					 uint32_t dip, uint16_t sport, uint16_t dport,
					 uint32_t seq, uint32_t ack, uint8_t flags, uint16_t win,
					 uint16_t mss, uint16_t paylen, uint16_t paysum)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + RTE_ETHER_HDR_LEN);
	struct rte_tcp_hdr *th = (struct rte_tcp_hdr *)(f + PKT_TCP_HDR_OFF);
	uint16_t hl = mss ? 24 : 20, l4 = (uint16_t)(hl + paylen);
	uint32_t sa = rte_cpu_to_be_32(sip), da = rte_cpu_to_be_32(dip);
	uint32_t sq = rte_cpu_to_be_32(seq), ak = rte_cpu_to_be_32(ack);
	uint32_t as = pkt_sum32(sa) + pkt_sum32(da), s;
	uint16_t tot = rte_cpu_to_be_16((uint16_t)(20 + l4));
	uint16_t sp = rte_cpu_to_be_16(sport), dp = rte_cpu_to_be_16(dport);
	uint16_t offl = rte_cpu_to_be_16((uint16_t)((hl / 4) << 12 | flags));
	uint16_t wn = rte_cpu_to_be_16(win);

	memcpy(f, t->hdr, sizeof(t->hdr));
	ip->total_length = tot;
	ip->src_addr = sa;
	ip->dst_addr = da;
	ip->hdr_checksum = (uint16_t)~pkt_fold(t->ip_sum + as + tot);
	th->src_port = sp;
	th->dst_port = dp;
	th->sent_seq = sq;
	th->recv_ack = ak;
	th->data_off = (uint8_t)((hl / 4) << 4);
	th->tcp_flags = flags;
	th->rx_win = wn;
	/* pseudo header (RFC 793: addresses, protocol, TCP length), then
	 * the header's words and the payload's */
	s = as + rte_cpu_to_be_16(IPPROTO_TCP) + rte_cpu_to_be_16(l4) + sp + dp + pkt_sum32(sq) +
	    pkt_sum32(ak) + offl + wn + paysum;
	if (mss) {
		uint8_t *o = (uint8_t *)(th + 1);

		o[0] = 2;
		o[1] = 4;
		o[2] = (uint8_t)(mss >> 8);
		o[3] = (uint8_t)mss;
		s += rte_cpu_to_be_16(0x0204) + rte_cpu_to_be_16(mss);
	}
	/* a sum of zero goes as zero: only UDP's goes as all ones (RFC 768) */
	th->cksum = (uint16_t)~pkt_fold(s);
	return (uint16_t)(PKT_TCP_HDR_OFF + l4);
}

/*
 * pure: the one's complement sum of len bytes as 16-bit words in memory
 * order, folded to 16 bits: what rte_raw_cksum() returns, several bytes at
 * a time. The RX checks and the TX checksums all go through it.
 */
uint16_t pkt_raw_sum(const void *buf, uint32_t len);

/*
 * pure: 802.1Q. pkt_vlan_push() inserts a tag with `tci` after the MAC
 * addresses of the `len`-byte frame at f (4 writable bytes must follow
 * it) and returns the new length; pkt_vlan_pop() removes the tag of a
 * tagged frame and returns the new length, or `len` unchanged when the
 * frame carries none.
 */
uint16_t pkt_vlan_push(uint8_t *f, uint16_t len, uint16_t tci);
uint16_t pkt_vlan_pop(uint8_t *f, uint16_t len);

/* pure: the MSS option of a TCP header, or 0. */
uint16_t pkt_tcp_mss(const uint8_t *f, const struct pkt_info *pi);

#endif
