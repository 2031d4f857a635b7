/*
 * natb.c — `bench nat` on the console's thread: flowgen plays internal
 * hosts on the client port of a pair and external servers on the server
 * port, sends crafted probes through the NAT and reads what comes out on
 * the other side (natb_io.c), then names the behaviours with the pure
 * judge (src/core/natb_judge.c). One burst of probes per question, with
 * fresh internal ports for every mapping so that no answer leans on an
 * earlier one:
 *
 *  - mapping: one internal endpoint to 2 external addresses x 2 ports
 *    (RFC 4787 §4.1); pooling: 4 internal addresses to 4 external ones;
 *    port allocation: 32 consecutive internal ports (preservation, parity,
 *    contiguity, randomness);
 *  - filtering: unsolicited packets to a mapping from another port of the
 *    contacted address and from another address (RFC 4787 §5), beside one
 *    from the contacted endpoint that must come in;
 *  - hairpinning: a second internal endpoint sends to the first one's
 *    external endpoint (RFC 4787 §6);
 *  - ICMP: an inbound port unreachable about a mapped UDP flow (RFC 5508
 *    §4.2), echo identifiers towards two servers.
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
#include "natb_int.h"
#include "pkt.h"
#include "port.h"
#include "svc.h"

#define NATB_SPORT 3478 /* the servers' ports: NATB_SPORT and NATB_SPORT + 1 */
#define NATB_WAIT_MS 300
#define NATB_ALLOC_N 32

static bool internal(const struct natb_ctx *c, uint32_t ip)
{
	for (int i = 0; i < NATB_NADDR; i++)
		if (c->in[i] == ip)
			return true;
	return false;
}

static const char *ip_s(uint32_t ip, char *b)
{
	uint32_t be = htonl(ip);

	return inet_ntop(AF_INET, &be, b, INET_ADDRSTRLEN);
}

/* ---- UDP -------------------------------------------------------------------- */

/* mapping, pooling and port allocation: outbound packets only */
static bool udp_mapping(struct natb_ctx *c, struct natb_udp *u, bool *plain)
{
	const uint32_t I = c->in[0];
	uint32_t tm[2][2], tp[4][4], ta[NATB_ALLOC_N], ext[4 * 4];
	uint16_t a = natb_port(c), pp[4][4], pa[NATB_ALLOC_N], ain[NATB_ALLOC_N], aext[NATB_ALLOC_N];
	struct natb_ep m[2][2] = {0};
	size_t na = 0;
	bool same = true, parity = true, own = true, untranslated = false;

	natb_say(c, "udp: mapping (2 addresses x 2 ports), pooling (4 x 4), %d ports in a row",
		 NATB_ALLOC_N);
	natb_log_clear(c);
	for (int s = 0; s < 2; s++)
		for (int p = 0; p < 2; p++)
			natb_tx_udp(c, NATB_SIDE_IN, I, a, c->out[s], NATB_SPORT + p,
				    tm[s][p] = natb_tag(c));
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			pp[i][j] = natb_port(c);
			natb_tx_udp(c, NATB_SIDE_IN, c->in[i], pp[i][j], c->out[2 + j], NATB_SPORT,
				    tp[i][j] = natb_tag(c));
		}
	for (int k = 0; k < NATB_ALLOC_N; k++) {
		pa[k] = natb_port(c);
		natb_tx_udp(c, NATB_SIDE_IN, I, pa[k], c->out[6], NATB_SPORT, ta[k] = natb_tag(c));
	}
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	/* a probe lost on the way is sent once more, as it was */
	for (int s = 0; s < 2; s++)
		for (int p = 0; p < 2; p++)
			if (!natb_find(c, NATB_SIDE_OUT, IPPROTO_UDP, tm[s][p]))
				natb_tx_udp(c, NATB_SIDE_IN, I, a, c->out[s], NATB_SPORT + p,
					    tm[s][p]);
	if (!natb_pump(c, 50))
		return false;
	for (int s = 0; s < 2; s++)
		for (int p = 0; p < 2; p++) {
			const struct natb_rx *r = natb_find(c, NATB_SIDE_OUT, IPPROTO_UDP, tm[s][p]);

			if (!r)
				continue;
			m[s][p] = (struct natb_ep){r->sip, r->sport};
			same &= r->sport == a;
			parity &= (r->sport & 1) == (a & 1);
			untranslated |= r->sip == I;
		}
	u->mapping = natb_mapping(m);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			const struct natb_rx *r = natb_find(c, NATB_SIDE_OUT, IPPROTO_UDP, tp[i][j]);

			ext[i * 4 + j] = r ? r->sip : 0;
			if (r) {
				same &= r->sport == pp[i][j];
				parity &= (r->sport & 1) == (pp[i][j] & 1);
			}
		}
	u->pooling = natb_pooling(ext, 4, 4, &u->ext_addrs);
	for (int k = 0; k < NATB_ALLOC_N; k++) {
		const struct natb_rx *r = natb_find(c, NATB_SIDE_OUT, IPPROTO_UDP, ta[k]);

		if (!r)
			continue;
		/* towards one server: every internal port its own external one */
		for (size_t j = 0; j < na; j++)
			own &= aext[j] != r->sport;
		own &= r->sport >= 1024;
		ain[na] = pa[k];
		aext[na++] = r->sport;
		same &= r->sport == pa[k];
		parity &= (r->sport & 1) == (pa[k] & 1);
	}
	u->alloc = natb_alloc_of(ain, aext, na, &u->contiguity_pct);
	if (na) {
		u->preserve = same ? NATB_YES : NATB_NO;
		u->parity = parity ? NATB_YES : NATB_NO;
		u->own_port = own ? NATB_YES : NATB_NO;
	}
	if (untranslated)
		natb_say(c, "udp: warning: packets left the NAT with their internal source: is "
			    "the external address range translated?");
	*plain |= untranslated;
	if (!na && u->mapping == NATB_DEP_UNKNOWN)
		natb_say(c, "udp: nothing came out of the NAT");
	natb_say(c, "udp: mapping %s, pooling %s (%u external address(es)), ports %s",
		 natb_dep_names[u->mapping], natb_pool_names[u->pooling], u->ext_addrs,
		 natb_alloc_names[u->alloc]);
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

/*
 * After the ICMP error: the mapping still lets its server in (RFC 4787
 * REQ-12), and a datagram from that server in two fragments, the second
 * sent first, gets through translated (REQ-14): reassembled, or as
 * fragments again (a Linux NAT forwards them as it got them).
 */
static bool udp_after(struct natb_ctx *c, struct natb_udp *u, bool err_sent, uint32_t X,
		      uint16_t xb, uint16_t b)
{
	const uint32_t I = c->in[0], t_after = natb_tag(c), t_frag = natb_tag(c);
	const uint16_t ipid = (uint16_t)natb_tag(c);
	const struct natb_rx *first = NULL;
	bool rest = false;

	natb_log_clear(c);
	if (err_sent)
		natb_tx_udp(c, NATB_SIDE_OUT, c->out[0], NATB_SPORT, X, xb, t_after);
	natb_tx_frags(c, NATB_SIDE_OUT, c->out[0], NATB_SPORT, X, xb, t_frag, ipid);
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	if (err_sent)
		u->icmp_keeps = natb_find(c, NATB_SIDE_IN, IPPROTO_UDP, t_after) ? NATB_YES : NATB_NO;
	for (size_t i = 0; i < c->nlog; i++) {
		const struct natb_rx *r = &c->log[i];

		if (r->side != NATB_SIDE_IN || r->proto != IPPROTO_UDP || r->dip != I)
			continue;
		if (r->tag == t_frag && r->dport == b && (!r->frag || !r->frag_off))
			first = r;
	}
	/* fragments again: the rest must come with the first one's id */
	if (first && first->frag)
		for (size_t i = 0; i < c->nlog; i++)
			rest |= c->log[i].side == NATB_SIDE_IN && c->log[i].frag &&
				c->log[i].frag_off && c->log[i].ipid == first->ipid &&
				c->log[i].dip == I;
	u->frags = first && (!first->frag || rest) ? NATB_YES : NATB_NO;
	natb_say(c, "udp: mapping %s after an ICMP error, out-of-order fragments %s",
		 u->icmp_keeps == NATB_YES ? "kept" : u->icmp_keeps == NATB_NO ? "gone" : "not tried",
		 u->frags == NATB_YES ? "through" : "lost");
	return true;
}

/* RFC 6888: how many mappings one internal address gets towards one server */
static bool udp_quota(struct natb_ctx *c, struct natb_udp *u)
{
	const unsigned n = 1024;
	uint32_t tag0 = 0;
	size_t seen = 0;

	natb_say(c, "udp: %u mappings from one internal address", n);
	natb_log_clear(c);
	for (unsigned k = 0; k < n; k++) {
		uint32_t t = natb_tag(c);

		if (!k)
			tag0 = t;
		natb_tx_udp(c, NATB_SIDE_IN, c->in[0], natb_port(c), c->out[5], NATB_SPORT, t);
		/* in bursts of 64: the veths of a lab drop what they cannot take at once */
		if (k % 64 == 63 && !natb_pump(c, 2))
			return false;
	}
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	for (size_t i = 0; i < c->nlog; i++)
		seen += c->log[i].side == NATB_SIDE_OUT && c->log[i].proto == IPPROTO_UDP &&
			c->log[i].dip == c->out[5] && c->log[i].tag - tag0 < n;
	u->quota = (unsigned)seen;
	u->quota_tried = n;
	return true;
}

/* filtering, hairpinning and ICMP error translation on one mapping */
static bool udp_filtering(struct natb_ctx *c, struct natb_udp *u, struct natb_icmp *ic)
{
	const uint32_t I = c->in[0];
	const uint16_t b = natb_port(c), h = natb_port(c);
	const uint32_t tb = natb_tag(c);
	uint32_t t_port, t_addr, t_self, t_hair, t_err;
	const struct natb_rx *r;
	uint32_t X;
	uint16_t xb;
	char s[INET_ADDRSTRLEN];

	natb_log_clear(c);
	natb_tx_udp(c, NATB_SIDE_IN, I, b, c->out[0], NATB_SPORT, tb);
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	r = natb_find(c, NATB_SIDE_OUT, IPPROTO_UDP, tb);
	if (!r) {
		natb_say(c, "udp: filtering: the mapping's first packet did not come out");
		return true;
	}
	X = r->sip;
	xb = r->sport;
	natb_say(c, "udp: filtering and hairpinning on %s:%u", ip_s(X, s), xb);
	natb_log_clear(c);
	natb_tx_udp(c, NATB_SIDE_OUT, c->out[0], NATB_SPORT + 1, X, xb, t_port = natb_tag(c));
	natb_tx_udp(c, NATB_SIDE_OUT, c->out[7], NATB_SPORT, X, xb, t_addr = natb_tag(c));
	natb_tx_udp(c, NATB_SIDE_OUT, c->out[0], NATB_SPORT, X, xb, t_self = natb_tag(c));
	natb_tx_udp(c, NATB_SIDE_IN, I, h, X, xb, t_hair = natb_tag(c));
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
		u->hairpin_ext = internal(c, r->sip) ? NATB_NO : NATB_YES;
	if (ic->on) {
		r = find_err(c, t_err);
		ic->err_xlate = r && r->dip == I && r->isip == I && r->isport == b &&
					r->idip == c->out[0] && r->idport == NATB_SPORT
				    ? NATB_YES
				    : NATB_NO;
	}
	natb_say(c, "udp: filtering %s, hairpinning %s", natb_dep_names[u->filtering],
		 u->hairpin == NATB_YES ? "yes" : "no");
	return udp_after(c, u, ic->on, X, xb, b);
}

/* ---- TCP -------------------------------------------------------------------- */

static const struct natb_rx *find_syn(const struct natb_ctx *c, int side, uint32_t seq)
{
	for (size_t i = 0; i < c->nlog; i++)
		if (c->log[i].side == side && c->log[i].proto == IPPROTO_TCP &&
		    c->log[i].tag == seq && (c->log[i].flags & RTE_TCP_SYN_FLAG))
			return &c->log[i];
	return NULL;
}

static bool tcp_behaviour(struct natb_ctx *c, struct natb_tcp *t)
{
	const uint32_t I = c->in[0];
	const uint16_t a = natb_port(c), b = natb_port(c), h = natb_port(c);
	const uint32_t tb = natb_tag(c) << 8;
	uint32_t tm[2][2], t_port, t_addr, t_self, t_hair;
	struct natb_ep m[2][2] = {0};
	const struct natb_rx *r;
	bool same = true, any = false;
	uint32_t X;
	uint16_t xb;

	natb_say(c, "tcp: mapping (2 addresses x 2 ports), filtering, hairpinning");
	natb_log_clear(c);
	for (int s = 0; s < 2; s++)
		for (int p = 0; p < 2; p++)
			natb_tx_tcp(c, NATB_SIDE_IN, I, a, c->out[s], NATB_SPORT + p,
				    tm[s][p] = natb_tag(c) << 8, 0, RTE_TCP_SYN_FLAG, 0);
	natb_tx_tcp(c, NATB_SIDE_IN, I, b, c->out[0], NATB_SPORT, tb, 0, RTE_TCP_SYN_FLAG, 0);
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	/* a SYN lost on the way is sent once more, as it was */
	for (int s = 0; s < 2; s++)
		for (int p = 0; p < 2; p++)
			if (!find_syn(c, NATB_SIDE_OUT, tm[s][p]))
				natb_tx_tcp(c, NATB_SIDE_IN, I, a, c->out[s], NATB_SPORT + p,
					    tm[s][p], 0, RTE_TCP_SYN_FLAG, 0);
	if (!natb_pump(c, 50))
		return false;
	for (int s = 0; s < 2; s++)
		for (int p = 0; p < 2; p++) {
			r = find_syn(c, NATB_SIDE_OUT, tm[s][p]);
			if (!r)
				continue;
			m[s][p] = (struct natb_ep){r->sip, r->sport};
			same &= r->sport == a;
			any = true;
		}
	t->mapping = natb_mapping(m);
	if (any)
		t->preserve = same ? NATB_YES : NATB_NO;
	r = find_syn(c, NATB_SIDE_OUT, tb);
	if (!r) {
		natb_say(c, "tcp: the SYN did not come out of the NAT");
		return true;
	}
	X = r->sip;
	xb = r->sport;
	natb_log_clear(c);
	natb_tx_tcp(c, NATB_SIDE_OUT, c->out[0], NATB_SPORT + 1, X, xb, t_port = natb_tag(c) << 8, 0,
		    RTE_TCP_SYN_FLAG, 0);
	natb_tx_tcp(c, NATB_SIDE_OUT, c->out[7], NATB_SPORT, X, xb, t_addr = natb_tag(c) << 8, 0,
		    RTE_TCP_SYN_FLAG, 0);
	natb_tx_tcp(c, NATB_SIDE_OUT, c->out[0], NATB_SPORT, X, xb, t_self = natb_tag(c) << 8, tb + 1,
		    RTE_TCP_SYN_FLAG | RTE_TCP_ACK_FLAG, 0);
	natb_tx_tcp(c, NATB_SIDE_IN, I, h, X, xb, t_hair = natb_tag(c) << 8, 0, RTE_TCP_SYN_FLAG, 0);
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	if (find_syn(c, NATB_SIDE_IN, t_self))
		t->filtering = natb_filtering(find_syn(c, NATB_SIDE_IN, t_port) != NULL,
					      find_syn(c, NATB_SIDE_IN, t_addr) != NULL);
	else
		natb_say(c, "tcp: filtering: the contacted server's SYN-ACK did not come in");
	r = find_syn(c, NATB_SIDE_IN, t_hair);
	t->hairpin = r && r->dip == I && r->dport == b ? NATB_YES : NATB_NO;
	if (t->hairpin == NATB_YES)
		t->hairpin_ext = internal(c, r->sip) ? NATB_NO : NATB_YES;
	/* RFC 5382 REQ-9: a port unreachable about the connection's SYN */
	natb_log_clear(c);
	natb_tx_unreach(c, NATB_SIDE_OUT, IPPROTO_TCP, c->out[0], X, X, xb, c->out[0], NATB_SPORT,
			tb);
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	r = find_err(c, tb);
	t->err_xlate = r && r->dip == I && r->iproto == IPPROTO_TCP && r->isip == I &&
			       r->isport == b && r->idip == c->out[0] && r->idport == NATB_SPORT
			   ? NATB_YES
			   : NATB_NO;
	natb_say(c, "tcp: mapping %s, filtering %s, hairpinning %s", natb_dep_names[t->mapping],
		 natb_dep_names[t->filtering], t->hairpin == NATB_YES ? "yes" : "no");
	return true;
}

/* ---- ICMP ------------------------------------------------------------------- */

static bool icmp_behaviour(struct natb_ctx *c, struct natb_icmp *ic)
{
	const uint16_t id = natb_port(c);
	uint32_t t0 = natb_tag(c), t1 = natb_tag(c);
	const struct natb_rx *r0, *r1;

	natb_say(c, "icmp: echo identifier towards two servers");
	natb_log_clear(c);
	natb_tx_echo(c, NATB_SIDE_IN, c->in[0], c->out[0], id, false, t0);
	natb_tx_echo(c, NATB_SIDE_IN, c->in[0], c->out[1], id, false, t1);
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	r0 = natb_find(c, NATB_SIDE_OUT, IPPROTO_ICMP, t0);
	r1 = natb_find(c, NATB_SIDE_OUT, IPPROTO_ICMP, t1);
	ic->id_ei = r0 && r1 && r0->sport == r1->sport && r0->sip == r1->sip ? NATB_YES : NATB_NO;
	return true;
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

/* ---- the bench ---------------------------------------------------------------- */

static int gw_known(int p)
{
	struct port *pt = &fg_port[p];
	uint64_t mac;

	if (pt->gw_mac & PORT_MAC_KNOWN)
		return 0;
	if (!pt->gw || svc_resolve(p, pt->gw, &mac, 1000) != 0) {
		fg_err("bench nat: port %d: next hop unknown (no default_gw, or no ARP reply)", p);
		return -1;
	}
	svc_set_gw(p, mac, false);
	return 0;
}

static int setup(struct natb_ctx *c, const struct natb_opts *o)
{
	uint32_t in0, out0;

	c->port[0] = 2 * o->pair;
	c->port[1] = 2 * o->pair + 1;
	if (c->port[1] >= fg_nports) {
		fg_err("bench nat: no port pair %d", o->pair);
		return -1;
	}
	in0 = o->inside ? o->inside : fg_port[c->port[0]].ip;
	out0 = o->outside ? o->outside : fg_port[c->port[1]].ip + 1;
	if (!in0 || !fg_port[c->port[1]].ip) {
		fg_err("bench nat: the ports need an ip (or give --inside and --outside)");
		return -1;
	}
	for (int i = 0; i < NATB_NADDR; i++) {
		c->in[i] = in0 + (uint32_t)i;
		c->out[i] = out0 + (uint32_t)i;
		if (c->in[i] == fg_port[c->port[0]].gw || c->out[i] == fg_port[c->port[1]].gw ||
		    c->out[i] == fg_port[c->port[1]].ip) {
			fg_err("bench nat: the %d addresses from --inside and --outside must not hold "
			       "the next hop or the server port's own address",
			       NATB_NADDR);
			return -1;
		}
	}
	if (gw_known(c->port[0]) || gw_known(c->port[1]))
		return -1;
	return 0;
}

int natb_run(const struct natb_opts *o, struct natb_result *r)
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
	if (ctl_busy()) {
		fg_err("bench nat: traffic is running (stop it first)");
		return -1;
	}
	if (!svc_was) {
		svc_set_service(true);
		usleep(20 * 1000); /* the workers read their mailboxes every few turns */
	}
	if (setup(&c, o) != 0 || natb_io_open(&c) != 0) {
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
		ok = udp_mapping(&c, &r->udp, &r->untranslated) && udp_filtering(&c, &r->udp, &r->icmp) &&
		     udp_quota(&c, &r->udp);
	if (ok && o->tcp)
		ok = tcp_behaviour(&c, &r->tcp);
	if (ok && o->icmp)
		ok = icmp_behaviour(&c, &r->icmp);
	if (ok && o->tmax > 0)
		ok = natb_timeouts(&c, r) == 0;
	r->interrupted = !ok;
	natb_io_close(&c);
	if (!svc_was)
		svc_set_service(false);
	return 0;
}
