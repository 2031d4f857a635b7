/*
 * flowtab.c — the per-worker flow table: a two-choice bucketed hash index
 * over an entry array handed out from a high-water mark (then from a LIFO
 * list of deleted entries), and a hashed timing wheel threaded through the
 * armed ones: what a worker does with its table. Creating and destroying
 * it is flowtab_mem.c. See flowtab.h for the layout and the memory figures.
 */
#include <errno.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fg.h"
#include "flowtab.h"
#include "flowtab_int.h"

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

/* a key's 16 bytes as two words, the second without a stored key's
 * flags and generation (FT_KEY_MASK_B) */
static inline void ft_load(const struct flowtab_key *k, uint64_t *a, uint64_t *b)
{
	memcpy(a, k, 8);
	memcpy(b, (const char *)k + 8, 8);
	*b &= FT_KEY_MASK_B;
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

/* A key's first bucket, from the low half of its hash. */
static inline uint32_t ft_home(const struct flowtab *t, uint64_t hash)
{
	return (uint32_t)hash & t->bmask;
}

/* A key's signature: its hash's top 16 bits, which no bucket number uses. */
static inline uint16_t ft_sig(uint64_t hash) { return (uint16_t)(hash >> 48); }

/*
 * The second bucket: symmetric, so alt(alt(b)) == b, and never b itself.
 * It lies within 2^16 buckets of the first (the signature's reach).
 */
static inline uint32_t ft_alt(const struct flowtab *t, uint32_t b, uint16_t sig)
{
	return (b ^ ((uint32_t)sig | 1)) & t->bmask;
}

void flowtab_prefetch(const struct flowtab *t, uint64_t hash, bool both)
{
	uint32_t b = ft_home(t, hash);

	__builtin_prefetch(&t->bkt[b]);
	if (both)
		__builtin_prefetch(&t->bkt[ft_alt(t, b, ft_sig(hash))]);
}

#define FT_SLOT_MASK ((1u << FT_BKT_SLOTS) - 1)

/* Bit i set: slot i's signature is v (the two spare words never count). */
static inline unsigned ft_match_sig(const struct ft_bkt *bk, uint16_t v)
{
#ifdef __SSE2__
	__m128i x = _mm_set1_epi16((short)v);
	__m128i a = _mm_cmpeq_epi16(_mm_load_si128((const __m128i *)bk->sig), x);
	__m128i b = _mm_cmpeq_epi16(_mm_loadl_epi64((const __m128i *)(bk->sig + 8)), x);

	return (unsigned)_mm_movemask_epi8(_mm_packs_epi16(a, b)) & FT_SLOT_MASK;
#else
	unsigned m = 0;

	for (unsigned i = 0; i < FT_BKT_SLOTS; i++)
		m |= (unsigned)(bk->sig[i] == v) << i;
	return m;
#endif
}

/* Bit i set: slot i's ref is v. */
static inline unsigned ft_match_ref(const struct ft_bkt *bk, uint32_t v)
{
#ifdef __SSE2__
	__m128i x = _mm_set1_epi32((int)v);
	__m128i a = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)bk->ref), x);
	__m128i b = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(bk->ref + 4)), x);
	__m128i c = _mm_cmpeq_epi32(_mm_loadl_epi64((const __m128i *)(bk->ref + 8)), x);

	return ((unsigned)_mm_movemask_ps(_mm_castsi128_ps(a)) |
		(unsigned)_mm_movemask_ps(_mm_castsi128_ps(b)) << 4 |
		(unsigned)_mm_movemask_ps(_mm_castsi128_ps(c)) << 8) &
	       FT_SLOT_MASK;
#else
	unsigned m = 0;

	for (unsigned i = 0; i < FT_BKT_SLOTS; i++)
		m |= (unsigned)(bk->ref[i] == v) << i;
	return m;
#endif
}

/* The slots of b whose signature matches, all compared at once; then
 * the key of each (a signature of a free slot may be stale: ref 0). */
static inline uint32_t ft_find(const struct flowtab *t, uint32_t b, uint16_t sig,
			       const struct flowtab_key *k)
{
	const struct ft_bkt *bk = &t->bkt[b];

	for (unsigned m = ft_match_sig(bk, sig); m; m &= m - 1) {
		uint32_t ref = bk->ref[__builtin_ctz(m)];

		if (ref && ft_key_eq(&ft_ent(t, ref - 1)->key, k))
			return ref - 1;
	}
	return FLOWTAB_NIL;
}

uint32_t flowtab_lookup_h(const struct flowtab *t, const struct flowtab_key *k, uint64_t hash)
{
	uint32_t b = ft_home(t, hash);
	uint16_t sig = ft_sig(hash);
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
	unsigned m = ft_match_ref(bk, 0);

	return m ? __builtin_ctz(m) : -1;
}

/* Move slot i of bucket `from` into the empty slot j of bucket `to`. */
static inline void ft_move(struct ft_bkt *from, unsigned i, struct ft_bkt *to, unsigned j)
{
	to->sig[j] = from->sig[i];
	to->ref[j] = from->ref[i];
	from->ref[i] = 0;
}

/*
 * Both buckets full: move one occupant of b to its other bucket if that has
 * room, else one occupant of that bucket on to its own other bucket first
 * (two levels of cuckoo displacement). The second level keeps the last
 * entries of a full table insertable, up to the index's 96 % slot load
 * (test_flowtab's test_full_dense). Returns the freed slot in b or -1.
 */
static int ft_displace(struct flowtab *t, uint32_t b)
{
	struct ft_bkt *bk = &t->bkt[b];
	unsigned i, j;
	int e;

	for (i = 0; i < FT_BKT_SLOTS; i++) {
		struct ft_bkt *ob = &t->bkt[ft_alt(t, b, bk->sig[i])];

		e = ft_empty_slot(ob);
		if (e >= 0) {
			ft_move(bk, i, ob, (unsigned)e);
			return (int)i;
		}
	}
	/* ft_alt() never gives the bucket itself (there are two at least):
	 * only a move back into the full b is left out */
	for (i = 0; i < FT_BKT_SLOTS; i++) {
		uint32_t o = ft_alt(t, b, bk->sig[i]);
		struct ft_bkt *ob = &t->bkt[o];

		for (j = 0; j < FT_BKT_SLOTS; j++) {
			uint32_t oo = ft_alt(t, o, ob->sig[j]);

			if (oo == b)
				continue;
			e = ft_empty_slot(&t->bkt[oo]);
			if (e >= 0) {
				ft_move(ob, j, &t->bkt[oo], (unsigned)e);
				ft_move(bk, i, ob, j);
				return (int)i;
			}
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
	uint16_t sig = ft_sig(h);
	uint32_t b1 = ft_home(t, h), b2 = ft_alt(t, b1, sig), b, n;
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
	memcpy(e->kb, k, sizeof(e->kb));
	e->sf = (uint8_t)((k->side & FT_SIDE) | FT_INUSE);
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

	/* a plain walk: the slot is usually among the first; callgrind
	 * counts 18 (UDP) to 23 (TCP) instructions per flow fewer than with
	 * a compare of all the slots' refs at once (doc/BENCHMARKS, da233b4) */
	for (unsigned i = 0; i < FT_BKT_SLOTS; i++) {
		if (bk->ref[i] == idx + 1) {
			bk->ref[i] = 0;
			return true;
		}
	}
	return false;
}

/* Unindex idx from the two buckets of hash h; false if it is in neither. */
static bool ft_unindex2(struct flowtab *t, uint32_t idx, uint64_t h)
{
	uint32_t b = ft_home(t, h);

	return ft_unindex(t, b, idx) || ft_unindex(t, ft_alt(t, b, ft_sig(h)), idx);
}

void flowtab_del(struct flowtab *t, uint32_t idx)
{
	if (idx < t->hwm)
		flowtab_del_h(t, idx, flowtab_hash(&ft_ent(t, idx)->key));
}

void flowtab_del_h(struct flowtab *t, uint32_t idx, uint64_t hash)
{
	struct ft_ent *e;

	if (idx >= t->hwm)
		return;
	e = ft_ent(t, idx);
	if (!(e->sf & FT_INUSE))
		return;
	flowtab_timer_cancel(t, idx);
	/* a ref names one entry, so a wrong hash finds nothing to remove:
	 * then the key's own hash is taken */
	if (!ft_unindex2(t, idx, hash))
		ft_unindex2(t, idx, flowtab_hash(&e->key));
	e->sf = 0;
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

uint32_t flowtab_room(const struct flowtab *t) { return t->max_flows - t->count; }

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
	if (!(e->sf & FT_INUSE) || (e->gen & t->gen_mask) != id >> t->idx_bits)
		return FLOWTAB_NIL;
	return idx;
}

uint32_t flowtab_next(const struct flowtab *t, uint32_t *cursor)
{
	uint32_t i;

	for (i = *cursor; i < t->hwm; i++) {
		if (ft_ent(t, i)->sf & FT_INUSE) {
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
	e->sf |= FT_ARMED;
}

static void ft_wheel_unlink(struct flowtab *t, struct ft_ent *e)
{
	if (e->tprev & FT_HEAD)
		t->wheel[e->tprev & ~FT_HEAD] = e->tnext;
	else
		ft_ent(t, e->tprev)->tnext = e->tnext;
	if (e->tnext != FLOWTAB_NIL)
		ft_ent(t, e->tnext)->tprev = e->tprev;
	e->sf &= (uint8_t)~FT_ARMED;
}

void flowtab_timer_cancel(struct flowtab *t, uint32_t idx)
{
	struct ft_ent *e = ft_ent(t, idx);

	if (e->sf & FT_ARMED)
		ft_wheel_unlink(t, e);
}

bool flowtab_timer_armed(const struct flowtab *t, uint32_t idx)
{
	return ft_ent(t, idx)->sf & FT_ARMED;
}

/*
 * An armed entry sits in a slot that comes up no later than its e->tick
 * (expire moves entries whose tick lies in another slot on when it passes
 * them). So a later deadline only updates e->tick: the entry stays where it
 * is, and re-arming on every segment touches no other entry. Only an
 * earlier deadline unlinks and links.
 */
/*
 * The tick a deadline fires at. +2: ft_tick() may be one low, so tick+2
 * starts strictly after the deadline's tick and the timer never fires
 * early. Slots up to cur are done: a past deadline goes to the next one.
 */
static inline uint64_t ft_due_tick(const struct flowtab *t, uint64_t deadline_tsc)
{
	uint64_t tick = ft_tick(t, deadline_tsc) + 2;

	return tick <= t->cur ? t->cur + 1 : tick;
}

/* Link e at tick (ft_due_tick()'s), out of the slot it was armed in. */
static inline void ft_relink(struct flowtab *t, uint32_t idx, struct ft_ent *e, uint64_t tick)
{
	if (e->sf & FT_ARMED)
		ft_wheel_unlink(t, e);
	e->tick = (uint32_t)tick;
	ft_wheel_link(t, idx, e);
}

void flowtab_timer_arm(struct flowtab *t, uint32_t idx, uint64_t deadline_tsc)
{
	struct ft_ent *e = ft_ent(t, idx);
	uint64_t tick = ft_due_tick(t, deadline_tsc);

	if ((e->sf & FT_ARMED) && ft_tick_le(e->tick, (uint32_t)tick))
		e->tick = (uint32_t)tick; /* later: it stays where it is */
	else
		ft_relink(t, idx, e, tick);
}

void flowtab_timer_arm_min(struct flowtab *t, uint32_t idx, uint64_t deadline_tsc)
{
	struct ft_ent *e = ft_ent(t, idx);
	uint64_t tick = ft_due_tick(t, deadline_tsc);

	if (!(e->sf & FT_ARMED) || !ft_tick_le(e->tick, (uint32_t)tick))
		ft_relink(t, idx, e, tick);
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
