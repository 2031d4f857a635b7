/*
 * test_lat.c — latency histogram against a sorted reference, merging,
 * jitter, summaries with and without lost frames, the sequence tracker
 * under injected loss/duplication/reordering, and the payload signature
 * round trip.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lat.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Log-uniform between 1 us and 10 ms, plus a few sub-128 ns values. */
static uint64_t sample(void)
{
	if (rnd() % 100 == 0)
		return rnd() % 128;
	return (uint64_t)(1000.0 * pow(10000.0, (double)(rnd() >> 11) / 9007199254740992.0));
}

static int cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_buckets(void **state)
{
	(void)state;
	/* Every value falls in a bucket whose range holds it; width <= low/64. */
	for (int i = 0; i < 200000; i++) {
		uint64_t v = i < 1000 ? (uint64_t)i : rnd() >> (rnd() % 34 + 30);
		unsigned b = lat_bucket(v);

		if (v >= 1ull << LAT_MAX_LOG2)
			continue;
		assert_true(b < LAT_NBUCKETS);
		assert_true(lat_bucket_low(b) <= v);
		assert_true(v < lat_bucket_low(b) + lat_bucket_width(b));
		if (v >= 128)
			assert_true(lat_bucket_width(b) * 64 <= lat_bucket_low(b));
	}
	/* Buckets are contiguous and increasing. */
	for (unsigned b = 1; b < LAT_NBUCKETS; b++)
		assert_int_equal(lat_bucket_low(b),
				 lat_bucket_low(b - 1) + lat_bucket_width(b - 1));
	assert_int_equal(lat_bucket(UINT64_MAX), LAT_NBUCKETS - 1);
	assert_true(lat_bucket_low(LAT_NBUCKETS - 1) + lat_bucket_width(LAT_NBUCKETS - 1) ==
		    1ull << LAT_MAX_LOG2);
}

static void check_pct(const struct lat_hist *h, const uint64_t *sorted, size_t n, double q)
{
	size_t rank = (size_t)ceil(q / 100.0 * (double)n);
	uint64_t ref = sorted[rank ? rank - 1 : 0], got = lat_percentile(h, q);
	uint64_t tol = ref / 128 + 1; /* half a bucket: <= 1/128 of the value */

	assert_true(got + tol >= ref && got <= ref + tol);
}

static void test_percentiles(void **state)
{
	const size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v)), sum = 0;
	struct lat_hist *h = malloc(sizeof(*h));
	const double qs[] = {1, 10, 50, 90, 99, 99.9, 99.99, 100};

	(void)state;
	lat_init(h);
	assert_int_equal(lat_percentile(h, 50), 0);
	for (size_t i = 0; i < n; i++) {
		v[i] = sample();
		sum += v[i];
		lat_add(h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp64);
	assert_int_equal(h->count, n);
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[n - 1]);
	assert_int_equal(lat_avg_ns(h), sum / n);
	for (unsigned i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		check_pct(h, v, n, qs[i]);
	assert_int_equal(lat_percentile(h, 100), v[n - 1]);
	free(v);
	free(h);
}

static void test_merge(void **state)
{
	struct lat_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)),
			*all = malloc(sizeof(*all));

	(void)state;
	lat_init(a);
	lat_init(b);
	lat_init(all);
	for (int i = 0; i < 50000; i++) {
		uint64_t x = sample();

		lat_add(i % 3 ? a : b, x);
		lat_add(all, x);
	}
	lat_merge(a, b);
	assert_memory_equal(a->bucket, all->bucket, sizeof(all->bucket));
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->sum, all->sum);
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->max, all->max);
	assert_int_equal(lat_percentile(a, 99), lat_percentile(all, 99));
	/* Merging an empty histogram changes nothing; a copy is a snapshot. */
	lat_init(b);
	*all = *a;
	lat_merge(a, b);
	assert_memory_equal(a, all, sizeof(*a));
	free(a);
	free(b);
	free(all);
}

static void test_jitter(void **state)
{
	struct lat_hist h;

	(void)state;
	lat_init(&h);
	lat_add(&h, 5000);
	assert_int_equal(lat_jitter_ns(&h), 0);
	for (int i = 0; i < 1000; i++)
		lat_add(&h, i % 2 ? 5000 : 5400); /* |D| = 400 every time */
	assert_int_equal(lat_jitter_ns(&h), 400);
	/* RFC 3550's J converges to |D| (within its 1/16 smoothing). */
	assert_in_range(lat_jitter_rfc3550_ns(&h), 390, 400);
	/* Constant delay: no jitter. */
	lat_init(&h);
	for (int i = 0; i < 100; i++)
		lat_add(&h, 777);
	assert_int_equal(lat_jitter_ns(&h), 0);
	assert_int_equal(lat_jitter_rfc3550_ns(&h), 0);
}

static void test_tsc(void **state)
{
	uint64_t m = lat_ns_mult(2500000000ull);

	(void)state;
	assert_int_equal(lat_tsc_to_ns(2500000000ull, m), 999999999);
	assert_in_range(lat_tsc_to_ns(2500, m), 999, 1000);
	assert_in_range(lat_tsc_to_ns(25000000000000ull, m), 9999999990000ull, 10000000000000ull);
}

/* Reference: a packet is ooo if not a duplicate and below the max seen. */
static void seq_run(const uint32_t *rxs, size_t n, uint64_t tx, uint64_t want_dup,
		    uint64_t want_ooo, uint64_t want_lost)
{
	struct lat_seq s;

	lat_seq_init(&s);
	for (size_t i = 0; i < n; i++)
		lat_seq_add(&s, rxs[i], 64 + (uint32_t)(i % 3));
	assert_int_equal(s.rx, n);
	assert_int_equal(s.bytes, 64 * n + n / 3 * 3 + (n % 3 == 2 ? 1 : 0));
	assert_int_equal(s.dup, want_dup);
	assert_int_equal(s.ooo, want_ooo);
	assert_int_equal(lat_seq_lost(&s, tx), want_lost);
}

static void test_seq_inject(void **state)
{
	const uint32_t tx = 100000;
	uint32_t *rxs = malloc(3 * tx * sizeof(*rxs));
	uint8_t *seen = calloc(tx, 1);
	uint64_t dup = 0, ooo = 0, lost = 0, max = 0;
	size_t n = 0;
	uint32_t i;

	(void)state;
	/* The sender's sequence with loss, duplicates and local reordering. */
	for (i = 0; i < tx; i++) {
		uint64_t r = rnd() % 1000;

		if (r < 10) { /* 1% loss */
			lost++;
			continue;
		}
		rxs[n++] = i;
		if (r < 15) /* 0.5% duplicated, possibly later */
			rxs[n++] = i;
	}
	for (i = 0; i + 1 < n; i += 50) { /* swap neighbours now and then */
		size_t j = i + 1 + rnd() % 20;

		if (j < n) {
			uint32_t t = rxs[i];

			rxs[i] = rxs[j];
			rxs[j] = t;
		}
	}
	/* Expected counts from a plain model (max = highest seen + 1). */
	for (size_t k = 0; k < n; k++) {
		uint32_t q = rxs[k];

		if (seen[q]) {
			dup++;
		} else {
			seen[q] = 1;
			if (q < max) /* below the highest seen */
				ooo++;
		}
		if (q + 1 > max)
			max = q + 1;
	}
	assert_true(dup > 0 && ooo > 0 && lost > 0);
	seq_run(rxs, n, tx, dup, ooo, lost);
	free(rxs);
	free(seen);
}

static void test_seq_simple(void **state)
{
	const uint32_t a[] = {0, 1, 2, 4, 3, 3, 5, 7, 6, 6, 9};
	struct lat_seq s;

	(void)state;
	/* dup: second 3 and second 6; ooo: 3 (after 4), 6 (after 7); lost: 8. */
	seq_run(a, sizeof(a) / sizeof(a[0]), 10, 2, 2, 1);
	/* Wrap of the 32-bit wire sequence. */
	lat_seq_init(&s);
	s.next = 0xfffffff0ull;
	for (uint32_t q = 0xfffffff0u; q != 0x10; q++)
		lat_seq_add(&s, q, 64);
	lat_seq_add(&s, 0xfffffffeu, 64); /* dup across the wrap */
	assert_int_equal(s.next, 0x100000010ull);
	assert_int_equal(s.dup, 1);
	assert_int_equal(s.ooo, 0);
	/* Beyond the window: counted late and ooo, not dup-checked. */
	lat_seq_init(&s);
	for (uint32_t q = 0; q < LAT_SEQ_WIN + 100; q++)
		if (q != 10)
			lat_seq_add(&s, q, 64);
	lat_seq_add(&s, 10, 64);
	lat_seq_add(&s, 200, 64); /* in window: a real duplicate */
	assert_int_equal(s.late, 1);
	assert_int_equal(s.ooo, 1);
	assert_int_equal(s.dup, 1);
	assert_int_equal(lat_seq_lost(&s, LAT_SEQ_WIN + 100), 0);
	/* A big gap forgets nothing wrongly: skipped numbers arrive later. */
	lat_seq_init(&s);
	lat_seq_add(&s, 0, 64);
	lat_seq_add(&s, 3000, 64);
	lat_seq_add(&s, 1500, 64);
	lat_seq_add(&s, 1500, 1518);
	assert_int_equal(s.bytes, 3 * 64 + 1518); /* a duplicate's bytes count, as its frame does */
	assert_int_equal(s.ooo, 1);
	assert_int_equal(s.dup, 1);
	assert_int_equal(lat_seq_lost(&s, 3001), 2998);
}

static void test_sig(void **state)
{
	unsigned char buf[64];
	uint32_t id, seq;
	uint64_t tsc;
	uint8_t flags;

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	lat_sig_write(buf + 3, 0xdeadbeef, 0x01020304, 0x123456789abcdefull, LAT_SIG_F_LATENCY);
	assert_int_equal(buf[2], 0xee);
	assert_int_equal(buf[3 + LAT_SIG_LEN], 0xee);
	assert_true(lat_sig_read(buf + 3, LAT_SIG_LEN, &id, &seq, &tsc, &flags));
	assert_int_equal(id, 0xdeadbeef);
	assert_int_equal(seq, 0x01020304);
	assert_int_equal(tsc, 0x123456789abcdefull & LAT_TSC_MASK);
	assert_int_equal(flags, LAT_SIG_F_LATENCY);
	/* Too short, or a wrong magic: refused. */
	assert_false(lat_sig_read(buf + 3, LAT_SIG_LEN - 1, &id, &seq, &tsc, &flags));
	buf[4] ^= 1;
	assert_false(lat_sig_read(buf + 3, LAT_SIG_LEN, &id, &seq, &tsc, &flags));
	/* Delay across the 40-bit wrap of the stamp. */
	assert_int_equal(lat_sig_delay(LAT_TSC_MASK - 99, (1ull << 40) * 7 + 50), 150);
	assert_int_equal(lat_sig_delay(1000 & LAT_TSC_MASK, 3500), 2500);
}

/* One's-complement sum of a buffer's 16-bit words in memory order. */
static uint32_t sum16(const unsigned char *b, size_t len)
{
	uint32_t s = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		s += (uint32_t)(b[i] | b[i + 1] << 8);
	return s;
}

static uint16_t fold16(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/*
 * A signature written with a TSC of 0 and stamped later holds the same
 * bytes as one written with the TSC, and the stamp's sum is what the
 * written sum lacks: a burst is filled first and stamped just before TX.
 */
static void test_sig_stamp(void **state)
{
	const uint64_t tscs[] = {0, 1, 0xffff, 0x10000, 0x123456789aull, LAT_TSC_MASK,
				 0xfedcba9876543210ull};
	unsigned char a[LAT_SIG_LEN], b[LAT_SIG_LEN];

	(void)state;
	for (size_t i = 0; i < sizeof(tscs) / sizeof(tscs[0]); i++) {
		uint64_t t = tscs[i];

		lat_sig_write(a, 0x00c3a105, 77 + (uint32_t)i, t, LAT_SIG_F_LATENCY);
		lat_sig_write(b, 0x00c3a105, 77 + (uint32_t)i, 0, LAT_SIG_F_LATENCY);
		lat_sig_stamp(b, t);
		assert_memory_equal(a, b, LAT_SIG_LEN);
		assert_int_equal(fold16(lat_sig_sum_fixed(0x00c3a105, 0, LAT_SIG_F_LATENCY) +
					lat_sig_sum_tsc(t)),
				 fold16(lat_sig_sum_fixed(0x00c3a105, t, LAT_SIG_F_LATENCY)));
		assert_int_equal(fold16(lat_sig_sum_fixed(0x00c3a105, t, LAT_SIG_F_LATENCY) +
					lat_sig_sum_seq(77 + (uint32_t)i)),
				 fold16(sum16(a, LAT_SIG_LEN)));
	}
}

/*
 * lat_summarize on 1..1000 us: min/avg/max exact, percentiles those of
 * lat_percentile with no loss, pushed up by lost frames and INFINITY once
 * their rank is a lost one; an empty histogram sums to zeros.
 */
static void test_summarize(void **state)
{
	struct lat_hist *h = malloc(sizeof(*h));
	struct lat_summary s;

	(void)state;
	lat_init(h);
	lat_summarize(h, 0, &s);
	assert_int_equal(s.samples, 0);
	assert_true(s.min_us == 0 && s.max_us == 0 && s.p50_us == 0 && s.p999_us == 0 &&
		    s.pdv_us == 0 && s.jitter_us == 0);
	/* nothing measured, some lost: every percentile is a lost frame */
	lat_summarize(h, 5, &s);
	assert_true(s.min_us == 0 && isinf(s.p50_us) && isinf(s.p999_us) && isinf(s.pdv_us));

	for (uint64_t i = 1; i <= 1000; i++)
		lat_add(h, i * 1000);
	lat_summarize(h, 0, &s);
	assert_int_equal(s.samples, 1000);
	assert_true(fabs(s.min_us - 1) < 1e-9);
	assert_true(fabs(s.max_us - 1000) < 1e-9);
	assert_true(fabs(s.avg_us - 500.5) < 1e-9);
	assert_true(fabs(s.jitter_us - 1) < 1e-9);
	assert_true(s.p50_us == (double)lat_percentile(h, 50) / 1000);
	assert_true(s.p99_us == (double)lat_percentile(h, 99) / 1000);
	assert_true(s.p999_us == (double)lat_percentile(h, 99.9) / 1000);
	assert_true(fabs(s.p50_us - 500) < 500 * 0.01);
	assert_true(fabs(s.pdv_us - (s.p999_us - s.min_us)) < 1e-9);
	assert_true(s.p50_us <= s.p99_us && s.p99_us <= s.p999_us && s.p999_us <= s.max_us);

	/* one lost of 1,001: p99.9's rank (1,000) is still a measured one */
	lat_summarize(h, 1, &s);
	assert_true(isfinite(s.p999_us));
	/* two lost of 1,002: p99.9's rank (1,001) is a lost frame */
	lat_summarize(h, 2, &s);
	assert_true(isinf(s.p999_us) && isinf(s.pdv_us) && isfinite(s.p99_us));
	assert_true(fabs(s.min_us - 1) < 1e-9 && fabs(s.max_us - 1000) < 1e-9);
	/* lost frames push the percentiles up; half lost: the median too is lost */
	lat_summarize(h, 100, &s);
	assert_true(s.p50_us > (double)lat_percentile(h, 50) / 1000);
	lat_summarize(h, 1001, &s);
	assert_true(isinf(s.p50_us));
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_buckets),    cmocka_unit_test(test_percentiles),
	    cmocka_unit_test(test_merge),      cmocka_unit_test(test_jitter),
	    cmocka_unit_test(test_tsc),	       cmocka_unit_test(test_seq_simple),
	    cmocka_unit_test(test_seq_inject), cmocka_unit_test(test_sig),
	    cmocka_unit_test(test_sig_stamp),
	    cmocka_unit_test(test_summarize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
