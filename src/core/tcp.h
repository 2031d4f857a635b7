/*
 * tcp.h — the TCP endpoint as a pure state machine.
 *
 * flowgen opens and accepts millions of short TCP connections that must
 * interoperate with the Linux kernel's TCP, through NAT. This module is the
 * protocol core only: it never touches mbufs, headers or checksums, never
 * allocates, reads no clock (time is passed in, in microseconds) and keeps
 * no globals. The packet I/O parses a received segment into struct tcp_seg,
 * calls tcp_input(), and turns the struct tcp_seg_out entries it gets back
 * into frames.
 *
 * Payload bytes are never buffered. The content of each direction's byte
 * stream is a fixed function of the stream offset (tcp_payload_fill()), so
 * a retransmission regenerates its payload from its sequence number: an
 * output segment says which stream offset its payload starts at and how long
 * it is, and the caller writes the bytes. The stream offset is 32 bits: a
 * connection carries less than 4 GiB each way.
 *
 * Deliberate simplifications for a load tester: a fixed receive window
 * (FG_TCP_RCV_WND, no window scaling, every in-order byte is consumed at
 * once), out-of-order data is dropped and answered with a duplicate ACK (no
 * SACK, no reassembly), no timestamps, no TIME_WAIT (a tcb is released as
 * soon as it reaches CLOSED; the caller recycles the port). Because the
 * peer may lack TIME_WAIT too, an acceptable RST after both FINs were sent
 * (CLOSING, LAST_ACK) ends the connection as TCP_EV_CLOSED, not RESET. Congestion
 * control is slow start from 10 segments, collapsed to one segment after a
 * timeout and halved on a fast retransmit (third duplicate ACK).
 *
 * Calling convention: tcp_input(), tcp_output() and tcp_timer() append to a
 * struct tcp_out that the caller clears with tcp_out_reset(). Use one
 * struct tcp_out per tcb per batch: a pure ACK already in it is replaced by
 * a data segment that carries the same or a newer acknowledgement, so
 *	tcp_out_reset(&o); tcp_input(t, &seg, now, &o);
 *	(act on o.events, e.g. tcp_app_send(t, n)); tcp_output(t, now, &o);
 * sends the reply with the ACK piggybacked. o.deadline_us is the tcb's
 * timer (0 = none): call tcp_timer() when it passes. When a call could not
 * fit all it had to send, o.more is set: transmit and call tcp_output()
 * again with a fresh struct tcp_out.
 *
 * Every function here is pure (safe on a worker: no blocking, allocation,
 * locks, prints or system calls).
 *
 * Included by: every folder.
 */
#ifndef FG_TCP_H
#define FG_TCP_H

#include <stdbool.h>
#include <stdint.h>

/* Wrap-safe sequence number comparisons (RFC 793 arithmetic mod 2^32). */
#define FG_SEQ_LT(a, b) ((int32_t)((uint32_t)(a) - (uint32_t)(b)) < 0)
#define FG_SEQ_LEQ(a, b) ((int32_t)((uint32_t)(a) - (uint32_t)(b)) <= 0)
#define FG_SEQ_GT(a, b) FG_SEQ_LT(b, a)
#define FG_SEQ_GEQ(a, b) FG_SEQ_LEQ(b, a)

#define FG_TCP_MSS_DEFAULT 1460	    /* our MSS when the caller passes 0 */
#define FG_TCP_MSS_PEER_DEFAULT 536 /* RFC 1122: peer sent no MSS option */
#define FG_TCP_RCV_WND 65535	    /* advertised receive window, no scaling */
#define FG_TCP_RTO_INIT_MS 200	    /* default initial retransmission timeout */
#define FG_TCP_RTO_MAX_MS 3000	    /* backoff ceiling */
#define FG_TCP_RETRIES_MAX 5	    /* timeouts in a row without progress */
#define FG_TCP_CWND_INIT 10	    /* segments (RFC 6928) */
#define FG_TCP_CWND_MAX 1024	    /* segments; the peer's window limits first */
#define FG_TCP_DUPACK_THRESH 3	    /* duplicate ACKs that trigger fast retransmit */
#define FG_TCP_OUT_MAX 16	    /* segments one call can produce */

/* Header flag bits, with their wire values. */
enum tcp_flag {
	TCP_FIN = 0x01,
	TCP_SYN = 0x02,
	TCP_RST = 0x04,
	TCP_PSH = 0x08,
	TCP_ACK = 0x10,
};

enum tcp_state {
	TCP_CLOSED = 0,
	TCP_LISTEN = 1,
	TCP_SYN_SENT = 2,
	TCP_SYN_RCVD = 3,
	TCP_ESTABLISHED = 4,
	TCP_FIN_WAIT_1 = 5,
	TCP_FIN_WAIT_2 = 6,
	TCP_CLOSING = 7,
	TCP_CLOSE_WAIT = 8,
	TCP_LAST_ACK = 9,
	TCP_STATE_COUNT = 10,
};

/* Names of enum tcp_state, indexed by it ("ESTABLISHED", ...). */
extern const char *const tcp_state_names[TCP_STATE_COUNT];

/* What happened during a call, for the caller (bits of tcp_out.events). */
enum tcp_event {
	TCP_EV_ESTABLISHED = 1 << 0, /* handshake completed */
	TCP_EV_DATA = 1 << 1,	     /* data_len new in-order bytes received */
	TCP_EV_PEER_FIN = 1 << 2,    /* the peer closed its direction */
	TCP_EV_CLOSED = 1 << 3,	     /* normal end: both FINs exchanged and acked */
	TCP_EV_RESET = 1 << 4,	     /* an acceptable RST arrived: now CLOSED */
	TCP_EV_FAIL_RETX = 1 << 5,   /* retry limit reached: now CLOSED */
};

/*
 * One received segment, already parsed and checksum-verified by the caller.
 * mss is the value of the MSS option, 0 when absent.
 */
struct tcp_seg {
	uint32_t seq, ack;
	uint16_t win;
	uint16_t mss;
	uint16_t len;  /* payload bytes */
	uint8_t flags; /* enum tcp_flag bits */
};

/*
 * One segment to transmit. The payload is len bytes of the sender's stream
 * starting at stream offset off (see tcp_payload_fill()). mss != 0: add an
 * MSS option with this value.
 */
struct tcp_seg_out {
	uint32_t seq, ack;
	uint32_t off;
	uint16_t len;
	uint16_t win;
	uint16_t mss;
	uint8_t flags;
};

struct tcp_out {
	struct tcp_seg_out seg[FG_TCP_OUT_MAX];
	uint64_t deadline_us; /* the tcb's timer after the call; 0 = none */
	uint32_t data_off;    /* TCP_EV_DATA: stream offset of the first new byte */
	uint32_t data_len;    /* TCP_EV_DATA: new in-order bytes (summed) */
	uint16_t events;      /* enum tcp_event bits (ORed) */
	uint8_t nseg;
	uint8_t nretx; /* segments in seg[] that are retransmissions */
	bool more;     /* something did not fit: call tcp_output() again */
	/* the state a connection left when it closed (events CLOSED, RESET,
	 * FAIL_RETX): set with those events only, and tcp_out_reset()
	 * leaves it, so that it costs nothing on any other call */
	uint8_t closed_from;
};

/*
 * Transmission control block: the whole per-connection state. The send
 * stream runs from iss + 1 to snd_end (bytes queued by tcp_app_send()),
 * followed by the FIN once tcp_app_close() queued it.
 */
struct tcp_tcb {
	/* retransmission / persist timer, 0 = off: the low 32 bits of its
	 * time in microseconds (tcp_deadline() gives it whole) */
	uint32_t deadline_us;
	uint32_t iss, irs;    /* initial send / receive sequence numbers */
	uint32_t snd_una;     /* oldest unacknowledged */
	uint32_t snd_nxt;     /* next to send (rewound on timeout) */
	uint32_t snd_max;     /* highest sent + 1 */
	uint32_t snd_end;     /* end of the data queued by the application */
	uint32_t rcv_nxt;
	uint16_t snd_wnd; /* the peer's advertised window */
	uint16_t mss;	  /* segment size: min(ours, the peer's option) */
	uint16_t mss_adv; /* ours, advertised in the SYN / SYN-ACK */
	uint16_t cwnd;	  /* congestion window, in segments */
	uint8_t state;	  /* enum tcp_state */
	/* timeouts in a row without progress; the retransmission timeout
	 * follows from it (tcp_rto_ms()) */
	uint8_t retries;
	uint8_t dupacks;
	uint8_t flags; /* TCP_TF_* below */
};

/*
 * pure: the retransmission timeout: FG_TCP_RTO_INIT_MS, doubled for each
 * timeout in a row (RFC 6298 §5, step 5.5, "back off the timer"), at most
 * FG_TCP_RTO_MAX_MS. An ACK of new data resets retries, and with them the
 * timeout, to the initial one. Derived, not kept: 4 bytes less a TCB.
 */
static inline uint32_t tcp_rto_ms(const struct tcp_tcb *t)
{
	uint32_t r = t->retries < 16 ? (uint32_t)FG_TCP_RTO_INIT_MS << t->retries : UINT32_MAX;

	return r < FG_TCP_RTO_MAX_MS ? r : FG_TCP_RTO_MAX_MS;
}

/*
 * pure: the tcb's timer in microseconds, on now_us's time base, or 0 when
 * it is off. A deadline is at most FG_TCP_RTO_MAX_MS ahead or behind, well
 * inside the 2^31 us (35 minutes) its 32 bits tell apart.
 */
static inline uint64_t tcp_deadline(const struct tcp_tcb *t, uint64_t now_us)
{
	if (!t->deadline_us)
		return 0;
	return now_us + (uint64_t)(int64_t)(int32_t)(t->deadline_us - (uint32_t)now_us);
}

/* Flag bits of tcp_tcb.flags. */
enum tcp_tcb_flag {
	TCP_TF_FIN_QUEUED = 1 << 0, /* the application closed: FIN after snd_end */
	TCP_TF_FIN_RCVD = 1 << 1,   /* the peer's FIN was received in order */
};

/*
 * pure: start an active open. The SYN is due at now_us: tcp_output() (or
 * tcp_timer() once now_us passes) emits it, so a caller may schedule
 * connection starts in the future. mss 0 = FG_TCP_MSS_DEFAULT.
 */
void tcp_init_client(struct tcp_tcb *t, uint32_t iss, uint16_t mss, uint64_t now_us);

/* pure: a passive endpoint awaiting a SYN (fed by the caller's tcp_input()). */
void tcp_init_listen(struct tcp_tcb *t, uint32_t iss, uint16_t mss);

/*
 * SYN cookies (RFC 4987 §3.6): a passive endpoint that answers a SYN
 * without keeping state puts what it needs into the SYN-ACK's sequence
 * number, and finds it again in the acknowledgement number of the
 * segments that follow. The cookie is 30 bits of a keyed hash of the
 * connection's four-tuple (tuple: the caller's hash of it, key: its
 * secret) and of the time slot, then 2 bits for the peer's MSS, one of
 * the four values of tcp_cookie_mss[] (the RFC's "2 sequence number bits
 * to represent 4 predefined common MSS values": the largest that is not
 * above the peer's option). The mixing function is not a cryptographic
 * hash: like flowgen's other initial sequence numbers (a seeded
 * splitmix64 stream, reproducible from the profile's seed) it keeps
 * connections apart, it does not hide the secret from an attacker.
 */
extern const uint16_t tcp_cookie_mss[4];

/* pure: the initial sequence number of our SYN-ACK to a SYN of the
 * tuple carrying MSS option peer_mss (0: none), in time slot slot. */
uint32_t tcp_cookie(uint64_t tuple, uint64_t key, uint32_t slot, uint16_t peer_mss);

/* pure: is iss a cookie of the tuple made in slot or the slot before?
 * The peer's MSS it carries (tcp_cookie_mss[]), or 0 when it is not. */
uint16_t tcp_cookie_check(uint32_t iss, uint64_t tuple, uint64_t key, uint32_t slot);

/*
 * pure: the tcb a SYN-ACK from the cookie iss left behind, had it been
 * kept: SYN_RCVD, the SYN-ACK sent (snd_nxt = iss + 1), the peer's
 * initial sequence number irs (the acknowledging segment's seq - 1), its
 * MSS from the cookie, the window of the acknowledging segment. Fed that
 * segment with tcp_input(), it goes on as if the state had been there.
 */
void tcp_init_cookie(struct tcp_tcb *t, uint32_t iss, uint32_t irs, uint16_t mss, uint16_t peer_mss,
		     uint16_t win);

/*
 * pure: queue nbytes more of the send stream; call tcp_output() to send.
 * Allowed before the handshake completes. -EPIPE after tcp_app_close() or
 * once CLOSED.
 */
int tcp_app_send(struct tcp_tcb *t, uint32_t nbytes);

/*
 * pure: close our direction: a FIN follows the queued data. Before the SYN
 * was answered (LISTEN, SYN_SENT) the tcb just becomes CLOSED. -EPIPE if
 * already closed.
 */
int tcp_app_close(struct tcp_tcb *t);

/* pure: process one received segment; replies, data and FIN go to out. */
void tcp_input(struct tcp_tcb *t, const struct tcp_seg *in, uint64_t now_us, struct tcp_out *out);

/*
 * pure: time passes. When the deadline is reached: send the due SYN, or
 * retransmit the oldest unacknowledged segment (SYN, SYN-ACK, data, FIN) or
 * probe a zero window, doubling the timeout up to FG_TCP_RTO_MAX_MS; after
 * FG_TCP_RETRIES_MAX expiries in a row, TCP_EV_FAIL_RETX and CLOSED.
 */
void tcp_timer(struct tcp_tcb *t, uint64_t now_us, struct tcp_out *out);

/* pure: emit what can be sent now: SYN, data by MSS within the windows, FIN. */
void tcp_output(struct tcp_tcb *t, uint64_t now_us, struct tcp_out *out);

/*
 * pure: the RST answering a segment that has no connection (RFC 793):
 * seq = its ack if it carried an ACK, else seq 0 with ACK = its seq + len.
 * -EINVAL (nothing to send) if the segment itself is a RST.
 */
int tcp_make_rst(const struct tcp_seg *in, struct tcp_seg_out *rst);

/* pure: empty out before a batch of calls. */
void tcp_out_reset(struct tcp_out *out);

/* pure: the stream content: write len bytes starting at stream offset off. */
void tcp_payload_fill(uint8_t *dst, uint32_t off, uint32_t len);

/*
 * pure: the one's complement sum of the len bytes tcp_payload_fill() writes
 * for offset off, as pkt_raw_sum() would read them from an even address,
 * computed without the bytes (O(len / 256)).
 */
uint16_t tcp_payload_sum(uint32_t off, uint32_t len);

/* pure: do len bytes at src match the stream content at offset off? */
bool tcp_payload_check(const uint8_t *src, uint32_t off, uint32_t len);

/*
 * pure: does segment in carry data the endpoint would take as new, in
 * order: payload that starts at or before rcv_nxt and ends after it, in a
 * state that takes data, no SYN or RST? Only such data is worth checking
 * before tcp_input(); anything else is for tcp_input() to drop or
 * acknowledge: junk with a random sequence number must not fail a flow the
 * endpoint keeps.
 */
bool tcp_data_new(const struct tcp_tcb *t, const struct tcp_seg *in);

/*
 * pure: is the data of segment in (its in->len bytes at data) acceptable as
 * the peer's stream? Data that tcp_data_new() takes is checked against the
 * stream content at its offset; anything else passes.
 */
bool tcp_data_ok(const struct tcp_tcb *t, const struct tcp_seg *in, const uint8_t *data);

/*
 * ICMP errors about a segment the endpoint sent (icmperr.h; flowgen(8),
 * "ICMP ERRORS"). Each first checks the quoted sequence number against
 * the send window, RFC 5927 §4.1: SND.UNA <= seq < SND.MAX (the highest
 * sent; a timeout here rewinds snd_nxt, so SND.NXT of the RFC is
 * snd_max), and once synchronized seq == SND.MAX too: a pure ACK (a
 * challenge ACK to a retransmitted SYN-ACK, RFC 5961 §4.2) is sent
 * there, and an error quoting it is about the connection, as Linux's
 * tcp_v4_err() takes it; an error outside that is stale or forged and
 * changes nothing.
 */
enum tcp_icmp {
	TCP_ICMP_STALE = 0, /* the quoted sequence number is outside the window: ignored */
	TCP_ICMP_KEPT,	    /* valid, and the connection goes on as it was */
	TCP_ICMP_ABORT,	    /* a destination unreachable ended it: now CLOSED */
	TCP_ICMP_MSS,	    /* a too-big message lowered its MSS */
};

/* pure: is seq within SND.UNA .. SND.MAX - 1 (.. SND.MAX once synchronized)
 * of a tcb that sent something? */
bool tcp_icmp_seq_ok(const struct tcp_tcb *t, uint32_t seq);

/*
 * pure: a destination unreachable quoting seq. In SYN_SENT and SYN_RCVD
 * any code ends the connection (the widely implemented departure from
 * RFC 1122 that RFC 5461 describes, Linux's among them): nothing was
 * established that a route coming back would save. In the synchronized
 * states only a hard error does (icmperr_hard(); RFC 1122 §4.2.3.9:
 * protocol and port unreachable SHOULD abort, net, host and source route
 * failed MUST NOT, and the other codes are taken as soft too): the
 * connection keeps retransmitting and lives or fails by its timers.
 * TCP_ICMP_ABORT leaves the tcb CLOSED, deadline off.
 */
enum tcp_icmp tcp_icmp_unreach(struct tcp_tcb *t, uint32_t seq, bool hard);

/*
 * pure: a fragmentation needed / packet too big quoting seq, whose path
 * allows segments of mss bytes (icmperr_mss(); 0: none asked for). A
 * smaller MSS than the tcb's is taken (RFC 1191 §6, RFC 8201 §4), and
 * what is in flight is sent again at once in segments of the new size
 * (snd_nxt back to snd_una, then what the windows allow, into out; the
 * congestion window in segments is left as it is: the data in flight did
 * not grow, as Linux's simple retransmit leaves it). TCP_ICMP_KEPT when
 * the MSS is no larger than mss already.
 */
enum tcp_icmp tcp_icmp_too_big(struct tcp_tcb *t, uint32_t seq, uint16_t mss, uint64_t now_us,
			       struct tcp_out *out);

/* pure: the receive-stream offset of a received segment's first payload byte. */
static inline uint32_t tcp_rcv_off(const struct tcp_tcb *t, uint32_t seq)
{
	return seq - t->irs - 1;
}

/* pure: bytes of the peer's stream received in order so far. */
static inline uint32_t tcp_rcvd(const struct tcp_tcb *t)
{
	return t->rcv_nxt - t->irs - 1 - !!(t->flags & TCP_TF_FIN_RCVD);
}

/* pure: bytes of our stream the peer has acknowledged. */
static inline uint32_t tcp_acked(const struct tcp_tcb *t)
{
	uint32_t n = t->snd_una - t->iss;

	/* the SYN and the FIN each take one sequence number */
	if (n && (t->flags & TCP_TF_FIN_QUEUED) && t->snd_una == t->snd_end + 1)
		n--;
	return n ? n - 1 : 0;
}

/*
 * An idle connection in 12 bytes: ESTABLISHED, everything it sent
 * acknowledged, nothing queued, no FIN either way, no timer, no duplicate
 * ACK counted, no timeout in a row, less than 64 KiB each way so far. A
 * caller holding many connections that are quiet most of the time (start
 * --active) keeps them so and takes a whole tcb only while one has
 * something to do (flows.h). The initial sequence numbers follow from the
 * next ones and the bytes carried.
 */
struct tcp_idle {
	uint32_t snd_nxt; /* = snd_una = snd_max = snd_end */
	uint32_t rcv_nxt;
	uint16_t sent; /* bytes of our stream: snd_nxt - iss - 1 */
	uint16_t rcvd; /* bytes of the peer's: rcv_nxt - irs - 1 */
};

/*
 * pure: fold t into *i when it is idle as struct tcp_idle says, its MSS
 * is mss (the caller's, which the peer's option did not lower), the
 * peer's window holds a segment and the congestion window is at least
 * the initial one; false (and *i untouched) otherwise. What a parked
 * connection loses, tcp_unpark() restarts: the congestion window at the
 * initial window (RFC 5681 §4.1, the restart window after an idle period:
 * min(IW, cwnd), here IW as cwnd >= IW), the peer's window at one segment
 * until its next ACK tells the window (a sender need not fill the window
 * offered), and the MSS we advertised, which only a SYN carries, at mss.
 */
bool tcp_park(const struct tcp_tcb *t, uint16_t mss, struct tcp_idle *i);

/* pure: the whole tcb of a connection parked with mss (tcp_park()). */
void tcp_unpark(const struct tcp_idle *i, uint16_t mss, struct tcp_tcb *t);

/* pure: the tcb reached CLOSED (normally, by reset or by failure). */
static inline bool tcp_is_closed(const struct tcp_tcb *t) { return t->state == TCP_CLOSED; }

#endif
