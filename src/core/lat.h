/*
 * lat.h — latency histograms, per-stream sequence accounting and the payload
 * signature every test frame carries (flowgen-profile(5), SIGNATURE).
 *
 * Histogram. Log-linear (HDR-like) over one-way delays in nanoseconds:
 * values below 128 ns get exact buckets; above, each power of two is split
 * into 64 equal buckets, so a bucket is at most 1/64 of its values wide and
 * a percentile (reported as the bucket's midpoint, clamped to [min, max]) is
 * within 0.8% of the true sample. The range ends at 2^34 ns (~17 s); longer
 * delays land in the last bucket (min, max, sum stay exact). 1,856 buckets of
 * 8 bytes: a histogram is a flat struct of ~15 KB, copyable through a ring,
 * and two histograms merge by adding (lat_merge).
 *
 * Jitter. Two figures, both from the difference D between consecutive
 * delays seen by one histogram: lat_jitter_ns() is the mean |D| (this is
 * what `stats` shows as jitter; it merges exactly); lat_jitter_rfc3550_ns()
 * is RFC 3550's smoothed J += (|D| - J) / 16 (merging keeps the larger).
 *
 * Summary. lat_summarize() turns a histogram into the figures a report
 * shows (min, avg, max, percentiles, PDV, jitter, in microseconds); frames
 * that never arrived can be counted in the percentiles as infinite delays.
 *
 * Sequence tracker. Per stream: rx (and the bytes of those frames),
 * duplicates, out-of-order (a packet that
 * arrives after a higher sequence number) and, given the sender's tx count,
 * lost = tx - (rx - dup). A sliding bitmap remembers the last LAT_SEQ_WIN
 * sequence numbers below the highest seen. A packet older than that window
 * counts as out of order and as `late`, and cannot be checked for
 * duplication: a duplicate that old counts as received (lost is clamped at
 * 0). 32-bit wire sequence numbers are extended to 64 bits (serial number
 * arithmetic), so wrapping is handled. Counts are exact when one tracker
 * sees all of a stream's packets.
 *
 * Signature. 18 bytes so it fits a 64-byte UDP frame (18-byte payload):
 * magic, 32-bit stream/flow id, 32-bit sequence, the low 40 bits of the TSC
 * at transmission (delay is computed modulo 2^40: exact up to ~360 s at
 * 3 GHz) and a flags byte. Fields are little-endian.
 *
 * Contexts: everything here is *pure*; lat_add, lat_seq_add and the
 * signature helpers run on workers, the rest on control.
 *
 * Included by: every folder.
 */
#ifndef FG_LAT_H
#define FG_LAT_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LAT_SUB_BITS 6	/* 64 buckets per power of two */
#define LAT_MAX_LOG2 34 /* range end: 2^34 ns */
#define LAT_NBUCKETS ((LAT_MAX_LOG2 - LAT_SUB_BITS + 1) << LAT_SUB_BITS) /* 1856 */

struct lat_hist {
	uint64_t count, sum, min, max; /* ns; min is UINT64_MAX when empty */
	uint64_t last;		       /* previous delay, for jitter */
	uint64_t jit_sum, jit_n;       /* sum of |D| and how many D */
	uint64_t jit3550;	       /* RFC 3550 J, scaled by 16 */
	uint64_t bucket[LAT_NBUCKETS];
};

/* pure: empty histogram. */
void lat_init(struct lat_hist *h);

/* pure: bucket index of a delay (exposed for tests). */
static inline unsigned lat_bucket(uint64_t ns)
{
	unsigned e = 63u - (unsigned)__builtin_clzll(ns | 1);
	unsigned g = e > LAT_SUB_BITS ? e - LAT_SUB_BITS : 0;
	uint64_t i = ((uint64_t)g << LAT_SUB_BITS) + (ns >> g);

	return i < LAT_NBUCKETS ? (unsigned)i : LAT_NBUCKETS - 1;
}

/* pure: lowest value and width of a bucket. */
uint64_t lat_bucket_low(unsigned idx);
uint64_t lat_bucket_width(unsigned idx);

/* pure (worker): record one delay in ns. */
static inline void lat_add(struct lat_hist *h, uint64_t ns)
{
	uint64_t d = ns > h->last ? ns - h->last : h->last - ns;

	if (h->count) {
		h->jit_sum += d;
		h->jit_n++;
		h->jit3550 += d - ((h->jit3550 + 8) >> 4);
	}
	h->last = ns;
	h->count++;
	h->sum += ns;
	h->min = ns < h->min ? ns : h->min;
	h->max = ns > h->max ? ns : h->max;
	h->bucket[lat_bucket(ns)]++;
}

/*
 * The powers of two that are the edges of Prometheus buckets (GET
 * /metrics, flowgen(8) API): 2^5 ns (32 ns) up to 2^33 ns (8.6 s). Every
 * power of two begins a bucket (below 128 ns each value has its own), so
 * the counts below each are exact; 2^34 ns is not used, since the last
 * bucket also holds longer delays.
 */
#define LAT_POW2_LO 5
#define LAT_POW2_N (LAT_MAX_LOG2 - LAT_POW2_LO) /* 29 edges: 2^5 .. 2^33 ns */

/* A histogram cut at those edges: cum[i] = the delays below 2^(LAT_POW2_LO + i) ns. */
struct lat_pow2 {
	uint64_t cum[LAT_POW2_N];
	uint64_t count, sum; /* every delay, and their sum in ns */
};

/* pure: h cut at the powers of two. */
void lat_pow2(const struct lat_hist *h, struct lat_pow2 *out);

/* pure: add src into dst (per-worker copies into one). */
void lat_merge(struct lat_hist *dst, const struct lat_hist *src);

/* pure: the q-th percentile (0 < q <= 100) in ns; 0 when empty. */
uint64_t lat_percentile(const struct lat_hist *h, double q);

/* pure: mean delay in ns (0 when empty). */
uint64_t lat_avg_ns(const struct lat_hist *h);

/* pure: jitter: mean |D| / RFC 3550 smoothed, in ns. */
uint64_t lat_jitter_ns(const struct lat_hist *h);
uint64_t lat_jitter_rfc3550_ns(const struct lat_hist *h);

/* What a report shows of a histogram; every figure in microseconds. */
struct lat_summary {
	uint64_t samples;		/* delays measured (the histogram's count) */
	double min_us, avg_us, max_us;	/* 0 when nothing was measured */
	double p50_us, p99_us, p999_us; /* INFINITY when the rank is a lost frame */
	double pdv_us;			/* p99.9 - min (RFC 5481 PDV); INFINITY with p99.9 */
	double jitter_us;		/* mean |D| of consecutive delays (lat_jitter_ns) */
};

/*
 * pure (control): the summary of h. The percentiles rank h's delays plus
 * `lost` frames counted as infinite delays (a lost packet's one-way delay
 * is undefined, informally infinite: RFC 7679); a percentile whose rank
 * falls among them is INFINITY. With lost 0 they are lat_percentile()'s.
 * Everything is 0 when h is empty and nothing was lost.
 */
void lat_summarize(const struct lat_hist *h, uint64_t lost, struct lat_summary *out);

/* pure: the q-th percentile (0..100] of h's delays plus `lost` infinite ones, in ns. */
double lat_pct_lost(const struct lat_hist *h, uint64_t lost, double q);

/* pure: multiplier for lat_tsc_to_ns() (ns per TSC cycle in 32.32). */
uint64_t lat_ns_mult(uint64_t hz);

/* pure (worker): TSC cycles to ns without a division. */
static inline uint64_t lat_tsc_to_ns(uint64_t cycles, uint64_t mult)
{
	return (uint64_t)(((unsigned __int128)cycles * mult) >> 32);
}

#define LAT_SEQ_WIN 4096u /* sequence numbers remembered below the highest */

/*
 * The counts first, in one 64-byte block: a tracker is 64-byte sized, so
 * in an array that starts on a cache line (the streams engine's) next, rx
 * and bytes, which every frame updates, share one line in every tracker.
 */
struct lat_seq {
	uint64_t next; /* highest sequence seen + 1 (64-bit extended) */
	uint64_t rx;
	uint64_t bytes; /* of the rx frames, as lat_seq_add was given them */
	uint64_t dup, ooo, late;
	uint64_t spare_[2]; /* pads the counts to 64 bytes */
	uint64_t win[LAT_SEQ_WIN / 64];
};
_Static_assert(sizeof(struct lat_seq) % 64 == 0, "a tracker is whole cache lines");

/* pure: empty tracker; the stream's first sequence number is 0. */
void lat_seq_init(struct lat_seq *s);

/* pure (worker): account one received sequence number, of a frame of len bytes. */
void lat_seq_add(struct lat_seq *s, uint32_t seq, uint32_t len);

/* pure: lost = tx - (rx - dup), never negative. */
uint64_t lat_seq_lost(const struct lat_seq *s, uint64_t tx);

/* pure: add src's counters into dst (rx, bytes, dup, ooo, late). */
void lat_seq_merge(struct lat_seq *dst, const struct lat_seq *src);

#define LAT_SIG_MAGIC 0x31534746u /* "FGS1" little-endian */
#define LAT_SIG_LEN 18u
#define LAT_TSC_MASK ((1ull << 40) - 1)

enum lat_sig_flag {
	LAT_SIG_F_LATENCY = 1, /* timestamp valid: count in the histogram */
	LAT_SIG_F_REPLY = 2,   /* sent by the server side of a flow */
};

/* The wire layout (packed, unaligned access is fine). */
struct lat_sig {
	uint32_t magic;
	uint32_t id; /* stream id, or flowtab_id() of a flow */
	uint32_t seq;
	uint32_t tsc_lo; /* TSC bits 0..31 */
	uint8_t tsc_hi;	 /* TSC bits 32..39 */
	uint8_t flags;	 /* enum lat_sig_flag */
} __attribute__((packed));

_Static_assert(sizeof(struct lat_sig) == LAT_SIG_LEN, "signature is 18 bytes");

/* pure (worker): write a signature at dst (any alignment). */
static inline void lat_sig_write(void *dst, uint32_t id, uint32_t seq, uint64_t tsc, uint8_t flags)
{
	struct lat_sig s = {
	    .magic = htole32(LAT_SIG_MAGIC),
	    .id = htole32(id),
	    .seq = htole32(seq),
	    .tsc_lo = htole32((uint32_t)tsc),
	    .tsc_hi = (uint8_t)(tsc >> 32),
	    .flags = flags,
	};

	memcpy(dst, &s, sizeof(s));
}

/*
 * pure (worker): the one's-complement sum of a signature's bytes as
 * 16-bit words in memory order (what rte_raw_cksum adds, before folding),
 * split so a sender computes the part shared by a burst once and adds
 * only the sequence number per frame: sum = lat_sig_sum_fixed(...) +
 * lat_sig_sum_seq(seq). Little-endian hosts (the signature is LE).
 */
static inline uint32_t lat_sig_sum_fixed(uint32_t id, uint64_t tsc, uint8_t flags)
{
	_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "signature sums assume LE");
	return (LAT_SIG_MAGIC & 0xffff) + (LAT_SIG_MAGIC >> 16) + (id & 0xffff) + (id >> 16) +
	       (uint32_t)(tsc & 0xffff) + (uint32_t)((tsc >> 16) & 0xffff) +
	       (uint32_t)((tsc >> 32) & 0xff) + ((uint32_t)flags << 8);
}

static inline uint32_t lat_sig_sum_seq(uint32_t seq)
{
	return (seq & 0xffff) + (seq >> 16);
}

/* pure (worker): the part of lat_sig_sum_fixed() the TSC stamp adds. */
static inline uint32_t lat_sig_sum_tsc(uint64_t tsc)
{
	return (uint32_t)(tsc & 0xffff) + (uint32_t)((tsc >> 16) & 0xffff) +
	       (uint32_t)((tsc >> 32) & 0xff);
}

/*
 * pure (worker): stamp a signature written with a TSC of 0: a sender fills
 * a whole burst first and stamps it just before handing it to the NIC, so
 * the fill is not part of the measured delay. The caller adds
 * lat_sig_sum_tsc(tsc) to the frame's checksum.
 */
static inline void lat_sig_stamp(void *sig, uint64_t tsc)
{
	uint8_t *p = sig;
	uint32_t lo = htole32((uint32_t)tsc);

	memcpy(p + offsetof(struct lat_sig, tsc_lo), &lo, sizeof(lo));
	p[offsetof(struct lat_sig, tsc_hi)] = (uint8_t)(tsc >> 32);
}

/*
 * pure (worker): decode the signature at src if len bytes hold one with
 * the right magic. On success fills the fields in host order (tsc holds
 * the 40 stamped bits) and returns true.
 */
static inline bool lat_sig_read(const void *src, size_t len, uint32_t *id, uint32_t *seq,
				uint64_t *tsc, uint8_t *flags)
{
	struct lat_sig s;

	if (len < sizeof(s))
		return false;
	memcpy(&s, src, sizeof(s));
	if (le32toh(s.magic) != LAT_SIG_MAGIC)
		return false;
	*id = le32toh(s.id);
	*seq = le32toh(s.seq);
	*tsc = (uint64_t)s.tsc_hi << 32 | le32toh(s.tsc_lo);
	*flags = s.flags;
	return true;
}

/* pure (worker): delay in TSC cycles from a 40-bit stamp to now. */
static inline uint64_t lat_sig_delay(uint64_t stamp40, uint64_t now_tsc)
{
	return (now_tsc - stamp40) & LAT_TSC_MASK;
}

#endif
