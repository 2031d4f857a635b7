/*
 * flows_bytes.c — the worker side of programs with bytes
 * (flowgen-profile(5), "STATEFUL PROFILES": send data, recv until,
 * until_close, close): the steps only such programs have, and the receive
 * path of a side that waits for a delimiter or whose peer sends bytes
 * (flows.h tells when a template takes it). The bytes are the plan's
 * (progb.h); a flow keeps its program counter and, during a recv until,
 * the delimiter bytes matched so far.
 *
 * Context: worker (the lcore that owns the flows state); nothing here
 * allocates but mbufs, locks, prints or makes a system call.
 */
#include <stddef.h>
#include <string.h>

#include <rte_mbuf.h>

#include "flowpay.h"
#include "flows.h"
#include "flows_int.h"
#include "flowtab.h"
#include "pkt.h"
#include "progb.h"
#include "tcp.h"
#include "worker.h"

/*
 * A recv until: search the new bytes of the segment being received
 * (s->rx) past what earlier steps consumed. Bytes that arrived before the
 * step ran are consumed unsearched (flowgen-profile(5)).
 */
static bool flows_until(struct flows_state *s, struct flows_ent *e, const struct prof_step *st)
{
	struct flows_tcb *b = flows_tcbx(s, e);
	uint32_t start, skip, used;

	if (!s->rx_len || (int32_t)(s->rx_off + s->rx_len - b->need) <= 0)
		return false;
	start = (int32_t)(b->need - s->rx_off) > 0 ? b->need : s->rx_off;
	skip = start - s->rx_off;
	used = progb_until(st->data, st->data + st->arg, st->arg, &b->umatch, s->rx + skip,
			   s->rx_len - skip);
	if (!used) {
		b->need = s->rx_off + s->rx_len;
		return false;
	}
	b->need = start + used;
	return true;
}

bool flows_prog_step(struct flows_state *s, struct flows_ent *e, const struct prof_step *st)
{
	switch (st->op) {
	case PROF_OP_UNTIL:
		return flows_until(s, e, st);
	case PROF_OP_UNTIL_CLOSE:
		if (!(flows_tcb(s, e)->flags & TCP_TF_FIN_RCVD))
			return false;
		flows_tcbx(s, e)->need = tcp_rcvd(flows_tcb(s, e));
		return true;
	case PROF_OP_CLOSE:
		if (!(e->flags & FLOWS_F_CLOSED)) {
			e->flags |= FLOWS_F_CLOSED;
			tcp_app_close(flows_tcb(s, e));
		}
		return true;
	default:
		return true;
	}
}

/*
 * Is new data from the peer (len bytes at data, from stream offset off)
 * acceptable? Where the peer's program has bytes they are checked; in
 * auto mode the flow's first data decides whether the peer is flowgen
 * (progb_ours()); a peer that is not is judged by byte counts alone, and
 * counted as a foreign server on the client side.
 */
static bool flows_bytes_ok(struct worker *w, const struct flows_state *s, int side,
			   struct flows_ent *e, const uint8_t *data, uint32_t off, uint32_t len)
{
	const struct prof_program *peer = s->tpl[e->tpl].prog[!side];

	if (s->check == FLOWPAY_OFF || (e->flags & FLOWS_F_PAY_FOREIGN) || !len)
		return true;
	if (!(e->flags & FLOWS_F_PAY_OURS)) {
		if (s->check == FLOWPAY_AUTO && !progb_ours(peer, data, off, len)) {
			if (side == FLOWTAB_CLIENT)
				flows_foreign(w, e);
			else
				e->flags |= FLOWS_F_PAY_FOREIGN;
			return true;
		}
		e->flags |= FLOWS_F_PAY_OURS;
	}
	return progb_check(peer, data, off, len);
}

static void flows_rx_bytes_tcp(struct worker *w, struct flows_state *s, int side,
			       struct rte_mbuf *m, const uint8_t *f, const struct pkt_info *pi,
			       uint32_t idx, struct flows_ent *e, uint64_t now)
{
	const struct flows_tpl *t = &s->tpl[e->tpl];
	const uint8_t *data = f + pi->payload;
	struct tcp_tcb *tb = flows_tcb_get(s, idx, e, now);
	struct tcp_seg sg;
	struct tcp_out o;
	bool ok = true;

	flows_tcp_seg(&sg, f, pi);
	if (tcp_data_new(tb, &sg)) {
		uint32_t off = tcp_rcv_off(tb, sg.seq);

		/* the peer's bytes, or the pattern of a flowgen peer (flowpay.h) */
		if (t->prog[!side]->bytes)
			ok = flows_bytes_ok(w, s, side, e, data, off, sg.len);
		else if (side == FLOWTAB_CLIENT)
			ok = flows_tcp_pay_ok(w, s, e, &sg, data, false);
	}
	if (!ok) {
		flows_recycle(s, side, m);
		flows_fail(w, s, idx, e, FLOWS_FAIL_PAYLOAD);
		return;
	}
	tcp_out_reset(&o);
	tcp_input(tb, &sg, flows_us(s, now), &o);
	if (o.events & TCP_EV_DATA) {
		s->rx = data + (o.data_off - tcp_rcv_off(tb, sg.seq));
		s->rx_off = o.data_off;
		s->rx_len = o.data_len;
	}
	flows_tcp_run(w, s, idx, e, side, &o, now);
	s->rx_len = 0;
	flows_recycle(s, side, m);
}

static void flows_rx_bytes_udp(struct worker *w, struct flows_state *s, int side,
			       struct rte_mbuf *m, const uint8_t *f, const struct pkt_info *pi,
			       uint32_t idx, struct flows_ent *e, uint64_t now)
{
	const struct prof_program *peer = s->tpl[e->tpl].prog[!side];
	const uint8_t *pay = f + pi->payload;
	size_t i = progb_find(peer, e->udp.rcvd);
	bool ok, data = i < peer->n && peer->steps[i].data;

	FG_CTR_ADD(*flows_ctr(w, side, e->tpl, FLOWS_C_RX_BYTES), pi->paylen);
	if (data)
		ok = flows_bytes_ok(w, s, side, e, pay, e->udp.rcvd, pi->paylen);
	else
		ok = side != FLOWTAB_CLIENT || flows_udp_pay_ok(w, s, idx, e, pay, pi->paylen);
	flows_recycle(s, side, m);
	if (!ok) {
		flows_fail(w, s, idx, e, FLOWS_FAIL_PAYLOAD);
		return;
	}
	e->udp.rcvd += pi->paylen;
	if (side == FLOWTAB_CLIENT) {
		flows_established(w, e);
		/* datagrams with bytes carry no signature: a flowgen server is
		 * done once all it sends has come */
		if (data && (e->flags & FLOWS_F_PAY_OURS) && e->udp.rcvd >= peer->sent)
			e->flags |= FLOWS_F_SRV_DONE;
	}
	if (!(e->flags & FLOWS_F_DONE))
		flows_prog(w, s, idx, e, side, now);
	flows_udp_check(w, s, idx, e, side, now);
}

void flows_rx_bytes(struct worker *w, struct flows_state *s, int side, struct rte_mbuf *m,
		    const uint8_t *f, const struct pkt_info *pi, uint32_t idx, struct flows_ent *e,
		    uint64_t now)
{
	if (pi->proto == IPPROTO_TCP)
		flows_rx_bytes_tcp(w, s, side, m, f, pi, idx, e, now);
	else
		flows_rx_bytes_udp(w, s, side, m, f, pi, idx, e, now);
}
