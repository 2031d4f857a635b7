/*
 * streams.c — the stateless streams engine (`mode: streams`, SPEC §5.2-5.4).
 *
 * Control (streams_prepare) turns each stream of the profile and each port
 * it is sent from into a sender owned by queue 0 of that port's pair: a
 * pacer at the stream's rate times -m, field generators for the addresses
 * and ports (from an odd port src/dst and sport/dport swap roles), the frame
 * sizes (one size, or a precomputed repeating IMIX sequence) and a zeroed
 * template payload. Every frame carries the 18-byte signature of lat.h:
 * stream id, the sender's sequence number and the TSC at transmission.
 *
 * Before measured traffic, each worker runs a learning phase (RFC 2544):
 * one frame to every destination of each sender, flagged with the learning
 * id so that it is never counted, then a pause so the DUT's neighbour table
 * fills (the DUT resolves the emulated hosts by ARP, which the worker
 * answers). `-t learn=0` skips it, `-t learn_wait=SECONDS` sets the pause.
 *
 * RX: a UDP frame with a valid signature is counted per (stream, rx port)
 * in a sequence tracker (rx, dup, ooo) and, when the stream has latency on,
 * its one-way delay goes into a histogram. Counting is by signature only, so
 * a NAT may rewrite addresses and ports.
 *
 * Handover to control: a lock-free triple buffer per worker. The worker
 * fills its back buffer every 100 ms (and once more when it goes idle),
 * then swaps it with the middle one, marking the middle fresh, in one
 * atomic exchange with acq_rel ordering: the release half publishes the
 * copy. Control, when asked for rows, swaps its front buffer with the
 * middle one if it is fresh (acq_rel exchange: the acquire half pairs
 * with the worker's release, so the copy is complete). Neither side ever
 * waits, and control always reads the newest complete snapshot.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "engine.h"
#include "fgen.h"
#include "lat.h"
#include "pace.h"
#include "pkt.h"
#include "port.h"
#include "prof.h"
#include "stats.h"
#include "streams.h"
#include "units.h"
#include "worker.h"

#define STREAMS_LEARN_ID 0xffffffffu /* signature id of learning frames */
#define STREAMS_NSNAP 3		     /* triple buffer */
#define STREAMS_FRESH 4u	     /* mid holds a snapshot control has not taken */
#define STREAMS_SNAP_MS 100
#define STREAMS_IMIX_SEQ_MAX 4096
#define STREAMS_LEARN_WAIT_S 1.5
#define STREAMS_DRAIN_MAX_S 1.0
#define STREAMS_PAIR_TAB_MAX (1u << 20) /* address pairs precomputed per sender */
#define STREAMS_SLACK 64    /* least pacer backlog, frames */
#define STREAMS_SLACK_MS 50 /* pacer backlog kept across a stall */

enum streams_phase {
	STREAMS_PH_LEARN = 1, /* learning frames */
	STREAMS_PH_WAIT,      /* pause for the DUT's neighbour table */
	STREAMS_PH_RUN,	      /* measured traffic */
	STREAMS_PH_DRAIN,     /* no more frames; waiting for what is in flight */
};

/* Address pair i of a paired sender, as the headers carry it. */
struct streams_pair {
	uint32_t sa, da; /* network order */
	uint32_t sum;	 /* pkt_sum32(sa) + pkt_sum32(da) */
};

/* A header with every field in place, and its UDP sum without the payload. */
struct streams_fixed {
	uint8_t hdr[PKT_UDP_PAY_OFF];
	uint32_t sum; /* folded */
};

struct streams_sender {
	uint32_t sid; /* stream index: the signature id */
	int side;     /* 0/1 on the owning worker */
	int txport;
	bool latency;
	double base_pps; /* at the START rate; 0 = unpaced */
	struct pace pace;
	bool paired;	       /* src/dst walk as pairs */
	struct fgen_pair pair; /* paired: a = src, b = dst */
	struct fgen src, dst;  /* otherwise */
	struct fgen sport, dport;
	uint32_t nlearn, learned; /* learning frames to send / sent */
	uint32_t seq;
	uint64_t tx;	       /* measured frames sent (snapshot copy) */
	uint64_t last_tsc;     /* when its last measured burst was built */
	const uint16_t *sizes; /* frame sizes without FCS, repeating */
	uint32_t nsizes, pos;
	uint16_t maxlen;
	/* per position in sizes: prebuilt headers and partial checksums */
	struct pkt_udp_fast *fast;
	struct streams_fixed *fixed; /* all_fixed: whole headers, per position */
	uint64_t fast_dst;     /* next-hop MAC the templates carry */
	bool all_fixed;        /* no field varies: fix_* hold them */
	struct streams_pair *pair_tab; /* paired: pair i, ready for the headers */
	uint32_t fix_sip, fix_dip;
	uint16_t fix_sp, fix_dp;
};

/* Received on one side of a worker for one stream. */
struct streams_rx {
	struct lat_seq seq;
	struct lat_hist hist;
};

/* What a worker hands to control. */
struct streams_snap {
	uint64_t tsc;
	uint64_t span; /* TSC from the start of measured traffic to its last burst */
	uint64_t *tx;	       /* [stream * FG_MAX_PORTS + txport] */
	struct streams_rx *rx; /* [stream * 2 + side] */
};

struct streams_state {
	struct streams_run *run;
	struct worker *w;
	struct streams_sender *snd;
	uint32_t nsnd;
	struct streams_rx *rx; /* [stream * 2 + side] */
	uint32_t nstreams;
	int phase;
	bool started, paused, stopped;
	uint64_t now, phase_end, deadline, drain_end, next_snap;
	uint64_t run_start; /* measured traffic began (the pacers started) */
	uint64_t ns_mult;
	bool final_sent;
	struct streams_snap snaps[STREAMS_NSNAP];
	uint32_t back;	 /* worker: the buffer it fills */
	uint32_t mid;	 /* shared: index | STREAMS_FRESH, atomic exchange only */
	uint32_t front;	 /* control: the buffer it reads */
	bool have_front; /* control: front holds a snapshot */
	uint8_t tmpl[FG_PROF_FRAME_MAX];
};

/* One run: shared, immutable after prepare except under lock on control. */
struct streams_run {
	uint32_t nstreams;
	char (*names)[32];
	uint32_t *tx_mask; /* per stream: ports it is sent from */
	bool *latency;
	uint16_t *imix; /* the imix sequence (frame sizes without FCS) */
	uint32_t nimix;
	double duration_s, learn_wait_s, drain_s;
	bool learn;
	uint64_t hz;
	struct streams_state *st[FG_MAX_WORKERS];
};

static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;
static struct streams_run *streams_cur; /* the run whose rows `stats` shows */

/* ---------- worker side ---------- */

static bool streams_publish(struct streams_state *s, uint64_t now)
{
	struct streams_snap *b = &s->snaps[s->back];

	b->tsc = now;
	b->span = 0;
	memset(b->tx, 0, sizeof(uint64_t) * s->nstreams * FG_MAX_PORTS);
	for (uint32_t i = 0; i < s->nsnd; i++) {
		const struct streams_sender *sd = &s->snd[i];

		b->tx[sd->sid * FG_MAX_PORTS + sd->txport] = sd->tx;
		if (sd->tx && sd->last_tsc - s->run_start > b->span)
			b->span = sd->last_tsc - s->run_start;
	}
	memcpy(b->rx, s->rx, sizeof(*s->rx) * s->nstreams * 2);
	/* release: the copies above are visible before control can take b;
	 * acquire: the buffer we get back is one control has finished with */
	s->back = __atomic_exchange_n(&s->mid, s->back | STREAMS_FRESH, __ATOMIC_ACQ_REL) & 3u;
	return true;
}

/* Learning frame i: host i of the sender's destinations, its src i too. */
static void streams_learn_fields(struct streams_sender *sd, uint32_t i, uint32_t *sip,
				 uint32_t *dip)
{
	if (sd->paired) {
		*sip = fgen_at(&sd->pair.a, i);
		*dip = fgen_at(&sd->pair.b, i);
	} else {
		uint32_t ns = fgen_count(&sd->src);

		*dip = fgen_at(&sd->dst, i);
		*sip = fgen_at(&sd->src, ns ? i % ns : i);
	}
}

/* The next hop changed: rewrite the destination MAC of the templates. */
static void streams_retarget(struct streams_sender *sd, const struct rte_ether_addr *dst,
			     uint64_t word)
{
	for (uint32_t i = 0; i < sd->nsizes; i++) {
		rte_ether_addr_copy(dst, (struct rte_ether_addr *)sd->fast[i].hdr);
		if (sd->fixed) {
			struct streams_fixed *x = &sd->fixed[i];
			const struct pkt_udp_fast *t = &sd->fast[i];
			uint32_t sa = rte_cpu_to_be_32(sd->fix_sip), da = rte_cpu_to_be_32(sd->fix_dip);

			/* the whole header with a signature sum of 0; the UDP sum
			 * without the signature, folded, for the frames to add to */
			pkt_udp_fast_fill(x->hdr, t, sd->fix_sip, sd->fix_dip, sd->fix_sp, sd->fix_dp,
					  0);
			x->sum = pkt_fold(t->udp_sum + pkt_sum32(sa) + pkt_sum32(da) +
					  rte_cpu_to_be_16(sd->fix_sp) + rte_cpu_to_be_16(sd->fix_dp));
		}
	}
	sd->fast_dst = word;
}

/*
 * The signature, then zeros up to len (the templates' payload is zeros).
 * A 64-byte frame (60 without FCS) ends with the signature, in the
 * frame's one cache line; other short tails take one fixed 16-byte store,
 * which may write past the frame (up to byte 76, far inside any mbuf's
 * data room), instead of a memset call.
 */
static inline void streams_sig(uint8_t *f, uint16_t len, uint32_t sid, uint32_t seq, uint64_t tsc,
			       uint8_t flags)
{
	static const uint8_t zero16[16];
	uint8_t *tail = f + PKT_UDP_PAY_OFF + LAT_SIG_LEN;

	lat_sig_write(f + PKT_UDP_PAY_OFF, sid, seq, tsc, flags);
	if (len <= PKT_UDP_PAY_OFF + LAT_SIG_LEN)
		return;
	if (len <= PKT_UDP_PAY_OFF + LAT_SIG_LEN + 16)
		memcpy(tail, zero16, 16);
	else
		memset(tail, 0, len - PKT_UDP_PAY_OFF - LAT_SIG_LEN);
}

/*
 * Measured frames, every field fixed: a copy of the prebuilt header, the
 * signature, and the UDP checksum from the header's folded sum plus the
 * signature's. The sender's fields are read into locals first: frame bytes
 * are stored through uint8_t pointers, which may alias anything, so fields
 * read through sd would be reloaded after every store.
 */
static void streams_fill_fixed(struct streams_sender *sd, struct rte_mbuf **m, uint32_t n,
			       uint64_t tsc)
{
	const struct streams_fixed *fixed = sd->fixed;
	const uint16_t *sizes = sd->sizes;
	uint32_t pos = sd->pos, nsizes = sd->nsizes, seq = sd->seq, sid = sd->sid;
	uint8_t flags = sd->latency ? LAT_SIG_F_LATENCY : 0;
	uint32_t sigsum = lat_sig_sum_fixed(sid, tsc, flags);

	for (uint32_t i = 0; i < n; i++, seq++) {
		const struct streams_fixed *x = &fixed[pos];
		uint16_t len = sizes[pos];
		uint8_t *f = rte_pktmbuf_mtod(m[i], uint8_t *);
		uint16_t ck = (uint16_t)~pkt_fold(x->sum + sigsum + lat_sig_sum_seq(seq));

		if (++pos == nsizes)
			pos = 0;
		memcpy(f, x->hdr, PKT_UDP_PAY_OFF);
		((struct rte_udp_hdr *)(f + RTE_ETHER_HDR_LEN + 20))->dgram_cksum = ck ? ck : 0xffff;
		streams_sig(f, len, sid, seq, tsc, flags);
		m[i]->data_len = len;
		m[i]->pkt_len = len;
	}
	sd->pos = pos;
	sd->seq = seq;
}

/*
 * The addresses of a burst of n frames: frame i carries tab[idx[i]].
 * Paired senders with a table index it directly; the others draw the
 * addresses field by field (fgen_fill) into prs[] (n <= FG_BURST).
 */
static const struct streams_pair *streams_burst_pairs(struct streams_sender *sd, uint32_t n,
						      uint32_t *idx, struct streams_pair *prs)
{
	uint32_t sa[FG_BURST], da[FG_BURST];

	if (sd->pair_tab) {
		fgen_fill(&sd->pair.idx, idx, n);
		return sd->pair_tab;
	}
	if (sd->paired) {
		for (uint32_t i = 0; i < n; i++)
			fgen_pair_next(&sd->pair, &sa[i], &da[i]);
	} else {
		fgen_fill(&sd->src, sa, n);
		fgen_fill(&sd->dst, da, n);
	}
	for (uint32_t i = 0; i < n; i++) {
		prs[i].sa = rte_cpu_to_be_32(sa[i]);
		prs[i].da = rte_cpu_to_be_32(da[i]);
		prs[i].sum = pkt_sum32(prs[i].sa) + pkt_sum32(prs[i].da);
		idx[i] = i;
	}
	return prs;
}

/* Measured frames whose addresses or ports vary (locals as above). */
static void streams_fill(struct streams_sender *sd, struct rte_mbuf **m, uint32_t n, uint64_t tsc)
{
	const struct pkt_udp_fast *fast = sd->fast;
	const uint16_t *sizes = sd->sizes;
	uint32_t pos = sd->pos, nsizes = sd->nsizes, seq = sd->seq, sid = sd->sid;
	uint8_t flags = sd->latency ? LAT_SIG_F_LATENCY : 0;
	uint32_t sigsum = lat_sig_sum_fixed(sid, tsc, flags);
	uint32_t idx[FG_BURST], sp[FG_BURST], dp[FG_BURST];
	struct streams_pair prs[FG_BURST];
	const struct streams_pair *tab = streams_burst_pairs(sd, n, idx, prs);

	fgen_fill(&sd->sport, sp, n);
	fgen_fill(&sd->dport, dp, n);
	for (uint32_t i = 0; i < n; i++, seq++) {
		const struct pkt_udp_fast *t = &fast[pos];
		const struct streams_pair *pr = &tab[idx[i]];
		uint16_t len = sizes[pos];
		uint8_t *f = rte_pktmbuf_mtod(m[i], uint8_t *);

		if (++pos == nsizes)
			pos = 0;
		streams_sig(f, len, sid, seq, tsc, flags);
		pkt_udp_fast_fill_be(f, t, pr->sa, pr->da, pr->sum,
				     rte_cpu_to_be_16((uint16_t)sp[i]),
				     rte_cpu_to_be_16((uint16_t)dp[i]), sigsum + lat_sig_sum_seq(seq));
		m[i]->data_len = len;
		m[i]->pkt_len = len;
	}
	sd->pos = pos;
	sd->seq = seq;
}

/*
 * n mbufs straight from the pool, with only what a frame of ours needs
 * set: what rte_pktmbuf_alloc_bulk() would reset besides is already so
 * for any mbuf a free put back (next NULL, one segment, refcnt 1) or not
 * read with ol_flags 0 (tx_offload). The lengths are the fill's.
 */
static inline int streams_alloc(struct rte_mempool *mp, struct rte_mbuf **m, uint32_t n,
				uint16_t port)
{
	struct rte_mbuf tmpl = {.data_off = RTE_PKTMBUF_HEADROOM, .nb_segs = 1, .port = port};
	uint64_t rearm;

	if (rte_mempool_get_bulk(mp, (void **)m, n) != 0)
		return -ENOBUFS;
	rte_mbuf_refcnt_set(&tmpl, 1);
	memcpy(&rearm, &tmpl.rearm_data, sizeof(rearm));
	for (uint32_t i = 0; i < n; i++) {
		memcpy(&m[i]->rearm_data, &rearm, sizeof(rearm));
		m[i]->ol_flags = 0;
		m[i]->packet_type = 0;
		m[i]->vlan_tci = 0;
	}
	return 0;
}

/* Send up to n frames of a sender; returns how many went out. */
static uint32_t streams_send(struct streams_state *s, struct streams_sender *sd, uint32_t n,
			     bool learning)
{
	struct worker *w = s->w;
	struct port *p = &fg_port[sd->txport];
	struct rte_mbuf *m[FG_BURST];
	uint64_t tsc;

	if (!n)
		return 0;
	if (!w->dst_known[sd->side])
		return 0;
	tsc = rte_rdtsc();
	if (!learning) {
		if (streams_alloc(p->pool, m, n, p->id) != 0) {
			FG_CTR_INC(w->ctr->port[sd->txport].mbuf_fail);
			return 0;
		}
		uint64_t dw = port_mac_word(&w->dst[sd->side]);

		/* `arp` may have changed the next hop: patch the templates */
		if (dw != sd->fast_dst)
			streams_retarget(sd, &w->dst[sd->side], dw);
		if (sd->fixed)
			streams_fill_fixed(sd, m, n, tsc);
		else
			streams_fill(sd, m, n, tsc);
		sd->tx += n;
		sd->last_tsc = tsc;
		worker_tx_bulk(w, sd->side, m, n);
		return n;
	}
	/* learning frames: one per destination host, at the first size */
	if (rte_pktmbuf_alloc_bulk(p->pool, m, n) != 0) {
		FG_CTR_INC(w->ctr->port[sd->txport].mbuf_fail);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint16_t len = sd->sizes[0];
		uint16_t pay = (uint16_t)(len - PKT_UDP_PAY_OFF);
		uint8_t *f = rte_pktmbuf_mtod(m[i], uint8_t *);
		uint32_t sip, dip;

		memcpy(f + PKT_UDP_PAY_OFF, s->tmpl, pay);
		streams_learn_fields(sd, sd->learned++, &sip, &dip);
		lat_sig_write(f + PKT_UDP_PAY_OFF, STREAMS_LEARN_ID, 0, tsc, 0);
		pkt_build_udp(f, &p->mac, &w->dst[sd->side], sip, dip,
			      (uint16_t)fgen_at(&sd->sport, 0), (uint16_t)fgen_at(&sd->dport, 0), pay);
		m[i]->data_len = len;
		m[i]->pkt_len = len;
	}
	worker_tx_bulk(w, sd->side, m, n);
	return n;
}

static void streams_start_run(struct streams_state *s, uint64_t now)
{
	s->phase = STREAMS_PH_RUN;
	s->run_start = now;
	if (s->run->duration_s > 0)
		s->deadline = now + (uint64_t)(s->run->duration_s * (double)s->run->hz);
	for (uint32_t i = 0; i < s->nsnd; i++) {
		struct streams_sender *sd = &s->snd[i];

		/* credit left from the learning phase is not measured traffic:
		 * the run sends its rate times its duration, no more */
		pace_clear(&sd->pace, now);
		if (!s->paused)
			pace_resume(&sd->pace, now);
		else
			sd->pace.last_tsc = now;
	}
}

static void streams_drain(struct worker *w, struct streams_state *s, uint64_t now)
{
	s->phase = STREAMS_PH_DRAIN;
	s->drain_end = now + (uint64_t)(s->run->drain_s * (double)s->run->hz);
	FG_CTR_SET(w->ctr->gauge.state, CTR_DRAINING);
}

static void streams_tick(struct worker *w, uint64_t now)
{
	struct streams_state *s = w->state;

	s->now = now;
	if (!s->started) {
		s->started = true;
		s->next_snap = now;
		if (s->run->learn && s->nsnd) {
			s->phase = STREAMS_PH_LEARN;
			for (uint32_t i = 0; i < s->nsnd; i++)
				pace_resume(&s->snd[i].pace, now);
		} else {
			for (uint32_t i = 0; i < s->nsnd; i++)
				pace_pause(&s->snd[i].pace, now);
			streams_start_run(s, now);
		}
	}
	if ((int64_t)(now - s->next_snap) >= 0) {
		streams_publish(s, now);
		s->next_snap = now + s->run->hz * STREAMS_SNAP_MS / 1000;
	}
	switch (s->phase) {
	case STREAMS_PH_LEARN: {
		bool done = true;

		if (s->paused)
			break;
		for (uint32_t i = 0; i < s->nsnd; i++) {
			struct streams_sender *sd = &s->snd[i];
			uint32_t left = sd->nlearn - sd->learned, n;

			if (!left)
				continue;
			done = false;
			/* FG_MIN evaluates twice: take the due count once */
			n = pace_due(&sd->pace, now);
			n = FG_MIN(n, left);
			streams_send(s, sd, n, true);
		}
		if (done) {
			s->phase = STREAMS_PH_WAIT;
			s->phase_end = now + (uint64_t)(s->run->learn_wait_s * (double)s->run->hz);
			for (uint32_t i = 0; i < s->nsnd; i++)
				pace_pause(&s->snd[i].pace, now);
		}
		break;
	}
	case STREAMS_PH_WAIT:
		if ((int64_t)(now - s->phase_end) >= 0)
			streams_start_run(s, now);
		break;
	case STREAMS_PH_RUN:
		if (s->paused)
			break;
		if (s->deadline && (int64_t)(now - s->deadline) >= 0) {
			streams_drain(w, s, now);
			break;
		}
		for (uint32_t i = 0; i < s->nsnd; i++) {
			struct streams_sender *sd = &s->snd[i];
			uint32_t due = pace_due(&sd->pace, now);
			uint32_t sent = streams_send(s, sd, due, false);

			if (sent < due && sd->base_pps > 0)
				pace_return(&sd->pace, due - sent);
		}
		break;
	default:
		break;
	}
}

static void streams_rx_frame(struct worker *w, int side, struct rte_mbuf *m,
			     const struct pkt_info *pi, uint64_t now)
{
	struct streams_state *s = w->state;
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t id, seq;
	uint64_t stamp;
	uint8_t flags;

	if (pi->kind == PKT_UDP &&
	    lat_sig_read(f + pi->payload, pi->paylen, &id, &seq, &stamp, &flags)) {
		if (id < s->nstreams) {
			struct streams_rx *r = &s->rx[id * 2 + side];

			lat_seq_add(&r->seq, seq);
			if (flags & LAT_SIG_F_LATENCY)
				lat_add(&r->hist,
					lat_tsc_to_ns(lat_sig_delay(stamp, now), s->ns_mult));
			rte_pktmbuf_free(m);
			return;
		}
		if (id == STREAMS_LEARN_ID) {
			rte_pktmbuf_free(m);
			return;
		}
	}
	FG_CTR_INC(w->ctr->port[w->port[side]].rx_unknown);
	rte_pktmbuf_free(m);
}

static void streams_stop(struct worker *w, uint64_t now)
{
	struct streams_state *s = w->state;

	if (s->phase != STREAMS_PH_DRAIN)
		streams_drain(w, s, now);
}

static void streams_rate(struct worker *w, uint64_t scale_micro, uint64_t now)
{
	struct streams_state *s = w->state;

	for (uint32_t i = 0; i < s->nsnd; i++) {
		struct streams_sender *sd = &s->snd[i];

		if (sd->base_pps > 0 && scale_micro > 0)
			pace_set_rate(&sd->pace, sd->base_pps * (double)scale_micro / 1e6, now);
	}
}

static void streams_pause(struct worker *w, bool on, uint64_t now)
{
	struct streams_state *s = w->state;

	/* the tick sends nothing while paused (unpaced senders ignore the
	 * pacer); the pacers stop accruing credit too */
	s->paused = on;
	if (s->phase != STREAMS_PH_LEARN && s->phase != STREAMS_PH_RUN)
		return;
	for (uint32_t i = 0; i < s->nsnd; i++) {
		if (on)
			pace_pause(&s->snd[i].pace, now);
		else
			pace_resume(&s->snd[i].pace, now);
	}
}

static bool streams_idle(struct worker *w)
{
	struct streams_state *s = w->state;

	if (s->phase != STREAMS_PH_DRAIN || (int64_t)(s->now - s->drain_end) < 0)
		return false;
	if (!s->final_sent) {
		/* the last snapshot must reach control: retry until a buffer is free */
		if (!streams_publish(s, s->now))
			return false;
		s->final_sent = true;
	}
	return true;
}

static const struct engine streams_engine = {
    .name = "streams",
    .rx = streams_rx_frame,
    .tick = streams_tick,
    .stop = streams_stop,
    .rate = streams_rate,
    .pause = streams_pause,
    .idle = streams_idle,
};

/* ---------- control side ---------- */

static int streams_fgen_mode(int var)
{
	switch (var) {
	case PROF_VAR_INC:
		return FGEN_INC;
	case PROF_VAR_DEC:
		return FGEN_DEC;
	case PROF_VAR_RAND:
		return FGEN_RAND;
	default:
		return FGEN_FIXED;
	}
}

int streams_imix_seq(const struct units_imix_entry *t, size_t n, uint16_t *seq, uint32_t max)
{
	int64_t cur[FG_PROF_MAX_IMIX] = {0};
	uint64_t total = 0;
	uint32_t len;

	if (!n || n > FG_PROF_MAX_IMIX || !max)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		total += t[i].weight;
	if (!total)
		return -EINVAL;
	len = total > max ? max : (uint32_t)total;
	/* smooth weighted round robin: sizes interleaved, exact proportions */
	for (uint32_t k = 0; k < len; k++) {
		size_t best = 0;

		for (size_t i = 0; i < n; i++) {
			cur[i] += t[i].weight;
			if (cur[i] > cur[best])
				best = i;
		}
		cur[best] -= (int64_t)total;
		seq[k] = (uint16_t)(t[best].size - 4);
	}
	return (int)len;
}

int streams_parse_tunables(const char *t, bool *learn, double *learn_wait, char *err, size_t errlen)
{
	char buf[256], *save = NULL;

	if (!t || !*t)
		return 0;
	if (strlen(t) >= sizeof(buf)) {
		snprintf(err, errlen, "-t: too long");
		return -EINVAL;
	}
	strcpy(buf, t);
	for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '='), *end;
		double v;

		if (!eq) {
			snprintf(err, errlen, "-t %s: KEY=VAL expected", kv);
			return -EINVAL;
		}
		*eq = 0;
		v = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || !isfinite(v) || v < 0) {
			snprintf(err, errlen, "-t %s: bad value '%s'", kv, eq + 1);
			return -EINVAL;
		}
		if (strcmp(kv, "learn") == 0)
			*learn = v != 0;
		else if (strcmp(kv, "learn_wait") == 0 && v <= 60)
			*learn_wait = v;
		else {
			snprintf(err, errlen,
				 "-t %s: unknown key or value out of range (streams: "
				 "learn=0|1, learn_wait=0..60)",
				 kv);
			return -EINVAL;
		}
	}
	return 0;
}

static void streams_state_free(struct streams_state *s)
{
	if (!s)
		return;
	for (int i = 0; i < STREAMS_NSNAP; i++) {
		free(s->snaps[i].tx);
		free(s->snaps[i].rx);
	}
	free(s->rx);
	for (uint32_t i = 0; s->snd && i < s->nsnd; i++) {
		free(s->snd[i].fast);
		free(s->snd[i].fixed);
		free(s->snd[i].pair_tab);
	}
	free(s->snd);
	free(s);
}

static void streams_run_free(struct streams_run *r)
{
	if (!r)
		return;
	for (int w = 0; w < FG_MAX_WORKERS; w++)
		streams_state_free(r->st[w]);
	free(r->names);
	free(r->tx_mask);
	free(r->latency);
	free(r->imix);
	free(r);
}

static uint64_t streams_link_bps(int p)
{
	uint32_t mbps = 0;

	port_link(p, &mbps);
	return (uint64_t)(mbps ? mbps : 10000) * 1000000ull;
}

/* The pps of stream s sent from port p at -m 1 (before an absolute -m). */
static int streams_base_pps(const struct prof *pf, const struct prof_stream *s, int p, double *pps,
			    char *err, size_t errlen)
{
	return units_rate_to_pps(&s->rate, streams_link_bps(p), prof_stream_avg_frame(pf, s), pps,
				 err, errlen);
}

static bool streams_port_ok(const struct run_params *rp, int p)
{
	return p < fg_nports && (p ^ 1) < fg_nports && (!rp->port_mask || (rp->port_mask >> p & 1));
}

/*
 * Scale factors per port so that -m applies; refuse what a port cannot
 * carry. When offered is not NULL, offered[p] is the frames/s port p will
 * send and util[p] its share of line rate (L1, %); both 0 when unpaced.
 */
static int streams_factors(const struct run_params *rp, double *factor, double *offered,
			   double *util, char *err, size_t errlen)
{
	const struct prof *pf = rp->prof;

	for (int p = 0; p < fg_nports; p++) {
		double pps = 0, bits_l1 = 0, bits_l2 = 0, f = 1, link = (double)streams_link_bps(p);

		factor[p] = 0;
		if (offered)
			offered[p] = util[p] = 0;
		if (!streams_port_ok(rp, p))
			continue;
		for (size_t i = 0; i < pf->n_streams; i++) {
			const struct prof_stream *s = &pf->streams[i];
			double r, avg = prof_stream_avg_frame(pf, s);

			if (!(s->tx_mask >> p & 1))
				continue;
			if (streams_base_pps(pf, s, p, &r, err, errlen) != 0)
				return -EINVAL;
			pps += r;
			bits_l2 += r * avg * 8;
			bits_l1 += r * (avg + FG_UNITS_L1_OVERHEAD) * 8;
		}
		if (pps <= 0)
			continue;
		switch (rp->mult.kind) {
		case UNITS_MULT:
			f = rp->mult.value;
			break;
		case UNITS_PPS:
			f = rp->mult.value / pps;
			break;
		case UNITS_BPS:
			f = rp->mult.value / (rp->mult.l1 ? bits_l1 : bits_l2);
			break;
		case UNITS_PCT:
			f = rp->mult.value / 100.0 * link / bits_l1;
			break;
		case UNITS_MAX:
			f = 0; /* unpaced */
			break;
		default:
			snprintf(err, errlen, "-m %s does not apply to streams",
				 units_kind_names[rp->mult.kind]);
			return -EINVAL;
		}
		if (f > 0 && bits_l1 * f > link * 1.0001) {
			snprintf(err, errlen,
				 "port %d: %.0f pps (%.4g Mbps L1) exceed the link's %.0f Mbps; "
				 "the maximum is -m %.4g (%.0f pps)",
				 p, pps * f, bits_l1 * f / 1e6, link / 1e6,
				 (rp->mult.kind == UNITS_MULT ? 1.0 : rp->mult.value / f) * link /
				     bits_l1,
				 pps * link / bits_l1);
			return -ERANGE;
		}
		factor[p] = f;
		if (offered && f > 0) {
			offered[p] = pps * f;
			util[p] = bits_l1 * f / link * 100;
		}
	}
	return 0;
}

int streams_offered(const struct run_params *rp, double *pps, double *line_pct, char *err,
		    size_t errlen)
{
	double factor[FG_MAX_PORTS], offered[FG_MAX_PORTS], util[FG_MAX_PORTS];
	int rc;

	if (rp->prof->mode != PROF_STREAMS || !rp->prof->n_streams) {
		snprintf(err, errlen, "not a streams profile");
		return -EINVAL;
	}
	if (rp->mult.kind == UNITS_MAX) {
		snprintf(err, errlen, "-m max is unpaced: it offers no known rate");
		return -EINVAL;
	}
	rc = streams_factors(rp, factor, offered, util, err, errlen);
	if (rc)
		return rc;
	*pps = *line_pct = 0;
	for (int p = 0; p < fg_nports; p++) {
		*pps += offered[p];
		*line_pct = FG_MAX(*line_pct, util[p]);
	}
	return 0;
}

static int streams_init_sender(const struct run_params *rp, struct streams_run *run,
			       struct streams_sender *sd, uint32_t sid, int p, double factor,
			       uint16_t *fixed_size, char *err, size_t errlen)
{
	const struct prof *pf = rp->prof;
	const struct prof_stream *s = &pf->streams[sid];
	bool rev = p & 1;
	const struct prof_field *src = rev ? &s->dst : &s->src, *dst = rev ? &s->src : &s->dst;
	const struct prof_field *sp = rev ? &s->dport : &s->sport;
	const struct prof_field *dp = rev ? &s->sport : &s->dport;
	uint32_t dir = (uint32_t)p;
	double pps;
	uint32_t slack;
	int rc;

	sd->sid = sid;
	sd->txport = p;
	sd->latency = s->latency;
	if ((rc = streams_base_pps(pf, s, p, &pps, err, errlen)) != 0)
		return rc;
	sd->base_pps = factor > 0 ? pps * factor : 0;
	/* slack: a worker descheduled for up to STREAMS_SLACK_MS catches up
	 * (burst by burst) instead of sending fewer frames than asked */
	slack = (uint32_t)FG_MIN(
	    FG_MAX(sd->base_pps * STREAMS_SLACK_MS / 1000.0, (double)STREAMS_SLACK),
	    (double)(1u << 20));
	rc = pace_init(&sd->pace, rp->hz, FG_BURST, slack, 0);
	if (!rc && sd->base_pps > 0)
		rc = pace_set_rate(&sd->pace, sd->base_pps, 0);
	if (rc) {
		snprintf(err, errlen, "stream %s: rate %.3g pps cannot be paced", s->name,
			 sd->base_pps);
		return rc;
	}
	pace_set_max(&sd->pace, sd->base_pps == 0);
	sd->paired = src->mode != PROF_VAR_FIXED && src->mode == dst->mode && src->lo != src->hi &&
		     dst->lo != dst->hi;
	if (sd->paired)
		rc = fgen_pair_init(&sd->pair, (enum fgen_mode)streams_fgen_mode(src->mode),
				    src->lo, src->hi, dst->lo, dst->hi, true,
				    fgen_subseed(pf->seed, sid * FG_MAX_PORTS + dir, 0));
	else
		rc = fgen_init(&sd->src, (enum fgen_mode)streams_fgen_mode(src->mode), src->lo,
			       src->hi, true, fgen_subseed(pf->seed, sid * FG_MAX_PORTS + dir, 0))
			 ?: fgen_init(&sd->dst, (enum fgen_mode)streams_fgen_mode(dst->mode),
				      dst->lo, dst->hi, true,
				      fgen_subseed(pf->seed, sid * FG_MAX_PORTS + dir, 1));
	rc = rc
		 ?: fgen_init(&sd->sport, (enum fgen_mode)streams_fgen_mode(sp->mode), sp->lo,
			      sp->hi, false, fgen_subseed(pf->seed, sid * FG_MAX_PORTS + dir, 2));
	rc = rc
		 ?: fgen_init(&sd->dport, (enum fgen_mode)streams_fgen_mode(dp->mode), dp->lo,
			      dp->hi, false, fgen_subseed(pf->seed, sid * FG_MAX_PORTS + dir, 3));
	if (rc) {
		snprintf(err, errlen, "stream %s: an address range holds no usable address",
			 s->name);
		return rc;
	}
	sd->nlearn = sd->paired ? fgen_count(&sd->pair.a) : fgen_count(&sd->dst);
	if (s->imix) {
		sd->sizes = run->imix;
		sd->nsizes = run->nimix;
	} else {
		*fixed_size = (uint16_t)(s->frame - 4);
		sd->sizes = fixed_size;
		sd->nsizes = 1;
	}
	/* Mapping an index to an address skips .0 and .255 with a division:
	 * precompute the pairs once instead of twice per frame. */
	if (sd->paired && sd->nlearn <= STREAMS_PAIR_TAB_MAX) {
		sd->pair_tab = malloc(sizeof(*sd->pair_tab) * sd->nlearn);
		if (!sd->pair_tab) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		for (uint32_t i = 0; i < sd->nlearn; i++) {
			struct streams_pair *pr = &sd->pair_tab[i];

			pr->sa = rte_cpu_to_be_32(fgen_at(&sd->pair.a, i));
			pr->da = rte_cpu_to_be_32(fgen_at(&sd->pair.b, i));
			pr->sum = pkt_sum32(pr->sa) + pkt_sum32(pr->da);
		}
	}
	sd->all_fixed = !sd->paired && src->mode == PROF_VAR_FIXED && dst->mode == PROF_VAR_FIXED &&
			sp->mode == PROF_VAR_FIXED && dp->mode == PROF_VAR_FIXED;
	if (sd->all_fixed) {
		sd->fix_sip = fgen_next(&sd->src);
		sd->fix_dip = fgen_next(&sd->dst);
		sd->fix_sp = (uint16_t)fgen_next(&sd->sport);
		sd->fix_dp = (uint16_t)fgen_next(&sd->dport);
	}
	sd->fast = calloc(sd->nsizes, sizeof(*sd->fast));
	if (sd->all_fixed)
		sd->fixed = calloc(sd->nsizes, sizeof(*sd->fixed));
	if (!sd->fast || (sd->all_fixed && !sd->fixed)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	sd->fast_dst = UINT64_MAX; /* no MAC word: the first burst fills the templates in */
	/* The payload after the signature is zeros (the worker's tmpl). */
	for (uint32_t i = 0; i < sd->nsizes; i++) {
		static const uint8_t zeros[FG_PROF_FRAME_MAX];
		struct rte_ether_addr none = {{0}};

		pkt_udp_fast_init(&sd->fast[i], &fg_port[p].mac, &none,
				  (uint16_t)(sd->sizes[i] - PKT_UDP_PAY_OFF), LAT_SIG_LEN, zeros);
	}
	return 0;
}

int streams_prepare(const struct run_params *rp, void **states, const struct engine **ops,
		    char *err, size_t errlen)
{
	const struct prof *pf = rp->prof;
	struct streams_run *run;
	double factor[FG_MAX_PORTS];
	struct port_host_range extra[FG_MAX_PORTS][PORT_MAX_HOSTS];
	size_t nextra[FG_MAX_PORTS] = {0};
	uint16_t *fixed;
	int rc;

	if (pf->mode != PROF_STREAMS || !pf->n_streams) {
		snprintf(err, errlen, "not a streams profile");
		return -EINVAL;
	}
	run = calloc(1, sizeof(*run));
	if (!run)
		goto nomem;
	run->nstreams = (uint32_t)pf->n_streams;
	run->hz = rp->hz;
	run->duration_s = rp->duration_s;
	run->learn = true;
	run->learn_wait_s = STREAMS_LEARN_WAIT_S;
	run->drain_s = rp->drain_s > 0 ? rp->drain_s : FG_MIN(pf->timeout, STREAMS_DRAIN_MAX_S);
	if ((rc = streams_parse_tunables(rp->tunables, &run->learn, &run->learn_wait_s, err,
					 errlen)) != 0)
		goto fail;
	if ((rc = streams_factors(rp, factor, NULL, NULL, err, errlen)) != 0)
		goto fail;
	for (int p = 0; p < fg_nports; p++)
		if (factor[p] != 0 || (rp->mult.kind == UNITS_MAX && streams_port_ok(rp, p)))
			if (!(fg_port[p].gw_mac & PORT_MAC_KNOWN)) {
				snprintf(err, errlen,
					 "port %d: next-hop MAC unknown (run `arp` first or set "
					 "dest_mac)",
					 p);
				rc = -EHOSTUNREACH;
				goto fail;
			}
	/* emulated hosts of the profile, appended to the config's */
	for (size_t i = 0; i < pf->n_hosts; i++) {
		uint32_t p = pf->hosts[i].port;

		if ((int)p >= fg_nports)
			continue;
		if (nextra[p] + fg_port[p].ncfg_hosts >= PORT_MAX_HOSTS) {
			snprintf(err, errlen, "port %u: more than %d host ranges", p,
				 PORT_MAX_HOSTS);
			rc = -ENOSPC;
			goto fail;
		}
		extra[p][nextra[p]].lo = pf->hosts[i].lo;
		extra[p][nextra[p]].hi = pf->hosts[i].hi;
		nextra[p]++;
	}
	run->names = calloc(pf->n_streams, sizeof(*run->names));
	run->tx_mask = calloc(pf->n_streams, sizeof(*run->tx_mask));
	run->latency = calloc(pf->n_streams, sizeof(*run->latency));
	run->imix = calloc(STREAMS_IMIX_SEQ_MAX, sizeof(uint16_t));
	if (!run->names || !run->tx_mask || !run->latency || !run->imix)
		goto nomem;
	rc = streams_imix_seq(pf->imix, pf->n_imix, run->imix, STREAMS_IMIX_SEQ_MAX);
	if (rc < 0) {
		snprintf(err, errlen, "bad imix table");
		goto fail;
	}
	run->nimix = (uint32_t)rc;
	for (size_t i = 0; i < pf->n_streams; i++) {
		snprintf(run->names[i], sizeof(run->names[i]), "%s", pf->streams[i].name);
		run->latency[i] = pf->streams[i].latency;
		for (int p = 0; p < fg_nports; p++)
			if ((pf->streams[i].tx_mask >> p & 1) && streams_port_ok(rp, p))
				run->tx_mask[i] |= 1u << p;
	}
	for (int wi = 0; wi < fg_nworkers; wi++) {
		struct worker *w = &fg_worker[wi];
		struct streams_state *s;
		uint32_t n = 0;

		s = aligned_alloc(RTE_CACHE_LINE_SIZE,
				  RTE_ALIGN_CEIL(sizeof(*s), RTE_CACHE_LINE_SIZE));
		if (!s)
			goto nomem;
		memset(s, 0, sizeof(*s));
		run->st[wi] = s;
		s->run = run;
		s->w = w;
		s->nstreams = run->nstreams;
		s->ns_mult = lat_ns_mult(rp->hz);
		if (w->q == 0)
			for (size_t i = 0; i < pf->n_streams; i++)
				for (int side = 0; side < 2; side++)
					n += run->tx_mask[i] >> w->port[side] & 1;
		s->snd = calloc(1, (sizeof(*s->snd) + sizeof(uint16_t)) * (n ? n : 1));
		s->rx = calloc(run->nstreams * 2, sizeof(*s->rx));
		if (!s->snd || !s->rx)
			goto nomem;
		fixed = (uint16_t *)(s->snd + (n ? n : 1));
		for (uint32_t i = 0; i < run->nstreams * 2; i++) {
			lat_seq_init(&s->rx[i].seq);
			lat_init(&s->rx[i].hist);
		}
		if (w->q == 0)
			for (size_t i = 0; i < pf->n_streams; i++)
				for (int side = 0; side < 2; side++) {
					int p = w->port[side];
					struct streams_sender *sd = &s->snd[s->nsnd];

					if (!(run->tx_mask[i] >> p & 1))
						continue;
					sd->side = side;
					rc = streams_init_sender(rp, run, sd, (uint32_t)i, p,
								 factor[p], &fixed[s->nsnd], err,
								 errlen);
					if (rc)
						goto fail;
					s->nsnd++;
				}
		for (int b = 0; b < STREAMS_NSNAP; b++) {
			s->snaps[b].tx = calloc(run->nstreams * FG_MAX_PORTS, sizeof(uint64_t));
			s->snaps[b].rx = calloc(run->nstreams * 2, sizeof(*s->rx));
			if (!s->snaps[b].tx || !s->snaps[b].rx)
				goto nomem;
		}
		s->back = 0;
		s->mid = 1;
		s->front = 2;
		states[wi] = s;
	}
	for (int p = 0; p < fg_nports; p++)
		port_set_hosts(p, extra[p], nextra[p]);
	pthread_mutex_lock(&streams_lock);
	streams_cur = run;
	pthread_mutex_unlock(&streams_lock);
	*ops = &streams_engine;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory preparing the streams");
	rc = -ENOMEM;
fail:
	for (int wi = 0; wi < fg_nworkers; wi++)
		states[wi] = NULL;
	streams_run_free(run);
	return rc;
}

void streams_release(void **states)
{
	struct streams_state *s = NULL;

	for (int w = 0; w < fg_nworkers && !s; w++)
		s = states[w];
	if (!s)
		return;
	pthread_mutex_lock(&streams_lock);
	if (streams_cur == s->run)
		streams_cur = NULL;
	pthread_mutex_unlock(&streams_lock);
	streams_run_free(s->run);
	for (int w = 0; w < fg_nworkers; w++)
		states[w] = NULL;
}

static double streams_us(uint64_t ns) { return (double)ns / 1000.0; }

/* Take the newest snapshot of every worker, give older ones back. Lock held. */
static void streams_take_snaps(struct streams_run *run)
{
	for (int wi = 0; wi < fg_nworkers; wi++) {
		struct streams_state *s = run->st[wi];

		if (!s)
			continue;
		/* acquire: pairs with the worker's release in streams_publish */
		if (__atomic_load_n(&s->mid, __ATOMIC_ACQUIRE) & STREAMS_FRESH) {
			s->front = __atomic_exchange_n(&s->mid, s->front, __ATOMIC_ACQ_REL) & 3u;
			s->have_front = true;
		}
	}
}

int streams_totals(bool stamped_only, struct lat_hist *h, struct lat_seq *q, uint64_t *tx,
		   double *span_s)
{
	struct streams_run *run;
	uint64_t span = 0;
	int rc = 0;

	if (h)
		lat_init(h);
	lat_seq_init(q);
	*tx = 0;
	pthread_mutex_lock(&streams_lock);
	run = streams_cur;
	if (!run) {
		rc = -ENOENT;
		goto out;
	}
	streams_take_snaps(run);
	for (int wi = 0; wi < fg_nworkers; wi++) {
		const struct streams_state *s = run->st[wi];
		const struct streams_snap *b;

		if (!s || !s->have_front)
			continue;
		b = &s->snaps[s->front];
		span = FG_MAX(span, b->span);
		for (uint32_t i = 0; i < run->nstreams; i++) {
			if (stamped_only && !run->latency[i])
				continue;
			for (int p = 0; p < fg_nports; p++)
				*tx += b->tx[i * FG_MAX_PORTS + p];
			for (int side = 0; side < 2; side++) {
				if (h)
					lat_merge(h, &b->rx[i * 2 + side].hist);
				lat_seq_merge(q, &b->rx[i * 2 + side].seq);
			}
		}
	}
	if (span_s)
		*span_s = run->hz ? (double)span / (double)run->hz : 0;
out:
	pthread_mutex_unlock(&streams_lock);
	return rc;
}

int streams_latency_rows(struct stats_lat_row *rows, int max)
{
	struct streams_run *run;
	struct lat_hist *h = NULL;
	struct lat_seq *q = NULL;
	int n = 0;

	pthread_mutex_lock(&streams_lock);
	run = streams_cur;
	if (!run)
		goto out;
	h = malloc(sizeof(*h));
	q = malloc(sizeof(*q));
	if (!h || !q) {
		n = -ENOMEM;
		goto out;
	}
	streams_take_snaps(run);
	for (uint32_t i = 0; i < run->nstreams && n < max; i++) {
		for (int p = 0; p < fg_nports && n < max; p++) {
			struct stats_lat_row *r;
			uint64_t tx = 0;

			if (!(run->tx_mask[i] >> (p ^ 1) & 1))
				continue;
			lat_init(h);
			lat_seq_init(q);
			for (int wi = 0; wi < fg_nworkers; wi++) {
				struct streams_state *s = run->st[wi];
				struct worker *w = &fg_worker[wi];

				const struct streams_snap *b;

				if (!s || !s->have_front)
					continue;
				b = &s->snaps[s->front];
				tx += b->tx[i * FG_MAX_PORTS + (p ^ 1)];
				for (int side = 0; side < 2; side++) {
					if (w->port[side] != p)
						continue;
					lat_merge(h, &b->rx[i * 2 + side].hist);
					lat_seq_merge(q, &b->rx[i * 2 + side].seq);
				}
			}
			r = &rows[n++];
			memset(r, 0, sizeof(*r));
			snprintf(r->stream, sizeof(r->stream), "%s", run->names[i]);
			r->port = p;
			r->tx = tx;
			r->rx = q->rx;
			r->dup = q->dup;
			r->ooo = q->ooo;
			r->lost = lat_seq_lost(q, tx);
			if (h->count) {
				r->min_us = streams_us(h->min);
				r->avg_us = streams_us(lat_avg_ns(h));
				r->max_us = streams_us(h->max);
				r->p50_us = streams_us(lat_percentile(h, 50));
				r->p99_us = streams_us(lat_percentile(h, 99));
				r->p999_us = streams_us(lat_percentile(h, 99.9));
				r->jitter_us = streams_us(lat_jitter_ns(h));
			}
		}
	}
out:
	pthread_mutex_unlock(&streams_lock);
	free(h);
	free(q);
	return n;
}
