/*
 * streams.h — shared by the two halves of the stateless streams engine;
 * nothing else includes it. The control half
 * (src/control/streams_ctl.c, run on the console's thread) builds one
 * struct streams_state per worker before START: its senders, pacers, field
 * generators and prebuilt headers, its receive counters and three snapshot
 * buffers. From START until streams_release the worker half
 * (src/dataplane/streams.c, run by the worker lcores) owns everything in
 * its state except the snapshot handover below; control only reads the
 * struct streams_run, which nobody writes after streams_prepare.
 *
 * Handover of counts: a lock-free triple buffer per worker. The worker
 * fills snaps[back], then swaps back with mid, marking mid
 * STREAMS_FRESH, in one atomic exchange (acq_rel): the release half
 * publishes the copy. Control swaps its front with mid when mid is fresh
 * (acq_rel: the acquire half pairs with the worker's release). Neither
 * side waits, and control reads the newest complete snapshot. back is the
 * worker's, front and have_front control's (under its lock), mid is
 * touched only by atomic exchanges.
 *
 * Contexts. Worker (src/dataplane/streams.c): streams_worker_ops
 * (rx, tick, stop, rate, pause, idle) and what they call: the frame fills,
 * the sends, the learning frames, the publication of snapshots. Control
 * (src/control/streams_ctl.h, streams_pairs.h): the load at -m 1, sender
 * set-up, taking snapshots, the host pairs; streams_imix_seq and
 * the table of its -t keys are pure (src/core/streams_opts.h). Control hands
 * streams_worker_ops to the workers with START and never calls its functions.
 *
 * Included by: dataplane and control.
 */
#ifndef FG_STREAMS_H
#define FG_STREAMS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fg.h"
#include "fgen.h"
#include "lat.h"
#include "pace.h"
#include "pkt.h"
#include "prof-t.h"
#include "streams6.h"
#include "streams_l4.h"

/*
 * Frames up to this size (without FCS) are stamped as their burst's fill
 * begins, in the fill's one pass: a burst of FG_BURST of them is written
 * in a few hundred nanoseconds. Longer ones are stamped in a pass of its
 * own once filled (streams.c, TX).
 */
#define STREAMS_STAMP_EARLY_MAX 124u

struct worker;
struct stats_pair_row;

#define STREAMS_LEARN_ID 0xffffffffu /* signature id of learning frames */
#define STREAMS_NSNAP 3		     /* triple buffer */
#define STREAMS_FRESH 4u	     /* mid holds a snapshot control has not taken */
#define STREAMS_SNAP_IDX 3u	     /* the buffer index bits of mid */

/* Phases of a worker's run (0: not started yet, as control leaves it). */
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

/*
 * Host pairs (the L3 test: flowgen(8), stats --pairs). For a run with
 * emulated hosts (the profile's or the config's), each sender whose
 * addresses walk as pairs counts per pair what its TX queue took, and each
 * receiver counts per pair what arrived and its delays. A receiver finds a frame's pair from its destination
 * address (the index of that address in the sender's destination range),
 * which a source NAT leaves as it is; a stream frame whose destination is
 * none of its pairs counts as unmatched. Slot of pair i of the stream sent
 * from port p: pairs[stream * FG_MAX_PORTS + p].base + i. Snapshots carry
 * the slots whole (at most STREAMS_PAIRS_MAX of them in a run).
 */
#define STREAMS_PAIRS_MAX 65536u    /* slots (pairs times directions) per run */
#define STREAMS_NO_PAIRS UINT32_MAX /* base of a stream and port not counted */

/* The pairs of one stream sent from one port. */
struct streams_pairs {
	struct fgen_pair fp; /* the sender's ranges: a its sources, b its destinations */
	uint32_t base;	     /* first slot, or STREAMS_NO_PAIRS */
	bool v6;
	uint8_t src6[16], dst6[16]; /* IPv6: the addresses' first 96 bits */
};

/* Received for one pair in one direction. */
struct streams_pair_rx {
	uint64_t rx;
	uint64_t lat_sum;	   /* ns, of the frames stamped for latency */
	uint32_t lat_min, lat_max; /* ns; UINT32_MAX and 0 while none */
};

/* A header with every field in place, and its UDP sum without the payload. */
struct streams_fixed {
	uint8_t hdr[PKT_UDP_PAY_OFF];
	uint32_t sum; /* folded */
};

/* The same for an IPv6 sender. */
struct streams_fixed6 {
	uint8_t hdr[PKT6_UDP_PAY_OFF];
	uint32_t sum; /* folded */
};

/* One stream sent from one port: built by control, run by one worker. */
struct streams_sender {
	uint32_t sid;	 /* stream index */
	uint32_t sig_id; /* the signature id (streams_sig_id) */
	int side;	 /* 0/1 on the owning worker */
	int txport;
	bool latency;
	double base_pps; /* at the START rate; 0 = unpaced */
	struct pace pace;
	/*
	 * IPv6: the fields below hold the addresses' last 32 bits (the
	 * generators, pairs and fix_* alike), src6/dst6 the whole first
	 * address; fast6/fixed6 replace fast/fixed.
	 */
	bool v6;
	uint8_t src6[16], dst6[16];
	struct streams6_fast *fast6;
	struct streams_fixed6 *fixed6;
	bool paired;	       /* src/dst walk as pairs */
	struct fgen_pair pair; /* paired: a = src, b = dst */
	struct fgen src, dst;  /* otherwise */
	struct fgen sport, dport;
	uint32_t nlearn, learned; /* learning frames to send / sent */
	uint32_t seq;
	uint64_t tx;	       /* measured frames the TX queue accepted */
	uint64_t tx_bytes;     /* their bytes (frame lengths without FCS) */
	uint64_t tx_dropped;   /* measured frames the TX queue refused */
	uint64_t late_base;    /* pace.dropped when measured traffic began */
	uint64_t last_tsc;     /* when its last measured burst was built */
	const uint16_t *sizes; /* frame sizes without FCS, repeating */
	uint32_t nsizes, pos;
	/* per position in sizes: prebuilt headers and partial checksums */
	struct pkt_udp_fast *fast;
	struct streams_fixed *fixed;   /* all_fixed: whole headers, per position */
	uint64_t fast_dst;	       /* next-hop MAC the templates carry */
	uint64_t rearm;		       /* streams_rearm(its TX port's id) */
	uint64_t bytes;		       /* the last fill's frame bytes */
	bool stamp_early;	       /* every size <= STREAMS_STAMP_EARLY_MAX */
	bool all_fixed;		       /* no field varies: fix_* hold them */
	struct streams_pair *pair_tab; /* paired: pair i, ready for the headers */
	uint32_t fix_sip, fix_dip;
	uint16_t fix_sp, fix_dp;
	uint64_t *pair_tx; /* its slots in the state's pair_tx (host pairs), or NULL */
	/* `count:` its share of the stream's frames: once tx reaches it the
	 * sender is done (its pacer held); UINT64_MAX: it sends until the run ends */
	uint64_t limit;
	bool done;
	/*
	 * Every frame: the signature's offset and the layer 4 checksum's,
	 * for the stamp. A TCP or ICMP stream (`proto:`) has l4t, one header
	 * per position in sizes (streams_l4.h), instead of fast/fixed.
	 */
	uint16_t sig_off, ck_off;
	struct streams_l4t *l4t;
	struct streams_l4g l4g;
};

/*
 * Several senders per stream. Every worker of a port pair sends its share
 * of each stream (the stream's rate over the pair's workers) with sequence
 * numbers of its own, so a frame's signature id says which sender it came
 * from, and which run: id = run << 14 | q << 8 | stream, q the sending
 * worker's queue in its pair, run the low 18 bits of a tag control draws
 * for every run (streams_prepare). A receiver splits it with shifts and
 * masks, no division per frame; a frame of another run (one a slow DUT
 * or a delaying link still held when the run before stopped) is counted
 * apart as `stale` and never as received. Receivers keep a sequence
 * tracker per (stream, side, sender) and one latency histogram per
 * (stream, side); control adds the trackers' counts up, which keeps lost,
 * dup and ooo exact.
 *
 * Snapshots copy the trackers' counts only (not their windows) and, of a
 * histogram, its summary and the blocks of STREAMS_HBLOCK buckets that
 * changed since that buffer was last filled: a publication costs what
 * changed, not ~15 KB per stream and side.
 */
#define STREAMS_ID_Q_SHIFT 8	/* the sender's queue above the stream index */
#define STREAMS_ID_RUN_SHIFT 14 /* the run's tag above the queue */
#define STREAMS_ID_SID_MASK ((1u << STREAMS_ID_Q_SHIFT) - 1)
#define STREAMS_ID_Q_MASK ((1u << (STREAMS_ID_RUN_SHIFT - STREAMS_ID_Q_SHIFT)) - 1)
#define STREAMS_ID_RUN_MASK ((1u << (32 - STREAMS_ID_RUN_SHIFT)) - 1)
_Static_assert(FG_PROF_MAX_STREAMS <= STREAMS_ID_SID_MASK + 1, "a stream index fits its bits");
/* < mask: the learning id (all ones) is never a measured frame's */
_Static_assert(FG_MAX_WORKERS < STREAMS_ID_Q_MASK, "a sender's queue fits its bits");

/* The signature id of stream sid sent by queue q in the run tagged run. */
static inline uint32_t streams_sig_id(uint32_t run, uint32_t q, uint32_t sid)
{
	return (run & STREAMS_ID_RUN_MASK) << STREAMS_ID_RUN_SHIFT | q << STREAMS_ID_Q_SHIFT | sid;
}
#define STREAMS_HBLOCK 64 /* buckets per dirty bit */
#define STREAMS_HBLOCKS ((LAT_NBUCKETS + STREAMS_HBLOCK - 1) / STREAMS_HBLOCK)
_Static_assert(STREAMS_HBLOCKS <= 32, "a histogram's dirty blocks fit a uint32_t");

/* A sequence tracker's counts, as published (bytes: of the rx frames,
 * without FCS). */
struct streams_seqc {
	uint64_t rx, bytes, dup, ooo, late;
};

/* Received on one side of a worker for one stream (all senders). */
struct streams_rx {
	struct lat_hist hist;
	uint32_t dirty;		      /* blocks changed since the last publication */
	uint32_t pend[STREAMS_NSNAP]; /* blocks buffer b has not got yet */
};

/* What a worker hands to control. */
struct streams_snap {
	uint64_t tsc;
	uint64_t span;		  /* TSC from the start of measured traffic to its last burst */
	uint64_t *tx;		  /* [stream * FG_MAX_PORTS + txport] */
	uint64_t *tx_bytes;	  /* the same: their bytes, without FCS */
	uint64_t *tx_dropped;	  /* the same: refused by the TX queue */
	uint64_t *late;		  /* the same: due but not sent in time (pacer) */
	uint64_t *stale;	  /* [stream * 2 + side]: frames of another run */
	struct lat_hist *hist;	  /* [stream * 2 + side] */
	struct streams_seqc *seq; /* [(sender * nstreams + stream) * 2 + side] */
	uint64_t *pair_tx;	  /* [slot], when the run counts host pairs */
	struct streams_pair_rx *pair_rx;
	uint64_t pair_miss;
};

/* One worker's part of a run (cache-line aligned). */
struct streams_state {
	struct streams_run *run;
	struct worker *w;
	struct streams_sender *snd;
	uint32_t nsnd;
	struct streams_rx *rx; /* [stream * 2 + side] */
	struct lat_seq *seq;   /* [(sender * nstreams + stream) * 2 + side] */
	uint64_t *stale;       /* [stream * 2 + side]: frames of another run */
	uint64_t *pair_tx;     /* [slot]: host pairs, taken by the TX queues */
	struct streams_pair_rx *pair_rx; /* [slot]: host pairs, received */
	uint64_t pair_miss;		 /* stream frames to no pair of their stream */
	uint32_t tag;	       /* the run's tag, as the signature ids carry it */
	uint32_t nstreams;
	uint32_t nsenders; /* workers of a pair sending each stream (max over pairs) */
	int phase;	   /* enum streams_phase */
	bool started, paused;
	/* the wait ends at the planned start (start --at), which the worker
	 * may move while it holds for it (w->at_tsc, worker.c) */
	bool wait_at;
	uint32_t nleft; /* its senders that are not done */
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

/* A stream's `frame: {range, ...}`: its sizes without FCS, repeating. */
struct streams_sizes {
	uint16_t *seq; /* NULL: the stream has one size or the imix table */
	uint32_t n;
};

/*
 * One run: written by control in streams_prepare, read-only afterwards but
 * for senders_left. A counted run (every stream has a `count`) ends by
 * itself: a worker takes each of its senders off senders_left when it is
 * done (an atomic subtraction, once per sender and run) and drains once
 * it reads 0, so no worker stops receiving while another still sends.
 */
struct streams_run {
	uint32_t nstreams;
	uint32_t nsenders; /* senders per stream and port: the most workers of a pair */
	char (*names)[32];
	uint32_t *tx_mask; /* per stream: ports it is sent from */
	bool *latency;
	uint16_t *imix; /* the imix sequence (frame sizes without FCS) */
	uint32_t nimix;
	struct streams_sizes *sizes; /* per stream */
	bool counted;
	uint32_t senders_left; /* atomic: senders of every worker not done */
	double duration_s, learn_wait_s, drain_s;
	bool learn;
	uint64_t hz;
	uint32_t tag; /* this run's tag (streams_sig_id) */
	/* the profile's emulated hosts, per port: set by streams_activate */
	struct port_host_range (*hosts)[PORT_MAX_HOSTS]; /* [FG_MAX_PORTS] */
	size_t nhosts[FG_MAX_PORTS];
	struct port_host6_range (*hosts6)[PORT_MAX_HOSTS]; /* the IPv6 ones */
	size_t nhosts6[FG_MAX_PORTS];
	struct streams_state *st[FG_MAX_WORKERS];
	/* host pairs: [stream * FG_MAX_PORTS + port]; NULL when not counted */
	struct streams_pairs *pairs;
	uint32_t npair_slots;
};

/*
 * Whether a stream's addresses walk as pairs (the i-th source with the
 * i-th destination): both vary, in the same mode.
 */
static inline bool streams_paired(const struct prof_field *src, const struct prof_field *dst)
{
	return src->mode != PROF_VAR_FIXED && src->mode == dst->mode && src->lo != src->hi &&
	       dst->lo != dst->hi;
}

/*
 * An mbuf's rearm_data (data offset, reference count 1, one segment, the
 * port) for frames sent on DPDK port `port`: control makes it once per
 * sender, the fill stores it into each mbuf of a burst (streams.c).
 */
static inline uint64_t streams_rearm(uint16_t port)
{
	struct rte_mbuf tmpl = {.data_off = RTE_PKTMBUF_HEADROOM, .nb_segs = 1, .port = port};
	uint64_t w;

	rte_mbuf_refcnt_set(&tmpl, 1);
	memcpy(&w, &tmpl.rearm_data, sizeof(w));
	return w;
}

struct worker_ops;

/* worker: the streams engine's worker half (rx, tick, stop, rate, pause,
 * idle), which control's streams_engine (src/control/streams_ctl.h)
 * points to. */
extern const struct worker_ops streams_worker_ops;

#endif
