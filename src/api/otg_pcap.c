/*
 * otg_pcap.c — the capture of one port out of flowgen's capture file: the
 * capture module writes every port into one pcapng file (one interface
 * block per DPDK port), and `POST /monitor/capture` asks for one port's
 * packets, as pcapng (the file with the other interfaces' packet blocks
 * left out) or as a classic pcap file with nanosecond timestamps (the
 * Capture's `format`). Pure: a byte buffer in, a byte buffer out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "otg_int.h"

#define PCAPNG_SHB 0x0a0d0d0au
#define PCAPNG_IDB 1u
#define PCAPNG_SPB 3u
#define PCAPNG_EPB 6u
#define PCAPNG_MAGIC 0x1a2b3c4du
#define PCAP_MAGIC_NS 0xa1b23c4du
#define MAX_IFS 64

static uint32_t rd32(const uint8_t *b)
{
	uint32_t v;

	memcpy(&v, b, 4);
	return v;
}

struct outbuf {
	uint8_t *b;
	size_t len, cap;
};

static int out_put(struct outbuf *o, const void *p, size_t n)
{
	if (!n)
		return 0;
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		uint8_t *nb;

		while (cap < o->len + n)
			cap *= 2;
		nb = realloc(o->b, cap);
		if (!nb)
			return -ENOMEM;
		o->b = nb;
		o->cap = cap;
	}
	memcpy(o->b + o->len, p, n);
	o->len += n;
	return 0;
}

/* An interface of the section: link type, snap length, timestamp unit. */
struct pcapng_if {
	uint16_t linktype;
	uint32_t snaplen;
	uint8_t tsresol; /* if_tsresol: 6 (microseconds) when absent */
};

static void idb_parse(const uint8_t *blk, uint32_t blen, struct pcapng_if *i)
{
	size_t o = 16; /* type, length, linktype + reserved, snaplen */

	i->linktype = (uint16_t)rd32(blk + 8);
	i->snaplen = rd32(blk + 12);
	i->tsresol = 6;
	while (o + 4 <= blen - 4) {
		uint16_t code, len;

		memcpy(&code, blk + o, 2);
		memcpy(&len, blk + o + 2, 2);
		if (code == 0 || o + 4 + len > blen - 4)
			break;
		if (code == 9 && len >= 1)
			i->tsresol = blk[o + 4];
		o += 4 + ((len + 3u) & ~3u);
	}
}

/* A timestamp in nanoseconds from its if_tsresol units. */
static uint64_t ts_ns(uint64_t ts, uint8_t res)
{
	if (res & 0x80) {
		unsigned sh = res & 0x7f;

		return sh >= 64 ? 0 : (uint64_t)((double)ts * 1e9 / (double)(1ull << sh));
	}
	for (; res < 9; res++)
		ts *= 10;
	for (; res > 9 && res < 30; res--)
		ts /= 10;
	return ts;
}

static int pcap_record(struct outbuf *o, const struct pcapng_if *i, uint64_t ts,
		       const uint8_t *data, uint32_t caplen, uint32_t origlen, bool *header)
{
	uint64_t ns = ts_ns(ts, i->tsresol);
	uint32_t rec[4] = {(uint32_t)(ns / 1000000000u), (uint32_t)(ns % 1000000000u), caplen,
			   origlen};

	if (!*header) {
		uint32_t h[6] = {
		    PCAP_MAGIC_NS, 2 | 4u << 16, 0, 0, i->snaplen ? i->snaplen : 262144,
		    i->linktype};

		if (out_put(o, h, sizeof(h)))
			return -ENOMEM;
		*header = true;
	}
	return out_put(o, rec, sizeof(rec)) ?: out_put(o, data, caplen);
}

/* One block of a section; what to keep of it. */
static int one_block(struct outbuf *o, const uint8_t *blk, uint32_t type, uint32_t blen,
		     struct pcapng_if *ifs, uint32_t *nifs, uint32_t ifid, bool pcap, bool *header)
{
	uint32_t id, caplen, origlen;

	if (type == PCAPNG_IDB) {
		if (blen < 20)
			return -EINVAL;
		if (*nifs < MAX_IFS)
			idb_parse(blk, blen, &ifs[*nifs]);
		(*nifs)++;
	}
	if (type == PCAPNG_EPB || type == PCAPNG_SPB) {
		if (blen < (type == PCAPNG_EPB ? 32u : 16u))
			return -EINVAL;
		id = type == PCAPNG_EPB ? rd32(blk + 8) : 0;
		if (id != ifid)
			return 0;
		if (id >= *nifs || id >= MAX_IFS)
			return -EINVAL;
		origlen = type == PCAPNG_EPB ? rd32(blk + 24) : rd32(blk + 8);
		caplen = type == PCAPNG_EPB ? rd32(blk + 20) : origlen;
		if (caplen > blen - (type == PCAPNG_EPB ? 32u : 16u)) {
			if (type == PCAPNG_EPB)
				return -EINVAL;
			caplen = blen - 16u;
		}
		if (pcap)
			return pcap_record(
			    o, &ifs[id],
			    type == PCAPNG_EPB ? (uint64_t)rd32(blk + 12) << 32 | rd32(blk + 16)
					       : 0,
			    blk + (type == PCAPNG_EPB ? 28 : 12), caplen, origlen, header);
	}
	if (pcap)
		return 0;
	if (out_put(o, blk, blen))
		return -ENOMEM;
	if (type == PCAPNG_SHB) /* the section's length is unknown once blocks are left out */
		memset(o->b + o->len - blen + 16, 0xff, 8);
	return 0;
}

int otg_pcapng_port(const uint8_t *buf, size_t len, uint32_t ifid, bool pcap, uint8_t **out,
		    size_t *out_len)
{
	struct pcapng_if ifs[MAX_IFS];
	struct outbuf o = {0};
	uint32_t nifs = 0;
	bool header = false;
	size_t off = 0;
	int rc = 0;

	*out = NULL;
	*out_len = 0;
	if (len < 28 || rd32(buf) != PCAPNG_SHB || rd32(buf + 8) != PCAPNG_MAGIC)
		return -EINVAL;
	while (off + 12 <= len && !rc) {
		uint32_t type = rd32(buf + off), blen = rd32(buf + off + 4);

		if (blen < 12 || (blen & 3) || blen > len - off ||
		    rd32(buf + off + blen - 4) != blen) {
			rc = -EINVAL;
			break;
		}
		if (type == PCAPNG_SHB) {
			if (blen < 28 || rd32(buf + off + 8) != PCAPNG_MAGIC) {
				rc = -EINVAL;
				break;
			}
			nifs = 0; /* interface ids count from 0 in every section */
		}
		rc = one_block(&o, buf + off, type, blen, ifs, &nifs, ifid, pcap, &header);
		off += blen;
	}
	if (!rc && pcap && !header) { /* no packet: the header of an empty file */
		struct pcapng_if none = {.linktype = 1, .snaplen = 262144, .tsresol = 9};

		if (ifid < nifs && ifid < MAX_IFS)
			none = ifs[ifid];
		rc = pcap_record(&o, &none, 0, NULL, 0, 0, &header);
		if (!rc)
			o.len -= 16; /* keep the file header only */
	}
	if (rc) {
		free(o.b);
		return rc;
	}
	if (!o.b && out_put(&o, "", 0) == 0 && !o.b)
		o.b = malloc(1);
	*out = o.b;
	*out_len = o.len;
	return o.b ? 0 : -ENOMEM;
}
