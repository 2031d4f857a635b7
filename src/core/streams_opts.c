/*
 * streams_opts.c — the pure parts of the streams engine's set-up
 * (streams_opts.h): the repeating IMIX sequence of frame sizes and the streams
 * keys of `start -t`. Run by control when it prepares a run,
 * and by the unit tests.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg.h"
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

int streams_parse_tunables(const char *t, bool *learn, double *learn_wait, double *drain,
			   char *err, size_t errlen)
{
	char buf[256], *save = NULL;

	if (!t || !*t)
		return 0;
	if (strlen(t) >= sizeof(buf)) {
		snprintf(err, errlen, "-t: too long");
		return -EINVAL;
	}
	strcpy(buf, t);
	for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '='), *end;
		double v;

		if (!eq) {
			snprintf(err, errlen, "-t %s: KEY=VAL expected", kv);
			return -EINVAL;
		}
		*eq = 0;
		v = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || !isfinite(v) || v < 0) {
			snprintf(err, errlen, "-t %s: bad value '%s'", kv, eq + 1);
			return -EINVAL;
		}
		if (strcmp(kv, "learn") == 0)
			*learn = v != 0;
		else if (strcmp(kv, "learn_wait") == 0 && v <= 60)
			*learn_wait = v;
		else if (strcmp(kv, "drain") == 0 && v <= STREAMS_DRAIN_LIMIT_S)
			*drain = v;
		else {
			snprintf(err, errlen,
				 "-t %s: unknown key or value out of range (streams: "
				 "learn=0|1, learn_wait=0..60, drain=0..%g)",
				 kv, STREAMS_DRAIN_LIMIT_S);
			return -EINVAL;
		}
	}
	return 0;
}
