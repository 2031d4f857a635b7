/*
 * fgen_mem.c — creating and freeing a client port allocator (fgen_mem.h):
 * the range of addresses, and per address a bitmap of its ports with every
 * port free and the summary that marks the words with free ports. Run by
 * control before a run and after it; handing ports out and taking them
 * back is fgen.c, on the worker.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fgen.h"
#include "fgen_int.h"
#include "fgen_mem.h"

int fgen_cpa_init(struct fgen_cpa *a, uint32_t ip_lo, uint32_t ip_hi, uint16_t port_lo,
		  uint16_t port_hi)
{
	uint32_t i, w;
	int rc;

	memset(a, 0, sizeof(*a));
	if (port_lo > port_hi)
		return -EINVAL;
	rc = fgen_init(&a->ips, FGEN_INC, ip_lo, ip_hi, true, 0);
	if (rc)
		return rc;
	a->nips = a->ips.n;
	a->nports = (uint32_t)port_hi - port_lo + 1;
	a->nwords = (a->nports + 63) / 64;
	a->nsumm = (a->nwords + 63) / 64;
	a->stride = 1 + a->nsumm + a->nwords;
	a->port_lo = port_lo;
	a->mem = calloc(fgen_cpa_mem_size(a->nips, a->nports), 1);
	if (!a->mem)
		return -ENOMEM;
	for (i = 0; i < a->nips; i++) {
		uint64_t *blk = fg_cpa_blk(a, i), *summ = blk + 1, *bits = summ + a->nsumm;

		blk[0] = (uint64_t)a->nports << 32;
		for (w = 0; w < a->nwords; w++) {
			uint32_t left = a->nports - w * 64;

			bits[w] = left >= 64 ? UINT64_MAX : (1ull << left) - 1;
			summ[w >> 6] |= 1ull << (w & 63);
		}
	}
	return 0;
}

void fgen_cpa_destroy(struct fgen_cpa *a)
{
	free(a->mem);
	a->mem = NULL;
}
