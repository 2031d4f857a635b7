/*
 * test_fails.c — why flows fail and the rings of failed flows. The
 * reason mapping of the flows engine (flows_fail(), flows_fail_new(),
 * src/dataplane/flows.c): every reason of enum flows_fail, on either
 * side, counts under its own name (fails.h) in that side's block of the
 * flow's template, and in no other reason nor on the other side; a
 * flow's timeout counts as no_reply or timeout by whether the peer was
 * heard; every failure lands in the worker's ring with its tuple as
 * that side saw it. The ring itself (src/core/fails.c): wrap-around
 * keeps the newest FG_FAIL_RING, an entry being written or rewritten is
 * not read (torn), also against a writer thread running at the same
 * time, the rings of several workers merge newest first, a request for
 * more than the rings hold returns what they hold, and only the asked
 * run's entries come back.
 */
#include <arpa/inet.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "ctr.h"
#include "fails.h"
#include "fgen.h"
#include "fgen_mem.h"
#include "flows.h"
#include "flows_int.h"
#include "flowtab.h"
#include "flowtab_mem.h"
#include "flows_fx.h"
#include "tcp.h"

#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))
#define TPL 1 /* the template the flows belong to */

/* ---- the reason mapping (flows.c) ---- */

static struct ctr_worker ctr;

struct fx {
	struct flows_state *s;
	struct worker w;
};

static void fx_init(struct fx *f)
{
	struct flows_state *s = flows_fx_state(64, 1000000000ull);

	assert_int_equal(
	    fgen_addrs_range(&s->cli, FGEN_INC, IP(198, 18, 0, 1), IP(198, 18, 0, 1), 1), 0);
	assert_int_equal(fgen_cpa_init(&s->cpa[0], &s->cli, 40000, 65535, 1), 0);
	s->ncpa = 1;
	s->ntpl = 2;
	s->rx_idx = FLOWTAB_NIL;
	memset(&ctr, 0, sizeof(ctr));
	memset(&f->w, 0, sizeof(f->w));
	f->w.ctr = &ctr;
	f->w.run_id = 0x100000007ull; /* the ring keeps the low 32 bits */
	f->s = s;
}

static void fx_done(struct fx *f)
{
	flows_fx_free(f->s);
	fgen_cpa_destroy(&f->s->cpa[0]);
	fgen_addrs_destroy(&f->s->cli);
	free(f->s);
}

/* A flow of template TPL on side, as flows.c keys it: the peer's frame. */
static uint32_t add_flow(struct fx *f, int side, int proto)
{
	struct flows_state *s = f->s;
	struct flowtab_key k;
	struct flows_ent *e;
	uint16_t cport = 40000;
	uint32_t idx;

	s->tpl[TPL].proto = proto;
	s->tpl[TPL].cpa = 0;
	if (side == FLOWTAB_CLIENT) {
		assert_int_equal(fgen_cpa_get(&s->cpa[0], IP(198, 18, 0, 1), &cport), 0);
		flowtab_key(&k, IP(198, 19, 0, 9), IP(198, 18, 0, 1), 8080, cport,
			    proto == PROF_TCP ? IPPROTO_TCP : IPPROTO_UDP, FLOWTAB_CLIENT);
	} else {
		/* the client as the DUT translated it */
		flowtab_key(&k, IP(198, 19, 200, 1), IP(198, 19, 0, 9), 61000, 8080,
			    proto == PROF_TCP ? IPPROTO_TCP : IPPROTO_UDP, FLOWTAB_SERVER);
	}
	assert_int_equal(flowtab_insert(s->ft, &k, &idx), 0);
	e = flowtab_state(s->ft, idx);
	memset(e, 0, sizeof(*e));
	e->tpl = TPL;
	e->step = 3;
	e->flags = 0;
	if (proto == PROF_TCP)
		flows_tcb_new(s, idx, e, 0)->state = TCP_ESTABLISHED;
	s->active[side] = 1;
	if (side == FLOWTAB_CLIENT) {
		ctr.tpl[TPL].active_client = 1;
		ctr.gauge.active_client = 1;
	} else {
		ctr.tpl[TPL].active_server = 1;
		ctr.gauge.active_server = 1;
	}
	return idx;
}

/* Only reason r of side counts 1 (and failed 1); everything else 0. */
static void only(int side, unsigned r)
{
	for (int t = 0; t < FG_PROF_MAX_TEMPLATES; t++)
		for (int sd = 0; sd < 2; sd++) {
			const uint64_t *fail = sd ? ctr.tpl[t].server.fail : ctr.tpl[t].client.fail;
			uint64_t failed = sd ? ctr.tpl[t].server.failed : ctr.tpl[t].client.failed;
			bool here = t == TPL && sd == side;

			assert_int_equal(failed, here ? 1 : 0);
			for (unsigned o = 0; o < FG_FAIL_N; o++)
				if (fail[o] != (here && o == r ? 1u : 0u))
					fail_msg("%s %s: template %d %s %s = %llu", side ? "server" : "client",
						 fails_name(r), t, sd ? "server" : "client", fails_name(o),
						 (unsigned long long)fail[o]);
		}
}

/* The ring's newest entry: side, reason, template, tuple, state, run. */
static void ring_says(int side, unsigned r, int proto, uint8_t state)
{
	struct fail_rec rec;
	char a[64];

	assert_int_equal(fails_collect(&ctr.fails, 7, &rec, 1, NULL), 1);
	assert_int_equal(rec.side, side);
	assert_int_equal(rec.reason, r);
	assert_int_equal(rec.tpl, TPL);
	assert_int_equal(rec.proto, proto == PROF_TCP ? IPPROTO_TCP : IPPROTO_UDP);
	assert_int_equal(rec.step, 3);
	assert_int_equal(rec.state, proto == PROF_TCP ? state : 0);
	assert_int_equal(rec.v6, 0);
	assert_true(rec.tsc > 0);
	if (side == FLOWTAB_CLIENT) {
		assert_string_equal(fails_addr(a, sizeof(a), &rec, rec.src), "198.18.0.1");
		assert_int_equal(rec.sport, 40000);
		assert_string_equal(fails_addr(a, sizeof(a), &rec, rec.dst), "198.19.0.9");
	} else {
		assert_string_equal(fails_addr(a, sizeof(a), &rec, rec.src), "198.19.200.1");
		assert_int_equal(rec.sport, 61000);
		assert_string_equal(fails_addr(a, sizeof(a), &rec, rec.dst), "198.19.0.9");
	}
	assert_int_equal(rec.dport, 8080);
}

static void test_each_reason(void **state)
{
	static const enum flows_fail why[] = {
	    FLOWS_FAIL_NO_REPLY, FLOWS_FAIL_TIMEOUT,	  FLOWS_FAIL_RESET,
	    FLOWS_FAIL_RETX,	 FLOWS_FAIL_ICMP_UNREACH, FLOWS_FAIL_TABLE_FULL,
	    FLOWS_FAIL_PAYLOAD,	 FLOWS_FAIL_PEER_CLOSED,
	};
	struct fx f;

	(void)state;
	_Static_assert(sizeof(why) / sizeof(why[0]) == FG_FAIL_N, "every reason is tried");
	for (int side = 0; side < 2; side++)
		for (int proto = PROF_UDP; proto <= PROF_TCP; proto++)
			for (size_t i = 0; i < FG_FAIL_N; i++) {
				uint32_t idx;

				fx_init(&f);
				idx = add_flow(&f, side, proto);
				flows_fail(&f.w, f.s, idx, flowtab_state(f.s->ft, idx), why[i]);
				only(side, (unsigned)why[i]);
				ring_says(side, (unsigned)why[i], proto, TCP_ESTABLISHED);
				/* the flow is gone, its gauges back to 0 */
				assert_int_equal(flowtab_count(f.s->ft), 0);
				assert_int_equal(side ? ctr.tpl[TPL].active_server
						      : ctr.tpl[TPL].active_client,
						 0);
				fx_done(&f);
			}
}

/* A flow's timeout: no_reply when the peer was never heard, else timeout. */
static void expire(int side, int proto, uint8_t flags, uint8_t tcp_state, unsigned want)
{
	struct fx f;
	struct flows_ent *e;
	uint32_t idx;

	fx_init(&f);
	idx = add_flow(&f, side, proto);
	e = flowtab_state(f.s->ft, idx);
	e->flags = flags | (e->flags & FLOWS_F_TCB);
	if (proto == PROF_TCP)
		flows_tcb(f.s, e)->state = tcp_state;
	flows_fail(&f.w, f.s, idx, e, FLOWS_FAIL_EXPIRED);
	only(side, want);
	ring_says(side, want, proto, tcp_state);
	/* the connection's slot went back to the pool with its entry */
	if (proto == PROF_TCP)
		assert_int_equal(f.s->tcbs.free, 0);
	fx_done(&f);
}

/*
 * A parked connection (flows.h: its tcb folded into its entry) is
 * ESTABLISHED: its timeout counts as timeout, in that state, and it
 * holds no slot to give back. Parked and taken again, it has its slot.
 */
static void expire_parked(int side)
{
	struct fx f;
	struct flows_ent *e;
	struct tcp_idle i;
	uint32_t idx;

	fx_init(&f);
	idx = add_flow(&f, side, PROF_TCP);
	e = flowtab_state(f.s->ft, idx);
	{
		struct tcp_tcb *t = flows_tcb(f.s, e);

		memset(t, 0, sizeof(*t));
		t->state = TCP_ESTABLISHED;
		t->iss = 100;
		t->irs = 200;
		t->snd_una = t->snd_nxt = t->snd_max = t->snd_end = 101;
		t->rcv_nxt = 201;
		t->snd_wnd = 65535;
		t->mss = FLOWS_TCP_MSS;
		t->cwnd = FG_TCP_CWND_INIT;
		assert_true(tcp_park(t, FLOWS_TCP_MSS, &i));
	}
	flows_tcb_put(f.s, e);
	e->tcp.idle = i;
	assert_false(e->flags & FLOWS_F_TCB);
	assert_int_equal(flows_tcp_state(f.s, e), TCP_ESTABLISHED);
	assert_int_equal(flows_tcb_get(f.s, idx, e, 0)->rcv_nxt, 201);
	assert_true(e->flags & FLOWS_F_TCB);
	assert_int_equal(flows_tcb(f.s, e)->iss, 100);
	flows_tcb_put(f.s, e);
	e->tcp.idle = i;
	e->flags |= FLOWS_F_EST;
	flows_fail(&f.w, f.s, idx, e, FLOWS_FAIL_EXPIRED);
	only(side, FG_FAIL_TIMEOUT);
	ring_says(side, FG_FAIL_TIMEOUT, PROF_TCP, TCP_ESTABLISHED);
	assert_int_equal(f.s->tcbs.free, 0);
	assert_int_equal(f.s->tcbs.slot[0].idx, FLOWS_TCB_FREE);
	fx_done(&f);
}

static void test_expired(void **state)
{
	(void)state;
	/* client: heard = a reply came (FLOWS_F_EST) */
	expire(FLOWTAB_CLIENT, PROF_UDP, 0, 0, FG_FAIL_NO_REPLY);
	expire(FLOWTAB_CLIENT, PROF_UDP, FLOWS_F_EST, 0, FG_FAIL_TIMEOUT);
	expire(FLOWTAB_CLIENT, PROF_TCP, 0, TCP_SYN_SENT, FG_FAIL_NO_REPLY);
	expire(FLOWTAB_CLIENT, PROF_TCP, FLOWS_F_EST, TCP_ESTABLISHED, FG_FAIL_TIMEOUT);
	expire(FLOWTAB_CLIENT, PROF_TCP, FLOWS_F_EST, TCP_FIN_WAIT_2, FG_FAIL_TIMEOUT);
	/* server: TCP heard once the handshake completed; UDP began heard */
	expire(FLOWTAB_SERVER, PROF_TCP, 0, TCP_SYN_RCVD, FG_FAIL_NO_REPLY);
	expire(FLOWTAB_SERVER, PROF_TCP, 0, TCP_ESTABLISHED, FG_FAIL_TIMEOUT);
	expire(FLOWTAB_SERVER, PROF_TCP, 0, TCP_CLOSE_WAIT, FG_FAIL_TIMEOUT);
	expire(FLOWTAB_SERVER, PROF_UDP, 0, 0, FG_FAIL_TIMEOUT);
	expire_parked(FLOWTAB_CLIENT);
	expire_parked(FLOWTAB_SERVER);
}

/* A flow the full table never took: table_full on its side, no entry. */
static void test_table_full_new(void **state)
{
	struct flowtab_key k;
	struct fx f;

	(void)state;
	for (int side = 0; side < 2; side++) {
		fx_init(&f);
		f.s->tpl[TPL].proto = PROF_UDP;
		if (side == FLOWTAB_CLIENT)
			flowtab_key(&k, IP(198, 19, 0, 9), IP(198, 18, 0, 1), 8080, 40000, IPPROTO_UDP,
				    FLOWTAB_CLIENT);
		else
			flowtab_key(&k, IP(198, 19, 200, 1), IP(198, 19, 0, 9), 61000, 8080,
				    IPPROTO_UDP, FLOWTAB_SERVER);
		flows_fail_new(&f.w, f.s, side, TPL, &k);
		only(side, FG_FAIL_TABLE_FULL);
		{
			struct fail_rec rec;
			char a[64];

			assert_int_equal(fails_collect(&ctr.fails, 7, &rec, 1, NULL), 1);
			assert_int_equal(rec.reason, FG_FAIL_TABLE_FULL);
			assert_int_equal(rec.side, side);
			assert_string_equal(fails_addr(a, sizeof(a), &rec, rec.src),
					    side ? "198.19.200.1" : "198.18.0.1");
			assert_int_equal(rec.sport, side ? 61000 : 40000);
			assert_int_equal(rec.dport, 8080);
			assert_int_equal(rec.step, 0);
		}
		fx_done(&f);
	}
}

/* ---- the ring (fails.c) ---- */

static struct fail_ring ring[3];

static void push(struct fail_ring *r, uint64_t tsc, uint32_t run, uint8_t tpl)
{
	struct fail_rec rec = {.tsc = tsc, .run = run, .tpl = tpl, .reason = FG_FAIL_RESET};

	fails_push(r, &rec);
}

static void test_ring_wrap(void **state)
{
	static struct fail_rec out[FG_FAIL_RING + 8];
	struct fail_rec one;
	size_t n;

	(void)state;
	memset(ring, 0, sizeof(ring));
	assert_int_equal(fails_collect(&ring[0], 1, out, 8, NULL), 0); /* empty */
	for (uint64_t i = 1; i <= 300; i++)
		push(&ring[0], i, 1, 0);
	assert_int_equal(ring[0].head, 300);
	n = fails_collect(&ring[0], 1, out, FG_FAIL_RING + 8, NULL);
	assert_int_equal(n, FG_FAIL_RING); /* the newest 256 */
	for (size_t i = 0; i < n; i++)
		assert_int_equal(out[i].tsc, 300 - i);
	/* failure 10 (the 10th, n = 9) was overwritten by failure 266 */
	assert_false(fails_read(&ring[0], 9, &one));
	assert_true(fails_read(&ring[0], 265, &one));
	assert_int_equal(one.tsc, 266);
	/* failures not written yet are not read */
	assert_false(fails_read(&ring[0], 300, &one));
	/* N larger than held: what the ring holds */
	memset(ring, 0, sizeof(ring));
	for (uint64_t i = 1; i <= 5; i++)
		push(&ring[0], i, 1, 0);
	assert_int_equal(fails_collect(&ring[0], 1, out, 100, NULL), 5);
	assert_int_equal(out[0].tsc, 5);
	assert_int_equal(out[4].tsc, 1);
	/* another run's entries are left out */
	push(&ring[0], 6, 2, 0);
	assert_int_equal(fails_collect(&ring[0], 1, out, 100, NULL), 5);
	assert_int_equal(fails_collect(&ring[0], 2, out, 100, NULL), 1);
	assert_int_equal(out[0].tsc, 6);
}

static void test_ring_torn(void **state)
{
	struct fail_rec out[4];
	uint64_t torn = 0;

	(void)state;
	memset(ring, 0, sizeof(ring));
	push(&ring[0], 11, 1, 0);
	push(&ring[0], 12, 1, 0);
	/* the writer is inside entry 1 (seq odd): skipped, counted torn */
	ring[0].rec[1].seq = 2 * 1 + 1;
	assert_int_equal(fails_collect(&ring[0], 1, out, 4, &torn), 1);
	assert_int_equal(torn, 1);
	assert_int_equal(out[0].tsc, 11);
	/* rewritten since (the sequence of a later lap): not the one asked for */
	ring[0].rec[1].seq = 2 * (1 + FG_FAIL_RING) + 2;
	assert_false(fails_read(&ring[0], 1, &out[0]));
}

/* A writer thread against a reader: whatever is read whole is consistent. */
#define PATTERN(n) ((uint8_t)((n) * 37u + 11u))

static atomic_bool writer_stop;

static void *writer(void *arg)
{
	struct fail_ring *r = arg;
	uint64_t n = 0;

	while (!atomic_load(&writer_stop)) {
		struct fail_rec rec = {.tsc = n + 1, .run = 1, .sport = (uint16_t)n};

		memset(rec.src, PATTERN(n), sizeof(rec.src));
		memset(rec.dst, PATTERN(n), sizeof(rec.dst));
		fails_push(r, &rec);
		n++;
	}
	return NULL;
}

static void test_ring_concurrent(void **state)
{
	static struct fail_rec out[FG_FAIL_RING];
	struct timespec t0, t;
	uint64_t torn = 0, read = 0;
	pthread_t th;

	(void)state;
	memset(ring, 0, sizeof(ring));
	atomic_store(&writer_stop, false);
	assert_int_equal(pthread_create(&th, NULL, writer, &ring[0]), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		size_t n = fails_collect(&ring[0], 1, out, FG_FAIL_RING, &torn);

		for (size_t i = 0; i < n; i++) {
			uint64_t k = out[i].tsc - 1;

			/* every field of a read entry is of one and the same write */
			assert_int_equal(out[i].sport, (uint16_t)k);
			for (int b = 0; b < 16; b++) {
				assert_int_equal(out[i].src[b], PATTERN(k));
				assert_int_equal(out[i].dst[b], PATTERN(k));
			}
			if (i)
				assert_true(out[i].tsc < out[i - 1].tsc);
		}
		read += n;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 300000000L);
	atomic_store(&writer_stop, true);
	pthread_join(th, NULL);
	assert_true(read > 0);
	printf("# concurrent: %llu entries read whole, %llu torn skipped, %llu written\n",
	       (unsigned long long)read, (unsigned long long)torn,
	       (unsigned long long)ring[0].head);
}

static void test_merge(void **state)
{
	static struct fail_rec all[3 * FG_FAIL_RING];
	size_t n = 0, k;

	(void)state;
	memset(ring, 0, sizeof(ring));
	/* three workers, times interleaved: worker w has w + 3i */
	for (int w = 0; w < 3; w++)
		for (int i = 0; i < 10; i++)
			push(&ring[w], (uint64_t)(w + 3 * i + 1), 1, (uint8_t)w);
	for (int w = 0; w < 3; w++)
		n += fails_collect(&ring[w], 1, all + n, 4, NULL);
	assert_int_equal(n, 12);
	k = fails_merge(all, n, 5);
	assert_int_equal(k, 5);
	/* newest first: 30 29 28 27 26, from workers 2 1 0 2 1 */
	for (size_t i = 0; i < k; i++)
		assert_int_equal(all[i].tsc, 30 - i);
	assert_int_equal(all[0].tpl, 2);
	assert_int_equal(all[1].tpl, 1);
	assert_int_equal(all[2].tpl, 0);
	/* more asked than held: all of them */
	assert_int_equal(fails_merge(all, n, 1000), 12);
	for (size_t i = 1; i < n; i++)
		assert_true(all[i].tsc <= all[i - 1].tsc);
}

static void test_addr(void **state)
{
	struct fail_rec r = {0};
	char a[64];

	(void)state;
	r.v6 = 1;
	assert_int_equal(inet_pton(AF_INET6, "2001:2::7:1", r.src), 1);
	assert_string_equal(fails_addr(a, sizeof(a), &r, r.src), "2001:2::7:1");
	r.v6 = 0;
	memcpy(r.src, (uint8_t[]){198, 18, 0, 1}, 4);
	assert_string_equal(fails_addr(a, sizeof(a), &r, r.src), "198.18.0.1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_each_reason),	  cmocka_unit_test(test_expired),
	    cmocka_unit_test(test_table_full_new), cmocka_unit_test(test_ring_wrap),
	    cmocka_unit_test(test_ring_torn),	  cmocka_unit_test(test_ring_concurrent),
	    cmocka_unit_test(test_merge),	  cmocka_unit_test(test_addr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
