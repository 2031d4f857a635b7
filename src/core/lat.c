/*
 * lat.c — histogram queries, merging and summaries, and the sequence
 * tracker's window: pure code that control runs on the workers' copies
 * (lat_seq_add is the exception, run by workers per received frame). The
 * other per-packet paths (lat_add, the signature helpers) are inline in
 * lat.h.
 */
#include <math.h>
#include <string.h>

#include "fg.h"
#include "lat.h"

void lat_init(struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

uint64_t lat_bucket_low(unsigned idx)
{
	unsigned g;

	if (idx < 2u << LAT_SUB_BITS)
		return idx;
	g = (idx >> LAT_SUB_BITS) - 1;
	return (uint64_t)((idx & ((1u << LAT_SUB_BITS) - 1)) + (1u << LAT_SUB_BITS)) << g;
}

uint64_t lat_bucket_width(unsigned idx)
{
	return idx < 2u << LAT_SUB_BITS ? 1 : 1ull << ((idx >> LAT_SUB_BITS) - 1);
}

void lat_pow2(const struct lat_hist *h, struct lat_pow2 *out)
{
	uint64_t n = 0;
	unsigned b = 0;

	out->count = h->count;
	out->sum = h->sum;

	for (int i = 0; i < LAT_POW2_N; i++) {
		/* the first bucket of 2^k: every one before it is below 2^k */
		unsigned end = lat_bucket(1ull << (LAT_POW2_LO + i));

		for (; b < end; b++)
			n += h->bucket[b];
		out->cum[i] = n;
	}
}

void lat_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	unsigned i;

	for (i = 0; i < LAT_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
	dst->jit_sum += src->jit_sum;
	dst->jit_n += src->jit_n;
	dst->jit3550 = src->jit3550 > dst->jit3550 ? src->jit3550 : dst->jit3550;
}

uint64_t lat_percentile(const struct lat_hist *h, double q)
{
	uint64_t rank, seen = 0, v;
	unsigned i;

	if (!h->count)
		return 0;
	if (!(q > 0))
		return h->min;
	rank = q >= 100 ? h->count : (uint64_t)ceil(q / 100.0 * (double)h->count);
	if (rank == 0)
		rank = 1;
	for (i = 0; i < LAT_NBUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == LAT_NBUCKETS)
		return h->max;
	v = lat_bucket_low(i) + (lat_bucket_width(i) - 1) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

uint64_t lat_avg_ns(const struct lat_hist *h) { return h->count ? h->sum / h->count : 0; }

uint64_t lat_jitter_ns(const struct lat_hist *h) { return h->jit_n ? h->jit_sum / h->jit_n : 0; }

uint64_t lat_jitter_rfc3550_ns(const struct lat_hist *h) { return h->jit3550 >> 4; }

double lat_pct_lost(const struct lat_hist *h, uint64_t lost, double q)
{
	double n = (double)h->count + (double)lost, rank;

	if (n == 0)
		return 0;
	rank = ceil(q / 100.0 * n);
	if (rank < 1)
		rank = 1;
	if (rank > (double)h->count)
		return INFINITY;
	/* the rank among the measured delays, mid-way so that ceil() in
	 * lat_percentile lands on it whatever the rounding */
	return (double)lat_percentile(h, (rank - 0.5) * 100.0 / (double)h->count);
}

void lat_summarize(const struct lat_hist *h, uint64_t lost, struct lat_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->samples = h->count;
	if (h->count) {
		out->min_us = (double)h->min / 1000;
		out->avg_us = (double)lat_avg_ns(h) / 1000;
		out->max_us = (double)h->max / 1000;
		out->jitter_us = (double)lat_jitter_ns(h) / 1000;
	}
	if (!h->count && !lost)
		return;
	out->p50_us = lat_pct_lost(h, lost, 50) / 1000;
	out->p99_us = lat_pct_lost(h, lost, 99) / 1000;
	out->p999_us = lat_pct_lost(h, lost, 99.9) / 1000;
	out->pdv_us = isinf(out->p999_us) ? INFINITY : out->p999_us - out->min_us;
}

uint64_t lat_ns_mult(uint64_t hz)
{
	return hz ? (uint64_t)(((unsigned __int128)1000000000u << 32) / hz) : 0;
}

void lat_seq_init(struct lat_seq *s) { memset(s, 0, sizeof(*s)); }

/* Forget the window positions of sequence numbers [from, to]. */
static void lat_seq_clear(struct lat_seq *s, uint64_t from, uint64_t to)
{
	const unsigned nw = LAT_SEQ_WIN / 64;

	if (to - from + 1 >= LAT_SEQ_WIN) {
		memset(s->win, 0, sizeof(s->win));
		return;
	}
	while (from <= to) {
		unsigned pos = (unsigned)(from & (LAT_SEQ_WIN - 1)), w = pos >> 6, b = pos & 63;
		uint64_t n = FG_MIN(64u - b, to - from + 1);
		uint64_t m = n == 64 ? UINT64_MAX : ((1ull << n) - 1) << b;

		s->win[w % nw] &= ~m;
		from += n;
	}
}

void lat_seq_add(struct lat_seq *s, uint32_t seq, uint32_t len)
{
	int32_t diff = (int32_t)(seq - (uint32_t)s->next);
	uint64_t x, bit;
	unsigned pos;

	s->rx++;
	s->bytes += len;
	if (diff >= 0) {
		x = s->next + (uint64_t)diff;
		if (diff > 0)
			lat_seq_clear(s, s->next, x - 1);
		pos = (unsigned)(x & (LAT_SEQ_WIN - 1));
		s->win[pos >> 6] |= 1ull << (pos & 63);
		s->next = x + 1;
		return;
	}
	/* Older than the highest seen. */
	if ((uint64_t)(-(int64_t)diff) > s->next || (uint64_t)(-(int64_t)diff) > LAT_SEQ_WIN) {
		s->ooo++;
		s->late++;
		return;
	}
	x = s->next + (uint64_t)(int64_t)diff;
	pos = (unsigned)(x & (LAT_SEQ_WIN - 1));
	bit = 1ull << (pos & 63);
	if (s->win[pos >> 6] & bit) {
		s->dup++;
	} else {
		s->win[pos >> 6] |= bit;
		s->ooo++;
	}
}

uint64_t lat_seq_lost(const struct lat_seq *s, uint64_t tx)
{
	uint64_t got = s->rx - s->dup;

	return tx > got ? tx - got : 0;
}

void lat_seq_merge(struct lat_seq *dst, const struct lat_seq *src)
{
	dst->rx += src->rx;
	dst->bytes += src->bytes;
	dst->dup += src->dup;
	dst->ooo += src->ooo;
	dst->late += src->late;
}
