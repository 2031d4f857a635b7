/*
 * flows_ctl.h — the stateful flows engine (profile `mode: flows`) as run.c
 * sees it: one struct engine (run.h) whose control half is flows_ctl.c
 * (its load at -m 1, its per-worker states, its reports) and whose worker
 * half is flows_worker_ops (src/dataplane/flows.h). Only run.c's table of
 * engines names it.
 *
 * Included by: control.
 */
#ifndef FG_FLOWS_CTL_H
#define FG_FLOWS_CTL_H

struct engine;

extern const struct engine flows_engine;

#endif
