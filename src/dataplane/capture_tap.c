/*
 * capture_tap.c — the worker half of `capture` (capture_tap.h; the design:
 * src/control/capture.h): runs on the worker lcores, called from the RX
 * tap (after rte_eth_rx_burst) and the TX tap (before rte_eth_tx_burst) of
 * worker.c. It filters a burst with the
 * capture's rte_bpf (no system call), copies each matching frame with
 * rte_pcapng_copy into the capture pool and enqueues the copies on the
 * worker's own SPSC ring. It never waits: when the ring has no room or the
 * pool no mbuf, the copy is not made and counts as dropped.
 */
#include <rte_bpf.h>
#include <rte_cycles.h>

#include "capture_tap.h"

struct cap_worker *fg_cap_w[FG_MAX_WORKERS];
uint64_t fg_cap_ack[FG_MAX_WORKERS];

void capture_attach(struct worker *w, struct cap_worker *c, uint64_t gen)
{
	fg_cap_w[w->id] = c;
	/* release pairs with capture_stop()'s acquire: after this store the
	 * worker no longer reads the capture it had (its bpf, ring, pool) */
	__atomic_store_n(&fg_cap_ack[w->id], gen, __ATOMIC_RELEASE);
}

void capture_burst(struct cap_worker *c, int port, uint16_t port_id, uint16_t queue,
		   struct rte_mbuf **m, uint16_t n, uint64_t now, enum rte_pcapng_direction dir)
{
	uint64_t mask = dir == RTE_PCAPNG_DIRECTION_IN ? c->rx_ports : c->tx_ports;
	struct rte_mbuf *cp[FG_BURST];
	uint64_t rc[FG_BURST];
	unsigned room, k = 0, dropped = 0;

	if (!((mask >> port) & 1) || n > FG_BURST)
		return;
	if (c->limit && c->copied >= c->limit)
		return;
	if (c->bpf)
		rte_bpf_exec_burst(c->bpf, (void **)m, rc, n);
	/* the consumer only frees room: what is free now stays free */
	room = rte_ring_free_count(c->ring);
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *mc;

		if (c->bpf && !rc[i])
			continue;
		if (c->limit && c->copied + k >= c->limit)
			break;
		if (k >= room) {
			dropped++;
			continue;
		}
		mc = rte_pcapng_copy(port_id, queue, m[i], c->pool, CAP_SNAPLEN, now, dir);
		if (!mc) {
			dropped++;
			continue;
		}
		capture_stamp(c, mc, now);
		cp[k++] = mc;
	}
	if (k) {
		unsigned q = rte_ring_sp_enqueue_burst(c->ring, (void **)cp, k, NULL);

		if (q < k) {
			rte_pktmbuf_free_bulk(&cp[q], k - q);
			dropped += k - q;
		}
		FG_CTR_ADD(c->copied, q);
	}
	if (dropped)
		FG_CTR_ADD(c->dropped, dropped);
}
