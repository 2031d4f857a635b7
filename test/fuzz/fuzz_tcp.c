/*
 * fuzz_tcp.c — libFuzzer harness for the TCP state machine.
 *
 * The input picks a starting state (a client or a server tcb driven there by
 * well-formed segments) and then a sequence of operations: received segments
 * with fuzzed flags, sequence and acknowledgement numbers near the tcb's own
 * (so they land in and around the windows), lengths, windows and MSS
 * options; timer runs; application sends and closes. After every operation
 * the tcb's invariants and every emitted segment are checked; a violation
 * aborts.
 *
 * Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc/core -Isrc/config \
 *       -Isrc/dataplane -Isrc/control -Isrc/console \
 *          test/fuzz/fuzz_tcp.c src/core/tcp.c -o build/fuzz_tcp
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct reader {
	const uint8_t *p;
	size_t n;
};

static uint32_t take(struct reader *r, unsigned bytes)
{
	uint32_t v = 0;

	while (bytes--) {
		v = v << 8 | (r->n ? *r->p : 0);
		if (r->n) {
			r->p++;
			r->n--;
		}
	}
	return v;
}

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_tcp: %s:%d: %s\n", __FILE__, __LINE__, #c);          \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* now: the time of the call that filled o (the tcb keeps the low 32 bits of
 * its deadline; tcp_deadline() widens them around now) */
static void check(const struct tcp_tcb *t, const struct tcp_out *o, uint64_t now)
{
	CHECK(t->state < TCP_STATE_COUNT);
	CHECK(o->nseg <= FG_TCP_OUT_MAX);
	CHECK(o->nretx <= o->nseg + 1);
	CHECK(o->deadline_us == tcp_deadline(t, now));
	if (t->state == TCP_CLOSED)
		CHECK(t->deadline_us == 0);
	if (t->state != TCP_CLOSED && t->state != TCP_LISTEN) {
		CHECK(FG_SEQ_LEQ(t->snd_una, t->snd_nxt));
		CHECK(FG_SEQ_LEQ(t->snd_nxt, t->snd_max));
		CHECK(FG_SEQ_LEQ(t->snd_max, t->snd_end + 1));
	}
	CHECK(t->mss > 0);
	CHECK(tcp_rto_ms(t) >= FG_TCP_RTO_INIT_MS && tcp_rto_ms(t) <= FG_TCP_RTO_MAX_MS);
	if (t->state != TCP_CLOSED)
		CHECK(t->retries <= FG_TCP_RETRIES_MAX);
	for (unsigned i = 0; i < o->nseg; i++) {
		const struct tcp_seg_out *s = &o->seg[i];

		if (s->flags & TCP_RST)
			continue;
		CHECK(s->len <= t->mss_adv);
		CHECK(s->len <= t->mss || s->mss == 0);
		CHECK(s->off == s->seq - t->iss - 1);
		if (s->len) {
			/* payload lies inside the queued stream */
			CHECK(FG_SEQ_GT(s->seq, t->iss));
			CHECK(FG_SEQ_LEQ(s->seq + s->len, t->snd_end));
		}
		if (s->flags & TCP_SYN)
			CHECK(s->seq == t->iss && s->len == 0 && s->mss != 0);
		if (s->flags & TCP_FIN)
			CHECK(t->flags & TCP_TF_FIN_QUEUED && s->seq + s->len == t->snd_end);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = {data, size};
	struct tcp_tcb t;
	struct tcp_out o;
	uint64_t now = 1000000;
	uint32_t iss = take(&r, 4), peer = take(&r, 4);
	uint8_t mode = (uint8_t)take(&r, 1);
	uint16_t mss = (uint16_t)(take(&r, 2) % 1500);

	if (mss == 0)
		mss = 1;
	/* a starting point: client (SYN sent) or server (listening) */
	if (mode & 1) {
		tcp_init_listen(&t, iss, mss);
	} else {
		tcp_init_client(&t, iss, mss, now);
		tcp_out_reset(&o);
		tcp_output(&t, now, &o);
		check(&t, &o, now);
	}
	(void)peer;

	while (r.n) {
		uint8_t op = (uint8_t)take(&r, 1);
		struct tcp_seg s;

		tcp_out_reset(&o);
		switch (op % 6) {
		case 0:
		case 1:
		case 2: {
			/* a segment near what the tcb expects */
			int32_t dseq = (int16_t)take(&r, 2);
			int32_t dack = (int16_t)take(&r, 2);

			s.flags = (uint8_t)take(&r, 1) & 0x1f;
			s.seq = (op & 0x80) ? take(&r, 4) : t.rcv_nxt + (uint32_t)dseq;
			s.ack = (op & 0x40) ? take(&r, 4) : t.snd_una + (uint32_t)dack;
			if (t.state == TCP_LISTEN || t.state == TCP_SYN_SENT) {
				if (op & 0x20)
					s.seq = peer;
				if (op & 0x10)
					s.ack = iss + 1;
			}
			s.win = (uint16_t)take(&r, 2);
			s.mss = (uint16_t)take(&r, 2);
			s.len = (uint16_t)(take(&r, 2) % 2000);
			tcp_input(&t, &s, now, &o);
			break;
		}
		case 3:
			now += take(&r, 3);
			tcp_timer(&t, now, &o);
			break;
		case 4:
			tcp_app_send(&t, take(&r, 2));
			tcp_output(&t, now, &o);
			break;
		case 5:
			tcp_app_close(&t);
			tcp_output(&t, now, &o);
			break;
		}
		check(&t, &o, now);
	}
	return 0;
}
