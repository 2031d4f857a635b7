/*
 * natb_io.c — the frames of `bench nat`. Probes leave on a port's control
 * TX queue (svc_send) from the console's thread, with the port's MAC and
 * its next hop's; what comes back for the addresses the bench plays
 * (internal hosts on the client port, external servers on the server
 * port) reaches the service thread through the workers' punt rings (the
 * workers punt every frame they have no use for in service mode) and is
 * kept by the tap installed here: it records the fields the probes match
 * on (addresses, ports, a tag carried in the payload or the TCP sequence
 * number, the packet an ICMP error embeds) and hands them over under a
 * mutex. ARP requests for those addresses are answered from the console's
 * thread, which alone may send on the control queue.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "ctl.h"
#include "natb_int.h"
#include "pkt.h"
#include "port.h"
#include "svc.h"

#define NATB_QCAP 4096
#define NATB_ARPQ 16

struct arp_req {
	int side;
	uint32_t sip, tip;
	struct rte_ether_addr sha;
};

/* Shared with the tap (the service thread): addresses before the tap is
 * installed, then only the queues, under mu. */
static struct {
	pthread_mutex_t mu;
	int port[2];
	uint32_t addr[2][NATB_NADDR];
	struct natb_rx q[NATB_QCAP];
	unsigned qn, qhead;
	uint64_t qdrop;
	struct arp_req arp[NATB_ARPQ];
	unsigned narp;
} io = {.mu = PTHREAD_MUTEX_INITIALIZER};

static bool ours(int side, uint32_t ip)
{
	for (int i = 0; i < NATB_NADDR; i++)
		if (io.addr[side][i] == ip)
			return true;
	return false;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The packet an ICMP error embeds: its header and ports, and the tag after them. */
static void inner(const uint8_t *f, uint16_t len, const struct pkt_info *pi, struct natb_rx *r)
{
	const uint8_t *ip = f + pi->l4 + 8;
	uint32_t room = len > pi->l4 + 8u ? len - pi->l4 - 8u : 0;
	unsigned ihl;

	if (room < 20)
		return;
	ihl = (ip[0] & 0xf) * 4u;
	if (ihl < 20 || room < ihl + 8)
		return;
	r->iproto = ip[9];
	r->isip = rte_be_to_cpu_32(rd32(ip + 12));
	r->idip = rte_be_to_cpu_32(rd32(ip + 16));
	r->isport = (uint16_t)(ip[ihl] << 8 | ip[ihl + 1]);
	r->idport = (uint16_t)(ip[ihl + 2] << 8 | ip[ihl + 3]);
	if (r->iproto == IPPROTO_TCP)
		r->itag = rte_be_to_cpu_32(rd32(ip + ihl + 4));
	else if (room >= ihl + 12)
		r->itag = rd32(ip + ihl + 8);
}

/* An IPv4 fragment for one of our addresses (the parser leaves them be):
 * where it sits, and the ports and tag of a first fragment of UDP. */
static bool fragment(int side, const uint8_t *f, uint16_t len, struct natb_rx *r)
{
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(f + RTE_ETHER_HDR_LEN);
	uint16_t fo, ihl;

	if (len < RTE_ETHER_HDR_LEN + 20 ||
	    f[12] != (RTE_ETHER_TYPE_IPV4 >> 8) || f[13] != (RTE_ETHER_TYPE_IPV4 & 0xff))
		return false;
	fo = rte_be_to_cpu_16(ip->fragment_offset);
	ihl = (ip->version_ihl & 0xf) * 4;
	if (!(fo & (RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) || ihl < 20 ||
	    len < RTE_ETHER_HDR_LEN + ihl + 8u || !ours(side, rte_be_to_cpu_32(ip->dst_addr)))
		return false;
	r->side = (uint8_t)side;
	r->proto = ip->next_proto_id;
	r->sip = rte_be_to_cpu_32(ip->src_addr);
	r->dip = rte_be_to_cpu_32(ip->dst_addr);
	r->frag = true;
	r->mf = (fo & RTE_IPV4_HDR_MF_FLAG) != 0;
	r->frag_off = (uint16_t)((fo & RTE_IPV4_HDR_OFFSET_MASK) * 8);
	r->ipid = rte_be_to_cpu_16(ip->packet_id);
	if (!r->frag_off && r->proto == IPPROTO_UDP && len >= RTE_ETHER_HDR_LEN + ihl + 12u) {
		const uint8_t *u = f + RTE_ETHER_HDR_LEN + ihl;

		r->sport = (uint16_t)(u[0] << 8 | u[1]);
		r->dport = (uint16_t)(u[2] << 8 | u[3]);
		r->tag = rd32(u + 8);
	}
	return true;
}

static void push(const struct natb_rx *r)
{
	pthread_mutex_lock(&io.mu);
	if (io.qn < NATB_QCAP)
		io.q[(io.qhead + io.qn++) % NATB_QCAP] = *r;
	else
		io.qdrop++;
	pthread_mutex_unlock(&io.mu);
}

static bool tap(int port, const uint8_t *f, uint16_t len, uint64_t tsc, void *arg)
{
	struct pkt_info pi;
	struct natb_rx r = {.tsc = tsc};
	int side;

	(void)arg;
	if (port == io.port[0])
		side = NATB_SIDE_IN;
	else if (port == io.port[1])
		side = NATB_SIDE_OUT;
	else
		return false;
	switch (pkt_parse(f, len, &pi)) {
	case PKT_ARP: {
		const struct rte_arp_hdr *a = (const struct rte_arp_hdr *)(f + pi.l3);

		if (a->arp_opcode != rte_cpu_to_be_16(RTE_ARP_OP_REQUEST) || !ours(side, pi.dip))
			return false;
		pthread_mutex_lock(&io.mu);
		if (io.narp < NATB_ARPQ)
			io.arp[io.narp++] = (struct arp_req){side, pi.sip, pi.dip, a->arp_data.arp_sha};
		pthread_mutex_unlock(&io.mu);
		return true;
	}
	case PKT_UDP:
	case PKT_TCP:
	case PKT_ICMP:
		break;
	case PKT_OTHER:
		if (!fragment(side, f, len, &r))
			return false;
		push(&r);
		return true;
	default:
		return false;
	}
	if (!ours(side, pi.dip))
		return false;
	r.side = (uint8_t)side;
	r.proto = pi.proto;
	r.sip = pi.sip;
	r.dip = pi.dip;
	r.sport = pi.sport;
	r.dport = pi.dport;
	if (pi.proto == IPPROTO_TCP) {
		r.flags = pi.tcp_flags;
		r.tag = rte_be_to_cpu_32(rd32(f + pi.l4 + 4));
		r.ack = rte_be_to_cpu_32(rd32(f + pi.l4 + 8));
	} else if (pi.proto == IPPROTO_UDP) {
		if (pi.paylen >= 4)
			r.tag = rd32(f + pi.payload);
	} else {
		r.type = f[pi.l4];
		r.code = f[pi.l4 + 1];
		if (r.type == RTE_IP_ICMP_ECHO_REPLY || r.type == RTE_IP_ICMP_ECHO_REQUEST) {
			r.sport = r.dport = (uint16_t)(f[pi.l4 + 4] << 8 | f[pi.l4 + 5]);
			if (pi.paylen >= 4)
				r.tag = rd32(f + pi.payload);
		} else {
			inner(f, len, &pi, &r);
		}
	}
	push(&r);
	return true;
}

int natb_io_open(struct natb_ctx *c)
{
	c->caplog = 65536;
	c->log = calloc(c->caplog, sizeof(*c->log));
	if (!c->log)
		return -ENOMEM;
	c->nlog = 0;
	c->hz = rte_get_tsc_hz();
	pthread_mutex_lock(&io.mu);
	io.port[0] = c->port[0];
	io.port[1] = c->port[1];
	memcpy(io.addr[0], c->in, sizeof(io.addr[0]));
	memcpy(io.addr[1], c->out, sizeof(io.addr[1]));
	io.qn = io.qhead = 0;
	io.narp = 0;
	io.qdrop = 0;
	pthread_mutex_unlock(&io.mu);
	svc_set_tap(tap, NULL);
	return 0;
}

void natb_io_close(struct natb_ctx *c)
{
	svc_set_tap(NULL, NULL);
	free(c->log);
	c->log = NULL;
	c->nlog = c->caplog = 0;
}

uint16_t natb_port(struct natb_ctx *c)
{
	uint16_t p = c->next_port++;

	if (c->next_port < 1024)
		c->next_port = 20000;
	return p;
}

uint32_t natb_tag(struct natb_ctx *c)
{
	return ++c->next_tag;
}

/* ---- sending --------------------------------------------------------------- */

static int tx(struct natb_ctx *c, int side, uint8_t *f, uint16_t len)
{
	int rc;

	/* a full control queue drains quickly: try again for up to 1 ms */
	for (int i = 0; i < 10; i++) {
		rc = svc_send(c->port[side], f, len);
		if (rc != -ENOBUFS)
			return rc;
		usleep(100);
	}
	return rc;
}

static void macs(const struct natb_ctx *c, int side, struct rte_ether_addr *src,
		 struct rte_ether_addr *dst)
{
	const struct port *p = &fg_port[c->port[side]];

	*src = p->v.mac;
	port_word_mac(p->gw_mac, dst);
}

int natb_tx_udp(struct natb_ctx *c, int side, uint32_t sip, uint16_t sp, uint32_t dip, uint16_t dp,
		uint32_t tag)
{
	uint8_t f[128] = {0};
	struct rte_ether_addr s, d;
	uint16_t len;

	macs(c, side, &s, &d);
	memcpy(f + PKT_UDP_PAY_OFF, &tag, 4);
	len = pkt_build_udp(f, &s, &d, sip, dip, sp, dp, 18);
	return tx(c, side, f, len);
}

int natb_tx_tcp(struct natb_ctx *c, int side, uint32_t sip, uint16_t sp, uint32_t dip, uint16_t dp,
		uint32_t seq, uint32_t ack, uint8_t flags, uint16_t paylen)
{
	uint8_t f[128] = {0};
	struct rte_ether_addr s, d;
	uint16_t len;

	macs(c, side, &s, &d);
	if (paylen > 16)
		paylen = 16;
	len = pkt_build_tcp(f, &s, &d, sip, dip, sp, dp, seq, ack, flags, 64240,
			    (flags & RTE_TCP_SYN_FLAG) ? 1460 : 0, paylen);
	return tx(c, side, f, len);
}

int natb_tx_echo(struct natb_ctx *c, int side, uint32_t sip, uint32_t dip, uint16_t id, bool reply,
		 uint32_t tag)
{
	uint8_t f[128] = {0};
	struct rte_ether_addr s, d;
	struct rte_icmp_hdr *ic = (struct rte_icmp_hdr *)(f + RTE_ETHER_HDR_LEN + 20);
	uint16_t len;

	macs(c, side, &s, &d);
	len = pkt_build_echo(f, &s, &d, sip, dip, id, (uint16_t)tag, 16, tag);
	if (reply) {
		ic->icmp_type = RTE_IP_ICMP_ECHO_REPLY;
		ic->icmp_cksum = 0;
		ic->icmp_cksum = (uint16_t)~pkt_raw_sum(ic, 8 + 16);
	}
	return tx(c, side, f, len);
}

/* the IPv4 header checksum of the header at ip, after a change */
static void ip_sum(uint8_t *ip)
{
	uint16_t ck;

	ip[10] = ip[11] = 0;
	ck = (uint16_t)~pkt_raw_sum(ip, 20);
	memcpy(ip + 10, &ck, 2);
}

int natb_tx_unreach(struct natb_ctx *c, int side, uint8_t iproto, uint32_t sip, uint32_t dip,
		    uint32_t isip, uint16_t isp, uint32_t idip, uint16_t idp, uint32_t itag)
{
	/* the embedded packet: the UDP datagram or TCP segment as the
	 * server received it */
	uint8_t in[128] = {0}, f[160] = {0};
	struct rte_ether_addr s, d;
	const uint16_t ilen = iproto == IPPROTO_TCP ? 20 + 20 : 20 + 8 + 18, plen = 8 + ilen;
	struct rte_icmp_hdr *ic;
	uint16_t len;

	macs(c, side, &s, &d);
	if (iproto == IPPROTO_TCP) {
		pkt_build_tcp(in, &s, &d, isip, idip, isp, idp, itag, 0, RTE_TCP_SYN_FLAG, 64240, 0,
			      0);
	} else {
		memcpy(in + PKT_UDP_PAY_OFF, &itag, 4);
		pkt_build_udp(in, &s, &d, isip, idip, isp, idp, 18);
	}
	/* a UDP frame of the right size gives the outer headers */
	len = pkt_build_udp(f, &s, &d, sip, dip, 1, 1, plen - 8);
	f[RTE_ETHER_HDR_LEN + 9] = IPPROTO_ICMP;
	ip_sum(f + RTE_ETHER_HDR_LEN);
	ic = (struct rte_icmp_hdr *)(f + RTE_ETHER_HDR_LEN + 20);
	memset(ic, 0, 8);
	ic->icmp_type = 3; /* destination unreachable */
	ic->icmp_code = 3; /* port unreachable */
	memcpy((uint8_t *)ic + 8, in + RTE_ETHER_HDR_LEN, ilen);
	ic->icmp_cksum = (uint16_t)~pkt_raw_sum(ic, plen);
	return tx(c, side, f, len);
}

int natb_tx_frags(struct natb_ctx *c, int side, uint32_t sip, uint16_t sp, uint32_t dip,
		  uint16_t dp, uint32_t tag, uint16_t ipid)
{
	const uint16_t H = RTE_ETHER_HDR_LEN + 20, cut = 40; /* UDP bytes in the first */
	uint8_t whole[160] = {0}, f1[128], f2[128];
	struct rte_ether_addr s, d;
	uint16_t len, l2;
	int rc;

	macs(c, side, &s, &d);
	memcpy(whole + PKT_UDP_PAY_OFF, &tag, 4);
	for (int i = 4; i < 64; i++)
		whole[PKT_UDP_PAY_OFF + i] = (uint8_t)i;
	len = pkt_build_udp(whole, &s, &d, sip, dip, sp, dp, 64);
	l2 = (uint16_t)(len - H - cut);
	/* the first: the UDP header and 32 bytes, more to come */
	memcpy(f1, whole, H + cut);
	f1[RTE_ETHER_HDR_LEN + 2] = 0;
	f1[RTE_ETHER_HDR_LEN + 3] = (uint8_t)(20 + cut);
	f1[RTE_ETHER_HDR_LEN + 4] = (uint8_t)(ipid >> 8);
	f1[RTE_ETHER_HDR_LEN + 5] = (uint8_t)ipid;
	f1[RTE_ETHER_HDR_LEN + 6] = RTE_IPV4_HDR_MF_FLAG >> 8;
	f1[RTE_ETHER_HDR_LEN + 7] = 0;
	ip_sum(f1 + RTE_ETHER_HDR_LEN);
	/* the second: the rest, at offset 40 */
	memcpy(f2, whole, H);
	memcpy(f2 + H, whole + H + cut, l2);
	f2[RTE_ETHER_HDR_LEN + 2] = 0;
	f2[RTE_ETHER_HDR_LEN + 3] = (uint8_t)(20 + l2);
	f2[RTE_ETHER_HDR_LEN + 4] = (uint8_t)(ipid >> 8);
	f2[RTE_ETHER_HDR_LEN + 5] = (uint8_t)ipid;
	f2[RTE_ETHER_HDR_LEN + 6] = 0;
	f2[RTE_ETHER_HDR_LEN + 7] = cut / 8;
	ip_sum(f2 + RTE_ETHER_HDR_LEN);
	rc = tx(c, side, f2, (uint16_t)(H + l2));
	return rc ? rc : tx(c, side, f1, (uint16_t)(H + cut));
}

/* ---- receiving ------------------------------------------------------------- */

uint64_t natb_io_qdrop(void)
{
	uint64_t n;

	pthread_mutex_lock(&io.mu);
	n = io.qdrop;
	pthread_mutex_unlock(&io.mu);
	return n;
}

void natb_log_clear(struct natb_ctx *c)
{
	c->nlog = 0;
}

static void pump_once(struct natb_ctx *c)
{
	struct natb_rx buf[256];
	struct arp_req arp[NATB_ARPQ];
	unsigned n, na;

	do {
		pthread_mutex_lock(&io.mu);
		n = FG_MIN(io.qn, FG_ARRAY_SIZE(buf));
		for (unsigned i = 0; i < n; i++)
			buf[i] = io.q[(io.qhead + i) % NATB_QCAP];
		io.qhead = (io.qhead + n) % NATB_QCAP;
		io.qn -= n;
		na = io.narp;
		memcpy(arp, io.arp, na * sizeof(arp[0]));
		io.narp = 0;
		pthread_mutex_unlock(&io.mu);
		for (unsigned i = 0; i < n && c->nlog < c->caplog; i++)
			c->log[c->nlog++] = buf[i];
		for (unsigned i = 0; i < na; i++) {
			uint8_t f[64] = {0};
			const struct port *p = &fg_port[c->port[arp[i].side]];
			uint16_t len = pkt_build_arp(f, RTE_ARP_OP_REPLY, &p->v.mac, arp[i].tip,
						     &arp[i].sha, arp[i].sip);

			memcpy(f, &arp[i].sha, 6); /* to the asker, not broadcast */
			tx(c, arp[i].side, f, len);
		}
	} while (n == FG_ARRAY_SIZE(buf));
}

bool natb_pump(struct natb_ctx *c, unsigned ms)
{
	uint64_t end = rte_rdtsc() + c->hz * ms / 1000;

	do {
		pump_once(c);
		if (ctl_cancelled())
			return false;
		if (ms)
			usleep(500);
	} while (rte_rdtsc() < end);
	pump_once(c);
	return !ctl_cancelled();
}

const struct natb_rx *natb_find(const struct natb_ctx *c, int side, uint8_t proto, uint32_t tag)
{
	for (size_t i = 0; i < c->nlog; i++) {
		const struct natb_rx *r = &c->log[i];

		if (r->side == side && r->proto == proto && (!tag || r->tag == tag))
			return r;
	}
	return NULL;
}

double natb_secs(const struct natb_ctx *c, uint64_t tsc0)
{
	return (double)(rte_rdtsc() - tsc0) / (double)c->hz;
}

void natb_say(const struct natb_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->o->progress)
		return;
	fputs("nat: ", c->o->progress);
	va_start(ap, fmt);
	vfprintf(c->o->progress, fmt, ap);
	va_end(ap);
	fputc('\n', c->o->progress);
	fflush(c->o->progress);
}
