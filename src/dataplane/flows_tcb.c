/*
 * flows_tcb.c — the cold half of the worker's pool of whole tcbs (the
 * hot half is inline, flows_int.h): a parked connection taken again, and
 * the sweep that parks the quiet ones in their entries (flows.h, struct
 * flows_ent). Everything here runs on the worker that owns the state: no
 * allocation (control maps the pool, flows_ctl.c), no lock, no system
 * call.
 */
#include "flows.h"
#include "flows_int.h"
#include "flowtab.h"
#include "tcp.h"

/* A parked connection's tcb, rebuilt in a slot of its own (flows_tcb_get()). */
struct tcp_tcb *flows_tcb_unpark(struct flows_state *s, uint32_t idx, struct flows_ent *e,
				 uint64_t now)
{
	struct tcp_idle i = e->tcp.idle;
	struct tcp_tcb *t = flows_tcb_new(s, idx, e, now);

	tcp_unpark(&i, s->mss[flows_side(s->ft, idx)], t);
	flows_tcbx(s, e)->need = tcp_rcvd(t);
	return t;
}

/*
 * Each FLOWS_SWEEP_MS, a quarter of the slots handed out (at least 64): a
 * connection quiet for FLOWS_PARK_MS whose tcb tcp_park() takes, whose
 * program consumed all it received and that matches no delimiter half
 * way is parked, its slot freed. A pass over the slots takes at most 4
 * turns, so a quiet connection parks within FLOWS_PARK_MS + 4
 * FLOWS_SWEEP_MS (and the turns the worker's loop comes late).
 */
void flows_tcb_sweep_turn(struct flows_state *s, uint64_t now)
{
	struct flows_tcbs *p = &s->tcbs;
	uint32_t n, t = flows_tcb_now(now);

	p->next = now + p->every;
	n = p->hwm / 4 > 64 ? p->hwm / 4 : 64;
	if (n > p->hwm)
		n = p->hwm;
	while (n--) {
		struct flows_tcb *b = &p->slot[p->hand];
		struct flows_ent *e;
		struct tcp_idle i;

		if (++p->hand >= p->hwm)
			p->hand = 0;
		if (b->idx == FLOWS_TCB_FREE || b->umatch || b->need != tcp_rcvd(&b->tcb) ||
		    (int32_t)(t - b->used) < (int32_t)p->park_after ||
		    !tcp_park(&b->tcb, s->mss[flows_side(s->ft, b->idx)], &i))
			continue;
		e = flowtab_state(s->ft, b->idx);
		flows_tcb_put(s, e);
		e->tcp.idle = i;
	}
}
