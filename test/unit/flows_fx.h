/*
 * flows_fx.h — a worker's flows state for the unit tests that drive the
 * flows engine's worker half directly (test_fails.c, test_flows_tcb.c):
 * a flow table of n entries and TCP's pool of n tcb slots (as
 * src/control/flows_ctl.c maps it, but on the heap and not zeroed, as a
 * slot reused is not), the sweep's figures for a TSC of hz, our MSS on
 * both sides. Included by test files only.
 */
#ifndef FG_TEST_FLOWS_FX_H
#define FG_TEST_FLOWS_FX_H

#include <stdlib.h>
#include <string.h>

#include "flows.h"
#include "flowtab.h"
#include "flowtab_mem.h"

static inline struct flows_state *flows_fx_state(uint32_t n, uint64_t hz)
{
	struct flowtab_params p = {.max_flows = n,
				   .entry_size = sizeof(struct flows_ent),
				   .tick_tsc = 1000,
				   .wheel_slots = 256};
	struct flows_state *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->ft = flowtab_create(&p);
	assert_non_null(s->ft);
	s->tcbs.slot = aligned_alloc(64, n * sizeof(struct flows_tcb));
	assert_non_null(s->tcbs.slot);
	memset(s->tcbs.slot, 0xa5, n * sizeof(struct flows_tcb));
	s->tcbs.cap = n;
	s->tcbs.free = FLOWS_TCB_FREE;
	s->tcbs.park_after = (uint32_t)((hz * FLOWS_PARK_MS / 1000) >> FLOWS_TCB_SHIFT) + 1;
	s->tcbs.every = hz * FLOWS_SWEEP_MS / 1000;
	s->mss[FLOWTAB_CLIENT] = s->mss[FLOWTAB_SERVER] = FLOWS_TCP_MSS;
	return s;
}

/* the table and the pool of flows_fx_state() (the caller frees the rest) */
static inline void flows_fx_free(struct flows_state *s)
{
	flowtab_destroy(s->ft);
	free(s->tcbs.slot);
}

#endif
