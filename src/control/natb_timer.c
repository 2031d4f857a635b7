/*
 * natb_timer.c — the timeout searches of `bench nat`, on the console's
 * thread. A search does not wait out one mapping after another: it makes
 * many mappings at once, one for each probe time of its plan (times
 * growing by 4 % from 1 s up to --timeout-max, natb_plan), and probes
 * mapping k only once, from outside, at its time t[k]: a probe that comes
 * through says the mapping was alive at t[k], one that does not (within a
 * second) that it had gone. A search ends at the first two gone in a row
 * (natb_estimate), so it lasts about as long as the timeout, not as long
 * as the bound. Each search has an internal address of its own (natb_int.h)
 * and they all run side by side; each times the state an application
 * leaves a mapping in, from its last packet:
 *
 *   UDP            a datagram out, the server's answer in, and after 2.5 s
 *                  one more each way: a mapping in use both ways, what
 *                  RFC 4787 REQ-5 is about; the probe: a datagram in
 *   UDP unreplied  a datagram out, nothing back; the probe: a datagram in
 *   TCP established a handshake, then a byte each way, acknowledged; the
 *                  probe: one more byte from the server
 *   TCP transitory a SYN out; the probe: the server's SYN-ACK
 *   TCP closing    a handshake, then FIN each way and the last ACK; the
 *                  probe: the server's FIN again
 *   ICMP query     an echo request out; the probe: the echo reply
 *
 * A mapping the NAT did not make (nothing came out, a handshake that did
 * not complete) leaves the plan and is counted: the search reports how
 * many of its mappings were made, and none made is a failure, not a
 * timeout above the bound.
 *
 * The refresh test (RFC 4787 REQ-6) runs beside the searches on three
 * mappings used both ways like the UDP search's: one gets an outbound
 * packet every 2 s, one an inbound packet, one nothing; once the UDP
 * search has found the timeout T, all three are probed at 1.25 T (the one
 * left alone must be gone).
 */
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "natb_int.h"
#include "pkt.h"

#define NATB_TMO_MAX 256
#define NATB_TMO_RATIO 1.04
#define NATB_TMO_FIRST 1.0
#define NATB_PROBE_WAIT 1.0 /* seconds an answer may take */
#define NATB_STREAM_AT 2.5  /* seconds after the first packet: the exchange again */
#define NATB_REFRESH_EVERY 2.0

enum tkind {
	TK_UDP = 0,
	TK_UDP_UNREP = 1,
	TK_TCP_EST = 2,
	TK_TCP_TRANS = 3,
	TK_TCP_CLOSE = 4,
	TK_ICMP = 5,
	TK_N = 6
};
static const char *const tkind_names[TK_N] = {
    [TK_UDP] = "udp mapping",	      [TK_UDP_UNREP] = "udp unreplied",
    [TK_TCP_EST] = "tcp established", [TK_TCP_TRANS] = "tcp transitory",
    [TK_TCP_CLOSE] = "tcp closing",   [TK_ICMP] = "icmp query",
};

struct tmap {
	uint16_t in_port; /* ICMP: the identifier */
	uint32_t ext_ip;
	uint16_t ext_port;
	uint32_t cseq, sseq; /* TCP; cseq is also the creation tag */
	uint32_t ptag;	     /* what the probe carries (TCP: its seq) */
	uint64_t probe_tsc;  /* 0 = not probed yet */
};

struct timer {
	bool on, done, ready;
	struct natb_tmo *res;
	size_t n;
	double t[NATB_TMO_MAX];
	enum natb_tri alive[NATB_TMO_MAX];
	struct tmap m[NATB_TMO_MAX];
	uint64_t made, t0; /* when the mappings were made; when their clock started */
	uint32_t I, S;	   /* internal address, server */
	uint16_t sport;
};

/* The refresh test's three mappings: refreshed outbound, inbound, not at all. */
struct refresh {
	struct timer tm; /* n = 3, no plan */
	uint64_t last;	 /* the last refresh */
	bool probed;
};

static uint8_t tk_proto(int k)
{
	return k == TK_UDP || k == TK_UDP_UNREP ? IPPROTO_UDP
	       : k == TK_ICMP			? IPPROTO_ICMP
						: IPPROTO_TCP;
}

static bool tk_udp(int k) { return tk_proto(k) == IPPROTO_UDP; }

/* Outbound packets that make the mappings. */
static void make(struct natb_ctx *c, int k, struct timer *tm)
{
	for (size_t i = 0; i < tm->n; i++) {
		struct tmap *m = &tm->m[i];

		m->in_port = natb_port(c);
		m->cseq = natb_tag(c) << 8;
		if (tk_udp(k))
			natb_tx_udp(c, NATB_SIDE_IN, tm->I, m->in_port, tm->S, tm->sport, m->cseq);
		else if (k == TK_ICMP)
			natb_tx_echo(c, NATB_SIDE_IN, tm->I, tm->S, m->in_port, false, m->cseq);
		else
			natb_tx_tcp(c, NATB_SIDE_IN, tm->I, m->in_port, tm->S, tm->sport, m->cseq,
				    0, RTE_TCP_SYN_FLAG, 0);
		/* in bursts of 64: a lab's veths drop what they cannot take at once
		 * (^C is seen by the next pump) */
		if (i % 64 == 63)
			natb_pump(c, 2);
	}
	tm->made = tm->t0 = rte_rdtsc();
}

static const struct natb_rx *find_tcp(const struct natb_ctx *c, int side, uint32_t seq, uint8_t fl)
{
	for (size_t i = 0; i < c->nlog; i++)
		if (c->log[i].side == side && c->log[i].proto == IPPROTO_TCP &&
		    c->log[i].tag == seq && (c->log[i].flags & fl) == fl)
			return &c->log[i];
	return NULL;
}

/* keep mapping i of tm as mapping j (the plan shrinks over the lost ones) */
static void keep(struct timer *tm, size_t i, size_t *j)
{
	tm->m[*j] = tm->m[i];
	tm->t[*j] = tm->t[i];
	(*j)++;
}

/* Keep the mappings that came out of the NAT (their external endpoint
 * learned); drop the others from the plan. */
static void learn(struct natb_ctx *c, int k, struct timer *tm)
{
	size_t j = 0;

	for (size_t i = 0; i < tm->n; i++) {
		struct tmap *m = &tm->m[i];
		const struct natb_rx *r =
		    tk_proto(k) == IPPROTO_TCP
			? find_tcp(c, NATB_SIDE_OUT, m->cseq, RTE_TCP_SYN_FLAG)
			: natb_find(c, NATB_SIDE_OUT, tk_proto(k), m->cseq);

		if (!r || r->dip != tm->S)
			continue;
		m->ext_ip = r->sip;
		m->ext_port = r->sport;
		keep(tm, i, &j);
	}
	if (j < tm->n)
		natb_say(c, "%s: %zu of %zu mappings came out of the NAT", tkind_names[k], j,
			 tm->n);
	tm->n = j;
}

/* UDP: the server answers every mapping (a mapping used both ways) */
static void answer(struct natb_ctx *c, struct timer *tm)
{
	for (size_t i = 0; i < tm->n; i++) {
		natb_tx_udp(c, NATB_SIDE_OUT, tm->S, tm->sport, tm->m[i].ext_ip, tm->m[i].ext_port,
			    natb_tag(c));
		if (i % 64 == 63)
			natb_pump(c, 2);
	}
}

/* UDP, 2.5 s on: one datagram more each way, and the clock starts */
static bool exchange(struct natb_ctx *c, struct timer *tm)
{
	for (size_t i = 0; i < tm->n; i++) {
		natb_tx_udp(c, NATB_SIDE_IN, tm->I, tm->m[i].in_port, tm->S, tm->sport,
			    natb_tag(c));
		if (i % 64 == 63)
			natb_pump(c, 2);
	}
	if (!natb_pump(c, 20))
		return false;
	answer(c, tm);
	tm->t0 = rte_rdtsc();
	tm->ready = true;
	return true;
}

/*
 * TCP established and closing: the server's SYN-ACK in, the client's ACK
 * out; then established: a byte out, a byte in (acknowledging it), the
 * client's ACK; closing: FIN out, FIN in (acknowledging it), the last
 * ACK. A connection whose server packet did not come in leaves the plan.
 */
static bool tcp_open(struct natb_ctx *c, int k, struct timer *tm)
{
	const bool fin = k == TK_TCP_CLOSE;
	const uint8_t fl =
	    fin ? RTE_TCP_FIN_FLAG | RTE_TCP_ACK_FLAG : RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG;
	const uint16_t len = fin ? 0 : 1;
	size_t j = 0;

	natb_log_clear(c);
	for (size_t i = 0; i < tm->n; i++) {
		struct tmap *m = &tm->m[i];

		m->sseq = natb_tag(c) << 8;
		natb_tx_tcp(c, NATB_SIDE_OUT, tm->S, tm->sport, m->ext_ip, m->ext_port, m->sseq,
			    m->cseq + 1, RTE_TCP_SYN_FLAG | RTE_TCP_ACK_FLAG, 0);
		if (i % 64 == 63)
			natb_pump(c, 2);
	}
	if (!natb_pump(c, 300))
		return false;
	for (size_t i = 0; i < tm->n; i++) {
		struct tmap *m = &tm->m[i];

		if (!find_tcp(c, NATB_SIDE_IN, m->sseq, RTE_TCP_SYN_FLAG | RTE_TCP_ACK_FLAG))
			continue;
		natb_tx_tcp(c, NATB_SIDE_IN, tm->I, m->in_port, tm->S, tm->sport, m->cseq + 1,
			    m->sseq + 1, RTE_TCP_ACK_FLAG, 0);
		if (j % 64 == 63)
			natb_pump(c, 2);
		keep(tm, i, &j);
	}
	tm->n = j;
	if (!natb_pump(c, 30))
		return false;
	for (size_t i = 0; i < tm->n; i++) {
		struct tmap *m = &tm->m[i];

		natb_tx_tcp(c, NATB_SIDE_IN, tm->I, m->in_port, tm->S, tm->sport, m->cseq + 1,
			    m->sseq + 1, fl, len);
		if (i % 64 == 63)
			natb_pump(c, 2);
	}
	if (!natb_pump(c, 30))
		return false;
	natb_log_clear(c);
	for (size_t i = 0; i < tm->n; i++) {
		struct tmap *m = &tm->m[i];

		natb_tx_tcp(c, NATB_SIDE_OUT, tm->S, tm->sport, m->ext_ip, m->ext_port, m->sseq + 1,
			    m->cseq + 1 + (fin ? 1 : len), fl, len);
		if (i % 64 == 63)
			natb_pump(c, 2);
	}
	if (!natb_pump(c, 300))
		return false;
	j = 0;
	for (size_t i = 0; i < tm->n; i++) {
		struct tmap *m = &tm->m[i];

		if (!find_tcp(c, NATB_SIDE_IN, m->sseq + 1, fl))
			continue;
		natb_tx_tcp(c, NATB_SIDE_IN, tm->I, m->in_port, tm->S, tm->sport,
			    m->cseq + 1 + (fin ? 1 : len), m->sseq + 2, RTE_TCP_ACK_FLAG, 0);
		if (j % 64 == 63)
			natb_pump(c, 2);
		keep(tm, i, &j);
	}
	if (j < tm->n)
		natb_say(c, "%s: %zu of %zu connections opened%s", tkind_names[k], j, tm->n,
			 fin ? " and closed" : "");
	tm->n = j;
	tm->t0 = rte_rdtsc();
	tm->ready = true;
	return natb_pump(c, 2);
}

static void probe(struct natb_ctx *c, int k, struct timer *tm, size_t i)
{
	struct tmap *m = &tm->m[i];

	m->probe_tsc = rte_rdtsc();
	switch (k) {
	case TK_UDP:
	case TK_UDP_UNREP:
		m->ptag = natb_tag(c);
		natb_tx_udp(c, NATB_SIDE_OUT, tm->S, tm->sport, m->ext_ip, m->ext_port, m->ptag);
		break;
	case TK_ICMP:
		m->ptag = natb_tag(c);
		natb_tx_echo(c, NATB_SIDE_OUT, tm->S, m->ext_ip, m->ext_port, true, m->ptag);
		break;
	case TK_TCP_TRANS:
		m->ptag = natb_tag(c) << 8;
		natb_tx_tcp(c, NATB_SIDE_OUT, tm->S, tm->sport, m->ext_ip, m->ext_port, m->ptag,
			    m->cseq + 1, RTE_TCP_SYN_FLAG | RTE_TCP_ACK_FLAG, 0);
		break;
	case TK_TCP_CLOSE:
		/* the server's FIN once more, as if its ACK had been lost */
		m->ptag = m->sseq + 1;
		natb_tx_tcp(c, NATB_SIDE_OUT, tm->S, tm->sport, m->ext_ip, m->ext_port, m->ptag,
			    m->cseq + 2, RTE_TCP_FIN_FLAG | RTE_TCP_ACK_FLAG, 0);
		break;
	default:
		m->ptag = m->sseq + 2;
		natb_tx_tcp(c, NATB_SIDE_OUT, tm->S, tm->sport, m->ext_ip, m->ext_port, m->ptag,
			    m->cseq + 2, RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG, 1);
		break;
	}
}

/* Did the probe of m come through? (the log holds only this turn's frames) */
static bool answered(const struct natb_ctx *c, uint8_t proto, const struct timer *tm,
		     const struct tmap *m)
{
	for (size_t i = 0; i < c->nlog; i++) {
		const struct natb_rx *r = &c->log[i];

		if (r->side != NATB_SIDE_IN || r->proto != proto || r->tag != m->ptag)
			continue;
		if (r->dip == tm->I && r->dport == m->in_port)
			return true;
	}
	return false;
}

static void finish_timer(struct natb_ctx *c, int k, struct timer *tm)
{
	const struct natb_tmo *r = tm->res;

	tm->done = true;
	if (r->st == NATB_TMO_FOUND)
		natb_say(c, "%s timeout: %.1f s (alive at %.1f s, gone at %.1f s)", tkind_names[k],
			 r->s, r->lo, r->hi);
	else if (r->st == NATB_TMO_ABOVE)
		natb_say(c, "%s timeout: above %.0f s", tkind_names[k], r->lo);
	else if (r->st == NATB_TMO_BELOW)
		natb_say(c, "%s timeout: below %.1f s", tkind_names[k], r->hi);
}

/* The refresh test, one turn: the exchange at 2.5 s, the refreshes every
 * 2 s, and the probes at 1.25 T once the UDP search has found T (T <= 0:
 * not yet). true when it has nothing more to do. */
static bool refresh_turn(struct natb_ctx *c, struct refresh *rf, double T, struct natb_udp *u)
{
	struct timer *tm = &rf->tm;
	bool alive[3];

	if (!tm->on || tm->done)
		return true;
	if (!tm->ready) {
		if (natb_secs(c, tm->made) >= NATB_STREAM_AT) {
			exchange(c, tm);
			rf->last = tm->t0;
		}
		return false;
	}
	if (rf->probed) {
		if (natb_secs(c, tm->m[0].probe_tsc) < NATB_PROBE_WAIT)
			return false;
		/* the log holds this turn's frames only: answers were kept as they came */
		tm->done = true;
		for (int i = 0; i < 3; i++)
			alive[i] = tm->alive[i] == NATB_YES;
		if (alive[2]) {
			natb_say(c,
				 "udp refresh: the mapping left alone outlived 1.25 x the timeout: "
				 "no verdict");
			return true;
		}
		u->refresh_out = alive[0] ? NATB_YES : NATB_NO;
		u->refresh_in = alive[1] ? NATB_YES : NATB_NO;
		natb_say(c, "udp refresh: outbound %s, inbound %s",
			 alive[0] ? "refreshes" : "does not", alive[1] ? "refreshes" : "does not");
		return true;
	}
	if (T > 0 && natb_secs(c, tm->t0) >= 1.25 * T) {
		for (size_t i = 0; i < 3; i++) {
			tm->alive[i] = NATB_UNSEEN;
			probe(c, TK_UDP, tm, i);
		}
		rf->probed = true;
		natb_say(c,
			 "udp refresh: probed at %.1f s (outbound and inbound refreshes every "
			 "%.0f s, one left alone)",
			 natb_secs(c, tm->t0), NATB_REFRESH_EVERY);
		return false;
	}
	if (natb_secs(c, rf->last) >= NATB_REFRESH_EVERY) {
		natb_tx_udp(c, NATB_SIDE_IN, tm->I, tm->m[0].in_port, tm->S, tm->sport,
			    natb_tag(c));
		natb_tx_udp(c, NATB_SIDE_OUT, tm->S, tm->sport, tm->m[1].ext_ip, tm->m[1].ext_port,
			    natb_tag(c));
		rf->last = rte_rdtsc();
	}
	return false;
}

/* The probing loop: every search side by side until each has ended, and
 * the refresh test until it has its answer. */
static bool search(struct natb_ctx *c, struct timer *tm, struct refresh *rf, struct natb_udp *u)
{
	for (;;) {
		bool all = true;

		natb_log_clear(c);
		if (!natb_pump(c, 2))
			return false;
		for (int k = 0; k < TK_N; k++) {
			struct timer *t = &tm[k];

			if (!t->on || t->done)
				continue;
			all = false;
			if (!t->ready) {
				if (natb_secs(c, t->made) >= NATB_STREAM_AT && !exchange(c, t))
					return false;
				continue;
			}
			for (size_t i = 0; i < t->n; i++) {
				struct tmap *m = &t->m[i];
				double age;

				if (t->alive[i] != NATB_UNSEEN)
					continue;
				if (!m->probe_tsc) {
					double now = natb_secs(c, t->t0);

					if (now >= t->t[i]) {
						probe(c, k, t, i);
						/* the age it was probed at, late on a busy machine
						 */
						t->t[i] = now;
					}
					continue;
				}
				if (answered(c, tk_proto(k), t, m))
					t->alive[i] = NATB_YES;
				else if ((age = natb_secs(c, m->probe_tsc)) > NATB_PROBE_WAIT)
					t->alive[i] = NATB_NO;
				if (t->alive[i] != NATB_UNSEEN)
					natb_say(c, "%s: mapping %zu probed at %.1f s: %s",
						 tkind_names[k], i + 1, t->t[i],
						 t->alive[i] == NATB_YES ? "alive" : "gone");
			}
			if (natb_estimate(t->t, t->alive, t->n, t->res))
				finish_timer(c, k, t);
		}
		if (rf->probed)
			for (size_t i = 0; i < 3; i++)
				if (answered(c, IPPROTO_UDP, &rf->tm, &rf->tm.m[i]))
					rf->tm.alive[i] = NATB_YES;
		if (tm[TK_UDP].done && u->timeout.st != NATB_TMO_FOUND && !rf->tm.done) {
			natb_say(c, "udp refresh: no timeout found: no verdict");
			rf->tm.done = true;
		}
		if (!refresh_turn(c, rf, u->timeout.st == NATB_TMO_FOUND ? u->timeout.s : 0, u))
			all = false;
		if (all)
			return true;
	}
}

int natb_timeouts(struct natb_ctx *c, struct natb_result *r)
{
	struct timer *tm = calloc(TK_N, sizeof(*tm));
	struct refresh *rf = calloc(1, sizeof(*rf));
	struct natb_tmo *res[TK_N] = {&r->udp.timeout,	  &r->udp.unreplied, &r->tcp.established,
				      &r->tcp.transitory, &r->tcp.closing,   &r->icmp.query};
	const bool on[TK_N] = {r->udp.on, r->udp.on, r->tcp.on, r->tcp.on, r->tcp.on, r->icmp.on};
	int rc = -1;

	if (!tm || !rf)
		goto out;
	natb_log_clear(c);
	for (int k = 0; k < TK_N; k++) {
		struct timer *t = &tm[k];

		t->on = on[k];
		t->res = res[k];
		t->I = c->in[NATB_IN_TIMER + k];
		t->S = c->out[3];
		t->sport = (uint16_t)(NATB_SPORT + 8 + k);
		/* only the two-way UDP search waits for its exchange */
		t->ready = k != TK_UDP;
		if (!on[k])
			continue;
		t->n = natb_plan(NATB_TMO_FIRST, NATB_TMO_RATIO, c->o->tmax, t->t, NATB_TMO_MAX);
		res[k]->planned = (unsigned)t->n;
		make(c, k, t);
	}
	rf->tm.on = r->udp.on;
	if (rf->tm.on) {
		rf->tm.n = 3;
		rf->tm.I = c->in[NATB_IN_REFRESH];
		rf->tm.S = c->out[4];
		rf->tm.sport = (uint16_t)(NATB_SPORT + 7);
		make(c, TK_UDP, &rf->tm);
	}
	natb_say(c,
		 "timeouts: %zu, %zu, %zu, %zu, %zu and %zu mappings (udp both ways, udp "
		 "unreplied, tcp established, transitory, closing, icmp), probed from %.0f s to "
		 "%.0f s",
		 tm[TK_UDP].n, tm[TK_UDP_UNREP].n, tm[TK_TCP_EST].n, tm[TK_TCP_TRANS].n,
		 tm[TK_TCP_CLOSE].n, tm[TK_ICMP].n, NATB_TMO_FIRST, c->o->tmax);
	if (!natb_pump(c, 300))
		goto out;
	for (int k = 0; k < TK_N; k++)
		if (on[k])
			learn(c, k, &tm[k]);
	if (rf->tm.on) {
		learn(c, TK_UDP, &rf->tm);
		if (rf->tm.n < 3) {
			natb_say(c, "udp refresh: a mapping did not come out of the NAT");
			rf->tm.on = false;
		}
	}
	if (on[TK_UDP])
		answer(c, &tm[TK_UDP]);
	if (rf->tm.on)
		answer(c, &rf->tm);
	if ((on[TK_TCP_EST] && !tcp_open(c, TK_TCP_EST, &tm[TK_TCP_EST])) ||
	    (on[TK_TCP_CLOSE] && !tcp_open(c, TK_TCP_CLOSE, &tm[TK_TCP_CLOSE])))
		goto out;
	for (int k = 0; k < TK_N; k++) {
		res[k]->made = (unsigned)tm[k].n;
		if (on[k] && !tm[k].n) {
			res[k]->st = NATB_TMO_FAILED;
			tm[k].done = true;
		}
	}
	if (!search(c, tm, rf, &r->udp))
		goto out;
	rc = 0;
out:
	free(tm);
	free(rf);
	return rc;
}
