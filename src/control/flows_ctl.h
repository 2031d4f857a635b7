/*
 * flows_ctl.h — the control side of the stateful flows engine
 * (flows_ctl.c): its load at -m 1, its per-worker states, its reports. Only
 * run.c calls these, through its table of engines (run.h); the worker side
 * is flows_ops (src/dataplane/flows.h).
 *
 * Included by: control.
 */
#ifndef FG_FLOWS_CTL_H
#define FG_FLOWS_CTL_H

#include <stddef.h>
#include <stdint.h>

struct engine;
struct load;
struct run_params;

/*
 * What the run of rp sends per port at -m 1 (rp->prof, port_mask and
 * link_bps set): the engine's side of the load model (load.h). 0 or
 * -errno with err set.
 */
int flows_load(const struct run_params *rp, struct load *l, char *err, size_t errlen);

/*
 * Build the per-worker states (states[w] for w in 0..fg_nworkers-1) for
 * the rates of rp->factor and return the engine's worker ops in *ops. 0 or
 * -errno with err set (e.g. a next hop whose MAC is not known).
 */
int flows_prepare(const struct run_params *rp, void **states, const struct engine **ops, char *err,
		  size_t errlen);

/* Free the states of a finished run (the workers no longer use them). */
void flows_release(void **states);

/* stats hook: the server-side NAT report (distinct translated sources). */
void flows_nat_report(uint64_t *distinct_addrs, uint64_t *distinct_ports);

/* The distinct client (address, port) pairs the current (or last) flows
 * run used, summed over its workers; read once the run is idle. */
uint64_t flows_fresh_tuples(void);

#endif
