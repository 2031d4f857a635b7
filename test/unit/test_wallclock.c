/*
 * test_wallclock.c — the system clock against the TSC (wallclock.h, for
 * start --at and stats --json's start_planned and first_frame): RFC 3339
 * times read to the nanosecond with Z and with offsets, the calendar's
 * bad days and bad forms refused; written back in UTC with nine digits;
 * and a (system clock, TSC) pair's conversions, both ways, rounded to
 * the nearest unit and exact over a day ahead (no 64-bit overflow).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "wallclock.h"

#define NS 1000000000LL

static void test_parse(void **state)
{
	int64_t t;

	(void)state;
	assert_int_equal(wc_parse("1970-01-01T00:00:00Z", &t), 0);
	assert_int_equal(t, 0);
	/* `date -u -d 2026-12-05T07:01:02Z +%s` = 1796454062 */
	assert_int_equal(wc_parse("2026-12-05T07:01:02Z", &t), 0);
	assert_int_equal(t, 1796454062LL * NS);
	assert_int_equal(wc_parse("2026-12-05T07:01:02.250Z", &t), 0);
	assert_int_equal(t, 1796454062LL * NS + 250000000);
	/* fractions to the ns; digits past the ninth are cut */
	assert_int_equal(wc_parse("2026-12-05T07:01:02.000000001Z", &t), 0);
	assert_int_equal(t, 1796454062LL * NS + 1);
	assert_int_equal(wc_parse("2026-12-05T07:01:02.1234567899Z", &t), 0);
	assert_int_equal(t, 1796454062LL * NS + 123456789);
	/* offsets: local time less the offset is UTC (RFC 3339 §4.2) */
	assert_int_equal(wc_parse("2026-12-05T08:01:02.250+01:00", &t), 0);
	assert_int_equal(t, 1796454062LL * NS + 250000000);
	assert_int_equal(wc_parse("2026-12-04T23:31:02-07:30", &t), 0);
	assert_int_equal(t, 1796454062LL * NS);
	assert_int_equal(wc_parse("2026-12-05T07:01:02-00:00", &t), 0);
	assert_int_equal(t, 1796454062LL * NS);
	/* T and Z in either case (§5.6, NOTE) */
	assert_int_equal(wc_parse("2026-12-05t07:01:02z", &t), 0);
	assert_int_equal(t, 1796454062LL * NS);
	/* leap days */
	assert_int_equal(wc_parse("2028-02-29T00:00:00Z", &t), 0);
	assert_int_equal(t, 1835395200LL * NS);
	assert_int_equal(wc_parse("2000-02-29T12:00:00Z", &t), 0);
	assert_int_equal(t, 951825600LL * NS);
	/* the last time 64 bits of ns hold whole years of */
	assert_int_equal(wc_parse("2261-12-31T23:59:59.999999999Z", &t), 0);
	assert_int_equal(t, 9214646399LL * NS + 999999999);
}

static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
	    "",
	    "2026-12-05",			 /* no time */
	    "2026-12-05T07:01:02",		 /* no offset */
	    "2026-12-05 07:01:02Z",		 /* a space: one word each */
	    "2026-12-05T07:01Z",		 /* no seconds */
	    "2026-12-05T07:01:02.Z",		 /* a point without digits */
	    "2026-12-05T07:01:02,5Z",		 /* a comma */
	    "2026-12-05T07:01:02+0100",		 /* an offset without its colon */
	    "2026-12-05T07:01:02+01",		 /* half an offset */
	    "2026-12-05T07:01:02+24:00",	 /* no such offset */
	    "2026-12-05T07:01:02Zjunk",		 /* trailing text */
	    "2026-13-05T07:01:02Z",		 /* month 13 */
	    "2026-00-05T07:01:02Z",		 /* month 0 */
	    "2026-02-29T07:01:02Z",		 /* not a leap year */
	    "1900-02-29T00:00:00Z",		 /* not one either */
	    "2026-04-31T07:01:02Z",		 /* April has 30 days */
	    "2026-12-00T07:01:02Z",		 /* day 0 */
	    "2026-12-05T24:00:00Z",		 /* hour 24 */
	    "2026-12-05T07:60:02Z",		 /* minute 60 */
	    "2016-12-31T23:59:60Z",		 /* a leap second */
	    "1969-12-31T23:59:59Z",		 /* before the epoch */
	    "2262-01-01T00:00:00Z",		 /* past 64 bits of ns (2262-04-11) */
	    "9999-12-31T23:59:59Z",
	    "1970-01-01T00:30:00+01:00",	 /* before it once the offset is applied */
	    "26-12-05T07:01:02Z",		 /* a two-digit year */
	    "+2",				 /* start --at's other form, not this one's */
	    "2026-1-05T07:01:02Z",
	};
	int64_t t = 42;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (wc_parse(bad[i], &t) != -EINVAL)
			fail_msg("'%s' was read as %lld", bad[i], (long long)t);
	}
	assert_int_equal(wc_parse(NULL, &t), -EINVAL);
	assert_int_equal(t, 42);
}

static void test_fmt(void **state)
{
	char b[WC_TEXT_MAX];
	int64_t t;

	(void)state;
	assert_int_equal(wc_fmt(0, b, sizeof(b)), 30);
	assert_string_equal(b, "1970-01-01T00:00:00.000000000Z");
	wc_fmt(1796454062LL * NS + 250000000, b, sizeof(b));
	assert_string_equal(b, "2026-12-05T07:01:02.250000000Z");
	wc_fmt(1835395200LL * NS + 1, b, sizeof(b));
	assert_string_equal(b, "2028-02-29T00:00:00.000000001Z");
	wc_fmt(9214646399LL * NS + 999999999, b, sizeof(b));
	assert_string_equal(b, "2261-12-31T23:59:59.999999999Z");
	/* what it writes reads back the same, every day of a few years */
	for (int64_t d = 20000; d < 22000; d += 7) {
		int64_t v = d * 86400 * NS + (d % 86400) * NS + d;

		assert_int_equal(wc_fmt(v, b, sizeof(b)), 30);
		assert_int_equal(wc_parse(b, &t), 0);
		assert_int_equal(t, v);
	}
	/* outside years 1970..2261, or a buffer too short: nothing */
	assert_int_equal(wc_fmt(-1, b, sizeof(b)), 0);
	assert_string_equal(b, "");
	assert_int_equal(wc_fmt(9214646400LL * NS, b, sizeof(b)), 0);
	assert_int_equal(wc_fmt(0, b, 16), 0);
}

static void test_pair(void **state)
{
	/* a 2.596124656 GHz TSC read 5 ns after 2026-12-05T07:01:00Z */
	const struct wc_pair p = {.rt_ns = 1796454060LL * NS + 5,
				  .tsc = 123456789012345ULL,
				  .hz = 2596124656ULL};
	int64_t at = 1796454062LL * NS + 250000000; /* 2.249999995 s later */
	uint64_t tsc;

	(void)state;
	assert_int_equal(wc_tsc_of(&p, p.rt_ns), p.tsc);
	assert_int_equal(wc_rt_of(&p, p.tsc), p.rt_ns);
	/* 2.249999995 s x 2.596124656 GHz = 5841280463.019... cycles */
	tsc = wc_tsc_of(&p, at);
	assert_int_equal(tsc, p.tsc + 5841280463ULL);
	/* and back: within half a cycle's ns, rounded to the ns */
	assert_int_equal(wc_rt_of(&p, tsc), at);
	assert_int_equal(wc_rt_of(&p, tsc + 3), at + 1); /* 3 cycles: 1.156 ns */
	/* before the pair */
	assert_int_equal(wc_tsc_of(&p, p.rt_ns - NS), p.tsc - p.hz);
	assert_int_equal(wc_rt_of(&p, p.tsc - p.hz), p.rt_ns - NS);
	/* a day ahead (the most start --at plans): no overflow, exact */
	assert_int_equal(wc_tsc_of(&p, p.rt_ns + 86400 * NS), p.tsc + 86400 * p.hz);
	assert_int_equal(wc_rt_of(&p, p.tsc + 86400 * p.hz), p.rt_ns + 86400 * NS);
	/* rounding to the nearest cycle: 1 ns at 2.596 GHz is 2.596 cycles */
	assert_int_equal(wc_tsc_of(&p, p.rt_ns + 1), p.tsc + 3);
	assert_int_equal(wc_tsc_of(&p, p.rt_ns - 1), p.tsc - 3);
	/* a time before the TSC's 0 */
	assert_int_equal(wc_tsc_of(&p, 0), 0);
	/* no rate: the pair's own time */
	const struct wc_pair z = {.rt_ns = 7, .tsc = 100, .hz = 0};

	assert_int_equal(wc_rt_of(&z, 5000), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_parse_bad),
	    cmocka_unit_test(test_fmt),
	    cmocka_unit_test(test_pair),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
