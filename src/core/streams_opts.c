/*
 * streams_opts.c — the pure parts of the streams engine's set-up
 * (streams_opts.h): the repeating IMIX sequence of frame sizes, the
 * sequence of a stream's range of sizes, and the table
 * of the streams keys of `start -t` (tunables.h). Run by control when it prepares a run,
 * and by the unit tests.
 */
#include <errno.h>
#include <stddef.h>

#include "fg.h"
#include "fgen.h"
#include "prof-t.h"
#include "streams_opts.h"

int streams_imix_seq(const struct units_imix_entry *t, size_t n, uint16_t *seq, uint32_t max)
{
	int64_t cur[FG_PROF_MAX_IMIX] = {0};
	uint64_t total = 0;
	uint32_t len;

	if (!n || n > FG_PROF_MAX_IMIX || !max)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		total += t[i].weight;
	if (!total)
		return -EINVAL;
	len = total > max ? max : (uint32_t)total;
	/* smooth weighted round robin: sizes interleaved, exact proportions */
	for (uint32_t k = 0; k < len; k++) {
		size_t best = 0;

		for (size_t i = 0; i < n; i++) {
			cur[i] += t[i].weight;
			if (cur[i] > cur[best])
				best = i;
		}
		cur[best] -= (int64_t)total;
		seq[k] = (uint16_t)(t[best].size - 4);
	}
	return (int)len;
}

int streams_size_seq(const struct prof_field *f, uint32_t step, uint64_t seed, uint16_t *seq,
		     uint32_t max)
{
	struct fgen g;
	uint32_t len;

	if (!max || !step || f->lo < 5 || f->lo > f->hi || f->hi > UINT16_MAX)
		return -EINVAL;
	if (f->mode == PROF_VAR_RAND) {
		if (fgen_init(&g, FGEN_RAND, f->lo, f->hi, false, seed))
			return -EINVAL;
		len = FG_MIN(max, STREAMS_SIZE_RAND_LEN);
		for (uint32_t k = 0; k < len; k++)
			seq[k] = (uint16_t)(fgen_next(&g) - 4);
		return (int)len;
	}
	if (f->mode != PROF_VAR_INC && f->mode != PROF_VAR_DEC)
		return -EINVAL;
	len = (f->hi - f->lo) / step + 1;
	if (len > max)
		return -E2BIG;
	for (uint32_t k = 0; k < len; k++) {
		uint32_t v = f->lo + k * step;

		/* dec walks down from the last size inc reaches */
		seq[f->mode == PROF_VAR_INC ? k : len - 1 - k] = (uint16_t)(v - 4);
	}
	return (int)len;
}

static const struct tun_key streams_tun_keys[] = {
    {.name = "learn", .type = TUN_BOOL, .off = offsetof(struct streams_tun, learn)},
    {.name = "learn_wait",
     .type = TUN_NUM,
     .min = 0,
     .max = 60,
     .off = offsetof(struct streams_tun, learn_wait)},
    {.name = "drain",
     .type = TUN_NUM,
     .min = 0,
     .max = STREAMS_DRAIN_LIMIT_S,
     .off = offsetof(struct streams_tun, drain)},
};

const struct tun_table streams_tun_table = {
    .engine = "streams", .keys = streams_tun_keys, .nkeys = FG_ARRAY_SIZE(streams_tun_keys)};
