/*
 * test_units.c — rates, sizes, durations and the line-rate arithmetic of
 * Ethernet: the 14,880,952 frames/s of 10G at 64 bytes, the 7:4:1 IMIX
 * average, every MULT form of flowgen(8) and the strings that must be refused.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "units.h"

static void test_line_rate(void **state)
{
	(void)state;
	assert_int_equal((uint64_t)units_line_pps(10000000000ull, 64), 14880952);
	assert_int_equal((uint64_t)units_line_pps(10000000000ull, 1518), 812743);
	assert_int_equal((uint64_t)units_line_pps(1000000000ull, 64), 1488095);
	assert_int_equal(units_frame_bits(64, false), 512);
	assert_int_equal(units_frame_bits(64, true), 672);
	/* no division by zero */
	assert_true(units_line_pps(10000000000ull, 0) == 0);
	assert_true(units_line_pps(0, 64) == 0);
	assert_true(units_bps_to_pps(1e9, 0, false) == 0);
	assert_true(fabs(units_pct_to_pps(10, 10000000000ull, 64) - 1488095.238) < 0.01);
	assert_true(fabs(units_bps_to_pps(512e6, 64, false) - 1e6) < 1e-6);
	assert_true(fabs(units_bps_to_pps(672e6, 64, true) - 1e6) < 1e-6);
	assert_true(fabs(units_pps_to_bps(1e6, 64, true) - 672e6) < 1e-3);
}

static void test_imix(void **state)
{
	double avg = 0;
	struct units_imix_entry zero[1] = {{64, 0}};

	(void)state;
	assert_int_equal(units_imix_avg(units_imix_default, 3, &avg), 0);
	assert_true(fabs(avg - 4342.0 / 12.0) < 1e-9); /* 361.83 */
	assert_int_equal(units_imix_avg(zero, 1, &avg), -EINVAL);
	assert_int_equal(units_imix_avg(units_imix_default, 0, &avg), -EINVAL);
}

static void test_mult_forms(void **state)
{
	struct units_rate r;
	char err[256];

	(void)state;
	assert_int_equal(units_parse_mult("2.5", &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, UNITS_MULT);
	assert_true(r.value == 2.5);
	assert_int_equal(units_parse_mult("10kpps", &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, UNITS_PPS);
	assert_true(r.value == 10000);
	assert_int_equal(units_parse_mult("1.5MPPS", &r, err, sizeof(err)), 0);
	assert_true(r.kind == UNITS_PPS && r.value == 1.5e6);
	assert_int_equal(units_parse_mult("500mbps", &r, err, sizeof(err)), 0);
	assert_true(r.kind == UNITS_BPS && r.value == 500e6 && !r.l1);
	assert_int_equal(units_parse_mult("2gbps", &r, err, sizeof(err)), 0);
	assert_true(r.kind == UNITS_BPS && r.value == 2e9);
	assert_int_equal(units_parse_mult("1gbps_l1", &r, err, sizeof(err)), 0);
	assert_true(r.kind == UNITS_BPS && r.value == 1e9 && r.l1);
	assert_int_equal(units_parse_mult("40%", &r, err, sizeof(err)), 0);
	assert_true(r.kind == UNITS_PCT && r.value == 40);
	assert_int_equal(units_parse_mult("20kcps", &r, err, sizeof(err)), 0);
	assert_true(r.kind == UNITS_CPS && r.value == 20000);
	assert_int_equal(units_parse_mult("max", &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, UNITS_MAX);
	assert_string_equal(units_kind_names[UNITS_CPS], "cps");
}

static void test_rate_forms(void **state)
{
	struct units_rate r;
	char err[256];

	(void)state;
	assert_int_equal(units_parse_rate("1000", &r, err, sizeof(err)), 0);
	assert_true(r.kind == UNITS_PPS && r.value == 1000);
	assert_int_equal(units_parse_rate("max", &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(units_parse_rate("5kcps", &r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "'5kcps': a stream rate cannot be in connections/s");
}

static void test_bad_rates(void **state)
{
	static const char *const bad[] = {
	    "",
	    "abc",
	    "10kbs",
	    "-5",
	    "0",
	    "0kpps",
	    "101%",
	    "1e9",
	    "0x10",
	    "inf",
	    "nan",
	    " 10",
	    "10 ",
	    ".",
	    "1..2",
	    "1e30gbps",
	    "99999999999999gbps",
	    "2000000000",
	    "10kpps10",
	};
	struct units_rate r;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (units_parse_mult(bad[i], &r, err, sizeof(err)) != -EINVAL)
			fail_msg("'%s' was accepted", bad[i]);
		assert_true(err[0] != '\0');
	}
	assert_int_equal(units_parse_mult("10kbs", &r, err, sizeof(err)), -EINVAL);
	assert_string_equal(
	    err, "'10kbs': unknown rate unit (use pps, kpps, mpps, mbps, gbps, %, kcps)");
	assert_int_equal(units_parse_mult("101%", &r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "'101%' is more than 100% of line rate");
	assert_int_equal(units_parse_mult(NULL, &r, NULL, 0), -EINVAL);
}

static void test_rate_to_pps(void **state)
{
	struct units_rate r;
	char err[256];
	double pps;

	(void)state;
	assert_int_equal(units_parse_rate("10%", &r, err, sizeof(err)), 0);
	assert_int_equal(units_rate_to_pps(&r, 10000000000ull, 64, &pps, err, sizeof(err)), 0);
	assert_int_equal((uint64_t)(pps + 0.5), 1488095);
	assert_int_equal(units_rate_to_pps(&r, 0, 64, &pps, err, sizeof(err)), -EINVAL);
	assert_int_equal(units_parse_rate("512mbps", &r, err, sizeof(err)), 0);
	assert_int_equal(units_rate_to_pps(&r, 0, 64, &pps, err, sizeof(err)), 0);
	assert_true(fabs(pps - 1e6) < 1e-6);
	assert_int_equal(units_rate_to_pps(&r, 0, 0, &pps, err, sizeof(err)), -EINVAL);
	assert_int_equal(units_parse_mult("3", &r, err, sizeof(err)), 0);
	assert_int_equal(units_rate_to_pps(&r, 10000000000ull, 64, &pps, err, sizeof(err)),
			 -EINVAL);
}

static void test_durations(void **state)
{
	static const char *const bad[] = {"", "x", "10d", "-1", "1e3", "5 s", "999999999999h"};
	char err[256];
	double s;
	size_t i;

	(void)state;
	assert_int_equal(units_parse_duration("10", &s, err, sizeof(err)), 0);
	assert_true(s == 10);
	assert_int_equal(units_parse_duration("500ms", &s, err, sizeof(err)), 0);
	assert_true(fabs(s - 0.5) < 1e-12);
	assert_int_equal(units_parse_duration("2s", &s, err, sizeof(err)), 0);
	assert_true(s == 2);
	assert_int_equal(units_parse_duration("1m", &s, err, sizeof(err)), 0);
	assert_true(s == 60);
	assert_int_equal(units_parse_duration("1.5h", &s, err, sizeof(err)), 0);
	assert_true(s == 5400);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (units_parse_duration(bad[i], &s, err, sizeof(err)) != -EINVAL)
			fail_msg("duration '%s' was accepted", bad[i]);
	assert_int_equal(units_parse_duration("10d", &s, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "'10d': unknown duration unit (use ms, s, m, h)");
}

static void test_sizes(void **state)
{
	static const char *const bad[] = {"", "k", "1.5", "1t", "-1", "99999999g", "64 k"};
	char err[256];
	uint64_t b;
	size_t i;

	(void)state;
	assert_int_equal(units_parse_size("1518", &b, err, sizeof(err)), 0);
	assert_int_equal(b, 1518);
	assert_int_equal(units_parse_size("64k", &b, err, sizeof(err)), 0);
	assert_int_equal(b, 65536);
	assert_int_equal(units_parse_size("2MiB", &b, err, sizeof(err)), 0);
	assert_int_equal(b, 2097152);
	assert_int_equal(units_parse_size("1.5k", &b, err, sizeof(err)), 0);
	assert_int_equal(b, 1536);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (units_parse_size(bad[i], &b, err, sizeof(err)) != -EINVAL)
			fail_msg("size '%s' was accepted", bad[i]);
}

static void test_fmt(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(units_fmt(14880952, "pps", buf, sizeof(buf)), "14.88 Mpps");
	assert_string_equal(units_fmt(512, "B", buf, sizeof(buf)), "512 B");
	assert_string_equal(units_fmt(9.98e9, "bps", buf, sizeof(buf)), "9.98 Gbps");
	assert_string_equal(units_fmt(NAN, "pps", buf, sizeof(buf)), "- pps");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_line_rate),  cmocka_unit_test(test_imix),
	    cmocka_unit_test(test_mult_forms), cmocka_unit_test(test_rate_forms),
	    cmocka_unit_test(test_bad_rates),  cmocka_unit_test(test_rate_to_pps),
	    cmocka_unit_test(test_durations),  cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_fmt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
