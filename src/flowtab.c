/*
 * flowtab.c — the per-worker flow table: a two-choice bucketed hash index
 * over a preallocated entry array, a free list threaded through free
 * entries, and a hashed timing wheel threaded through live ones. See
 * flowtab.h for the layout and the memory figures.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fg.h"
#include "flowtab.h"

#define FT_BKT_SLOTS 8
#define FT_HDR 32u
#define FT_LINE 64u

enum ft_flag {
	FT_INUSE = 1,
	FT_ARMED = 2,
};

/* One cache line: signatures first so a miss touches only this line. */
struct ft_bkt {
	uint32_t sig[FT_BKT_SLOTS];
	uint32_t idx[FT_BKT_SLOTS];
} __attribute__((aligned(64)));

/* Entry header; the caller's state follows at offset FT_HDR. */
struct ft_ent {
	struct flowtab_key key;
	uint32_t tnext, tprev; /* wheel slot list, or free list (tnext) */
	uint32_t tick;	       /* wheel tick the timer fires at (FT_ARMED) */
	uint16_t gen;	       /* bumped on delete */
	uint8_t flags;	       /* enum ft_flag */
	uint8_t pad;
};

_Static_assert(sizeof(struct flowtab_key) == 16, "key must be 16 bytes");
_Static_assert(sizeof(struct ft_ent) == FT_HDR, "entry header must be 32 bytes");
_Static_assert(sizeof(struct ft_bkt) == FT_LINE, "bucket must be one line");

struct flowtab {
	struct ft_bkt *bkt;
	unsigned char *ent; /* max_flows entries of stride bytes */
	uint32_t *wheel;    /* slot heads */
	uint32_t bmask;	    /* buckets - 1 */
	uint32_t stride;
	uint32_t max_flows;
	uint32_t count;
	uint32_t free_head;
	uint32_t wmask;	   /* wheel slots - 1 */
	uint32_t idx_bits; /* id = idx | gen << idx_bits */
	uint32_t idx_mask;
	uint32_t gen_mask;
	uint64_t tick_inv; /* floor(2^64 / tick_tsc): tsc -> tick without a divide */
	uint64_t cur;	   /* last wheel tick fully processed */
	void (*release)(void *ptr, void *arg);
	void *alloc_arg;
};

struct ft_layout {
	size_t head, bkt, ent, wheel, total;
	uint32_t nbkt, stride, wslots;
};

static size_t ft_align(size_t v) { return (v + FT_LINE - 1) & ~(size_t)(FT_LINE - 1); }

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
	    p->entry_size > (1u << 20))
		return -EINVAL;
	if (p->wheel_slots && (p->wheel_slots & (p->wheel_slots - 1)))
		return -EINVAL;
	/* Twice as many slots as entries: the index is at most half full. */
	l->nbkt = ft_pow2(FG_MAX((uint64_t)p->max_flows * 2 / FT_BKT_SLOTS, 2));
	l->stride = FT_HDR + ((p->entry_size + 31u) & ~31u);
	l->wslots = p->wheel_slots ? p->wheel_slots : 4096;
	l->head = 0;
	l->bkt = ft_align(sizeof(struct flowtab));
	l->ent = l->bkt + (size_t)l->nbkt * sizeof(struct ft_bkt);
	l->wheel = ft_align(l->ent + (size_t)l->stride * p->max_flows);
	l->total = ft_align(l->wheel + (size_t)l->wslots * sizeof(uint32_t));
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

static void *ft_default_alloc(size_t size, size_t align, void *arg)
{
	(void)arg;
	return aligned_alloc(align, size);
}

static void ft_default_release(void *ptr, void *arg)
{
	(void)arg;
	free(ptr);
}

struct flowtab *flowtab_create(const struct flowtab_params *p)
{
	void *(*alloc)(size_t, size_t, void *) = p && p->alloc ? p->alloc : ft_default_alloc;
	struct ft_layout l;
	struct flowtab *t;
	unsigned char *mem;
	uint32_t i;

	if (ft_layout(p, &l)) {
		errno = EINVAL;
		return NULL;
	}
	mem = alloc(l.total, FT_LINE, p->alloc_arg);
	if (!mem) {
		errno = ENOMEM;
		return NULL;
	}
	memset(mem, 0, l.total);
	t = (struct flowtab *)mem;
	t->bkt = (struct ft_bkt *)(mem + l.bkt);
	t->ent = mem + l.ent;
	t->wheel = (uint32_t *)(mem + l.wheel);
	t->bmask = l.nbkt - 1;
	t->stride = l.stride;
	t->max_flows = p->max_flows;
	t->wmask = l.wslots - 1;
	t->idx_bits = 1;
	while ((1u << t->idx_bits) < p->max_flows)
		t->idx_bits++;
	t->idx_mask = (1u << t->idx_bits) - 1;
	t->gen_mask = (uint32_t)((1ull << (32 - t->idx_bits)) - 1);
	t->tick_inv = UINT64_MAX / p->tick_tsc;
	t->release = p->alloc ? p->release : ft_default_release;
	t->alloc_arg = p->alloc_arg;

	for (i = 0; i < l.nbkt; i++)
		memset(t->bkt[i].idx, 0xff, sizeof(t->bkt[i].idx));
	for (i = 0; i < l.wslots; i++)
		t->wheel[i] = FLOWTAB_NIL;
	for (i = 0; i < p->max_flows; i++)
		ft_ent(t, i)->tnext = i + 1 < p->max_flows ? i + 1 : FLOWTAB_NIL;
	t->free_head = 0;
	return t;
}

void flowtab_destroy(struct flowtab *t)
{
	if (t && t->release)
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

void flowtab_prefetch(const struct flowtab *t, uint64_t hash)
{
	__builtin_prefetch(&t->bkt[hash & t->bmask]);
}

static inline uint32_t ft_find(const struct flowtab *t, uint32_t b, uint32_t sig,
			       const struct flowtab_key *k)
{
	const struct ft_bkt *bk = &t->bkt[b];
	unsigned i;

	for (i = 0; i < FT_BKT_SLOTS; i++) {
		if (bk->sig[i] == sig && bk->idx[i] != FLOWTAB_NIL &&
		    ft_key_eq(&ft_ent(t, bk->idx[i])->key, k))
			return bk->idx[i];
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
	unsigned i;

	for (i = 0; i < FT_BKT_SLOTS; i++)
		if (bk->idx[i] == FLOWTAB_NIL)
			return (int)i;
	return -1;
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
			ob->idx[j] = bk->idx[i];
			bk->idx[i] = FLOWTAB_NIL;
			return (int)i;
		}
	}
	return -1;
}

int flowtab_insert(struct flowtab *t, const struct flowtab_key *k, uint32_t *idx)
{
	uint64_t h = flowtab_hash(k);
	uint32_t b1 = h & t->bmask, sig = h >> 32, b2 = ft_alt(t, b1, sig), b, n;
	struct ft_ent *e;
	int s;

	n = flowtab_lookup_h(t, k, h);
	if (n != FLOWTAB_NIL) {
		*idx = n;
		return -EEXIST;
	}
	if (t->free_head == FLOWTAB_NIL)
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

	n = t->free_head;
	e = ft_ent(t, n);
	t->free_head = e->tnext;
	e->key = *k;
	e->tnext = e->tprev = FLOWTAB_NIL;
	e->flags = FT_INUSE;
	memset((char *)e + FT_HDR, 0, t->stride - FT_HDR);
	t->bkt[b].sig[s] = sig;
	t->bkt[b].idx[s] = n;
	t->count++;
	*idx = n;
	return 0;
}

static bool ft_unindex(struct flowtab *t, uint32_t b, uint32_t idx)
{
	struct ft_bkt *bk = &t->bkt[b];
	unsigned i;

	for (i = 0; i < FT_BKT_SLOTS; i++) {
		if (bk->idx[i] == idx) {
			bk->idx[i] = FLOWTAB_NIL;
			return true;
		}
	}
	return false;
}

void flowtab_del(struct flowtab *t, uint32_t idx)
{
	struct ft_ent *e = ft_ent(t, idx);
	uint64_t h;
	uint32_t b;

	if (idx >= t->max_flows || !(e->flags & FT_INUSE))
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

	if (idx >= t->max_flows)
		return FLOWTAB_NIL;
	e = ft_ent(t, idx);
	if (!(e->flags & FT_INUSE) || (e->gen & t->gen_mask) != id >> t->idx_bits)
		return FLOWTAB_NIL;
	return idx;
}

uint32_t flowtab_next(const struct flowtab *t, uint32_t *cursor)
{
	uint32_t i;

	for (i = *cursor; i < t->max_flows; i++) {
		if (ft_ent(t, i)->flags & FT_INUSE) {
			*cursor = i + 1;
			return i;
		}
	}
	*cursor = t->max_flows;
	return FLOWTAB_NIL;
}

/* TSC -> tick by multiplying with the reciprocal: floor, or one less. */
static inline uint64_t ft_tick(const struct flowtab *t, uint64_t tsc)
{
	return (uint64_t)(((unsigned __int128)tsc * t->tick_inv) >> 64);
}

static void ft_wheel_unlink(struct flowtab *t, struct ft_ent *e)
{
	if (e->tprev != FLOWTAB_NIL)
		ft_ent(t, e->tprev)->tnext = e->tnext;
	else
		t->wheel[e->tick & t->wmask] = e->tnext;
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

void flowtab_timer_arm(struct flowtab *t, uint32_t idx, uint64_t deadline_tsc)
{
	struct ft_ent *e = ft_ent(t, idx);
	/*
	 * +2: ft_tick() may be one low, so tick+2 starts strictly after the
	 * deadline's tick and the timer never fires early.
	 */
	uint64_t tick = ft_tick(t, deadline_tsc) + 2;
	uint32_t *head;

	if (e->flags & FT_ARMED)
		ft_wheel_unlink(t, e);
	/* Slots up to cur are done: a past deadline goes to the next one. */
	if (tick <= t->cur)
		tick = t->cur + 1;
	e->tick = (uint32_t)tick;
	head = &t->wheel[e->tick & t->wmask];
	e->tprev = FLOWTAB_NIL;
	e->tnext = *head;
	if (*head != FLOWTAB_NIL)
		ft_ent(t, *head)->tprev = idx;
	*head = idx;
	e->flags |= FT_ARMED;
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

			/* Serial comparison: later turns of the wheel stay. */
			if ((int32_t)(e->tick - (uint32_t)now) <= 0) {
				ft_wheel_unlink(t, e);
				out[n++] = idx;
				if (n == max)
					return n; /* this slot is resumed next call */
			}
			idx = next;
		}
		t->cur++;
	}
	t->cur = now;
	return n;
}
