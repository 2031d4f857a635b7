/*
 * natb_timer.c — the timeout searches of `bench nat`, on the console's
 * thread. A search does not wait out one mapping after another: it makes
 * many mappings at once, one for each probe time of its plan (times
 * growing by 4 % from 1 s up to --timeout-max, natb_plan), and probes
 * mapping k only once, from outside, at its time t[k]: a probe that comes
 * through says the mapping was alive at t[k], one that does not (within a
 * second) that it had gone. A search ends at the first two gone in a row
 * (natb_estimate), so it lasts about as long as the timeout, not as long
 * as the bound. All the searches asked run side by side:
 *
 *   UDP            a datagram out; the probe: a datagram from the server
 *   TCP transitory a SYN out; the probe: the server's SYN-ACK
 *   TCP established a handshake; the probe: one byte from the server
 *   ICMP query     an echo request out; the probe: the echo reply
 *
 * Then, with the UDP timeout T known, the refresh test (RFC 4787 REQ-6):
 * three mappings, one refreshed by an outbound packet at T/2, one by an
 * inbound packet, one left alone, all probed at 1.25 T.
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

enum tkind { TK_UDP = 0, TK_TCP_EST = 1, TK_TCP_TRANS = 2, TK_ICMP = 3, TK_N = 4 };
static const char *const tkind_names[TK_N] = {
    [TK_UDP] = "udp mapping",
    [TK_TCP_EST] = "tcp established",
    [TK_TCP_TRANS] = "tcp transitory",
    [TK_ICMP] = "icmp query",
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
	bool on, done;
	struct natb_tmo *res;
	size_t n;
	double t[NATB_TMO_MAX];
	enum natb_tri alive[NATB_TMO_MAX];
	struct tmap m[NATB_TMO_MAX];
	uint64_t t0;
	uint16_t sport;
};

static uint8_t tk_proto(int k)
{
	return k == TK_UDP ? IPPROTO_UDP : k == TK_ICMP ? IPPROTO_ICMP : IPPROTO_TCP;
}

/* Outbound packets that make the mappings. */
static void make(struct natb_ctx *c, int k, struct timer *tm)
{
	const uint32_t I = c->in[0], S = c->out[3];

	for (size_t i = 0; i < tm->n; i++) {
		struct tmap *m = &tm->m[i];

		m->in_port = natb_port(c);
		m->cseq = natb_tag(c) << 8;
		if (k == TK_UDP)
			natb_tx_udp(c, NATB_SIDE_IN, I, m->in_port, S, tm->sport, m->cseq);
		else if (k == TK_ICMP)
			natb_tx_echo(c, NATB_SIDE_IN, I, S, m->in_port, false, m->cseq);
		else
			natb_tx_tcp(c, NATB_SIDE_IN, I, m->in_port, S, tm->sport, m->cseq, 0,
				    RTE_TCP_SYN_FLAG, 0);
		/* in bursts of 64: a lab's veths drop what they cannot take at once
		 * (^C is seen by the next pump) */
		if (i % 64 == 63)
			natb_pump(c, 2);
	}
	tm->t0 = rte_rdtsc();
}

static const struct natb_rx *find_tcp(const struct natb_ctx *c, int side, uint32_t seq, uint8_t fl)
{
	for (size_t i = 0; i < c->nlog; i++)
		if (c->log[i].side == side && c->log[i].proto == IPPROTO_TCP &&
		    c->log[i].tag == seq && (c->log[i].flags & fl) == fl)
			return &c->log[i];
	return NULL;
}

/* Keep the mappings that came out of the NAT (their external endpoint
 * learned); drop the others from the plan. */
static void learn(struct natb_ctx *c, int k, struct timer *tm)
{
	size_t j = 0;

	for (size_t i = 0; i < tm->n; i++) {
		struct tmap *m = &tm->m[i];
		const struct natb_rx *r = tk_proto(k) == IPPROTO_TCP
					      ? find_tcp(c, NATB_SIDE_OUT, m->cseq, RTE_TCP_SYN_FLAG)
					      : natb_find(c, NATB_SIDE_OUT, tk_proto(k), m->cseq);

		if (!r)
			continue;
		m->ext_ip = r->sip;
		m->ext_port = r->sport;
		tm->m[j] = *m;
		tm->t[j++] = tm->t[i];
	}
	if (j < tm->n)
		natb_say(c, "%s: %zu of %zu mappings came out of the NAT", tkind_names[k], j, tm->n);
	tm->n = j;
}

/* TCP established: the server's SYN-ACK in, then the client's ACK out. */
static bool handshake(struct natb_ctx *c, struct timer *tm)
{
	const uint32_t I = c->in[0], S = c->out[3];
	size_t j = 0;

	natb_log_clear(c);
	for (size_t i = 0; i < tm->n; i++) {
		struct tmap *m = &tm->m[i];

		m->sseq = natb_tag(c) << 8;
		natb_tx_tcp(c, NATB_SIDE_OUT, S, tm->sport, m->ext_ip, m->ext_port, m->sseq,
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
		natb_tx_tcp(c, NATB_SIDE_IN, I, m->in_port, S, tm->sport, m->cseq + 1, m->sseq + 1,
			    RTE_TCP_ACK_FLAG, 0);
		if (j % 64 == 63)
			natb_pump(c, 2);
		tm->m[j] = *m;
		tm->t[j++] = tm->t[i];
	}
	tm->n = j;
	tm->t0 = rte_rdtsc();
	return true;
}

static void probe(struct natb_ctx *c, int k, struct timer *tm, size_t i)
{
	struct tmap *m = &tm->m[i];
	const uint32_t S = c->out[3];

	m->probe_tsc = rte_rdtsc();
	switch (k) {
	case TK_UDP:
		m->ptag = natb_tag(c);
		natb_tx_udp(c, NATB_SIDE_OUT, S, tm->sport, m->ext_ip, m->ext_port, m->ptag);
		break;
	case TK_ICMP:
		m->ptag = natb_tag(c);
		natb_tx_echo(c, NATB_SIDE_OUT, S, m->ext_ip, m->ext_port, true, m->ptag);
		break;
	case TK_TCP_TRANS:
		m->ptag = natb_tag(c) << 8;
		natb_tx_tcp(c, NATB_SIDE_OUT, S, tm->sport, m->ext_ip, m->ext_port, m->ptag,
			    m->cseq + 1, RTE_TCP_SYN_FLAG | RTE_TCP_ACK_FLAG, 0);
		break;
	default:
		m->ptag = m->sseq + 1;
		natb_tx_tcp(c, NATB_SIDE_OUT, S, tm->sport, m->ext_ip, m->ext_port, m->ptag,
			    m->cseq + 1, RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG, 1);
		break;
	}
}

/* Did probe i of timer k come through? (the log holds only probe answers) */
static bool answered(const struct natb_ctx *c, int k, const struct tmap *m)
{
	for (size_t i = 0; i < c->nlog; i++) {
		const struct natb_rx *r = &c->log[i];

		if (r->side != NATB_SIDE_IN || r->proto != tk_proto(k) || r->tag != m->ptag)
			continue;
		if (r->dip == c->in[0] && r->dport == m->in_port)
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

/* The probing loop: every search side by side until each has ended. */
static bool search(struct natb_ctx *c, struct timer *tm)
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
			for (size_t i = 0; i < t->n; i++) {
				struct tmap *m = &t->m[i];
				double age;

				if (t->alive[i] != NATB_UNSEEN)
					continue;
				if (!m->probe_tsc) {
					double now = natb_secs(c, t->t0);

					if (now >= t->t[i]) {
						probe(c, k, t, i);
						/* the age it was probed at, late on a busy machine */
						t->t[i] = now;
					}
					continue;
				}
				if (answered(c, k, m))
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
		if (all)
			return true;
	}
}

/* RFC 4787 REQ-6: does an outbound / inbound packet refresh a mapping? */
static bool refresh(struct natb_ctx *c, struct natb_udp *u)
{
	const uint32_t I = c->in[0], S = c->out[4];
	const double T = u->timeout.s;
	struct timer *tm = calloc(1, sizeof(*tm));
	uint64_t t0;
	bool ok = false, alive[3];

	if (!tm)
		return false;
	tm->n = 3;
	tm->sport = 3478 + 7;
	natb_say(c, "udp refresh: 3 mappings, refreshed at %.1f s (outbound, inbound, none), "
		    "probed at %.1f s",
		 T / 2, T * 1.25);
	natb_log_clear(c);
	make(c, TK_UDP, tm);
	/* make() aims at out[3]: these mappings go to out[4] */
	for (size_t i = 0; i < 3; i++)
		natb_tx_udp(c, NATB_SIDE_IN, I, tm->m[i].in_port, S, tm->sport, tm->m[i].cseq);
	t0 = rte_rdtsc();
	if (!natb_pump(c, 300))
		goto out;
	for (size_t i = 0; i < 3; i++) {
		const struct natb_rx *r = NULL;

		for (size_t j = 0; j < c->nlog && !r; j++)
			if (c->log[j].side == NATB_SIDE_OUT && c->log[j].proto == IPPROTO_UDP &&
			    c->log[j].tag == tm->m[i].cseq && c->log[j].dip == S)
				r = &c->log[j];
		if (!r) {
			natb_say(c, "udp refresh: a mapping did not come out of the NAT");
			ok = true;
			goto out;
		}
		tm->m[i].ext_ip = r->sip;
		tm->m[i].ext_port = r->sport;
	}
	while (natb_secs(c, t0) < T / 2)
		if (!natb_pump(c, 10))
			goto out;
	natb_tx_udp(c, NATB_SIDE_IN, I, tm->m[0].in_port, S, tm->sport, natb_tag(c));
	natb_tx_udp(c, NATB_SIDE_OUT, S, tm->sport, tm->m[1].ext_ip, tm->m[1].ext_port, natb_tag(c));
	while (natb_secs(c, t0) < T * 1.25)
		if (!natb_pump(c, 10))
			goto out;
	natb_log_clear(c);
	for (size_t i = 0; i < 3; i++) {
		tm->m[i].ptag = natb_tag(c);
		natb_tx_udp(c, NATB_SIDE_OUT, S, tm->sport, tm->m[i].ext_ip, tm->m[i].ext_port,
			    tm->m[i].ptag);
	}
	if (!natb_pump(c, (unsigned)(NATB_PROBE_WAIT * 1000)))
		goto out;
	for (size_t i = 0; i < 3; i++)
		alive[i] = answered(c, TK_UDP, &tm->m[i]);
	ok = true;
	if (alive[2]) {
		natb_say(c, "udp refresh: the mapping left alone outlived 1.25 x the timeout: no "
			    "verdict");
		goto out;
	}
	u->refresh_out = alive[0] ? NATB_YES : NATB_NO;
	u->refresh_in = alive[1] ? NATB_YES : NATB_NO;
	natb_say(c, "udp refresh: outbound %s, inbound %s", alive[0] ? "refreshes" : "does not",
		 alive[1] ? "refreshes" : "does not");
out:
	free(tm);
	return ok;
}

int natb_timeouts(struct natb_ctx *c, struct natb_result *r)
{
	struct timer *tm = calloc(TK_N, sizeof(*tm));
	struct natb_tmo *res[TK_N] = {&r->udp.timeout, &r->tcp.established, &r->tcp.transitory,
				      &r->icmp.query};
	bool on[TK_N] = {r->udp.on, r->tcp.on, r->tcp.on, r->icmp.on};
	int rc = -1;

	if (!tm)
		return -1;
	natb_log_clear(c);
	for (int k = 0; k < TK_N; k++) {
		tm[k].on = on[k];
		tm[k].res = res[k];
		tm[k].sport = (uint16_t)(3478 + 2 + k);
		if (!on[k])
			continue;
		tm[k].n = natb_plan(NATB_TMO_FIRST, NATB_TMO_RATIO, c->o->tmax, tm[k].t, NATB_TMO_MAX);
		make(c, k, &tm[k]);
	}
	natb_say(c, "timeouts: %zu, %zu, %zu and %zu mappings (udp, tcp established, tcp "
		    "transitory, icmp), probed from %.0f s to %.0f s",
		 tm[TK_UDP].n, tm[TK_TCP_EST].n, tm[TK_TCP_TRANS].n, tm[TK_ICMP].n, NATB_TMO_FIRST,
		 c->o->tmax);
	if (!natb_pump(c, 300))
		goto out;
	for (int k = 0; k < TK_N; k++)
		if (on[k])
			learn(c, k, &tm[k]);
	if (on[TK_TCP_EST] && tm[TK_TCP_EST].n && !handshake(c, &tm[TK_TCP_EST]))
		goto out;
	for (int k = 0; k < TK_N; k++)
		if (on[k] && !tm[k].n) {
			res[k]->st = NATB_TMO_FAILED;
			tm[k].done = true;
		}
	if (!search(c, tm))
		goto out;
	if (r->udp.on && r->udp.timeout.st == NATB_TMO_FOUND && r->udp.timeout.s * 1.25 <= c->o->tmax &&
	    !refresh(c, &r->udp))
		goto out;
	rc = 0;
out:
	free(tm);
	return rc;
}
