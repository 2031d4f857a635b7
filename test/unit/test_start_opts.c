/*
 * test_start_opts.c — `start`'s options (flowgen(8), start) and the split
 * of a run's caps over its workers: start_opts_parse() reads every form,
 * --active alone makes the run unpaced, bad counts are refused naming the
 * option; start_share()'s shares add up to the figure exactly and differ
 * by one at most.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_share),
	    cmocka_unit_test(test_forms),
	    cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
