/*
 * test_announce.c — announce_step (src/core/announce.h): a port's link-up
 * edges and the RFC 5227 schedule of its announcements.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "announce.h"

/* readings every 100 ms from t0 to t1 (exclusive) of one state: how many
 * copies of announcements they send */
static unsigned run(struct announce *a, bool up, uint64_t t0, uint64_t t1)
{
	unsigned n = 0;

	for (uint64_t t = t0; t < t1; t += 100)
		n += announce_step(a, up, t);
	return n;
}

/* start-up with the link up is no edge: nothing is announced */
static void test_startup_up(void **state)
{
	struct announce a = {0};

	(void)state;
	assert_int_equal(run(&a, true, 0, 10000), 0);
}

/* down, then up: ANNOUNCE_NUM announcements, the first at the first
 * reading ANNOUNCE_SETTLE_MS after the edge, then ANNOUNCE_INTERVAL_MS
 * apart, then no more */
static void test_edge(void **state)
{
	struct announce a = {0};
	const uint64_t t = 3000 + ANNOUNCE_SETTLE_MS;

	(void)state;
	assert_int_equal(run(&a, true, 0, 1000), 0);
	assert_int_equal(run(&a, false, 1000, 3000), 0);
	assert_int_equal(announce_step(&a, true, 3000), 0);
	assert_int_equal(announce_step(&a, true, t - 1), 0);
	assert_int_equal(announce_step(&a, true, t), ANNOUNCE_FIRST_COPIES);
	assert_int_equal(run(&a, true, t + 100, t + ANNOUNCE_INTERVAL_MS), 0);
	assert_int_equal(announce_step(&a, true, t + ANNOUNCE_INTERVAL_MS), 1);
	assert_int_equal(run(&a, true, t + 100 + ANNOUNCE_INTERVAL_MS, 60000), 0);
	assert_int_equal(ANNOUNCE_NUM, 2);
	assert_int_equal(ANNOUNCE_SETTLE_MS, 100);
	assert_int_equal(ANNOUNCE_FIRST_COPIES, 2);
}

/* start-up with the link down, then up: that is an edge */
static void test_startup_down(void **state)
{
	struct announce a = {0};

	(void)state;
	assert_int_equal(announce_step(&a, false, 0), 0);
	assert_int_equal(announce_step(&a, true, 100), 0);
	assert_int_equal(run(&a, true, 200, 20000), ANNOUNCE_FIRST_COPIES + ANNOUNCE_NUM - 1);
}

/* a link that goes down again cancels what was due, the first
 * announcement too when the link did not stay up ANNOUNCE_SETTLE_MS; the
 * next up edge starts the schedule over */
static void test_down_cancels(void **state)
{
	struct announce a = {0};

	(void)state;
	announce_step(&a, false, 0);
	assert_int_equal(announce_step(&a, true, 100), 0);
	assert_int_equal(announce_step(&a, false, 150), 0);
	assert_int_equal(announce_step(&a, true, 200), 0);
	assert_int_equal(announce_step(&a, true, 300), ANNOUNCE_FIRST_COPIES);
	assert_int_equal(run(&a, false, 400, 5000), 0);
	assert_int_equal(run(&a, true, 5000, 30000), ANNOUNCE_FIRST_COPIES + ANNOUNCE_NUM - 1);
}

/* readings further apart than the interval: one announcement a reading
 * until none is left, never two announcements at one reading */
static void test_sparse(void **state)
{
	struct announce a = {0};
	unsigned n = 0, k = 0, c;

	(void)state;
	announce_step(&a, false, 0);
	for (uint64_t t = 1; t < 100000; t += 5000) {
		c = announce_step(&a, true, t);
		assert_true(c == 0 || c == (k ? 1 : ANNOUNCE_FIRST_COPIES));
		k += c > 0;
		n += c;
	}
	assert_int_equal(k, ANNOUNCE_NUM);
	assert_int_equal(n, ANNOUNCE_FIRST_COPIES + ANNOUNCE_NUM - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_startup_up),	 cmocka_unit_test(test_edge),
	    cmocka_unit_test(test_startup_down), cmocka_unit_test(test_down_cancels),
	    cmocka_unit_test(test_sparse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
