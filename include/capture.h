/*
 * capture.h — `capture start|stop|save|status` (flowgen(8), capture): the
 * frames the ports see, copied on the workers and written as pcapng.
 *
 * The worker half (src/dataplane/capture.c) taps a burst right after
 * rte_eth_rx_burst and right before rte_eth_tx_burst: it runs the user's
 * BPF filter (libpcap's compiler, turned into an rte_bpf by
 * rte_bpf_convert, so the filter runs in the worker without a system
 * call), copies a matching frame with rte_pcapng_copy (port, queue,
 * direction and TSC timestamp go into the copy) and puts the copy on its
 * own SPSC ring. A full ring or an empty pool drops the copy and counts it:
 * capturing never stalls a worker. Control attaches and detaches a
 * worker's capture through its mailbox (WMSG_CAPTURE); the worker
 * acknowledges a detach by storing the message's generation.
 *
 * The control half (src/control/capture.c) compiles the filter, creates
 * the pool and rings once, attaches the workers, and runs a drain thread
 * that empties the rings into a pcapng file in memory (rte_pcapng_fdopen on
 * a memfd: one interface block per DPDK port, direction per packet); `save`
 * copies it to the user's file. Frames control itself sends (ARP, ping)
 * are tapped by capture_ctl_tx.
 */
#ifndef FG_CAPTURE_H
#define FG_CAPTURE_H

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_pcapng.h>
#include <rte_ring.h>

#include "fg.h"
#include "worker.h"

#define CAP_SNAPLEN 2048     /* bytes of a frame kept; the block keeps its length */
#define CAP_RING_DEFAULT 1024 /* copies each worker's ring holds */

struct rte_bpf;

/* One worker's capture: filled by control before the attach message, then
 * read by the worker; the counters are written by the worker only. */
struct cap_worker {
	struct rte_ring *ring;	  /* worker -> drain thread, SPSC */
	struct rte_mempool *pool; /* the copies */
	const struct rte_bpf *bpf; /* NULL: every frame */
	uint64_t rx_ports, tx_ports; /* bit masks of config port indexes */
	uint64_t limit;		  /* copies this worker makes at most; 0 none */
	/* the clock of the packet blocks: ns since the epoch = ns0 + (tsc -
	 * tsc0) * ns_per_tsc (fg_tsc_hz, tsc.h), set by control at start */
	uint64_t tsc0, ns0;
	double ns_per_tsc;
	/* worker-written, single-writer counters (FG_CTR_*) */
	uint64_t copied;	  /* put on the ring */
	uint64_t dropped;	  /* ring full or no mbuf */
} __rte_cache_aligned;

/* The capture each worker runs: written by that worker only (its mailbox),
 * so the hooks below read it without ordering. */
extern struct cap_worker *fg_cap_w[FG_MAX_WORKERS];
/* The generation of the last WMSG_CAPTURE a worker applied; the worker
 * stores it with release, control reads it with acquire. */
extern uint64_t fg_cap_ack[FG_MAX_WORKERS];

/* any context: give the pcapng copy mc the time of TSC tsc (its enhanced
 * packet block's timestamp, in ns as rte_pcapng's interface blocks say). */
static inline void capture_stamp(const struct cap_worker *c, struct rte_mbuf *mc, uint64_t tsc)
{
	/* the block's words: type, length, interface, timestamp high, low */
	uint32_t *epb = rte_pktmbuf_mtod(mc, uint32_t *);
	uint64_t ns = c->ns0 + (uint64_t)((double)(int64_t)(tsc - c->tsc0) * c->ns_per_tsc);

	epb[3] = (uint32_t)(ns >> 32);
	epb[4] = (uint32_t)ns;
}

/* worker: copy the frames of a burst that match into c's ring. */
void capture_burst(struct cap_worker *c, int port, uint16_t queue, struct rte_mbuf **m,
		   uint16_t n, uint64_t now, enum rte_pcapng_direction dir);

/* worker: the mailbox's WMSG_CAPTURE: attach c (NULL detaches), then
 * acknowledge generation gen. */
void capture_attach(struct worker *w, struct cap_worker *c, uint64_t gen);

/* worker: the RX tap, after rte_eth_rx_burst on side's queue q. */
static inline void capture_rx(struct worker *w, int side, uint16_t q, struct rte_mbuf **m,
			      uint16_t n, uint64_t now)
{
	struct cap_worker *c = fg_cap_w[w->id];

	if (unlikely(c != NULL))
		capture_burst(c, w->port[side], q, m, n, now, RTE_PCAPNG_DIRECTION_IN);
}

/* worker: the TX tap, before rte_eth_tx_burst on side. */
static inline void capture_tx(struct worker *w, int side, struct rte_mbuf **m, uint16_t n)
{
	struct cap_worker *c = fg_cap_w[w->id];

	if (unlikely(c != NULL))
		capture_burst(c, w->port[side], w->q, m, n, rte_rdtsc(), RTE_PCAPNG_DIRECTION_OUT);
}

/* ---- control: src/control/capture.c --------------------------------------- */

struct cap_opts {
	uint64_t rx_ports, tx_ports; /* bit masks of config port indexes */
	const char *filter;	     /* BPF expression (pcap-filter(7)), NULL = all */
	uint64_t limit;		     /* frames; 0 = no limit */
	unsigned ring;		     /* ring size per worker, a power of two */
};

struct cap_status {
	bool running, have;	 /* capturing now; a capture to save */
	bool limit_reached;
	uint64_t rx_ports, tx_ports, limit;
	char filter[256];
	uint64_t written;	 /* frames in the file */
	uint64_t dropped;	 /* ring full or no mbuf (workers and control) */
	uint64_t over_limit;	 /* copies dropped past the limit */
	double secs;		 /* how long it ran */
};

/* control: start a capture; 0 or -errno with err set. */
int capture_start(const struct cap_opts *o, char *err, size_t errlen);
/* control: stop the running capture (the frames stay, for save); 0 or -ENOENT. */
int capture_stop(void);
/* control: write the capture to path (stopping it first if it runs); the
 * number of frames written, or -errno with err set. */
int64_t capture_save(const char *path, char *err, size_t errlen);
/* control: what the capture is doing. */
void capture_status(struct cap_status *st);
/* control: the tap of control's own TX queue (svc.c), before the send. */
void capture_ctl_tx(int port, struct rte_mbuf *m);
/* control: at exit, stop and free everything. */
void capture_fini(void);

/* console: the `capture` command (src/console/capture_cmd.c). */
int capture_cmd(int argc, char **argv);

#endif
