/*
 * fgen_mem.c — creating and freeing address lists and client port
 * allocators (fgen_mem.h): a list's entries and their sorted copy, and an
 * allocator's memory, zeroed (every port of every address free: its
 * layout in fgen.h), written only as ports are handed out. Run by
 * control before a run and after it; handing ports out and taking them
 * back is fgen.c, on the worker.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fgen.h"
#include "fgen_mem.h"

static int fg_cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

uint32_t fgen_sort_tagged(uint64_t *sorted, const uint32_t *vals, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		sorted[i] = (uint64_t)vals[i] << 32 | i;
	qsort(sorted, n, sizeof(*sorted), fg_cmp_u64);
	for (uint32_t i = 1; i < n; i++)
		if (sorted[i] >> 32 == sorted[i - 1] >> 32)
			return (uint32_t)sorted[i];
	return 0;
}

int fgen_addrs_list(struct fgen_addrs *a, enum fgen_mode mode, const uint32_t *vals, uint32_t n,
		    uint32_t add, uint64_t seed)
{
	uint32_t *list;
	uint64_t *sorted;
	int rc;

	memset(a, 0, sizeof(*a));
	if (n == 0 || (mode != FGEN_INC && mode != FGEN_RAND))
		return -EINVAL;
	rc = fgen_init(&a->g, mode, 0, n - 1, false, seed);
	if (rc)
		return rc;
	/* one block: the sorted u64s first (aligned), then the list */
	a->mem = malloc((size_t)n * (sizeof(*sorted) + sizeof(*list)));
	if (!a->mem)
		return -ENOMEM;
	sorted = a->mem;
	list = (uint32_t *)(sorted + n);
	for (uint32_t i = 0; i < n; i++)
		list[i] = vals[i] + add;
	if (fgen_sort_tagged(sorted, list, n)) {
		fgen_addrs_destroy(a);
		return -EINVAL;
	}
	a->list = list;
	a->sorted = sorted;
	a->n = n;
	return 0;
}

void fgen_addrs_destroy(struct fgen_addrs *a)
{
	free(a->mem);
	memset(a, 0, sizeof(*a));
}

int fgen_cpa_init(struct fgen_cpa *a, const struct fgen_addrs *ips, uint16_t port_lo,
		  uint16_t port_hi, uint16_t step)
{
	memset(a, 0, sizeof(*a));
	if (port_lo > port_hi || step == 0 || fgen_addrs_count(ips) == 0)
		return -EINVAL;
	a->ips = *ips;
	a->ips.mem = NULL; /* the arrays stay ips's */
	a->nips = fgen_addrs_count(ips);
	a->nports = ((uint32_t)port_hi - port_lo) / step + 1;
	a->nwords = (a->nports + 63) / 64;
	a->nsumm = (a->nwords + 63) / 64;
	a->port_lo = port_lo;
	a->step = step;
	/* zero is every port free (fgen.h): nothing to write, and calloc's
	 * large blocks are fresh pages that stay untouched until used */
	a->mem = calloc(fgen_cpa_mem_size(a->nips, a->nports), 1);
	return a->mem ? 0 : -ENOMEM;
}

void fgen_cpa_destroy(struct fgen_cpa *a)
{
	free(a->mem);
	a->mem = NULL;
}
