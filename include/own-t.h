/*
 * own-t.h — types only: one run's ownership map of a port pair (struct
 * own_map), which a worker keeps (struct worker, worker-t.h) and an engine
 * fills at START (struct worker_ops). The rule that reads it, and the flow
 * ids on the wire, are src/core/own.h.
 *
 * Included by: every folder (no prototypes, no data).
 */
#ifndef FG_OWN_T_H
#define FG_OWN_T_H

#include <stdint.h>

/* One run's ownership map of a port pair (the same on all its workers). */
struct own_map {
	uint16_t nq;		   /* workers of the pair, 1 .. OWN_MAX_WORKERS (own.h) */
	uint16_t port_lo, port_hi; /* the client ports of all templates, lowest and highest */
};

#endif
