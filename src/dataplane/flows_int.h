/*
 * flows_int.h — private to the worker half of the stateful flows engine
 * (flows.c, flows_once.c, flows_pick.c, flows_frame.c, flows6.c, flows_bytes.c,
 * flows_tcb.c, flows_icmp.c): a new flow's choice of
 * tuple, the frames the engine sends and receives, the time base of tcp.h,
 * the NAT report's notes and the counters by side and template. The state they work on
 * and the whole design are in flows.h.
 *
 * Context: worker (the owning worker only: no allocation, lock, print or
 * system call).
 *
 * Included by: dataplane (the flows*.c files only).
 */
#ifndef FG_FLOWS_INT_H
#define FG_FLOWS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>

#include "ctr.h"
#include "fail-t.h"
#include "flowpay.h"
#include "flows.h"
#include "flowtab.h"
#include "lat.h"
#include "own.h"
#include "pkt.h"
#include "tcp.h"
#include "worker.h"

/* A new client flow between its choice of tuple and its insertion. */
struct flows_new {
	struct flowtab_key k;
	uint64_t h; /* flowtab_hash(&k) */
	uint32_t cip, sip;
	uint16_t cport;
	uint8_t tpl;
};

/* worker: choose the next flow's template and tuple for worker w_q of its
 * pair (flows_pick.c); false when no client port is free. */
bool flows_pick(struct flows_state *s, struct flows_new *nf, unsigned w_q);
/* worker: under caps (flows.h), the tuples of at most n new flows into
 * nf[]: no more than the worker's --active share leaves room for; a slot
 * whose template (by the round robin of flows_pick()) has no flows of its
 * limit left (counted down here) or as many client flows as its climit,
 * those in the table (act: the worker's gauges by template) and those
 * picked before it in nf[], is skipped. Returns how many were picked. */
uint32_t flows_pick_capped(struct flows_state *s, const struct ctr_tpl *act, struct flows_new *nf,
			   uint32_t n, unsigned w_q);

/*
 * worker: the frames of the engine (flows_frame.c). count_drop frees a frame
 * of no flow (rx_unknown); recycle keeps a consumed received frame for the
 * next answer of that side; tx_udp sends a datagram of `bytes` (at least
 * the signature, naming flow `id`); tx_tcp sends a segment the endpoint
 * asked for; tcp_seg reads a received TCP header; tcp_orphan answers or
 * drops a segment of no flow.
 */
void flows_count_drop(struct worker *w, int side, struct rte_mbuf *m);
void flows_recycle(struct flows_state *s, int side, struct rte_mbuf *m);
void flows_tx_udp(struct worker *w, struct flows_state *s, int side, struct flows_ent *e,
		  uint32_t id, uint32_t bytes, uint64_t now);
void flows_tx_tcp(struct worker *w, struct flows_state *s, int side, const struct flows_ent *e,
		  const struct tcp_seg_out *o);
void flows_tcp_seg(struct tcp_seg *sg, const uint8_t *f, const struct pkt_info *pi);
void flows_tcp_orphan(struct worker *w, int side, struct rte_mbuf *m, const uint8_t *f,
		      const struct pkt_info *pi);
/* worker: the IPv6 frames of a v6 side (flows6.c), in an mbuf m taken
 * from flows_alloc(); each sends it (worker_tx) or frees it. */
void flows6_tx_udp(struct worker *w, struct flows_state *s, int side, const struct flows_ent *e,
		   struct rte_mbuf *m, uint32_t id, uint32_t seq, uint16_t pay, uint8_t fl,
		   uint64_t now);
void flows6_tx_tcp(struct worker *w, struct flows_state *s, int side, const struct flows_ent *e,
		   struct rte_mbuf *m, const struct tcp_seg_out *o);
/* worker: a datagram of exactly the len bytes at data (a send with bytes). */
void flows6_tx_udp_data(struct worker *w, struct flows_state *s, int side,
			const struct flows_ent *e, struct rte_mbuf *m, const uint8_t *data,
			uint16_t len);
/* worker: the ACK a stray FIN gets (flows_tcp_orphan()), m reused. */
void flows6_tcp_orphan_ack(struct worker *w, int side, struct rte_mbuf *m, const uint8_t *f,
			   const struct pkt_info *pi, uint32_t seq, uint32_t ack);

/* worker: TSC cycles to microseconds, the time base of tcp.h. */
static inline uint64_t flows_us(const struct flows_state *s, uint64_t tsc)
{
	return (uint64_t)(((unsigned __int128)tsc * s->us_mult) >> 32);
}

/* worker: microseconds to TSC cycles, rounded up. */
static inline uint64_t flows_tsc_of_us(const struct flows_state *s, uint64_t us)
{
	return (uint64_t)(((unsigned __int128)us * s->tsc_mult) >> 32) + 1;
}

/*
 * worker: a flow's times in 32 bits (flows_ent.expire and .delay): the TSC
 * in units of 2^shift cycles, rounded up so that a time never comes early;
 * 0 is kept for "none". Compared by their difference, such times hold
 * +-2^31 units. A delay step's end counts in 2^FLOWS_DELAY_SHIFT cycles
 * (half a microsecond at 2 GHz; +-2^31 units are over 400 s at 5 GHz,
 * beyond the longest delay, FG_PROF_MAX_DELAY_MS); a flow's timeout in
 * 2^FLOWS_EXPIRE_SHIFT (8 ms at 2 GHz, a timeout being seconds; over 80
 * days at 5 GHz, beyond the longest flow: its timeout with every delay of
 * the longest program).
 */
#define FLOWS_DELAY_SHIFT 10
#define FLOWS_EXPIRE_SHIFT 24

static inline uint32_t flows_t32(uint64_t tsc, unsigned shift)
{
	uint32_t v = (uint32_t)((tsc + (1ull << shift) - 1) >> shift);

	return v ? v : 1;
}

/* worker: has the time t (flows_t32()) come at now? */
static inline bool flows_t32_due(uint64_t now, uint32_t t, unsigned shift)
{
	return (int32_t)((uint32_t)(now >> shift) - t) >= 0;
}

/* worker: the TSC of t (flows_t32()), within 2^31 units of now. */
static inline uint64_t flows_t32_tsc(uint64_t now, uint32_t t, unsigned shift)
{
	uint64_t n = now >> shift;

	return (n + (uint64_t)(int64_t)(int32_t)(t - (uint32_t)n)) << shift;
}

/* worker: the entry's key: the flow's addresses and ports (struct flows_ent). */
static inline const struct flowtab_key *flows_key(const struct flows_ent *e)
{
	return flowtab_state_key(e);
}

/* worker: a busy connection's slot and tcb (FLOWS_F_TCB: flows_tcb_get()). */
static inline struct flows_tcb *flows_tcbx(const struct flows_state *s, const struct flows_ent *e)
{
	return &s->tcbs.slot[e->tcp.slot];
}

static inline struct tcp_tcb *flows_tcb(const struct flows_state *s, const struct flows_ent *e)
{
	return &flows_tcbx(s, e)->tcb;
}

/* worker: a connection's state, busy or parked (a parked one is ESTABLISHED). */
static inline uint8_t flows_tcp_state(const struct flows_state *s, const struct flows_ent *e)
{
	return e->flags & FLOWS_F_TCB ? flows_tcb(s, e)->state : (uint8_t)TCP_ESTABLISHED;
}

/*
 * worker: the pool of tcbs (flows.h). tcb_new gives the new connection
 * of entry idx a slot (the caller initialises the tcb), get the tcb of
 * any connection, taking a slot for a parked one (flows_tcb_unpark(),
 * flows_tcb.c), and both note the time of use; put frees a busy
 * connection's slot (its entry goes); sweep parks the connections quiet
 * for FLOWS_PARK_MS, a share of the slots each FLOWS_SWEEP_MS
 * (flows_tcb_sweep_turn(), flows_tcb.c). Inline: they run on every
 * segment of every connection.
 */
static inline uint32_t flows_tcb_now(uint64_t now) { return (uint32_t)(now >> FLOWS_TCB_SHIFT); }

static inline struct tcp_tcb *flows_tcb_new(struct flows_state *s, uint32_t idx,
					    struct flows_ent *e, uint64_t now)
{
	struct flows_tcbs *p = &s->tcbs;
	uint32_t n = p->free;
	struct flows_tcb *b;

	/* a slot for every entry of the table: one is always there */
	if (n != FLOWS_TCB_FREE)
		p->free = p->slot[n].umatch;
	else
		n = p->hwm++;
	b = &p->slot[n];
	b->need = 0;
	b->umatch = 0;
	b->idx = idx;
	b->used = flows_tcb_now(now);
	e->tcp.slot = n;
	e->flags |= FLOWS_F_TCB;
	return &b->tcb;
}

struct tcp_tcb *flows_tcb_unpark(struct flows_state *s, uint32_t idx, struct flows_ent *e,
				 uint64_t now);

static inline struct tcp_tcb *flows_tcb_get(struct flows_state *s, uint32_t idx,
					    struct flows_ent *e, uint64_t now)
{
	struct flows_tcb *b;

	if (unlikely(!(e->flags & FLOWS_F_TCB)))
		return flows_tcb_unpark(s, idx, e, now);
	b = flows_tcbx(s, e);
	b->used = flows_tcb_now(now);
	return &b->tcb;
}

static inline void flows_tcb_put(struct flows_state *s, struct flows_ent *e)
{
	struct flows_tcbs *p = &s->tcbs;
	struct flows_tcb *b;

	if (!(e->flags & FLOWS_F_TCB))
		return;
	b = flows_tcbx(s, e);
	b->idx = FLOWS_TCB_FREE;
	b->umatch = p->free;
	p->free = e->tcp.slot;
	e->flags &= (uint8_t)~FLOWS_F_TCB;
}

void flows_tcb_sweep_turn(struct flows_state *s, uint64_t now);

static inline void flows_tcb_sweep(struct flows_state *s, uint64_t now)
{
	if (unlikely(now >= s->tcbs.next) && s->tcbs.hwm)
		flows_tcb_sweep_turn(s, now);
}

/* worker: the role of entry idx, FLOWTAB_CLIENT or FLOWTAB_SERVER. */
static inline int flows_side(const struct flowtab *ft, uint32_t idx)
{
	return flowtab_key_side(flowtab_key_of(ft, idx));
}

/* worker: ip (host order) is a client address of one of the port pairs. */
static inline bool flows_is_client_addr(const struct flows_state *s, uint32_t ip)
{
	/* pair p's clients are this pair's shifted by (p - pair) x cli_off */
	for (int p = 0; p < s->npairs; p++)
		if (fgen_addrs_has(&s->cli, ip - s->cli_off * (uint32_t)(p - s->pair)))
			return true;
	return false;
}

/* worker: the client port allocator of template ti's flows. */
static inline struct fgen_cpa *flows_cpa(struct flows_state *s, unsigned ti)
{
	return &s->cpa[s->tpl[ti].cpa];
}

/*
 * worker: remember a translated source for the NAT report. Only the owning
 * worker writes nat_addr[] and nat_port[], with relaxed stores of whole
 * words; flows_nat_report() (control) reads them with relaxed loads.
 */
static inline void flows_nat_note(struct flows_state *s, uint32_t ip, uint16_t port)
{
	uint32_t h = (ip * 2654435761u) & (FLOWS_NAT_ADDRS - 1);
	uint64_t *pw = &s->nat_port[port / 64];

	if (!(*pw & (1ULL << (port % 64))))
		__atomic_store_n(pw, *pw | 1ULL << (port % 64), __ATOMIC_RELAXED);
	for (unsigned i = 0; i < 16; i++, h = (h + 1) & (FLOWS_NAT_ADDRS - 1)) {
		if (s->nat_addr[h] == ip)
			return;
		if (s->nat_addr[h] == 0) {
			__atomic_store_n(&s->nat_addr[h], ip, __ATOMIC_RELAXED);
			return;
		}
	}
}

/*
 * worker: is a received frame of the family and the addresses side expects?
 * A v6 side checks the first 96 bits of both addresses, which the flow
 * key leaves out.
 */
static inline bool flows_family_ok(const struct flows_state *s, int side, const uint8_t *f,
				   const struct pkt_info *pi)
{
	bool six = pi->kind == PKT_UDP6 || pi->kind == PKT_TCP6;

	if (six != s->v6[side])
		return false;
	if (!six)
		return true;
	if (memcmp(f + pi->l3 + 24, s->own_hi[side], 12))
		return false;
	return (side == FLOWTAB_SERVER && !s->peer6_learned) ||
	       !memcmp(f + pi->l3 + 8, s->peer_hi[side], 12);
}

/*
 * worker: the first 96 bits of the server side's peers, from the first
 * frame that starts a flow there (an IPv6 server side; flows_family_ok()).
 * And is the source of a flow the server side accepts one of the
 * clients' addresses (untranslated)? A NAT64's IPv4 source never is. An
 * IPv6 server side answers its peers from one /96 for the run, the one
 * of the first flow that reaches it (a Linux client's, a NAT's or the
 * clients'), and drops frames from any other (flows_family_ok()).
 */
static inline void flows_srv_peer6(struct flows_state *s, const uint8_t *f,
				   const struct pkt_info *pi)
{
	if (s->v6[FLOWTAB_SERVER] && !s->peer6_learned) {
		memcpy(s->peer_hi[FLOWTAB_SERVER], f + pi->l3 + 8, 12);
		s->peer6_learned = true;
	}
}

static inline bool flows_srv_untranslated(struct flows_state *s, const uint8_t *f,
					  const struct pkt_info *pi)
{
	flows_srv_peer6(s, f, pi);
	if (s->v6[FLOWTAB_SERVER]) {
		if (!s->v6[FLOWTAB_CLIENT] || memcmp(f + pi->l3 + 8, s->own_hi[FLOWTAB_CLIENT], 12))
			return false;
	} else if (s->v6[FLOWTAB_CLIENT]) {
		return false;
	}
	return flows_is_client_addr(s, pi->sip);
}

/* ---- worker: counters by side and template ---- */

/* The counters one side of a flow moves, in its template's struct ctr_tpl. */
enum flows_ctr {
	FLOWS_C_TX_PKTS,
	FLOWS_C_TX_BYTES,
	FLOWS_C_RX_PKTS,
	FLOWS_C_RX_BYTES,
	FLOWS_C_RETX,
	FLOWS_C_COMPLETED,
	FLOWS_C_FAILED,
	FLOWS_C_ACTIVE, /* the gauge of the template's flows of that side in the table */
	FLOWS_C_N,
};

#define FLOWS_CTR_AT(c, s)                                                                         \
	{                                                                                          \
		offsetof(struct ctr_tpl, c), offsetof(struct ctr_tpl, s)                           \
	}

static const uint16_t flows_ctr_off[FLOWS_C_N][2] = {
    [FLOWS_C_TX_PKTS] = FLOWS_CTR_AT(client.tx_pkts, server.tx_pkts),
    [FLOWS_C_TX_BYTES] = FLOWS_CTR_AT(client.tx_bytes, server.tx_bytes),
    [FLOWS_C_RX_PKTS] = FLOWS_CTR_AT(client.rx_pkts, server.rx_pkts),
    [FLOWS_C_RX_BYTES] = FLOWS_CTR_AT(client.rx_bytes, server.rx_bytes),
    [FLOWS_C_RETX] = FLOWS_CTR_AT(client.retx, server.retx),
    [FLOWS_C_COMPLETED] = FLOWS_CTR_AT(client.completed, server.completed),
    [FLOWS_C_FAILED] = FLOWS_CTR_AT(client.failed, server.failed),
    [FLOWS_C_ACTIVE] = FLOWS_CTR_AT(active_client, active_server),
};
_Static_assert(sizeof(struct ctr_tpl) <= UINT16_MAX, "flows_ctr_off[] holds 16-bit offsets");

/*
 * Counter c of side (FLOWTAB_CLIENT or FLOWTAB_SERVER) in the block of
 * template tpl (a flow's e->tpl, < FG_PROF_MAX_TEMPLATES) of w. The
 * totals are the reader's sum of these blocks (ctr.h).
 */
static inline uint64_t *flows_ctr(struct worker *w, int side, unsigned tpl, enum flows_ctr c)
{
	return (uint64_t *)((char *)&w->ctr->tpl[tpl] + flows_ctr_off[c][side]);
}

/* The client counters of template tpl in w's block. */
static inline struct ctr_client *flows_cli(struct worker *w, unsigned tpl)
{
	return &w->ctr->tpl[tpl].client;
}

/* The server counters of template tpl in w's block. */
static inline struct ctr_server *flows_srv(struct worker *w, unsigned tpl)
{
	return &w->ctr->tpl[tpl].server;
}

/* worker: the template of a server-side frame of protocol proto (IPPROTO_*) to port, or NULL. */
static inline const struct flows_tpl *flows_srv_tpl(const struct flows_state *s, uint8_t proto,
						    uint16_t port, unsigned *ti)
{
	int want = proto == IPPROTO_TCP ? PROF_TCP : PROF_UDP;

	for (unsigned i = 0; i < s->ntpl; i++)
		if (s->tpl[i].proto == want && s->tpl[i].port == port) {
			*ti = i;
			return &s->tpl[i];
		}
	return NULL;
}

/* worker: a server flow taken in: accepted, and whether a NAT translated it. */
static inline void flows_accept_note(struct flows_state *s, struct ctr_server *v, const uint8_t *f,
				     const struct pkt_info *pi)
{
	FG_CTR_INC(v->accepted);
	if (flows_srv_untranslated(s, f, pi)) {
		FG_CTR_INC(v->untranslated);
	} else {
		FG_CTR_INC(v->translated);
		flows_nat_note(s, pi->sip, pi->sport);
	}
}

/*
 * worker: the TCP server without state (flows_once.c, flows.h): a
 * segment of no entry to a template of it (tcp_once), taken whole (true)
 * or left to the table's path (false), with *ti its template and, when it
 * needs the entry the SYN would have made (c->entry), c->iss the cookie,
 * c->irs the peer's initial sequence number, c->mss its MSS from the
 * cookie and c->win its window (tcp_init_cookie()).
 */
struct flows_cookie {
	uint32_t iss, irs;
	uint16_t mss, win;
	bool entry;
};

bool flows_tcp_once(struct worker *w, struct flows_state *s, const struct flowtab_key *k,
		    uint64_t h, struct rte_mbuf *m, const uint8_t *f, const struct pkt_info *pi,
		    uint64_t now, struct flows_cookie *c, unsigned *ti);

/* ---- worker: the life of a flow (flows.c), shared with flows_bytes.c ---- */

/*
 * Why flows_fail() ends a flow: the reasons of include/fail-t.h, one each
 * (flowgen(8), STATISTICS, "fail_reasons", says when each is counted).
 * FLOWS_FAIL_EXPIRED is no reason of its own: the flow's timeout, counted
 * as no_reply or timeout by whether the peer was heard (flows_expired()).
 */
enum flows_fail {
	FLOWS_FAIL_NO_REPLY = FG_FAIL_NO_REPLY,
	FLOWS_FAIL_TIMEOUT = FG_FAIL_TIMEOUT,
	FLOWS_FAIL_RESET = FG_FAIL_RESET,
	FLOWS_FAIL_RETX = FG_FAIL_RETX,
	FLOWS_FAIL_ICMP_UNREACH = FG_FAIL_ICMP_UNREACH, /* an ICMP error for the flow */
	FLOWS_FAIL_TABLE_FULL = FG_FAIL_TABLE_FULL,
	FLOWS_FAIL_PAYLOAD = FG_FAIL_PAYLOAD, /* bytes not the peer's (flowpay.h, progb.h) */
	FLOWS_FAIL_PEER_CLOSED = FG_FAIL_PEER_CLOSED,
	FLOWS_FAIL_EXPIRED = FG_FAIL_N,
};

/*
 * worker: flows.c's steps of a flow: established counts the client flow
 * established once; fail ends it as failed (why: counted under that
 * reason, side's, and noted in the worker's ring of failed flows);
 * fail_new counts a flow of template tpl that never had an entry on side
 * (the table was full), k its key as the entry's would be; prog advances side's
 * program (true when it ended); udp_check ends a UDP flow whose program
 * ended; tcp_run feeds the endpoint's output o and may delete the entry.
 */
void flows_established(struct worker *w, struct flows_ent *e);
void flows_fail(struct worker *w, struct flows_state *s, uint32_t idx, struct flows_ent *e,
		enum flows_fail why);
void flows_fail_new(struct worker *w, struct flows_state *s, int side, unsigned tpl,
		    const struct flowtab_key *k);
bool flows_prog(struct worker *w, struct flows_state *s, uint32_t idx, struct flows_ent *e,
		int side, uint64_t now);
void flows_udp_check(struct worker *w, struct flows_state *s, uint32_t idx, struct flows_ent *e,
		     int side, uint64_t now);
void flows_tcp_run(struct worker *w, struct flows_state *s, uint32_t idx, struct flows_ent *e,
		   int side, struct tcp_out *o, uint64_t now);

/*
 * worker: an ICMP error's flow (flows_icmp.c). icmp_find gives the entry
 * whose frame the error quotes, or FLOWTAB_NIL; icmp_udp_ok says whether
 * a UDP flow's quote is its own (the signature where its datagrams carry
 * one).
 */
struct icmperr;
uint32_t flows_icmp_find(const struct flows_state *s, int side, const uint8_t *f,
			 const struct icmperr *ie);
bool flows_icmp_udp_ok(const struct worker *w, const struct flows_state *s, uint32_t idx,
		       const struct flows_ent *e, int side, const uint8_t *f,
		       const struct icmperr *ie);

/*
 * worker: programs with bytes (flows_bytes.c). prog_step runs a step of
 * op until, until_close or close (true: done, go on); rx_bytes takes a
 * received frame of a flow whose template marks side rxb; tx_udp_bytes
 * sends a send step's bytes as one datagram; tcp_fill writes a segment's
 * payload of side (its program's bytes or the pattern) and returns its
 * raw sum (pkt_raw_sum()).
 */
bool flows_prog_step(struct flows_state *s, struct flows_ent *e, const struct prof_step *st);
void flows_rx_bytes(struct worker *w, struct flows_state *s, int side, struct rte_mbuf *m,
		    const uint8_t *f, const struct pkt_info *pi, uint32_t idx, struct flows_ent *e,
		    uint64_t now);
void flows_tx_udp_bytes(struct worker *w, struct flows_state *s, int side, struct flows_ent *e,
			const struct prof_step *st, uint64_t now);
uint16_t flows_tcp_fill_bytes(const struct flows_state *s, int side, const struct flows_ent *e,
			      uint8_t *dst, const struct tcp_seg_out *o);

#define FLOWS_PSUM_RX 2 /* flows_state.psum[]: 0, 1 the sides' sends; this the client's receives */

/* worker: tcp_payload_sum(off, len), remembered in s->psum[slot]. */
static inline uint16_t flows_pattern_sum(struct flows_state *s, unsigned slot, uint32_t off,
					 uint32_t len)
{
	if (s->psum[slot].off != off || s->psum[slot].len != len) {
		s->psum[slot].off = off;
		s->psum[slot].len = len;
		s->psum[slot].sum = tcp_payload_sum(off, len);
	}
	return s->psum[slot].sum;
}

/* worker: a TCP segment's payload and its raw sum: the stream pattern
 * (its sum in closed form), or side's program's bytes. */
static inline uint16_t flows_tcp_fill(struct flows_state *s, int side, const struct flows_ent *e,
				      uint8_t *dst, const struct tcp_seg_out *o)
{
	if (unlikely(s->tpl[e->tpl].txb[side]))
		return flows_tcp_fill_bytes(s, side, e, dst, o);
	tcp_payload_fill(dst, o->off, o->len);
	return flows_pattern_sum(s, (unsigned)side, o->off, o->len);
}

/* ---- worker: payload checks (flowpay.h), by flows.c and flows_bytes.c ---- */

/* A client flow's server is not flowgen: counted once, never checked again. */
static inline void flows_foreign(struct worker *w, struct flows_ent *e)
{
	e->flags |= FLOWS_F_PAY_FOREIGN;
	FG_CTR_INC(flows_cli(w, e->tpl)->foreign_server);
}

/*
 * Client side: may a received UDP reply (len bytes at pay) go on? In
 * auto mode the first reply decides whose the server is; flowgen's
 * replies must name the client flow idx and carry the pattern.
 */
static inline bool flows_udp_pay_ok(struct worker *w, const struct flows_state *s, uint32_t idx,
				    struct flows_ent *e, const uint8_t *pay, uint32_t len)
{
	if (s->check == FLOWPAY_OFF || (e->flags & FLOWS_F_PAY_FOREIGN))
		return true;
	if (s->check == FLOWPAY_AUTO && !(e->flags & FLOWS_F_PAY_OURS)) {
		if (!flowpay_udp_ours(pay, len)) {
			flows_foreign(w, e);
			return true;
		}
		e->flags |= FLOWS_F_PAY_OURS;
	}
	return flowpay_udp_check(pay, len, own_id(flowtab_id(s->ft, idx), w->q), LAT_SIG_F_REPLY);
}

/*
 * Client side: is new data of the segment to be checked against the stream
 * pattern, and at which stream offset (*off)? Only data the endpoint takes
 * as new is looked at, and only while the server may be flowgen.
 */
static inline bool flows_tcp_pay_due(const struct flows_state *s, const struct flows_ent *e,
				     const struct tcp_seg *sg, uint32_t *off)
{
	if (s->check == FLOWPAY_OFF || (e->flags & FLOWS_F_PAY_FOREIGN) ||
	    !tcp_data_new(flows_tcb(s, e), sg))
		return false;
	*off = tcp_rcv_off(flows_tcb(s, e), sg->seq);
	return true;
}

/*
 * Client side: may a received TCP segment go on to tcp_input()? In auto
 * mode the first new data decides whose the server is; flowgen's must be
 * the pattern at its stream offset. seen: flows_rx_sum() found the data
 * to be the pattern already.
 */
static inline bool flows_tcp_pay_ok(struct worker *w, const struct flows_state *s,
				    struct flows_ent *e, const struct tcp_seg *sg,
				    const uint8_t *data, bool seen)
{
	uint32_t off;

	if (!flows_tcp_pay_due(s, e, sg, &off))
		return true;
	if (seen) {
		if (s->check == FLOWPAY_AUTO)
			e->flags |= FLOWS_F_PAY_OURS;
		return true;
	}
	if (s->check == FLOWPAY_AUTO && !(e->flags & FLOWS_F_PAY_OURS)) {
		if (!flowpay_tcp_ours(data, off, sg->len)) {
			flows_foreign(w, e);
			return true;
		}
		e->flags |= FLOWS_F_PAY_OURS;
	}
	return tcp_payload_check(data, off, sg->len);
}

#endif
