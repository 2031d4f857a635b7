/*
 * flows.c — the worker half of the stateful flows engine (profile `mode:
 * flows`): UDP flows and real TCP connections between the client port
 * (inside) and the server port (outside) of each port pair, correct through
 * a NAT. Every function here runs on the worker lcore that owns the state
 * (struct flows_state, flows.h), reached from the packet loop through
 * flows_worker_ops: received bursts, the tick that opens new flows and runs the
 * timers, and the stop/rate/pause messages. Nothing here allocates but
 * mbufs, locks, prints or makes a system call; control builds and frees
 * the states (src/control/flows_ctl.c). How the engine works, from NAT
 * learning to timers, is told in flows.h.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "fails.h"
#include "flows.h"
#include "flows_int.h"
#include "flowtab.h"
#include "icmperr.h"
#include "lat.h"
#include "own.h"
#include "pace.h"
#include "pkt.h"
#include "prof-t.h"
#include "tcp.h"
#include "worker.h"

#define FLOWS_NEW_BURST 32	 /* new flows per tick at most */
#define FLOWS_EXPIRE_BATCH 64	 /* timers popped per flowtab_expire() call */
#define FLOWS_EXPIRE_ROUNDS 8	 /* ... and calls per tick (one burst while frames wait) */

/* ---- flow life ---- */

/*
 * Arm the entry's timer at its earliest deadline. A timer that already
 * fires sooner is left alone: moving it on every segment costs a wheel
 * unlink and relink, and most flows end long before it fires. A timer
 * that fires early finds nothing due and arms again (flows_timer()).
 * now_us is flows_us(s, now), the TCB's clock: read only for a flow
 * that holds its TCB (a UDP flow's callers pass 0).
 */
static void flows_arm(struct flows_state *s, uint32_t idx, struct flows_ent *e, uint64_t now,
		      uint64_t now_us)
{
	uint64_t t = flows_t32_tsc(now, e->expire, FLOWS_EXPIRE_SHIFT);

	if (e->delay) {
		uint64_t d = flows_t32_tsc(now, e->delay, FLOWS_DELAY_SHIFT);

		if (d < t)
			t = d;
	}
	if ((e->flags & FLOWS_F_TCB) && flows_tcb(s, e)->deadline_us) {
		uint64_t d = flows_tsc_of_us(s, tcp_deadline(flows_tcb(s, e), now_us));

		if (d < t)
			t = d;
	}
	flowtab_timer_arm_min(s->ft, idx, t);
}

/* The gauge of side's flows in w's table, all templates (flows_idle() reads it). */
static inline uint64_t *flows_active(struct worker *w, int side)
{
	return side == FLOWTAB_SERVER ? &w->ctr->gauge.active_server : &w->ctr->gauge.active_client;
}

/* A flow of template ti entered side's table. */
static inline void flows_active_inc(struct worker *w, struct flows_state *s, int side, unsigned ti)
{
	uint64_t *a = flows_ctr(w, side, ti, FLOWS_C_ACTIVE);

	s->active[side]++;
	FG_CTR_SET(*flows_active(w, side), s->active[side]);
	FG_CTR_SET(*a, *a + 1);
}

static void flows_del(struct worker *w, struct flows_state *s, uint32_t idx, struct flows_ent *e)
{
	int side = flows_side(s->ft, idx);
	uint64_t *a = flows_ctr(w, side, e->tpl, FLOWS_C_ACTIVE);

	if (side == FLOWTAB_CLIENT)
		fgen_cpa_put(flows_cpa(s, e->tpl), flows_key(e)->dip, flows_key(e)->dport);
	s->active[side]--;
	FG_CTR_SET(*flows_active(w, side), s->active[side]);
	FG_CTR_SET(*a, *a - 1);
	flows_tcb_put(s, e);
	if (idx == s->rx_idx) {
		flowtab_del_h(s->ft, idx, s->rx_h);
		s->rx_idx = FLOWTAB_NIL;
	} else {
		flowtab_del(s->ft, idx);
	}
}

void flows_established(struct worker *w, struct flows_ent *e)
{
	if (!(e->flags & FLOWS_F_EST)) {
		e->flags |= FLOWS_F_EST;
		FG_CTR_INC(flows_cli(w, e->tpl)->established);
	}
}

static void flows_complete(struct worker *w, struct flows_state *s, uint32_t idx,
			   struct flows_ent *e)
{
	FG_CTR_INC(*flows_ctr(w, flows_side(s->ft, idx), e->tpl, FLOWS_C_COMPLETED));
	flows_del(w, s, idx, e);
}

/*
 * The failure path, cold: one failed flow counted under its reason and
 * noted in the worker's ring (fails.h: one cache line written, one TSC
 * read). k is the flow's key (our address and port its destination),
 * e its entry (NULL: it never had one).
 */
static void flows_fail_note(struct worker *w, struct flows_state *s, int side, unsigned tpl,
			    const struct flowtab_key *k, const struct flows_ent *e, unsigned why)
{
	struct fail_rec r = {
	    .tsc = rte_rdtsc(),
	    .run = (uint32_t)w->run_id,
	    .side = (uint8_t)side,
	    .reason = (uint8_t)why,
	    .tpl = (uint8_t)tpl,
	    .proto = k->proto,
	    .v6 = s->v6[side],
	};
	/* from the initiator's point of view: src the client, dst the server */
	uint8_t *own = side == FLOWTAB_CLIENT ? r.src : r.dst;
	uint8_t *peer = side == FLOWTAB_CLIENT ? r.dst : r.src;
	uint32_t own_ip = rte_cpu_to_be_32(k->dip), peer_ip = rte_cpu_to_be_32(k->sip);
	uint64_t *c = side == FLOWTAB_CLIENT ? flows_cli(w, tpl)->fail : flows_srv(w, tpl)->fail;

	FG_CTR_INC(*flows_ctr(w, side, tpl, FLOWS_C_FAILED));
	FG_CTR_INC(c[why]);
	r.sport = side == FLOWTAB_CLIENT ? k->dport : k->sport;
	r.dport = side == FLOWTAB_CLIENT ? k->sport : k->dport;
	if (r.v6) {
		memcpy(own, s->own_hi[side], 12);
		memcpy(peer, s->peer_hi[side], 12);
		memcpy(own + 12, &own_ip, 4);
		memcpy(peer + 12, &peer_ip, 4);
	} else {
		memcpy(own, &own_ip, 4);
		memcpy(peer, &peer_ip, 4);
	}
	if (e) {
		r.step = e->step;
		if (k->proto == IPPROTO_TCP)
			r.state = flows_tcp_state(s, e);
	}
	fails_push(&w->ctr->fails, &r);
}

/*
 * The reason of a flow whose timeout came: no_reply when the peer was
 * never heard (a client flow: no reply datagram, no SYN-ACK; a TCP
 * server flow: the handshake never completed, its first frame being the
 * client's SYN), timeout when it was. A UDP server flow began with the
 * peer's datagram: heard.
 */
static unsigned flows_expired(const struct flows_state *s, int side, const struct flows_ent *e)
{
	if (side == FLOWTAB_CLIENT)
		return e->flags & FLOWS_F_EST ? FG_FAIL_TIMEOUT : FG_FAIL_NO_REPLY;
	if (s->tpl[e->tpl].proto == PROF_TCP && flows_tcp_state(s, e) <= TCP_SYN_RCVD)
		return FG_FAIL_NO_REPLY;
	return FG_FAIL_TIMEOUT;
}

void flows_fail(struct worker *w, struct flows_state *s, uint32_t idx, struct flows_ent *e,
		enum flows_fail why)
{
	int side = flows_side(s->ft, idx);
	unsigned r = why == FLOWS_FAIL_EXPIRED ? flows_expired(s, side, e) : (unsigned)why;

	if (unlikely(r >= FG_FAIL_N))
		r = FG_FAIL_NO_REPLY; /* no such reason: never passed */
	flows_fail_note(w, s, side, e->tpl, flows_key(e), e, r);
	flows_del(w, s, idx, e);
}

void flows_fail_new(struct worker *w, struct flows_state *s, int side, unsigned tpl,
		    const struct flowtab_key *k)
{
	flows_fail_note(w, s, side, tpl, k, NULL, FG_FAIL_TABLE_FULL);
}

/*
 * Advance a side's program as far as it goes now: sends happen, a recv waits
 * for its bytes, a delay for its end; the steps of programs with bytes
 * (until, until_close, close) are flows_prog_step()'s. Returns true when
 * the program ended.
 */
bool flows_prog(struct worker *w, struct flows_state *s, uint32_t idx, struct flows_ent *e,
		int side, uint64_t now)
{
	const struct flows_tpl *t = &s->tpl[e->tpl];
	const struct prof_program *pg = t->prog[side];
	bool tcp = t->proto == PROF_TCP;

	while (e->step < pg->n) {
		const struct prof_step *st = &pg->steps[e->step];

		if (st->op == PROF_OP_SEND) {
			if (tcp)
				tcp_app_send(flows_tcb(s, e), st->arg);
			else if (st->data)
				flows_tx_udp_bytes(w, s, side, e, st, now);
			else
				flows_tx_udp(w, s, side, e,
					     side ? e->udp.peer_id
						  : own_id(flowtab_id(s->ft, idx), w->q),
					     st->arg, now);
		} else if (st->op == PROF_OP_RECV) {
			/* a UDP flow's consumed bytes are its program's (flows.h) */
			if (tcp) {
				struct flows_tcb *b = flows_tcbx(s, e);

				if (tcp_rcvd(&b->tcb) - b->need < st->arg)
					return false;
				b->need += st->arg;
			} else if (e->udp.rcvd - st->rcvd_before < st->arg) {
				return false;
			}
		} else if (st->op == PROF_OP_DELAY) {
			if (!e->delay) {
				e->delay = flows_t32(now + (uint64_t)st->arg * w->hz / 1000,
						     FLOWS_DELAY_SHIFT);
				return false;
			}
			if (!flows_t32_due(now, e->delay, FLOWS_DELAY_SHIFT))
				return false;
			e->delay = 0;
		} else if (!flows_prog_step(s, e, st)) {
			return false;
		}
		e->step++;
	}
	e->flags |= FLOWS_F_DONE;
	return true;
}

/*
 * A UDP server is done: its client, if this worker's, learns so. The
 * client flow is the one the server entry names (its request's
 * signature), when this worker holds it: the packet loop hands such
 * datagrams to it (own.h).
 */
static void flows_udp_srv_done(struct worker *w, struct flows_state *s, const struct flows_ent *e)
{
	uint32_t c = e->udp.peer_id != FLOWTAB_NIL && own_id_worker(e->udp.peer_id) == w->q
			 ? flowtab_at(s->ft, own_id_ft(e->udp.peer_id))
			 : FLOWTAB_NIL;

	if (c != FLOWTAB_NIL && flows_side(s->ft, c) == FLOWTAB_CLIENT) {
		struct flows_ent *ce = flowtab_state(s->ft, c);

		ce->flags |= FLOWS_F_SRV_DONE;
		flows_established(w, ce);
		if (ce->flags & FLOWS_F_DONE)
			flows_complete(w, s, c, ce);
	}
}

/* UDP: after any progress, see whether the flow ended. */
void flows_udp_check(struct worker *w, struct flows_state *s, uint32_t idx, struct flows_ent *e,
		     int side, uint64_t now)
{
	if (!(e->flags & FLOWS_F_DONE)) {
		flows_arm(s, idx, e, now, 0);
		return;
	}
	if (side == FLOWTAB_SERVER) {
		flows_udp_srv_done(w, s, e);
		flows_complete(w, s, idx, e);
		return;
	}
	/* a server that is not flowgen says nothing when it is done */
	if (e->flags & (FLOWS_F_SRV_DONE | FLOWS_F_PAY_FOREIGN))
		flows_complete(w, s, idx, e);
	else
		flows_arm(s, idx, e, now, 0);
}

/*
 * TCP: can side's program go on after events ev? A recv step that waits
 * (flows_prog() stopped at it) goes on only with new data: a segment
 * without data (a SYN, a SYN-ACK, a pure ACK) leaves it where it was.
 * Programs with bytes take their data through flows_rx_bytes(): always.
 */
static inline bool flows_prog_may_go(const struct flows_state *s, const struct flows_ent *e,
				     int side, uint16_t ev)
{
	const struct flows_tpl *t = &s->tpl[e->tpl];
	const struct prof_program *pg = t->prog[side];

	return (ev & TCP_EV_DATA) || t->rxb[side] || e->step >= pg->n ||
	       pg->steps[e->step].op != PROF_OP_RECV;
}

/*
 * TCP: feed the endpoint's output (o already holds what tcp_input/timer
 * produced), run the program, transmit, and end the connection when the
 * endpoint closed. Returns after the entry may have been deleted.
 */
void flows_tcp_run(struct worker *w, struct flows_state *s, uint32_t idx, struct flows_ent *e,
		   int side, struct tcp_out *o, uint64_t now)
{
	struct tcp_tcb *tb = flows_tcb(s, e);
	uint64_t now_us = flows_us(s, now);
	uint16_t ev = o->events;
	bool more;

	if (ev & TCP_EV_ESTABLISHED && side == FLOWTAB_CLIENT)
		flows_established(w, e);
	if (ev & TCP_EV_DATA)
		FG_CTR_ADD(*flows_ctr(w, side, e->tpl, FLOWS_C_RX_BYTES), o->data_len);
	if (!tcp_is_closed(tb) && !(e->flags & FLOWS_F_DONE) && flows_prog_may_go(s, e, side, ev))
		flows_prog(w, s, idx, e, side, now);
	/* the peer's FIN closes our direction too, unless the program has a
	 * close step of its own (flowgen-profile(5), close) */
	if (!tcp_is_closed(tb) && !(e->flags & FLOWS_F_CLOSED) &&
	    ((e->flags & FLOWS_F_DONE) ||
	     ((ev & TCP_EV_PEER_FIN) && !s->tpl[e->tpl].prog[side]->closes))) {
		e->flags |= FLOWS_F_CLOSED;
		tcp_app_close(tb);
	}
	do {
		if (!tcp_is_closed(tb))
			tcp_output(tb, now_us, o);
		for (unsigned i = 0; i < o->nseg; i++)
			flows_tx_tcp(w, s, side, e, &o->seg[i]);
		if (o->nretx)
			FG_CTR_ADD(*flows_ctr(w, side, e->tpl, FLOWS_C_RETX), o->nretx);
		ev |= o->events;
		more = o->more;
		tcp_out_reset(o);
	} while (more);
	/* a failure notes the state the connection was in, not CLOSED
	 * (`stats --failed`); the entry goes right after */
	if (unlikely(ev & (TCP_EV_RESET | TCP_EV_FAIL_RETX | TCP_EV_CLOSED)))
		tb->state = o->closed_from;
	if (ev & TCP_EV_RESET) {
		flows_fail(w, s, idx, e, FLOWS_FAIL_RESET);
		return;
	}
	if (ev & TCP_EV_FAIL_RETX) {
		flows_fail(w, s, idx, e, FLOWS_FAIL_RETX);
		return;
	}
	if ((ev & TCP_EV_CLOSED) || tcp_is_closed(tb)) {
		/* both FINs exchanged: ours came from the peer's FIN
		 * (flowgen-profile(5), close) before the program ended */
		if (e->flags & FLOWS_F_DONE)
			flows_complete(w, s, idx, e);
		else
			flows_fail(w, s, idx, e, FLOWS_FAIL_PEER_CLOSED);
		return;
	}
	flows_arm(s, idx, e, now, now_us);
}

/* ---- payload checks: flows_int.h ---- */

/* ---- new flows ---- */

static void flows_open(struct worker *w, struct flows_state *s, const struct flows_new *nf,
		       uint64_t now)
{
	unsigned ti = nf->tpl;
	struct flows_tpl *t = &s->tpl[ti];
	struct flows_ent *e;
	struct ctr_client *c = flows_cli(w, ti);
	uint32_t idx;

	FG_CTR_INC(c->started);
	if (flowtab_insert_h(s->ft, &nf->k, nf->h, &idx) != 0) {
		fgen_cpa_put(flows_cpa(s, ti), nf->cip, nf->cport);
		flows_fail_new(w, s, FLOWTAB_CLIENT, ti, &nf->k);
		return;
	}
	flows_active_inc(w, s, FLOWTAB_CLIENT, ti);
	e = flowtab_state(s->ft, idx);
	e->tpl = (uint8_t)ti;
	e->expire = flows_t32(now + t->timeout, FLOWS_EXPIRE_SHIFT);
	if (t->proto == PROF_TCP) {
		struct tcp_out o;

		tcp_init_client(flows_tcb_new(s, idx, e, now), (uint32_t)fgen_rand64(&s->rng),
				s->mss[FLOWTAB_CLIENT], flows_us(s, now));
		tcp_out_reset(&o);
		flows_tcp_run(w, s, idx, e, FLOWTAB_CLIENT, &o, now);
		return;
	}
	flows_prog(w, s, idx, e, FLOWTAB_CLIENT, now);
	flows_udp_check(w, s, idx, e, FLOWTAB_CLIENT, now);
}

/*
 * An unpaced run's room for new client flows: half the table, the other
 * half kept for the server sides flowgen learns when it plays both ends
 * (on this worker: own.h). A full half holds new flows back until flows
 * end, instead of failing each one it would try as table_full
 * (flowgen(8), FLOW TABLES). A paced run keeps its rate, and what does
 * not fit counts.
 */
static uint32_t flows_unpaced_room(const struct flows_state *s)
{
	uint64_t half = ((uint64_t)flowtab_count(s->ft) + flowtab_room(s->ft) + 1) / 2;
	uint64_t c = s->active[FLOWTAB_CLIENT];

	return c >= half ? 0 : (uint32_t)FG_MIN(half - c, (uint64_t)flowtab_room(s->ft));
}

/* ---- engine ops (worker) ---- */

/*
 * The template of a frame on the server port that no entry holds, if it
 * may start a flow: to one of the servers' addresses, while new flows are
 * taken in, to a template's protocol and port, and for TCP a SYN.
 */
static const struct flows_tpl *flows_srv_match(const struct flows_state *s,
					       const struct pkt_info *pi, uint64_t now, unsigned *ti)
{
	const struct flows_tpl *t;

	if (!fgen_addrs_has(&s->srv, pi->dip))
		return NULL;
	if (s->stopping && (int64_t)(now - s->accept_until) > 0)
		return NULL;
	t = flows_srv_tpl(s, pi->proto, pi->dport, ti);
	if (t && t->proto == PROF_TCP && (pi->tcp_flags & (TCP_SYN | TCP_ACK | TCP_RST)) != TCP_SYN)
		return NULL;
	return t;
}

/* A UDP server entry's client flow id, from the request's signature. */
static void flows_udp_accept(struct flows_ent *e, const uint8_t *f, const struct pkt_info *pi)
{
	uint32_t id, seq;
	uint64_t tsc;
	uint8_t fl;

	e->udp.peer_id = FLOWTAB_NIL;
	if (lat_sig_read(f + pi->payload, pi->paylen, &id, &seq, &tsc, &fl))
		e->udp.peer_id = id;
}

/*
 * A UDP server whose program is one recv and then sends (flows.h,
 * flows_tpl.srv_once), on a datagram that holds the recv's bytes: the
 * flow starts and ends with this datagram, so it runs on an entry of its
 * own on the stack, laid out as the table's (its key FLOWTAB_HDR bytes
 * before its state, flowtab_state_key()), and is counted as a table
 * entry's would be (accepted, its frames and bytes, completed) without
 * an insert and a delete in the same frame.
 */
static void flows_srv_once(struct worker *w, struct flows_state *s, unsigned ti,
			   const struct flowtab_key *k, struct rte_mbuf *m, const uint8_t *f,
			   const struct pkt_info *pi, uint64_t now)
{
	struct {
		struct flowtab_key k;
		uint8_t hdr[FLOWTAB_HDR - sizeof(struct flowtab_key)];
		struct flows_ent e;
	} once = {.k = *k, .e = {.tpl = (uint8_t)ti}};

	_Static_assert(offsetof(__typeof__(once), e) == FLOWTAB_HDR,
		       "the state follows the key as in the table");
	flows_accept_note(s, flows_srv(w, ti), f, pi);
	flows_udp_accept(&once.e, f, pi);
	once.e.udp.rcvd = pi->paylen;
	FG_CTR_INC(*flows_ctr(w, FLOWTAB_SERVER, ti, FLOWS_C_RX_PKTS));
	FG_CTR_ADD(*flows_ctr(w, FLOWTAB_SERVER, ti, FLOWS_C_RX_BYTES), pi->paylen);
	flows_recycle(s, FLOWTAB_SERVER, m);
	flows_prog(w, s, FLOWTAB_NIL, &once.e, FLOWTAB_SERVER, now); /* runs to its end */
	flows_udp_srv_done(w, s, &once.e);
	FG_CTR_INC(*flows_ctr(w, FLOWTAB_SERVER, ti, FLOWS_C_COMPLETED));
}

/* A frame of template t (flows_srv_match()) that no entry holds: learn a new flow from it. */
static uint32_t flows_accept(struct worker *w, struct flows_state *s, const struct flows_tpl *t,
			     unsigned ti, const struct flowtab_key *k, uint64_t h, const uint8_t *f,
			     const struct pkt_info *pi, uint64_t now)
{
	struct ctr_server *v = flows_srv(w, ti);
	struct flows_ent *e;
	uint32_t idx;

	if (flowtab_insert_h(s->ft, k, h, &idx) != 0) {
		/* accepted and failed at once: accepted = completed + failed
		 * + aborted + active holds (ctr.h) */
		FG_CTR_INC(v->accepted);
		flows_fail_new(w, s, FLOWTAB_SERVER, ti, k);
		return FLOWTAB_NIL;
	}
	s->accepts |= 1ull << (h >> 58);
	flows_active_inc(w, s, FLOWTAB_SERVER, ti);
	flows_accept_note(s, v, f, pi);
	e = flowtab_state(s->ft, idx);
	e->tpl = (uint8_t)ti;
	e->expire = flows_t32(now + t->timeout, FLOWS_EXPIRE_SHIFT);
	if (t->proto == PROF_TCP)
		tcp_init_listen(flows_tcb_new(s, idx, e, now), (uint32_t)fgen_rand64(&s->rng),
				s->mss[FLOWTAB_SERVER]);
	else
		flows_udp_accept(e, f, pi);
	return idx;
}

/*
 * The checksum of a long TCP payload, which the parse left to finish
 * (pkt_parse_defer(), flows_worker_ops.sum_later). Where the client is
 * to check new data against the stream pattern (flows_tcp_pay_ok()), the
 * data is compared with it here, and the pattern's sum in closed form
 * completes the checksum (*seen: it was the pattern): a 512-byte
 * response is read once, not twice. Any other payload is summed.
 */
static bool flows_rx_sum(struct flows_state *s, int side, const uint8_t *f,
			 const struct pkt_info *pi, uint32_t idx, uint64_t now, bool *seen)
{
	const uint8_t *pay = f + pi->payload;

	if (side == FLOWTAB_CLIENT && idx != FLOWTAB_NIL && pi->proto == IPPROTO_TCP) {
		struct flows_ent *e = flowtab_state(s->ft, idx);
		struct tcp_seg sg;
		uint32_t off;

		flows_tcb_get(s, idx, e, now);
		flows_tcp_seg(&sg, f, pi);
		/* new data that is the pattern throughout is flowgen's in
		 * every payload_check mode (flowpay_tcp_ours() would say so
		 * too: the data is never empty here) */
		if (!s->tpl[e->tpl].rxb[side] && flows_tcp_pay_due(s, e, &sg, &off) &&
		    tcp_payload_check(pay, off, sg.len)) {
			*seen = true;
			return pkt_sum_finish(pi, flows_pattern_sum(s, FLOWS_PSUM_RX, off, sg.len));
		}
	}
	return pkt_sum_finish(pi, pkt_raw_sum(pay, pi->paylen));
}

/* One received frame; k, its hash h and idx come from flows_rx_burst()'s lookup. */
static void flows_rx_one(struct worker *w, struct flows_state *s, int side, struct rte_mbuf *m,
			 const struct pkt_info *pi, const struct flowtab_key *k, uint64_t h,
			 uint32_t idx, uint64_t now)
{
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	struct flows_ent *e;
	bool seen = false;

	if (pi->sum_todo && !flows_rx_sum(s, side, f, pi, idx, now, &seen)) {
		FG_CTR_INC(w->ctr->port[w->port[side]].rx_bad);
		rte_pktmbuf_free(m);
		return;
	}
	if (!flows_family_ok(s, side, f, pi)) {
		flows_count_drop(w, side, m);
		return;
	}
	if (idx == FLOWTAB_NIL && side == FLOWTAB_SERVER && s->tcp_once &&
	    pi->proto == IPPROTO_TCP) {
		struct flows_cookie c;
		unsigned ti;

		if (flows_tcp_once(w, s, k, h, m, f, pi, now, &c, &ti))
			return;
		/* an entry from the cookie: the connection as if the SYN had made it */
		if (c.entry &&
		    (idx = flows_accept(w, s, &s->tpl[ti], ti, k, h, f, pi, now)) != FLOWTAB_NIL)
			tcp_init_cookie(flows_tcb(s, flowtab_state(s->ft, idx)), c.iss, c.irs,
					s->mss[FLOWTAB_SERVER], c.mss, c.win);
	}
	if (idx == FLOWTAB_NIL && side == FLOWTAB_SERVER) {
		unsigned ti;
		const struct flows_tpl *t = flows_srv_match(s, pi, now, &ti);

		if (t && t->srv_once && pi->paylen >= t->srv_need) {
			flows_srv_once(w, s, ti, k, m, f, pi, now);
			return;
		}
		idx = t ? flows_accept(w, s, t, ti, k, h, f, pi, now) : FLOWTAB_NIL;
	}
	s->rx_idx = idx; /* an accepted flow's too: it was inserted by h */
	if (idx == FLOWTAB_NIL) {
		if (pi->proto == IPPROTO_TCP)
			flows_tcp_orphan(w, side, m, f, pi);
		else
			flows_count_drop(w, side, m);
		return;
	}
	e = flowtab_state(s->ft, idx);
	FG_CTR_INC(*flows_ctr(w, side, e->tpl, FLOWS_C_RX_PKTS));
	if (unlikely(s->tpl[e->tpl].rxb[side])) {
		flows_rx_bytes(w, s, side, m, f, pi, idx, e, now);
		return;
	}
	if (pi->proto == IPPROTO_TCP) {
		struct tcp_tcb *tb = flows_tcb_get(s, idx, e, now);
		struct tcp_seg sg;
		struct tcp_out o;

		flows_tcp_seg(&sg, f, pi);
		/* a flowgen server's data is the stream pattern at its offset */
		if (side == FLOWTAB_CLIENT && !flows_tcp_pay_ok(w, s, e, &sg, f + pi->payload, seen)) {
			flows_recycle(s, side, m);
			flows_fail(w, s, idx, e, FLOWS_FAIL_PAYLOAD);
			return;
		}
		flows_recycle(s, side, m);
		tcp_out_reset(&o);
		tcp_input(tb, &sg, flows_us(s, now), &o);
		flows_tcp_run(w, s, idx, e, side, &o, now);
		return;
	}
	FG_CTR_ADD(*flows_ctr(w, side, e->tpl, FLOWS_C_RX_BYTES), pi->paylen);
	/* a flowgen server's reply names its client flow and carries the pattern */
	if (side == FLOWTAB_CLIENT &&
	    !flows_udp_pay_ok(w, s, idx, e, f + pi->payload, pi->paylen)) {
		flows_recycle(s, side, m);
		flows_fail(w, s, idx, e, FLOWS_FAIL_PAYLOAD);
		return;
	}
	flows_recycle(s, side, m);
	e->udp.rcvd += pi->paylen;
	if (side == FLOWTAB_CLIENT)
		flows_established(w, e);
	if (!(e->flags & FLOWS_F_DONE))
		flows_prog(w, s, idx, e, side, now);
	flows_udp_check(w, s, idx, e, side, now);
}

/*
 * A burst in three passes so that the flow table's cache misses overlap
 * instead of stalling one frame after the other: hash every key and
 * prefetch its bucket; look every key up and prefetch the entry found;
 * then run the frames in order. Running a frame may delete or add
 * entries, so a frame's first answer is used only if its flow is still
 * the same (its id still resolves), and "nothing" only if no frame of the
 * burst accepted a new flow of the same hash's top 6 bits since
 * (s->accepts); otherwise it is looked up again, from warm cache lines.
 */
static void flows_rx_burst(struct worker *w, int side, struct rte_mbuf **m,
			   const struct pkt_info *pi, unsigned n, uint64_t now)
{
	struct flows_state *s = w->state;
	struct flowtab_key k[FG_BURST];
	uint64_t h[FG_BURST];
	uint32_t idx[FG_BURST], id[FG_BURST];
	/* a side without entries finds none: its frames are not looked up
	 * (a stateless TCP server's, flows_tcp_once()) until one is made */
	bool none = s->active[side ? FLOWTAB_SERVER : FLOWTAB_CLIENT] == 0;

	/* keys in a loop of their own: hashing a key just written field by
	 * field would wait for those stores to retire (no store forwarding) */
	for (unsigned i = 0; i < n; i++)
		flowtab_key(&k[i], pi[i].sip, pi[i].dip, pi[i].sport, pi[i].dport, pi[i].proto,
			    side ? FLOWTAB_SERVER : FLOWTAB_CLIENT);
	for (unsigned i = 0; i < n; i++) {
		h[i] = flowtab_hash(&k[i]);
		/* a SYN to the server side is a new flow: its lookup misses */
		if (!none)
			flowtab_prefetch(s->ft, h[i],
					 side &&
					     (pi[i].tcp_flags & (TCP_SYN | TCP_ACK)) == TCP_SYN);
	}
	for (unsigned i = 0; i < n; i++) {
		idx[i] = none ? FLOWTAB_NIL : flowtab_lookup_h(s->ft, &k[i], h[i]);
		if (idx[i] != FLOWTAB_NIL) {
			const uint8_t *st = flowtab_state(s->ft, idx[i]);

			id[i] = flowtab_id(s->ft, idx[i]);
			rte_prefetch0(st);
			rte_prefetch0(st + sizeof(struct flows_ent) - 1);
		}
	}
	s->accepts = 0;
	for (unsigned i = 0; i < n; i++) {
		if (idx[i] == FLOWTAB_NIL ? (s->accepts >> (h[i] >> 58)) & 1
					  : flowtab_at(s->ft, id[i]) != idx[i])
			idx[i] = flowtab_lookup_h(s->ft, &k[i], h[i]);
		s->rx_idx = idx[i];
		s->rx_h = h[i];
		flows_rx_one(w, s, side, m[i], &pi[i], &k[i], h[i], idx[i], now);
	}
	s->rx_idx = FLOWTAB_NIL;
}

/* ---- ICMP errors (icmperr.h; flowgen(8), ICMP ERRORS) ---- */

/*
 * worker_ops.icmp_err: an ICMP error on side whose quote names a UDP or
 * TCP datagram. A destination unreachable fails a UDP flow at once (it
 * has nothing to retransmit: its datagram reached no server) and a TCP
 * flow as tcp_icmp_unreach() decides; a too big lowers a TCP flow's MSS
 * (tcp_icmp_too_big()) and leaves a UDP flow's datagrams as the profile
 * sizes them. Counted on the port by outcome.
 */
static void flows_icmp_err(struct worker *w, int side, const uint8_t *f, const struct icmperr *ie,
			   uint64_t now)
{
	struct flows_state *s = w->state;
	struct ctr_port *c = &w->ctr->port[w->port[side]];
	uint32_t idx = flows_icmp_find(s, side, f, ie);
	struct flows_ent *e;
	struct tcp_tcb *tb;
	enum tcp_icmp r;
	struct tcp_out o;

	if (idx == FLOWTAB_NIL) {
		FG_CTR_INC(c->icmp_err_unmatched);
		return;
	}
	e = flowtab_state(s->ft, idx);
	if (s->tpl[e->tpl].proto != PROF_TCP) {
		if (!flows_icmp_udp_ok(w, s, idx, e, side, f, ie))
			FG_CTR_INC(c->icmp_err_invalid);
		else if (ie->kind == ICMPERR_TOO_BIG)
			FG_CTR_INC(c->icmp_err_kept);
		else
			flows_fail(w, s, idx, e, FLOWS_FAIL_ICMP_UNREACH);
		return;
	}
	tb = flows_tcb_get(s, idx, e, now);
	if (ie->kind == ICMPERR_UNREACH) {
		r = tcp_icmp_unreach(tb, ie->seq, ie->hard);
		if (r == TCP_ICMP_ABORT) {
			flows_fail(w, s, idx, e, FLOWS_FAIL_ICMP_UNREACH);
			return;
		}
	} else {
		tcp_out_reset(&o);
		r = tcp_icmp_too_big(tb, ie->seq, icmperr_mss(ie), flows_us(s, now), &o);
		if (r == TCP_ICMP_MSS) {
			FG_CTR_INC(c->icmp_mss_lowered);
			flows_tcp_run(w, s, idx, e, side, &o, now);
			return;
		}
	}
	FG_CTR_INC(*(r == TCP_ICMP_STALE ? &c->icmp_err_invalid : &c->icmp_err_kept));
}

static void flows_timer(struct worker *w, struct flows_state *s, uint32_t idx, uint64_t now)
{
	struct flows_ent *e = flowtab_state(s->ft, idx);
	int side = flows_side(s->ft, idx);

	if (flows_t32_due(now, e->expire, FLOWS_EXPIRE_SHIFT)) {
		flows_fail(w, s, idx, e, FLOWS_FAIL_EXPIRED); /* no_reply or timeout */
		return;
	}
	if (s->tpl[e->tpl].proto == PROF_TCP) {
		struct tcp_out o;
		uint64_t now_us = flows_us(s, now);

		tcp_out_reset(&o);
		tcp_timer(flows_tcb_get(s, idx, e, now), now_us, &o); /* if its deadline passed */
		flows_tcp_run(w, s, idx, e, side, &o, now);
		return;
	}
	if (!(e->flags & FLOWS_F_DONE))
		flows_prog(w, s, idx, e, side, now);
	flows_udp_check(w, s, idx, e, side, now);
}

/*
 * No new flow from here on. The server side still accepts the first
 * frames of flows that were in flight when the run stopped, for
 * FLOWS_ACCEPT_GRACE_MS; a flow's first frame that arrives later (a
 * request the table had no room for, sent again by a client program) is
 * not taken in, so the drain ends within the profile's timeout and the
 * grace, as `stop` waits for.
 */
static void flows_stop_at(struct flows_state *s, uint64_t now)
{
	if (!s->stopping)
		s->accept_until = now + flows_tsc_of_us(s, FLOWS_ACCEPT_GRACE_MS * 1000);
	s->stopping = true;
}

static void flows_go_drain(struct worker *w, struct flows_state *s, uint64_t now)
{
	flows_stop_at(s, now);
	FG_CTR_SET(w->ctr->gauge.state, CTR_DRAINING);
}

static void flows_tick(struct worker *w, uint64_t now)
{
	struct flows_state *s = w->state;
	uint32_t out[FLOWS_EXPIRE_BATCH];
	uint64_t t0;
	bool end;

	if (!s->started) {
		/* Open no flow before every worker of the pair runs this run:
		 * a reply handed to a worker that has not taken START yet
		 * would find no engine there (own.h). */
		for (uint16_t j = 0; j < w->nq; j++)
			if (FG_CTR_GET(fg_ctr[w->id - w->q + j].gauge.run_id) != w->run_id)
				return;
		/* start --at: nothing before the planned start, which the
		 * worker holds for (worker.h); the pacer and the duration
		 * count from it, whatever turn came first after it */
		if (w->at_tsc && (int64_t)(w->at_tsc - now) > 0 && !s->stopping) {
			w->hold_tsc = w->at_tsc;
			return;
		}
		t0 = w->at_tsc ? w->at_tsc : now;
		s->started = true;
		/* the backlog after a stall: pace.h's bound (floor one burst) */
		pace_init(&s->pace, w->hz, FLOWS_NEW_BURST, 0, t0);
		if (s->gen && s->rate > 0)
			pace_set_rate(&s->pace, s->rate * (s->scale > 0 ? s->scale : 1.0), t0);
		pace_set_max(&s->pace, s->gen && s->unpaced);
		if (s->gen && (s->rate > 0 || s->unpaced) && !s->paused)
			pace_resume(&s->pace, t0);
		if (s->duration_s > 0)
			s->deadline = t0 + (uint64_t)(s->duration_s * (double)w->hz);
		w->first_armed = s->gen; /* the loop records the first frame's time */
	}
	/* At the deadline, a paced run first opens the flows that fell due
	 * before it (the pacer's backlog, within its bound), one burst a
	 * turn, then drains: a last tick that came late does not shorten the
	 * run. */
	end = s->deadline && !s->stopping && now >= s->deadline;
	if (end && (!s->gen || s->paused || s->unpaced))
		flows_go_drain(w, s, now);
	/*
	 * Closed-loop admission: no new flow while received frames wait (a
	 * full RX burst). The frames in flight stay within what the worker
	 * drains per turn, so neither an unpaced run nor a rate beyond the
	 * worker's reach overflows a queue and fails flows: the achieved
	 * rate is what shows. A paced run's credit keeps accruing meanwhile
	 * and is released on the next turns, one burst a turn (pace.h's
	 * bound: what falls due beyond it is late). The backlog at the
	 * deadline is bounded, so it is opened even while frames wait.
	 */
	if (s->gen && !s->stopping && !s->paused && (!w->rx_backlog || end)) {
		uint32_t n = pace_due(&s->pace, end ? s->deadline : now), nn = 0;
		bool more = n == FLOWS_NEW_BURST;
		struct flows_new nf[FLOWS_NEW_BURST];

		if (s->unpaced) {
			uint32_t room = flows_unpaced_room(s);

			n = FG_MIN(n, room);
		}

		/* All tuples first, prefetching their buckets, then the inserts:
		 * the table's cache misses overlap. */
		if (s->capped) /* start --active, limit, climit (flows.h) */
			nn = flows_pick_capped(s, w->ctr->tpl, nf, n, w->q);
		else
			while (n--)
				nn += flows_pick(s, &nf[nn], w->q);
		for (uint32_t i = 0; i < nn; i++) {
			nf[i].h = flowtab_hash(&nf[i].k);
			flowtab_prefetch(s->ft, nf[i].h, true);
		}
		for (uint32_t i = 0; i < nn; i++)
			flows_open(w, s, &nf[i], now);
		/* credit the pacer dropped: flows not opened in time (the
		 * worker fell behind), a sign of what limits the run */
		if (s->pace.dropped != s->late_seen) {
			FG_CTR_ADD(w->ctr->late, s->pace.dropped - s->late_seen);
			s->late_seen = s->pace.dropped;
		}
		if (end && !more)
			flows_go_drain(w, s, now);
	}
	/*
	 * Timers are held back like new flows: while received frames wait,
	 * one RX burst's worth a turn, so the frames they send (keepalives,
	 * retransmissions) go out no faster than the ports drain them and do
	 * not empty the pool. Unbounded, a million TCP keepalives falling due
	 * within half a second took every mbuf of the loop pair's client
	 * pool (mbuf_fail), their retransmissions came due together, and
	 * flows ended retransmits_exhausted. A timer held back fires on the
	 * next turns, microseconds late.
	 */
	unsigned left = w->rx_backlog ? FG_BURST : FLOWS_EXPIRE_ROUNDS * FLOWS_EXPIRE_BATCH;

	while (left) {
		unsigned want = FG_MIN(left, (unsigned)FLOWS_EXPIRE_BATCH);
		unsigned n = flowtab_expire(s->ft, now, out, want);

		for (unsigned i = 0; i < n; i++)
			flows_timer(w, s, out[i], now);
		if (n < want)
			break;
		left -= n;
	}
	if (s->tcbs.cap)
		flows_tcb_sweep(s, now);
}

static void flows_stop(struct worker *w, uint64_t now)
{
	flows_stop_at(w->state, now);
}

static void flows_rate(struct worker *w, uint64_t scale_micro, uint64_t now)
{
	struct flows_state *s = w->state;
	double r = s->rate * (double)scale_micro / 1e6;

	if (!s->gen || s->unpaced || r <= 0 || r >= (double)w->hz)
		return;
	/* s->rate stays the start rate: scales are against it, never compound */
	s->scale = (double)scale_micro / 1e6;
	if (s->started)
		pace_set_rate(&s->pace, r, now);
}

static void flows_pause(struct worker *w, bool on, uint64_t now)
{
	struct flows_state *s = w->state;

	s->paused = on;
	if (!s->started)
		return;
	if (on)
		pace_pause(&s->pace, now);
	else
		pace_resume(&s->pace, now);
}

/*
 * Done when this worker's table is empty and no other worker of the pair
 * opens flows or waits for a reply any more: until then the port may
 * still deliver here a frame of theirs, which this worker hands over or,
 * on the server side, owns (own.h). The other workers' state and client
 * flow gauges are read from their counter blocks (relaxed loads).
 */
static bool flows_idle(struct worker *w)
{
	struct flows_state *s = w->state;

	if (!s->stopping || flowtab_count(s->ft) != 0)
		return false;
	for (uint16_t j = 0; j < w->nq; j++) {
		const struct ctr_worker *c = &fg_ctr[w->id - w->q + j];
		uint64_t st = FG_CTR_GET(c->gauge.state);

		if (st == CTR_RUNNING || st == CTR_PAUSED || FG_CTR_GET(c->gauge.active_client))
			return false;
	}
	return true;
}

static bool flows_own(struct worker *w, struct own_map *m)
{
	const struct flows_state *s = w->state;

	*m = s->own;
	return m->nq > 1;
}

const struct worker_ops flows_worker_ops = {
    .name = "flows",
    .rx_burst = flows_rx_burst,
    .tick = flows_tick,
    .stop = flows_stop,
    .rate = flows_rate,
    .pause = flows_pause,
    .idle = flows_idle,
    .own = flows_own,
    .sum_later = true,
    .icmp_err = flows_icmp_err,
};
