/*
 * streams_ctl.h — the stateless streams engine (profile `mode: streams`)
 * as run.c sees it: one struct engine (run.h) whose control half is
 * streams_ctl.c (its load at -m 1, its per-worker states, the emulated
 * hosts of its profile, and the counts `stats`, `plot` and `bench` read)
 * and whose worker half is streams_worker_ops (src/dataplane/streams.h).
 * Only run.c's table of engines names it.
 *
 * Included by: control.
 */
#ifndef FG_STREAMS_CTL_H
#define FG_STREAMS_CTL_H

struct engine;

extern const struct engine streams_engine;

#endif
