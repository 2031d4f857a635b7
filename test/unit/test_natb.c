/*
 * test_natb.c — the pure half of `bench nat` (natb_judge.c): mapping and
 * filtering behaviours from observations, address pooling, port
 * allocation, the timeout plan and its reading (a lost probe, a timeout
 * above the bound or below the first probe, a search not yet ended), and
 * the checks table's verdicts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "natb.h"

#define X1 0xc6130101u
#define X2 0xc6130102u

static void test_mapping(void **st)
{
	struct natb_ep ei[2][2] = {{{X1, 5000}, {X1, 5000}}, {{X1, 5000}, {X1, 5000}}};
	struct natb_ep ad[2][2] = {{{X1, 5000}, {X1, 5000}}, {{X2, 5000}, {X2, 5000}}};
	struct natb_ep apd[2][2] = {{{X1, 5000}, {X1, 5001}}, {{X1, 5002}, {X1, 5003}}};
	struct natb_ep half[2][2] = {{{X1, 5000}, {X1, 5000}}, {{X1, 5000}, {0, 0}}};
	struct natb_ep ad_port[2][2] = {{{X1, 5000}, {X1, 5000}}, {{X1, 6000}, {X1, 6000}}};

	(void)st;
	assert_int_equal(natb_mapping(ei), NATB_DEP_EI);
	assert_int_equal(natb_mapping(ad), NATB_DEP_AD);
	assert_int_equal(natb_mapping(ad_port), NATB_DEP_AD);
	assert_int_equal(natb_mapping(apd), NATB_DEP_APD);
	assert_int_equal(natb_mapping(half), NATB_DEP_UNKNOWN);
}

static void test_filtering(void **st)
{
	(void)st;
	assert_int_equal(natb_filtering(true, true), NATB_DEP_EI);
	assert_int_equal(natb_filtering(false, true), NATB_DEP_EI);
	assert_int_equal(natb_filtering(true, false), NATB_DEP_AD);
	assert_int_equal(natb_filtering(false, false), NATB_DEP_APD);
}

static void test_pooling(void **st)
{
	uint32_t single[4] = {X1, X1, X1, X1}, paired[4] = {X1, X1, X2, X2};
	uint32_t arbitrary[4] = {X1, X2, X2, X2}, none[4] = {0}, gaps[4] = {X1, 0, 0, X2};
	unsigned n;

	(void)st;
	assert_int_equal(natb_pooling(single, 2, 2, &n), NATB_POOL_SINGLE);
	assert_int_equal(n, 1);
	assert_int_equal(natb_pooling(paired, 2, 2, &n), NATB_POOL_PAIRED);
	assert_int_equal(n, 2);
	assert_int_equal(natb_pooling(arbitrary, 2, 2, &n), NATB_POOL_ARBITRARY);
	assert_int_equal(natb_pooling(none, 2, 2, &n), NATB_POOL_UNKNOWN);
	assert_int_equal(n, 0);
	/* what did not arrive does not count against pairing */
	assert_int_equal(natb_pooling(gaps, 2, 2, &n), NATB_POOL_PAIRED);
}

static void test_alloc(void **st)
{
	uint16_t in[32], kept[32], seq[32], rnd[32];
	unsigned pct;
	uint32_t x = 12345;

	(void)st;
	for (int i = 0; i < 32; i++) {
		in[i] = (uint16_t)(30000 + i);
		kept[i] = in[i];
		seq[i] = (uint16_t)(1024 + 2 * i);
		x = x * 1103515245u + 12345u;
		rnd[i] = (uint16_t)(1024 + (x >> 8) % 64000);
	}
	assert_int_equal(natb_alloc_of(in, kept, 32, &pct), NATB_ALLOC_PRESERVED);
	assert_int_equal(pct, 100);
	assert_int_equal(natb_alloc_of(in, seq, 32, &pct), NATB_ALLOC_SEQUENTIAL);
	assert_int_equal(pct, 0);
	assert_int_equal(natb_alloc_of(in, rnd, 32, &pct), NATB_ALLOC_RANDOM);
	assert_int_equal(natb_alloc_of(in, rnd, 3, &pct), NATB_ALLOC_UNKNOWN);
}

static void test_plan(void **st)
{
	double t[256];
	size_t n = natb_plan(1, 1.04, 300, t, 256);

	(void)st;
	assert_true(n > 100 && n < 256);
	assert_true(t[0] == 1);
	assert_true(t[n - 1] == 300);
	for (size_t i = 1; i + 1 < n; i++)
		assert_true(t[i] > t[i - 1] && t[i] <= t[i - 1] * 1.04 + 1e-9);
	/* a bound below the first probe, bad arguments, a small array */
	assert_int_equal(natb_plan(1, 1.04, 0.5, t, 256), 0);
	assert_int_equal(natb_plan(1, 1, 300, t, 256), 0);
	n = natb_plan(1, 1.04, 300, t, 10);
	assert_int_equal(n, 10);
	assert_true(t[9] == 300);
}

static void test_estimate(void **st)
{
	double t[8] = {1, 2, 4, 8, 16, 32, 64, 128};
	enum natb_tri a[8];
	struct natb_tmo r;

	(void)st;
	/* alive to 8 s, gone at 16 and 32: the end, between 8 and 16 */
	for (int i = 0; i < 8; i++)
		a[i] = i < 4 ? NATB_YES : i < 6 ? NATB_NO : NATB_UNSEEN;
	assert_true(natb_estimate(t, a, 8, &r));
	assert_int_equal(r.st, NATB_TMO_FOUND);
	assert_true(r.lo == 8 && r.hi == 16 && r.s == 12);
	/* one gone, the next not probed yet: not ended */
	a[5] = NATB_UNSEEN;
	assert_false(natb_estimate(t, a, 8, &r));
	/* a lost probe: gone at 16, alive at 32, gone at 64 and 128 */
	a[5] = NATB_YES;
	a[6] = a[7] = NATB_NO;
	assert_true(natb_estimate(t, a, 8, &r));
	assert_true(r.st == NATB_TMO_FOUND && r.lo == 32 && r.hi == 64);
	/* all alive: above the bound */
	for (int i = 0; i < 8; i++)
		a[i] = NATB_YES;
	assert_true(natb_estimate(t, a, 8, &r));
	assert_true(r.st == NATB_TMO_ABOVE && r.lo == 128);
	/* gone from the first two */
	a[0] = a[1] = NATB_NO;
	assert_true(natb_estimate(t, a, 8, &r));
	assert_true(r.st == NATB_TMO_BELOW && r.hi == 1);
	/* the last one gone after all alive */
	for (int i = 0; i < 8; i++)
		a[i] = i < 7 ? NATB_YES : NATB_NO;
	assert_true(natb_estimate(t, a, 8, &r));
	assert_true(r.st == NATB_TMO_FOUND && r.lo == 64 && r.hi == 128);
}

static const struct natb_check *find(const struct natb_check *c, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(c[i].id, id))
			return &c[i];
	return NULL;
}

static void test_checks(void **st)
{
	struct natb_result r;
	struct natb_check c[NATB_MAX_CHECKS];
	const struct natb_check *k;
	size_t n;

	(void)st;
	memset(&r, 0, sizeof(r));
	r.udp.on = true;
	r.udp.mapping = NATB_DEP_EI;
	r.udp.filtering = NATB_DEP_APD;
	r.udp.pooling = NATB_POOL_PAIRED;
	r.udp.ext_addrs = 4;
	r.udp.hairpin = NATB_NO;
	r.udp.timeout = (struct natb_tmo){NATB_TMO_FOUND, 20, 19.5, 20.5};
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_true(n >= 10);
	assert_null(find(c, n, "RFC5382 REQ-1")); /* TCP not measured: no TCP rows */
	assert_int_equal(find(c, n, "RFC4787 REQ-1")->v, NATB_PASS);
	assert_int_equal(find(c, n, "RFC4787 REQ-2")->v, NATB_PASS);
	assert_int_equal(find(c, n, "RFC4787 REQ-8")->v, NATB_FAIL);
	assert_int_equal(find(c, n, "RFC4787 REQ-9")->v, NATB_FAIL);
	assert_int_equal(find(c, n, "RFC4787 REQ-9a")->v, NATB_NA);
	k = find(c, n, "RFC4787 REQ-5");
	if (!k)
		fail();
	else
		assert_string_equal(k->measured, "20.0 s (alive at 19.5, gone at 20.5)");
	assert_int_equal(k->v, NATB_FAIL);
	assert_int_equal(find(c, n, "RFC4787 REQ-6")->v, NATB_NA); /* not seen */
	assert_null(find(c, n, "RFC6888 REQ-4")); /* quota not tried: no row */
	r.udp.frags = NATB_NO;
	r.udp.icmp_keeps = NATB_YES;
	r.udp.quota = 1000;
	r.udp.quota_tried = 1024;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(find(c, n, "RFC4787 REQ-14")->v, NATB_FAIL);
	assert_int_equal(find(c, n, "RFC4787 REQ-12")->v, NATB_PASS);
	k = find(c, n, "RFC6888 REQ-4");
	if (!k)
		fail();
	else
		assert_string_equal(k->measured, "1000 of 1024 mappings from one address");

	r.udp.timeout = (struct natb_tmo){NATB_TMO_ABOVE, 300, 300, 0};
	r.tcp.on = true;
	r.tcp.mapping = NATB_DEP_APD;
	r.tcp.established = (struct natb_tmo){NATB_TMO_ABOVE, 300, 300, 0};
	r.tcp.transitory = (struct natb_tmo){NATB_TMO_FOUND, 250, 245, 255};
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(find(c, n, "RFC4787 REQ-5")->v, NATB_PASS);
	/* above 300 s says nothing against 2 h 4 min */
	assert_int_equal(find(c, n, "RFC5382 REQ-5")->v, NATB_NA);
	assert_int_equal(find(c, n, "RFC5382 REQ-5 (transitory)")->v, NATB_PASS);
	assert_int_equal(find(c, n, "RFC5382 REQ-1")->v, NATB_FAIL);
	assert_int_equal(find(c, n, "RFC7857 §5")->v, NATB_FAIL);
	/* packets that left with their internal source: said first */
	r.untranslated = true;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_string_equal(c[0].id, "RFC4787 §3");
	assert_int_equal(c[0].v, NATB_FAIL);
	/* a short table is cut, not overrun */
	assert_int_equal(natb_checks(&r, c, 3), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mapping), cmocka_unit_test(test_filtering),
	    cmocka_unit_test(test_pooling), cmocka_unit_test(test_alloc),
	    cmocka_unit_test(test_plan),    cmocka_unit_test(test_estimate),
	    cmocka_unit_test(test_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
