/*
 * test_cpushare.c — cpushare_shared (src/core/cpushare.h): which lcores
 * share a CPU with another.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cpushare.h"

/* the mapping of -c 3 on 2 CPUs: main 0->0, workers 1->1, 2->0, 3->1 */
static void test_three_on_two(void **state)
{
	uint64_t s[4] = {1u << 0, 1u << 1, 1u << 0, 1u << 1};

	(void)state;
	for (unsigned i = 0; i < 4; i++)
		assert_true(cpushare_shared(s, 1, 4, i));
}

/* one lcore per CPU: nobody shares */
static void test_own_cpus(void **state)
{
	uint64_t s[3] = {1u << 0, 1u << 1, 1u << 2};

	(void)state;
	for (unsigned i = 0; i < 3; i++)
		assert_false(cpushare_shared(s, 1, 3, i));
}

/* -c 2 on 2 CPUs: the second worker shares the main lcore's CPU, the
 * first has its own */
static void test_shares_main(void **state)
{
	uint64_t s[3] = {1u << 0, 1u << 1, 1u << 0};

	(void)state;
	assert_true(cpushare_shared(s, 1, 3, 0));
	assert_false(cpushare_shared(s, 1, 3, 1));
	assert_true(cpushare_shared(s, 1, 3, 2));
}

/* sets of several CPUs and CPUs beyond the first word */
static void test_words(void **state)
{
	uint64_t s[3 * 2];

	(void)state;
	memset(s, 0, sizeof(s));
	s[0 * 2 + 0] = 0x3;	/* CPUs 0, 1 */
	s[1 * 2 + 1] = 1u << 4; /* CPU 68 */
	s[2 * 2 + 0] = 1u << 2; /* CPU 2 */
	s[2 * 2 + 1] = 1u << 5; /* CPU 69 */
	for (unsigned i = 0; i < 3; i++)
		assert_false(cpushare_shared(s, 2, 3, i));
	s[2 * 2 + 1] |= 1u << 4; /* CPU 68 too */
	assert_false(cpushare_shared(s, 2, 3, 0));
	assert_true(cpushare_shared(s, 2, 3, 1));
	assert_true(cpushare_shared(s, 2, 3, 2));
}

/* one lcore, or an index out of range: nothing to share with */
static void test_edges(void **state)
{
	uint64_t s[2] = {1u << 0, 1u << 0};

	(void)state;
	assert_false(cpushare_shared(s, 1, 1, 0));
	assert_false(cpushare_shared(s, 1, 2, 2));
	assert_false(cpushare_shared(s, 1, 0, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_three_on_two), cmocka_unit_test(test_own_cpus),
	    cmocka_unit_test(test_shares_main),	 cmocka_unit_test(test_words),
	    cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
