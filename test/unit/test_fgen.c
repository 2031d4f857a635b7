/*
 * test_fgen.c — field generators: reproducible rand, uniform coverage
 * (chi-square), no .0/.255 addresses, inc/dec wrap, single values, pairs,
 * and the client port allocator (no reuse while taken, rotation, memory,
 * against a model; resident only as ports are handed out).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cmocka.h>

#include "fgen.h"
#include "fgen_mem.h"

#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

/* An allocator over the IPv4 range [ip_lo, ip_hi] and every port of [lo, hi]. */
static int cpa_range(struct fgen_cpa *a, uint32_t ip_lo, uint32_t ip_hi, uint16_t lo, uint16_t hi)
{
	struct fgen_addrs ips;
	int rc = fgen_addrs_range(&ips, FGEN_INC, ip_lo, ip_hi, 0);

	return rc ? rc : fgen_cpa_init(a, &ips, lo, hi, 1);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(fgen_mode_names[FGEN_FIXED], "fixed");
	assert_string_equal(fgen_mode_names[FGEN_INC], "inc");
	assert_string_equal(fgen_mode_names[FGEN_DEC], "dec");
	assert_string_equal(fgen_mode_names[FGEN_RAND], "rand");
}

static void test_invalid(void **state)
{
	struct fgen g;

	(void)state;
	assert_int_equal(fgen_init(&g, FGEN_INC, 10, 9, false, 1), -EINVAL);
	assert_int_equal(fgen_init(&g, (enum fgen_mode)7, 1, 9, false, 1), -EINVAL);
	/* Only a broadcast and a network address: nothing usable. */
	assert_int_equal(fgen_init(&g, FGEN_INC, IP(10, 0, 0, 255), IP(10, 0, 1, 0), true, 1),
			 -EINVAL);
	assert_int_equal(fgen_init(&g, FGEN_FIXED, IP(10, 0, 0, 0), IP(10, 0, 0, 0), true, 1),
			 -EINVAL);
}

static void test_same_seed(void **state)
{
	struct fgen a, b, c;
	int same = 0;

	(void)state;
	assert_int_equal(fgen_init(&a, FGEN_RAND, 1024, 65535, false, 42), 0);
	assert_int_equal(fgen_init(&b, FGEN_RAND, 1024, 65535, false, 42), 0);
	assert_int_equal(fgen_init(&c, FGEN_RAND, 1024, 65535, false, 43), 0);
	for (int i = 0; i < 10000; i++) {
		uint32_t x = fgen_next(&a);

		assert_int_equal(x, fgen_next(&b));
		assert_in_range(x, 1024, 65535);
		same += x == fgen_next(&c);
	}
	assert_true(same < 10); /* a different seed, a different sequence */
	/* Reset replays the sequence. */
	fgen_reset(&a, 42);
	fgen_reset(&b, 42);
	for (int i = 0; i < 100; i++)
		assert_int_equal(fgen_next(&a), fgen_next(&b));
	assert_int_not_equal(fgen_subseed(1, 0, 0), fgen_subseed(1, 0, 1));
	assert_int_not_equal(fgen_subseed(1, 0, 0), fgen_subseed(1, 1, 0));
	assert_int_equal(fgen_subseed(7, 3, 2), fgen_subseed(7, 3, 2));
}

/*
 * fgen_fill() gives exactly what fgen_next() calls give, whatever the
 * burst lengths (odd ones leave a half-used draw), for every kind; the
 * range [0, 2^31] rejects about half of its draws, which sends the
 * pairwise rand path to its one-at-a-time fallback.
 */
static void test_fill_matches_next(void **state)
{
	static const struct {
		enum fgen_mode mode;
		uint32_t lo, hi;
		bool ipv4;
	} c[] = {
	    {FGEN_RAND, 1024, 65535, false},
	    {FGEN_RAND, 1, 49151, false},
	    {FGEN_RAND, 0, 1u << 31, false},
	    {FGEN_RAND, 0, UINT32_MAX, false},
	    {FGEN_RAND, IP(10, 0, 0, 0), IP(10, 255, 255, 255), true},
	    {FGEN_INC, 5, 9, false},
	    {FGEN_DEC, 5, 9, false},
	    {FGEN_INC, IP(10, 0, 0, 250), IP(10, 0, 1, 3), true},
	    {FGEN_DEC, IP(10, 0, 0, 250), IP(10, 0, 1, 3), true},
	    {FGEN_FIXED, 80, 80, false},
	};
	static const uint32_t len[] = {1, 7, 32, 31, 2, 32, 5, 32, 32, 1};

	(void)state;
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct fgen a, b;
		uint32_t out[32];

		assert_int_equal(fgen_init(&a, c[k].mode, c[k].lo, c[k].hi, c[k].ipv4, 99 + k), 0);
		assert_int_equal(fgen_init(&b, c[k].mode, c[k].lo, c[k].hi, c[k].ipv4, 99 + k), 0);
		for (int r = 0; r < 200; r++) {
			uint32_t n = len[r % 10];

			fgen_fill(&a, out, n);
			for (uint32_t i = 0; i < n; i++)
				assert_int_equal(out[i], fgen_next(&b));
		}
	}
}

/* Chi-square over k cells; with k-1 dof the statistic stays below ~k + 6 sqrt(2k). */
static void chi_check(const uint32_t *cnt, uint32_t k, uint64_t draws)
{
	double e = (double)draws / k, chi = 0;

	for (uint32_t i = 0; i < k; i++)
		chi += ((double)cnt[i] - e) * ((double)cnt[i] - e) / e;
	print_message("chi2 = %.1f over %u cells\n", chi, k);
	assert_true(chi < k + 6 * __builtin_sqrt(2.0 * k));
	assert_true(chi > k - 6 * __builtin_sqrt(2.0 * k)); /* not suspiciously even */
}

static void test_uniform_ports(void **state)
{
	const uint32_t k = 1000;
	uint32_t *cnt = calloc(k, sizeof(*cnt));
	struct fgen g;

	(void)state;
	assert_int_equal(fgen_init(&g, FGEN_RAND, 5000, 5000 + k - 1, false, 9), 0);
	for (int i = 0; i < 2000000; i++) {
		uint32_t v = fgen_next(&g);

		assert_in_range(v, 5000, 5000 + k - 1);
		cnt[v - 5000]++;
	}
	chi_check(cnt, k, 2000000);
	free(cnt);
}

/* rand over an IPv4 range: uniform over usable addresses, never .0/.255. */
static void test_uniform_ipv4(void **state)
{
	struct fgen g;
	uint32_t lo = IP(198, 18, 0, 200), hi = IP(198, 18, 9, 196), n;
	uint32_t *cnt;

	(void)state;
	assert_int_equal(fgen_init(&g, FGEN_RAND, lo, hi, true, 1), 0);
	n = fgen_count(&g);
	assert_int_equal(n, (254 - 200 + 1) + 8 * 254 + 196);
	cnt = calloc(n, sizeof(*cnt));
	for (int i = 0; i < 3000000; i++) {
		uint32_t v = fgen_next(&g);
		int64_t ix = fgen_index(&g, v);

		assert_true((v & 0xff) != 0 && (v & 0xff) != 255);
		assert_true(v >= lo && v <= hi);
		assert_true(ix >= 0 && ix < n);
		assert_int_equal(fgen_at(&g, (uint32_t)ix), v);
		cnt[ix]++;
	}
	chi_check(cnt, n, 3000000);
	free(cnt);
}

static void test_inc_dec_ipv4(void **state)
{
	struct fgen g;
	uint32_t v, prev, i;

	(void)state;
	/* Ends on .0 and .255 are pulled in. */
	assert_int_equal(fgen_init(&g, FGEN_INC, IP(10, 0, 0, 253), IP(10, 0, 2, 0), true, 0), 0);
	assert_int_equal(fgen_count(&g), 2 + 254);
	assert_int_equal(fgen_next(&g), IP(10, 0, 0, 253));
	assert_int_equal(fgen_next(&g), IP(10, 0, 0, 254));
	assert_int_equal(fgen_next(&g), IP(10, 0, 1, 1));
	for (i = 0; i < 253; i++)
		v = fgen_next(&g);
	assert_int_equal(v, IP(10, 0, 1, 254));
	assert_int_equal(fgen_next(&g), IP(10, 0, 0, 253)); /* wrap */

	assert_int_equal(fgen_init(&g, FGEN_DEC, IP(10, 0, 0, 255), IP(10, 0, 1, 2), true, 0), 0);
	assert_int_equal(fgen_next(&g), IP(10, 0, 1, 2));
	assert_int_equal(fgen_next(&g), IP(10, 0, 1, 1));
	assert_int_equal(fgen_next(&g), IP(10, 0, 1, 2)); /* wrap at the low end */

	/* A long walk: each value once per lap, in order, never .0/.255. */
	assert_int_equal(fgen_init(&g, FGEN_DEC, IP(198, 19, 0, 1), IP(198, 19, 9, 196), true, 0),
			 0);
	prev = fgen_next(&g);
	for (i = 1; i < 2 * fgen_count(&g); i++) {
		v = fgen_next(&g);
		assert_true((v & 0xff) != 0 && (v & 0xff) != 255);
		if (i % fgen_count(&g))
			assert_true(v < prev);
		else
			assert_int_equal(v, IP(198, 19, 9, 196));
		prev = v;
	}
}

static void test_inc_dec_ports(void **state)
{
	struct fgen g;

	(void)state;
	assert_int_equal(fgen_init(&g, FGEN_INC, 65534, 65535, false, 0), 0);
	assert_int_equal(fgen_next(&g), 65534);
	assert_int_equal(fgen_next(&g), 65535);
	assert_int_equal(fgen_next(&g), 65534);
	assert_int_equal(fgen_init(&g, FGEN_DEC, 0, 2, false, 0), 0);
	assert_int_equal(fgen_next(&g), 2);
	assert_int_equal(fgen_next(&g), 1);
	assert_int_equal(fgen_next(&g), 0);
	assert_int_equal(fgen_next(&g), 2);
	/* Full 32-bit range: inc wraps through 0. */
	assert_int_equal(fgen_init(&g, FGEN_INC, 0, UINT32_MAX, false, 0), 0);
	assert_int_equal(fgen_count(&g), 0);
	g.cur = UINT32_MAX;
	assert_int_equal(fgen_next(&g), UINT32_MAX);
	assert_int_equal(fgen_next(&g), 0);
	assert_int_equal(fgen_init(&g, FGEN_RAND, 0, UINT32_MAX, false, 5), 0);
	assert_int_not_equal(fgen_next(&g), fgen_next(&g));
}

static void test_single(void **state)
{
	const enum fgen_mode modes[] = {FGEN_FIXED, FGEN_INC, FGEN_DEC, FGEN_RAND};
	struct fgen g;

	(void)state;
	for (unsigned m = 0; m < 4; m++) {
		assert_int_equal(fgen_init(&g, modes[m], 4321, 4321, false, 3), 0);
		for (int i = 0; i < 50; i++)
			assert_int_equal(fgen_next(&g), 4321);
		assert_int_equal(
		    fgen_init(&g, modes[m], IP(198, 18, 1, 2), IP(198, 18, 1, 2), true, 3), 0);
		for (int i = 0; i < 50; i++)
			assert_int_equal(fgen_next(&g), IP(198, 18, 1, 2));
	}
	/* fixed yields lo whatever the range. */
	assert_int_equal(fgen_init(&g, FGEN_FIXED, 10, 20, false, 3), 0);
	assert_int_equal(fgen_next(&g), 10);
}

static void test_pairs(void **state)
{
	struct fgen_pair p;
	uint32_t a, b, i;
	uint8_t *seen;

	(void)state;
	/* 2,500 host pairs of l3_many_hosts: host i <-> host i. */
	assert_int_equal(fgen_pair_init(&p, FGEN_INC, IP(198, 18, 0, 1), IP(198, 18, 9, 214),
					IP(198, 19, 0, 1), IP(198, 19, 20, 0), true, 1),
			 0);
	assert_int_equal(fgen_count(&p.idx), 2500);
	for (i = 0; i < 2500; i++) {
		fgen_pair_next(&p, &a, &b);
		assert_int_equal(a & 0xffff, b & 0xffff); /* same host number */
		assert_int_equal(a >> 16, (198u << 8) | 18);
		assert_int_equal(b >> 16, (198u << 8) | 19);
	}
	assert_int_equal(a, IP(198, 18, 9, 214));
	fgen_pair_next(&p, &a, &b);
	assert_int_equal(a, IP(198, 18, 0, 1));
	assert_int_equal(b, IP(198, 19, 0, 1));

	/* rand: pairs stay matched and every pair comes up. */
	assert_int_equal(fgen_pair_init(&p, FGEN_RAND, 1000, 1099, 5000, 5199, false, 7), 0);
	seen = calloc(100, 1);
	for (i = 0; i < 5000; i++) {
		fgen_pair_next(&p, &a, &b);
		assert_int_equal(b - 5000, a - 1000);
		seen[a - 1000] = 1;
	}
	for (i = 0; i < 100; i++)
		assert_true(seen[i]);
	free(seen);
}

/* fresh counts the (address, port) pairs handed out for the first time. */
static void test_cpa_fresh(void **state)
{
	struct fgen_cpa a;
	uint32_t ip0 = IP(198, 18, 0, 1), ip1 = IP(198, 18, 0, 2);
	uint16_t port;

	(void)state;
	assert_int_equal(cpa_range(&a, ip0, ip1, 2000, 2009), 0);
	/* six flows of ip0, each done before the next: six new ports */
	for (int i = 0; i < 6; i++) {
		assert_int_equal(fgen_cpa_get(&a, ip0, &port), 0);
		assert_int_equal(port, 2000 + i);
		assert_int_equal(fgen_cpa_put(&a, ip0, port), 0);
	}
	assert_int_equal(a.fresh, 6);
	/* ip1 is counted apart */
	assert_int_equal(fgen_cpa_get(&a, ip1, &port), 0);
	assert_int_equal(a.fresh, 7);
	/* ip0: four more reach the end of the range; after that every port
	 * handed out was used before */
	for (int i = 0; i < 4; i++) {
		assert_int_equal(fgen_cpa_get(&a, ip0, &port), 0);
		assert_int_equal(fgen_cpa_put(&a, ip0, port), 0);
	}
	assert_int_equal(a.fresh, 11);
	for (int i = 0; i < 25; i++) {
		assert_int_equal(fgen_cpa_get(&a, ip0, &port), 0);
		assert_int_equal(fgen_cpa_put(&a, ip0, port), 0);
	}
	assert_int_equal(a.fresh, 11);
	fgen_cpa_destroy(&a);

	/* a search that wraps before the end (the ports above are busy) */
	assert_int_equal(cpa_range(&a, ip0, ip0, 3000, 3003), 0);
	assert_int_equal(fgen_cpa_get(&a, ip0, &port), 0); /* 3000 */
	assert_int_equal(fgen_cpa_put(&a, ip0, 3000), 0);
	assert_int_equal(fgen_cpa_get(&a, ip0, &port), 0); /* 3001, kept */
	assert_int_equal(fgen_cpa_get(&a, ip0, &port), 0); /* 3002, kept */
	assert_int_equal(fgen_cpa_get(&a, ip0, &port), 0); /* 3003, kept */
	assert_int_equal(a.fresh, 4);
	assert_int_equal(fgen_cpa_get(&a, ip0, &port), 0);
	assert_int_equal(port, 3000);
	assert_int_equal(a.fresh, 4);
	fgen_cpa_destroy(&a);
}

static void test_cpa(void **state)
{
	struct fgen_cpa a;
	uint32_t ip0 = IP(198, 18, 0, 1), ip1 = IP(198, 18, 0, 2);
	uint16_t port, first;
	uint8_t *taken = calloc(65536, 1);
	uint32_t i;

	(void)state;
	assert_int_equal(cpa_range(&a, IP(198, 18, 0, 0), IP(198, 18, 0, 255), 1024, 65535), 0);
	assert_int_equal(a.nips, 254);
	print_message("client port allocator, 254 ips x 64512 ports: %zu bytes\n",
		      fgen_cpa_mem_size(a.nips, a.nports));
	assert_true(fgen_cpa_mem_size(254, 64512) <= 254 * 8200);
	assert_int_equal(fgen_cpa_avail(&a, ip0), 64512);
	assert_int_equal(fgen_cpa_get(&a, IP(198, 18, 0, 255), &port), -EINVAL);
	assert_int_equal(fgen_cpa_get(&a, IP(198, 18, 1, 1), &port), -EINVAL);

	/* Take every port of ip0: all distinct, in range, then -ENOSPC. */
	for (i = 0; i < 64512; i++) {
		assert_int_equal(fgen_cpa_get(&a, ip0, &port), 0);
		assert_true(port >= 1024);
		assert_int_equal(taken[port], 0);
		taken[port] = 1;
	}
	assert_int_equal(fgen_cpa_get(&a, ip0, &port), -ENOSPC);
	assert_int_equal(fgen_cpa_avail(&a, ip0), 0);
	/* Other addresses are independent. */
	assert_int_equal(fgen_cpa_get(&a, ip1, &port), 0);
	assert_int_equal(port, 1024);

	/* Free a scattered few; exactly those come back, none twice. */
	assert_int_equal(fgen_cpa_put(&a, ip0, 40000), 0);
	assert_int_equal(fgen_cpa_put(&a, ip0, 2000), 0);
	assert_int_equal(fgen_cpa_put(&a, ip0, 65535), 0);
	assert_int_equal(fgen_cpa_put(&a, ip0, 2000), -EINVAL); /* not taken */
	assert_int_equal(fgen_cpa_put(&a, ip0, 80), -EINVAL);	/* out of range */
	assert_int_equal(fgen_cpa_avail(&a, ip0), 3);
	memset(taken, 0, 65536);
	for (i = 0; i < 3; i++) {
		assert_int_equal(fgen_cpa_get(&a, ip0, &port), 0);
		assert_true(port == 40000 || port == 2000 || port == 65535);
		assert_int_equal(taken[port], 0);
		taken[port] = 1;
	}
	assert_int_equal(fgen_cpa_get(&a, ip0, &port), -ENOSPC);

	/* Rotation: a port just given back is not the next one handed out. */
	assert_int_equal(fgen_cpa_get(&a, ip1, &first), 0); /* 1025 */
	assert_int_equal(fgen_cpa_put(&a, ip1, first), 0);
	assert_int_equal(fgen_cpa_get(&a, ip1, &port), 0);
	assert_int_equal(port, first + 1);

	/* Random churn against a model. */
	memset(taken, 0, 65536);
	for (i = 0; i < 200000; i++) {
		uint64_t r = i * 0x9e3779b97f4a7c15ull;

		if ((r >> 60) < 9) {
			if (fgen_cpa_get(&a, IP(198, 18, 0, 9), &port) == 0) {
				assert_int_equal(taken[port], 0);
				taken[port] = 1;
			}
		} else {
			uint16_t q = (uint16_t)(1024 + (r >> 20) % 64512);

			assert_int_equal(fgen_cpa_put(&a, IP(198, 18, 0, 9), q),
					 taken[q] ? 0 : -EINVAL);
			taken[q] = 0;
		}
	}
	fgen_cpa_destroy(&a);
	free(taken);
}

/*
 * A list set: walked in the order given (inc) or drawn (rand, every entry
 * comes up), found by address, offset added; an address twice, an empty
 * list or a fixed mode refused.
 */
static void test_addrs_list(void **state)
{
	static const uint32_t v[5] = {IP(198, 18, 7, 9), IP(198, 18, 0, 255), IP(198, 19, 1, 1),
				      IP(198, 18, 0, 3), IP(198, 18, 200, 0)};
	uint32_t dup[3] = {IP(198, 18, 0, 1), IP(198, 18, 0, 2), IP(198, 18, 0, 1)};
	struct fgen_addrs a;
	int seen[5] = {0};

	(void)state;
	assert_int_equal(fgen_addrs_list(&a, FGEN_INC, v, 5, 0, 1), 0);
	assert_int_equal(fgen_addrs_count(&a), 5);
	for (int r = 0; r < 2; r++)
		for (int i = 0; i < 5; i++)
			assert_int_equal(fgen_addrs_next(&a), v[i]); /* .255 and .0 as listed */
	for (int i = 0; i < 5; i++)
		assert_int_equal(fgen_addrs_index(&a, v[i]), i);
	assert_int_equal(fgen_addrs_index(&a, IP(198, 18, 0, 4)), -1);
	assert_int_equal(fgen_addrs_index(&a, 0), -1);
	assert_int_equal(fgen_addrs_index(&a, UINT32_MAX), -1);
	assert_true(fgen_addrs_has(&a, IP(198, 18, 200, 0)));
	assert_false(fgen_addrs_has(&a, IP(198, 18, 7, 8)));
	fgen_addrs_destroy(&a);
	assert_null(a.list);

	/* a range has what lies between its ends, .0 and .255 too (a peer's
	 * address), but hands out and indexes only the usable ones */
	assert_int_equal(fgen_addrs_range(&a, FGEN_INC, IP(198, 18, 0, 1), IP(198, 18, 2, 9), 1), 0);
	assert_true(fgen_addrs_has(&a, IP(198, 18, 1, 0)));
	assert_int_equal(fgen_addrs_index(&a, IP(198, 18, 1, 0)), -1);
	assert_int_equal(fgen_addrs_index(&a, IP(198, 18, 1, 1)), 254);
	assert_false(fgen_addrs_has(&a, IP(198, 18, 2, 10)));
	assert_false(fgen_addrs_has(&a, IP(198, 18, 0, 0)));
	assert_int_equal(fgen_addrs_count(&a), 254 * 2 + 9);
	assert_int_equal(fgen_addrs_next(&a), IP(198, 18, 0, 1));

	/* the next port pair's list: offset 0.1.0.0 added to each */
	assert_int_equal(fgen_addrs_list(&a, FGEN_RAND, v, 5, IP(0, 1, 0, 0), 9), 0);
	for (int i = 0; i < 200; i++) {
		int64_t k = fgen_addrs_index(&a, fgen_addrs_next(&a));

		assert_true(k >= 0 && k < 5);
		seen[k]++;
	}
	for (int i = 0; i < 5; i++)
		assert_true(seen[i] > 10);
	assert_int_equal(fgen_addrs_index(&a, v[0]), -1);
	assert_int_equal(fgen_addrs_index(&a, v[0] + IP(0, 1, 0, 0)), 0);
	fgen_addrs_destroy(&a);

	assert_int_equal(fgen_addrs_list(&a, FGEN_INC, dup, 3, 0, 1), -EINVAL);
	assert_int_equal(fgen_addrs_list(&a, FGEN_INC, dup, 2, 0, 1), 0);
	fgen_addrs_destroy(&a);
	assert_int_equal(fgen_addrs_list(&a, FGEN_INC, dup, 0, 0, 1), -EINVAL);
	assert_int_equal(fgen_addrs_list(&a, FGEN_FIXED, dup, 2, 0, 1), -EINVAL);
}

/*
 * The sort behind the lists' duplicate check: values with their positions,
 * ascending; the later position of the first equal pair, else 0.
 */
static void test_sort_tagged(void **state)
{
	const uint32_t v[] = {7, 3, 9, 3, 7}, u[] = {4, 2, 8};
	uint64_t s[5];

	(void)state;
	assert_int_equal(fgen_sort_tagged(s, v, 5), 3); /* 3 at 1 and 3 come first */
	assert_true(s[0] == ((uint64_t)3 << 32 | 1) && s[1] == ((uint64_t)3 << 32 | 3));
	assert_true(s[4] == ((uint64_t)9 << 32 | 2));
	assert_int_equal(fgen_sort_tagged(s, u, 3), 0);
	assert_true(s[0] == ((uint64_t)2 << 32 | 1) && s[2] == ((uint64_t)8 << 32 | 2));
	assert_int_equal(fgen_sort_tagged(s, v + 3, 1), 0);
}

/*
 * A worker's share of a port range (step = workers of the pair) over a
 * list of addresses: only its ports come out, every one of them before
 * any repeats, and ports of other workers or addresses not listed are
 * refused on the way back.
 */
static void test_cpa_share_list(void **state)
{
	static const uint32_t v[2] = {IP(198, 18, 9, 9), IP(198, 18, 0, 20)};
	struct fgen_addrs ips;
	struct fgen_cpa a;
	uint16_t port;
	uint8_t got[40] = {0};

	(void)state;
	assert_int_equal(fgen_addrs_list(&ips, FGEN_INC, v, 2, 0, 1), 0);
	/* worker 1 of 3 on ports 5000..5039: 5002, 5005, ..., 5038 (p mod 3 == 1) */
	assert_int_equal(fgen_cpa_init(&a, &ips, 5002, 5039, 3), 0);
	assert_int_equal(a.nports, 13);
	assert_int_equal(fgen_cpa_avail(&a, v[1]), 13);
	for (int i = 0; i < 13; i++) {
		assert_int_equal(fgen_cpa_get(&a, v[1], &port), 0);
		assert_int_equal(port % 3, 1);
		assert_true(port >= 5002 && port <= 5039);
		assert_int_equal(got[port - 5000]++, 0);
	}
	assert_int_equal(fgen_cpa_get(&a, v[1], &port), -ENOSPC);
	assert_int_equal(fgen_cpa_avail(&a, v[0]), 13);
	assert_int_equal(fgen_cpa_get(&a, IP(198, 18, 0, 21), &port), -EINVAL);
	assert_int_equal(fgen_cpa_put(&a, v[1], 5003), -EINVAL); /* worker 2's */
	assert_int_equal(fgen_cpa_put(&a, v[1], 5041), -EINVAL); /* past the range */
	assert_int_equal(fgen_cpa_put(&a, v[1], 4999), -EINVAL);
	assert_int_equal(fgen_cpa_put(&a, v[1], 5038), 0);
	assert_int_equal(fgen_cpa_put(&a, v[1], 5038), -EINVAL); /* not taken now */
	assert_int_equal(fgen_cpa_get(&a, v[1], &port), 0);
	assert_int_equal(port, 5038);
	assert_int_equal(a.fresh, 13);
	fgen_cpa_destroy(&a);
	fgen_addrs_destroy(&ips);
}

/* An allocator over the IPv4 range [ip_lo, ip_hi] and the ports lo,
 * lo + step, ... <= hi. */
static int cpa_step(struct fgen_cpa *a, uint32_t ip_lo, uint32_t ip_hi, uint16_t lo, uint16_t hi,
		    uint16_t step)
{
	struct fgen_addrs ips;
	int rc = fgen_addrs_range(&ips, FGEN_INC, ip_lo, ip_hi, 0);

	return rc ? rc : fgen_cpa_init(a, &ips, lo, hi, step);
}

/*
 * Rotation across a wrap over 130 ports (the last of three bitmap words
 * holds two): handed out in order to the last, then -ENOSPC; ports given
 * back come out again in port order from the range's start, none of them
 * fresh, and never a port past the range.
 */
static void test_cpa_rotation(void **state)
{
	struct fgen_cpa a;
	uint32_t ip = IP(198, 18, 0, 7);
	uint16_t port;

	(void)state;
	assert_int_equal(cpa_range(&a, ip, ip, 100, 229), 0);
	assert_int_equal(a.nports, 130);
	for (int i = 0; i < 130; i++) {
		assert_int_equal(fgen_cpa_get(&a, ip, &port), 0);
		assert_int_equal(port, 100 + i);
		assert_int_equal(fgen_cpa_avail(&a, ip), 129 - i);
	}
	assert_int_equal(a.fresh, 130);
	assert_int_equal(fgen_cpa_get(&a, ip, &port), -ENOSPC);
	/* given back out of order: they come out from 100 on */
	assert_int_equal(fgen_cpa_put(&a, ip, 229), 0);
	assert_int_equal(fgen_cpa_put(&a, ip, 150), 0);
	assert_int_equal(fgen_cpa_put(&a, ip, 228), 0);
	assert_int_equal(fgen_cpa_put(&a, ip, 120), 0);
	assert_int_equal(fgen_cpa_put(&a, ip, 120), -EINVAL);
	assert_int_equal(fgen_cpa_avail(&a, ip), 4);
	assert_int_equal(fgen_cpa_get(&a, ip, &port), 0);
	assert_int_equal(port, 120);
	/* one given back behind the cursor waits for the next round */
	assert_int_equal(fgen_cpa_put(&a, ip, 101), 0);
	assert_int_equal(fgen_cpa_get(&a, ip, &port), 0);
	assert_int_equal(port, 150);
	assert_int_equal(fgen_cpa_get(&a, ip, &port), 0);
	assert_int_equal(port, 228);
	assert_int_equal(fgen_cpa_get(&a, ip, &port), 0);
	assert_int_equal(port, 229);
	assert_int_equal(fgen_cpa_get(&a, ip, &port), 0);
	assert_int_equal(port, 101);
	assert_int_equal(fgen_cpa_get(&a, ip, &port), -ENOSPC);
	assert_int_equal(fgen_cpa_avail(&a, ip), 0);
	assert_int_equal(a.fresh, 130);
	fgen_cpa_destroy(&a);
}

/*
 * The allocator against a model of its contract, per address: the port
 * handed out is the first free one at or after the one after the last
 * handed out (wrapping), -ENOSPC when none is free; a put succeeds only
 * for a port of the share that is taken; avail is the free count; fresh
 * counts the (address, port) pairs never handed out before. Over ranges
 * whose ends fall inside a bitmap word and a summary word, with more
 * than one summary word, a single port, a worker's share (step > 1) and
 * many addresses; each run fills and drains the addresses in turns. With
 * a key (fgen_cpa_shuffle) the same contract holds over the rotation's
 * indexes, each standing for the port at its permutation (test_cpa_shuffle
 * checks the permutations themselves).
 */
struct cpa_case {
	uint32_t ip_lo, ip_hi;
	uint16_t lo, hi, step;
	uint32_t ops, phase; /* ops in all, in runs of phase */
	uint32_t key;	     /* 0: increasing order */
};

struct cpa_model {
	uint8_t *taken, *seen; /* per address, nports each */
	uint32_t *cur, *used;
	uint64_t fresh;
};

static uint64_t cpa_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void cpa_model_run(const struct cpa_case *c)
{
	struct fgen_cpa a;
	struct cpa_model m = {0};
	uint64_t rng = c->ops;
	uint32_t nips, np, nospc = 0, handed = 0;

	assert_int_equal(cpa_step(&a, c->ip_lo, c->ip_hi, c->lo, c->hi, c->step), 0);
	fgen_cpa_shuffle(&a, c->key);
	nips = a.nips;
	np = a.nports;
	assert_int_equal(np, ((uint32_t)c->hi - c->lo) / c->step + 1);
	m.taken = calloc((size_t)nips * np, 1);
	m.seen = calloc((size_t)nips * np, 1);
	m.cur = calloc(nips, sizeof(*m.cur));
	m.used = calloc(nips, sizeof(*m.used));
	assert_non_null(m.taken);
	assert_non_null(m.seen);
	assert_non_null(m.cur);
	assert_non_null(m.used);
	for (uint32_t n = 0; n < c->ops; n++) {
		uint64_t r = cpa_rand(&rng);
		/* a run of ops fills (7 of 8 are gets), the next drains (1 of 4) */
		bool fill = n / c->phase % 2 == 0;
		bool get = (r & 7) < (fill ? 7u : 2u);
		uint32_t i = (uint32_t)((r >> 8) % nips), ip;
		uint8_t *tk = m.taken + (size_t)i * np, *sn = m.seen + (size_t)i * np;
		uint16_t port;
		int rc;

		ip = fgen_at(&a.ips.g, i); /* a range set */
		if (get) {
			rc = fgen_cpa_get(&a, ip, &port);
			if (m.used[i] == np) {
				assert_int_equal(rc, -ENOSPC);
				nospc++;
			} else {
				uint32_t b = m.cur[i];

				while (tk[b])
					b = b + 1 == np ? 0 : b + 1;
				assert_int_equal(rc, 0);
				assert_int_equal(port, c->lo + fgen_cpa_perm(&a, i, b) * c->step);
				tk[b] = 1;
				m.used[i]++;
				m.fresh += !sn[b];
				sn[b] = 1;
				m.cur[i] = b + 1 == np ? 0 : b + 1;
				handed++;
			}
		} else {
			/* a port of the share near the cursor (taken or not), at
			 * times one outside the share or the range */
			uint32_t b = (uint32_t)(m.cur[i] + np - 1 - (r >> 40) % 64 % np) % np;
			uint32_t v = c->lo + fgen_cpa_perm(&a, i, b) * c->step;
			bool share;

			if ((r >> 20 & 15) == 0)
				v = (uint32_t)(c->lo - 2 +
					       (r >> 24) % ((uint32_t)c->hi - c->lo + 5));
			if (v > 65535)
				v = 65535;
			share = v >= c->lo && v <= c->hi && (v - c->lo) % c->step == 0;
			if (share)
				b = fgen_cpa_unperm(&a, i, (v - c->lo) / c->step);
			rc = fgen_cpa_put(&a, ip, (uint16_t)v);
			if (share && tk[b]) {
				assert_int_equal(rc, 0);
				tk[b] = 0;
				m.used[i]--;
			} else {
				assert_int_equal(rc, -EINVAL);
			}
		}
		assert_int_equal(fgen_cpa_avail(&a, ip), np - m.used[i]);
		assert_int_equal(a.fresh, m.fresh);
	}
	/* the run filled an address and went round a rotation */
	assert_true(nospc > 0);
	assert_true(m.fresh < handed);
	fgen_cpa_destroy(&a);
	free(m.taken);
	free(m.seen);
	free(m.cur);
	free(m.used);
}

static void test_cpa_model(void **state)
{
	static const struct cpa_case cases[] = {
	    /* 130 ports: three bitmap words, the last one partly */
	    {IP(198, 18, 0, 1), IP(198, 18, 0, 3), 100, 229, 1, 20000, 2500},
	    /* a single port */
	    {IP(198, 18, 0, 1), IP(198, 18, 0, 2), 7000, 7000, 1, 2000, 250},
	    /* 4,097 ports: 65 bitmap words, two summary words */
	    {IP(198, 18, 0, 1), IP(198, 18, 0, 1), 10000, 14096, 1, 60000, 7500},
	    /* worker 2 of 3: ports p mod 3 == 2, the range's ends not its own */
	    {IP(198, 18, 0, 1), IP(198, 18, 0, 2), 5003, 5601, 3, 20000, 2500},
	    /* 762 addresses over 70 ports */
	    {IP(198, 18, 0, 0), IP(198, 18, 2, 255), 2000, 2069, 1, 400000, 80000},
	    /* the full range: 1,008 bitmap words, 16 summary words */
	    {IP(198, 18, 0, 1), IP(198, 18, 0, 1), 1024, 65535, 1, 300000, 80000},
	    /* the same shapes in pseudorandom order */
	    {IP(198, 18, 0, 1), IP(198, 18, 0, 3), 100, 229, 1, 20000, 2500, 7},
	    {IP(198, 18, 0, 1), IP(198, 18, 0, 2), 7000, 7000, 1, 2000, 250, 8},
	    {IP(198, 18, 0, 1), IP(198, 18, 0, 1), 10000, 14096, 1, 60000, 7500, 9},
	    {IP(198, 18, 0, 1), IP(198, 18, 0, 2), 5003, 5601, 3, 20000, 2500, 10},
	    {IP(198, 18, 0, 0), IP(198, 18, 2, 255), 2000, 2069, 1, 400000, 80000, 11},
	    {IP(198, 18, 0, 1), IP(198, 18, 0, 1), 1024, 65535, 1, 300000, 80000, 12},
	};

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		cpa_model_run(&cases[k]);
}

/*
 * The pseudorandom order (fgen_cpa_shuffle, RFC 9693 §4.4): for every
 * count of ports, each address's order is a permutation of the indexes
 * that unperm undoes; key 0 is increasing order; an address hands out
 * every port once, each fresh, before -ENOSPC, and two addresses' orders
 * differ. Pseudorandom, not a stride: over 1,000 ports and more, the
 * first half of an address's ports spreads over the whole range (mean
 * within 5 % of the middle) and 45-55 % of the steps go down, as in a
 * random permutation; over 64 and more, over a quarter go down.
 */
static void test_cpa_shuffle(void **state)
{
	static const uint16_t ranges[][2] = {{7000, 7000},   {7000, 7001}, {7000, 7002},
					     {7000, 7004},   {7000, 7063}, {100, 229},
					     {10000, 14096}, {1024, 65535}};

	(void)state;
	for (size_t k = 0; k < sizeof(ranges) / sizeof(ranges[0]); k++) {
		struct fgen_cpa a;
		uint32_t np, ip = IP(198, 18, 0, 1), down = 0, differ = 0;
		uint8_t *seen;
		double half = 0;
		uint16_t port, prev = 0;

		assert_int_equal(
		    cpa_range(&a, IP(198, 18, 0, 1), IP(198, 18, 0, 2), ranges[k][0], ranges[k][1]),
		    0);
		np = a.nports;
		for (uint32_t b = 0; b < np; b++)
			assert_int_equal(fgen_cpa_perm(&a, 0, b), b);
		fgen_cpa_shuffle(&a, 0x5eed + k);
		seen = calloc(np, 1);
		assert_non_null(seen);
		for (uint32_t b = 0; b < np; b++) {
			uint32_t p = fgen_cpa_perm(&a, 0, b);

			assert_true(p < np);
			assert_false(seen[p]);
			seen[p] = 1;
			assert_int_equal(fgen_cpa_unperm(&a, 0, p), b);
			differ += p != fgen_cpa_perm(&a, 1, b);
		}
		for (uint32_t b = 0; b < np; b++) {
			assert_int_equal(fgen_cpa_get(&a, ip, &port), 0);
			assert_true(port >= ranges[k][0] && port <= ranges[k][1]);
			assert_int_equal(port, ranges[k][0] + fgen_cpa_perm(&a, 0, b));
			if (b < np / 2)
				half += port - ranges[k][0];
			down += b > 0 && port < prev;
			prev = port;
		}
		assert_int_equal(fgen_cpa_get(&a, ip, &port), -ENOSPC);
		assert_int_equal(a.fresh, np);
		/* a port given back is the one taken next */
		assert_int_equal(fgen_cpa_put(&a, ip, prev), 0);
		assert_int_equal(fgen_cpa_get(&a, ip, &port), 0);
		assert_int_equal(port, prev);
		assert_int_equal(a.fresh, np);
		if (np >= 64) { /* no increasing order, nor one address's for all */
			assert_true(down > np / 4);
			assert_true(differ > np / 2);
		}
		if (np >= 1000) { /* spread like a random permutation */
			double mean = half / (np / 2), mid = (np - 1) / 2.0;

			assert_true(mean > mid * 0.95 && mean < mid * 1.05);
			assert_true(down > np * 45 / 100 && down < np * 55 / 100);
		}
		free(seen);
		fgen_cpa_destroy(&a);
	}
}

/* Bytes of [p, p + len) on resident pages. */
static size_t resident(const void *p, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n, r = 0;
	uintptr_t lo = (uintptr_t)p & ~(pg - 1), hi = ((uintptr_t)p + len + pg - 1) & ~(pg - 1);
	unsigned char *v;

	n = (hi - lo) / pg;
	v = malloc(n);
	assert_non_null(v);
	assert_int_equal(mincore((void *)lo, hi - lo, v), 0);
	for (size_t i = 0; i < n; i++)
		r += v[i] & 1;
	free(v);
	return r * pg;
}

/*
 * 1,016 addresses x 64,512 ports (8.3 MB of allocator): nothing resident
 * at init, and after 100 ports of every address, no more than a few
 * words per address and their ports' bits (and a page at each end).
 */
static void test_cpa_resident(void **state)
{
	struct fgen_cpa a;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), size;
	uint32_t k = 100, ip;
	uint16_t port;

	(void)state;
	/* pages of the base size, whatever the machine's transparent huge
	 * pages (with "always", a first touch could fault in 2 MiB) */
	(void)prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	assert_int_equal(cpa_range(&a, IP(198, 18, 0, 0), IP(198, 18, 3, 255), 1024, 65535), 0);
	assert_int_equal(a.nips, 1016);
	size = fgen_cpa_mem_size(a.nips, a.nports);
	print_message("client port allocator, 1016 ips x 64512 ports: %zu bytes, %zu resident\n",
		      size, resident(a.mem, size));
	assert_true(resident(a.mem, size) <= 2 * pg);
	for (uint32_t n = 0; n < k; n++)
		for (uint32_t i = 0; i < a.nips; i++) {
			ip = fgen_at(&a.ips.g, i); /* a range set */
			assert_int_equal(fgen_cpa_get(&a, ip, &port), 0);
			assert_int_equal(port, 1024 + n);
		}
	print_message("after %u ports of each: %zu resident\n", k, resident(a.mem, size));
	assert_true(resident(a.mem, size) <= a.nips * (4 * 8 + k / 8) + 2 * pg);
	assert_true(resident(a.mem, size) < size / 8);
	fgen_cpa_destroy(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    /* first: its 8.3 MB are a fresh mapping, no earlier test's memory */
	    cmocka_unit_test(test_cpa_resident),
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_invalid),
	    cmocka_unit_test(test_same_seed),
	    cmocka_unit_test(test_fill_matches_next),
	    cmocka_unit_test(test_uniform_ports),
	    cmocka_unit_test(test_uniform_ipv4),
	    cmocka_unit_test(test_inc_dec_ipv4),
	    cmocka_unit_test(test_inc_dec_ports),
	    cmocka_unit_test(test_single),
	    cmocka_unit_test(test_pairs),
	    cmocka_unit_test(test_cpa),
	    cmocka_unit_test(test_cpa_fresh),
	    cmocka_unit_test(test_cpa_rotation),
	    cmocka_unit_test(test_cpa_model),
	    cmocka_unit_test(test_cpa_shuffle),
	    cmocka_unit_test(test_addrs_list),
	    cmocka_unit_test(test_sort_tagged),
	    cmocka_unit_test(test_cpa_share_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
