/* flows.c — stateful flows engine (being written). */
#include <errno.h>
#include <stdio.h>

#include "engine.h"

int flows_prepare(const struct run_params *rp, void **states, const struct engine **ops, char *err,
		  size_t errlen)
{
	(void)rp;
	(void)states;
	(void)ops;
	snprintf(err, errlen, "flows mode is not available yet");
	return -ENOTSUP;
}

void flows_release(void **states)
{
	(void)states;
}

void flows_nat_report(uint64_t *a, uint64_t *p)
{
	*a = *p = 0;
}
