/*
 * fgen.c — field generators, address pairs and the client port allocator.
 * fgen_init() picks the per-value kind once (mode and address kind), and
 * the inline fgen_next() in fgen.h switches on it: the switch predicts
 * perfectly inside a burst, and the generator inlines into the sender's
 * loop, where an indirect call per field per frame did not.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fg.h"
#include "fgen.h"

const char *const fgen_mode_names[FGEN_MODE_COUNT] = {
    [FGEN_FIXED] = "fixed",
    [FGEN_INC] = "inc",
    [FGEN_DEC] = "dec",
    [FGEN_RAND] = "rand",
};

uint64_t fgen_subseed(uint64_t seed, uint32_t stream, uint32_t field)
{
	uint64_t s = seed ^ ((uint64_t)stream << 32 | field) * 0xd6e8feb86659fd93ull;

	return fgen_rand64(&s);
}

static inline bool fg_usable(uint32_t a) { return (a & 0xffu) != 0 && (a & 0xffu) != 0xffu; }

void fgen_reset(struct fgen *g, uint64_t seed)
{
	g->rng = seed;
	g->spare = 0;
	g->cur = g->mode == FGEN_DEC ? g->hi : g->lo;
}

int fgen_init(struct fgen *g, enum fgen_mode mode, uint32_t lo, uint32_t hi, bool ipv4,
	      uint64_t seed)
{
	static const uint8_t plain[FGEN_MODE_COUNT] = {[FGEN_FIXED] = FGEN_K_FIXED,
						       [FGEN_INC] = FGEN_K_INC,
						       [FGEN_DEC] = FGEN_K_DEC,
						       [FGEN_RAND] = FGEN_K_RAND};
	static const uint8_t v4[FGEN_MODE_COUNT] = {[FGEN_FIXED] = FGEN_K_FIXED,
						    [FGEN_INC] = FGEN_K_INC4,
						    [FGEN_DEC] = FGEN_K_DEC4,
						    [FGEN_RAND] = FGEN_K_RAND4};

	if ((unsigned)mode >= FGEN_MODE_COUNT || lo > hi)
		return -EINVAL;
	memset(g, 0, sizeof(*g));
	if (ipv4) {
		/* Pull both ends onto usable addresses. */
		if ((lo & 0xffu) == 0xffu)
			lo = lo == UINT32_MAX ? lo : lo + 2;
		else if ((lo & 0xffu) == 0)
			lo++;
		if ((hi & 0xffu) == 0)
			hi = hi < 2 ? 0 : hi - 2;
		else if ((hi & 0xffu) == 0xffu)
			hi--;
		if (lo > hi || !fg_usable(lo) || !fg_usable(hi))
			return -EINVAL;
		g->vbase = fgen_vi_(lo);
		g->n = fgen_vi_(hi) - g->vbase + 1;
	} else {
		g->n = hi - lo + 1; /* wraps to 0 for the full 32-bit range */
	}
	g->lo = lo;
	g->hi = hi;
	g->ipv4 = ipv4;
	g->mode = (uint8_t)mode;
	g->kind = ipv4 ? v4[mode] : plain[mode];
	if (mode == FGEN_RAND && g->n == 0)
		g->kind = FGEN_K_RAND_FULL;
	if (g->n)
		g->thresh = (uint32_t)(0u - g->n) % g->n;
	fgen_reset(g, seed);
	return 0;
}

uint32_t fgen_count(const struct fgen *g) { return g->n; }

uint32_t fgen_at(const struct fgen *g, uint32_t i)
{
	return g->ipv4 ? fgen_vmap_(g->vbase + i) : g->lo + i;
}

int64_t fgen_index(const struct fgen *g, uint32_t v)
{
	if (v < g->lo || v > g->hi || (g->ipv4 && !fg_usable(v)))
		return -1;
	return g->ipv4 ? (int64_t)(fgen_vi_(v) - g->vbase) : (int64_t)(v - g->lo);
}

/* Shorten g to its first n values. */
static void fg_truncate(struct fgen *g, uint32_t n)
{
	if (g->n == n)
		return;
	g->hi = fgen_at(g, n - 1);
	g->n = n;
}

int fgen_pair_init(struct fgen_pair *p, enum fgen_mode mode, uint32_t alo, uint32_t ahi,
		   uint32_t blo, uint32_t bhi, bool ipv4, uint64_t seed)
{
	uint32_t n;
	int rc;

	rc = fgen_init(&p->a, FGEN_FIXED, alo, ahi, ipv4, 0);
	if (!rc)
		rc = fgen_init(&p->b, FGEN_FIXED, blo, bhi, ipv4, 0);
	if (rc)
		return rc;
	/* n - 1 so that a full 32-bit range (n == 0) compares as the largest. */
	n = FG_MIN(p->a.n - 1, p->b.n - 1) + 1;
	if (n == 0) /* both full 32-bit ranges: index 0 .. 2^32-1 */
		return fgen_init(&p->idx, mode, 0, UINT32_MAX, false, seed);
	fg_truncate(&p->a, n);
	fg_truncate(&p->b, n);
	return fgen_init(&p->idx, mode, 0, n - 1, false, seed);
}

void fgen_pair_next(struct fgen_pair *p, uint32_t *a, uint32_t *b)
{
	uint32_t i = fgen_next(&p->idx);

	*a = fgen_at(&p->a, i);
	*b = fgen_at(&p->b, i);
}

int fgen_addrs_range(struct fgen_addrs *a, enum fgen_mode mode, uint32_t lo, uint32_t hi,
		     uint64_t seed)
{
	memset(a, 0, sizeof(*a));
	return fgen_init(&a->g, mode, lo, hi, true, seed);
}

uint32_t fgen_addrs_count(const struct fgen_addrs *a) { return a->list ? a->n : a->g.n; }

int64_t fgen_addrs_index(const struct fgen_addrs *a, uint32_t v)
{
	uint32_t lo = 0, hi;

	if (!a->list)
		return fgen_index(&a->g, v);
	hi = a->n;
	while (lo < hi) { /* the first entry whose address is >= v */
		uint32_t mid = lo + (hi - lo) / 2;

		if ((uint32_t)(a->sorted[mid] >> 32) < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == a->n || (uint32_t)(a->sorted[lo] >> 32) != v)
		return -1;
	return (uint32_t)a->sorted[lo];
}

/* The bit of port in a's share, or -1 when the port is not one of them. */
static inline int64_t fg_cpa_bit(const struct fgen_cpa *a, uint16_t port)
{
	uint32_t d = (uint32_t)port - a->port_lo, b;

	if (port < a->port_lo)
		return -1;
	b = a->step == 1 ? d : d / a->step;
	if (b >= a->nports || b * a->step != d)
		return -1;
	return b;
}

/* The layout (fgen.h): row 0 cursor (low 31 bits), wrapped (bit 31: the
 * rotation came round once) | used (high 32), rows 1 .. nsumm the summary
 * (bit set = bitmap word full), then nwords rows of bitmap (bit set = port
 * in use); word r of address i at mem[r * nips + i]. All zero at start. */
#define FG_CPA_WRAPPED (1u << 31)
size_t fgen_cpa_mem_size(uint32_t nips, uint32_t nports)
{
	uint32_t nwords = (nports + 63) / 64, nsumm = (nwords + 63) / 64;

	return (size_t)nips * (1 + nsumm + nwords) * sizeof(uint64_t);
}

static inline uint64_t *fg_cpa_at(const struct fgen_cpa *a, uint32_t r, uint32_t i)
{
	return a->mem + (size_t)r * a->nips + i;
}

/* The bits of word w that stand for one of n bits (ports, or bitmap words
 * for the summary): all but the last word's top ones. */
static inline uint64_t fg_cpa_valid(uint32_t n, uint32_t w)
{
	uint32_t left = n - w * 64;

	return left >= 64 ? UINT64_MAX : (1ull << left) - 1;
}

/* First bitmap word of address i that is not full, at or after word w,
 * wrapping; used < nports. */
static uint32_t fg_cpa_word(const struct fgen_cpa *a, uint32_t i, uint32_t w)
{
	uint32_t s = w >> 6, k;
	uint64_t m =
	    ~*fg_cpa_at(a, 1 + s, i) & fg_cpa_valid(a->nwords, s) & (UINT64_MAX << (w & 63));

	for (k = 0; k <= a->nsumm; k++) {
		if (m)
			return s * 64 + (uint32_t)__builtin_ctzll(m);
		s = s + 1 == a->nsumm ? 0 : s + 1;
		m = ~*fg_cpa_at(a, 1 + s, i) & fg_cpa_valid(a->nwords, s);
	}
	return 0; /* not reached while used < nports */
}

/* ---- pseudorandom order: a Feistel permutation per address ---- */

void fgen_cpa_shuffle(struct fgen_cpa *a, uint32_t key) { a->key = key; }

/* Half the bits of the indexes' power of 4: nports <= 4^hb (nports <= 65536). */
static inline unsigned fg_cpa_hb(const struct fgen_cpa *a)
{
	unsigned bits = a->nports > 2 ? 32 - (unsigned)__builtin_clz(a->nports - 1) : 1;

	return (bits + 1) / 2;
}

/* Round r's function of half h under address i's key (splitmix64's finaliser). */
static inline uint32_t fg_cpa_f(uint64_t ki, uint32_t h, unsigned r, unsigned hb)
{
	uint64_t z = ki + (uint64_t)h * 0x9e3779b97f4a7c15ull + r * 0xbf58476d1ce4e5b9ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)(z ^ (z >> 31)) & ((1u << hb) - 1);
}

static inline uint64_t fg_cpa_ki(const struct fgen_cpa *a, uint32_t i)
{
	return ((uint64_t)a->key << 32 | a->key) ^ ((uint64_t)i * 0xd1b54a32d192ed03ull);
}

#define FG_CPA_ROUNDS 4

/*
 * The Feistel network over [0, 4^hb), cycle-walked into [0, nports); inv
 * undoes it: the same rounds backwards on the halves swapped. Out of
 * line, so that the increasing order's get and put stay as they were.
 */
static __attribute__((noinline)) uint32_t fg_cpa_walk(const struct fgen_cpa *a, uint32_t i,
						      uint32_t x, bool inv)
{
	uint64_t ki = fg_cpa_ki(a, i);
	unsigned hb = fg_cpa_hb(a);
	uint32_t m = (1u << hb) - 1;

	do {
		uint32_t l = inv ? x & m : x >> hb, r = inv ? x >> hb : x & m;

		for (unsigned n = 0; n < FG_CPA_ROUNDS; n++) {
			uint32_t t = l ^ fg_cpa_f(ki, r, inv ? FG_CPA_ROUNDS - 1 - n : n, hb);

			l = r;
			r = t;
		}
		x = inv ? r << hb | l : l << hb | r;
	} while (x >= a->nports);
	return x;
}

uint32_t fgen_cpa_perm(const struct fgen_cpa *a, uint32_t i, uint32_t k)
{
	return a->key ? fg_cpa_walk(a, i, k, false) : k;
}

uint32_t fgen_cpa_unperm(const struct fgen_cpa *a, uint32_t i, uint32_t p)
{
	return a->key ? fg_cpa_walk(a, i, p, true) : p;
}

int fgen_cpa_get(struct fgen_cpa *a, uint32_t ip, uint16_t *port)
{
	int64_t i = fgen_addrs_index(&a->ips, ip);
	uint64_t *hdr, *word, m, valid;
	uint32_t cur, used, w, b, wrapped;

	if (i < 0)
		return -EINVAL;
	hdr = fg_cpa_at(a, 0, (uint32_t)i);
	wrapped = (uint32_t)*hdr & FG_CPA_WRAPPED;
	cur = (uint32_t)*hdr & ~FG_CPA_WRAPPED;
	used = (uint32_t)(*hdr >> 32);
	if (used == a->nports)
		return -ENOSPC;
	w = cur >> 6;
	word = fg_cpa_at(a, 1 + a->nsumm + w, (uint32_t)i);
	valid = fg_cpa_valid(a->nports, w);
	m = ~*word & valid & (UINT64_MAX << (cur & 63));
	if (!m) {
		w = fg_cpa_word(a, (uint32_t)i, w + 1 == a->nwords ? 0 : w + 1);
		word = fg_cpa_at(a, 1 + a->nsumm + w, (uint32_t)i);
		valid = fg_cpa_valid(a->nports, w);
		m = ~*word & valid;
	}
	b = (uint32_t)__builtin_ctzll(m);
	*word |= 1ull << b;
	if (!(~*word & valid))
		*fg_cpa_at(a, 1 + (w >> 6), (uint32_t)i) |= 1ull << (w & 63);
	b += w * 64;
	/* before the first wrap every port below the cursor was handed out
	 * and none at or above it: a port found below it is a reuse */
	if (!wrapped && b < cur)
		wrapped = FG_CPA_WRAPPED;
	if (!wrapped)
		a->fresh++;
	if (b + 1 == a->nports)
		wrapped = FG_CPA_WRAPPED;
	cur = b + 1 == a->nports ? 0 : b + 1;
	*hdr = (uint64_t)(used + 1) << 32 | wrapped | cur;
	if (__builtin_expect(a->key != 0, 0))
		b = fg_cpa_walk(a, (uint32_t)i, b, false);
	*port = (uint16_t)(a->port_lo + b * a->step);
	return 0;
}

int fgen_cpa_put(struct fgen_cpa *a, uint32_t ip, uint16_t port)
{
	int64_t i = fgen_addrs_index(&a->ips, ip), bit = fg_cpa_bit(a, port);
	uint32_t b, w;
	uint64_t *word;

	if (i < 0 || bit < 0)
		return -EINVAL;
	b = __builtin_expect(a->key != 0, 0) ? fg_cpa_walk(a, (uint32_t)i, (uint32_t)bit, true)
					     : (uint32_t)bit;
	w = b >> 6;
	word = fg_cpa_at(a, 1 + a->nsumm + w, (uint32_t)i);
	if (!(*word & (1ull << (b & 63))))
		return -EINVAL; /* not taken */
	/* the word was full: no longer */
	if (!(~*word & fg_cpa_valid(a->nports, w)))
		*fg_cpa_at(a, 1 + (w >> 6), (uint32_t)i) &= ~(1ull << (w & 63));
	*word &= ~(1ull << (b & 63));
	*fg_cpa_at(a, 0, (uint32_t)i) -= 1ull << 32;
	return 0;
}

uint32_t fgen_cpa_avail(const struct fgen_cpa *a, uint32_t ip)
{
	int64_t i = fgen_addrs_index(&a->ips, ip);

	return i < 0 ? 0 : a->nports - (uint32_t)(*fg_cpa_at(a, 0, (uint32_t)i) >> 32);
}
