/*
 * test_streams.c — the pure parts of the streams engine: the IMIX frame
 * sequence keeps each size's share and spreads it evenly, and `start -t`
 * tunables parse or fail with a reason.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "streams.h"

static void test_imix_default_shares(void **st)
{
	uint16_t seq[64];
	int n = streams_imix_seq(units_imix_default, 3, seq, 64);
	int count[3] = {0}, run = 0, maxrun = 0;

	(void)st;
	assert_int_equal(n, 12); /* 7 + 4 + 1 */
	for (int i = 0; i < n; i++) {
		if (seq[i] == 60)
			count[0]++;
		else if (seq[i] == 590)
			count[1]++;
		else if (seq[i] == 1514)
			count[2]++;
		else
			fail_msg("unexpected size %u", seq[i]);
		/* evenly spread: the 64-byte frames never come 4 in a row */
		run = seq[i] == 60 ? run + 1 : 0;
		maxrun = run > maxrun ? run : maxrun;
	}
	assert_int_equal(count[0], 7);
	assert_int_equal(count[1], 4);
	assert_int_equal(count[2], 1);
	assert_true(maxrun <= 3);
}

static void test_imix_truncated_and_bad(void **st)
{
	static const struct units_imix_entry big[] = {{64, 1000}, {1518, 1000}};
	static const struct units_imix_entry zero[] = {{64, 0}};
	uint16_t seq[16];
	int n = streams_imix_seq(big, 2, seq, 16);

	(void)st;
	assert_int_equal(n, 16);
	assert_int_equal(streams_imix_seq(zero, 1, seq, 16), -EINVAL);
	assert_int_equal(streams_imix_seq(big, 0, seq, 16), -EINVAL);
}

static void test_tunables(void **st)
{
	bool learn = true;
	double wait = 1.5, drain = 1;
	char err[128];

	(void)st;
	assert_int_equal(streams_parse_tunables(NULL, &learn, &wait, &drain, err, sizeof(err)), 0);
	assert_true(learn);
	assert_int_equal(streams_parse_tunables("learn=0,learn_wait=3", &learn, &wait, &drain, err,
						sizeof(err)),
			 0);
	assert_false(learn);
	assert_true(wait == 3.0);
	assert_true(drain == 1.0);
	assert_int_equal(streams_parse_tunables("drain=2.5", &learn, &wait, &drain, err, sizeof(err)),
			 0);
	assert_true(drain == 2.5);
	assert_int_not_equal(streams_parse_tunables("drain=4", &learn, &wait, &drain, err, sizeof(err)),
			     0);
	assert_true(drain == 2.5);
	assert_int_not_equal(streams_parse_tunables("nope=1", &learn, &wait, &drain, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "nope"));
	assert_int_not_equal(streams_parse_tunables("learn_wait=99", &learn, &wait, &drain, err, sizeof(err)),
			     0);
	assert_int_not_equal(streams_parse_tunables("learn=", &learn, &wait, &drain, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_imix_default_shares),
		cmocka_unit_test(test_imix_truncated_and_bad),
		cmocka_unit_test(test_tunables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
