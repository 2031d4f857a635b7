/*
 * flowtab_mem.h — creating and destroying the per-worker flow table of
 * flowtab.h (flowtab_mem.c): its parameters, the memory it takes, and the
 * calls that reserve and release it.
 *
 * Context: control (they allocate and map memory), before a run and after
 * it.
 *
 * Included by: every folder.
 */
#ifndef FG_FLOWTAB_MEM_H
#define FG_FLOWTAB_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "flowtab.h"

struct flowtab_params {
	uint32_t max_flows;   /* entries (config flows_max), 1 .. FLOWTAB_MAX_FLOWS */
	uint32_t entry_size;  /* caller state bytes per entry (0 allowed) */
	uint64_t tick_tsc;    /* timer tick in TSC cycles, >= 2 */
	uint32_t wheel_slots; /* power of two up to 2^24; 0 = 4096 */
	/* bits of flowtab_id() (0 = 32): the caller may put its own tag
	 * in the top 32 - id_bits; at least one generation bit is kept */
	uint32_t id_bits;
	/*
	 * Optional allocator (e.g. NUMA-local), called once for
	 * flowtab_mem_size() bytes; NULL = an anonymous mapping.
	 */
	void *(*alloc)(size_t size, size_t align, void *arg);
	void (*release)(void *ptr, void *arg);
	void *alloc_arg;
};

/*
 * control: bytes flowtab_create() allocates for these parameters (the
 * mapping's size; it becomes resident as it is used).
 */
size_t flowtab_mem_size(const struct flowtab_params *p);

/* control: allocate and initialise; NULL with errno set (EINVAL, ENOMEM). */
struct flowtab *flowtab_create(const struct flowtab_params *p);

/* control: free everything (NULL is fine). */
void flowtab_destroy(struct flowtab *t);

#endif
