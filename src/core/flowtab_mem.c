/*
 * flowtab_mem.c — creating and destroying a flow table (flowtab_mem.h):
 * the layout of the index, the entries and the wheel for the parameters
 * given, and the memory that holds them, an anonymous mapping (huge pages
 * where the kernel has them) or the caller's allocator. Run by control
 * before a run and after it; what a worker does with its table is
 * flowtab.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fg.h"
#include "flowtab_int.h"
#include "flowtab_mem.h"

#define FT_HUGE (2u << 20)	/* transparent huge page */
#define FT_WHEEL_MAX (1u << 24) /* slots; a bigger wheel is only memory */

struct ft_layout {
	size_t head, wheel, bkt, ent, total;
	uint32_t nbkt, stride, wslots;
};

static size_t ft_align(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

static uint32_t ft_pow2(uint64_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static int ft_layout(const struct flowtab_params *p, struct ft_layout *l)
{
	if (!p || p->max_flows == 0 || p->max_flows > FLOWTAB_MAX_FLOWS || p->tick_tsc < 2 ||
	    p->entry_size > (1u << 20) || p->wheel_slots > FT_WHEEL_MAX)
		return -EINVAL;
	if (p->wheel_slots && (p->wheel_slots & (p->wheel_slots - 1)))
		return -EINVAL;
	/* an id needs its index bits and at least one generation bit */
	if (p->id_bits && p->id_bits < 32 && (1ull << (p->id_bits - 1)) < p->max_flows)
		return -EINVAL;
	/* FT_SLOTS_NUM / FT_SLOTS_DEN slots per entry at least, in a power
	 * of two of buckets (a mask, not a multiply, finds a key's) */
	l->nbkt = ft_pow2(FG_MAX(((uint64_t)p->max_flows * FT_SLOTS_NUM +
				  FT_SLOTS_DEN * FT_BKT_SLOTS - 1) /
				     (FT_SLOTS_DEN * FT_BKT_SLOTS),
				 2));
	l->stride = FT_HDR + (uint32_t)ft_align(p->entry_size, FT_STATE_ALIGN);
	l->wslots = p->wheel_slots ? p->wheel_slots : 4096;
	l->head = 0;
	l->wheel = ft_align(sizeof(struct flowtab), FT_LINE);
	l->bkt = ft_align(l->wheel + (size_t)l->wslots * sizeof(uint32_t), FT_LINE);
	l->ent = l->bkt + (size_t)l->nbkt * sizeof(struct ft_bkt);
	l->total = ft_align(l->ent + (size_t)l->stride * p->max_flows, 4096);
	return 0;
}

size_t flowtab_mem_size(const struct flowtab_params *p)
{
	struct ft_layout l;

	return ft_layout(p, &l) ? 0 : l.total;
}

/*
 * Anonymous memory, so a page becomes resident only when a flow first
 * touches it and arrives zeroed (an empty index). Huge pages where the
 * kernel has them: the index and the entries are read at random, and 4 KiB
 * pages would miss the TLB on nearly every lookup. MAP_NORESERVE: a large
 * flows_max must not be refused for memory it may never use. The mapping
 * starts on a huge page boundary so that all of it can use huge pages.
 */
static void *ft_map(size_t len)
{
	size_t raw_len = len + FT_HUGE;
	unsigned char *raw, *mem;

	raw = mmap(NULL, raw_len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	mem = (unsigned char *)ft_align((uintptr_t)raw, FT_HUGE);
	if (mem > raw)
		munmap(raw, (size_t)(mem - raw));
	munmap(mem + len, (size_t)(raw + raw_len - (mem + len)));
	/* Only advice: without huge pages the table works, just slower. */
	madvise(mem, len, MADV_HUGEPAGE);
	return mem;
}

struct flowtab *flowtab_create(const struct flowtab_params *p)
{
	struct ft_layout l;
	struct flowtab *t;
	unsigned char *mem;
	uint32_t i;

	if (ft_layout(p, &l)) {
		errno = EINVAL;
		return NULL;
	}
	mem = p->alloc ? p->alloc(l.total, FT_LINE, p->alloc_arg) : ft_map(l.total);
	if (!mem) {
		errno = ENOMEM;
		return NULL;
	}
	/*
	 * The caller's allocator may hand out dirty memory: zero the index.
	 * Entries need nothing, they are initialised when handed out.
	 */
	if (p->alloc)
		memset(mem, 0, l.ent);
	t = (struct flowtab *)mem;
	t->bkt = (struct ft_bkt *)(mem + l.bkt);
	t->ent = mem + l.ent;
	t->wheel = (uint32_t *)(mem + l.wheel);
	t->bmask = l.nbkt - 1;
	t->stride = l.stride;
	t->max_flows = p->max_flows;
	t->count = 0;
	t->hwm = 0;
	t->free_head = FLOWTAB_NIL;
	t->wmask = l.wslots - 1;
	t->idx_bits = 1;
	while ((1u << t->idx_bits) < p->max_flows)
		t->idx_bits++;
	t->idx_mask = (1u << t->idx_bits) - 1;
	{
		uint32_t bits = p->id_bits && p->id_bits < 32 ? p->id_bits : 32;

		t->gen_mask = bits > t->idx_bits ? (uint32_t)((1ull << (bits - t->idx_bits)) - 1) : 1;
	}
	t->tick_inv = UINT64_MAX / p->tick_tsc;
	t->cur = 0;
	t->map_len = p->alloc ? 0 : l.total;
	t->release = p->alloc ? p->release : NULL;
	t->alloc_arg = p->alloc_arg;
	for (i = 0; i < l.wslots; i++)
		t->wheel[i] = FLOWTAB_NIL;
	return t;
}

void flowtab_destroy(struct flowtab *t)
{
	if (!t)
		return;
	if (t->map_len)
		munmap(t, t->map_len);
	else if (t->release)
		t->release(t, t->alloc_arg);
}
