/*
 * streams.c — the worker half of the stateless streams engine (`mode:
 * streams`, flowgen-profile(5), STATELESS PROFILES), run by the worker
 * lcores only: it allocates nothing, prints nothing and takes no lock.
 * Control (src/control/streams_ctl.c) has built each worker's senders
 * before START: one per stream and port sent from, with a pacer at the
 * stream's rate times -m, field generators for the addresses and ports,
 * the frame sizes (one size, or a repeating IMIX sequence) and headers
 * prebuilt per size. Every frame carries the 18-byte signature of lat.h:
 * stream id (with the sender and the run, streams.h), the sender's
 * sequence number and the TSC at transmission. An IPv6 stream's frames
 * are built the same way from IPv6 headers (streams6.h: only the last 32
 * bits of each address vary) and go to the IPv6 next hop (default_gw6's
 * MAC); one test per burst picks the family's fill, none per frame. A
 * stream of `proto: tcp` or `icmp` has a fill of its own (streams_l4.h):
 * TCP segments or ICMP echo messages that carry the same signature.
 *
 * TX: a sender fills a burst with the stamp left at 0, then stamps every
 * frame (the TSC, and its sum into the layer 4 checksum) and hands the
 * burst straight to rte_eth_tx_burst: the delay measured starts within a few
 * hundred nanoseconds of the driver taking the burst, not before the fill
 * or at the end of the loop turn. A sender whose frames are all short
 * (STREAMS_STAMP_EARLY_MAX, 128 bytes with the FCS) reads the TSC as the
 * fill begins instead and writes it in the fill's pass: such a burst is
 * filled in a few hundred nanoseconds too, and the second pass over it
 * would cost the fastest path about a tenth of its rate. What the TX
 * queue refuses is freed and counted as the stream's tx_dropped, its
 * sequence numbers given back, so a refused frame is never counted as
 * sent nor as lost by the DUT. The
 * frames that fell due while the worker was not running (it was
 * descheduled) are owed up to the pacer's bound (pace.h: PACE_BOUND_MS of
 * traffic at the rate) and go out one burst per sender and loop turn, RX
 * polled between two turns, until the backlog is sent; each burst is
 * stamped when it is handed over, not when it fell due. What fell due
 * beyond the bound (a longer stall, or a worker that cannot keep up) is
 * counted as late.
 *
 * Before measured traffic, each worker runs the learning phase of RFC 2544
 * §23: one frame to every destination of each sender, flagged with the
 * learning id so that it is never counted (a UDP datagram whatever the
 * stream's protocol), then a pause so the DUT's neighbour table fills
 * (the DUT resolves the emulated hosts by ARP, which the worker answers).
 * `start -t learn=0` skips it, `-t learn_wait=SECONDS` sets the pause
 * (flowgen(8), start).
 *
 * RX (streams_rx.c): a UDP, TCP or ICMP frame (over IPv4 or IPv6) with
 * a valid signature is counted per (stream, rx port, sending worker) in
 * a sequence tracker (rx, dup, ooo) and, when the stream has latency on,
 * its one-way delay goes into the (stream, rx port) histogram (streams.h:
 * several senders per stream). Counting is by signature only, so a NAT
 * may rewrite addresses, ports and ICMP identifiers. A frame whose
 * signature carries another run's tag is counted as stale, nothing else.
 *
 * Host pairs (streams.h): with the run's pair counts on, a paired
 * sender counts per pair what the TX queue took, a receiver per pair what
 * arrived (found by its destination address) and its delays.
 *
 * A stream with a `count` stops once its senders have sent it (each its
 * share, streams_ctl.c); a run whose every stream has one drains when
 * every sender of every worker is done (streams.h), so it ends by itself.
 *
 * Every 100 ms, and once more when it goes idle, the worker copies its
 * counts (and the histogram buckets that changed) into a snapshot and
 * publishes it through the lock-free triple buffer of streams.h, for
 * `stats` and `bench` to read without ever stalling the worker.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "fg.h"
#include "fgen.h"
#include "lat.h"
#include "pace.h"
#include "pkt.h"
#include "pkt6.h"
#include "port_addr.h"
#include "streams6.h"
#include "streams.h"
#include "streams_int.h"
#include "worker.h"

#define STREAMS_SNAP_MS 100 /* between two snapshots of a worker */

/* Learning frame i: host i of the sender's destinations, its src i too. */
static void streams_learn_fields(struct streams_sender *sd, uint32_t i, uint32_t *sip,
				 uint32_t *dip)
{
	if (sd->paired) {
		*sip = fgen_at(&sd->pair.a, i);
		*dip = fgen_at(&sd->pair.b, i);
	} else {
		uint32_t ns = fgen_count(&sd->src);

		*dip = fgen_at(&sd->dst, i);
		*sip = fgen_at(&sd->src, ns ? i % ns : i);
	}
}

/* The IPv6 half of streams_retarget. */
static void streams_retarget6(struct streams_sender *sd, const struct rte_ether_addr *dst)
{
	for (uint32_t i = 0; i < sd->nsizes; i++) {
		rte_ether_addr_copy(dst, (struct rte_ether_addr *)sd->fast6[i].hdr);
		if (sd->fixed6) {
			struct streams_fixed6 *x = &sd->fixed6[i];
			const struct streams6_fast *t = &sd->fast6[i];
			uint32_t sa = rte_cpu_to_be_32(sd->fix_sip), da = rte_cpu_to_be_32(sd->fix_dip);
			uint32_t as = pkt_sum32(sa) + pkt_sum32(da);
			uint16_t sp = rte_cpu_to_be_16(sd->fix_sp), dp = rte_cpu_to_be_16(sd->fix_dp);

			/* as for IPv4 below: the header with a signature sum of
			 * 0, and the UDP sum without the signature */
			streams6_fast_fill_be(x->hdr, t, sa, da, as, sp, dp, 0);
			x->sum = pkt_fold(t->udp_sum + as + sp + dp);
		}
	}
}

/* The next hop changed: rewrite the destination MAC of the templates. */
static void streams_retarget(struct streams_sender *sd, const struct rte_ether_addr *dst,
			     uint64_t word)
{
	if (sd->l4t) {
		for (uint32_t i = 0; i < sd->nsizes; i++)
			rte_ether_addr_copy(dst, (struct rte_ether_addr *)sd->l4t[i].hdr);
		sd->fast_dst = word;
		return;
	}
	if (sd->v6) {
		streams_retarget6(sd, dst);
		sd->fast_dst = word;
		return;
	}
	for (uint32_t i = 0; i < sd->nsizes; i++) {
		rte_ether_addr_copy(dst, (struct rte_ether_addr *)sd->fast[i].hdr);
		if (sd->fixed) {
			struct streams_fixed *x = &sd->fixed[i];
			const struct pkt_udp_fast *t = &sd->fast[i];
			uint32_t sa = rte_cpu_to_be_32(sd->fix_sip), da = rte_cpu_to_be_32(sd->fix_dip);

			/* the whole header with a signature sum of 0; the UDP sum
			 * without the signature, folded, for the frames to add to */
			pkt_udp_fast_fill(x->hdr, t, sd->fix_sip, sd->fix_dip, sd->fix_sp, sd->fix_dp,
					  0);
			x->sum = pkt_fold(t->udp_sum + pkt_sum32(sa) + pkt_sum32(da) +
					  rte_cpu_to_be_16(sd->fix_sp) + rte_cpu_to_be_16(sd->fix_dp));
		}
	}
	sd->fast_dst = word;
}

/*
 * The signature at the payload offset `off` (PKT_UDP_PAY_OFF, or
 * PKT6_UDP_PAY_OFF for IPv6), then zeros up to len (the templates'
 * payload is zeros). A 64-byte frame (60 without FCS; 84 on IPv6) ends
 * with the signature, an IPv4 one in the frame's one cache line; other
 * short tails take one fixed 16-byte store, which may write past the
 * frame (up to byte 96, far inside any mbuf's data room), instead of a
 * memset call.
 */
static inline __attribute__((always_inline)) void
streams_sig(uint8_t *f, uint16_t len, uint16_t off, uint32_t sid, uint32_t seq, uint64_t tsc,
	    uint8_t flags)
{
	static const uint8_t zero16[16];
	uint8_t *tail = f + off + LAT_SIG_LEN;

	lat_sig_write(f + off, sid, seq, tsc, flags);
	if (len <= off + LAT_SIG_LEN)
		return;
	if (len <= off + LAT_SIG_LEN + 16)
		memcpy(tail, zero16, 16);
	else
		memset(tail, 0, len - off - LAT_SIG_LEN);
}

/*
 * The mbuf of a frame of len bytes, straight from the pool
 * (streams_alloc): what rte_pktmbuf_alloc_bulk() would reset besides is
 * already so for any mbuf a free put back (next NULL, one segment, refcnt
 * 1) or not read with ol_flags 0 (tx_offload). Set in the fill's loop,
 * where the frame's length is, so the burst's mbufs are walked once.
 */
static inline __attribute__((always_inline)) void streams_mbuf(struct rte_mbuf *m, uint64_t rearm,
							       uint16_t len)
{
	memcpy(&m->rearm_data, &rearm, sizeof(rearm));
	m->ol_flags = 0;
	m->packet_type = 0;
	m->vlan_tci = 0;
	m->data_len = len;
	m->pkt_len = len;
}

/*
 * Measured frames, every field fixed: a copy of the prebuilt header, the
 * signature, and the UDP checksum from the header's folded sum plus the
 * signature's. The sender's fields are read into locals first: frame bytes
 * are stored through uint8_t pointers, which may alias anything, so fields
 * read through sd would be reloaded after every store.
 */
static inline __attribute__((always_inline)) void
streams_fill_fixed_do(struct streams_sender *sd, struct rte_mbuf **m, uint32_t n, uint64_t tsc,
		      const bool v6)
{
	const struct streams_fixed *fixed = sd->fixed;
	const struct streams_fixed6 *fixed6 = sd->fixed6;
	const uint16_t off = v6 ? PKT6_UDP_PAY_OFF : PKT_UDP_PAY_OFF;
	const uint16_t l4 = v6 ? PKT6_L4_OFF : RTE_ETHER_HDR_LEN + 20;
	const uint16_t *sizes = sd->sizes;
	uint32_t pos = sd->pos, nsizes = sd->nsizes, seq = sd->seq, sid = sd->sig_id;
	uint8_t flags = sd->latency ? LAT_SIG_F_LATENCY : 0;
	uint32_t sigsum = lat_sig_sum_fixed(sid, tsc, flags);
	uint64_t rearm = sd->rearm, bytes = 0;

	for (uint32_t i = 0; i < n; i++, seq++) {
		const uint8_t *hdr = v6 ? fixed6[pos].hdr : fixed[pos].hdr;
		uint32_t xsum = v6 ? fixed6[pos].sum : fixed[pos].sum;
		uint16_t len = sizes[pos];
		uint8_t *f = rte_pktmbuf_mtod(m[i], uint8_t *);
		uint16_t ck = pkt_udp_cksum(xsum + sigsum + lat_sig_sum_seq(seq));

		if (++pos == nsizes)
			pos = 0;
		memcpy(f, hdr, off);
		((struct rte_udp_hdr *)(f + l4))->dgram_cksum = ck;
		streams_sig(f, len, off, sid, seq, tsc, flags);
		streams_mbuf(m[i], rearm, len);
		bytes += len;
	}
	sd->pos = pos;
	sd->seq = seq;
	sd->bytes = bytes;
}

static void streams_fill_fixed(struct streams_sender *sd, struct rte_mbuf **m, uint32_t n,
			       uint32_t *idx __rte_unused, uint64_t tsc)
{
	streams_fill_fixed_do(sd, m, n, tsc, false);
}

static void streams_fill_fixed6(struct streams_sender *sd, struct rte_mbuf **m, uint32_t n,
				uint32_t *idx __rte_unused, uint64_t tsc)
{
	streams_fill_fixed_do(sd, m, n, tsc, true);
}

/*
 * The addresses of a burst of n frames: frame i carries tab[idx[i]].
 * Paired senders with a table index it directly; the others draw the
 * addresses field by field (fgen_fill) into prs[] (n <= FG_BURST).
 */
static const struct streams_pair *streams_burst_pairs(struct streams_sender *sd, uint32_t n,
						      uint32_t *idx, struct streams_pair *prs)
{
	uint32_t sa[FG_BURST], da[FG_BURST];

	if (sd->pair_tab) {
		fgen_fill(&sd->pair.idx, idx, n);
		return sd->pair_tab;
	}
	if (sd->paired) {
		for (uint32_t i = 0; i < n; i++)
			fgen_pair_next(&sd->pair, &sa[i], &da[i]);
	} else {
		fgen_fill(&sd->src, sa, n);
		fgen_fill(&sd->dst, da, n);
	}
	for (uint32_t i = 0; i < n; i++) {
		prs[i].sa = rte_cpu_to_be_32(sa[i]);
		prs[i].da = rte_cpu_to_be_32(da[i]);
		prs[i].sum = pkt_sum32(prs[i].sa) + pkt_sum32(prs[i].da);
		idx[i] = i;
	}
	return prs;
}

/* The frames a fill writes: UDP over IPv4 or IPv6, or a TCP or ICMP
 * stream's (streams_l4.h, either family). */
enum streams_kind { STREAMS_UDP4, STREAMS_UDP6, STREAMS_L4 };

/*
 * Measured frames whose addresses or ports vary (locals as above). A TCP
 * or ICMP stream takes this path whatever its fields: the header of the
 * frame's size, its addresses and varying words (ports, or the echo
 * identifier and sequence number), the signature at the end of the
 * headers; such streams test what a DUT does with the protocol, not the
 * generator's top speed.
 */
static inline __attribute__((always_inline)) void
streams_fill_do(struct streams_sender *sd, struct rte_mbuf **m, uint32_t n, uint32_t *idx,
		uint64_t tsc, const enum streams_kind kind, const bool one)
{
	const struct pkt_udp_fast *fast = sd->fast;
	const struct streams6_fast *fast6 = sd->fast6;
	const struct streams_l4t *l4t = sd->l4t;
	const struct streams_l4g g = sd->l4g;
	const uint16_t off = kind == STREAMS_L4	    ? g.hlen
			     : kind == STREAMS_UDP6 ? PKT6_UDP_PAY_OFF
						    : PKT_UDP_PAY_OFF;
	const uint16_t *sizes = sd->sizes;
	const uint16_t len1 = sizes[0];
	uint32_t pos = sd->pos, nsizes = sd->nsizes, seq = sd->seq, sid = sd->sig_id;
	uint8_t flags = sd->latency ? LAT_SIG_F_LATENCY : 0;
	uint32_t sigsum = lat_sig_sum_fixed(sid, tsc, flags);
	uint64_t rearm = sd->rearm, bytes = 0;
	uint32_t sp[FG_BURST], dp[FG_BURST];
	struct streams_pair prs[FG_BURST];
	const struct streams_pair *tab = streams_burst_pairs(sd, n, idx, prs);

	fgen_fill(&sd->sport, sp, n);
	fgen_fill(&sd->dport, dp, n);
	for (uint32_t i = 0; i < n; i++, seq++) {
		const struct streams_pair *pr = &tab[idx[i]];
		uint16_t len = one ? len1 : sizes[pos];
		uint8_t *f = rte_pktmbuf_mtod(m[i], uint8_t *);
		uint16_t p = one ? 0 : (uint16_t)pos;
		uint16_t w0 = rte_cpu_to_be_16((uint16_t)sp[i]),
			 w1 = rte_cpu_to_be_16((uint16_t)dp[i]);

		if (!one && ++pos == nsizes)
			pos = 0;
		streams_sig(f, len, off, sid, seq, tsc, flags);
		if (kind == STREAMS_L4)
			streams_l4_fill_be(f, &l4t[p], &g, pr->sa, pr->da, pr->sum, w0, w1,
					   sigsum + lat_sig_sum_seq(seq));
		else if (kind == STREAMS_UDP6)
			streams6_fast_fill_be(f, &fast6[p], pr->sa, pr->da, pr->sum, w0, w1,
					      sigsum + lat_sig_sum_seq(seq));
		else
			pkt_udp_fast_fill_be(f, &fast[p], pr->sa, pr->da, pr->sum, w0, w1,
					     sigsum + lat_sig_sum_seq(seq));
		streams_mbuf(m[i], rearm, len);
		bytes += len;
	}
	sd->pos = pos;
	sd->seq = seq;
	sd->bytes = bytes;
}

/*
 * idx[i]: the index in the sender's pair table of frame i's addresses. A
 * sender of one frame size has its own copy of the loop, in which the
 * size and the template are constants of the burst.
 */
static void streams_fill(struct streams_sender *sd, struct rte_mbuf **m, uint32_t n,
			 uint32_t *idx, uint64_t tsc)
{
	if (sd->nsizes == 1)
		streams_fill_do(sd, m, n, idx, tsc, STREAMS_UDP4, true);
	else
		streams_fill_do(sd, m, n, idx, tsc, STREAMS_UDP4, false);
}

static void streams_fill6(struct streams_sender *sd, struct rte_mbuf **m, uint32_t n,
			  uint32_t *idx, uint64_t tsc)
{
	if (sd->nsizes == 1)
		streams_fill_do(sd, m, n, idx, tsc, STREAMS_UDP6, true);
	else
		streams_fill_do(sd, m, n, idx, tsc, STREAMS_UDP6, false);
}

static void streams_fill_l4(struct streams_sender *sd, struct rte_mbuf **m, uint32_t n,
			    uint32_t *idx, uint64_t tsc)
{
	streams_fill_do(sd, m, n, idx, tsc, STREAMS_L4, false);
}

/* n mbufs straight from the pool for the fill, which sets them up
 * (streams_mbuf, with the sender's rearm word). */
static inline int streams_alloc(struct rte_mempool *mp, struct rte_mbuf **m, uint32_t n)
{
	return rte_mempool_get_bulk(mp, (void **)m, n) != 0 ? -ENOBUFS : 0;
}

/*
 * Stamp a filled burst at tsc (lat_sig_stamp): the signature's TSC bytes
 * at sig_off, and their sum into the layer 4 checksum at ck_off the fill
 * computed without them (pkt_cksum_add; udp: UDP's rule for a zero sum).
 */
static void streams_stamp(struct rte_mbuf **m, uint32_t n, uint64_t tsc, uint16_t sig_off,
			  uint16_t ck_off, bool udp)
{
	uint32_t add = lat_sig_sum_tsc(tsc);

	for (uint32_t i = 0; i < n; i++) {
		uint8_t *f = rte_pktmbuf_mtod(m[i], uint8_t *);
		uint16_t ck;

		lat_sig_stamp(f + sig_off, tsc);
		memcpy(&ck, f + ck_off, 2);
		ck = pkt_cksum_add(ck, add, udp);
		memcpy(f + ck_off, &ck, 2);
	}
}

/*
 * Stamp a burst and hand it to the TX queue at once (after what the worker
 * had queued on that side, so the order holds) through worker_send (tag,
 * capture, counting); returns how many the queue took and, in *tsc, the
 * stamp. The rest are freed.
 */
static uint32_t streams_tx_now(struct worker *w, const struct streams_sender *sd,
			       struct rte_mbuf **m, uint32_t n, uint64_t *tsc)
{
	worker_flush(w, sd->side);
	*tsc = rte_rdtsc();
	/* TCP and ICMP senders fill from a layer 4 template (l4t) */
	streams_stamp(m, n, *tsc, sd->sig_off, sd->ck_off, !sd->l4t);
	return worker_send_bytes(w, sd->side, m, (uint16_t)n, sd->bytes);
}

/* Fill a burst with the stamp tsc (0: streams_tx_now stamps it). */
static void streams_fill_any(struct streams_sender *sd, struct rte_mbuf **m, uint32_t n,
			     uint32_t *idx, uint64_t tsc)
{
	if (sd->l4t)
		streams_fill_l4(sd, m, n, idx, tsc);
	else if (sd->v6)
		(sd->fixed6 ? streams_fill_fixed6 : streams_fill6)(sd, m, n, idx, tsc);
	else if (sd->fixed)
		streams_fill_fixed(sd, m, n, idx, tsc);
	else
		streams_fill(sd, m, n, idx, tsc);
}

/*
 * The bytes of the `sent` frames before the sender's size position (a
 * burst the TX queue took in part, its position already moved back to
 * the first frame refused).
 */
static uint64_t streams_sent_bytes(const struct streams_sender *sd, uint32_t sent)
{
	uint32_t pos = (sd->pos + sd->nsizes - sent % sd->nsizes) % sd->nsizes;
	uint64_t bytes = 0;

	for (uint32_t i = 0; i < sent; i++) {
		bytes += sd->sizes[pos];
		if (++pos == sd->nsizes)
			pos = 0;
	}
	return bytes;
}

/*
 * Send up to n frames of a sender; returns how many it used up: sent, or
 * refused by the TX queue (tx_dropped). 0 when no frame could be built
 * (no next hop yet, no mbufs): the caller gives the credit back.
 */
static uint32_t streams_send(struct streams_state *s, struct streams_sender *sd, uint32_t n,
			     bool learning)
{
	struct worker *w = s->w;
	const struct port_view *p = w->pv[sd->side]; /* port sd->txport */
	struct rte_mbuf *m[FG_BURST];
	uint32_t idx[FG_BURST];
	uint64_t tsc, bytes;
	uint32_t sent;

	/* the next hop of the stream's family (IPv6: default_gw6's) */
	const struct rte_ether_addr *nh = sd->v6 ? &w->dst6[sd->side] : &w->dst[sd->side];

	if (!n)
		return 0;
	if (!(sd->v6 ? w->dst6_known[sd->side] : w->dst_known[sd->side]))
		return 0;
	if (!learning) {
		uint32_t want = n;

		/* a counted sender sends what is left of its count, no more
		 * (what the queue refuses is sent again: tx counts what it took) */
		if (sd->limit - sd->tx < n)
			n = (uint32_t)(sd->limit - sd->tx);
		if (!n)
			return want;
		if (streams_alloc(p->pool, m, n) != 0) {
			FG_CTR_INC(w->ctr->port[sd->txport].mbuf_fail);
			return 0;
		}
		uint64_t dw = port_mac_word(nh);

		/* `arp` may have changed the next hop: patch the templates */
		if (dw != sd->fast_dst)
			streams_retarget(sd, nh, dw);
		if (sd->stamp_early) {
			/* short frames: stamped as the fill begins, sent at once
			 * (after what the worker had queued on that side) */
			worker_flush(w, sd->side);
			tsc = rte_rdtsc();
			streams_fill_any(sd, m, n, idx, tsc);
			sent = worker_send_bytes(w, sd->side, m, (uint16_t)n, sd->bytes);
		} else {
			streams_fill_any(sd, m, n, idx, 0);
			sent = streams_tx_now(w, sd, m, n, &tsc);
		}
		bytes = sd->bytes;
		if (sent < n) {
			/* the refused frames' sequence numbers and sizes go to
			 * the next burst: the receiver sees no gap */
			uint32_t back = n - sent;

			sd->tx_dropped += back;
			sd->seq -= back;
			sd->pos = (sd->pos + sd->nsizes - back % sd->nsizes) % sd->nsizes;
			bytes = streams_sent_bytes(sd, sent);
		}
		sd->tx += sent;
		sd->tx_bytes += bytes;
		if (sent)
			sd->last_tsc = tsc;
		/* host pairs: what the queue took (the refused frames' pairs
		 * are not sent again: the walk has gone past them) */
		for (uint32_t i = 0; sd->pair_tx && i < sent; i++)
			sd->pair_tx[idx[i]]++;
		return want;
	}
	/* learning frames: one per destination host, at the first size */
	tsc = rte_rdtsc();
	if (rte_pktmbuf_alloc_bulk(p->pool, m, n) != 0) {
		FG_CTR_INC(w->ctr->port[sd->txport].mbuf_fail);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint16_t len = sd->sizes[0], off = sd->v6 ? PKT6_UDP_PAY_OFF : PKT_UDP_PAY_OFF;
		uint16_t pay = (uint16_t)(len - off);
		uint16_t sp = (uint16_t)fgen_at(&sd->sport, 0), dp = (uint16_t)fgen_at(&sd->dport, 0);
		uint8_t *f = rte_pktmbuf_mtod(m[i], uint8_t *);
		uint32_t sip, dip;

		memcpy(f + off, s->tmpl, pay);
		streams_learn_fields(sd, sd->learned++, &sip, &dip);
		lat_sig_write(f + off, STREAMS_LEARN_ID, 0, tsc, 0);
		if (sd->v6) {
			uint8_t sa[16], da[16];
			uint32_t sbe = rte_cpu_to_be_32(sip), dbe = rte_cpu_to_be_32(dip);

			memcpy(sa, sd->src6, 12);
			memcpy(sa + 12, &sbe, 4);
			memcpy(da, sd->dst6, 12);
			memcpy(da + 12, &dbe, 4);
			pkt6_build_udp(f, &p->mac, nh, sa, da, sp, dp, pay);
		} else {
			pkt_build_udp(f, &p->mac, nh, sip, dip, sp, dp, pay);
		}
		m[i]->data_len = len;
		m[i]->pkt_len = len;
	}
	worker_tx_bulk(w, sd->side, m, n);
	return n;
}

/*
 * A counted sender that has sent its count is done: its pacer is held (no
 * credit, no late frames from now on) and it leaves the run's count of
 * senders still sending. Once none is left in any worker, the run drains.
 */
static void streams_check_done(struct streams_state *s, struct streams_sender *sd)
{
	if (sd->done || sd->tx < sd->limit)
		return;
	sd->done = true;
	pace_pause(&sd->pace, s->now);
	s->nleft--;
	if (s->run->counted)
		__atomic_sub_fetch(&s->run->senders_left, 1, __ATOMIC_RELEASE);
}

/* A counted run whose senders are all done, in every worker. */
static bool streams_all_done(const struct streams_state *s)
{
	return s->run->counted && !s->nleft &&
	       !__atomic_load_n(&s->run->senders_left, __ATOMIC_ACQUIRE);
}

/*
 * At the deadline: the frames that fell due before it still go out, so a
 * last tick that came late (the thread was not running) does not shorten
 * the run; the pacer's bound limits them (what fell due beyond it is
 * counted as late). One burst per sender and call, as in the run, so RX
 * is polled between two bursts however large the backlog; true while
 * some sender may owe more (it sent a full burst). A sender that could
 * not send (no next hop, no mbufs) keeps its credit and does not hold up
 * the drain. Unpaced senders have no due.
 */
static bool streams_send_until(struct streams_state *s, uint64_t deadline)
{
	bool more = false;

	for (uint32_t i = 0; i < s->nsnd; i++) {
		struct streams_sender *sd = &s->snd[i];
		uint32_t due, sent;

		if (!(sd->base_pps > 0) || sd->done)
			continue;
		due = pace_due(&sd->pace, deadline);
		sent = streams_send(s, sd, due, false);
		if (sent < due)
			pace_return(&sd->pace, due - sent);
		else if (due == sd->pace.burst)
			more = true;
		streams_check_done(s, sd);
	}
	return more;
}

static void streams_start_run(struct streams_state *s, uint64_t now)
{
	FG_CTR_SET(s->w->ctr->gauge.warmup, 0);
	s->w->first_armed = true; /* the loop records the first frame's time */
	s->phase = STREAMS_PH_RUN;
	s->run_start = now;
	if (s->run->duration_s > 0)
		s->deadline = now + (uint64_t)(s->run->duration_s * (double)s->run->hz);
	/* credit left from the learning phase is not measured traffic: the
	 * run sends its rate times its duration, no more */
	for (uint32_t i = 0; i < s->nsnd; i++) {
		pace_restart(&s->snd[i].pace, now, !s->paused);
		s->snd[i].late_base = s->snd[i].pace.dropped;
	}
	/* a sender whose share of a count is 0 is done at once */
	s->nleft = s->nsnd;
	for (uint32_t i = 0; i < s->nsnd; i++)
		streams_check_done(s, &s->snd[i]);
}

/*
 * The pause before measured traffic, until end: after the learning
 * frames, or, with the run planned for a time of day (start --at,
 * worker.h: at_tsc), until then, the worker holding its ticks (no
 * learning frames then: they went out at the START, before it).
 */
static void streams_wait(struct worker *w, struct streams_state *s, uint64_t end)
{
	s->phase = STREAMS_PH_WAIT;
	s->phase_end = end;
	s->wait_at = w->at_tsc && end == w->at_tsc;
	if (w->at_tsc) {
		FG_CTR_SET(w->ctr->gauge.warmup, 1);
		w->hold_tsc = end;
	}
}

static void streams_drain(struct worker *w, struct streams_state *s, uint64_t now)
{
	s->phase = STREAMS_PH_DRAIN;
	s->drain_end = now + (uint64_t)(s->run->drain_s * (double)s->run->hz);
	FG_CTR_SET(w->ctr->gauge.state, CTR_DRAINING);
}

static void streams_tick(struct worker *w, uint64_t now)
{
	struct streams_state *s = w->state;

	s->now = now;
	if (!s->started) {
		s->started = true;
		s->next_snap = now;
		if (s->run->learn && s->nsnd) {
			/* learning is not the measured rate: no offer yet */
			FG_CTR_SET(w->ctr->gauge.warmup, 1);
			s->phase = STREAMS_PH_LEARN;
			for (uint32_t i = 0; i < s->nsnd; i++)
				pace_resume(&s->snd[i].pace, now);
		} else {
			for (uint32_t i = 0; i < s->nsnd; i++)
				pace_pause(&s->snd[i].pace, now);
			if (w->at_tsc)
				streams_wait(w, s, w->at_tsc);
			else
				streams_start_run(s, now);
		}
	}
	if ((int64_t)(now - s->next_snap) >= 0) {
		streams_publish(s, now);
		s->next_snap = now + s->run->hz * STREAMS_SNAP_MS / 1000;
	}
	switch (s->phase) {
	case STREAMS_PH_LEARN: {
		bool done = true;

		if (s->paused)
			break;
		for (uint32_t i = 0; i < s->nsnd; i++) {
			struct streams_sender *sd = &s->snd[i];
			uint32_t left = sd->nlearn - sd->learned, n;

			if (!left)
				continue;
			done = false;
			/* FG_MIN evaluates twice: take the due count once */
			n = pace_due(&sd->pace, now);
			n = FG_MIN(n, left);
			streams_send(s, sd, n, true);
		}
		if (done) {
			uint64_t end = now + (uint64_t)(s->run->learn_wait_s * (double)s->run->hz);

			for (uint32_t i = 0; i < s->nsnd; i++)
				pace_pause(&s->snd[i].pace, now);
			/* start --at: the planned start, unless the learning
			 * phase ran past it (its wait then ends late) */
			if (w->at_tsc && (int64_t)(w->at_tsc - end) > 0)
				end = w->at_tsc;
			streams_wait(w, s, end);
		}
		break;
	}
	case STREAMS_PH_WAIT:
		if (s->wait_at)
			s->phase_end = w->at_tsc;
		if ((int64_t)(now - s->phase_end) < 0)
			break;
		if (!w->at_tsc) {
			streams_start_run(s, now);
			break;
		}
		/* planned (start --at): the pacers start at the planned time,
		 * whatever turn came first after it, and this turn sends what
		 * is due already */
		streams_start_run(s, s->phase_end);
		/* fall through */
	case STREAMS_PH_RUN:
		if (s->paused)
			break;
		if (s->deadline && (int64_t)(now - s->deadline) >= 0) {
			if (!streams_send_until(s, s->deadline))
				streams_drain(w, s, now);
			break;
		}
		for (uint32_t i = 0; i < s->nsnd; i++) {
			struct streams_sender *sd = &s->snd[i];
			uint32_t due, sent;

			if (sd->done)
				continue;
			due = pace_due(&sd->pace, now);
			sent = streams_send(s, sd, due, false);
			if (sent < due && sd->base_pps > 0)
				pace_return(&sd->pace, due - sent);
			streams_check_done(s, sd);
		}
		if (streams_all_done(s))
			streams_drain(w, s, now);
		break;
	default:
		break;
	}
}

static void streams_stop(struct worker *w, uint64_t now)
{
	struct streams_state *s = w->state;

	if (s->phase != STREAMS_PH_DRAIN)
		streams_drain(w, s, now);
}

static void streams_rate(struct worker *w, uint64_t scale_micro, uint64_t now)
{
	struct streams_state *s = w->state;

	for (uint32_t i = 0; i < s->nsnd; i++) {
		struct streams_sender *sd = &s->snd[i];

		if (sd->base_pps > 0 && scale_micro > 0)
			pace_set_rate(&sd->pace, sd->base_pps * (double)scale_micro / 1e6, now);
	}
}

static void streams_pause(struct worker *w, bool on, uint64_t now)
{
	struct streams_state *s = w->state;

	/* the tick sends nothing while paused (unpaced senders ignore the
	 * pacer); the pacers stop accruing credit too */
	s->paused = on;
	if (s->phase != STREAMS_PH_LEARN && s->phase != STREAMS_PH_RUN)
		return;
	for (uint32_t i = 0; i < s->nsnd; i++) {
		if (on)
			pace_pause(&s->snd[i].pace, now);
		else if (!s->snd[i].done)
			pace_resume(&s->snd[i].pace, now);
	}
}

static bool streams_idle(struct worker *w)
{
	struct streams_state *s = w->state;

	if (s->phase != STREAMS_PH_DRAIN || (int64_t)(s->now - s->drain_end) < 0)
		return false;
	if (!s->final_sent) {
		/* the last counts reach control: the triple buffer always has
		 * a buffer free for the worker, so this never waits */
		streams_publish(s, s->now);
		s->final_sent = true;
	}
	return true;
}

const struct worker_ops streams_worker_ops = {
    .name = "streams",
    .rx = streams_rx_frame,
    .tick = streams_tick,
    .stop = streams_stop,
    .rate = streams_rate,
    .pause = streams_pause,
    .idle = streams_idle,
    .icmp_sig = true,
};
