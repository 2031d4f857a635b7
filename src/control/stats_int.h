/*
 * stats_int.h — private to the three files of the statistics module and
 * included by nothing else: src/control/stats.c (the sampler, the "clear"
 * baseline, snapshots), src/control/stats_json.c (the JSON writer) and
 * src/control/stats_fmt.c (the text tables). The public API is in
 * stats.h. Here what the two writers both use, written once: a figure
 * made fit for JSON and text alike, a next hop's state, and the failed
 * flows read for `stats --failed`.
 *
 * Context: control.
 *
 * Included by: control (stats.c, stats_json.c and stats_fmt.c only).
 */
#ifndef FG_STATS_INT_H
#define FG_STATS_INT_H

#include <math.h>
#include <stdlib.h>

#include "nud.h"
#include "stats.h"

/*
 * control: take the baseline of the drivers' extended statistics (xstats)
 * of ports 0..nports-1, which the JSON writer subtracts from what it
 * prints. Called by stats_clear with the statistics lock held.
 */
void stats_xstats_baseline(int nports);

/* control: the DPDK port id of port index p through the hooks; <0: none. */
int stats_port_id(int p);

/* pure: JSON has no NaN or infinity: print 0 for them. */
static inline double fin(double v) { return isfinite(v) ? v : 0; }

/* pure: a next hop's state as shown: "static", or its NUD state (nud.h). */
static inline const char *nh_state(const struct stats_next_hop *h)
{
	return h->is_static ? "static" : nud_state_name((enum nud_state)h->state);
}

/* control: the failed flows of run to print: at most n, malloc'ed into
 * *out. */
static inline size_t failed_get(uint32_t run, size_t n, struct stats_failed **out, size_t *held)
{
	if (n > STATS_FAILED_MAX)
		n = STATS_FAILED_MAX;
	*out = calloc(n ? n : 1, sizeof(**out));
	*held = 0;
	return *out ? stats_failed_get(run, *out, n, held) : 0;
}

#endif
