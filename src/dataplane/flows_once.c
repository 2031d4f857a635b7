/*
 * flows_once.c — the TCP server that keeps no state (flows.h,
 * flows_tpl.tcp_once; man flowgen(8), FLOW TABLES): the segments of a
 * connection whose server answers a whole request with one segment are
 * answered from SYN cookies (tcp_cookie(), RFC 4987 §3.6), without an
 * entry in the table. What needs an entry after all goes back to the
 * table's path with what the cookie kept (flows_int.h, flows_cookie).
 *
 * Context: worker (the lcore that owns the flows state); nothing here
 * allocates but mbufs, locks, prints or makes a system call.
 */
#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "flows.h"
#include "flows_int.h"
#include "flowtab.h"
#include "pkt.h"
#include "tcp.h"
#include "worker.h"

/* tcp_cookie()'s time slot: the TSC >> this (53 s at 2.6 GHz): a cookie
 * is taken until the end of the slot after its SYN's */
#define FLOWS_COOKIE_SHIFT 37

bool flows_tcp_once(struct worker *w, struct flows_state *s, const struct flowtab_key *k, uint64_t h,
		    struct rte_mbuf *m, const uint8_t *f, const struct pkt_info *pi, uint64_t now,
		    struct flows_cookie *c, unsigned *ti)
{
	struct {
		struct flowtab_key k;
		uint8_t hdr[FLOWTAB_HDR - sizeof(struct flowtab_key)];
		struct flows_ent e;
	} once = {.k = *k};
	uint32_t slot = (uint32_t)(now >> FLOWS_COOKIE_SHIFT);
	struct tcp_seg_out o = {.win = FG_TCP_RCV_WND};
	const struct flows_tpl *t;
	struct tcp_seg sg;
	uint16_t pmss;

	c->entry = false;
	if (!fgen_addrs_has(&s->srv, pi->dip))
		return false;
	t = flows_srv_tpl(s, IPPROTO_TCP, pi->dport, ti);
	if (!t || !t->tcp_once)
		return false;
	once.e.tpl = (uint8_t)*ti;
	flows_tcp_seg(&sg, f, pi);
	if ((sg.flags & (TCP_SYN | TCP_ACK | TCP_RST)) == TCP_SYN) {
		if (s->stopping && (int64_t)(now - s->accept_until) > 0)
			return false;
		flows_srv_peer6(s, f, pi); /* the SYN-ACK's destination */
		o.seq = tcp_cookie(h, s->cookie_key, slot, sg.mss);
		o.ack = sg.seq + 1;
		o.flags = TCP_SYN | TCP_ACK;
		o.mss = s->mss[FLOWTAB_SERVER];
	} else if ((sg.flags & (TCP_SYN | TCP_ACK | TCP_RST)) != TCP_ACK) {
		return false;
	} else if ((pmss = tcp_cookie_check(sg.ack - 1, h, s->cookie_key, slot)) == 0) {
		/* not the handshake's ACK: one of the answer (and our FIN),
		 * the client's FIN getting its ACK, a pure one none */
		if (sg.len ||
		    (!tcp_cookie_check(sg.ack - t->srv_resp - 2, h, s->cookie_key, slot) &&
		     !tcp_cookie_check(sg.ack - t->srv_resp - 1, h, s->cookie_key, slot)))
			return false;
		if (sg.flags & TCP_FIN) {
			o.seq = sg.ack;
			o.ack = sg.seq + 1;
			o.flags = TCP_ACK;
		}
	} else if (sg.len || (sg.flags & TCP_FIN)) {
		/* the handshake's ACK with the request (a pure one needs no answer) */
		if ((sg.flags & TCP_FIN) || sg.len < t->srv_need || t->srv_resp > sg.win ||
		    t->srv_resp > FG_MIN(pmss, s->mss[FLOWTAB_SERVER])) {
			*c = (struct flows_cookie){.iss = sg.ack - 1, .irs = sg.seq - 1,
						   .mss = pmss, .win = sg.win, .entry = true};
			return false;
		}
		flows_accept_note(s, flows_srv(w, *ti), f, pi);
		FG_CTR_ADD(*flows_ctr(w, FLOWTAB_SERVER, *ti, FLOWS_C_RX_BYTES), sg.len);
		FG_CTR_INC(*flows_ctr(w, FLOWTAB_SERVER, *ti, FLOWS_C_COMPLETED));
		o.seq = sg.ack;
		o.ack = sg.seq + sg.len;
		o.flags = TCP_ACK | TCP_PSH | TCP_FIN;
		o.len = (uint16_t)t->srv_resp;
	}
	FG_CTR_INC(*flows_ctr(w, FLOWTAB_SERVER, *ti, FLOWS_C_RX_PKTS));
	flows_recycle(s, FLOWTAB_SERVER, m);
	if (o.flags)
		flows_tx_tcp(w, s, FLOWTAB_SERVER, &once.e, &o);
	return true;
}
