/*
 * natb.c — `bench nat` on the console's thread: flowgen plays internal
 * hosts on the client port of a pair and external servers on the server
 * port, sends crafted probes through the NAT and reads what comes out on
 * the other side (natb_io.c), then names the behaviours with the pure
 * judge (src/core/natb_judge.c). One burst of probes per question, fresh
 * internal ports for every mapping, and each question on internal
 * addresses of its own (natb_int.h), so that no answer leans on another:
 *
 *  - mapping (RFC 4787 §4.1, RFC 5382 §4.1): one internal endpoint to 2
 *    external addresses x 2 ports with ports that collide with nothing;
 *    then under contention: a second internal address takes the same
 *    internal port towards one server first, and the first asks for it
 *    towards another server and the taken one (free one first, then the
 *    mirror: taken one first). A NAT that keeps a port only while it is
 *    free towards a destination maps by destination: not
 *    endpoint-independent. What became of it (natb_contention): seen,
 *    a probe lost, never on A's address, or impossible (every internal
 *    address on an external one of its own);
 *  - every mapping seen feeds port overloading (two internal endpoints on
 *    one external endpoint towards one server endpoint: RFC 4787 REQ-3,
 *    RFC 5382 REQ-7), the port range (REQ-3a), and whether anything was
 *    translated at all;
 *  - pooling: 4 internal addresses to 4 servers; port allocation: 32
 *    consecutive internal ports, each towards a destination (address and
 *    port) of its own, so that a counter offset by a hash of the
 *    destination (RFC 6056 §3.3.3, §3.3.4) shows as what it is; then
 *    the same ports from another internal address towards the same
 *    destinations, for the ports the NAT chooses when it must (RFC 7857
 *    §10, RFC 6056 §4);
 *  - filtering: unsolicited packets to a mapping from another port of the
 *    contacted address and from another address (RFC 4787 §5), beside one
 *    from the contacted endpoint that must come in;
 *  - hairpinning (RFC 4787 §6): another internal address sends to the
 *    first one's external endpoint; it must arrive from the sender's own
 *    external address and port;
 *  - ICMP: an inbound port unreachable about a mapped UDP flow and a TCP
 *    connection (RFC 5508 §4.2, RFC 5382 REQ-9), the UDP mapping still
 *    working after it (RFC 4787 REQ-12); out-of-order fragments on a
 *    mapping of their own (REQ-14); echo requests towards two servers and
 *    their replies (RFC 5508 REQ-1, natb_icmp.c);
 *  - RFC 6888: 1,024 mappings from one address (a subscriber), then
 *    whether its earlier mapping and another address still work.
 *
 * Then the timeout searches and the refresh test (natb_timer.c).
 * Service mode is switched on for the bench if it was off (the workers
 * then punt every frame they do not answer) and off again afterwards.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "ctl.h"
#include "errval.h"
#include "natb_int.h"
#include "pkt.h"
#include "port.h"
#include "svc.h"
#include "log.h"

#define NATB_ALLOC_N 32
#define NATB_QUOTA_N 1024
#define NATB_SEEN_CAP 160

/* Every mapping seen for one protocol. */
struct seen {
	struct natb_obs o[NATB_SEEN_CAP];
	size_t n;
};

/* One outbound packet that opens a mapping, and what came out of it. */
struct probe {
	uint32_t sip, dip;
	uint16_t sp, dp;
	uint32_t tag; /* UDP: first payload word; TCP: the SYN's seq */
	struct natb_ep ext;
};

static const char *ip_s(uint32_t ip, char *b)
{
	uint32_t be = htonl(ip);

	return inet_ntop(AF_INET, &be, b, INET_ADDRSTRLEN);
}

static const char *proto_s(uint8_t proto) { return proto == IPPROTO_TCP ? "tcp" : "udp"; }

static const struct natb_rx *find_syn(const struct natb_ctx *c, int side, uint32_t seq)
{
	for (size_t i = 0; i < c->nlog; i++)
		if (c->log[i].side == side && c->log[i].proto == IPPROTO_TCP &&
		    c->log[i].tag == seq && (c->log[i].flags & RTE_TCP_SYN_FLAG))
			return &c->log[i];
	return NULL;
}

/* a tag for an opening packet: TCP sequence numbers leave room for +1 */
static uint32_t otag(struct natb_ctx *c, uint8_t proto)
{
	return proto == IPPROTO_TCP ? natb_tag(c) << 8 : natb_tag(c);
}

static void tx_open(struct natb_ctx *c, uint8_t proto, const struct probe *p)
{
	if (proto == IPPROTO_TCP)
		natb_tx_tcp(c, NATB_SIDE_IN, p->sip, p->sp, p->dip, p->dp, p->tag, 0,
			    RTE_TCP_SYN_FLAG, 0);
	else
		natb_tx_udp(c, NATB_SIDE_IN, p->sip, p->sp, p->dip, p->dp, p->tag);
}

static const struct natb_rx *out_of(const struct natb_ctx *c, uint8_t proto, uint32_t tag)
{
	return proto == IPPROTO_TCP ? find_syn(c, NATB_SIDE_OUT, tag)
				    : natb_find(c, NATB_SIDE_OUT, IPPROTO_UDP, tag);
}

static struct probe mk(struct natb_ctx *c, uint8_t proto, uint32_t sip, uint16_t sp, uint32_t dip,
		       uint16_t dp)
{
	return (struct probe){.sip = sip, .sp = sp, .dip = dip, .dp = dp, .tag = otag(c, proto)};
}

/*
 * Send the opening packets p[0..n) (gap_ms apart, in order, or at once in
 * bursts of 64: a lab's veths drop what they cannot take at once), send
 * the lost ones once more, and note where each came out; every one goes
 * into s. false on ^C.
 */
static bool opens(struct natb_ctx *c, uint8_t proto, struct probe *p, size_t n, unsigned gap_ms,
		  struct seen *s)
{
	natb_log_clear(c);
	for (size_t i = 0; i < n; i++) {
		tx_open(c, proto, &p[i]);
		if (gap_ms ? !natb_pump(c, gap_ms) : i % 64 == 63 && !natb_pump(c, 2))
			return false;
	}
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!out_of(c, proto, p[i].tag)) {
			tx_open(c, proto, &p[i]);
			if (gap_ms && !natb_pump(c, gap_ms))
				return false;
		}
	if (!natb_pump(c, 50))
		return false;
	for (size_t i = 0; i < n; i++) {
		const struct natb_rx *r = out_of(c, proto, p[i].tag);

		p[i].ext = r ? (struct natb_ep){r->sip, r->sport} : (struct natb_ep){0, 0};
		if (s && s->n < NATB_SEEN_CAP)
			s->o[s->n++] =
			    (struct natb_obs){{p[i].sip, p[i].sp}, p[i].ext, {p[i].dip, p[i].dp}};
	}
	return true;
}

/* one internal endpoint towards 2 addresses x 2 ports: m[address][port] */
static bool mapping4(struct natb_ctx *c, uint8_t proto, uint32_t I, uint16_t a,
		     struct natb_ep m[2][2], struct seen *s)
{
	struct probe p[4];

	for (int k = 0; k < 4; k++)
		p[k] = mk(c, proto, I, a, c->out[k / 2], (uint16_t)(NATB_SPORT + k % 2));
	if (!opens(c, proto, p, 4, 0, s))
		return false;
	for (int k = 0; k < 4; k++)
		m[k / 2][k % 2] = p[k].ext;
	return true;
}

/*
 * Mapping under contention: in[A] takes internal port a towards
 * out[0]:SPORT first; then in[B]:a goes to out[0]:SPORT + 1, out[1]:SPORT,
 * out[1]:SPORT + 1 and the taken out[0]:SPORT, in that order (or the
 * taken one first), 20 ms apart so that the NAT sees them in order. What
 * came out goes into *cp (natb_contention reads it).
 */
static bool contended(struct natb_ctx *c, uint8_t proto, bool taken_first,
		      struct natb_cont_probe *cp, struct seen *s)
{
	const uint16_t a = natb_port(c);
	struct probe pa = mk(c, proto, c->in[NATB_IN_A], a, c->out[0], NATB_SPORT), p[4];
	struct natb_ep(*m)[2] = cp->b;
	char x[5][INET_ADDRSTRLEN];
	bool shared = false;

	memset(cp, 0, sizeof(*cp));
	if (!opens(c, proto, &pa, 1, 0, s))
		return false;
	cp->a = pa.ext;
	if (!pa.ext.ip) {
		natb_say(c, "%s: contention: the first mapping did not come out", proto_s(proto));
		return true;
	}
	/* p[0] is the taken destination, m[0][0] */
	for (int k = 0; k < 4; k++)
		p[k] = mk(c, proto, c->in[NATB_IN_B], a, c->out[k / 2],
			  (uint16_t)(NATB_SPORT + k % 2));
	if (!taken_first) {
		struct probe t = p[0];

		memmove(p, p + 1, 3 * sizeof(p[0]));
		p[3] = t;
	}
	if (!opens(c, proto, p, 4, 20, s))
		return false;
	for (int k = 0; k < 4; k++) {
		const int j = taken_first ? k : (k + 1) % 4; /* p[k] towards destination j */

		m[j / 2][j % 2] = p[k].ext;
		shared |= p[k].ext.ip && p[k].ext.ip == pa.ext.ip;
	}
	natb_say(c,
		 "%s: contention (%s first): A:%u got %s:%u towards S1:%u; B:%u got %s:%u (S1:%u), "
		 "%s:%u (S1:%u), %s:%u (S2:%u), %s:%u (S2:%u): %s",
		 proto_s(proto), taken_first ? "taken" : "free", a, ip_s(pa.ext.ip, x[0]),
		 pa.ext.port, NATB_SPORT, a, ip_s(m[0][0].ip, x[1]), m[0][0].port, NATB_SPORT,
		 ip_s(m[0][1].ip, x[2]), m[0][1].port, NATB_SPORT + 1, ip_s(m[1][0].ip, x[3]),
		 m[1][0].port, NATB_SPORT, ip_s(m[1][1].ip, x[4]), m[1][1].port, NATB_SPORT + 1,
		 natb_dep_names[natb_mapping(m)]);
	if (!m[0][0].ip || !m[0][1].ip || !m[1][0].ip || !m[1][1].ip)
		natb_say(c, "%s: contention: a probe of B did not come out", proto_s(proto));
	else if (!shared)
		natb_say(c,
			 "%s: contention: B left by other external addresses than A: not "
			 "contended",
			 proto_s(proto));
	return true;
}

/* both orders of the contended probe */
static bool contention(struct natb_ctx *c, uint8_t proto, struct natb_cont_probe cp[2],
		       struct seen *s)
{
	return contended(c, proto, false, &cp[0], s) && contended(c, proto, true, &cp[1], s);
}

/* what became of the contended probe, once every mapping of the protocol
 * is in s: whether every internal address has an external one of its own */
static void contention_judge(struct natb_ctx *c, uint8_t proto, const struct natb_cont_probe cp[2],
			     const struct seen *s, enum natb_dep *dep, enum natb_cont *st)
{
	*st = natb_contention(cp, natb_own_addrs(s->o, s->n), dep);
	natb_say(c, "%s: contention: %s, contended mapping %s", proto_s(proto),
		 natb_cont_names[*st], natb_dep_names[*dep]);
}

/*
 * RFC 7857 §10: the ports the NAT chooses when it must. in[ALLOC2] asks
 * for the internal ports in[MAP] just got (pa[0..n)) towards the same
 * destinations; where it shares in[MAP]'s external address the NAT must
 * choose another port.
 */
static bool udp_alloc_contended(struct natb_ctx *c, struct natb_udp *u, const struct probe *pa,
				size_t n, struct seen *s)
{
	struct probe q[NATB_ALLOC_N];
	uint16_t in[NATB_ALLOC_N];
	struct natb_ep first[NATB_ALLOC_N], second[NATB_ALLOC_N];

	for (size_t k = 0; k < n; k++) {
		q[k] = mk(c, IPPROTO_UDP, c->in[NATB_IN_ALLOC2], pa[k].sp, pa[k].dip, pa[k].dp);
		in[k] = pa[k].sp;
		first[k] = pa[k].ext;
	}
	if (!opens(c, IPPROTO_UDP, q, n, 0, s))
		return false;
	char line[NATB_ALLOC_N * 7 + 1] = "";
	size_t len = 0;

	for (size_t k = 0; k < n; k++) {
		second[k] = q[k].ext;
		len += (size_t)snprintf(line + len, sizeof(line) - len, " %u", second[k].port);
	}
	u->alloc_contended =
	    natb_alloc_contended(in, first, second, n, &u->alloc_forced, &u->alloc_contended_step);
	natb_say(c, "udp: the same %zu ports from another address got:%s", n, line);
	natb_say(c, "udp: the same %zu ports from another address: %u had to change, %s (median "
		    "step %u)",
		 n, u->alloc_forced, natb_alloc_names[u->alloc_contended], u->alloc_contended_step);
	return true;
}

/* what every mapping of a protocol says: translated, overloading, range */
static void judge_seen(struct natb_ctx *c, const struct seen *s, uint8_t proto,
		       enum natb_tri *translated, enum natb_tri *overloading, enum natb_tri *range)
{
	*translated = natb_translated(s->o, s->n);
	*overloading = natb_overloading(s->o, s->n);
	if (range)
		*range = natb_port_range(s->o, s->n);
	if (*translated == NATB_NO)
		natb_say(c,
			 "%s: packets left the NAT with their internal source: no NAT on this "
			 "path (is the external address range translated?)",
			 proto_s(proto));
	else if (*translated == NATB_UNSEEN)
		natb_say(c, "%s: nothing came out of the NAT", proto_s(proto));
}

/* ---- UDP -------------------------------------------------------------------- */

/* mapping, contention, pooling and port allocation: outbound packets only */
static bool udp_mapping(struct natb_ctx *c, struct natb_udp *u, struct seen *s)
{
	const uint32_t I = c->in[NATB_IN_MAP];
	struct probe pp[16], pa[NATB_ALLOC_N];
	struct natb_cont_probe cp[2];
	struct natb_ep m[2][2];
	uint32_t ext[16];
	uint16_t ain[NATB_ALLOC_N], aext[NATB_ALLOC_N];
	size_t na = 0, free0;
	unsigned same = 0, parity = 0, any = 0;

	natb_say(c,
		 "udp: mapping (2 addresses x 2 ports, uncontended and contended), pooling "
		 "(4 x 4), %d ports towards %d destinations",
		 NATB_ALLOC_N, NATB_ALLOC_N);
	if (!mapping4(c, IPPROTO_UDP, I, natb_port(c), m, s))
		return false;
	u->mapping = natb_mapping(m);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			pp[i * 4 + j] = mk(c, IPPROTO_UDP, c->in[NATB_IN_POOL + i], natb_port(c),
					   c->out[2 + j], NATB_SPORT);
	if (!opens(c, IPPROTO_UDP, pp, 16, 0, s))
		return false;
	for (int k = 0; k < 16; k++)
		ext[k] = pp[k].ext.ip;
	u->pooling = natb_pooling(ext, 4, 4, &u->ext_addrs);
	/* consecutive internal ports, each towards an address and port of its own */
	for (int k = 0; k < NATB_ALLOC_N; k++)
		pa[k] = mk(c, IPPROTO_UDP, I, natb_port(c), c->out[k % 8],
			   (uint16_t)(NATB_SPORT + 4 + k / 8));
	if (!opens(c, IPPROTO_UDP, pa, NATB_ALLOC_N, 0, s))
		return false;
	for (int k = 0; k < NATB_ALLOC_N; k++)
		if (pa[k].ext.ip) {
			ain[na] = pa[k].sp;
			aext[na++] = pa[k].ext.port;
		}
	u->alloc = natb_alloc_of(ain, aext, na, &u->contiguity_pct, &u->alloc_step);
	u->alloc_n = (unsigned)na;
	if (na) {
		char line[NATB_ALLOC_N * 7 + 1];
		size_t len = 0;

		for (size_t k = 0; k < na; k++)
			len += (size_t)snprintf(line + len, sizeof(line) - len, " %u", aext[k]);
		natb_say(c, "udp: ports from %u.. towards %zu destinations:%s", ain[0], na, line);
	}
	/* preservation and parity from the mappings that collided with nothing */
	free0 = s->n;
	for (size_t i = 0; i < free0; i++)
		if (s->o[i].ext.ip) {
			any++;
			same += s->o[i].ext.port == s->o[i].in.port;
			parity += (s->o[i].ext.port & 1) == (s->o[i].in.port & 1);
		}
	if (any) {
		u->preserve = same == any ? NATB_YES : NATB_NO;
		u->parity = parity == any ? NATB_YES : NATB_NO;
	}
	if (!udp_alloc_contended(c, u, pa, NATB_ALLOC_N, s) || !contention(c, IPPROTO_UDP, cp, s))
		return false;
	contention_judge(c, IPPROTO_UDP, cp, s, &u->mapping_contended, &u->contention);
	judge_seen(c, s, IPPROTO_UDP, &u->translated, &u->overloading, &u->in_range);
	natb_say(c,
		 "udp: mapping %s, contended %s, pooling %s (%u external address(es)), ports "
		 "%s (median step %u)",
		 natb_dep_names[u->mapping], natb_dep_names[u->mapping_contended],
		 natb_pool_names[u->pooling], u->ext_addrs, natb_alloc_names[u->alloc],
		 u->alloc_step);
	return true;
}

/* the ICMP error of an inbound port unreachable, as it came in */
static const struct natb_rx *find_err(const struct natb_ctx *c, uint32_t itag)
{
	for (size_t i = 0; i < c->nlog; i++)
		if (c->log[i].side == NATB_SIDE_IN && c->log[i].proto == IPPROTO_ICMP &&
		    c->log[i].type == 3 && c->log[i].itag == itag)
			return &c->log[i];
	return NULL;
}

/* the sender of a hairpinned packet: its mapping towards a server first */
static bool hairpin_sender(struct natb_ctx *c, uint8_t proto, uint16_t h, struct natb_ep *ext,
			   struct seen *s)
{
	struct probe p = mk(c, proto, c->in[NATB_IN_HAIR], h, c->out[0], NATB_SPORT + 2);

	if (!opens(c, proto, &p, 1, 0, s))
		return false;
	*ext = p.ext;
	return true;
}

/* REQ-12: after the ICMP error, the mapping still lets its server in */
static bool udp_after(struct natb_ctx *c, struct natb_udp *u, uint32_t X, uint16_t xb, uint16_t b)
{
	const uint32_t t = natb_tag(c);
	const struct natb_rx *r;

	natb_log_clear(c);
	natb_tx_udp(c, NATB_SIDE_OUT, c->out[0], NATB_SPORT, X, xb, t);
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	r = natb_find(c, NATB_SIDE_IN, IPPROTO_UDP, t);
	u->icmp_keeps = r && r->dip == c->in[NATB_IN_MAP] && r->dport == b ? NATB_YES : NATB_NO;
	return true;
}

/*
 * REQ-14, on a mapping of its own: a datagram from the server in two
 * fragments, the second sent first, gets through translated: reassembled,
 * or as fragments again (a Linux NAT forwards them as it got them).
 */
static bool udp_frags(struct natb_ctx *c, struct natb_udp *u)
{
	const uint32_t I = c->in[NATB_IN_FRAG], t_frag = natb_tag(c);
	const uint16_t ipid = (uint16_t)natb_tag(c);
	struct probe p = mk(c, IPPROTO_UDP, I, natb_port(c), c->out[0], NATB_SPORT);
	const struct natb_rx *first = NULL;
	bool rest = false;

	if (!opens(c, IPPROTO_UDP, &p, 1, 0, NULL))
		return false;
	if (!p.ext.ip)
		return true;
	natb_log_clear(c);
	natb_tx_frags(c, NATB_SIDE_OUT, c->out[0], NATB_SPORT, p.ext.ip, p.ext.port, t_frag, ipid);
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	for (size_t i = 0; i < c->nlog; i++) {
		const struct natb_rx *r = &c->log[i];

		if (r->side == NATB_SIDE_IN && r->proto == IPPROTO_UDP && r->dip == I &&
		    r->tag == t_frag && r->dport == p.sp && (!r->frag || !r->frag_off))
			first = r;
	}
	/* fragments again: the rest must come with the first one's id */
	if (first && first->frag)
		for (size_t i = 0; i < c->nlog; i++)
			rest |= c->log[i].side == NATB_SIDE_IN && c->log[i].frag &&
				c->log[i].frag_off && c->log[i].ipid == first->ipid &&
				c->log[i].dip == I;
	u->frags = first && (!first->frag || rest) ? NATB_YES : NATB_NO;
	natb_say(c, "udp: out-of-order fragments %s", u->frags == NATB_YES ? "through" : "lost");
	return true;
}

/*
 * RFC 6888: an earlier mapping of the subscriber, then NATB_QUOTA_N
 * mappings towards one server; then whether the earlier mapping still
 * lets its server in, and whether another address still gets a mapping.
 */
static bool udp_quota(struct natb_ctx *c, struct natb_udp *u)
{
	const uint32_t Q = c->in[NATB_IN_QUOTA];
	struct natb_quota *q = &u->quota;
	struct probe e = mk(c, IPPROTO_UDP, Q, natb_port(c), c->out[6], NATB_SPORT), o;
	uint32_t tag0 = 0, t_kept;
	uint16_t p0 = 0;
	size_t got = 0;
	bool icmp = false;
	const struct natb_rx *r;

	natb_say(c, "udp: %u mappings from one internal address", NATB_QUOTA_N);
	if (!opens(c, IPPROTO_UDP, &e, 1, 0, NULL))
		return false;
	natb_log_clear(c);
	for (unsigned k = 0; k < NATB_QUOTA_N; k++) {
		const uint32_t t = natb_tag(c);
		const uint16_t p = natb_port(c);

		if (!k) {
			tag0 = t;
			p0 = p;
		}
		natb_tx_udp(c, NATB_SIDE_IN, Q, p, c->out[5], NATB_SPORT, t);
		if (k % 64 == 63 && !natb_pump(c, 2))
			return false;
	}
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	for (size_t i = 0; i < c->nlog; i++) {
		const struct natb_rx *x = &c->log[i];

		got += x->side == NATB_SIDE_OUT && x->proto == IPPROTO_UDP && x->dip == c->out[5] &&
		       x->tag - tag0 < NATB_QUOTA_N;
		/* RFC 6888 REQ-11 B, RFC 5508 REQ-8: an ICMP error about one of them */
		icmp |= x->side == NATB_SIDE_IN && x->proto == IPPROTO_ICMP && x->type == 3 &&
			x->dip == Q && x->isip == Q && (uint16_t)(x->isport - p0) < NATB_QUOTA_N;
	}
	q->tried = NATB_QUOTA_N;
	q->got = (unsigned)got;
	q->icmp = icmp ? NATB_YES : NATB_NO;
	/* the earlier mapping, and another subscriber */
	o = mk(c, IPPROTO_UDP, c->in[NATB_IN_OTHER], natb_port(c), c->out[6], NATB_SPORT);
	if (!opens(c, IPPROTO_UDP, &o, 1, 0, NULL))
		return false;
	q->others = o.ext.ip ? NATB_YES : NATB_NO;
	if (e.ext.ip) {
		natb_log_clear(c);
		natb_tx_udp(c, NATB_SIDE_OUT, c->out[6], NATB_SPORT, e.ext.ip, e.ext.port,
			    t_kept = natb_tag(c));
		if (!natb_pump(c, NATB_WAIT_MS))
			return false;
		r = natb_find(c, NATB_SIDE_IN, IPPROTO_UDP, t_kept);
		q->kept = r && r->dip == Q && r->dport == e.sp ? NATB_YES : NATB_NO;
	}
	natb_say(c,
		 "udp: %u of %u mappings from one address; its earlier mapping %s, another "
		 "address %s",
		 q->got, q->tried,
		 q->kept == NATB_YES  ? "kept"
		 : q->kept == NATB_NO ? "gone"
				      : "not made",
		 q->others == NATB_YES ? "still gets one" : "gets none");
	return true;
}

/* filtering, hairpinning and ICMP error translation on one mapping */
static bool udp_filtering(struct natb_ctx *c, struct natb_udp *u, struct natb_icmp *ic)
{
	const uint32_t I = c->in[NATB_IN_MAP];
	const uint16_t b = natb_port(c), h = natb_port(c);
	uint32_t t_port, t_addr, t_self, t_hair, t_err;
	struct probe p = mk(c, IPPROTO_UDP, I, b, c->out[0], NATB_SPORT);
	struct natb_ep hx;
	const struct natb_rx *r;
	uint32_t X;
	uint16_t xb;
	char s[INET_ADDRSTRLEN];

	if (!opens(c, IPPROTO_UDP, &p, 1, 0, NULL) || !hairpin_sender(c, IPPROTO_UDP, h, &hx, NULL))
		return false;
	if (!p.ext.ip) {
		natb_say(c, "udp: filtering: the mapping's first packet did not come out");
		return true;
	}
	X = p.ext.ip;
	xb = p.ext.port;
	natb_say(c, "udp: filtering and hairpinning on %s:%u", ip_s(X, s), xb);
	natb_log_clear(c);
	natb_tx_udp(c, NATB_SIDE_OUT, c->out[0], NATB_SPORT + 1, X, xb, t_port = natb_tag(c));
	natb_tx_udp(c, NATB_SIDE_OUT, c->out[7], NATB_SPORT, X, xb, t_addr = natb_tag(c));
	natb_tx_udp(c, NATB_SIDE_OUT, c->out[0], NATB_SPORT, X, xb, t_self = natb_tag(c));
	natb_tx_udp(c, NATB_SIDE_IN, c->in[NATB_IN_HAIR], h, X, xb, t_hair = natb_tag(c));
	t_err = natb_tag(c);
	if (ic->on)
		natb_tx_unreach(c, NATB_SIDE_OUT, IPPROTO_UDP, c->out[0], X, X, xb, c->out[0],
				NATB_SPORT, t_err);
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	if (natb_find(c, NATB_SIDE_IN, IPPROTO_UDP, t_self))
		u->filtering = natb_filtering(natb_find(c, NATB_SIDE_IN, IPPROTO_UDP, t_port),
					      natb_find(c, NATB_SIDE_IN, IPPROTO_UDP, t_addr));
	else
		natb_say(c, "udp: filtering: the contacted server's own reply did not come in");
	r = natb_find(c, NATB_SIDE_IN, IPPROTO_UDP, t_hair);
	u->hairpin = r && r->dip == I && r->dport == b ? NATB_YES : NATB_NO;
	if (u->hairpin == NATB_YES)
		u->hairpin_ext =
		    natb_hairpin_src((struct natb_ep){r->sip, r->sport}, hx,
				     (struct natb_ep){c->in[NATB_IN_HAIR], h}, u->mapping);
	if (ic->on) {
		r = find_err(c, t_err);
		ic->err_xlate = r && r->dip == I && r->isip == I && r->isport == b &&
					r->idip == c->out[0] && r->idport == NATB_SPORT
				    ? NATB_YES
				    : NATB_NO;
	}
	natb_say(c, "udp: filtering %s, hairpinning %s%s", natb_dep_names[u->filtering],
		 u->hairpin == NATB_YES ? "yes" : "no",
		 u->hairpin_ext == NATB_YES ? " (from the sender's external endpoint)" : "");
	return !ic->on || udp_after(c, u, X, xb, b);
}

/* ---- TCP -------------------------------------------------------------------- */

static bool tcp_behaviour(struct natb_ctx *c, struct natb_tcp *t)
{
	const uint32_t I = c->in[NATB_IN_MAP];
	const uint16_t b = natb_port(c), h = natb_port(c);
	struct probe p = mk(c, IPPROTO_TCP, I, b, c->out[0], NATB_SPORT);
	uint32_t t_port, t_addr, t_self, t_hair;
	struct natb_ep m[2][2], hx;
	struct natb_cont_probe cp[2];
	struct seen *s = calloc(1, sizeof(*s));
	const struct natb_rx *r;
	unsigned same = 0, any = 0;
	bool ok = false;
	uint32_t X;
	uint16_t xb;

	if (!s)
		return false;
	natb_say(c, "tcp: mapping (2 addresses x 2 ports, uncontended and contended), filtering, "
		    "hairpinning");
	if (!mapping4(c, IPPROTO_TCP, I, natb_port(c), m, s))
		goto out;
	t->mapping = natb_mapping(m);
	for (size_t i = 0; i < s->n; i++)
		if (s->o[i].ext.ip) {
			any++;
			same += s->o[i].ext.port == s->o[i].in.port;
		}
	if (any)
		t->preserve = same == any ? NATB_YES : NATB_NO;
	if (!contention(c, IPPROTO_TCP, cp, s) || !opens(c, IPPROTO_TCP, &p, 1, 0, s) ||
	    !hairpin_sender(c, IPPROTO_TCP, h, &hx, s))
		goto out;
	contention_judge(c, IPPROTO_TCP, cp, s, &t->mapping_contended, &t->contention);
	judge_seen(c, s, IPPROTO_TCP, &t->translated, &t->overloading, NULL);
	ok = true;
	if (!p.ext.ip) {
		natb_say(c, "tcp: the SYN did not come out of the NAT");
		goto out;
	}
	X = p.ext.ip;
	xb = p.ext.port;
	ok = false;
	natb_log_clear(c);
	natb_tx_tcp(c, NATB_SIDE_OUT, c->out[0], NATB_SPORT + 1, X, xb, t_port = natb_tag(c) << 8,
		    0, RTE_TCP_SYN_FLAG, 0);
	natb_tx_tcp(c, NATB_SIDE_OUT, c->out[7], NATB_SPORT, X, xb, t_addr = natb_tag(c) << 8, 0,
		    RTE_TCP_SYN_FLAG, 0);
	natb_tx_tcp(c, NATB_SIDE_OUT, c->out[0], NATB_SPORT, X, xb, t_self = natb_tag(c) << 8,
		    p.tag + 1, RTE_TCP_SYN_FLAG | RTE_TCP_ACK_FLAG, 0);
	natb_tx_tcp(c, NATB_SIDE_IN, c->in[NATB_IN_HAIR], h, X, xb, t_hair = natb_tag(c) << 8, 0,
		    RTE_TCP_SYN_FLAG, 0);
	if (!natb_pump(c, NATB_WAIT_MS))
		goto out;
	if (find_syn(c, NATB_SIDE_IN, t_self))
		t->filtering = natb_filtering(find_syn(c, NATB_SIDE_IN, t_port) != NULL,
					      find_syn(c, NATB_SIDE_IN, t_addr) != NULL);
	else
		natb_say(c, "tcp: filtering: the contacted server's SYN-ACK did not come in");
	r = find_syn(c, NATB_SIDE_IN, t_hair);
	t->hairpin = r && r->dip == I && r->dport == b ? NATB_YES : NATB_NO;
	if (t->hairpin == NATB_YES)
		t->hairpin_ext =
		    natb_hairpin_src((struct natb_ep){r->sip, r->sport}, hx,
				     (struct natb_ep){c->in[NATB_IN_HAIR], h}, t->mapping);
	/* RFC 5382 REQ-9: a port unreachable about the connection's SYN */
	natb_log_clear(c);
	natb_tx_unreach(c, NATB_SIDE_OUT, IPPROTO_TCP, c->out[0], X, X, xb, c->out[0], NATB_SPORT,
			p.tag);
	if (!natb_pump(c, NATB_WAIT_MS))
		goto out;
	r = find_err(c, p.tag);
	t->err_xlate = r && r->dip == I && r->iproto == IPPROTO_TCP && r->isip == I &&
			       r->isport == b && r->idip == c->out[0] && r->idport == NATB_SPORT
			   ? NATB_YES
			   : NATB_NO;
	natb_say(c, "tcp: mapping %s, contended %s, filtering %s, hairpinning %s",
		 natb_dep_names[t->mapping], natb_dep_names[t->mapping_contended],
		 natb_dep_names[t->filtering], t->hairpin == NATB_YES ? "yes" : "no");
	ok = true;
out:
	free(s);
	return ok;
}

/*
 * Before the first question: a datagram out every 100 ms until one comes
 * through (up to 3 s). The workers switch to service mode when they read
 * their mailboxes, and the NAT may have next hops to resolve: neither
 * must eat the first burst of probes.
 */
static bool warm_up(struct natb_ctx *c)
{
	for (int i = 0; i < 30; i++) {
		const uint32_t t = natb_tag(c);

		natb_log_clear(c);
		natb_tx_udp(c, NATB_SIDE_IN, c->in[0], natb_port(c), c->out[7], 9, t);
		if (!natb_pump(c, 100))
			return false;
		if (natb_find(c, NATB_SIDE_OUT, IPPROTO_UDP, t))
			return true;
	}
	natb_say(c, "warning: nothing came through the NAT in 3 s (are the servers' addresses "
		    "routed to the server port and translated?)");
	return true;
}

static bool udp_all(struct natb_ctx *c, struct natb_result *r)
{
	struct seen *s = calloc(1, sizeof(*s));
	bool ok;

	if (!s)
		return false;
	ok = udp_mapping(c, &r->udp, s) && udp_filtering(c, &r->udp, &r->icmp) &&
	     udp_frags(c, &r->udp) && udp_quota(c, &r->udp);
	free(s);
	return ok;
}

/* ---- the bench ---------------------------------------------------------------- */

static int gw_known(int p, struct fg_error *fe)
{
	struct port *pt = &fg_port[p];
	uint64_t mac;

	if (pt->gw_mac & PORT_MAC_KNOWN)
		return 0;
	if (!pt->gw || svc_resolve(p, pt->gw, &mac, 1000) != 0) {
		return fg_error_set(fe, FG_E_FAILED, NULL, "no default_gw, or no ARP reply",
				    "bench nat: port %d: next hop unknown", p);
	}
	svc_set_gw(p, mac, false);
	return 0;
}

static int setup(struct natb_ctx *c, const struct natb_opts *o, struct fg_error *fe)
{
	uint32_t in0, out0;

	c->port[0] = 2 * o->pair;
	c->port[1] = 2 * o->pair + 1;
	if (c->port[1] >= fg_nports)
		return fg_error_set(fe, FG_E_USAGE, "--pair", NULL, "bench nat: no port pair %d",
				    o->pair);
	in0 = o->inside ? o->inside : fg_port[c->port[0]].v.ip;
	out0 = o->outside ? o->outside : fg_port[c->port[1]].v.ip + 1;
	if (!in0 || !fg_port[c->port[1]].v.ip)
		return fg_error_set(fe, FG_E_REFUSED, NULL, "or give --inside and --outside",
				    "bench nat: the ports need an ip");
	for (int i = 0; i < NATB_NADDR; i++) {
		c->in[i] = in0 + (uint32_t)i;
		c->out[i] = out0 + (uint32_t)i;
		if (c->in[i] == fg_port[c->port[0]].gw || c->out[i] == fg_port[c->port[1]].gw ||
		    c->out[i] == fg_port[c->port[1]].v.ip)
			return fg_error_set(fe, FG_E_USAGE, o->inside ? "--inside" : "--outside", NULL,
					    "bench nat: the %d addresses from --inside and "
					    "--outside must not hold the next hop or the server "
					    "port's own address",
					    NATB_NADDR);
	}
	if (gw_known(c->port[0], fe) || gw_known(c->port[1], fe))
		return -1;
	return 0;
}

int natb_run(const struct natb_opts *o, struct natb_result *r, struct fg_error *fe)
{
	struct natb_ctx c = {.o = o};
	bool svc_was = svc_service(), ok = true;
	uint64_t seed = rte_rdtsc() ^ (uint64_t)getpid() << 16;
	char a[INET_ADDRSTRLEN], b[INET_ADDRSTRLEN];

	memset(r, 0, sizeof(*r));
	r->tmax = o->tmax;
	r->udp.on = o->udp;
	r->tcp.on = o->tcp;
	r->icmp.on = o->icmp;
	fg_error_clear(fe);
	if (ctl_busy())
		return fg_error_set(fe, FG_E_REFUSED, NULL, "stop it first",
				    "bench nat: traffic is running");
	if (!svc_was) {
		svc_set_service(true);
		usleep(20 * 1000); /* the workers read their mailboxes every few turns */
	}
	if (setup(&c, o, fe) == 0 && natb_io_open(&c) != 0)
		fg_error_set(fe, FG_E_FAILED, NULL, NULL, "bench nat: out of memory");
	if (fe->code != FG_E_NONE) {
		if (!svc_was)
			svc_set_service(false);
		return -1;
	}
	/* fresh ports and tags every run: a NAT still holding the mappings of
	 * an earlier run must not answer this one's questions */
	c.next_port = (uint16_t)(20000 + seed % 40000);
	c.next_tag = (uint32_t)(seed >> 20) & 0xffffff;
	natb_say(&c, "internal hosts %s.., servers %s.., timeouts %s %.0f s", ip_s(c.in[0], a),
		 ip_s(c.out[0], b), o->tmax > 0 ? "up to" : "not measured:", o->tmax);
	ok = warm_up(&c);
	if (ok && o->udp)
		ok = udp_all(&c, r);
	if (ok && o->tcp)
		ok = tcp_behaviour(&c, &r->tcp);
	if (ok && o->icmp)
		ok = natb_icmp_echo(&c, &r->icmp);
	if (ok && o->tmax > 0)
		ok = natb_timeouts(&c, r) == 0;
	r->interrupted = !ok;
	r->qdrop = natb_io_qdrop();
	if (r->qdrop)
		natb_say(&c,
			 "warning: %llu frames found the probes' receive queue full and were "
			 "dropped: some answers may be missing",
			 (unsigned long long)r->qdrop);
	natb_io_close(&c);
	if (!svc_was)
		svc_set_service(false);
	return 0;
}
