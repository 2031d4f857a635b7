/*
 * worker.h — the packet loop on each worker lcore, and the mailbox that is
 * the only way control reaches a worker.
 *
 * A worker owns queue `q` on both ports of its pair. Every loop turn it
 * drains its mailbox, polls both RX queues, answers ARP (and ICMP echo in
 * service mode or for emulated hosts) in place, hands test frames to the
 * running engine, lets the engine generate, and flushes its TX buffers.
 * Worker 0 of a pair also polls the RX side of the control queue pair
 * where a port has one (net_af_packet: src/control/port.h).
 *
 * With several workers in a pair, a received UDP/TCP frame goes to the
 * worker that owns its flow (own.h); a frame another worker owns is handed
 * to it through an SPSC ring (one per ordered pair of workers, created by
 * ctl_launch()) and counted as `redirected` on the worker that handed it
 * over. The owner runs it as received, without counting it on the port
 * again. Whether a worker applies the rule at all is chosen once per START
 * (the rx function pointer), not per frame.
 *
 * Engines (flows, streams) are chosen once per START through a table of
 * function pointers; nothing tests a mode flag per packet.
 *
 * Included by: dataplane, control and console.
 */
#ifndef FG_WORKER_H
#define FG_WORKER_H

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "ctr.h"
#include "own.h"
#include "pkt.h"
#include "worker-t.h"

extern struct worker fg_worker[FG_MAX_WORKERS];
extern struct ctr_worker fg_ctr[FG_MAX_WORKERS];
extern int fg_nworkers;

/* worker: the lcore entry point (arg = struct worker *). */
int worker_main(void *arg);

/* worker: tag (vlan), capture and hand n frames to side's TX queue now;
 * counts and returns what the queue took, frees the rest. */
uint16_t worker_send(struct worker *w, int side, struct rte_mbuf **m, uint16_t n);
/* worker: the same for frames whose lengths add up to bytes (the caller
 * counted them as it built them). */
uint16_t worker_send_bytes(struct worker *w, int side, struct rte_mbuf **m, uint16_t n,
			   uint64_t bytes);
/* worker: send the frames queued on side 0/1 (worker_send). */
void worker_flush(struct worker *w, int side);

/* worker: queue a frame for TX on side 0/1; flushes when the burst is full. */
static inline void worker_tx(struct worker *w, int side, struct rte_mbuf *m)
{
	w->txb[side][w->ntx[side]++] = m;
	if (w->ntx[side] == FG_BURST)
		worker_flush(w, side);
}

/* worker: a burst of frames at once: one copy of the pointers instead of n stores. */
static inline void worker_tx_bulk(struct worker *w, int side, struct rte_mbuf **m, uint32_t n)
{
	while (n) {
		uint32_t k = FG_BURST - w->ntx[side];

		if (k > n)
			k = n;
		memcpy(&w->txb[side][w->ntx[side]], m, k * sizeof(*m));
		w->ntx[side] = (uint16_t)(w->ntx[side] + k);
		m += k;
		n -= k;
		if (w->ntx[side] == FG_BURST)
			worker_flush(w, side);
	}
}

#endif
