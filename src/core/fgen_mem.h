/*
 * fgen_mem.h — creating and freeing the address lists and client port
 * allocators of fgen.h (struct fgen_addrs, struct fgen_cpa; fgen_mem.c).
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
 * control: a list set of the n addresses vals[i] + add (host order, no
 * two alike), walked in that order (inc) or at random (rand) from seed.
 * Returns 0, -EINVAL (n is 0, a mode other than inc or rand, an address
 * twice) or -ENOMEM. fgen_addrs_destroy() frees it.
 */
int fgen_addrs_list(struct fgen_addrs *a, enum fgen_mode mode, const uint32_t *vals, uint32_t n,
		    uint32_t add, uint64_t seed);

/*
 * pure: sorted[i] = vals[i] << 32 | i for the n values, then sorted
 * ascending (by value, equal values by position). Returns the position in
 * vals of the later of the first two equal values it meets, or 0 when no
 * two are equal (position 0 is never the later one).
 */
uint32_t fgen_sort_tagged(uint64_t *sorted, const uint32_t *vals, uint32_t n);

/* control: free a list set's arrays (nothing for a range). */
void fgen_addrs_destroy(struct fgen_addrs *a);

/*
 * control: an allocator for the addresses of ips (its arrays shared, not
 * copied: ips must outlive the allocator) and the ports port_lo,
 * port_lo + step, ... <= port_hi. Returns 0, -EINVAL or -ENOMEM.
 */
int fgen_cpa_init(struct fgen_cpa *a, const struct fgen_addrs *ips, uint16_t port_lo,
		  uint16_t port_hi, uint16_t step);

void fgen_cpa_destroy(struct fgen_cpa *a);

#endif
