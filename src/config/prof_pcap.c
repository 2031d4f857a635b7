/*
 * prof_pcap.c — the first TCP or UDP session of a capture file as each
 * side's messages (prof_pcap.h). Two passes over the file: the first
 * finds the session (the first packet with a TCP or UDP payload names
 * it), the second reads that session's packets only.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netinet/in.h>
#include <pcap/pcap.h>

#include "prof_pcap.h"

#define SEG_PENDING_MAX 256 /* segments of one direction waiting for a gap to fill */
#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_ACK 0x10

#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif

/* What the reader needs of one captured packet. */
struct pview {
	bool v6;
	uint8_t proto;
	uint8_t sa[16], da[16];
	uint16_t sp, dp;
	uint32_t seq;
	uint8_t flags;
	const uint8_t *pay;
	uint32_t plen;
};

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The IP packet of a frame of link type dlt: its offset and ethertype. */
static bool link_l3(int dlt, const uint8_t *p, uint32_t len, uint32_t *off, uint16_t *et)
{
	switch (dlt) {
	case DLT_EN10MB:
		*off = 14;
		if (len < 14)
			return false;
		*et = be16(p + 12);
		while ((*et == 0x8100 || *et == 0x88a8) && *off + 4 <= len) {
			*et = be16(p + *off + 2);
			*off += 4;
		}
		return true;
	case DLT_LINUX_SLL:
		*off = 16;
		*et = len >= 16 ? be16(p + 14) : 0;
		return len >= 16;
	case DLT_LINUX_SLL2:
		*off = 20;
		*et = len >= 20 ? be16(p) : 0;
		return len >= 20;
	case DLT_RAW:
	case 228: /* DLT_IPV4 */
	case 229: /* DLT_IPV6 */
		*off = 0;
		*et = len && (p[0] >> 4) == 6 ? 0x86dd : 0x0800;
		return len > 0;
	default:
		return false;
	}
}

/* The layer 4 of an IP packet at p (len bytes): TCP or UDP with its payload. */
static bool ip_l4(const uint8_t *p, uint32_t len, uint16_t et, struct pview *v)
{
	uint32_t l4, end;

	memset(v->sa, 0, sizeof(v->sa));
	memset(v->da, 0, sizeof(v->da));
	if (et == 0x0800) {
		uint32_t ihl = len >= 20 ? (uint32_t)(p[0] & 0xf) * 4 : 0;

		if (ihl < 20 || len < ihl || (p[0] >> 4) != 4)
			return false;
		/* fragments are not reassembled: MF set or an offset */
		if (be16(p + 6) & 0x3fff)
			return false;
		end = be16(p + 2);
		v->v6 = false;
		v->proto = p[9];
		memcpy(v->sa, p + 12, 4);
		memcpy(v->da, p + 16, 4);
		l4 = ihl;
	} else if (et == 0x86dd) {
		if (len < 40 || (p[0] >> 4) != 6)
			return false;
		end = 40u + be16(p + 4);
		v->v6 = true;
		v->proto = p[6];
		memcpy(v->sa, p + 8, 16);
		memcpy(v->da, p + 24, 16);
		l4 = 40;
	} else {
		return false;
	}
	if (end > len || end < l4)
		return false;
	p += l4;
	len = end - l4;
	if (v->proto == IPPROTO_UDP) {
		uint32_t ul = len >= 8 ? be16(p + 4) : 0;

		if (ul < 8 || ul > len)
			return false;
		v->sp = be16(p);
		v->dp = be16(p + 2);
		v->pay = p + 8;
		v->plen = ul - 8;
		v->seq = 0;
		v->flags = 0;
		return true;
	}
	if (v->proto == IPPROTO_TCP) {
		uint32_t doff = len >= 20 ? (uint32_t)(p[12] >> 4) * 4 : 0;

		if (doff < 20 || doff > len)
			return false;
		v->sp = be16(p);
		v->dp = be16(p + 2);
		v->seq = be32(p + 4);
		v->flags = p[13];
		v->pay = p + doff;
		v->plen = len - doff;
		return true;
	}
	return false;
}

static bool pkt_view(int dlt, const uint8_t *p, uint32_t len, struct pview *v)
{
	uint32_t off;
	uint16_t et;

	return link_l3(dlt, p, len, &off, &et) && ip_l4(p + off, len - off, et, v);
}

/* The session's key: one side a, the other b, either way. */
struct skey {
	bool v6;
	uint8_t proto;
	uint8_t a[16], b[16];
	uint16_t pa, pb;
};

/* 1: v goes from a to b; -1: from b to a; 0: another flow. */
static int skey_dir(const struct skey *k, const struct pview *v)
{
	size_t al = k->v6 ? 16 : 4;

	if (v->v6 != k->v6 || v->proto != k->proto)
		return 0;
	if (v->sp == k->pa && v->dp == k->pb && !memcmp(v->sa, k->a, al) &&
	    !memcmp(v->da, k->b, al))
		return 1;
	if (v->sp == k->pb && v->dp == k->pa && !memcmp(v->sa, k->b, al) &&
	    !memcmp(v->da, k->a, al))
		return -1;
	return 0;
}

static int perr(char *err, size_t errlen, int rc, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int perr(char *err, size_t errlen, int rc, const char *file, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s: ", file);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return rc;
}

static pcap_t *popen_file(const char *file, char *err, size_t errlen)
{
	char eb[PCAP_ERRBUF_SIZE] = "";
	pcap_t *pc = pcap_open_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_MICRO, eb);

	if (!pc)
		perr(err, errlen, 0, file, "%s", eb[0] ? eb : "cannot read it");
	return pc;
}

/* Pass 1: the key of the first packet with a TCP or UDP payload. */
static int find_session(const char *file, struct skey *k, char *err, size_t errlen)
{
	pcap_t *pc = popen_file(file, err, errlen);
	struct pcap_pkthdr *h;
	const u_char *d;
	int dlt, rc;

	if (!pc)
		return -EINVAL;
	dlt = pcap_datalink(pc);
	while ((rc = pcap_next_ex(pc, &h, &d)) == 1) {
		struct pview v;

		if (!pkt_view(dlt, d, h->caplen, &v) || !v.plen)
			continue;
		memset(k, 0, sizeof(*k));
		k->v6 = v.v6;
		k->proto = v.proto;
		memcpy(k->a, v.sa, 16);
		memcpy(k->b, v.da, 16);
		k->pa = v.sp;
		k->pb = v.dp;
		pcap_close(pc);
		return 0;
	}
	if (rc == -1)
		perr(err, errlen, 0, file, "%s", pcap_geterr(pc));
	else if (dlt != DLT_EN10MB && dlt != DLT_LINUX_SLL && dlt != DLT_LINUX_SLL2 &&
		 dlt != DLT_RAW && dlt != 228 && dlt != 229)
		perr(err, errlen, 0, file,
		     "link type %s is not read (Ethernet, Linux cooked or raw IP)",
		     pcap_datalink_val_to_name(dlt) ?: "?");
	else
		perr(err, errlen, 0, file, "no TCP or UDP packet with a payload");
	pcap_close(pc);
	return -EINVAL;
}

/* A segment of one direction that came before the bytes ahead of it. */
struct seg {
	uint32_t rel, len;
	uint8_t *data;
};

/* One direction of a TCP session being put back in order. */
struct tdir {
	bool have_isn;
	uint32_t isn;
	uint64_t next; /* bytes delivered */
	struct seg pend[SEG_PENDING_MAX];
	unsigned npend;
};

struct rd {
	struct prof_pcap_sess *s;
	const char *file;
	char *err;
	size_t errlen;
	uint64_t total;
	uint64_t last_ts;  /* the last packet of the latest message */
	bool sealed;	   /* UDP: the latest message is whole */
	struct tdir td[2]; /* [0] client to server, [1] server to client */
};

/* Bytes from one side, at time ts: onto that side's latest message, or a
 * new one when the other side spoke last. */
static int deliver(struct rd *r, bool from_client, const uint8_t *p, uint32_t len, uint64_t ts)
{
	struct prof_pcap_sess *s = r->s;
	struct prof_pcap_msg *m = s->n ? &s->msgs[s->n - 1] : NULL;
	uint8_t *nd;

	if (!len)
		return 0;
	if (r->total + len > PROF_PCAP_MAX_BYTES)
		return perr(r->err, r->errlen, -EFBIG, r->file,
			    "the session carries more than %u bytes", PROF_PCAP_MAX_BYTES);
	if (!m || m->from_client != from_client || r->sealed) {
		struct prof_pcap_msg *nm;

		if (s->n == PROF_PCAP_MAX_MSGS)
			return perr(r->err, r->errlen, -EFBIG, r->file,
				    "the session has more than %u messages", PROF_PCAP_MAX_MSGS);
		nm = realloc(s->msgs, (s->n + 1) * sizeof(*nm));
		if (!nm)
			return perr(r->err, r->errlen, -ENOMEM, r->file, "out of memory");
		s->msgs = nm;
		m = &nm[s->n++];
		memset(m, 0, sizeof(*m));
		m->from_client = from_client;
		m->gap_us = s->n > 1 && ts > r->last_ts ? ts - r->last_ts : 0;
	}
	nd = realloc(m->data, (size_t)m->len + len);
	if (!nd)
		return perr(r->err, r->errlen, -ENOMEM, r->file, "out of memory");
	memcpy(nd + m->len, p, len);
	m->data = nd;
	m->len += len;
	r->total += len;
	r->last_ts = ts;
	r->sealed = s->proto == IPPROTO_UDP;
	return 0;
}

/* The pending segments of direction d that the bytes delivered reach,
 * delivered at ts (the packet that filled the gap). */
static int drain(struct rd *r, int d, uint64_t ts)
{
	struct tdir *t = &r->td[d];
	bool again = true;
	int rc = 0;

	while (again && !rc) {
		again = false;
		for (unsigned i = 0; i < t->npend && !rc; i++) {
			struct seg *g = &t->pend[i];

			if (g->rel > t->next)
				continue;
			if ((uint64_t)g->rel + g->len > t->next) {
				uint32_t skip = (uint32_t)(t->next - g->rel);

				rc = deliver(r, d == 0, g->data + skip, g->len - skip, ts);
				t->next = (uint64_t)g->rel + g->len;
			}
			free(g->data);
			t->pend[i] = t->pend[--t->npend];
			again = true;
			break;
		}
	}
	return rc;
}

/* A TCP segment of direction d: in order, a repeat, or early. */
static int tcp_seg(struct rd *r, int d, const struct pview *v, uint64_t ts)
{
	struct tdir *t = &r->td[d];
	uint32_t rel;

	if (v->flags & TH_SYN) {
		t->isn = v->seq + 1;
		t->have_isn = true;
		return 0;
	}
	if (!v->plen)
		return 0;
	if (!t->have_isn) {
		t->isn = v->seq;
		t->have_isn = true;
	}
	rel = v->seq - t->isn;
	if (rel > 0x7fffffffu || (uint64_t)rel + v->plen <= t->next)
		return 0; /* before the stream's start, or bytes already had */
	if (rel <= t->next) {
		uint32_t skip = (uint32_t)(t->next - rel);
		int rc = deliver(r, d == 0, v->pay + skip, v->plen - skip, ts);

		t->next = (uint64_t)rel + v->plen;
		return rc ?: drain(r, d, ts);
	}
	if (t->npend == SEG_PENDING_MAX)
		return perr(r->err, r->errlen, -EINVAL, r->file,
			    "more than %d segments wait for a missing one", SEG_PENDING_MAX);
	t->pend[t->npend] = (struct seg){.rel = rel, .len = v->plen};
	t->pend[t->npend].data = malloc(v->plen);
	if (!t->pend[t->npend].data)
		return perr(r->err, r->errlen, -ENOMEM, r->file, "out of memory");
	memcpy(t->pend[t->npend++].data, v->pay, v->plen);
	return 0;
}

/* Pass 2: the session's packets, the client fixed by its first packet
 * (TCP: by the SYN without ACK when there is one). */
static int read_session(struct rd *r, const struct skey *k)
{
	pcap_t *pc = popen_file(r->file, r->err, r->errlen);
	struct pcap_pkthdr *h;
	const u_char *d;
	int dlt, rc = 0, client_dir = 0; /* 1: a is the client, -1: b is */

	if (!pc)
		return -EINVAL;
	dlt = pcap_datalink(pc);
	while (!rc && pcap_next_ex(pc, &h, &d) == 1) {
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec;
		struct pview v;
		int dir;

		if (!pkt_view(dlt, d, h->caplen, &v) || !(dir = skey_dir(k, &v)))
			continue;
		if (!client_dir) {
			/* the first packet's sender, unless it is the answer to a SYN */
			client_dir = k->proto == IPPROTO_TCP &&
					     (v.flags & (TH_SYN | TH_ACK)) == (TH_SYN | TH_ACK)
					 ? -dir
					 : dir;
			r->s->cport = client_dir == 1 ? k->pa : k->pb;
			r->s->sport = client_dir == 1 ? k->pb : k->pa;
		}
		if (k->proto == IPPROTO_UDP)
			rc = deliver(r, dir == client_dir, v.pay, v.plen, ts);
		else
			rc = tcp_seg(r, dir == client_dir ? 0 : 1, &v, ts);
		/* a repeat of the latest message's bytes is its last packet too */
		if (v.plen && r->s->n &&
		    r->s->msgs[r->s->n - 1].from_client == (dir == client_dir) && ts > r->last_ts)
			r->last_ts = ts;
	}
	pcap_close(pc);
	for (int i = 0; !rc && i < 2; i++)
		if (r->td[i].npend)
			rc = perr(r->err, r->errlen, -EINVAL, r->file,
				  "a segment of the %s's bytes is missing after byte %llu (the "
				  "capture lost it)",
				  i == 0 ? "client" : "server", (unsigned long long)r->td[i].next);
	return rc;
}

int prof_pcap_read(const char *file, struct prof_pcap_sess *s, char *err, size_t errlen)
{
	struct skey k;
	struct rd *r;
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = find_session(file, &k, err, errlen)) != 0)
		return rc;
	s->proto = k.proto;
	s->v6 = k.v6;
	r = calloc(1, sizeof(*r));
	if (!r)
		return perr(err, errlen, -ENOMEM, file, "out of memory");
	*r = (struct rd){.s = s, .file = file, .err = err, .errlen = errlen};
	rc = read_session(r, &k);
	for (int i = 0; i < 2; i++)
		for (unsigned j = 0; j < r->td[i].npend; j++)
			free(r->td[i].pend[j].data);
	free(r);
	return rc;
}

void prof_pcap_free(struct prof_pcap_sess *s)
{
	for (size_t i = 0; s->msgs && i < s->n; i++)
		free(s->msgs[i].data);
	free(s->msgs);
	memset(s, 0, sizeof(*s));
}
