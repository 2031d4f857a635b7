/*
 * stats_int.h — private to the two files of the statistics module and
 * included by nothing else: src/control/stats.c (the sampler, the "clear"
 * baseline, snapshots) and src/control/stats_fmt.c (the JSON and text
 * writers). The public API is in stats.h.
 *
 * Context: control.
 *
 * Included by: control (stats.c and stats_fmt.c only).
 */
#ifndef FG_STATS_INT_H
#define FG_STATS_INT_H

/*
 * control: take the baseline of the drivers' extended statistics (xstats)
 * of ports 0..nports-1, which the JSON writer subtracts from what it
 * prints. Called by stats_clear with the statistics lock held.
 */
void stats_xstats_baseline(int nports);

/* control: the DPDK port id of port index p through the hooks; <0: none. */
int stats_port_id(int p);

#endif
