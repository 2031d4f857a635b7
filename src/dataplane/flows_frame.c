/*
 * flows_frame.c — the frames of the stateful flows engine (flows_int.h):
 * the per-side stash of mbufs (received frames recycled for the answers),
 * the UDP datagrams (prebuilt headers, the flow's signature, then the
 * payload pattern of flowpay.h; or a send step's bytes alone) and the TCP
 * segments (payload from the stream ramp of tcp.h, its checksum in closed
 * form; or the program's bytes at their offset, progb.h), the TCP header as
 * the endpoint reads it, and the stateless answer to an orphan FIN.
 *
 * Context: worker (the lcore that owns the flows state); nothing here
 * allocates but mbufs, locks, prints or makes a system call.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_mbuf.h>

#include "flowpay.h"
#include "flows.h"
#include "flows_int.h"
#include "lat.h"
#include "pkt.h"
#include "progb.h"
#include "tcp.h"
#include "worker.h"

/* ---- small helpers ---- */

void flows_count_drop(struct worker *w, int side, struct rte_mbuf *m)
{
	FG_CTR_INC(w->ctr->port[w->port[side]].rx_unknown);
	rte_pktmbuf_free(m);
}

/*
 * Frames to send come from a small per-side stash: received frames that
 * were consumed go back into it (their buffer is still in cache from the
 * parse), and it is refilled from the port's pool a burst at a time.
 */
static struct rte_mbuf *flows_alloc(struct worker *w, struct flows_state *s, int side)
{
	struct flows_stash *st = &s->stash[side];

	if (st->n == 0) {
		if (rte_pktmbuf_alloc_bulk(w->pv[side]->pool, st->m, FG_BURST) != 0) {
			struct rte_mbuf *m = rte_pktmbuf_alloc(w->pv[side]->pool);

			if (!m)
				FG_CTR_INC(w->ctr->port[w->port[side]].mbuf_fail);
			return m;
		}
		st->n = FG_BURST;
	}
	return st->m[--st->n];
}

/* A received frame is done with: keep it for the next frame sent on that side. */
void flows_recycle(struct flows_state *s, int side, struct rte_mbuf *m)
{
	struct flows_stash *st = &s->stash[side];

	if (st->n < FLOWS_STASH && RTE_MBUF_DIRECT(m) && rte_mbuf_refcnt_read(m) == 1 &&
	    m->nb_segs == 1) {
		rte_pktmbuf_reset(m);
		st->m[st->n++] = m;
		return;
	}
	rte_pktmbuf_free(m);
}

/* ---- transmit ---- */

/*
 * The headers of a template's datagrams on one side, prebuilt: only the
 * signature changes from frame to frame, and the checksums follow it
 * incrementally (pkt_udp_fast). Rebuilt when the size or the next hop's
 * MAC address changes.
 */
static const struct pkt_udp_fast *flows_udp_hdr(struct worker *w, struct flows_state *s, int side,
						unsigned ti, uint16_t pay)
{
	struct flows_udp_hdr *u = &s->udp[ti][side];

	if (unlikely(u->pay != pay || u->gen != w->dst_gen[side] + 1)) {
		/* the pattern after the signature is in the prebuilt sums */
		pkt_udp_fast_init(&u->f, &w->pv[side]->mac, &w->dst[side], pay,
				  LAT_SIG_LEN, s->udp_rest);
		u->gen = w->dst_gen[side] + 1;
		u->pay = pay;
	}
	return &u->f;
}

void flows_tx_udp(struct worker *w, struct flows_state *s, int side, struct flows_ent *e,
		  uint32_t id, uint32_t bytes, uint64_t now)
{
	uint16_t pay = (uint16_t)FG_MAX(bytes, (uint32_t)LAT_SIG_LEN);
	uint8_t fl = side ? LAT_SIG_F_REPLY : 0;
	struct rte_mbuf *m;
	uint32_t seq;
	uint8_t *f;

	if (PKT_UDP_PAY_OFF + pay > RTE_MBUF_DEFAULT_DATAROOM || pay - LAT_SIG_LEN > FLOWS_UDP_REST)
		return;
	m = flows_alloc(w, s, side);
	if (!m)
		return;
	seq = e->udp.seq++;
	if (s->v6[side]) {
		flows6_tx_udp(w, s, side, e, m, id, seq, pay, fl, now);
		return;
	}
	f = (uint8_t *)rte_pktmbuf_append(m, PKT_UDP_PAY_OFF + pay);
	if (!f) {
		rte_pktmbuf_free(m);
		return;
	}
	lat_sig_write(f + PKT_UDP_PAY_OFF, id, seq, now, fl);
	memcpy(f + PKT_UDP_PAY_OFF + LAT_SIG_LEN, s->udp_rest, pay - LAT_SIG_LEN);
	pkt_udp_fast_fill(f, flows_udp_hdr(w, s, side, e->tpl, pay), flows_key(e)->dip,
			  flows_key(e)->sip, flows_key(e)->dport, flows_key(e)->sport,
			  lat_sig_sum_fixed(id, now, fl) + lat_sig_sum_seq(seq));
	FG_CTR_INC(*flows_ctr(w, side, e->tpl, FLOWS_C_TX_PKTS));
	FG_CTR_ADD(*flows_ctr(w, side, e->tpl, FLOWS_C_TX_BYTES), pay);
	worker_tx(w, side, m);
}

void flows_tx_udp_bytes(struct worker *w, struct flows_state *s, int side, struct flows_ent *e,
			const struct prof_step *st, uint64_t now)
{
	uint16_t len = (uint16_t)st->arg;
	struct rte_mbuf *m;
	uint8_t *f;

	(void)now;
	if (PKT_UDP_PAY_OFF + st->arg > RTE_MBUF_DEFAULT_DATAROOM)
		return;
	m = flows_alloc(w, s, side);
	if (!m)
		return;
	e->udp.seq++;
	if (s->v6[side]) {
		flows6_tx_udp_data(w, s, side, e, m, st->data, len);
		return;
	}
	f = (uint8_t *)rte_pktmbuf_append(m, PKT_UDP_PAY_OFF + len);
	if (!f) {
		rte_pktmbuf_free(m);
		return;
	}
	memcpy(f + PKT_UDP_PAY_OFF, st->data, len);
	pkt_build_udp(f, &w->pv[side]->mac, &w->dst[side], flows_key(e)->dip, flows_key(e)->sip,
		      flows_key(e)->dport, flows_key(e)->sport, len);
	FG_CTR_INC(*flows_ctr(w, side, e->tpl, FLOWS_C_TX_PKTS));
	FG_CTR_ADD(*flows_ctr(w, side, e->tpl, FLOWS_C_TX_BYTES), len);
	worker_tx(w, side, m);
}

uint16_t flows_tcp_fill_bytes(const struct flows_state *s, int side, const struct flows_ent *e,
			      uint8_t *dst, const struct tcp_seg_out *o)
{
	progb_fill(s->tpl[e->tpl].prog[side], dst, o->off, o->len);
	return pkt_raw_sum(dst, o->len);
}

/* The prebuilt headers of side's TCP segments, rebuilt when the next
 * hop's MAC address changes. */
static const struct pkt_tcp_fast *flows_tcp_hdr(struct worker *w, struct flows_state *s, int side)
{
	struct flows_tcp_hdr *h = &s->tcp[side];

	if (unlikely(h->gen != w->dst_gen[side] + 1)) {
		pkt_tcp_fast_init(&h->f, &w->pv[side]->mac, &w->dst[side]);
		h->gen = w->dst_gen[side] + 1;
	}
	return &h->f;
}

void flows_tx_tcp(struct worker *w, struct flows_state *s, int side, const struct flows_ent *e,
		  const struct tcp_seg_out *o)
{
	struct rte_mbuf *m = flows_alloc(w, s, side);
	uint16_t hl = o->mss ? 24 : 20, sum = 0;
	uint8_t *f;

	if (!m)
		return;
	if (s->v6[side]) {
		flows6_tx_tcp(w, s, side, e, m, o);
		return;
	}
	f = (uint8_t *)rte_pktmbuf_append(m, PKT_TCP_HDR_OFF + hl + o->len);
	if (!f) {
		rte_pktmbuf_free(m);
		return;
	}
	if (o->len)
		sum = flows_tcp_fill(s, side, e, f + PKT_TCP_HDR_OFF + 20, o);
	pkt_tcp_fast_fill(f, flows_tcp_hdr(w, s, side), flows_key(e)->dip, flows_key(e)->sip,
			  flows_key(e)->dport, flows_key(e)->sport, o->seq, o->ack, o->flags,
			  o->win, o->mss, o->len, sum);
	FG_CTR_INC(*flows_ctr(w, side, e->tpl, FLOWS_C_TX_PKTS));
	FG_CTR_ADD(*flows_ctr(w, side, e->tpl, FLOWS_C_TX_BYTES), o->len);
	worker_tx(w, side, m);
}

/* A received TCP header as the endpoint of tcp.h reads it. */
void flows_tcp_seg(struct tcp_seg *sg, const uint8_t *f, const struct pkt_info *pi)
{
	const struct rte_tcp_hdr *th = (const struct rte_tcp_hdr *)(f + pi->l4);

	sg->seq = rte_be_to_cpu_32(th->sent_seq);
	sg->ack = rte_be_to_cpu_32(th->recv_ack);
	sg->win = rte_be_to_cpu_16(th->rx_win);
	sg->flags = th->tcp_flags & 0x1f;
	sg->len = pi->paylen;
	sg->mss = (sg->flags & TCP_SYN) ? pkt_tcp_mss(f, pi) : 0;
}

/*
 * A FIN that belongs to no flow is the peer retransmitting its FIN because
 * our last ACK was lost after we closed: without TIME_WAIT the flow is
 * gone, so the ACK is sent statelessly, as TIME_WAIT would send it. Any
 * other segment of no flow is dropped and counted: answering junk with
 * RSTs would let forged segments tear down live connections through the
 * DUT's connection tracking.
 */
void flows_tcp_orphan(struct worker *w, int side, struct rte_mbuf *m, const uint8_t *f,
		      const struct pkt_info *pi)
{
	const struct rte_ether_hdr *eth = (const struct rte_ether_hdr *)f;
	struct rte_ether_addr to = eth->src_addr;
	struct tcp_seg sg;
	uint8_t *o;

	flows_tcp_seg(&sg, f, pi);
	FG_CTR_INC(w->ctr->port[w->port[side]].rx_unknown);
	if ((sg.flags & (TCP_FIN | TCP_ACK | TCP_SYN | TCP_RST)) != (TCP_FIN | TCP_ACK)) {
		rte_pktmbuf_free(m);
		return;
	}
	if (pi->kind == PKT_TCP6) {
		flows6_tcp_orphan_ack(w, side, m, f, pi, sg.ack, sg.seq + sg.len + 1);
		return;
	}
	rte_pktmbuf_reset(m);
	o = (uint8_t *)rte_pktmbuf_append(m, PKT_TCP_HDR_OFF + 20);
	if (!o) {
		rte_pktmbuf_free(m);
		return;
	}
	pkt_build_tcp(o, &w->pv[side]->mac, &to, pi->dip, pi->sip, pi->dport, pi->sport,
		      sg.ack, sg.seq + sg.len + 1, TCP_ACK, FG_TCP_RCV_WND, 0, 0);
	worker_tx(w, side, m);
}
