/*
 * icmperr.h — ICMP errors about the frames flowgen sent: ICMPv4 Destination
 * Unreachable (RFC 792, type 3; code 4, fragmentation needed, RFC 1191 §4)
 * and ICMPv6 Destination Unreachable and Packet Too Big (RFC 4443 §3.1,
 * §3.2). A router quotes the offending datagram's IP header and at least
 * the first 8 bytes behind it (RFC 792; RFC 1812 §4.3.2.3 asks for as much
 * as fits in 576 bytes, RFC 4443 for as much as fits in 1280): the
 * addresses, the ports and, for TCP, the sequence number, which is all it
 * takes to name a flow and check the error against it (RFC 5927 §4.1).
 *
 * This is the reading of such a message (icmperr_parse()), the key of the
 * flow it names as the flows engine's table holds it (icmperr_key()), the
 * split of unreachable codes into hard and soft errors (icmperr_hard(),
 * RFC 1122 §4.2.3.9) and the MSS a too-big message leaves a TCP flow
 * (icmperr_mss(): RFC 1191 §6, RFC 8201 §4). What a flow does with it is
 * tcp.h's (TCP) and the engine's (src/dataplane/flows.c); the packet loop
 * counts the messages per port (src/dataplane/worker.c). flowgen(8),
 * "ICMP ERRORS", has the whole story.
 *
 * Context: pure (operates on the bytes it is given); worker-safe.
 *
 * Included by: core, dataplane (and the tests, the fuzz harness).
 */
#ifndef FG_ICMPERR_H
#define FG_ICMPERR_H

#include <stdbool.h>
#include <stdint.h>

#include "flowtab.h"
#include "pkt.h"

enum icmperr_kind {
	ICMPERR_NONE = 0,    /* no error flowgen reads (echo, ND, ...) */
	ICMPERR_UNREACH = 1, /* destination unreachable, but fragmentation needed */
	ICMPERR_TOO_BIG = 2, /* ICMPv4 fragmentation needed (type 3 code 4), ICMPv6 Packet Too Big */
};

enum icmperr_res {
	ICMPERR_OK = 0,	     /* the quote names a UDP or TCP datagram: fields filled */
	ICMPERR_BAD = 1,     /* the quote cannot be read: truncated, not IP, bad lengths */
	ICMPERR_FOREIGN = 2, /* the quote is well formed but of no datagram flowgen sends:
				another protocol, a later fragment, an IPv6 extension header */
};

#define ICMPERR_V4_TYPE 3	   /* RFC 792: destination unreachable */
#define ICMPERR_V4_FRAG_NEEDED 4   /* its code: fragmentation needed and DF set */
#define ICMPERR_V6_UNREACH 1	   /* RFC 4443 §3.1 */
#define ICMPERR_V6_TOO_BIG 2	   /* RFC 4443 §3.2 */
#define ICMPERR_MSS4_MIN 536	   /* RFC 879, RFC 1122: 576 - 40 */
#define ICMPERR_MSS6_MIN 1220	   /* RFC 8200 §5: the 1280 minimum link MTU - 60 */

/* What an ICMP error says, read by icmperr_parse(). */
struct icmperr {
	uint8_t kind;  /* enum icmperr_kind */
	uint8_t code;  /* the message's code */
	bool v6;       /* ICMPv6, quoting IPv6 */
	bool hard;     /* unreachable: a hard error (icmperr_hard()) */
	uint8_t proto; /* quoted: IPPROTO_UDP or IPPROTO_TCP */
	uint32_t mtu;  /* too big: the next-hop MTU given; 0 when the router gave
			  none (RFC 1191 §5: a router from before RFC 1191) */
	uint32_t qlen; /* the quoted datagram's length, from its own IP header */
	/* the quoted addresses (IPv4 host order; IPv6: the low 32 bits, as
	 * the flows engine keys them) and the outer destination alike */
	uint32_t sip, dip, odip;
	uint16_t sport, dport; /* quoted, host order */
	uint32_t seq;	       /* TCP: the quoted sequence number, host order */
	uint16_t o3, q3;       /* frame offsets of the outer and the quoted IP header */
	uint16_t qpay, qpaylen; /* UDP: frame offset and bytes of the quoted payload
				   present (0: the quote ends with the UDP header) */
};

/*
 * pure: the kind of a parsed ICMP or ICMPv6 frame (pkt_parse(): PKT_ICMP,
 * PKT_ICMP6, the checksum verified), ICMPERR_NONE for any other frame or
 * message type. Cheap: the packet loop asks it of every ICMP frame.
 */
static inline enum icmperr_kind icmperr_kind_of(const uint8_t *f, const struct pkt_info *pi)
{
	if (pi->kind == PKT_ICMP && pi->icmp_type == ICMPERR_V4_TYPE)
		return f[pi->l4 + 1] == ICMPERR_V4_FRAG_NEEDED ? ICMPERR_TOO_BIG : ICMPERR_UNREACH;
	if (pi->kind == PKT_ICMP6 && pi->icmp_type == ICMPERR_V6_UNREACH)
		return ICMPERR_UNREACH;
	if (pi->kind == PKT_ICMP6 && pi->icmp_type == ICMPERR_V6_TOO_BIG)
		return ICMPERR_TOO_BIG;
	return ICMPERR_NONE;
}

/*
 * pure: read the ICMP error of the frame f parsed into pi (its kind not
 * ICMPERR_NONE) into e. The quote must hold the IP header and 8 bytes of
 * the transport header at least (RFC 792), and be consistent: IPv4 with
 * a header length of 20 bytes or more that fits, a total length that
 * holds the header and 8 bytes; IPv6 with its next header right behind
 * the fixed header. A quote longer than what is there is fine: routers
 * cut it. Returns enum icmperr_res; e is filled for ICMPERR_OK (kind,
 * code, v6, hard and mtu for every result but ICMPERR_BAD).
 */
enum icmperr_res icmperr_parse(const uint8_t *f, const struct pkt_info *pi, struct icmperr *e);

/*
 * pure: a hard error (RFC 1122 §4.2.3.9: protocol and port unreachable,
 * ICMPv4 codes 2 and 3; ICMPv6 port unreachable, RFC 4443 §3.1 code 4)
 * or a soft one (every other code: no route, host unreachable,
 * administratively prohibited, ...: a route may come back).
 */
bool icmperr_hard(bool v6, uint8_t code);

/*
 * pure: the flows engine's key (flowtab.h) of the flow whose frame on
 * `side` the error quotes: that frame went from our address and port to
 * the peer's, so the key (the peer's frame as we receive it) has the
 * quote's destination as its source. own replaces our address (the
 * quote's source): pass e->sip for the quote as it is.
 */
void icmperr_key(const struct icmperr *e, uint32_t own, int side, struct flowtab_key *k);

/*
 * pure: the MSS a too-big message leaves the TCP flow it names: the
 * next-hop MTU less 40 (IPv4) or 60 (IPv6) bytes of headers, never below
 * ICMPERR_MSS4_MIN or ICMPERR_MSS6_MIN (an MTU under 576 or 1280: RFC 1191
 * §3 asks for no less than the IPv4 minimum, RFC 8201 §4 forbids less
 * than 1280). An ICMPv4 message without an MTU (RFC 1191 §5) takes the
 * plateau (RFC 1191 §7) below the quoted length. 0 when the message asks
 * for nothing: the MTU given is no smaller than the quoted datagram,
 * which therefore fit (a forged message, RFC 5927 §7, or a confused
 * router: an estimate only ever goes down, RFC 8201 §4).
 */
uint16_t icmperr_mss(const struct icmperr *e);

#endif
