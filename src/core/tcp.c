/*
 * tcp.c — the TCP endpoint state machine (RFC 793/9293 with the RFC 5961
 * checks against blind resets), as pure functions over a 44-byte tcb.
 *
 * The flow module calls it for every received segment, every timer expiry
 * and whenever the application program queued data or a close; see tcp.h
 * for the conventions. Nothing here knows about packets or clocks: time comes
 * in as microseconds, segments go out as (seq, ack, flags, stream offset,
 * length) descriptors that the caller turns into frames.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "fg.h"
#include "tcp.h"

_Static_assert(sizeof(struct tcp_tcb) <= 64, "the tcb must stay within 64 bytes");

const char *const tcp_state_names[TCP_STATE_COUNT] = {
    [TCP_CLOSED] = "CLOSED",	       [TCP_LISTEN] = "LISTEN",
    [TCP_SYN_SENT] = "SYN_SENT",       [TCP_SYN_RCVD] = "SYN_RCVD",
    [TCP_ESTABLISHED] = "ESTABLISHED", [TCP_FIN_WAIT_1] = "FIN_WAIT_1",
    [TCP_FIN_WAIT_2] = "FIN_WAIT_2",   [TCP_CLOSING] = "CLOSING",
    [TCP_CLOSE_WAIT] = "CLOSE_WAIT",   [TCP_LAST_ACK] = "LAST_ACK",
};

/* A time for tcp_tcb.deadline_us: its low 32 bits, never 0 (0 = off). */
static uint32_t us32(uint64_t us) { return (uint32_t)us ? (uint32_t)us : 1; }

static void tcb_init(struct tcp_tcb *t, uint32_t iss, uint16_t mss)
{
	memset(t, 0, sizeof(*t));
	t->iss = iss;
	t->snd_una = iss;
	t->snd_nxt = iss;
	t->snd_max = iss;
	t->snd_end = iss + 1;
	t->rcv_nxt = 1; /* irs = 0: tcp_rcvd() reads 0 until the peer's SYN */
	t->mss = mss ? mss : FG_TCP_MSS_DEFAULT;
	t->mss_adv = t->mss;
	t->cwnd = FG_TCP_CWND_INIT;
}

void tcp_init_client(struct tcp_tcb *t, uint32_t iss, uint16_t mss, uint64_t now_us)
{
	tcb_init(t, iss, mss);
	t->state = TCP_SYN_SENT;
	t->deadline_us = us32(now_us); /* the SYN is due */
}

void tcp_init_listen(struct tcp_tcb *t, uint32_t iss, uint16_t mss)
{
	tcb_init(t, iss, mss);
	t->state = TCP_LISTEN;
}

const uint16_t tcp_cookie_mss[4] = {FG_TCP_MSS_PEER_DEFAULT, 1220, 1440, 1460};

/* The cookie's 30 hashed bits (tcp.h): splitmix64's finalizer over the
 * tuple's hash, the key and the slot. */
static uint32_t cookie_bits(uint64_t tuple, uint64_t key, uint32_t slot)
{
	uint64_t x = tuple ^ key ^ (uint64_t)slot * 0x9e3779b97f4a7c15ull;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)(x ^ (x >> 31)) & ~3u;
}

uint32_t tcp_cookie(uint64_t tuple, uint64_t key, uint32_t slot, uint16_t peer_mss)
{
	uint16_t m = peer_mss ? peer_mss : FG_TCP_MSS_PEER_DEFAULT;
	uint32_t c = 0;

	for (uint32_t i = 1; i < 4; i++)
		if (tcp_cookie_mss[i] <= m)
			c = i;
	return cookie_bits(tuple, key, slot) | c;
}

uint16_t tcp_cookie_check(uint32_t iss, uint64_t tuple, uint64_t key, uint32_t slot)
{
	uint32_t b = iss & ~3u;

	if (b == cookie_bits(tuple, key, slot) || b == cookie_bits(tuple, key, slot - 1))
		return tcp_cookie_mss[iss & 3];
	return 0;
}

void tcp_init_cookie(struct tcp_tcb *t, uint32_t iss, uint32_t irs, uint16_t mss, uint16_t peer_mss,
		     uint16_t win)
{
	tcb_init(t, iss, mss);
	t->state = TCP_SYN_RCVD;
	t->irs = irs;
	t->rcv_nxt = irs + 1;
	t->mss = FG_MIN(t->mss, peer_mss);
	t->snd_wnd = win;
	t->snd_nxt = iss + 1;
	t->snd_max = iss + 1;
}

bool tcp_park(const struct tcp_tcb *t, uint16_t mss, struct tcp_idle *i)
{
	uint32_t sent = t->snd_nxt - t->iss - 1, rcvd = t->rcv_nxt - t->irs - 1;

	if (t->state != TCP_ESTABLISHED || t->flags || t->deadline_us || t->retries ||
	    t->dupacks || t->cwnd < FG_TCP_CWND_INIT || t->snd_una != t->snd_nxt ||
	    t->snd_max != t->snd_nxt || t->snd_end != t->snd_nxt || t->mss != mss ||
	    t->snd_wnd < mss || sent > UINT16_MAX || rcvd > UINT16_MAX)
		return false;
	*i = (struct tcp_idle){.snd_nxt = t->snd_nxt,
			       .rcv_nxt = t->rcv_nxt,
			       .sent = (uint16_t)sent,
			       .rcvd = (uint16_t)rcvd};
	return true;
}

void tcp_unpark(const struct tcp_idle *i, uint16_t mss, struct tcp_tcb *t)
{
	memset(t, 0, sizeof(*t));
	t->iss = i->snd_nxt - i->sent - 1;
	t->irs = i->rcv_nxt - i->rcvd - 1;
	t->snd_una = t->snd_nxt = t->snd_max = t->snd_end = i->snd_nxt;
	t->rcv_nxt = i->rcv_nxt;
	t->snd_wnd = mss;
	t->mss = t->mss_adv = mss;
	t->cwnd = FG_TCP_CWND_INIT;
	t->state = TCP_ESTABLISHED;
}

void tcp_out_reset(struct tcp_out *out)
{
	out->nseg = 0;
	out->nretx = 0;
	out->events = 0;
	out->data_off = 0;
	out->data_len = 0;
	out->deadline_us = 0;
	out->more = false;
}

/*
 * Stream byte `off` is (uint8_t)(off + (off >> 8)): the high byte folded
 * in makes a shift by a multiple of 256 visible. Within an aligned block
 * of 256 stream bytes the content counts up by one from (block number mod
 * 256): a run of a ramp 0..255 0..255, so a block is one copy out of it
 * (or one memcmp against it) and its sum has a closed form
 * (payload_sum()).
 */
#define R4(i) (uint8_t)(i), (uint8_t)((i) + 1), (uint8_t)((i) + 2), (uint8_t)((i) + 3)
#define R16(i) R4(i), R4((i) + 4), R4((i) + 8), R4((i) + 12)
#define R64(i) R16(i), R16((i) + 16), R16((i) + 32), R16((i) + 48)
#define R256(i) R64(i), R64((i) + 64), R64((i) + 128), R64((i) + 192)
static const uint8_t ramp[512] = {R256(0), R256(0)};

void tcp_payload_fill(uint8_t *dst, uint32_t off, uint32_t len)
{
	while (len) {
		uint32_t j = off & 255, n = FG_MIN(256 - j, len);

		memcpy(dst, ramp + ((j + (off >> 8)) & 255), n);
		dst += n;
		off += n;
		len -= n;
	}
}

/*
 * Sum of ramp[0..k) as big-endian 16-bit words (even indexes are the high
 * bytes): the even entries 0, 2, .. 2(e-1) add up to e(e-1), the odd ones
 * 1, 3, .. 2o-1 to o^2; the second half of the ramp repeats the first.
 */
static uint32_t ramp_sum(uint32_t k)
{
	uint32_t a = FG_MIN(k, 256u), b = k > 256 ? k - 256 : 0;
	uint32_t ea = (a + 1) / 2, oa = a / 2, eb = (b + 1) / 2, ob = b / 2;

	return 256 * (ea * (ea - !!ea) + eb * (eb - !!eb)) + oa * oa + ob * ob;
}

static uint16_t fold16(uint32_t s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

static uint16_t swap16(uint16_t v) { return (uint16_t)(v << 8 | v >> 8); }

uint16_t tcp_payload_sum(uint32_t off, uint32_t len)
{
	uint32_t acc = 0, pos = 0;

	while (len) {
		uint32_t j = off & 255, n = FG_MIN(256 - j, len), v = (j + (off >> 8)) & 255;
		uint16_t run = fold16(ramp_sum(v + n) - ramp_sum(v));

		/* a run whose first byte lands at an odd payload position pairs
		 * its bytes the other way round */
		acc += ((pos ^ v) & 1) ? swap16(run) : run;
		pos += n;
		off += n;
		len -= n;
	}
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return swap16(fold16(acc)); /* words as loaded from memory */
#else
	return fold16(acc);
#endif
}

bool tcp_payload_check(const uint8_t *src, uint32_t off, uint32_t len)
{
	/* block by block against the ramp, as tcp_payload_fill writes it: a
	 * memcmp per block, not a comparison per byte (a 512-byte response
	 * checked byte by byte cost a quarter of a TCP connection's cycles) */
	while (len) {
		uint32_t j = off & 255, n = FG_MIN(256 - j, len);

		if (memcmp(src, ramp + ((j + (off >> 8)) & 255), n) != 0)
			return false;
		src += n;
		off += n;
		len -= n;
	}
	return true;
}

bool tcp_data_new(const struct tcp_tcb *t, const struct tcp_seg *in)
{
	uint32_t end = in->seq + in->len;

	if (!in->len || (in->flags & (TCP_SYN | TCP_RST)))
		return false;
	if (t->state != TCP_ESTABLISHED && t->state != TCP_FIN_WAIT_1 &&
	    t->state != TCP_FIN_WAIT_2)
		return false;
	return !FG_SEQ_GT(in->seq, t->rcv_nxt) && FG_SEQ_GT(end, t->rcv_nxt);
}

bool tcp_data_ok(const struct tcp_tcb *t, const struct tcp_seg *in, const uint8_t *data)
{
	return !tcp_data_new(t, in) || tcp_payload_check(data, tcp_rcv_off(t, in->seq), in->len);
}

int tcp_make_rst(const struct tcp_seg *in, struct tcp_seg_out *rst)
{
	if (in->flags & TCP_RST)
		return -EINVAL;
	memset(rst, 0, sizeof(*rst));
	if (in->flags & TCP_ACK) {
		rst->seq = in->ack;
		rst->flags = TCP_RST;
	} else {
		rst->seq = 0;
		rst->ack = in->seq + in->len + !!(in->flags & TCP_SYN) + !!(in->flags & TCP_FIN);
		rst->flags = TCP_RST | TCP_ACK;
	}
	return 0;
}

/* ---- emitting segments ---- */

static struct tcp_seg_out *out_slot(struct tcp_out *out)
{
	if (out->nseg >= FG_TCP_OUT_MAX) {
		out->more = true;
		return NULL;
	}
	return &out->seg[out->nseg++];
}

static bool last_is_pure_ack(const struct tcp_out *out)
{
	const struct tcp_seg_out *s;

	if (out->nseg == 0)
		return false;
	s = &out->seg[out->nseg - 1];
	return s->flags == TCP_ACK && s->len == 0;
}

/*
 * Append a segment carrying our current ACK (when flags has TCP_ACK). A pure
 * ACK just before it is superseded and overwritten.
 */
static void emit(const struct tcp_tcb *t, struct tcp_out *out, uint8_t flags, uint32_t seq,
		 uint16_t len, uint16_t mss)
{
	struct tcp_seg_out *s;

	if ((flags & TCP_ACK) && last_is_pure_ack(out))
		s = &out->seg[out->nseg - 1];
	else if (!(s = out_slot(out)))
		return;
	s->seq = seq;
	s->ack = (flags & TCP_ACK) ? t->rcv_nxt : 0;
	s->off = seq - t->iss - 1;
	s->len = len;
	s->win = FG_TCP_RCV_WND;
	s->mss = mss;
	s->flags = flags;
	if (FG_SEQ_LT(seq, t->snd_max))
		out->nretx++;
}

/* A pure ACK, unless the last segment already acknowledges rcv_nxt. */
static void emit_ack(const struct tcp_tcb *t, struct tcp_out *out)
{
	const struct tcp_seg_out *s = out->nseg ? &out->seg[out->nseg - 1] : NULL;
	struct tcp_seg_out *a;

	if (s && (s->flags & TCP_ACK) && !(s->flags & TCP_RST) && s->ack == t->rcv_nxt)
		return;
	if (!(a = out_slot(out)))
		return;
	memset(a, 0, sizeof(*a));
	a->seq = t->snd_nxt;
	a->ack = t->rcv_nxt;
	a->off = t->snd_nxt - t->iss - 1;
	a->win = FG_TCP_RCV_WND;
	a->flags = TCP_ACK;
}

static void emit_rst_for(const struct tcp_seg *in, struct tcp_out *out)
{
	struct tcp_seg_out rst, *s;

	if (tcp_make_rst(in, &rst) < 0)
		return;
	if ((s = out_slot(out)))
		*s = rst;
}

static void arm(struct tcp_tcb *t, uint64_t now_us)
{
	t->deadline_us = us32(now_us + (uint64_t)tcp_rto_ms(t) * 1000);
}

/* SYN (SYN_SENT) or SYN-ACK (SYN_RCVD) at iss, with our MSS option. */
static void send_syn(struct tcp_tcb *t, struct tcp_out *out, uint64_t now_us)
{
	uint8_t flags = t->state == TCP_SYN_RCVD ? TCP_SYN | TCP_ACK : TCP_SYN;

	emit(t, out, flags, t->iss, 0, t->mss_adv);
	t->snd_nxt = t->iss + 1;
	t->snd_max = t->iss + 1;
	arm(t, now_us);
}

static bool fin_queued(const struct tcp_tcb *t) { return t->flags & TCP_TF_FIN_QUEUED; }

static bool fin_acked(const struct tcp_tcb *t)
{
	return fin_queued(t) && t->snd_una == t->snd_end + 1;
}

/* States in which data and FIN may be sent. */
static bool can_send(const struct tcp_tcb *t)
{
	switch (t->state) {
	case TCP_ESTABLISHED:
	case TCP_CLOSE_WAIT:
	case TCP_FIN_WAIT_1:
	case TCP_CLOSING:
	case TCP_LAST_ACK:
		return true;
	default:
		return false;
	}
}

/*
 * Send the segment starting at seq: up to cap bytes of data (at most one
 * MSS), with the FIN if it is queued and the data ends there. Returns the
 * sequence space used, 0 if there was nothing to send.
 */
static uint32_t send_at(struct tcp_tcb *t, struct tcp_out *out, uint32_t seq, uint32_t cap)
{
	uint32_t len = 0;
	uint8_t flags = TCP_ACK;

	if (FG_SEQ_LT(seq, t->snd_end)) {
		len = FG_MIN(t->snd_end - seq, (uint32_t)t->mss);
		len = FG_MIN(len, cap);
		if (len == 0)
			return 0;
		if (seq + len == t->snd_end)
			flags |= TCP_PSH;
	}
	if (fin_queued(t) && seq + len == t->snd_end)
		flags |= TCP_FIN;
	if (len == 0 && !(flags & TCP_FIN))
		return 0;
	if (out->nseg >= FG_TCP_OUT_MAX && !last_is_pure_ack(out)) {
		out->more = true;
		return 0;
	}
	emit(t, out, flags, seq, (uint16_t)len, 0);
	return len + !!(flags & TCP_FIN);
}

/*
 * Send new (or, after a timeout rewound snd_nxt, resent) data and the FIN
 * within min(peer window, cwnd). probe: send one segment even into a closed
 * window (retransmission timeout, zero-window probe).
 */
static void push(struct tcp_tcb *t, uint64_t now_us, struct tcp_out *out, bool probe)
{
	if (!can_send(t))
		return;
	for (;;) {
		uint32_t wnd = FG_MIN((uint32_t)t->snd_wnd, (uint32_t)t->cwnd * t->mss);
		uint32_t used = t->snd_nxt - t->snd_una;
		uint32_t cap = wnd > used ? wnd - used : 0;
		uint32_t n;

		if (probe && cap == 0)
			cap = 1;
		n = send_at(t, out, t->snd_nxt, cap);
		if (n == 0)
			break;
		t->snd_nxt += n;
		if (FG_SEQ_GT(t->snd_nxt, t->snd_max))
			t->snd_max = t->snd_nxt;
		if (!t->deadline_us)
			arm(t, now_us);
		if (probe)
			break;
	}
	/* persist: data waits behind a zero window with nothing in flight */
	if (!t->deadline_us && FG_SEQ_LT(t->snd_nxt, t->snd_end))
		arm(t, now_us);
}

void tcp_output(struct tcp_tcb *t, uint64_t now_us, struct tcp_out *out)
{
	if (t->state == TCP_SYN_SENT && t->snd_max == t->iss)
		send_syn(t, out, now_us);
	else
		push(t, now_us, out, false);
	out->deadline_us = tcp_deadline(t, now_us);
}

int tcp_app_send(struct tcp_tcb *t, uint32_t nbytes)
{
	if (t->state == TCP_CLOSED || fin_queued(t))
		return -EPIPE;
	t->snd_end += nbytes;
	return 0;
}

int tcp_app_close(struct tcp_tcb *t)
{
	switch (t->state) {
	case TCP_CLOSED:
		return -EPIPE;
	case TCP_LISTEN:
	case TCP_SYN_SENT:
		t->state = TCP_CLOSED;
		t->deadline_us = 0;
		return 0;
	case TCP_ESTABLISHED:
		t->state = TCP_FIN_WAIT_1;
		break;
	case TCP_CLOSE_WAIT:
		t->state = TCP_LAST_ACK;
		break;
	default:
		/* SYN_RCVD: FIN_WAIT_1 once established; later states: closed already */
		if (fin_queued(t))
			return -EPIPE;
		break;
	}
	t->flags |= TCP_TF_FIN_QUEUED;
	return 0;
}

static void to_closed(struct tcp_tcb *t, struct tcp_out *out, uint16_t ev)
{
	out->closed_from = t->state;
	t->state = TCP_CLOSED;
	t->deadline_us = 0;
	out->events |= ev;
}

static void established(struct tcp_tcb *t, struct tcp_out *out)
{
	t->state = fin_queued(t) ? TCP_FIN_WAIT_1 : TCP_ESTABLISHED;
	out->events |= TCP_EV_ESTABLISHED;
}

/* The peer's SYN: learn its sequence number and MSS. */
static void take_syn(struct tcp_tcb *t, const struct tcp_seg *in)
{
	uint16_t peer = in->mss ? in->mss : FG_TCP_MSS_PEER_DEFAULT;

	t->irs = in->seq;
	t->rcv_nxt = in->seq + 1;
	t->mss = FG_MIN(t->mss, peer);
	t->snd_wnd = in->win;
}

static void input_listen(struct tcp_tcb *t, const struct tcp_seg *in, uint64_t now_us,
			 struct tcp_out *out)
{
	if (in->flags & TCP_RST)
		return;
	if (in->flags & TCP_ACK) {
		emit_rst_for(in, out);
		return;
	}
	if (!(in->flags & TCP_SYN))
		return;
	/* data on the SYN is not acknowledged: the peer sends it again */
	take_syn(t, in);
	t->state = TCP_SYN_RCVD;
	send_syn(t, out, now_us);
}

static void input_syn_sent(struct tcp_tcb *t, const struct tcp_seg *in, uint64_t now_us,
			   struct tcp_out *out)
{
	if ((in->flags & TCP_ACK) && (t->snd_max == t->iss || in->ack != t->snd_max)) {
		if (!(in->flags & TCP_RST))
			emit_rst_for(in, out);
		return;
	}
	if (in->flags & TCP_RST) {
		/* only a RST acknowledging our SYN is believed */
		if (in->flags & TCP_ACK)
			to_closed(t, out, TCP_EV_RESET);
		return;
	}
	/*
	 * A bare SYN here would be a simultaneous open (RFC 9293 3.5). A
	 * tester's client only ever talks to listeners, which never send one;
	 * accepting it would let one forged segment derail the connection
	 * (its sequence number is not checked in this state), so it is
	 * dropped and the real SYN-ACK still completes the handshake.
	 */
	if ((in->flags & (TCP_SYN | TCP_ACK)) != (TCP_SYN | TCP_ACK))
		return;
	take_syn(t, in);
	{
		t->snd_una = in->ack;
		t->retries = 0;
		t->deadline_us = 0;
		established(t, out);
		push(t, now_us, out, false);
		emit_ack(t, out);
	}
}

/* RFC 793 segment acceptability against our (always full) receive window. */
static bool seq_acceptable(const struct tcp_tcb *t, uint32_t seq, uint32_t seglen)
{
	const uint32_t wnd = FG_TCP_RCV_WND;

	if (seglen == 0)
		return seq - t->rcv_nxt < wnd;
	return seq - t->rcv_nxt < wnd || seq + seglen - 1 - t->rcv_nxt < wnd;
}

static void fast_retransmit(struct tcp_tcb *t, struct tcp_out *out)
{
	send_at(t, out, t->snd_una, t->mss);
	t->cwnd = FG_MAX(t->cwnd / 2, 2);
}

/*
 * The ACK field in a synchronized state. Returns false when the segment
 * must be dropped (acks what we never sent) or the tcb closed.
 */
static bool take_ack(struct tcp_tcb *t, const struct tcp_seg *in, uint64_t now_us,
		     struct tcp_out *out, bool *ack_now)
{
	uint32_t ack = in->ack;

	if (FG_SEQ_GT(ack, t->snd_max)) {
		*ack_now = true;
		return false;
	}
	if (FG_SEQ_GT(ack, t->snd_una)) {
		t->snd_una = ack;
		if (FG_SEQ_LT(t->snd_nxt, ack))
			t->snd_nxt = ack;
		t->snd_wnd = in->win;
		t->retries = 0;
		t->dupacks = 0;
		if (t->cwnd < FG_TCP_CWND_MAX)
			t->cwnd++;
		if (t->snd_una == t->snd_max)
			t->deadline_us = 0;
		else
			arm(t, now_us);
		if (fin_acked(t)) {
			switch (t->state) {
			case TCP_FIN_WAIT_1:
				t->state = TCP_FIN_WAIT_2;
				break;
			case TCP_CLOSING:
			case TCP_LAST_ACK:
				to_closed(t, out, TCP_EV_CLOSED);
				return false;
			default:
				break;
			}
		}
	} else if (ack == t->snd_una) {
		bool dup = in->len == 0 && !(in->flags & TCP_FIN) && in->win == t->snd_wnd &&
			   t->snd_una != t->snd_max;

		t->snd_wnd = in->win;
		if (dup && ++t->dupacks == FG_TCP_DUPACK_THRESH)
			fast_retransmit(t, out);
	}
	return true;
}

/* In-order payload and FIN. */
static void take_data(struct tcp_tcb *t, const struct tcp_seg *in, struct tcp_out *out,
		      bool *ack_now)
{
	uint32_t end = in->seq + in->len;

	switch (t->state) {
	case TCP_ESTABLISHED:
	case TCP_FIN_WAIT_1:
	case TCP_FIN_WAIT_2:
		break;
	default:
		return; /* the peer's FIN came already: nothing more is expected */
	}
	if (in->len) {
		*ack_now = true;
		if (FG_SEQ_GT(in->seq, t->rcv_nxt))
			return; /* a hole: dropped, the ACK is a duplicate */
		if (FG_SEQ_GT(end, t->rcv_nxt)) {
			uint32_t n = FG_MIN(end - t->rcv_nxt, (uint32_t)FG_TCP_RCV_WND);

			if (!(out->events & TCP_EV_DATA))
				out->data_off = t->rcv_nxt - t->irs - 1;
			out->events |= TCP_EV_DATA;
			out->data_len += n;
			t->rcv_nxt += n;
		}
	}
	if (!(in->flags & TCP_FIN) || end != t->rcv_nxt)
		return;
	t->rcv_nxt++;
	t->flags |= TCP_TF_FIN_RCVD;
	out->events |= TCP_EV_PEER_FIN;
	*ack_now = true;
	switch (t->state) {
	case TCP_ESTABLISHED:
		t->state = TCP_CLOSE_WAIT;
		break;
	case TCP_FIN_WAIT_1:
		t->state = TCP_CLOSING;
		break;
	default: /* FIN_WAIT_2: no TIME_WAIT, done once the FIN is acked */
		to_closed(t, out, TCP_EV_CLOSED);
		break;
	}
}

void tcp_input(struct tcp_tcb *t, const struct tcp_seg *in, uint64_t now_us, struct tcp_out *out)
{
	uint32_t seglen = in->len + !!(in->flags & TCP_SYN) + !!(in->flags & TCP_FIN);
	bool ack_now = false;

	switch (t->state) {
	case TCP_CLOSED:
		emit_rst_for(in, out);
		goto done;
	case TCP_LISTEN:
		input_listen(t, in, now_us, out);
		goto done;
	case TCP_SYN_SENT:
		input_syn_sent(t, in, now_us, out);
		goto done;
	default:
		break;
	}

	/* the peer did not get our SYN-ACK and sent its SYN again */
	if (t->state == TCP_SYN_RCVD && (in->flags & (TCP_SYN | TCP_ACK | TCP_RST)) == TCP_SYN &&
	    in->seq == t->irs) {
		send_syn(t, out, now_us);
		goto done;
	}
	if (!seq_acceptable(t, in->seq, seglen)) {
		if (!(in->flags & TCP_RST))
			ack_now = true;
		goto reply;
	}
	if (in->flags & TCP_RST) {
		/* RFC 5961 3.2: only the exact next sequence number resets */
		if (in->seq != t->rcv_nxt)
			ack_now = true; /* challenge ACK */
		else if ((t->flags & TCP_TF_FIN_RCVD) && fin_queued(t))
			/* both FINs were sent: a peer without TIME_WAIT is done too */
			to_closed(t, out, TCP_EV_CLOSED);
		else
			to_closed(t, out, TCP_EV_RESET);
		goto reply;
	}
	if (in->flags & TCP_SYN) {
		ack_now = true; /* RFC 5961 4.2: challenge ACK, whatever the seq */
		goto reply;
	}
	if (!(in->flags & TCP_ACK))
		goto done;
	if (t->state == TCP_SYN_RCVD) {
		if (!FG_SEQ_GT(in->ack, t->snd_una) || FG_SEQ_GT(in->ack, t->snd_max)) {
			emit_rst_for(in, out);
			goto done;
		}
		established(t, out);
	}
	if (!take_ack(t, in, now_us, out, &ack_now))
		goto reply;
	take_data(t, in, out, &ack_now);
	push(t, now_us, out, false);
reply:
	if (ack_now && t->state != TCP_CLOSED)
		emit_ack(t, out);
	else if (ack_now && (out->events & TCP_EV_CLOSED))
		emit_ack(t, out); /* the ACK of the FIN that closed FIN_WAIT_2 */
done:
	out->deadline_us = tcp_deadline(t, now_us);
}

/* Something to retransmit or to probe: unacknowledged, or held by the window. */
static bool send_pending(const struct tcp_tcb *t)
{
	if (t->state == TCP_SYN_SENT || t->state == TCP_SYN_RCVD)
		return true;
	if (!can_send(t))
		return false;
	return t->snd_una != t->snd_max || FG_SEQ_LT(t->snd_nxt, t->snd_end) ||
	       (fin_queued(t) && t->snd_nxt == t->snd_end);
}

void tcp_timer(struct tcp_tcb *t, uint64_t now_us, struct tcp_out *out)
{
	if (!t->deadline_us || tcp_deadline(t, now_us) > now_us)
		goto done;
	t->deadline_us = 0;
	if (t->state == TCP_SYN_SENT && t->snd_max == t->iss) {
		send_syn(t, out, now_us); /* first SYN, scheduled by tcp_init_client */
		goto done;
	}
	if (!send_pending(t))
		goto done;
	if (++t->retries > FG_TCP_RETRIES_MAX) {
		to_closed(t, out, TCP_EV_FAIL_RETX);
		goto done;
	}
	t->cwnd = 1;
	t->dupacks = 0;
	if (t->state == TCP_SYN_SENT || t->state == TCP_SYN_RCVD) {
		send_syn(t, out, now_us);
	} else {
		t->snd_nxt = t->snd_una;
		push(t, now_us, out, true);
	}
	arm(t, now_us);
done:
	out->deadline_us = tcp_deadline(t, now_us);
}

/* ---- ICMP errors (tcp.h; RFC 5927 §4.1, RFC 1122 §4.2.3.9, RFC 1191 §6) ---- */

bool tcp_icmp_seq_ok(const struct tcp_tcb *t, uint32_t seq)
{
	if (t->state == TCP_CLOSED || t->state == TCP_LISTEN || t->snd_max == t->iss)
		return false;
	if (FG_SEQ_LT(seq, t->snd_una))
		return false;
	/* once synchronized, an ACK without data or FIN (a challenge ACK,
	 * RFC 5961 §4.2, or one for out-of-window data) goes at snd_nxt, at
	 * most snd_max: an error about it is about this connection (Linux's
	 * tcp_v4_err() takes SND.UNA <= seq <= SND.NXT alike) */
	if (seq == t->snd_max)
		return t->state != TCP_SYN_SENT && t->state != TCP_SYN_RCVD;
	return FG_SEQ_LT(seq, t->snd_max);
}

enum tcp_icmp tcp_icmp_unreach(struct tcp_tcb *t, uint32_t seq, bool hard)
{
	if (!tcp_icmp_seq_ok(t, seq))
		return TCP_ICMP_STALE;
	if (t->state != TCP_SYN_SENT && t->state != TCP_SYN_RCVD && !hard)
		return TCP_ICMP_KEPT;
	t->state = TCP_CLOSED;
	t->deadline_us = 0;
	return TCP_ICMP_ABORT;
}

enum tcp_icmp tcp_icmp_too_big(struct tcp_tcb *t, uint32_t seq, uint16_t mss, uint64_t now_us,
			       struct tcp_out *out)
{
	if (!tcp_icmp_seq_ok(t, seq))
		return TCP_ICMP_STALE;
	if (!mss || mss >= t->mss)
		return TCP_ICMP_KEPT;
	t->mss = mss;
	if (can_send(t) && t->snd_una != t->snd_max) {
		t->snd_nxt = t->snd_una;
		push(t, now_us, out, false);
	}
	out->deadline_us = tcp_deadline(t, now_us);
	return TCP_ICMP_MSS;
}
