/*
 * fgen_int.h — private to the field generators' two files (fgen.c and
 * fgen_mem.c): where one address's block lies in a client port
 * allocator's memory (its layout is told in fgen.c).
 *
 * Context: pure.
 *
 * Included by: core (fgen.c and fgen_mem.c only).
 */
#ifndef FG_FGEN_INT_H
#define FG_FGEN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "fgen.h"

static inline uint64_t *fg_cpa_blk(const struct fgen_cpa *a, uint32_t i)
{
	return a->mem + (size_t)i * a->stride;
}

#endif
