/*
 * streams_rx.c — the counting half of the streams engine's worker
 * (streams.c sends): the frames received, counted by signature per
 * (stream, rx port, sending worker) with their one-way delays and host
 * pairs, and the snapshots that hand the counts to control (the triple
 * buffer of streams.h). The design is in streams.c's and streams.h's
 * comments.
 *
 * Context: worker (the owning worker only: no allocation, lock, print or
 * system call).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_mbuf.h>

#include "fg.h"
#include "fgen.h"
#include "lat.h"
#include "pkt.h"
#include "port_addr.h"
#include "streams.h"
#include "streams_int.h"
#include "worker.h"

/*
 * Copy the counts into the back buffer and hand it over (streams.h):
 * the trackers' counts, and of each histogram its summary and the blocks
 * of buckets this buffer has not got yet.
 */
void streams_publish(struct streams_state *s, uint64_t now)
{
	struct streams_snap *b = &s->snaps[s->back];
	uint32_t nrx = s->nstreams * 2, nseq = nrx * s->nsenders;

	b->tsc = now;
	b->span = 0;
	memset(b->tx, 0, sizeof(uint64_t) * s->nstreams * FG_MAX_PORTS);
	memset(b->tx_bytes, 0, sizeof(uint64_t) * s->nstreams * FG_MAX_PORTS);
	memset(b->tx_dropped, 0, sizeof(uint64_t) * s->nstreams * FG_MAX_PORTS);
	memset(b->late, 0, sizeof(uint64_t) * s->nstreams * FG_MAX_PORTS);
	memcpy(b->stale, s->stale, sizeof(uint64_t) * nrx);
	for (uint32_t i = 0; i < s->nsnd; i++) {
		const struct streams_sender *sd = &s->snd[i];
		uint32_t k = sd->sid * FG_MAX_PORTS + (uint32_t)sd->txport;

		b->tx[k] = sd->tx;
		b->tx_bytes[k] = sd->tx_bytes;
		b->tx_dropped[k] = sd->tx_dropped;
		if (s->phase >= STREAMS_PH_RUN)
			b->late[k] = sd->pace.dropped - sd->late_base;
		if (sd->tx && sd->last_tsc - s->run_start > b->span)
			b->span = sd->last_tsc - s->run_start;
	}
	for (uint32_t i = 0; i < nseq; i++) {
		const struct lat_seq *q = &s->seq[i];
		struct streams_seqc *c = &b->seq[i];

		c->rx = q->rx;
		c->bytes = q->bytes;
		c->dup = q->dup;
		c->ooo = q->ooo;
		c->late = q->late;
	}
	for (uint32_t i = 0; i < nrx; i++) {
		struct streams_rx *r = &s->rx[i];
		struct lat_hist *h = &b->hist[i];
		uint32_t need;

		if (r->dirty) {
			for (int k = 0; k < STREAMS_NSNAP; k++)
				r->pend[k] |= r->dirty;
			r->dirty = 0;
		}
		need = r->pend[s->back];
		if (!need)
			continue; /* nothing measured since this buffer was filled */
		r->pend[s->back] = 0;
		memcpy(h, &r->hist, offsetof(struct lat_hist, bucket));
		while (need) {
			uint32_t k = (uint32_t)__builtin_ctz(need), lo = k * STREAMS_HBLOCK;
			uint32_t n = FG_MIN(STREAMS_HBLOCK, LAT_NBUCKETS - lo);

			need &= need - 1;
			memcpy(&h->bucket[lo], &r->hist.bucket[lo], n * sizeof(h->bucket[0]));
		}
	}
	if (s->pair_rx) {
		memcpy(b->pair_tx, s->pair_tx, sizeof(uint64_t) * s->run->npair_slots);
		memcpy(b->pair_rx, s->pair_rx, sizeof(*s->pair_rx) * s->run->npair_slots);
		b->pair_miss = s->pair_miss;
	}
	/* release: the copies above are visible before control can take b;
	 * acquire: the buffer we get back is one control has finished with */
	s->back = __atomic_exchange_n(&s->mid, s->back | STREAMS_FRESH, __ATOMIC_ACQ_REL) &
		  STREAMS_SNAP_IDX;
}

/*
 * Host pairs: a frame of stream sid received on `side`, sent from the
 * other port of the pair, to destination dip (host order; IPv6: the low
 * 32 bits) with one-way delay ns (lat: measured).
 */
static void streams_rx_pair(struct streams_state *s, uint32_t sid, int side, uint32_t dip, bool lat,
			    uint64_t ns)
{
	const struct streams_pairs *pp =
	    &s->run->pairs[sid * FG_MAX_PORTS + (uint32_t)(s->w->port[side] ^ 1)];
	int64_t i = pp->base == STREAMS_NO_PAIRS ? -1 : fgen_index(&pp->fp.b, dip);
	struct streams_pair_rx *c;
	uint32_t v;

	if (i < 0 || (uint64_t)i >= fgen_count(&pp->fp.b)) {
		s->pair_miss += pp->base != STREAMS_NO_PAIRS;
		return;
	}
	c = &s->pair_rx[pp->base + (uint32_t)i];
	c->rx++;
	if (!lat)
		return;
	v = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
	c->lat_sum += ns;
	c->lat_min = FG_MIN(c->lat_min, v);
	c->lat_max = FG_MAX(c->lat_max, v);
}

void streams_rx_frame(struct worker *w, int side, struct rte_mbuf *m, const struct pkt_info *pi,
		      uint64_t now)
{
	struct streams_state *s = w->state;
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t id, seq;
	uint64_t stamp;
	uint8_t flags;

	/* UDP, TCP, or ICMP with a signature (worker.c): the payload follows
	 * the layer 4 header */
	if (lat_sig_read(f + pi->payload, pi->paylen, &id, &seq, &stamp, &flags)) {
		uint32_t sid = id & STREAMS_ID_SID_MASK;
		uint32_t q = id >> STREAMS_ID_Q_SHIFT & STREAMS_ID_Q_MASK;
		bool ours = id >> STREAMS_ID_RUN_SHIFT == s->tag;

		if (ours && sid < s->nstreams && q < s->nsenders) {
			struct streams_rx *r = &s->rx[sid * 2 + side];
			bool lat = flags & LAT_SIG_F_LATENCY;
			uint64_t ns = 0;

			/* frames and their bytes, in the tracker's first line */
			lat_seq_add(&s->seq[(q * s->nstreams + sid) * 2 + side], seq,
				    rte_pktmbuf_pkt_len(m));
			if (lat) {
				ns = lat_tsc_to_ns(lat_sig_delay(stamp, now), s->ns_mult);
				lat_add(&r->hist, ns);
				r->dirty |= 1u << (lat_bucket(ns) / STREAMS_HBLOCK);
			}
			if (s->pair_rx)
				streams_rx_pair(s, sid, side, pi->dip, lat, ns);
			rte_pktmbuf_free(m);
			return;
		}
		if (id == STREAMS_LEARN_ID) {
			rte_pktmbuf_free(m);
			return;
		}
		if (sid < s->nstreams && q < FG_MAX_WORKERS) {
			/* a stream frame of another run: not this run's */
			s->stale[sid * 2 + side]++;
			rte_pktmbuf_free(m);
			return;
		}
	}
	FG_CTR_INC(w->ctr->port[w->port[side]].rx_unknown);
	rte_pktmbuf_free(m);
}
