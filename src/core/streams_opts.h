/*
 * streams_opts.h — the pure parts of the stateless streams engine (`mode:
 * streams`), exposed for unit tests: the IMIX sequence and the -t
 * tunables. Control enters the engine through src/control/streams_ctl.h
 * (from run.c's table of engines).
 *
 * Included by: every folder.
 */
#ifndef FG_STREAMS_OPTS_H
#define FG_STREAMS_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tunables.h"
#include "units.h"

/*
 * pure: the repeating IMIX sequence of frame sizes without FCS (size - 4),
 * interleaved by smooth weighted round robin so each size appears in its
 * weight's proportion and evenly spread. At most max entries (a table whose
 * weights sum above max is truncated). Returns the length or -EINVAL.
 */
int streams_imix_seq(const struct units_imix_entry *t, size_t n, uint16_t *seq, uint32_t max);

/*
 * The streams keys of `start -t KEY=VAL,...` (tunables.h): learn=0|1
 * (learning phase before measured traffic), learn_wait=SECONDS (0..60, the
 * pause after it), drain=SECONDS (0..STREAMS_DRAIN_LIMIT_S, how long
 * receivers keep counting after the last frame), parsed by tun_parse
 * into a struct streams_tun.
 */
struct streams_tun {
	bool learn;
	double learn_wait;
	double drain;
};

extern const struct tun_table streams_tun_table;

/* The longest drain= (a stop waits the profile's timeout + 2 s at least). */
#define STREAMS_DRAIN_LIMIT_S 3.0

#endif
