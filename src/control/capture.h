/*
 * capture.h — `capture start|stop|save|status` (flowgen(8), capture): the
 * frames the ports see, copied on the workers and written as pcapng.
 *
 * The worker half (src/dataplane/capture_tap.c, capture_tap.h) taps a burst right after
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
 * copies it to the user's file or into a buffer in memory. Frames control itself sends (ARP, ping)
 * are tapped by capture_ctl_tx.
 *
 * Included by: control and console.
 */
#ifndef FG_CAPTURE_H
#define FG_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "capture_tap.h"
#include "fg.h"

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
/* control: the same into memory: the pcapng file in *buf (malloc'd, *len
 * bytes; NULL on failure): the number of frames, or -errno with err set. */
int64_t capture_save_mem(uint8_t **buf, size_t *len, char *err, size_t errlen);
/* control: what the capture is doing. */
void capture_status(struct cap_status *st);
/* control: the tap of control's own TX queue (svc.c), before the send. */
void capture_ctl_tx(int port, struct rte_mbuf *m);
/* control: at exit, stop and free everything. */
void capture_fini(void);

#endif
