/*
 * streams_pairs.h — the host pairs of a streams run (streams_pairs.c,
 * `stats --pairs`): laid out from the profile, counted by the workers in
 * their state (src/dataplane/streams.h), merged by control.
 *
 * Included by: control.
 */
#ifndef FG_STREAMS_PAIRS_H
#define FG_STREAMS_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "streams.h"

struct prof;
struct stats_pair_row;

/* control: the profile's emulated hosts, appended to the config's, in
 * run->hosts and hosts6 (streams_activate puts them on the ports); 0, or
 * -ENOSPC with err set. */
int streams_hosts_layout(struct streams_run *run, const struct prof *pf, char *err,
			 size_t errlen);
/* control: the run's host pairs, from its profile;
 * 0, or -ENOMEM. No emulated hosts, or too many pairs: none counted. */
int streams_pairs_layout(struct streams_run *run, const struct prof *pf);
/* control: a worker's pair counters and their snapshot buffers, and its
 * senders' pointers into them; 0 or -ENOMEM. */
int streams_pairs_alloc(const struct streams_run *run, struct streams_state *s);
/* control: free what the two above allocated. */
void streams_pairs_free_state(struct streams_state *s);
/* control, streams_lock held and snapshots taken: the rows of stats
 * --pairs (malloc'ed, *rows) and the unmatched frames; returns how many. */
int streams_pairs_merge(const struct streams_run *run, struct stats_pair_row **rows,
			uint64_t *unmatched);

#endif
