/*
 * fgen.h — field value generators for addresses and ports (RFC 4814).
 *
 * A generator yields values of a range [lo, hi] in one of four modes:
 * fixed, inc, dec (both wrap at the range ends) or rand. rand is a seeded
 * splitmix64 stream (same seed, same sequence; each 64-bit draw serves two
 * values, high half first) mapped to the range with
 * Lemire's multiply-and-reject method: uniform, without modulo bias, and
 * without a division per value (the rejection threshold is precomputed).
 *
 * IPv4 ranges (ipv4 = true) never yield a network or broadcast value: an
 * address whose last octet is 0 or 255 is skipped by every mode (RFC 4814
 * §4.4: testers should not use addresses that produce undesired effects of
 * address processing, as a network or broadcast address may). Internally
 * the valid addresses are numbered densely (254 per /24), so rand draws an
 * index and maps it back with a multiply by the reciprocal of 254.
 *
 * The same generators serve flow client/server address distributions (seq
 * is inc, rand is rand). struct fgen_pair walks address pairs: the i-th
 * address of range A together with the i-th of range B ("host i on port 0
 * talks to host i on port 1"). struct fgen_cpa hands out client source
 * ports per client address and never reuses one while its flow is alive:
 * a per-address bitmap of the ports in use with a one-word-per-64-words
 * summary (bit set = that bitmap word is full), so finding a free port
 * reads at most summary-size + 1 words. It needs 8 B per 64 ports plus
 * 8 B per 4096 ports and 8 B per address: for 254 addresses x 64,512
 * ports that is 254 x 8,200 B = 2,082,800 B (~2 MiB), allocated, but
 * resident only as ports are handed out. An address's words are its
 * cursor and count of ports in use, its summary, its bitmap: rows of one
 * word per address, word r of address i at r * nips + i (so the cursors
 * of all addresses lie together, then the summaries' first words, ...,
 * then every address's bitmap word w side by side). Zero is the initial
 * state of every word (cursor at the first port, none in use, no word
 * full), so the allocator comes from calloc and nothing is written
 * before a port is handed out; the bits past the last port are masked
 * off. Large blocks from calloc are fresh pages that become resident
 * when first written: a run whose addresses have each taken up to
 * their k-th port touches row 0 and k / 64 + 1 bitmap rows (and a
 * summary row once words fill), nips x 8 B each, where a block per
 * address would put every address's first words on a page of its own.
 * The rotation runs over port indexes; in pseudorandom order
 * (fgen_cpa_shuffle) the i-th index of an address stands for the port at
 * a permutation of i of that address's own, so each address still takes
 * every port once before any again, in an order of its own (RFC 9693
 * §4.4 REQUIRES pseudorandom port numbers; RFC 4814 §4.5).
 *
 * Context: pure and safe on a worker (no allocation, no I/O). Creating
 * and freeing a client port allocator (fgen_cpa_init, fgen_cpa_destroy)
 * is control's: fgen_mem.h.
 *
 * Included by: every folder.
 */
#ifndef FG_FGEN_H
#define FG_FGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fgen_mode { FGEN_FIXED = 0, FGEN_INC = 1, FGEN_DEC = 2, FGEN_RAND = 3, FGEN_MODE_COUNT };

/* Printable mode names, indexed by enum fgen_mode ("fixed", "inc", ...). */
extern const char *const fgen_mode_names[FGEN_MODE_COUNT];

/* How fgen_next() makes a value: mode and address kind, chosen at init. */
enum fgen_kind {
	FGEN_K_FIXED,
	FGEN_K_INC,
	FGEN_K_DEC,
	FGEN_K_INC4, /* IPv4: skips .0 and .255 */
	FGEN_K_DEC4,
	FGEN_K_RAND,
	FGEN_K_RAND_FULL, /* the whole 32-bit range */
	FGEN_K_RAND4,
};

struct fgen {
	uint64_t rng;			  /* splitmix64 state */
	uint64_t spare;			  /* unused low half of the last draw | 1 << 32, or 0 */
	uint32_t lo, hi;		  /* normalised range (IPv4: valid ends) */
	uint32_t cur;			  /* inc/dec: the next value */
	uint32_t n;			  /* number of values; 0 means 2^32 */
	uint32_t vbase;			  /* IPv4: dense index of lo */
	uint32_t thresh;		  /* rand: rejection threshold (2^32 - n) mod n */
	uint8_t mode;			  /* enum fgen_mode */
	uint8_t kind;			  /* enum fgen_kind */
	bool ipv4;
};

/*
 * pure: set up a generator over [lo, hi] (host byte order). fixed yields lo.
 * Returns 0, or -EINVAL if lo > hi, the mode is unknown, or an IPv4 range
 * holds no usable address.
 */
int fgen_init(struct fgen *g, enum fgen_mode mode, uint32_t lo, uint32_t hi, bool ipv4,
	      uint64_t seed);

/* pure: restart the sequence (inc/dec from their first value, rand from seed). */
void fgen_reset(struct fgen *g, uint64_t seed);

/* pure: a seed per stream and field derived from the profile seed. */
uint64_t fgen_subseed(uint64_t seed, uint32_t stream, uint32_t field);

/* pure: the next value of a splitmix64 stream (exposed for tests and jitter). */
static inline uint64_t fgen_rand64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Dense numbering of usable IPv4 addresses: 254 per /24 (.1 .. .254). */
static inline uint32_t fgen_vi_(uint32_t a) { return (a >> 8) * 254u + (a & 0xffu) - 1u; }

/* Inverse of fgen_vi_: v / 254 by multiplying with ceil(2^64 / 254), exact for 32-bit v. */
static inline uint32_t fgen_vmap_(uint32_t v)
{
	const uint64_t m = UINT64_MAX / 254u + 1u;
	uint32_t q = (uint32_t)(((unsigned __int128)v * m) >> 64);

	return q << 8 | (v - q * 254u + 1u);
}

/* 32 random bits: each splitmix64 draw gives two values, high half first. */
static inline uint32_t fgen_rand32_(uint64_t *rng, uint64_t *spare)
{
	uint64_t z;

	if (*spare) {
		z = *spare;
		*spare = 0;
		return (uint32_t)z;
	}
	z = fgen_rand64(rng);
	*spare = (z & 0xffffffffu) | 1ull << 32;
	return (uint32_t)(z >> 32);
}

/* Uniform in [0, n), 0 < n, no modulo bias (Lemire 2019). */
static inline uint32_t fgen_bounded_(uint64_t *rng, uint64_t *spare, uint32_t n, uint32_t thresh)
{
	uint64_t m = (uint64_t)fgen_rand32_(rng, spare) * n;

	if ((uint32_t)m < n) {
		while ((uint32_t)m < thresh)
			m = (uint64_t)fgen_rand32_(rng, spare) * n;
	}
	return (uint32_t)(m >> 32);
}

/* pure (worker): the next value. */
static inline __attribute__((always_inline)) uint32_t fgen_next(struct fgen *g)
{
	uint32_t v = g->cur, nx;

	switch (g->kind) {
	case FGEN_K_FIXED:
		return g->lo;
	case FGEN_K_INC:
		g->cur = v == g->hi ? g->lo : v + 1;
		return v;
	case FGEN_K_DEC:
		g->cur = v == g->lo ? g->hi : v - 1;
		return v;
	case FGEN_K_INC4:
		nx = v + 1;
		nx += (nx & 0xffu) == 0xffu ? 2 : 0; /* .254 -> next .1 */
		g->cur = v == g->hi ? g->lo : nx;
		return v;
	case FGEN_K_DEC4:
		nx = v - 1;
		nx -= (nx & 0xffu) == 0 ? 2 : 0; /* .1 -> previous .254 */
		g->cur = v == g->lo ? g->hi : nx;
		return v;
	case FGEN_K_RAND:
		return g->lo + fgen_bounded_(&g->rng, &g->spare, g->n, g->thresh);
	case FGEN_K_RAND_FULL:
		return fgen_rand32_(&g->rng, &g->spare);
	default: /* FGEN_K_RAND4 */
		return fgen_vmap_(g->vbase + fgen_bounded_(&g->rng, &g->spare, g->n, g->thresh));
	}
}

/*
 * rand (and rand4 before its mapping): n draws in [0, n), each plus add,
 * into out[], two per splitmix64 value (high half first, as
 * fgen_rand32_() hands them out). A draw that may need rejecting
 * (probability thresh / 2^32 per value) steps the counter back and
 * finishes the burst one value at a time, so the sequence is the one
 * fgen_bounded_() gives.
 */
static inline __attribute__((always_inline)) void fgen_fill_rand_(struct fgen *g, uint32_t *out,
								   uint32_t n, uint32_t add)
{
	uint64_t rng = g->rng, spare = g->spare, gn = g->n;
	uint32_t thresh = g->thresh, i = 0;

	if (spare && n)
		out[i++] = add + fgen_bounded_(&rng, &spare, g->n, thresh);
	while (!spare && i + 2 <= n) {
		uint64_t z = fgen_rand64(&rng);
		uint64_t h = (z >> 32) * gn, l = (z & 0xffffffffu) * gn;

		if (__builtin_expect((uint32_t)h < thresh || (uint32_t)l < thresh, 0)) {
			rng -= 0x9e3779b97f4a7c15ull; /* draw z again below */
			break;
		}
		out[i] = add + (uint32_t)(h >> 32);
		out[i + 1] = add + (uint32_t)(l >> 32);
		i += 2;
	}
	for (; i < n; i++)
		out[i] = add + fgen_bounded_(&rng, &spare, g->n, thresh);
	g->rng = rng;
	g->spare = spare;
}

/*
 * pure (worker): the next n values into out[], as n fgen_next() calls
 * would give them. The mode is tested once and the state lives in
 * registers for the loop: a sender fills a burst's fields with it.
 */
static inline void fgen_fill(struct fgen *g, uint32_t *out, uint32_t n)
{
	uint64_t rng = g->rng, spare = g->spare;
	uint32_t i;

	switch (g->kind) {
	case FGEN_K_FIXED:
		for (i = 0; i < n; i++)
			out[i] = g->lo;
		return;
	case FGEN_K_RAND:
		fgen_fill_rand_(g, out, n, g->lo);
		return;
	case FGEN_K_RAND4:
		fgen_fill_rand_(g, out, n, g->vbase);
		for (i = 0; i < n; i++)
			out[i] = fgen_vmap_(out[i]);
		return;
	case FGEN_K_RAND_FULL:
		for (i = 0; i < n; i++)
			out[i] = fgen_rand32_(&rng, &spare);
		g->rng = rng;
		g->spare = spare;
		return;
	case FGEN_K_INC: {
		uint32_t v = g->cur;

		for (i = 0; i < n; i++) {
			out[i] = v;
			v = v == g->hi ? g->lo : v + 1;
		}
		g->cur = v;
		return;
	}
	default:
		for (i = 0; i < n; i++)
			out[i] = fgen_next(g);
		return;
	}
}

/* pure: number of distinct values (0 means 2^32). */
uint32_t fgen_count(const struct fgen *g);

/* pure: the i-th value of the range, 0 <= i < count. */
uint32_t fgen_at(const struct fgen *g, uint32_t i);

/* pure: position of value v in the range, or -1 if it is not a value of it. */
int64_t fgen_index(const struct fgen *g, uint32_t v);

/* Address pairs: value i of range A with value i of range B. */
struct fgen_pair {
	struct fgen a, b; /* the two ranges, truncated to the same count */
	struct fgen idx;  /* walks 0 .. count-1 in the chosen mode */
};

/*
 * pure: pairs over [alo, ahi] x [blo, bhi]; the longer range is truncated
 * to the length of the shorter. Returns 0 or -EINVAL.
 */
int fgen_pair_init(struct fgen_pair *p, enum fgen_mode mode, uint32_t alo, uint32_t ahi,
		   uint32_t blo, uint32_t bhi, bool ipv4, uint64_t seed);

/* pure (worker): the next pair. */
void fgen_pair_next(struct fgen_pair *p, uint32_t *a, uint32_t *b);

/*
 * An address set: a range, walked by an fgen over it (an IPv4 range skips
 * .0 and .255), or a list (a profile's `list:`, flowgen-profile(5)) in the
 * order given, walked by an fgen over its positions 0 .. n-1 (inc or
 * rand). A list's addresses are found by binary search in a sorted copy
 * (address << 32 | position). The arrays are the set's own: made and
 * freed by control (fgen_mem.h); copies of the struct share them.
 */
struct fgen_addrs {
	struct fgen g;
	const uint32_t *list;	/* NULL: a range */
	const uint64_t *sorted; /* list: address << 32 | position, ascending */
	uint32_t n;		/* list: its length */
	void *mem;		/* list: the block holding both arrays */
};

/* pure: a range set; fgen_init()'s arguments and result (IPv4 rules on). */
int fgen_addrs_range(struct fgen_addrs *a, enum fgen_mode mode, uint32_t lo, uint32_t hi,
		     uint64_t seed);

/* pure (worker): the next address of the set. */
static inline __attribute__((always_inline)) uint32_t fgen_addrs_next(struct fgen_addrs *a)
{
	uint32_t v = fgen_next(&a->g);

	return a->list ? a->list[v] : v;
}

/* pure: addresses in the set (0 means 2^32, a full range). */
uint32_t fgen_addrs_count(const struct fgen_addrs *a);

/* pure: position of address v in the set (its dense index), or -1. */
int64_t fgen_addrs_index(const struct fgen_addrs *a, uint32_t v);

/*
 * pure (worker): v is one of a list's addresses, or between a range's
 * ends (an address ending in .0 or .255 inside the range too, which a
 * peer other than flowgen may use though flowgen sends from none).
 */
static inline bool fgen_addrs_has(const struct fgen_addrs *a, uint32_t v)
{
	return a->list ? fgen_addrs_index(a, v) >= 0 : v >= a->g.lo && v <= a->g.hi;
}

/*
 * Client (ip, port) allocator over an address set and the ports
 * port_lo, port_lo + step, ... up to port_hi: a worker's share of a
 * client port range (own.h gives worker q of nq the ports p with
 * p mod nq == q).
 */
struct fgen_cpa {
	uint64_t *mem;	       /* rows of nips words: [cursor|used] [summary] [bitmap] */
	struct fgen_addrs ips; /* the addresses (for index mapping; arrays shared) */
	uint32_t nips, nports, nwords, nsumm;
	uint16_t port_lo, step;
	uint32_t key;	/* 0: ports in increasing order; else the permutations' key */
	uint64_t fresh; /* (address, port) pairs handed out for the first time */
};

/* pure: bytes fgen_cpa_init() allocates. */
size_t fgen_cpa_mem_size(uint32_t nips, uint32_t nports);

/*
 * worker: a free source port for address ip, taken in rotating order (the
 * port after the last one handed out, so a just-freed port is reused as late
 * as possible). Until an address's rotation first wraps, every port it hands
 * out is new: those count in a->fresh, the distinct client (address, port)
 * pairs the allocator has used. Returns 0, -ENOSPC (all ports of ip busy)
 * or -EINVAL (ip not in the range).
 */
int fgen_cpa_get(struct fgen_cpa *a, uint32_t ip, uint16_t *port);

/* worker: give a port back. -EINVAL if it was not taken or is out of range. */
int fgen_cpa_put(struct fgen_cpa *a, uint32_t ip, uint16_t port);

/* pure: free ports left for ip (0 if ip is not in the range). */
uint32_t fgen_cpa_avail(const struct fgen_cpa *a, uint32_t ip);

/*
 * pure: hand the ports out in a pseudorandom order from now on (before
 * the first fgen_cpa_get): address i's k-th port index is perm(i, k), a
 * permutation of the indexes drawn from key and i (a four-round Feistel
 * network over the next power of 4, cycle-walked into the range). key 0
 * keeps increasing order.
 */
void fgen_cpa_shuffle(struct fgen_cpa *a, uint32_t key);

/* pure: index k's port index for address index i, and back (tests). */
uint32_t fgen_cpa_perm(const struct fgen_cpa *a, uint32_t i, uint32_t k);
uint32_t fgen_cpa_unperm(const struct fgen_cpa *a, uint32_t i, uint32_t p);

#endif
