/*
 * streams_opts.h — the pure parts of the stateless streams engine (`mode:
 * streams`), exposed for unit tests: the IMIX and size-range sequences and the -t
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

/* How many sizes a `frame: {range, mode: rand}` stream draws before its
 * sequence repeats. */
#define STREAMS_SIZE_RAND_LEN 4096

/*
 * pure: the repeating sequence of frame sizes without FCS of a stream's
 * `frame: {range: [lo, hi], mode, step}` (f: lo..hi incl. FCS, mode
 * PROF_VAR_INC, _DEC or _RAND): inc lo, lo + step, ... up to hi; dec the
 * same sizes from the largest down; rand STREAMS_SIZE_RAND_LEN sizes
 * drawn uniformly from lo..hi with seed (fgen.h). At most max entries.
 * Returns the length, -E2BIG when inc/dec would need more than max,
 * or -EINVAL.
 */
struct prof_field;
int streams_size_seq(const struct prof_field *f, uint32_t step, uint64_t seed, uint16_t *seq,
		     uint32_t max);

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
