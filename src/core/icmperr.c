/*
 * icmperr.c — reading ICMP and ICMPv6 errors about flowgen's own frames
 * (icmperr.h): the quoted datagram's addresses, ports and TCP sequence
 * number, the hard and soft unreachable codes, and the MSS a too-big
 * message leaves. Pure code on byte buffers: the workers run it on the
 * ICMP branch of their packet loop (never on a test frame's path), the
 * unit tests and the classifier's fuzz harness without EAL.
 */
#include <string.h>

#include <rte_byteorder.h>

#include "icmperr.h"

/* RFC 1191 §7: the plateaus of an MTU search, for a message without one. */
static const uint16_t plateaus[] = {32000, 17914, 8166, 4352, 2002, 1492, 1006, 508, 296, 68};

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

bool icmperr_hard(bool v6, uint8_t code)
{
	/* RFC 1122 §4.2.3.9: codes 2 and 3 (code 4 is Path MTU Discovery's);
	 * RFC 4443 §3.1: code 4, port unreachable */
	return v6 ? code == 4 : code == 2 || code == 3;
}

/* The transport header behind a quoted IP header at q4, avail bytes left. */
static enum icmperr_res quote_l4(const uint8_t *f, uint16_t q4, uint32_t avail,
				 struct icmperr *e)
{
	const uint8_t *l4 = f + q4;

	if (avail < 8)
		return ICMPERR_BAD;
	if (e->proto != IPPROTO_UDP && e->proto != IPPROTO_TCP)
		return ICMPERR_FOREIGN;
	e->sport = be16(l4);
	e->dport = be16(l4 + 2);
	if (e->proto == IPPROTO_TCP) {
		e->seq = be32(l4 + 4);
		return ICMPERR_OK;
	}
	/* UDP: the payload as far as it is quoted and the datagram held it */
	{
		uint32_t ulen = be16(l4 + 4), n = avail - 8;

		if (ulen >= 8 && ulen - 8 < n)
			n = ulen - 8;
		e->qpay = (uint16_t)(q4 + 8);
		e->qpaylen = (uint16_t)n;
	}
	return ICMPERR_OK;
}

static enum icmperr_res quote_v4(const uint8_t *f, const struct pkt_info *pi, struct icmperr *e)
{
	const uint8_t *q = f + pi->payload;
	uint32_t avail = pi->paylen, ihl, tot;

	if (avail < 20 || (q[0] >> 4) != 4)
		return ICMPERR_BAD;
	ihl = (q[0] & 0xfu) * 4;
	tot = be16(q + 2);
	if (ihl < 20 || avail < ihl + 8 || tot < ihl + 8)
		return ICMPERR_BAD;
	e->q3 = pi->payload;
	e->qlen = tot;
	e->proto = q[9];
	e->sip = be32(q + 12);
	e->dip = be32(q + 16);
	/* a later fragment has no transport header (flowgen sends none) */
	if (be16(q + 6) & RTE_IPV4_HDR_OFFSET_MASK)
		return ICMPERR_FOREIGN;
	return quote_l4(f, (uint16_t)(pi->payload + ihl), avail - ihl, e);
}

static enum icmperr_res quote_v6(const uint8_t *f, const struct pkt_info *pi, struct icmperr *e)
{
	const uint8_t *q = f + pi->payload;
	uint32_t avail = pi->paylen;

	if (avail < 40 + 8 || (q[0] >> 4) != 6)
		return ICMPERR_BAD;
	e->q3 = pi->payload;
	e->qlen = 40u + be16(q + 4);
	/* the upper layer right behind the fixed header, as flowgen sends it */
	e->proto = q[6];
	e->sip = be32(q + 8 + 12);
	e->dip = be32(q + 24 + 12);
	return quote_l4(f, (uint16_t)(pi->payload + 40), avail - 40, e);
}

enum icmperr_res icmperr_parse(const uint8_t *f, const struct pkt_info *pi, struct icmperr *e)
{
	const uint8_t *ic = f + pi->l4;

	memset(e, 0, sizeof(*e));
	e->kind = (uint8_t)icmperr_kind_of(f, pi);
	if (e->kind == ICMPERR_NONE || pi->paylen < 8)
		return ICMPERR_BAD;
	e->code = ic[1];
	e->v6 = pi->kind == PKT_ICMP6;
	e->odip = pi->dip;
	e->o3 = pi->l3;
	if (e->kind == ICMPERR_TOO_BIG)
		/* RFC 1191 §4: the next-hop MTU in the low 16 bits of the
		 * second word; RFC 4443 §3.2: all 32 bits */
		e->mtu = e->v6 ? be32(ic + 4) : be16(ic + 6);
	else
		e->hard = icmperr_hard(e->v6, e->code);
	return e->v6 ? quote_v6(f, pi, e) : quote_v4(f, pi, e);
}

void icmperr_key(const struct icmperr *e, uint32_t own, int side, struct flowtab_key *k)
{
	flowtab_key(k, e->dip, own, e->dport, e->sport, e->proto,
		    side ? FLOWTAB_SERVER : FLOWTAB_CLIENT);
}

uint16_t icmperr_mss(const struct icmperr *e)
{
	uint32_t mtu = e->mtu;

	if (e->v6) {
		if (mtu >= e->qlen)
			return 0;
		/* RFC 8201 §4: never below the IPv6 minimum link MTU */
		return (uint16_t)((mtu < 1280 ? 1280 : mtu) - 60);
	}
	if (!mtu) {
		/* RFC 1191 §5, §7: the plateau below the datagram that failed */
		for (unsigned i = 0; i < sizeof(plateaus) / sizeof(plateaus[0]); i++)
			if (plateaus[i] < e->qlen) {
				mtu = plateaus[i];
				break;
			}
		if (!mtu)
			return 0;
	}
	if (mtu >= e->qlen)
		return 0;
	mtu = mtu > 40 ? mtu - 40 : 0;
	return (uint16_t)(mtu < ICMPERR_MSS4_MIN ? ICMPERR_MSS4_MIN : mtu);
}
