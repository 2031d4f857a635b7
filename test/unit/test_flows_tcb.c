/*
 * test_flows_tcb.c — the worker's pool of whole tcbs and the parking of
 * quiet TCP connections (src/dataplane/flows_tcb.c; flows.h, struct
 * flows_ent): a new connection takes a slot, the most recently freed
 * first; the sweep parks a connection once it has been quiet for
 * FLOWS_PARK_MS and tcp_park() takes it, and leaves one that was used
 * since, that has data its program did not consume, that matched part of
 * a delimiter or that has something in flight; a parked connection's
 * next use takes a slot and finds its tcb as it was; a slot goes back
 * with its entry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "flows.h"
#include "flows_int.h"
#include "flowtab.h"
#include "flowtab_mem.h"
#include "flows_fx.h"
#include "tcp.h"

#define N 8
#define HZ 1000000000ull /* a 1 GHz TSC */
#define MS (HZ / 1000)

static struct flows_state *state(void) { return flows_fx_state(N, HZ); }

static void done(struct flows_state *s)
{
	flows_fx_free(s);
	free(s);
}

/* A connection of side, established and idle (everything acked), used at now. */
static uint32_t conn(struct flows_state *s, int side, uint16_t port, uint64_t now)
{
	struct flowtab_key k;
	struct flows_ent *e;
	struct tcp_tcb *t;
	struct tcp_seg syn = {.seq = 5000, .mss = FLOWS_TCP_MSS, .flags = TCP_SYN, .win = 65535};
	struct tcp_seg ack = {.seq = 5001, .ack = 0, .flags = TCP_ACK, .win = 65535};
	struct tcp_out o;
	uint32_t idx;

	flowtab_key(&k, 0xc6120001, 0xc6130001, port, 80, 6, side);
	assert_int_equal(flowtab_insert(s->ft, &k, &idx), 0);
	e = flowtab_state(s->ft, idx);
	t = flows_tcb_new(s, idx, e, now);
	assert_true(e->flags & FLOWS_F_TCB);
	tcp_init_listen(t, 9000, FLOWS_TCP_MSS);
	tcp_out_reset(&o);
	tcp_input(t, &syn, 0, &o);
	ack.ack = 9001;
	tcp_out_reset(&o);
	tcp_input(t, &ack, 0, &o);
	assert_int_equal(t->state, TCP_ESTABLISHED);
	return idx;
}

static struct flows_ent *ent(struct flows_state *s, uint32_t idx)
{
	return flowtab_state(s->ft, idx);
}

static void test_slots(void **state_)
{
	struct flows_state *s = state();
	uint32_t a, b, c;

	(void)state_;
	a = conn(s, FLOWTAB_SERVER, 1, 0);
	b = conn(s, FLOWTAB_SERVER, 2, 0);
	assert_int_equal(ent(s, a)->tcp.slot, 0);
	assert_int_equal(ent(s, b)->tcp.slot, 1);
	assert_int_equal(s->tcbs.slot[1].idx, b);
	assert_int_equal(s->tcbs.slot[1].need, 0);
	assert_int_equal(s->tcbs.slot[1].umatch, 0);
	/* a freed slot is the next one taken; a parked entry has none to free */
	flows_tcb_put(s, ent(s, a));
	assert_false(ent(s, a)->flags & FLOWS_F_TCB);
	assert_int_equal(s->tcbs.slot[0].idx, FLOWS_TCB_FREE);
	flows_tcb_put(s, ent(s, a));
	assert_int_equal(s->tcbs.free, 0);
	c = conn(s, FLOWTAB_CLIENT, 3, 0);
	assert_int_equal(ent(s, c)->tcp.slot, 0);
	assert_int_equal(s->tcbs.free, FLOWS_TCB_FREE);
	assert_int_equal(s->tcbs.hwm, 2);
	done(s);
}

static void test_sweep(void **state_)
{
	struct flows_state *s = state();
	uint64_t t0 = 1000 * MS;
	uint32_t quiet, recent, unread, partial, busy;
	struct tcp_tcb *t;

	(void)state_;
	quiet = conn(s, FLOWTAB_SERVER, 1, t0);
	recent = conn(s, FLOWTAB_SERVER, 2, t0);
	unread = conn(s, FLOWTAB_SERVER, 3, t0);
	partial = conn(s, FLOWTAB_SERVER, 4, t0);
	busy = conn(s, FLOWTAB_SERVER, 5, t0);
	flows_tcb(s, ent(s, unread))->rcv_nxt += 3; /* 3 bytes no recv step took */
	flows_tcbx(s, ent(s, partial))->umatch = 2;
	tcp_app_send(flows_tcb(s, ent(s, busy)), 10);
	/* too early: nothing parks */
	flows_tcb_sweep(s, t0 + FLOWS_PARK_MS * MS / 2);
	assert_true(ent(s, quiet)->flags & FLOWS_F_TCB);
	/* recent is used meanwhile; within the sweep's period, no turn */
	flows_tcb_get(s, recent, ent(s, recent), t0 + FLOWS_PARK_MS * MS * 3 / 4);
	flows_tcb_sweep(s, t0 + FLOWS_PARK_MS * MS / 2 + FLOWS_SWEEP_MS * MS / 2);
	flows_tcb_sweep(s, t0 + FLOWS_PARK_MS * MS * 5 / 4);
	assert_false(ent(s, quiet)->flags & FLOWS_F_TCB);
	assert_true(ent(s, recent)->flags & FLOWS_F_TCB);
	assert_true(ent(s, unread)->flags & FLOWS_F_TCB);
	assert_true(ent(s, partial)->flags & FLOWS_F_TCB);
	assert_true(ent(s, busy)->flags & FLOWS_F_TCB);
	assert_int_equal(s->tcbs.free, 0);
	assert_int_equal(flows_tcp_state(s, ent(s, quiet)), TCP_ESTABLISHED);
	assert_int_equal(ent(s, quiet)->tcp.idle.snd_nxt, 9001);
	assert_int_equal(ent(s, quiet)->tcp.idle.rcv_nxt, 5001);
	/* later, recent parks too, the others stay */
	flows_tcb_sweep(s, t0 + 4 * FLOWS_PARK_MS * MS);
	assert_false(ent(s, recent)->flags & FLOWS_F_TCB);
	assert_true(ent(s, unread)->flags & FLOWS_F_TCB);
	assert_true(ent(s, partial)->flags & FLOWS_F_TCB);
	assert_true(ent(s, busy)->flags & FLOWS_F_TCB);
	/* consumed, unread parks on the next pass */
	flows_tcbx(s, ent(s, unread))->need = 3;
	flows_tcb_sweep(s, t0 + 5 * FLOWS_PARK_MS * MS);
	assert_false(ent(s, unread)->flags & FLOWS_F_TCB);
	/* taken again: the tcb as it was, need at what it received */
	t = flows_tcb_get(s, unread, ent(s, unread), t0 + 6 * FLOWS_PARK_MS * MS);
	assert_true(ent(s, unread)->flags & FLOWS_F_TCB);
	assert_int_equal(t->state, TCP_ESTABLISHED);
	assert_int_equal(t->iss, 9000);
	assert_int_equal(t->irs, 5000);
	assert_int_equal(tcp_rcvd(t), 3);
	assert_int_equal(flows_tcbx(s, ent(s, unread))->need, 3);
	assert_int_equal(flows_tcbx(s, ent(s, unread))->idx, unread);
	done(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_slots),
	    cmocka_unit_test(test_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
