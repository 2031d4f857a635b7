/*
 * own.h — which worker of a port pair owns a received test frame, and the
 * client port choice that makes a NIC's RSS deliver a reply to its owner.
 * The rule is written once, here; the packet loop (worker.c) applies it to
 * every UDP/TCP frame when a pair has more than one worker, and hands a
 * frame owned by another worker over through an SPSC ring (README, "Design
 * in one page"; flowgen(8), -c).
 *
 * Ownership:
 *  - client port (replies): worker q of a pair of nq workers opens its
 *    flows from the client ports p with p mod nq == q, in every
 *    template's client_ports range, so the frame's destination port
 *    names its owner whichever template it is of. A NAT restores the
 *    client's port on the way back (RFC 4787 §4.1, RFC 3022 §2.2).
 *    Ports outside [port_lo, port_hi] (the union of the templates'
 *    ranges) stay with the receiver.
 *  - server port: a UDP datagram whose payload carries a flow signature
 *    (lat.h) belongs to the worker written in the signature's id (bits
 *    OWN_ID_SHIFT and up): the client flow's owner, which then also drives
 *    the server side and marks the client flow "server done" in its own
 *    table. Anything else (TCP, UDP without a signature) belongs to the
 *    worker that received it: every ethdev here delivers one flow's frames
 *    on one RX queue (RSS by tuple, net_af_packet's fan-out hash per flow,
 *    the [loop, loop] rings queue to queue), so the worker that learned the
 *    flow from its first frame sees the rest. Frames read from a port's
 *    control queue (net_af_packet only) are received by worker 0 of the
 *    pair, so on the server side worker 0 owns them.
 *
 * Contexts: everything here is pure (no EAL); own_worker() runs on the
 * workers, own_rss_*() on control and on the workers.
 *
 * Included by: every folder.
 */
#ifndef FG_OWN_H
#define FG_OWN_H

#include <stdbool.h>
#include <stdint.h>

#include "own-t.h"

/* Flow ids on the wire: flowtab_id() in the low bits, the worker's index
 * in its pair in the top OWN_ID_WBITS bits. */
#define OWN_ID_WBITS 5
#define OWN_ID_SHIFT (32 - OWN_ID_WBITS)
#define OWN_MAX_WORKERS (1u << OWN_ID_WBITS)

/* struct own_map, one run's ownership map of a port pair, is own-t.h. */

/* What the rule reads of a received frame. */
struct own_frame {
	uint16_t dport;	 /* L4 destination port, host order */
	bool sig;	 /* a flow signature was read (server side, UDP) */
	uint32_t sig_id; /* ...its id */
};

enum own_side { OWN_CLIENT = 0, OWN_SERVER = 1 };

/* pure: the flow id on the wire of a worker's flowtab id. */
static inline uint32_t own_id(uint32_t ftid, unsigned q)
{
	return ftid | (uint32_t)q << OWN_ID_SHIFT;
}

/* pure: the worker written in a wire id, and the flowtab id in it. */
static inline unsigned own_id_worker(uint32_t id)
{
	return id >> OWN_ID_SHIFT;
}

static inline uint32_t own_id_ft(uint32_t id)
{
	return id & ((1u << OWN_ID_SHIFT) - 1);
}

/*
 * pure: the worker (0 .. nq-1) that owns frame f received on `side` of the
 * pair by worker `self`.
 */
unsigned own_worker(const struct own_map *m, int side, const struct own_frame *f, unsigned self);

/* ---- RSS ---- */

#define OWN_RSS_KEY_MAX 52
#define OWN_RSS_RETA_MAX 512

/* A port's RSS as programmed: key and redirection table. */
struct own_rss {
	uint8_t key[OWN_RSS_KEY_MAX];
	uint8_t key_len;
	uint16_t reta_size;		 /* entries, a power of two, 0 = no RSS control */
	uint16_t reta[OWN_RSS_RETA_MAX]; /* RX queue per entry */
};

/*
 * pure: a symmetric key of len bytes (0x6d5a repeated): the Toeplitz hash
 * of (a, b, pa, pb) equals that of (b, a, pb, pa), so both directions of a
 * flow hash alike.
 */
void own_rss_sym_key(uint8_t *key, unsigned len);

/* pure: reta[i] = i mod nq for every entry: the worker queues only. */
void own_rss_reta_fill(struct own_rss *r, unsigned nq);

/*
 * pure: the RX queue the port's RSS gives an IPv4 TCP/UDP frame from
 * sip:sport to dip:dport (host order): the Toeplitz hash (rte_softrss())
 * over the addresses and ports, through the RETA.
 */
unsigned own_rss_queue(const struct own_rss *r, uint32_t sip, uint32_t dip, uint16_t sport,
		       uint16_t dport);

/*
 * pure: true when a client flow cip:cport -> sip:sport, opened by worker q,
 * gets its reply (sip:sport -> cip:cport, untranslated on the client side)
 * on RX queue q. Always true without RSS control (reta_size 0).
 */
static inline bool own_rss_fits(const struct own_rss *r, uint32_t cip, uint16_t cport,
				uint32_t sip, uint16_t sport, unsigned q)
{
	return r->reta_size == 0 || own_rss_queue(r, sip, cip, sport, cport) == q;
}

#endif
