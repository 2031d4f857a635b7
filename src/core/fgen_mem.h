/*
 * fgen_mem.h — creating and freeing the client port allocator of fgen.h
 * (struct fgen_cpa; fgen_mem.c).
 *
 * Context: control (they allocate), before a run and after it.
 *
 * Included by: every folder.
 */
#ifndef FG_FGEN_MEM_H
#define FG_FGEN_MEM_H

#include <stdint.h>

#include "fgen.h"

/*
 * control: an allocator for the IPv4 addresses in [ip_lo, ip_hi] (skipping
 * .0/.255) and ports [port_lo, port_hi]. Returns 0, -EINVAL or -ENOMEM.
 */
int fgen_cpa_init(struct fgen_cpa *a, uint32_t ip_lo, uint32_t ip_hi, uint16_t port_lo,
		  uint16_t port_hi);

/* control: free the bitmaps. */
void fgen_cpa_destroy(struct fgen_cpa *a);

#endif
