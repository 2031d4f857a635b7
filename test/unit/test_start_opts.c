/*
 * test_start_opts.c — `start`'s options (flowgen(8), start) and the split
 * of a run's caps over its workers: start_opts_parse() reads every form,
 * --active alone makes the run unpaced, bad counts are refused naming the
 * option; start_share()'s shares add up to the figure exactly and differ
 * by one at most; --at reads an RFC 3339 time or +SECONDS to the
 * nanosecond, refuses other forms naming --at, and start_at_resolve()
 * refuses a time that has passed or lies more than a day ahead.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "start_opts.h"
#include "units.h"

/* start_opts_parse() over "start" and the NULL-ended words a (kept in
 * static buffers: o's strings point into them until the next call). */
static int parse(struct start_opts *o, char *err, size_t errlen, const char *const *a)
{
	static char buf[24][64];
	static char *argv[25];
	int n = 0;

	argv[n] = strcpy(buf[n], "start");
	for (n = 1; a[n - 1]; n++)
		argv[n] = strcpy(buf[n], a[n - 1]);
	argv[n] = NULL;
	return start_opts_parse(n, argv, o, err, errlen);
}

#define PARSE(o, err, ...) parse(o, err, sizeof(err), (const char *const[]){__VA_ARGS__, NULL})

static void test_share(void **state)
{
	static const uint64_t ns[] = {0, 1, 2, 50, 51, 101, 1000, 1001, 20000, 1000000007ULL};

	(void)state;
	for (size_t a = 0; a < sizeof(ns) / sizeof(ns[0]); a++)
		for (unsigned k = 1; k <= 17; k++) {
			uint64_t sum = 0, lo = UINT64_MAX, hi = 0;

			for (unsigned i = 0; i < k; i++) {
				uint64_t v = start_share(ns[a], k, i);

				sum += v;
				lo = v < lo ? v : lo;
				hi = v > hi ? v : hi;
				/* the first workers take the remainder */
				if (i > 0)
					assert_true(v <= start_share(ns[a], k, i - 1));
			}
			assert_int_equal(sum, ns[a]);
			assert_true(hi - lo <= 1);
		}
	assert_int_equal(start_share(101, 2, 0), 51);
	assert_int_equal(start_share(101, 2, 1), 50);
	assert_int_equal(start_share(1, 4, 3), 0);
	assert_int_equal(start_share(10, 0, 0), 0); /* no worker generates */
	assert_int_equal(start_share(10, 2, 2), 0); /* not one of them */
}

static void test_forms(void **state)
{
	struct start_opts o;
	char err[256] = "";

	(void)state;
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml"), 0);
	assert_string_equal(o.file, "p.yaml");
	assert_int_equal(o.mult.kind, UNITS_MULT);
	assert_true(o.mult.value == 1);
	assert_false(o.has_mult);
	assert_int_equal(o.active, 0);
	assert_null(o.ports);
	assert_false(o.force || o.keep);

	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "-m", "20kcps", "-d", "30", "-p", "0-1",
			       "-t", "payload_check=0", "--force", "--nc"),
			 0);
	assert_int_equal(o.mult.kind, UNITS_CPS);
	assert_true(o.mult.value == 20000);
	assert_true(o.duration_s == 30);
	assert_string_equal(o.ports, "0-1");
	assert_string_equal(o.tunables, "payload_check=0");
	assert_true(o.force && o.keep);

	/* --active alone: unpaced; with -m, -m stays the cap (either order) */
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "--active", "20000"), 0);
	assert_int_equal(o.active, 20000);
	assert_int_equal(o.mult.kind, UNITS_MAX);
	assert_int_equal(PARSE(&o, err, "--active=5", "-f", "p.yaml", "-m", "2"), 0);
	assert_int_equal(o.active, 5);
	assert_int_equal(o.mult.kind, UNITS_MULT);
	assert_true(o.mult.value == 2);
	assert_int_equal(PARSE(&o, err, "-m", "max", "-f", "p.yaml", "--active", "1000000000"), 0);
	assert_int_equal(o.active, START_ACTIVE_MAX);
	assert_int_equal(o.mult.kind, UNITS_MAX);
	/* a later parse starts afresh */
	assert_int_equal(PARSE(&o, err, "-f", "q.yaml"), 0);
	assert_int_equal(o.active, 0);
	assert_int_equal(o.mult.kind, UNITS_MULT);
}

static void test_bad(void **state)
{
	static const char *const counts[] = {
	    "0",  "-1", "",	"12x",	      "1e3",
	    " 5", "+5", "0x10", "1000000001", "99999999999999999999999"};
	struct start_opts o;
	char err[256], want[256];

	(void)state;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		err[0] = '\0';
		assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "--active", counts[i]), -EINVAL);
		snprintf(want, sizeof(want),
			 "--active '%s': a count of concurrent flows, 1..1000000000", counts[i]);
		assert_string_equal(err, want);
	}
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "--active"), -EINVAL);
	assert_string_equal(err, "usage");
	assert_int_equal(PARSE(&o, err, "--active", "5"), -EINVAL); /* no -f */
	assert_string_equal(err, "usage");
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "extra"), -EINVAL);
	assert_string_equal(err, "usage");
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "--activ", "5", "--bogus"), -EINVAL);
	assert_string_equal(err, "usage");
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "-m", "fast"), -EINVAL);
	assert_memory_equal(err, "-m ", 3);
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "-d", "-3"), -EINVAL);
	assert_memory_equal(err, "-d ", 3);
}

#define NS 1000000000LL

static void test_at(void **state)
{
	struct start_opts o;
	char err[512] = "";

	(void)state;
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml"), 0);
	assert_int_equal(o.at.kind, START_AT_NONE);
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "--at", "2026-12-05T07:01:02.250Z"), 0);
	assert_int_equal(o.at.kind, START_AT_TIME);
	assert_int_equal(o.at.ns, 1796454062LL * NS + 250000000);
	assert_string_equal(o.at.text, "2026-12-05T07:01:02.250Z");
	assert_int_equal(PARSE(&o, err, "--at=2026-12-05T08:01:02.250+01:00", "-f", "p.yaml"), 0);
	assert_int_equal(o.at.ns, 1796454062LL * NS + 250000000);
	/* +SECONDS: decimal, to the ns */
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "--at", "+2"), 0);
	assert_int_equal(o.at.kind, START_AT_IN);
	assert_int_equal(o.at.ns, 2 * NS);
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "--at", "+0.5"), 0);
	assert_int_equal(o.at.ns, NS / 2);
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "--at", "+1.000000001"), 0);
	assert_int_equal(o.at.ns, NS + 1);
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "--at", "+86400"), 0);
	assert_int_equal(o.at.ns, 86400 * NS);
	/* a later parse starts afresh */
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml"), 0);
	assert_int_equal(o.at.kind, START_AT_NONE);
}

static void test_at_bad(void **state)
{
	static const char *const bad[] = {
	    "",	    "+",	"+-1", "-1",	 "+1e3",  "+0x10",	   "+1.",
	    "+.5",  "+ 2",	"2",   "+2s",	 "now",	  "+86400.000000001", "+86401",
	    "+99999999999999999999", "2026-12-05T07:01:02", "2026-02-30T00:00:00Z",
	    "2026-12-05T07:01:02.5+1:00"};
	struct start_opts o;
	char err[512], want[512];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "--at", bad[i]), -EINVAL);
		snprintf(want, sizeof(want),
			 "--at '%s': a time in RFC 3339 form (2026-12-05T07:01:02.250Z, or with "
			 "an offset: 2026-12-05T08:01:02.250+01:00) or +SECONDS from now (+2, "
			 "+0.5; at most 86400)",
			 bad[i]);
		assert_string_equal(err, want);
	}
	assert_int_equal(PARSE(&o, err, "-f", "p.yaml", "--at"), -EINVAL);
	assert_string_equal(err, "usage");
}

static void test_at_resolve(void **state)
{
	const int64_t now = 1796454062LL * NS + 250000000;
	struct start_at a;
	char err[256] = "";
	int64_t t = 0;

	(void)state;
	/* none: now */
	memset(&a, 0, sizeof(a));
	assert_int_equal(start_at_resolve(&a, now, &t, err, sizeof(err)), 0);
	assert_int_equal(t, now);
	/* +SECONDS from now */
	assert_int_equal(start_at_parse("+2.5", &a, err, sizeof(err)), 0);
	assert_int_equal(start_at_resolve(&a, now, &t, err, sizeof(err)), 0);
	assert_int_equal(t, now + 5 * NS / 2);
	/* a time 1 ns ahead is ahead */
	assert_int_equal(start_at_parse("2026-12-05T07:01:02.250000001Z", &a, err, sizeof(err)), 0);
	assert_int_equal(start_at_resolve(&a, now, &t, err, sizeof(err)), 0);
	assert_int_equal(t, now + 1);
	/* now itself has passed, and so has a second ago */
	assert_int_equal(start_at_parse("2026-12-05T07:01:02.250Z", &a, err, sizeof(err)), 0);
	assert_int_equal(start_at_resolve(&a, now, &t, err, sizeof(err)), -ETIME);
	assert_string_equal(err, "--at 2026-12-05T07:01:02.250Z: that time has passed (0.000 s ago)");
	assert_int_equal(start_at_parse("2026-12-05T08:01:01.250+01:00", &a, err, sizeof(err)), 0);
	assert_int_equal(start_at_resolve(&a, now, &t, err, sizeof(err)), -ETIME);
	assert_string_equal(err,
			    "--at 2026-12-05T08:01:01.250+01:00: that time has passed (1.000 s ago)");
	/* +0 is now: passed by the time it is placed */
	assert_int_equal(start_at_parse("+0", &a, err, sizeof(err)), 0);
	assert_int_equal(start_at_resolve(&a, now, &t, err, sizeof(err)), -ETIME);
	/* a day ahead, and not a nanosecond more */
	assert_int_equal(start_at_parse("2026-12-06T07:01:02.250Z", &a, err, sizeof(err)), 0);
	assert_int_equal(start_at_resolve(&a, now, &t, err, sizeof(err)), 0);
	assert_int_equal(t, now + 86400 * NS);
	assert_int_equal(start_at_parse("2026-12-06T07:01:02.250000001Z", &a, err, sizeof(err)), 0);
	assert_int_equal(start_at_resolve(&a, now, &t, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "--at 2026-12-06T07:01:02.250000001Z: 86400 s ahead; a start is "
				 "planned at most 86400 s (a day) ahead");
	assert_int_equal(start_at_parse("2027-12-05T07:01:02Z", &a, err, sizeof(err)), 0);
	assert_int_equal(start_at_resolve(&a, now, &t, err, sizeof(err)), -ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_share),
	    cmocka_unit_test(test_forms),
	    cmocka_unit_test(test_bad),
	    cmocka_unit_test(test_at),
	    cmocka_unit_test(test_at_bad),
	    cmocka_unit_test(test_at_resolve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
