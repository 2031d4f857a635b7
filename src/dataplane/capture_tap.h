/*
 * capture_tap.h — the worker half of `capture` (capture_tap.c): the
 * per-worker capture control fills in and attaches through the mailbox
 * (WMSG_CAPTURE), and the RX and TX taps of worker.c. The control half
 * and the whole design are in src/control/capture.h.
 *
 * Included by: dataplane, control and console.
 */
#ifndef FG_CAPTURE_TAP_H
#define FG_CAPTURE_TAP_H

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_pcapng.h>
#include <rte_ring.h>

#include "fg.h"
#include "worker-t.h"

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
	 * tsc0) * ns_per_tsc (fg_tsc_hz, clock.h), set by control at start */
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
void capture_burst(struct cap_worker *c, int port, uint16_t port_id, uint16_t queue,
		   struct rte_mbuf **m, uint16_t n, uint64_t now, enum rte_pcapng_direction dir);

/* worker: the mailbox's WMSG_CAPTURE: attach c (NULL detaches), then
 * acknowledge generation gen. */
void capture_attach(struct worker *w, struct cap_worker *c, uint64_t gen);

/* worker: the RX tap, after rte_eth_rx_burst on side's queue q. */
static inline void capture_rx(struct worker *w, int side, uint16_t q, struct rte_mbuf **m,
			      uint16_t n, uint64_t now)
{
	struct cap_worker *c = fg_cap_w[w->id];

	if (unlikely(c != NULL))
		capture_burst(c, w->port[side], w->pv[side]->id, q, m, n, now,
			      RTE_PCAPNG_DIRECTION_IN);
}

/* worker: the TX tap, before rte_eth_tx_burst on side. */
static inline void capture_tx(struct worker *w, int side, struct rte_mbuf **m, uint16_t n)
{
	struct cap_worker *c = fg_cap_w[w->id];

	if (unlikely(c != NULL))
		capture_burst(c, w->port[side], w->pv[side]->id, w->q, m, n, rte_rdtsc(),
			      RTE_PCAPNG_DIRECTION_OUT);
}

#endif
