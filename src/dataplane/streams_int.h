/*
 * streams_int.h — private to the worker half of the stateless streams
 * engine (streams.c sends, streams_rx.c counts and publishes). The state
 * they work on and the design are in streams.h.
 *
 * Context: worker (the owning worker only: no allocation, lock, print or
 * system call).
 *
 * Included by: dataplane (the streams*.c files only).
 */
#ifndef FG_STREAMS_INT_H
#define FG_STREAMS_INT_H

#include <stdint.h>

#include "streams.h"

struct pkt_info;
struct rte_mbuf;
struct worker;

/* Copy the worker's counts into the back buffer and hand it over. */
void streams_publish(struct streams_state *s, uint64_t now);

/* worker_ops.rx: one received frame, counted by its signature and freed. */
void streams_rx_frame(struct worker *w, int side, struct rte_mbuf *m, const struct pkt_info *pi,
		      uint64_t now);

#endif
