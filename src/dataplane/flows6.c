/*
 * flows6.c — the IPv6 frames of the stateful flows engine, on the worker
 * lcore that owns the flows (the rest of the worker half is flows.c).
 * A side of a run is IPv4 or IPv6 as its ip_gen range is (the server side
 * of a NAT64 run is IPv4 while its client side is IPv6). The engine keys
 * an IPv6 flow on the low 32 bits of its addresses, the same 32-bit
 * fields as IPv4 (the entry key's addresses); the first 96 bits of ours
 * and of the peer's are fixed per side for the run (flows_state.own_hi,
 * peer_hi) and put back here. So an IPv6 range lies within one /96, and
 * a NAT64 prefix is a /96 whose last 32 bits are the server's IPv4
 * address (flowgen-profile(5)). A datagram's payload after the
 * signature is flowpay.h's pattern, as on IPv4; the UDP checksum is
 * always computed (RFC 8200 section 8.1); TCP announces an MSS of 1440 (1500 - 40 - 20).
 * Nothing here allocates, locks, prints or makes a system call.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_mbuf.h>

#include "flows.h"
#include "flows_int.h"
#include "lat.h"
#include "pkt6.h"
#include "tcp.h"
#include "worker.h"

/* The two 16-byte addresses of entry e on side: ours and the peer's. */
static void flows6_addrs(const struct flows_state *s, int side, const struct flows_ent *e,
			 uint8_t *own, uint8_t *peer)
{
	uint32_t o = rte_cpu_to_be_32(flows_key(e)->dip), p = rte_cpu_to_be_32(flows_key(e)->sip);

	memcpy(own, s->own_hi[side], 12);
	memcpy(own + 12, &o, 4);
	memcpy(peer, s->peer_hi[side], 12);
	memcpy(peer + 12, &p, 4);
}

void flows6_tx_udp(struct worker *w, struct flows_state *s, int side, const struct flows_ent *e,
		   struct rte_mbuf *m, uint32_t id, uint32_t seq, uint16_t pay, uint8_t fl,
		   uint64_t now)
{
	uint8_t own[16], peer[16];
	uint8_t *f;

	/* flows_tx_udp() checked pay against FLOWS_UDP_REST */
	if (PKT6_UDP_PAY_OFF + pay > RTE_MBUF_DEFAULT_DATAROOM) {
		rte_pktmbuf_free(m);
		return;
	}
	f = (uint8_t *)rte_pktmbuf_append(m, PKT6_UDP_PAY_OFF + pay);
	if (!f) {
		rte_pktmbuf_free(m);
		return;
	}
	lat_sig_write(f + PKT6_UDP_PAY_OFF, id, seq, now, fl);
	memcpy(f + PKT6_UDP_PAY_OFF + LAT_SIG_LEN, s->udp_rest, pay - LAT_SIG_LEN);
	flows6_addrs(s, side, e, own, peer);
	pkt6_build_udp(f, &w->pv[side]->mac, &w->dst6[side], own, peer, flows_key(e)->dport,
		       flows_key(e)->sport, pay);
	FG_CTR_INC(*flows_ctr(w, side, e->tpl, FLOWS_C_TX_PKTS));
	FG_CTR_ADD(*flows_ctr(w, side, e->tpl, FLOWS_C_TX_BYTES), pay);
	worker_tx(w, side, m);
}

void flows6_tx_tcp(struct worker *w, struct flows_state *s, int side, const struct flows_ent *e,
		   struct rte_mbuf *m, const struct tcp_seg_out *o)
{
	uint16_t hl = o->mss ? 24 : 20;
	uint8_t own[16], peer[16];
	uint8_t *f = (uint8_t *)rte_pktmbuf_append(m, PKT6_TCP_HDR_OFF + hl + o->len);

	if (!f) {
		rte_pktmbuf_free(m);
		return;
	}
	if (o->len)
		(void)flows_tcp_fill(s, side, e, f + PKT6_TCP_HDR_OFF + 20, o);
	flows6_addrs(s, side, e, own, peer);
	pkt6_build_tcp(f, &w->pv[side]->mac, &w->dst6[side], own, peer, flows_key(e)->dport,
		       flows_key(e)->sport, o->seq, o->ack, o->flags, o->win, o->mss, o->len);
	FG_CTR_INC(*flows_ctr(w, side, e->tpl, FLOWS_C_TX_PKTS));
	FG_CTR_ADD(*flows_ctr(w, side, e->tpl, FLOWS_C_TX_BYTES), o->len);
	worker_tx(w, side, m);
}

void flows6_tcp_orphan_ack(struct worker *w, int side, struct rte_mbuf *m, const uint8_t *f,
			   const struct pkt_info *pi, uint32_t seq, uint32_t ack)
{
	struct rte_ether_addr to = ((const struct rte_ether_hdr *)f)->src_addr;
	uint8_t sa[16], da[16];
	uint8_t *o;

	/* the frame is rewritten in place: its addresses first */
	memcpy(sa, pkt6_src(f, pi), 16);
	memcpy(da, pkt6_dst(f, pi), 16);
	rte_pktmbuf_reset(m);
	o = (uint8_t *)rte_pktmbuf_append(m, PKT6_TCP_HDR_OFF + 20);
	if (!o) {
		rte_pktmbuf_free(m);
		return;
	}
	pkt6_build_tcp(o, &w->pv[side]->mac, &to, da, sa, pi->dport, pi->sport, seq, ack,
		       TCP_ACK, FG_TCP_RCV_WND, 0, 0);
	worker_tx(w, side, m);
}

void flows6_tx_udp_data(struct worker *w, struct flows_state *s, int side,
			const struct flows_ent *e, struct rte_mbuf *m, const uint8_t *data,
			uint16_t len)
{
	uint8_t own[16], peer[16];
	uint8_t *f;

	if (PKT6_UDP_PAY_OFF + len > RTE_MBUF_DEFAULT_DATAROOM) {
		rte_pktmbuf_free(m);
		return;
	}
	f = (uint8_t *)rte_pktmbuf_append(m, PKT6_UDP_PAY_OFF + len);
	if (!f) {
		rte_pktmbuf_free(m);
		return;
	}
	memcpy(f + PKT6_UDP_PAY_OFF, data, len);
	flows6_addrs(s, side, e, own, peer);
	pkt6_build_udp(f, &w->pv[side]->mac, &w->dst6[side], own, peer, flows_key(e)->dport,
		       flows_key(e)->sport, len);
	FG_CTR_INC(*flows_ctr(w, side, e->tpl, FLOWS_C_TX_PKTS));
	FG_CTR_ADD(*flows_ctr(w, side, e->tpl, FLOWS_C_TX_BYTES), len);
	worker_tx(w, side, m);
}
