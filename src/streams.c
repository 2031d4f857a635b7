/* streams.c — stateless streams engine (being written). */
#include <errno.h>
#include <stdio.h>

#include "engine.h"
#include "stats.h"

int streams_prepare(const struct run_params *rp, void **states, const struct engine **ops,
		    char *err, size_t errlen)
{
	(void)rp;
	(void)states;
	(void)ops;
	snprintf(err, errlen, "streams mode is not available yet");
	return -ENOTSUP;
}

void streams_release(void **states)
{
	(void)states;
}

int streams_latency_rows(struct stats_lat_row *rows, int max)
{
	(void)rows;
	(void)max;
	return 0;
}
