/*
 * test_offer.c — offered against achieved: the shortfall needs OFFER_SHORT_S
 * seconds below OFFER_SHORT_PCT % without a break, a new offer starts the
 * count again, no offer is never short; and the likely limit's order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "offer.h"

#define HZ 1000ull /* a clock of milliseconds */

static void test_short_after_two_seconds(void **st)
{
	struct offer_track t = {0};
	uint64_t ms = 0;

	(void)st;
	/* 100 ms samples at half the offer: short only once 2 s have passed */
	for (; ms < 2000; ms += 100)
		assert_false(offer_track_update(&t, 1000, 500, ms, HZ));
	assert_true(offer_track_update(&t, 1000, 500, ms, HZ));
	/* one sample at the offer ends it, and the count starts again */
	assert_false(offer_track_update(&t, 1000, 990, ms += 100, HZ));
	assert_false(offer_track_update(&t, 1000, 500, ms += 100, HZ));
	assert_false(offer_track_update(&t, 1000, 500, ms += 1900, HZ));
	assert_true(offer_track_update(&t, 1000, 500, ms += 100, HZ));
}

static void test_threshold(void **st)
{
	struct offer_track t = {0};

	(void)st;
	/* 98 % is enough; just below is not */
	assert_false(offer_track_update(&t, 1000, 980, 0, HZ));
	assert_false(offer_track_update(&t, 1000, 980, 5000, HZ));
	assert_false(offer_track_update(&t, 1000, 979, 5100, HZ));
	assert_true(offer_track_update(&t, 1000, 979, 7100, HZ));
}

static void test_new_offer_restarts(void **st)
{
	struct offer_track t = {0};

	(void)st;
	assert_false(offer_track_update(&t, 1000, 100, 0, HZ));
	assert_true(offer_track_update(&t, 1000, 100, 2500, HZ));
	/* update -m: the ramp to the new rate is not a shortfall */
	assert_false(offer_track_update(&t, 2000, 1000, 2600, HZ));
	assert_false(offer_track_update(&t, 2000, 1000, 4500, HZ));
	assert_true(offer_track_update(&t, 2000, 1000, 4600, HZ));
	/* no offer (stopped, paused, -m max) is never short and forgets */
	assert_false(offer_track_update(&t, 0, 0, 4700, HZ));
	assert_false(offer_track_update(&t, 2000, 0, 4800, HZ));
	assert_false(offer_track_update(&t, 2000, 0, 6700, HZ));
	assert_true(offer_track_update(&t, 2000, 0, 6800, HZ));
}

static void test_limit_order(void **st)
{
	struct offer_signs s = {0};

	(void)st;
	assert_int_equal(offer_limit_guess(&s), OFFER_LIMIT_UNKNOWN);
	s.dut_failed = 10;
	assert_int_equal(offer_limit_guess(&s), OFFER_LIMIT_DUT);
	s.cpu_util_max = 94;
	assert_int_equal(offer_limit_guess(&s), OFFER_LIMIT_DUT);
	s.late = 100; /* the pacer fell behind: the worker, even if not busy */
	assert_int_equal(offer_limit_guess(&s), OFFER_LIMIT_CPU);
	s.late = 0;
	s.cpu_util_max = 99.5;
	assert_int_equal(offer_limit_guess(&s), OFFER_LIMIT_CPU);
	s.tx_refused = 1000;
	assert_int_equal(offer_limit_guess(&s), OFFER_LIMIT_TXQ);
	s.line_util_max = 99;
	assert_int_equal(offer_limit_guess(&s), OFFER_LIMIT_LINE);
	assert_string_equal(offer_limit_names[OFFER_LIMIT_CPU], "the worker's CPU");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_short_after_two_seconds),
	    cmocka_unit_test(test_threshold),
	    cmocka_unit_test(test_new_offer_restarts),
	    cmocka_unit_test(test_limit_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
