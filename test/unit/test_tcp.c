/*
 * test_tcp.c — unit tests of the TCP state machine: every transition driven
 * by hand-made segments, then a client tcb wired to a server tcb through an
 * in-memory network that drops segments with a seeded PRNG, checking that
 * the right bytes arrive and both ends close normally. The payload checks
 * too: which received data is new and in order (tcp_data_new()), and how
 * its first segment tells a flowgen server from another (flowpay.h). And
 * ICMP errors: the quoted sequence number against the window, which
 * unreachable codes end which states, and a too big's smaller MSS with
 * what was in flight sent again in segments of it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <rte_ip.h>

#include "fg.h"
#include "flowpay.h"
#include "tcp.h"

#define CISS 1000u
#define SISS 500000u
#define NOW 1000000u /* an arbitrary start time, microseconds */

static struct tcp_seg mkseg(uint8_t flags, uint32_t seq, uint32_t ack, uint16_t len)
{
	struct tcp_seg s = {
	    .seq = seq, .ack = ack, .win = 65535, .mss = 0, .len = len, .flags = flags};

	return s;
}

static void in(struct tcp_tcb *t, struct tcp_seg s, uint64_t now, struct tcp_out *o)
{
	tcp_out_reset(o);
	tcp_input(t, &s, now, o);
}

/* A client in ESTABLISHED with the peer's ISS SISS and mss. */
static void est_client(struct tcp_tcb *t, uint32_t iss, uint32_t peer_iss, uint16_t mss)
{
	struct tcp_out o;
	struct tcp_seg sa;

	tcp_init_client(t, iss, mss, NOW);
	tcp_out_reset(&o);
	tcp_output(t, NOW, &o);
	assert_int_equal(o.nseg, 1);
	sa = mkseg(TCP_SYN | TCP_ACK, peer_iss, iss + 1, 0);
	sa.mss = mss;
	in(t, sa, NOW, &o);
	assert_int_equal(t->state, TCP_ESTABLISHED);
}

/* A server in ESTABLISHED after a client SYN with seq peer_iss. */
static void est_server(struct tcp_tcb *t, uint32_t iss, uint32_t peer_iss, uint16_t mss)
{
	struct tcp_out o;
	struct tcp_seg syn = mkseg(TCP_SYN, peer_iss, 0, 0);

	syn.mss = mss;
	tcp_init_listen(t, iss, mss);
	in(t, syn, NOW, &o);
	in(t, mkseg(TCP_ACK, peer_iss + 1, iss + 1, 0), NOW, &o);
	assert_int_equal(t->state, TCP_ESTABLISHED);
}

static void test_seq_macros(void **state)
{
	(void)state;
	assert_true(FG_SEQ_LT(0xfffffff0u, 0x10u));
	assert_true(FG_SEQ_GT(0x10u, 0xfffffff0u));
	assert_true(FG_SEQ_LEQ(5u, 5u));
	assert_true(FG_SEQ_GEQ(0u, 0xffffffffu));
	assert_false(FG_SEQ_LT(0x10u, 0xfffffff0u));
	assert_false(FG_SEQ_GT(7u, 7u));
}

static void test_state_names(void **state)
{
	(void)state;
	for (int i = 0; i < TCP_STATE_COUNT; i++)
		assert_non_null(tcp_state_names[i]);
	assert_string_equal(tcp_state_names[TCP_ESTABLISHED], "ESTABLISHED");
	assert_string_equal(tcp_state_names[TCP_LAST_ACK], "LAST_ACK");
	assert_true(sizeof(struct tcp_tcb) <= 64);
}

static void test_client_handshake(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;
	struct tcp_seg sa;

	(void)state;
	tcp_init_client(&t, CISS, 1460, NOW);
	assert_int_equal(t.state, TCP_SYN_SENT);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_SYN);
	assert_int_equal(o.seg[0].seq, CISS);
	assert_int_equal(o.seg[0].mss, 1460);
	assert_int_equal(o.seg[0].len, 0);
	assert_int_equal(o.nretx, 0);
	assert_int_equal(o.deadline_us, NOW + 200000);

	sa = mkseg(TCP_SYN | TCP_ACK, SISS, CISS + 1, 0);
	sa.mss = 1000;
	in(&t, sa, NOW + 50, &o);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	assert_true(o.events & TCP_EV_ESTABLISHED);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_ACK);
	assert_int_equal(o.seg[0].seq, CISS + 1);
	assert_int_equal(o.seg[0].ack, SISS + 1);
	assert_int_equal(o.seg[0].mss, 0);
	assert_int_equal(o.seg[0].win, FG_TCP_RCV_WND);
	assert_int_equal(t.mss, 1000); /* min(ours, the peer's) */
	assert_int_equal(o.deadline_us, 0);
}

static void test_client_bad_synack(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	tcp_init_client(&t, CISS, 1460, NOW);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	/* a SYN-ACK acknowledging the wrong sequence: answered by RST, ignored */
	in(&t, mkseg(TCP_SYN | TCP_ACK, SISS, CISS + 7, 0), NOW, &o);
	assert_int_equal(t.state, TCP_SYN_SENT);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_RST);
	assert_int_equal(o.seg[0].seq, CISS + 7);
	/* a SYN-ACK without MSS option: the peer's MSS is 536 */
	in(&t, mkseg(TCP_SYN | TCP_ACK, SISS, CISS + 1, 0), NOW, &o);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	assert_int_equal(t.mss, 536);
}

static void test_server_handshake(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;
	struct tcp_seg syn = mkseg(TCP_SYN, 7777, 0, 0);

	(void)state;
	syn.mss = 1200;
	tcp_init_listen(&t, SISS, 1460);
	assert_int_equal(t.state, TCP_LISTEN);
	in(&t, syn, NOW, &o);
	assert_int_equal(t.state, TCP_SYN_RCVD);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_SYN | TCP_ACK);
	assert_int_equal(o.seg[0].seq, SISS);
	assert_int_equal(o.seg[0].ack, 7778);
	assert_int_equal(o.seg[0].mss, 1460); /* ours is advertised */
	assert_int_equal(t.mss, 1200);
	assert_int_equal(o.deadline_us, NOW + 200000);
	assert_false(o.events & TCP_EV_ESTABLISHED);

	/* an ACK for the wrong sequence is answered by RST */
	in(&t, mkseg(TCP_ACK, 7778, SISS + 9, 0), NOW, &o);
	assert_int_equal(t.state, TCP_SYN_RCVD);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_RST);
	assert_int_equal(o.seg[0].seq, SISS + 9);

	in(&t, mkseg(TCP_ACK, 7778, SISS + 1, 0), NOW + 10, &o);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	assert_true(o.events & TCP_EV_ESTABLISHED);
	assert_int_equal(o.nseg, 0);
	assert_int_equal(o.deadline_us, 0);
}

/* SYN cookies: each MSS class comes back, the slot before is taken, the
 * one before that, another tuple and another key are not. */
static void test_cookie(void **state)
{
	static const struct {
		uint16_t peer, cls;
	} m[] = {{0, 536},     {100, 536},   {1219, 536},  {1220, 1220}, {1439, 1220},
		 {1440, 1440}, {1459, 1440}, {1460, 1460}, {9000, 1460}};
	const uint64_t key = 0x243f6a8885a308d3ull;

	(void)state;
	for (uint64_t tuple = 1; tuple < 2000; tuple += 7) {
		for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
			uint32_t slot = (uint32_t)(tuple * 31), iss;

			iss = tcp_cookie(tuple, key, slot, m[i].peer);
			assert_int_equal(tcp_cookie_check(iss, tuple, key, slot), m[i].cls);
			assert_int_equal(tcp_cookie_check(iss, tuple, key, slot + 1), m[i].cls);
			assert_int_equal(tcp_cookie_check(iss, tuple, key, slot + 2), 0);
			assert_int_equal(tcp_cookie_check(iss, tuple, key, slot - 1), 0);
			assert_int_equal(tcp_cookie_check(iss, tuple + 1, key, slot), 0);
			assert_int_equal(tcp_cookie_check(iss, tuple, key ^ 1, slot), 0);
			assert_int_equal(tcp_cookie_check(iss + 4, tuple, key, slot), 0);
		}
	}
	/* the slot changes the cookie, not only the check */
	assert_int_not_equal(tcp_cookie(5, key, 9, 1460), tcp_cookie(5, key, 10, 1460));
}

/*
 * A tcb made from a cookie and fed the handshake's ACK with the request
 * ends where a listener that kept its state ends, segment for segment:
 * the same events, the same answer and the same tcb.
 */
static void test_init_cookie(void **state)
{
	static const uint16_t peer[] = {536, 1220, 1440, 1460};

	(void)state;
	for (size_t i = 0; i < sizeof(peer) / sizeof(peer[0]); i++) {
		struct tcp_tcb a, b;
		struct tcp_out oa, ob;
		struct tcp_seg syn = mkseg(TCP_SYN, 7777, 0, 0), req;

		syn.mss = peer[i];
		syn.win = 4000;
		tcp_init_listen(&a, SISS, 1460);
		in(&a, syn, NOW, &oa);
		tcp_init_cookie(&b, SISS, 7777, 1460, peer[i], 4000);
		assert_int_equal(b.state, TCP_SYN_RCVD);
		assert_int_equal(b.mss, a.mss);
		assert_int_equal(b.mss_adv, 1460);

		req = mkseg(TCP_ACK | TCP_PSH, 7778, SISS + 1, 64);
		req.win = 3000;
		in(&a, req, NOW + 10, &oa);
		in(&b, req, NOW + 10, &ob);
		assert_int_equal(b.state, TCP_ESTABLISHED);
		assert_int_equal(ob.events, oa.events);
		assert_true(ob.events & TCP_EV_ESTABLISHED);
		assert_true(ob.events & TCP_EV_DATA);
		assert_int_equal(ob.data_len, 64);
		assert_int_equal(tcp_rcvd(&b), 64);

		/* the answer: 512 bytes and the FIN, as the listener's */
		assert_int_equal(tcp_app_send(&a, 512), 0);
		assert_int_equal(tcp_app_send(&b, 512), 0);
		assert_int_equal(tcp_app_close(&a), 0);
		assert_int_equal(tcp_app_close(&b), 0);
		tcp_output(&a, NOW + 20, &oa);
		tcp_output(&b, NOW + 20, &ob);
		assert_int_equal(ob.nseg, oa.nseg);
		for (unsigned j = 0; j < ob.nseg; j++)
			assert_memory_equal(&ob.seg[j], &oa.seg[j], sizeof(ob.seg[j]));
		assert_int_equal(ob.seg[ob.nseg - 1].flags & TCP_FIN, TCP_FIN);
		assert_memory_equal(&b, &a, sizeof(a));
	}
}

static void test_listen_ignores_and_resets(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	tcp_init_listen(&t, SISS, 1460);
	in(&t, mkseg(TCP_ACK, 5, 77, 0), NOW, &o);
	assert_int_equal(t.state, TCP_LISTEN);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_RST);
	assert_int_equal(o.seg[0].seq, 77);
	in(&t, mkseg(TCP_RST, 5, 0, 0), NOW, &o);
	assert_int_equal(o.nseg, 0);
	assert_int_equal(t.state, TCP_LISTEN);
}

static void test_closed_answers_rst(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	tcp_init_listen(&t, SISS, 1460);
	assert_int_equal(tcp_app_close(&t), 0);
	assert_true(tcp_is_closed(&t));
	in(&t, mkseg(TCP_ACK | TCP_FIN, 10, 20, 0), NOW, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_RST);
	assert_int_equal(o.seg[0].seq, 20);
	in(&t, mkseg(TCP_RST | TCP_ACK, 10, 20, 0), NOW, &o);
	assert_int_equal(o.nseg, 0);
	assert_int_equal(tcp_app_send(&t, 5), -EPIPE);
	assert_int_equal(tcp_app_close(&t), -EPIPE);
}

static void test_make_rst(void **state)
{
	struct tcp_seg_out r;
	struct tcp_seg s = mkseg(TCP_ACK | TCP_PSH, 100, 4242, 30);

	(void)state;
	assert_int_equal(tcp_make_rst(&s, &r), 0);
	assert_int_equal(r.flags, TCP_RST);
	assert_int_equal(r.seq, 4242);
	assert_int_equal(r.len, 0);
	s = mkseg(TCP_SYN, 0xffffffffu, 0, 0);
	assert_int_equal(tcp_make_rst(&s, &r), 0);
	assert_int_equal(r.flags, TCP_RST | TCP_ACK);
	assert_int_equal(r.seq, 0);
	assert_int_equal(r.ack, 0); /* seq + 1 wraps */
	s = mkseg(TCP_FIN, 10, 0, 5);
	assert_int_equal(tcp_make_rst(&s, &r), 0);
	assert_int_equal(r.ack, 16);
	s = mkseg(TCP_RST, 10, 0, 0);
	assert_int_equal(tcp_make_rst(&s, &r), -EINVAL);
}

static void test_data_segmented_by_mss(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	est_client(&t, CISS, SISS, 1000);
	assert_int_equal(tcp_app_send(&t, 3500), 0);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(o.seg[i].seq, CISS + 1 + 1000 * i);
		assert_int_equal(o.seg[i].off, 1000 * i);
		assert_int_equal(o.seg[i].len, i < 3 ? 1000 : 500);
		assert_int_equal(o.seg[i].ack, SISS + 1);
		assert_true(o.seg[i].flags & TCP_ACK);
		assert_false(o.seg[i].flags & TCP_FIN);
	}
	assert_true(o.seg[3].flags & TCP_PSH);
	assert_false(o.seg[0].flags & TCP_PSH);
	assert_int_equal(o.nretx, 0);
	assert_int_equal(o.deadline_us, NOW + 200000);
	/* nothing more to send */
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 0);
}

static void test_peer_window_respected(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;
	struct tcp_seg a;

	(void)state;
	est_client(&t, CISS, SISS, 1000);
	t.snd_wnd = 2500;
	tcp_app_send(&t, 5000);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 3);
	assert_int_equal(o.seg[2].len, 500);
	/* the ACK of the first segment with the same window opens 1000 bytes */
	a = mkseg(TCP_ACK, SISS + 1, CISS + 1 + 1000, 0);
	a.win = 2500;
	in(&t, a, NOW + 10, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].seq, CISS + 1 + 2500);
	assert_int_equal(o.seg[0].len, 1000);
	assert_int_equal(o.seg[0].off, 2500);
}

static void test_cumulative_ack(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	est_client(&t, CISS, SISS, 1000);
	tcp_app_send(&t, 3000);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 3);
	/* one ACK covers the first two segments; the timer restarts */
	in(&t, mkseg(TCP_ACK, SISS + 1, CISS + 1 + 2000, 0), NOW + 500, &o);
	assert_int_equal(t.snd_una, CISS + 1 + 2000);
	assert_int_equal(tcp_acked(&t), 2000);
	assert_int_equal(o.deadline_us, NOW + 500 + 200000);
	assert_int_equal(o.nseg, 0); /* a pure ACK is not acknowledged */
	/* an old ACK changes nothing */
	in(&t, mkseg(TCP_ACK, SISS + 1, CISS + 1 + 1000, 0), NOW + 600, &o);
	assert_int_equal(t.snd_una, CISS + 1 + 2000);
	/* an ACK for data never sent is answered and dropped */
	in(&t, mkseg(TCP_ACK, SISS + 1, CISS + 1 + 9000, 0), NOW + 700, &o);
	assert_int_equal(t.snd_una, CISS + 1 + 2000);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_ACK);
	/* all acknowledged: no timer */
	in(&t, mkseg(TCP_ACK, SISS + 1, CISS + 1 + 3000, 0), NOW + 800, &o);
	assert_int_equal(tcp_acked(&t), 3000);
	assert_int_equal(o.deadline_us, 0);
}

/*
 * An idle connection parks in 12 bytes and comes back as it was (but for
 * the restart window, RFC 5681 4.1, and the peer's window, one segment
 * until its next ACK): a client that sent and got acked, a server that
 * received; one with anything outstanding does not park, nor one whose
 * MSS the peer lowered, nor one past 64 KiB either way.
 */
static void test_park(void **state)
{
	struct tcp_tcb t, u;
	struct tcp_idle i, keep;
	struct tcp_out o;

	(void)state;
	est_client(&t, CISS, SISS, 1000);
	assert_true(tcp_park(&t, 1000, &i));
	assert_false(tcp_park(&t, 1460, &i)); /* the peer's MSS was lower */
	tcp_app_send(&t, 1500);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 2);
	memset(&keep, 0x5a, sizeof(keep));
	i = keep;
	assert_false(tcp_park(&t, 1000, &i)); /* data in flight */
	assert_memory_equal(&i, &keep, sizeof(i));
	in(&t, mkseg(TCP_ACK, SISS + 1, CISS + 1 + 1000, 0), NOW + 100, &o);
	assert_false(tcp_park(&t, 1000, &i)); /* half of it */
	in(&t, mkseg(TCP_ACK | TCP_PSH, SISS + 1, CISS + 1 + 1500, 7), NOW + 200, &o);
	assert_int_equal(o.deadline_us, 0);
	assert_true(tcp_park(&t, 1000, &i));
	tcp_unpark(&i, 1000, &u);
	assert_int_equal(u.state, TCP_ESTABLISHED);
	assert_int_equal(u.iss, CISS);
	assert_int_equal(u.irs, SISS);
	assert_int_equal(u.snd_una, t.snd_una);
	assert_int_equal(u.snd_nxt, t.snd_nxt);
	assert_int_equal(u.snd_max, t.snd_max);
	assert_int_equal(u.snd_end, t.snd_end);
	assert_int_equal(u.rcv_nxt, t.rcv_nxt);
	assert_int_equal(tcp_rcvd(&u), 7);
	assert_int_equal(tcp_acked(&u), 1500);
	assert_int_equal(u.snd_wnd, 1000);
	assert_int_equal(u.mss, 1000);
	assert_int_equal(u.cwnd, FG_TCP_CWND_INIT);
	assert_int_equal(u.deadline_us, 0);
	/* it goes on where it was: the next byte and its ACK */
	tcp_app_send(&u, 1);
	tcp_out_reset(&o);
	tcp_output(&u, NOW + 300, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].seq, CISS + 1 + 1500);
	assert_int_equal(o.seg[0].ack, SISS + 1 + 7);
	assert_int_equal(o.seg[0].off, 1500);
	assert_int_equal(o.seg[0].len, 1);
	/* the peer's ACK gives its window back */
	in(&u, mkseg(TCP_ACK, SISS + 1 + 7, CISS + 1 + 1501, 0), NOW + 400, &o);
	assert_int_equal(u.snd_wnd, 65535);
	/* a server that received a byte parks; a timed-out one does not */
	est_server(&t, SISS, CISS, 1000);
	in(&t, mkseg(TCP_ACK | TCP_PSH, CISS + 1, SISS + 1, 1), NOW, &o);
	assert_true(tcp_park(&t, 1000, &i));
	tcp_unpark(&i, 1000, &u);
	assert_int_equal(tcp_rcvd(&u), 1);
	assert_int_equal(u.iss, SISS);
	t.retries = 1;
	assert_false(tcp_park(&t, 1000, &i));
	t.retries = 0;
	t.cwnd = 1; /* collapsed after a timeout: kept whole */
	assert_false(tcp_park(&t, 1000, &i));
	t.cwnd = FG_TCP_CWND_INIT;
	t.snd_wnd = 999; /* a window short of a segment */
	assert_false(tcp_park(&t, 1000, &i));
	t.snd_wnd = 65535;
	t.rcv_nxt = t.irs + 1 + 65535; /* 64 KiB less a byte received: parks */
	assert_true(tcp_park(&t, 1000, &i));
	tcp_unpark(&i, 1000, &u);
	assert_int_equal(tcp_rcvd(&u), 65535);
	t.rcv_nxt++; /* 64 KiB: kept whole */
	assert_false(tcp_park(&t, 1000, &i));
	t.rcv_nxt = t.irs + 2;
	tcp_app_close(&t);
	assert_false(tcp_park(&t, 1000, &i));
	/* nor a handshake under way */
	tcp_init_client(&t, CISS, 1000, NOW);
	assert_false(tcp_park(&t, 1000, &i));
	assert_int_equal(sizeof(struct tcp_idle), 12);
}

static void test_receive_data(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;
	uint32_t r = SISS + 1; /* the peer's first data byte */

	(void)state;
	est_client(&t, CISS, SISS, 1460);
	in(&t, mkseg(TCP_ACK, r, CISS + 1, 100), NOW, &o);
	assert_true(o.events & TCP_EV_DATA);
	assert_int_equal(o.data_off, 0);
	assert_int_equal(o.data_len, 100);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].ack, r + 100);
	assert_int_equal(tcp_rcvd(&t), 100);
	assert_int_equal(tcp_rcv_off(&t, r + 100), 100);

	/* out of order: dropped, duplicate ACK */
	in(&t, mkseg(TCP_ACK, r + 200, CISS + 1, 100), NOW, &o);
	assert_false(o.events & TCP_EV_DATA);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].ack, r + 100);
	assert_int_equal(tcp_rcvd(&t), 100);

	/* a complete retransmission of old data: ACK only */
	in(&t, mkseg(TCP_ACK, r, CISS + 1, 100), NOW, &o);
	assert_false(o.events & TCP_EV_DATA);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].ack, r + 100);

	/* partial overlap: only the new 50 bytes count */
	in(&t, mkseg(TCP_ACK, r + 50, CISS + 1, 100), NOW, &o);
	assert_true(o.events & TCP_EV_DATA);
	assert_int_equal(o.data_off, 100);
	assert_int_equal(o.data_len, 50);
	assert_int_equal(o.seg[0].ack, r + 150);
	assert_int_equal(tcp_rcvd(&t), 150);

	/* data without ACK flag is dropped */
	in(&t, mkseg(0, r + 150, 0, 10), NOW, &o);
	assert_false(o.events & TCP_EV_DATA);
	assert_int_equal(tcp_rcvd(&t), 150);
}

static void test_out_of_window(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;
	uint32_t r = SISS + 1;

	(void)state;
	est_client(&t, CISS, SISS, 1460);
	/* far beyond the receive window */
	in(&t, mkseg(TCP_ACK, r + 100000, CISS + 1, 10), NOW, &o);
	assert_false(o.events & TCP_EV_DATA);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_ACK);
	assert_int_equal(o.seg[0].ack, r);
	/* a FIN out of window does not close */
	in(&t, mkseg(TCP_ACK | TCP_FIN, r + 70000, CISS + 1, 0), NOW, &o);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	assert_int_equal(o.nseg, 1);
	/* an old pure ACK (seq below rcv_nxt) is answered too */
	in(&t, mkseg(TCP_ACK, r - 5, CISS + 1, 0), NOW, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(t.state, TCP_ESTABLISHED);
}

static void test_piggyback(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	est_server(&t, SISS, CISS, 1460);
	in(&t, mkseg(TCP_ACK | TCP_PSH, CISS + 1, SISS + 1, 64), NOW, &o);
	assert_int_equal(o.data_len, 64);
	assert_int_equal(o.nseg, 1); /* the pure ACK */
	tcp_app_send(&t, 512);
	tcp_app_close(&t);
	tcp_output(&t, NOW, &o); /* same out: the ACK rides on the data */
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_ACK | TCP_PSH | TCP_FIN);
	assert_int_equal(o.seg[0].ack, CISS + 1 + 64);
	assert_int_equal(o.seg[0].len, 512);
	assert_int_equal(o.seg[0].seq, SISS + 1);
	assert_int_equal(t.state, TCP_FIN_WAIT_1);
}

static void test_syn_retransmit_backoff_and_limit(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;
	static const uint32_t rto_ms[] = {400, 800, 1600, 3000, 3000};
	uint64_t now = NOW;

	(void)state;
	tcp_init_client(&t, CISS, 1460, now);
	tcp_out_reset(&o);
	tcp_output(&t, now, &o);
	assert_int_equal(o.deadline_us, now + 200000);
	/* too early: nothing */
	tcp_out_reset(&o);
	tcp_timer(&t, now + 199999, &o);
	assert_int_equal(o.nseg, 0);
	now += 200000;
	for (unsigned i = 0; i < FG_TCP_RETRIES_MAX; i++) {
		tcp_out_reset(&o);
		tcp_timer(&t, now, &o);
		assert_int_equal(o.nseg, 1);
		assert_int_equal(o.seg[0].flags, TCP_SYN);
		assert_int_equal(o.seg[0].seq, CISS);
		assert_int_equal(o.seg[0].mss, 1460);
		assert_int_equal(o.nretx, 1);
		assert_int_equal(o.deadline_us, now + rto_ms[i] * 1000ull);
		now = o.deadline_us;
	}
	tcp_out_reset(&o);
	tcp_timer(&t, now, &o);
	assert_true(o.events & TCP_EV_FAIL_RETX);
	assert_int_equal(o.nseg, 0);
	assert_true(tcp_is_closed(&t));
	assert_int_equal(o.deadline_us, 0);
}

static void test_scheduled_syn(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	tcp_init_client(&t, CISS, 1460, NOW + 5000);
	tcp_out_reset(&o);
	tcp_timer(&t, NOW, &o);
	assert_int_equal(o.nseg, 0);
	assert_int_equal(o.deadline_us, NOW + 5000);
	tcp_timer(&t, NOW + 5000, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_SYN);
	assert_int_equal(o.nretx, 0);
	assert_int_equal(t.retries, 0);
}

static void test_data_retransmit(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	est_client(&t, CISS, SISS, 1000);
	tcp_app_send(&t, 3000);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 3);
	/* all lost: the timeout resends the oldest segment only */
	tcp_out_reset(&o);
	tcp_timer(&t, NOW + 200000, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].seq, CISS + 1);
	assert_int_equal(o.seg[0].off, 0);
	assert_int_equal(o.seg[0].len, 1000);
	assert_int_equal(o.nretx, 1);
	assert_int_equal(o.deadline_us, NOW + 200000 + 400000);
	/* its ACK restores the RTO and lets the rest go (also retransmissions) */
	in(&t, mkseg(TCP_ACK, SISS + 1, CISS + 1001, 0), NOW + 200100, &o);
	assert_int_equal(t.retries, 0);
	assert_int_equal(tcp_rto_ms(&t), 200);
	assert_int_equal(o.nseg, 2);
	assert_int_equal(o.seg[0].seq, CISS + 1001);
	assert_int_equal(o.seg[1].seq, CISS + 2001);
	assert_int_equal(o.nretx, 2);
	assert_int_equal(o.deadline_us, NOW + 200100 + 200000);
}

static void test_fast_retransmit(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;
	struct tcp_seg dup = mkseg(TCP_ACK, SISS + 1, CISS + 1001, 0);

	(void)state;
	est_client(&t, CISS, SISS, 1000);
	tcp_app_send(&t, 5000);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 5);
	in(&t, dup, NOW + 10, &o); /* new ACK: first segment */
	for (int i = 0; i < 2; i++) {
		in(&t, dup, NOW + 20, &o);
		assert_int_equal(o.nseg, 0);
	}
	in(&t, dup, NOW + 30, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].seq, CISS + 1001);
	assert_int_equal(o.seg[0].len, 1000);
	assert_int_equal(o.nretx, 1);
}

static void test_zero_window_probe(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;
	struct tcp_seg a;

	(void)state;
	est_client(&t, CISS, SISS, 1000);
	t.snd_wnd = 0;
	tcp_app_send(&t, 2000);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 0);
	assert_int_equal(o.deadline_us, NOW + 200000); /* persist */
	tcp_out_reset(&o);
	tcp_timer(&t, NOW + 200000, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].len, 1);
	/* the window opens */
	a = mkseg(TCP_ACK, SISS + 1, CISS + 2, 0);
	a.win = 65535;
	in(&t, a, NOW + 200100, &o);
	assert_int_equal(o.nseg, 2);
	assert_int_equal(o.seg[0].seq, CISS + 2);
	assert_int_equal(o.seg[0].len, 1000);
	assert_int_equal(o.seg[1].len, 999);
}

static void test_output_more(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;
	uint32_t total = 0;

	(void)state;
	est_client(&t, CISS, SISS, 100);
	tcp_app_send(&t, 100 * (FG_TCP_CWND_INIT + 1));
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, FG_TCP_CWND_INIT); /* initial congestion window */
	assert_false(o.more);
	t.cwnd = 100;
	tcp_app_send(&t, 100 * 30);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, FG_TCP_OUT_MAX);
	assert_true(o.more);
	for (int i = 0; i < o.nseg; i++)
		total += o.seg[i].len;
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	for (int i = 0; i < o.nseg; i++)
		total += o.seg[i].len;
	assert_false(o.more);
	assert_int_equal(total, 100 * 31); /* the one left behind + 30 more */
}

static void test_fin_from_client(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	est_client(&t, CISS, SISS, 1460);
	tcp_app_send(&t, 10);
	assert_int_equal(tcp_app_close(&t), 0);
	assert_int_equal(tcp_app_send(&t, 10), -EPIPE);
	assert_int_equal(t.state, TCP_FIN_WAIT_1);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_ACK | TCP_PSH | TCP_FIN);
	assert_int_equal(o.seg[0].len, 10);
	/* FIN acked */
	in(&t, mkseg(TCP_ACK, SISS + 1, CISS + 12, 0), NOW, &o);
	assert_int_equal(t.state, TCP_FIN_WAIT_2);
	assert_int_equal(tcp_acked(&t), 10);
	assert_int_equal(o.deadline_us, 0);
	/* data still flows in FIN_WAIT_2, then the peer's FIN ends it */
	in(&t, mkseg(TCP_ACK, SISS + 1, CISS + 12, 20), NOW, &o);
	assert_int_equal(o.data_len, 20);
	in(&t, mkseg(TCP_ACK | TCP_FIN, SISS + 21, CISS + 12, 0), NOW, &o);
	assert_true(o.events & TCP_EV_PEER_FIN);
	assert_true(o.events & TCP_EV_CLOSED);
	assert_true(tcp_is_closed(&t));
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_ACK);
	assert_int_equal(o.seg[0].ack, SISS + 22);
	assert_int_equal(tcp_rcvd(&t), 20);
}

static void test_fin_with_data_ack_in_one(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	/* FIN_WAIT_1: one segment acks our FIN and carries data and the FIN */
	est_client(&t, CISS, SISS, 1460);
	tcp_app_close(&t);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.seg[0].flags, TCP_ACK | TCP_FIN);
	in(&t, mkseg(TCP_ACK | TCP_FIN, SISS + 1, CISS + 2, 30), NOW, &o);
	assert_int_equal(o.data_len, 30);
	assert_true(o.events & TCP_EV_CLOSED);
	assert_int_equal(o.seg[0].ack, SISS + 32);
}

static void test_fin_from_server(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	est_client(&t, CISS, SISS, 1460);
	in(&t, mkseg(TCP_ACK | TCP_FIN | TCP_PSH, SISS + 1, CISS + 1, 512), NOW, &o);
	assert_int_equal(o.data_len, 512);
	assert_true(o.events & TCP_EV_PEER_FIN);
	assert_int_equal(t.state, TCP_CLOSE_WAIT);
	assert_int_equal(o.seg[0].ack, SISS + 514);
	/* we may still send in CLOSE_WAIT */
	tcp_app_send(&t, 5);
	tcp_app_close(&t);
	assert_int_equal(t.state, TCP_LAST_ACK);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_ACK | TCP_PSH | TCP_FIN);
	/* the peer's retransmitted FIN is re-acknowledged */
	in(&t, mkseg(TCP_ACK | TCP_FIN, SISS + 1, CISS + 1, 512), NOW, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].ack, SISS + 514);
	assert_int_equal(t.state, TCP_LAST_ACK);
	/* the ACK of our FIN: closed */
	in(&t, mkseg(TCP_ACK, SISS + 514, CISS + 7, 0), NOW, &o);
	assert_true(o.events & TCP_EV_CLOSED);
	assert_true(tcp_is_closed(&t));
	assert_int_equal(o.nseg, 0);
	assert_int_equal(tcp_rcvd(&t), 512);
	assert_int_equal(tcp_acked(&t), 5);
}

static void test_simultaneous_close(void **state)
{
	struct tcp_tcb c, s;
	struct tcp_out oc, os, o;

	(void)state;
	est_client(&c, CISS, SISS, 1460);
	est_server(&s, SISS, CISS, 1460);
	tcp_app_close(&c);
	tcp_app_close(&s);
	tcp_out_reset(&oc);
	tcp_output(&c, NOW, &oc);
	tcp_out_reset(&os);
	tcp_output(&s, NOW, &os);
	assert_int_equal(oc.seg[0].flags, TCP_ACK | TCP_FIN);
	assert_int_equal(os.seg[0].flags, TCP_ACK | TCP_FIN);
	/* the FINs cross */
	in(&c,
	   (struct tcp_seg){
	       .seq = os.seg[0].seq, .ack = os.seg[0].ack, .win = 65535, .flags = os.seg[0].flags},
	   NOW, &o);
	assert_int_equal(c.state, TCP_CLOSING);
	assert_true(o.events & TCP_EV_PEER_FIN);
	struct tcp_seg_out ackc = o.seg[0];
	in(&s,
	   (struct tcp_seg){
	       .seq = oc.seg[0].seq, .ack = oc.seg[0].ack, .win = 65535, .flags = oc.seg[0].flags},
	   NOW, &o);
	assert_int_equal(s.state, TCP_CLOSING);
	struct tcp_seg_out acks = o.seg[0];
	assert_int_equal(acks.flags, TCP_ACK);
	/* each ACK of a FIN closes its receiver */
	in(&c,
	   (struct tcp_seg){.seq = acks.seq, .ack = acks.ack, .win = 65535, .flags = acks.flags},
	   NOW, &o);
	assert_true(o.events & TCP_EV_CLOSED);
	assert_true(tcp_is_closed(&c));
	in(&s,
	   (struct tcp_seg){.seq = ackc.seq, .ack = ackc.ack, .win = 65535, .flags = ackc.flags},
	   NOW, &o);
	assert_true(o.events & TCP_EV_CLOSED);
	assert_true(tcp_is_closed(&s));
}

static void test_closing_fin_retransmit(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	est_client(&t, CISS, SISS, 1460);
	tcp_app_close(&t);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	in(&t, mkseg(TCP_ACK | TCP_FIN, SISS + 1, CISS + 1, 0), NOW, &o);
	assert_int_equal(t.state, TCP_CLOSING);
	tcp_out_reset(&o);
	tcp_timer(&t, NOW + 200000, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_ACK | TCP_FIN);
	assert_int_equal(o.seg[0].seq, CISS + 1);
	assert_int_equal(o.nretx, 1);
}

/* Bring a tcb to the given state with well-formed segments. */
static void to_state(struct tcp_tcb *t, enum tcp_state st)
{
	struct tcp_out o;

	switch (st) {
	case TCP_SYN_RCVD: {
		struct tcp_seg syn = mkseg(TCP_SYN, SISS, 0, 0);

		tcp_init_listen(t, CISS, 1460);
		in(t, syn, NOW, &o);
		break;
	}
	case TCP_ESTABLISHED:
		est_client(t, CISS, SISS, 1460);
		break;
	case TCP_FIN_WAIT_1:
	case TCP_FIN_WAIT_2:
	case TCP_CLOSING:
		est_client(t, CISS, SISS, 1460);
		tcp_app_close(t);
		tcp_out_reset(&o);
		tcp_output(t, NOW, &o);
		if (st == TCP_FIN_WAIT_2)
			in(t, mkseg(TCP_ACK, SISS + 1, CISS + 2, 0), NOW, &o);
		if (st == TCP_CLOSING)
			in(t, mkseg(TCP_ACK | TCP_FIN, SISS + 1, CISS + 1, 0), NOW, &o);
		break;
	case TCP_CLOSE_WAIT:
	case TCP_LAST_ACK:
		est_client(t, CISS, SISS, 1460);
		in(t, mkseg(TCP_ACK | TCP_FIN, SISS + 1, CISS + 1, 0), NOW, &o);
		if (st == TCP_LAST_ACK) {
			tcp_app_close(t);
			tcp_out_reset(&o);
			tcp_output(t, NOW, &o);
		}
		break;
	default:
		fail();
	}
	assert_int_equal(t->state, st);
}

static void test_rst_each_state(void **state)
{
	static const enum tcp_state states[] = {
	    TCP_SYN_RCVD, TCP_ESTABLISHED, TCP_FIN_WAIT_1, TCP_FIN_WAIT_2,
	    TCP_CLOSING,  TCP_CLOSE_WAIT,  TCP_LAST_ACK,
	};

	(void)state;
	for (unsigned i = 0; i < FG_ARRAY_SIZE(states); i++) {
		struct tcp_tcb t;
		struct tcp_out o;
		uint32_t rn;
		uint16_t ev;

		/* out of window: ignored, no answer */
		to_state(&t, states[i]);
		rn = t.rcv_nxt;
		in(&t, mkseg(TCP_RST, rn + 100000, 0, 0), NOW, &o);
		assert_int_equal(t.state, states[i]);
		assert_int_equal(o.nseg, 0);
		in(&t, mkseg(TCP_RST | TCP_ACK, rn - 1, CISS + 1, 0), NOW, &o);
		assert_int_equal(t.state, states[i]);
		assert_int_equal(o.nseg, 0);
		/* in window but not exact: challenge ACK, no reset */
		in(&t, mkseg(TCP_RST, rn + 10, 0, 0), NOW, &o);
		assert_int_equal(t.state, states[i]);
		assert_int_equal(o.nseg, 1);
		assert_int_equal(o.seg[0].flags, TCP_ACK);
		assert_int_equal(o.seg[0].ack, rn);
		/* exact: accepted */
		in(&t, mkseg(TCP_RST, rn, 0, 0), NOW, &o);
		assert_true(tcp_is_closed(&t));
		assert_int_equal(o.nseg, 0);
		assert_int_equal(o.deadline_us, 0);
		/* both FINs were exchanged: the peer simply forgot the connection */
		ev = states[i] == TCP_CLOSING || states[i] == TCP_LAST_ACK ? TCP_EV_CLOSED
									   : TCP_EV_RESET;
		assert_int_equal(o.events, ev);
	}
}

static void test_rst_syn_sent(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	tcp_init_client(&t, CISS, 1460, NOW);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	/* without ACK, or acknowledging something else: ignored */
	in(&t, mkseg(TCP_RST, 0, 0, 0), NOW, &o);
	assert_int_equal(t.state, TCP_SYN_SENT);
	assert_int_equal(o.nseg, 0);
	in(&t, mkseg(TCP_RST | TCP_ACK, 0, CISS + 5, 0), NOW, &o);
	assert_int_equal(t.state, TCP_SYN_SENT);
	assert_int_equal(o.nseg, 0);
	/* connection refused */
	in(&t, mkseg(TCP_RST | TCP_ACK, 0, CISS + 1, 0), NOW, &o);
	assert_true(tcp_is_closed(&t));
	assert_int_equal(o.events, TCP_EV_RESET);
}

static void test_duplicate_syn(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;
	struct tcp_seg syn = mkseg(TCP_SYN, 7777, 0, 0);

	(void)state;
	tcp_init_listen(&t, SISS, 1460);
	in(&t, syn, NOW, &o);
	assert_int_equal(o.nretx, 0);
	/* the client did not get the SYN-ACK: same SYN again */
	in(&t, syn, NOW + 1000, &o);
	assert_int_equal(t.state, TCP_SYN_RCVD);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_SYN | TCP_ACK);
	assert_int_equal(o.seg[0].seq, SISS);
	assert_int_equal(o.seg[0].ack, 7778);
	assert_int_equal(o.nretx, 1);
	/* a SYN in ESTABLISHED: challenge ACK, state kept */
	in(&t, mkseg(TCP_ACK, 7778, SISS + 1, 0), NOW, &o);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	in(&t, mkseg(TCP_SYN, 123456, 0, 0), NOW, &o);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_ACK);
	assert_int_equal(o.seg[0].ack, 7778);
}

static void test_lost_synack_and_retransmitted_synack(void **state)
{
	struct tcp_tcb c, s;
	struct tcp_out o;
	struct tcp_seg syn;

	(void)state;
	tcp_init_client(&c, CISS, 1460, NOW);
	tcp_init_listen(&s, SISS, 1460);
	tcp_out_reset(&o);
	tcp_output(&c, NOW, &o);
	syn = (struct tcp_seg){.seq = o.seg[0].seq, .win = 65535, .mss = 1460, .flags = TCP_SYN};
	in(&s, syn, NOW, &o); /* SYN-ACK lost */
	/* the server retransmits its SYN-ACK on its own timer */
	tcp_out_reset(&o);
	tcp_timer(&s, NOW + 200000, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_SYN | TCP_ACK);
	assert_int_equal(o.nretx, 1); /* lost again */
	/* the client retransmits its SYN, the server answers with the SYN-ACK */
	tcp_out_reset(&o);
	tcp_timer(&c, NOW + 200000, &o);
	assert_int_equal(o.seg[0].flags, TCP_SYN);
	in(&s, syn, NOW + 200010, &o);
	struct tcp_seg_out sa = o.seg[0];
	assert_int_equal(sa.flags, TCP_SYN | TCP_ACK);
	in(&c,
	   (struct tcp_seg){
	       .seq = sa.seq, .ack = sa.ack, .win = 65535, .mss = sa.mss, .flags = sa.flags},
	   NOW + 200020, &o);
	assert_int_equal(c.state, TCP_ESTABLISHED);
	/* our ACK was lost: the SYN-ACK again is re-acknowledged */
	in(&c,
	   (struct tcp_seg){
	       .seq = sa.seq, .ack = sa.ack, .win = 65535, .mss = sa.mss, .flags = sa.flags},
	   NOW + 200030, &o);
	assert_int_equal(c.state, TCP_ESTABLISHED);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_ACK);
	assert_int_equal(o.seg[0].ack, SISS + 1);
	in(&s,
	   (struct tcp_seg){
	       .seq = o.seg[0].seq, .ack = o.seg[0].ack, .win = 65535, .flags = o.seg[0].flags},
	   NOW + 200040, &o);
	assert_int_equal(s.state, TCP_ESTABLISHED);
}

/* No simultaneous open: a bare SYN in SYN_SENT (a forged one, since the
 * client's peers are listeners) is dropped, and the real SYN-ACK that
 * follows still completes the handshake. */
static void test_simultaneous_open(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	tcp_init_client(&t, CISS, 1460, NOW);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	in(&t, mkseg(TCP_SYN, 0x12345678, 0, 0), NOW, &o);
	assert_int_equal(t.state, TCP_SYN_SENT);
	assert_int_equal(o.nseg, 0);
	in(&t, mkseg(TCP_SYN | TCP_ACK, SISS, CISS + 1, 0), NOW, &o);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	assert_int_equal(o.seg[0].flags, TCP_ACK);
	assert_int_equal(o.seg[0].ack, SISS + 1);
}

static void test_payload_pattern(void **state)
{
	uint8_t buf[600];

	(void)state;
	tcp_payload_fill(buf, 0xffffff00u, sizeof(buf));
	assert_true(tcp_payload_check(buf, 0xffffff00u, sizeof(buf)));
	assert_false(tcp_payload_check(buf, 0xffffff01u, sizeof(buf)));
	/* a shift by 256 bytes is visible */
	assert_false(tcp_payload_check(buf + 256, 0xffffff00u, 300));
	assert_true(tcp_payload_check(buf + 256, 0xffffff00u + 256, 300));
	/* the block-wise check against the byte rule, (off + (off >> 8)) mod
	 * 256: at offsets across block and wrap edges, a run holds, and a
	 * single wrong byte anywhere in it (first, block edge, last) fails */
	for (uint32_t k = 0; k < 40; k++) {
		uint32_t off = 0xfffffe00u + k * 97, len = 1 + (k * 131) % 599;
		const uint32_t at[3] = {0, (256 - (off & 255)) % len, len - 1};

		for (uint32_t i = 0; i < len; i++)
			buf[i] = (uint8_t)((off + i) + ((off + i) >> 8));
		assert_true(tcp_payload_check(buf, off, len));
		for (int a = 0; a < 3; a++) {
			buf[at[a]] ^= 0x40;
			assert_false(tcp_payload_check(buf, off, len));
			buf[at[a]] ^= 0x40;
		}
	}
}

/*
 * The data check: new in-order data must be the peer's stream at its
 * offset; a duplicate, a segment beyond rcv_nxt, junk with a random
 * sequence number or data before the handshake is left to tcp_input().
 */
static void test_data_ok(void **state)
{
	struct tcp_tcb t;
	uint8_t buf[400];
	struct tcp_seg s;

	(void)state;
	est_client(&t, CISS, SISS, 1460);
	tcp_payload_fill(buf, 0, sizeof(buf));
	s = mkseg(TCP_ACK, SISS + 1, CISS + 1, 300);
	assert_true(tcp_data_ok(&t, &s, buf));
	buf[299] ^= 1; /* the last byte wrong */
	assert_false(tcp_data_ok(&t, &s, buf));
	buf[299] ^= 1;
	/* a part overlapping what came before: checked at its own offset */
	t.rcv_nxt = SISS + 1 + 100;
	s = mkseg(TCP_ACK | TCP_PSH, SISS + 1 + 50, CISS + 1, 200);
	assert_true(tcp_data_ok(&t, &s, buf + 50));
	assert_false(tcp_data_ok(&t, &s, buf)); /* shifted by 50 */
	/* a duplicate (ends at rcv_nxt), beyond rcv_nxt, random junk: not ours to judge */
	s = mkseg(TCP_ACK, SISS + 1, CISS + 1, 100);
	assert_true(tcp_data_ok(&t, &s, buf + 7));
	s = mkseg(TCP_ACK, SISS + 1 + 150, CISS + 1, 100);
	assert_true(tcp_data_ok(&t, &s, buf));
	s = mkseg(TCP_ACK, SISS + 0x40000000u, CISS + 1, 100);
	assert_true(tcp_data_ok(&t, &s, buf + 3));
	/* RST or SYN, no data, or a state that takes no data */
	s = mkseg(TCP_RST | TCP_ACK, SISS + 1 + 100, CISS + 1, 50);
	assert_true(tcp_data_ok(&t, &s, buf));
	s = mkseg(TCP_ACK, SISS + 1 + 100, CISS + 1, 0);
	assert_true(tcp_data_ok(&t, &s, buf));
	t.state = TCP_CLOSE_WAIT;
	s = mkseg(TCP_ACK, SISS + 1 + 100, CISS + 1, 50);
	assert_true(tcp_data_ok(&t, &s, buf));
	t.state = TCP_FIN_WAIT_2;
	assert_false(tcp_data_ok(&t, &s, buf));
	assert_true(tcp_data_ok(&t, &s, buf + 100));
}

/*
 * Whose server (flowpay.h): the client decides on the first data that
 * tcp_data_new() takes, at stream offset 0, once the handshake is done.
 * A flowgen server's first segment is the pattern (one corrupt byte still
 * reads as flowgen's, and fails the check); a Linux server's zeros or text
 * are not; a first segment shorter than 8 bytes is judged on what it has.
 */
static void test_data_new_first_segment(void **state)
{
	struct tcp_tcb t;
	struct tcp_seg s;
	uint8_t buf[512];

	(void)state;
	/* before the handshake nothing is taken, so nothing decides */
	tcp_init_client(&t, CISS, 1460, NOW);
	s = mkseg(TCP_ACK, SISS + 1, CISS + 1, 100);
	assert_false(tcp_data_new(&t, &s));
	est_client(&t, CISS, SISS, 1460);
	/* the first data: new, in order, at offset 0 */
	s = mkseg(TCP_ACK | TCP_PSH, SISS + 1, CISS + 1, 512);
	assert_true(tcp_data_new(&t, &s));
	assert_int_equal(tcp_rcv_off(&t, s.seq), 0);
	tcp_payload_fill(buf, 0, sizeof(buf));
	assert_true(flowpay_tcp_ours(buf, tcp_rcv_off(&t, s.seq), s.len));
	assert_true(tcp_data_ok(&t, &s, buf));
	buf[2] ^= 0x08;
	assert_true(flowpay_tcp_ours(buf, 0, s.len));
	assert_false(tcp_data_ok(&t, &s, buf));
	/* test/data/flows_tcp_srv.py's 512 zero bytes, a text answer */
	memset(buf, 0, sizeof(buf));
	assert_false(flowpay_tcp_ours(buf, 0, s.len));
	assert_false(tcp_data_ok(&t, &s, buf)); /* what payload_check=1 fails */
	memcpy(buf, "SSH-2.0-", 8);
	assert_false(flowpay_tcp_ours(buf, 0, s.len));
	/* a first segment of 1 to 7 bytes */
	tcp_payload_fill(buf, 0, 8);
	for (uint16_t len = 1; len < 8; len++) {
		s = mkseg(TCP_ACK | TCP_PSH, SISS + 1, CISS + 1, len);
		assert_true(tcp_data_new(&t, &s));
		assert_true(flowpay_tcp_ours(buf, 0, len));
	}
	buf[0] = 'x';
	s = mkseg(TCP_ACK | TCP_PSH, SISS + 1, CISS + 1, 3);
	assert_false(flowpay_tcp_ours(buf, 0, s.len));
	s = mkseg(TCP_ACK | TCP_PSH, SISS + 1, CISS + 1, 4);
	assert_true(flowpay_tcp_ours(buf, 0, s.len));
	assert_false(tcp_data_ok(&t, &s, buf));
	/* not new or not in order: a duplicate, beyond rcv_nxt, SYN, RST, no data */
	t.rcv_nxt = SISS + 1 + 100;
	s = mkseg(TCP_ACK, SISS + 1, CISS + 1, 100);
	assert_false(tcp_data_new(&t, &s));
	s = mkseg(TCP_ACK, SISS + 1 + 101, CISS + 1, 100);
	assert_false(tcp_data_new(&t, &s));
	s = mkseg(TCP_ACK | TCP_RST, SISS + 1 + 100, CISS + 1, 10);
	assert_false(tcp_data_new(&t, &s));
	s = mkseg(TCP_ACK | TCP_SYN, SISS + 1 + 100, CISS + 1, 10);
	assert_false(tcp_data_new(&t, &s));
	s = mkseg(TCP_ACK, SISS + 1 + 100, CISS + 1, 0);
	assert_false(tcp_data_new(&t, &s));
	/* overlapping rcv_nxt: new */
	s = mkseg(TCP_ACK, SISS + 1 + 50, CISS + 1, 100);
	assert_true(tcp_data_new(&t, &s));
}

/*
 * The payload's sum without its bytes is the sum of its bytes, for every
 * alignment of the stream offset and every length, across block edges and
 * the 32-bit wrap.
 */
static void test_payload_sum(void **state)
{
	static const uint32_t base[] = {0, 1, 255, 256, 0x1234, 0xfffe01, 0xffffff00u, 0xfffffe7fu};
	uint8_t buf[1600];

	(void)state;
	for (size_t b = 0; b < sizeof(base) / sizeof(base[0]); b++)
		for (uint32_t d = 0; d < 300; d += 1 + d / 16)
			for (uint32_t len = 0; len <= 1460; len += 1 + len / 8) {
				uint32_t off = base[b] + d;

				tcp_payload_fill(buf, off, len);
				assert_int_equal(tcp_payload_sum(off, len), rte_raw_cksum(buf, len));
			}
	tcp_payload_fill(buf, 77, 1500);
	assert_int_equal(tcp_payload_sum(77, 1500), rte_raw_cksum(buf, 1500));
	assert_int_equal(tcp_payload_sum(5, 0), 0);
}

/* ---- a client and a server through an in-memory lossy network ---- */

#define NET_Q 512

struct net_pkt {
	struct tcp_seg seg;
	uint8_t data[FG_TCP_MSS_DEFAULT];
};

struct net_end {
	struct tcp_tcb t;
	uint32_t want;	/* bytes the program expects to receive */
	uint32_t reply; /* bytes to send once they came (server) */
	uint32_t rcvd;
	bool closed_app;
	uint16_t events; /* every event seen */
	uint32_t nretx, ntx;
};

struct net {
	struct net_end e[2]; /* 0 client, 1 server */
	struct net_pkt q[2][NET_Q];
	unsigned head[2], len[2];
	uint64_t now;
	uint64_t rng;
	unsigned loss_pct;
	unsigned drops;
	bool payload_bad;
};

static uint32_t net_rand(struct net *n)
{
	/* xorshift64*: reproducible, seeded by the test */
	n->rng ^= n->rng >> 12;
	n->rng ^= n->rng << 25;
	n->rng ^= n->rng >> 27;
	return (uint32_t)((n->rng * 2685821657736338717ull) >> 32);
}

/* Put what endpoint from produced on the wire towards the other one. */
static void net_send(struct net *n, int from, const struct tcp_out *o)
{
	int to = !from;

	n->e[from].nretx += o->nretx;
	n->e[from].ntx += o->nseg;
	for (int i = 0; i < o->nseg; i++) {
		const struct tcp_seg_out *s = &o->seg[i];
		struct net_pkt *p;

		if (net_rand(n) % 100 < n->loss_pct) {
			n->drops++;
			continue;
		}
		assert_true(n->len[to] < NET_Q);
		p = &n->q[to][(n->head[to] + n->len[to]++) % NET_Q];
		p->seg = (struct tcp_seg){.seq = s->seq,
					  .ack = s->ack,
					  .win = s->win,
					  .mss = s->mss,
					  .len = s->len,
					  .flags = s->flags};
		assert_true(s->len <= sizeof(p->data));
		tcp_payload_fill(p->data, s->off, s->len);
	}
}

static void net_events(struct net *n, int who, struct tcp_out *o)
{
	struct net_end *e = &n->e[who];

	e->events |= o->events;
	if (o->events & TCP_EV_DATA)
		e->rcvd += o->data_len;
	if (who == 0 && e->rcvd >= e->want && !e->closed_app &&
	    (e->t.state == TCP_ESTABLISHED || e->t.state == TCP_CLOSE_WAIT)) {
		e->closed_app = true;
		assert_int_equal(tcp_app_close(&e->t), 0);
	}
	if (who == 1 && e->rcvd >= e->want && !e->closed_app &&
	    (e->t.state == TCP_ESTABLISHED || e->t.state == TCP_CLOSE_WAIT)) {
		e->closed_app = true;
		assert_int_equal(tcp_app_send(&e->t, e->reply), 0);
		assert_int_equal(tcp_app_close(&e->t), 0);
	}
	/* the program's sends go out with whatever the call produced (ACK piggybacked) */
	if (!tcp_is_closed(&e->t))
		tcp_output(&e->t, n->now, o);
	net_send(n, who, o);
	while (o->more && !tcp_is_closed(&e->t)) {
		tcp_out_reset(o);
		tcp_output(&e->t, n->now, o);
		net_send(n, who, o);
	}
}

static void net_deliver(struct net *n, int to)
{
	struct net_pkt *p = &n->q[to][n->head[to]];
	struct net_end *e = &n->e[to];
	struct tcp_out o;
	bool synced =
	    e->t.state != TCP_LISTEN && e->t.state != TCP_SYN_SENT && !tcp_is_closed(&e->t);

	n->head[to] = (n->head[to] + 1) % NET_Q;
	n->len[to]--;
	/* the bytes are where the receiver expects them in its peer's stream */
	if (synced && p->seg.len && !(p->seg.flags & TCP_RST) &&
	    !tcp_payload_check(p->data, tcp_rcv_off(&e->t, p->seg.seq), p->seg.len))
		n->payload_bad = true;
	tcp_out_reset(&o);
	tcp_input(&e->t, &p->seg, n->now, &o);
	net_events(n, to, &o);
}

static void net_run(struct net *n, uint32_t c_iss, uint32_t s_iss, uint32_t req, uint32_t resp,
		    uint16_t mss)
{
	struct tcp_out o;
	unsigned steps = 0;

	memset(n->e, 0, sizeof(n->e));
	tcp_init_client(&n->e[0].t, c_iss, mss, n->now);
	tcp_init_listen(&n->e[1].t, s_iss, mss);
	n->e[0].want = resp;
	n->e[1].want = req;
	n->e[1].reply = resp;
	assert_int_equal(tcp_app_send(&n->e[0].t, req), 0);
	tcp_out_reset(&o);
	tcp_output(&n->e[0].t, n->now, &o);
	net_send(n, 0, &o);

	while (steps++ < 200000) {
		uint64_t next = 0;

		if (n->len[0] || n->len[1]) {
			int to = n->len[0] && n->len[1] ? (int)(net_rand(n) & 1) : n->len[1] != 0;

			net_deliver(n, to);
			continue;
		}
		for (int i = 0; i < 2; i++) {
			uint64_t d = tcp_deadline(&n->e[i].t, n->now);

			if (!tcp_is_closed(&n->e[i].t) && d && (!next || d < next))
				next = d;
		}
		if (!next)
			break;
		n->now = next;
		for (int i = 0; i < 2; i++) {
			tcp_out_reset(&o);
			tcp_timer(&n->e[i].t, n->now, &o);
			net_events(n, i, &o);
		}
	}
	assert_true(steps < 200000);
}

static void check_complete(const struct net *n, uint32_t req, uint32_t resp)
{
	for (int i = 0; i < 2; i++) {
		assert_true(tcp_is_closed(&n->e[i].t));
		assert_true(n->e[i].events & TCP_EV_CLOSED);
		assert_false(n->e[i].events & (TCP_EV_RESET | TCP_EV_FAIL_RETX));
		assert_true(n->e[i].events & TCP_EV_ESTABLISHED);
		assert_true(n->e[i].events & TCP_EV_PEER_FIN);
	}
	assert_int_equal(n->e[0].rcvd, resp);
	assert_int_equal(n->e[1].rcvd, req);
	assert_int_equal(tcp_rcvd(&n->e[0].t), resp);
	assert_int_equal(tcp_rcvd(&n->e[1].t), req);
	assert_false(n->payload_bad);
}

static struct net netbuf; /* too big for the stack under ASan */

static void test_net_lossless(void **state)
{
	struct net *n = &netbuf;

	(void)state;
	memset(n, 0, sizeof(*n));
	n->now = NOW;
	n->rng = 1;
	net_run(n, CISS, SISS, 64, 512, 1460);
	check_complete(n, 64, 512);
	assert_int_equal(n->e[0].nretx + n->e[1].nretx, 0);
	/* SYN, ACK+req, FIN+ACK, ACK (+FIN data), ... a short exchange */
	assert_true(n->e[0].ntx <= 4);
	assert_true(n->e[1].ntx <= 3);

	memset(n, 0, sizeof(*n));
	n->now = NOW;
	n->rng = 2;
	net_run(n, CISS, SISS, 100000, 300000, 1000);
	check_complete(n, 100000, 300000);
	assert_int_equal(n->e[0].nretx + n->e[1].nretx, 0);
}

static void test_net_wraparound(void **state)
{
	struct net *n = &netbuf;

	(void)state;
	memset(n, 0, sizeof(*n));
	n->now = NOW;
	n->rng = 3;
	/* both sequence spaces wrap in the middle of the data */
	net_run(n, 0xffffff00u, 0xfffff000u, 20000, 40000, 1460);
	check_complete(n, 20000, 40000);
	assert_true(FG_SEQ_GT(n->e[0].t.snd_una, 0xffffff00u));
	assert_true(n->e[0].t.snd_una < 0x10000u);
	assert_true(n->e[1].t.snd_una < 0x10000u);
}

static void test_net_loss(void **state)
{
	struct net *n = &netbuf;
	unsigned retx = 0, drops = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		memset(n, 0, sizeof(*n));
		n->now = NOW;
		n->rng = seed * 0x9e3779b97f4a7c15ull;
		n->loss_pct = 10;
		net_run(n, (uint32_t)(seed * 0x01000193u), 0xfffffff0u - (uint32_t)seed * 777,
			(uint32_t)(1000 + seed * 997), (uint32_t)(5000 + seed * 3001), 1000);
		check_complete(n, (uint32_t)(1000 + seed * 997), (uint32_t)(5000 + seed * 3001));
		retx += n->e[0].nretx + n->e[1].nretx;
		drops += n->drops;
	}
	/* the loss was real and was repaired by retransmission */
	assert_true(drops > 50);
	assert_true(retx > 0);
}

/*
 * The tcb keeps its timer in 32 bits of microseconds (tcp_deadline()): a
 * SYN sent just before those bits wrap is retransmitted once its timeout
 * passes after the wrap, not before and not never.
 */
static void test_deadline_wrap(void **state)
{
	const uint64_t t0 = (5ull << 32) - 100000; /* 0.1 s before a wrap */
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	tcp_init_client(&t, CISS, 1460, t0);
	tcp_out_reset(&o);
	tcp_output(&t, t0, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.deadline_us, t0 + 200000);
	assert_int_equal(tcp_deadline(&t, t0 + 150000), t0 + 200000);
	tcp_out_reset(&o);
	tcp_timer(&t, t0 + 199999, &o); /* after the wrap, before the deadline */
	assert_int_equal(o.nseg, 0);
	assert_int_equal(o.deadline_us, t0 + 200000);
	tcp_out_reset(&o);
	tcp_timer(&t, t0 + 200000, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_SYN);
	assert_int_equal(o.nretx, 1);
	assert_int_equal(o.deadline_us, t0 + 200000 + 400000); /* doubled */
}

/* ---- ICMP errors (tcp_icmp_*: RFC 5927 §4.1, RFC 1122 §4.2.3.9, RFC 1191 §6) ---- */

/* A client in SYN_SENT whose SYN went at NOW. */
static void syn_sent(struct tcp_tcb *t)
{
	struct tcp_out o;

	tcp_init_client(t, CISS, 1460, NOW);
	tcp_out_reset(&o);
	tcp_output(t, NOW, &o);
	assert_int_equal(o.nseg, 1);
}

static void test_icmp_seq_window(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	/* nothing sent yet: no error can be about this tcb */
	tcp_init_client(&t, CISS, 1460, NOW);
	assert_false(tcp_icmp_seq_ok(&t, CISS));
	tcp_init_listen(&t, SISS, 1460);
	assert_false(tcp_icmp_seq_ok(&t, SISS));
	/* the SYN is the window: exactly its sequence number */
	syn_sent(&t);
	assert_true(tcp_icmp_seq_ok(&t, CISS));
	assert_false(tcp_icmp_seq_ok(&t, CISS + 1));
	assert_false(tcp_icmp_seq_ok(&t, CISS - 1));
	/* 3000 bytes in flight: SND.UNA .. SND.MAX - 1 */
	est_client(&t, CISS, SISS, 1000);
	tcp_app_send(&t, 3000);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 3);
	assert_true(tcp_icmp_seq_ok(&t, CISS + 1));
	assert_true(tcp_icmp_seq_ok(&t, CISS + 2001));
	assert_true(tcp_icmp_seq_ok(&t, CISS + 3000));
	assert_true(tcp_icmp_seq_ok(&t, CISS + 3001));	/* SND.MAX: a pure ACK's */
	assert_false(tcp_icmp_seq_ok(&t, CISS + 3002)); /* never sent */
	assert_false(tcp_icmp_seq_ok(&t, CISS));	    /* acknowledged (the SYN) */
	assert_false(tcp_icmp_seq_ok(&t, CISS + 0x80000000u));
	/* the first 1000 acknowledged: that segment is no longer in flight */
	in(&t, mkseg(TCP_ACK, SISS + 1, CISS + 1001, 0), NOW + 10, &o);
	assert_false(tcp_icmp_seq_ok(&t, CISS + 1));
	assert_true(tcp_icmp_seq_ok(&t, CISS + 1001));
	/* across the 2^32 wrap */
	est_client(&t, 0xffffff00u, SISS, 1000);
	tcp_app_send(&t, 1000);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_true(tcp_icmp_seq_ok(&t, 0xffffff01u));
	assert_true(tcp_icmp_seq_ok(&t, 0x10u));
	assert_true(tcp_icmp_seq_ok(&t, 0x2e9u)); /* 0xffffff01 + 1000 = 0x2e9: SND.MAX */
	assert_false(tcp_icmp_seq_ok(&t, 0x2eau));
}

/*
 * An error about the challenge ACK of an established client (RFC 5961
 * §4.2): its request (the handshake's ACK with it) met a withdrawn route,
 * the server sent its SYN-ACK again, the client answered with a pure ACK
 * at SND.MAX, and the router answered that with a net unreachable too
 * (test/e2e/68_fault_icmp.sh). It is about the connection: a soft error
 * keeps it, as the one about the request did.
 */
static void test_icmp_challenge_ack(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	syn_sent(&t);
	in(&t, mkseg(TCP_SYN | TCP_ACK, SISS, CISS + 1, 0), NOW + 10, &o);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	tcp_app_send(&t, 64);
	tcp_out_reset(&o);
	tcp_output(&t, NOW + 10, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].seq, CISS + 1);
	assert_int_equal(o.seg[0].len, 64);
	/* the error about the request */
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 1, false), TCP_ICMP_KEPT);
	/* the SYN-ACK again: a pure ACK at SND.MAX answers it */
	in(&t, mkseg(TCP_SYN | TCP_ACK, SISS, CISS + 1, 0), NOW + 200000, &o);
	assert_int_equal(o.nseg, 1);
	assert_int_equal(o.seg[0].flags, TCP_ACK);
	assert_int_equal(o.seg[0].len, 0);
	assert_int_equal(o.seg[0].seq, CISS + 65);
	assert_int_equal(o.seg[0].seq, t.snd_max);
	/* the error about that ACK: about this connection, kept */
	assert_true(tcp_icmp_seq_ok(&t, o.seg[0].seq));
	assert_int_equal(tcp_icmp_unreach(&t, o.seg[0].seq, false), TCP_ICMP_KEPT);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	assert_int_equal(tcp_icmp_too_big(&t, o.seg[0].seq, 0, NOW + 200001, &o), TCP_ICMP_KEPT);
	/* one past it was never sent */
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 66, true), TCP_ICMP_STALE);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	/* before the handshake nothing is sent at SND.MAX */
	syn_sent(&t);
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 1, false), TCP_ICMP_STALE);
	assert_int_equal(t.state, TCP_SYN_SENT);
}

static void test_icmp_unreach_states(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	/* SYN_SENT: a soft code aborts (as RFC 5461 describes), and so does a hard one */
	syn_sent(&t);
	assert_int_equal(tcp_icmp_unreach(&t, CISS, false), TCP_ICMP_ABORT);
	assert_int_equal(t.state, TCP_CLOSED);
	assert_int_equal(t.deadline_us, 0);
	syn_sent(&t);
	assert_int_equal(tcp_icmp_unreach(&t, CISS, true), TCP_ICMP_ABORT);
	/* ... but not with a sequence number other than the SYN's */
	syn_sent(&t);
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 7, true), TCP_ICMP_STALE);
	assert_int_equal(t.state, TCP_SYN_SENT);
	assert_int_not_equal(t.deadline_us, 0);
	/* SYN_RCVD: the SYN-ACK's sequence number, any code */
	tcp_init_listen(&t, SISS, 1460);
	in(&t, mkseg(TCP_SYN, CISS, 0, 0), NOW, &o);
	assert_int_equal(t.state, TCP_SYN_RCVD);
	assert_int_equal(tcp_icmp_unreach(&t, SISS + 1, false), TCP_ICMP_STALE);
	assert_int_equal(tcp_icmp_unreach(&t, SISS, false), TCP_ICMP_ABORT);
	assert_int_equal(t.state, TCP_CLOSED);
	/* ESTABLISHED with data in flight: a soft error keeps it (RFC 1122
	 * §4.2.3.9 MUST NOT abort), a hard one ends it */
	est_client(&t, CISS, SISS, 1000);
	tcp_app_send(&t, 2000);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 1001, false), TCP_ICMP_KEPT);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	assert_int_not_equal(t.deadline_us, 0); /* it goes on retransmitting */
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 5001, true), TCP_ICMP_STALE);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 1001, true), TCP_ICMP_ABORT);
	assert_int_equal(t.state, TCP_CLOSED);
	/* ESTABLISHED with nothing in flight: only an error about its ACKs
	 * (at SND.MAX) is about it */
	est_client(&t, CISS, SISS, 1000);
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 2, true), TCP_ICMP_STALE);
	assert_int_equal(tcp_icmp_unreach(&t, CISS, true), TCP_ICMP_STALE);
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 1, false), TCP_ICMP_KEPT);
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 1, true), TCP_ICMP_ABORT);
	/* FIN_WAIT_1: the FIN is in flight */
	est_client(&t, CISS, SISS, 1000);
	tcp_app_close(&t);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(t.state, TCP_FIN_WAIT_1);
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 1, false), TCP_ICMP_KEPT);
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 1, true), TCP_ICMP_ABORT);
	/* CLOSED: nothing */
	assert_int_equal(tcp_icmp_unreach(&t, CISS + 1, true), TCP_ICMP_STALE);
}

static void test_icmp_too_big(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;

	(void)state;
	/* 4 x 1460 in flight, then the path says 1280: MSS 1240, and the
	 * 5840 bytes in flight go again in segments of 1240 (the window
	 * holds cwnd 10 x 1240, so all of it), marked as retransmissions */
	est_client(&t, CISS, SISS, 1460);
	tcp_app_send(&t, 4 * 1460);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 4);
	assert_int_equal(o.seg[0].len, 1460);
	tcp_out_reset(&o);
	assert_int_equal(tcp_icmp_too_big(&t, CISS + 1 + 1460, 1240, NOW + 100, &o), TCP_ICMP_MSS);
	assert_int_equal(t.mss, 1240);
	assert_int_equal(o.nseg, 5); /* 4 x 1240 + 880 */
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(o.seg[i].seq, CISS + 1 + i * 1240);
		assert_int_equal(o.seg[i].len, 1240);
		assert_int_equal(o.seg[i].off, i * 1240);
	}
	assert_int_equal(o.seg[4].len, 5840 - 4 * 1240);
	assert_true(o.seg[4].flags & TCP_PSH);
	assert_int_equal(o.nretx, 5);
	assert_int_equal(t.snd_nxt, CISS + 1 + 5840);
	assert_int_equal(t.snd_max, CISS + 1 + 5840);
	assert_int_equal(t.cwnd, FG_TCP_CWND_INIT); /* not collapsed */
	assert_int_not_equal(o.deadline_us, 0);
	/* the same message for the other segments in flight: nothing more */
	tcp_out_reset(&o);
	assert_int_equal(tcp_icmp_too_big(&t, CISS + 1 + 2 * 1460, 1240, NOW + 101, &o),
			 TCP_ICMP_KEPT);
	assert_int_equal(o.nseg, 0);
	/* a larger MSS is never taken; 0 asks for nothing */
	tcp_out_reset(&o);
	assert_int_equal(tcp_icmp_too_big(&t, CISS + 1, 1400, NOW + 102, &o), TCP_ICMP_KEPT);
	assert_int_equal(tcp_icmp_too_big(&t, CISS + 1, 0, NOW + 102, &o), TCP_ICMP_KEPT);
	assert_int_equal(t.mss, 1240);
	/* a forged sequence number changes nothing */
	assert_int_equal(tcp_icmp_too_big(&t, CISS + 900000, 600, NOW + 103, &o), TCP_ICMP_STALE);
	assert_int_equal(t.mss, 1240);
	/* new data after it goes in segments of the new size */
	in(&t, mkseg(TCP_ACK, SISS + 1, CISS + 1 + 5840, 0), NOW + 200, &o);
	tcp_app_send(&t, 3000);
	tcp_out_reset(&o);
	tcp_output(&t, NOW + 201, &o);
	assert_int_equal(o.nseg, 3);
	assert_int_equal(o.seg[0].len, 1240);
	assert_int_equal(o.seg[2].len, 3000 - 2 * 1240);
	assert_int_equal(o.nretx, 0);
}

static void test_icmp_too_big_syn_and_window(void **state)
{
	struct tcp_tcb t;
	struct tcp_out o;
	struct tcp_seg sa;

	(void)state;
	/* SYN_SENT: the MSS is lowered, nothing is sent, and the peer's
	 * larger MSS option does not raise it again */
	syn_sent(&t);
	tcp_out_reset(&o);
	assert_int_equal(tcp_icmp_too_big(&t, CISS, 1000, NOW + 1, &o), TCP_ICMP_MSS);
	assert_int_equal(o.nseg, 0);
	assert_int_equal(t.mss, 1000);
	sa = mkseg(TCP_SYN | TCP_ACK, SISS, CISS + 1, 0);
	sa.mss = 1460;
	in(&t, sa, NOW + 2, &o);
	assert_int_equal(t.state, TCP_ESTABLISHED);
	assert_int_equal(t.mss, 1000);
	/* a window of 2000 bytes: what is in flight goes again within it */
	est_client(&t, CISS, SISS, 1460);
	in(&t, mkseg(TCP_ACK, SISS + 1, CISS + 1, 0), NOW, &o);
	t.snd_wnd = 2920;
	tcp_app_send(&t, 2920);
	tcp_out_reset(&o);
	tcp_output(&t, NOW, &o);
	assert_int_equal(o.nseg, 2);
	t.snd_wnd = 2000;
	tcp_out_reset(&o);
	assert_int_equal(tcp_icmp_too_big(&t, CISS + 1, 536, NOW + 5, &o), TCP_ICMP_MSS);
	assert_int_equal(o.nseg, 4); /* 3 x 536 + 392 = 2000 */
	assert_int_equal(o.seg[3].len, 2000 - 3 * 536);
	assert_int_equal(t.snd_nxt, CISS + 1 + 2000);
	assert_int_equal(t.snd_max, CISS + 1 + 2920); /* the rest waits for the window */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_seq_macros),
	    cmocka_unit_test(test_state_names),
	    cmocka_unit_test(test_client_handshake),
	    cmocka_unit_test(test_deadline_wrap),
	    cmocka_unit_test(test_client_bad_synack),
	    cmocka_unit_test(test_server_handshake),
	    cmocka_unit_test(test_listen_ignores_and_resets),
	    cmocka_unit_test(test_closed_answers_rst),
	    cmocka_unit_test(test_make_rst),
	    cmocka_unit_test(test_data_segmented_by_mss),
	    cmocka_unit_test(test_peer_window_respected),
	    cmocka_unit_test(test_cumulative_ack),
	    cmocka_unit_test(test_receive_data),
	    cmocka_unit_test(test_out_of_window),
	    cmocka_unit_test(test_piggyback),
	    cmocka_unit_test(test_syn_retransmit_backoff_and_limit),

	    cmocka_unit_test(test_scheduled_syn),
	    cmocka_unit_test(test_data_retransmit),
	    cmocka_unit_test(test_fast_retransmit),
	    cmocka_unit_test(test_zero_window_probe),
	    cmocka_unit_test(test_output_more),
	    cmocka_unit_test(test_park),
	    cmocka_unit_test(test_fin_from_client),
	    cmocka_unit_test(test_fin_with_data_ack_in_one),
	    cmocka_unit_test(test_fin_from_server),
	    cmocka_unit_test(test_simultaneous_close),
	    cmocka_unit_test(test_closing_fin_retransmit),
	    cmocka_unit_test(test_rst_each_state),
	    cmocka_unit_test(test_rst_syn_sent),
	    cmocka_unit_test(test_duplicate_syn),
	    cmocka_unit_test(test_lost_synack_and_retransmitted_synack),
	    cmocka_unit_test(test_simultaneous_open),
	    cmocka_unit_test(test_payload_pattern),
	    cmocka_unit_test(test_data_ok),
	    cmocka_unit_test(test_data_new_first_segment),
	    cmocka_unit_test(test_payload_sum),
	    cmocka_unit_test(test_net_lossless),
	    cmocka_unit_test(test_net_wraparound),
	    cmocka_unit_test(test_net_loss),
	    cmocka_unit_test(test_icmp_seq_window),
	    cmocka_unit_test(test_icmp_challenge_ack),
	    cmocka_unit_test(test_icmp_unreach_states),
	    cmocka_unit_test(test_icmp_too_big),
	    cmocka_unit_test(test_cookie),
	    cmocka_unit_test(test_init_cookie),
	    cmocka_unit_test(test_icmp_too_big_syn_and_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
