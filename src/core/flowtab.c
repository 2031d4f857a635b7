/*
 * flowtab.c — the per-worker flow table: a two-choice bucketed hash index
 * over an entry array handed out from a high-water mark (then from a LIFO
 * list of deleted entries), and a hashed timing wheel threaded through the
 * armed ones. See flowtab.h for the layout and the memory figures.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fg.h"
#include "flowtab.h"

#define FT_BKT_SLOTS 8
#define FT_HDR 32u
#define FT_LINE 64u
#define FT_STATE_ALIGN 16u	/* keeps every key inside one cache line */
#define FT_HUGE (2u << 20)	/* transparent huge page */
#define FT_WHEEL_MAX (1u << 24) /* slots; a bigger wheel is only memory */
#define FT_HEAD 0x80000000u	/* tprev of a slot's first entry: FT_HEAD | slot */

enum ft_flag {
	FT_INUSE = 1,
	FT_ARMED = 2, /* linked in a wheel slot */
};

/*
 * One cache line: signatures first so a miss touches only this line. An
 * empty slot holds ref 0 and a used one the entry index + 1, so the zero
 * pages of a fresh mapping are an empty index.
 */
struct ft_bkt {
	uint32_t sig[FT_BKT_SLOTS];
	uint32_t ref[FT_BKT_SLOTS];
} __attribute__((aligned(64)));

/* Entry header; the caller's state follows at offset FT_HDR. */
struct ft_ent {
	struct flowtab_key key;
	uint32_t tnext; /* wheel slot list, or the free list */
	uint32_t tprev; /* previous in the slot list, or FT_HEAD | slot */
	uint32_t tick;	/* wheel tick the timer is due at (FT_ARMED) */
	uint16_t gen;	/* bumped on delete */
	uint8_t flags;	/* enum ft_flag */
	uint8_t pad;
};

_Static_assert(sizeof(struct flowtab_key) == 16, "key must be 16 bytes");
_Static_assert(sizeof(struct ft_ent) == FT_HDR, "entry header must be 32 bytes");
_Static_assert(sizeof(struct ft_bkt) == FT_LINE, "bucket must be one line");
_Static_assert(FLOWTAB_MAX_FLOWS <= FT_HEAD, "an entry index must not look like a slot tag");

struct flowtab {
	struct ft_bkt *bkt;
	unsigned char *ent; /* max_flows entries of stride bytes */
	uint32_t *wheel;    /* slot heads */
	uint32_t bmask;	    /* buckets - 1 */
	uint32_t stride;
	uint32_t max_flows;
	uint32_t count;
	uint32_t hwm;	    /* entries below were handed out at least once */
	uint32_t free_head; /* deleted entries, most recent first */
	uint32_t wmask;	    /* wheel slots - 1 */
	uint32_t idx_bits;  /* id = idx | gen << idx_bits */
	uint32_t idx_mask;
	uint32_t gen_mask;
	uint64_t tick_inv; /* floor(2^64 / tick_tsc): tsc -> tick without a divide */
	uint64_t cur;	   /* last wheel tick fully processed */
	size_t map_len;	   /* mmap'ed bytes, 0 with the caller's allocator */
	void (*release)(void *ptr, void *arg);
	void *alloc_arg;
};

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
	/* Twice as many slots as entries: the index is at most half full. */
	l->nbkt = ft_pow2(FG_MAX((uint64_t)p->max_flows * 2 / FT_BKT_SLOTS, 2));
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

static inline struct ft_ent *ft_ent(const struct flowtab *t, uint32_t idx)
{
	return (struct ft_ent *)(t->ent + (size_t)idx * t->stride);
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

/* murmur3's 64-bit finaliser: a bijection with full avalanche. */
static inline uint64_t ft_fmix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h;
}

static inline void ft_load(const struct flowtab_key *k, uint64_t *a, uint64_t *b)
{
	memcpy(a, k, 8);
	memcpy(b, (const char *)k + 8, 8);
}

uint64_t flowtab_hash(const struct flowtab_key *k)
{
	uint64_t a, b;

	ft_load(k, &a, &b);
	return ft_fmix(a ^ ft_fmix(b + 0x9e3779b97f4a7c15ull));
}

static inline bool ft_key_eq(const struct flowtab_key *x, const struct flowtab_key *y)
{
	uint64_t xa, xb, ya, yb;

	ft_load(x, &xa, &xb);
	ft_load(y, &ya, &yb);
	return ((xa ^ ya) | (xb ^ yb)) == 0;
}

/* The second bucket: symmetric, so alt(alt(b)) == b, and never b itself. */
static inline uint32_t ft_alt(const struct flowtab *t, uint32_t b, uint32_t sig)
{
	return (b ^ (sig | 1)) & t->bmask;
}

void flowtab_prefetch(const struct flowtab *t, uint64_t hash, bool both)
{
	uint32_t b = hash & t->bmask;

	__builtin_prefetch(&t->bkt[b]);
	if (both)
		__builtin_prefetch(&t->bkt[ft_alt(t, b, (uint32_t)(hash >> 32))]);
}

/* Bit i set: the bucket's 32-bit word i of w (sig[] or ref[]) equals v. */
static inline unsigned ft_match(const uint32_t *w, uint32_t v)
{
#ifdef __SSE2__
	__m128i x = _mm_set1_epi32((int)v);
	__m128i a = _mm_cmpeq_epi32(_mm_load_si128((const __m128i *)w), x);
	__m128i b = _mm_cmpeq_epi32(_mm_load_si128((const __m128i *)w + 1), x);

	return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(a)) |
	       (unsigned)_mm_movemask_ps(_mm_castsi128_ps(b)) << 4;
#else
	unsigned m = 0;

	for (unsigned i = 0; i < FT_BKT_SLOTS; i++)
		m |= (unsigned)(w[i] == v) << i;
	return m;
#endif
}

/* The slots of b whose signature matches, all compared at once; then
 * the key of each (a signature of a free slot may be stale: ref 0). */
static inline uint32_t ft_find(const struct flowtab *t, uint32_t b, uint32_t sig,
			       const struct flowtab_key *k)
{
	const struct ft_bkt *bk = &t->bkt[b];

	for (unsigned m = ft_match(bk->sig, sig); m; m &= m - 1) {
		uint32_t ref = bk->ref[__builtin_ctz(m)];

		if (ref && ft_key_eq(&ft_ent(t, ref - 1)->key, k))
			return ref - 1;
	}
	return FLOWTAB_NIL;
}

uint32_t flowtab_lookup_h(const struct flowtab *t, const struct flowtab_key *k, uint64_t hash)
{
	uint32_t b = hash & t->bmask, sig = hash >> 32;
	uint32_t idx = ft_find(t, b, sig, k);

	if (idx != FLOWTAB_NIL)
		return idx;
	return ft_find(t, ft_alt(t, b, sig), sig, k);
}

uint32_t flowtab_lookup(const struct flowtab *t, const struct flowtab_key *k)
{
	return flowtab_lookup_h(t, k, flowtab_hash(k));
}

static inline int ft_empty_slot(const struct ft_bkt *bk)
{
	unsigned m = ft_match(bk->ref, 0);

	return m ? __builtin_ctz(m) : -1;
}

/*
 * Both buckets full: move one occupant of b to its other bucket if that has
 * room (one level of cuckoo displacement; enough at <= 50% slot load).
 * Returns the freed slot in b or -1.
 */
static int ft_displace(struct flowtab *t, uint32_t b)
{
	struct ft_bkt *bk = &t->bkt[b];
	unsigned i;

	for (i = 0; i < FT_BKT_SLOTS; i++) {
		struct ft_bkt *ob = &t->bkt[ft_alt(t, b, bk->sig[i])];
		int j = ft_empty_slot(ob);

		if (j >= 0) {
			ob->sig[j] = bk->sig[i];
			ob->ref[j] = bk->ref[i];
			bk->ref[i] = 0;
			return (int)i;
		}
	}
	return -1;
}

int flowtab_insert(struct flowtab *t, const struct flowtab_key *k, uint32_t *idx)
{
	return flowtab_insert_h(t, k, flowtab_hash(k), idx);
}

int flowtab_insert_h(struct flowtab *t, const struct flowtab_key *k, uint64_t h, uint32_t *idx)
{
	uint32_t b1 = h & t->bmask, sig = h >> 32, b2 = ft_alt(t, b1, sig), b, n;
	struct ft_ent *e;
	int s;

	n = flowtab_lookup_h(t, k, h);
	if (n != FLOWTAB_NIL) {
		*idx = n;
		return -EEXIST;
	}
	if (t->free_head == FLOWTAB_NIL && t->hwm == t->max_flows)
		return -ENOSPC;
	b = b1;
	s = ft_empty_slot(&t->bkt[b1]);
	if (s < 0) {
		b = b2;
		s = ft_empty_slot(&t->bkt[b2]);
	}
	if (s < 0) {
		b = b1;
		s = ft_displace(t, b1);
	}
	if (s < 0) {
		b = b2;
		s = ft_displace(t, b2);
	}
	if (s < 0)
		return -ENOSPC;

	/* A deleted entry first: it was used recently, so it is likely cached. */
	if (t->free_head != FLOWTAB_NIL) {
		n = t->free_head;
		e = ft_ent(t, n);
		t->free_head = e->tnext;
	} else {
		n = t->hwm++;
		e = ft_ent(t, n);
		e->gen = 0;
	}
	e->key = *k;
	e->flags = FT_INUSE;
	memset((char *)e + FT_HDR, 0, t->stride - FT_HDR);
	t->bkt[b].sig[s] = sig;
	t->bkt[b].ref[s] = n + 1;
	t->count++;
	*idx = n;
	return 0;
}

static bool ft_unindex(struct flowtab *t, uint32_t b, uint32_t idx)
{
	struct ft_bkt *bk = &t->bkt[b];
	unsigned i;

	for (i = 0; i < FT_BKT_SLOTS; i++) {
		if (bk->ref[i] == idx + 1) {
			bk->ref[i] = 0;
			return true;
		}
	}
	return false;
}

void flowtab_del(struct flowtab *t, uint32_t idx)
{
	struct ft_ent *e;
	uint64_t h;
	uint32_t b;

	if (idx >= t->hwm)
		return;
	e = ft_ent(t, idx);
	if (!(e->flags & FT_INUSE))
		return;
	flowtab_timer_cancel(t, idx);
	h = flowtab_hash(&e->key);
	b = h & t->bmask;
	if (!ft_unindex(t, b, idx))
		ft_unindex(t, ft_alt(t, b, h >> 32), idx);
	e->flags = 0;
	e->gen++;
	e->tnext = t->free_head;
	t->free_head = idx;
	t->count--;
}

void *flowtab_state(const struct flowtab *t, uint32_t idx)
{
	return (char *)ft_ent(t, idx) + FT_HDR;
}

const struct flowtab_key *flowtab_key_of(const struct flowtab *t, uint32_t idx)
{
	return &ft_ent(t, idx)->key;
}

uint32_t flowtab_count(const struct flowtab *t) { return t->count; }

uint32_t flowtab_id(const struct flowtab *t, uint32_t idx)
{
	return idx | (uint32_t)(ft_ent(t, idx)->gen & t->gen_mask) << t->idx_bits;
}

uint32_t flowtab_at(const struct flowtab *t, uint32_t id)
{
	uint32_t idx = id & t->idx_mask;
	const struct ft_ent *e;

	/* Entries above the high-water mark were never written. */
	if (idx >= t->hwm)
		return FLOWTAB_NIL;
	e = ft_ent(t, idx);
	if (!(e->flags & FT_INUSE) || (e->gen & t->gen_mask) != id >> t->idx_bits)
		return FLOWTAB_NIL;
	return idx;
}

uint32_t flowtab_next(const struct flowtab *t, uint32_t *cursor)
{
	uint32_t i;

	for (i = *cursor; i < t->hwm; i++) {
		if (ft_ent(t, i)->flags & FT_INUSE) {
			*cursor = i + 1;
			return i;
		}
	}
	*cursor = t->hwm;
	return FLOWTAB_NIL;
}

/* TSC -> tick by multiplying with the reciprocal: floor, or one less. */
static inline uint64_t ft_tick(const struct flowtab *t, uint64_t tsc)
{
	return (uint64_t)(((unsigned __int128)tsc * t->tick_inv) >> 64);
}

/* Serial comparison of 32-bit ticks: a <= b while they are < 2^31 apart. */
static inline bool ft_tick_le(uint32_t a, uint32_t b) { return (int32_t)(a - b) <= 0; }

/* Put an entry first in the slot of its e->tick. */
static void ft_wheel_link(struct flowtab *t, uint32_t idx, struct ft_ent *e)
{
	uint32_t slot = e->tick & t->wmask, *head = &t->wheel[slot];

	e->tprev = FT_HEAD | slot;
	e->tnext = *head;
	if (*head != FLOWTAB_NIL)
		ft_ent(t, *head)->tprev = idx;
	*head = idx;
	e->flags |= FT_ARMED;
}

static void ft_wheel_unlink(struct flowtab *t, struct ft_ent *e)
{
	if (e->tprev & FT_HEAD)
		t->wheel[e->tprev & ~FT_HEAD] = e->tnext;
	else
		ft_ent(t, e->tprev)->tnext = e->tnext;
	if (e->tnext != FLOWTAB_NIL)
		ft_ent(t, e->tnext)->tprev = e->tprev;
	e->flags &= ~FT_ARMED;
}

void flowtab_timer_cancel(struct flowtab *t, uint32_t idx)
{
	struct ft_ent *e = ft_ent(t, idx);

	if (e->flags & FT_ARMED)
		ft_wheel_unlink(t, e);
}

bool flowtab_timer_armed(const struct flowtab *t, uint32_t idx)
{
	return ft_ent(t, idx)->flags & FT_ARMED;
}

/*
 * An armed entry sits in a slot that comes up no later than its e->tick
 * (expire moves entries whose tick lies in another slot on when it passes
 * them). So a later deadline only updates e->tick: the entry stays where it
 * is, and re-arming on every segment touches no other entry. Only an
 * earlier deadline unlinks and links.
 */
void flowtab_timer_arm(struct flowtab *t, uint32_t idx, uint64_t deadline_tsc)
{
	struct ft_ent *e = ft_ent(t, idx);
	/*
	 * +2: ft_tick() may be one low, so tick+2 starts strictly after the
	 * deadline's tick and the timer never fires early.
	 */
	uint64_t tick = ft_tick(t, deadline_tsc) + 2;

	/* Slots up to cur are done: a past deadline goes to the next one. */
	if (tick <= t->cur)
		tick = t->cur + 1;
	if (e->flags & FT_ARMED) {
		if (ft_tick_le(e->tick, (uint32_t)tick)) {
			e->tick = (uint32_t)tick;
			return;
		}
		ft_wheel_unlink(t, e);
	}
	e->tick = (uint32_t)tick;
	ft_wheel_link(t, idx, e);
}

unsigned flowtab_expire(struct flowtab *t, uint64_t now_tsc, uint32_t *out, unsigned max)
{
	uint64_t now = ft_tick(t, now_tsc), steps, i;
	unsigned n = 0;

	if (now <= t->cur || max == 0)
		return 0;
	steps = now - t->cur;
	if (steps > (uint64_t)t->wmask + 1)
		steps = (uint64_t)t->wmask + 1; /* one pass sees every slot */
	for (i = 1; i <= steps; i++) {
		uint32_t slot = (uint32_t)(t->cur + 1) & t->wmask;
		uint32_t idx = t->wheel[slot];

		while (idx != FLOWTAB_NIL) {
			struct ft_ent *e = ft_ent(t, idx);
			uint32_t next = e->tnext;

			if (ft_tick_le(e->tick, (uint32_t)now)) {
				ft_wheel_unlink(t, e);
				out[n++] = idx;
				if (n == max)
					return n; /* this slot is resumed next call */
			} else if ((e->tick & t->wmask) != slot) {
				/* Re-armed later since it was linked here. */
				ft_wheel_unlink(t, e);
				ft_wheel_link(t, idx, e);
			}
			/* Else due on a later turn of the wheel: it stays. */
			idx = next;
		}
		t->cur++;
	}
	t->cur = now;
	return n;
}
