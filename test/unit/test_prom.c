/*
 * test_prom.c — the metrics writer (src/core/prom.h) and the latency
 * histogram cut at powers of two (lat_pow2, src/core/lat.h): the
 * exposition in both formats (a counter's family name, the common label
 * first, escaping, numbers that read back exactly, NaN and infinities,
 * "# EOF" in OpenMetrics only), a histogram's buckets, and which Accept
 * headers ask for OpenMetrics; the cut's counts against a brute count of
 * random delays at every edge.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lat.h"
#include "prom.h"

static char *mem;
static size_t memlen;

static void open_mem(struct prom *p, bool om)
{
	FILE *f = open_memstream(&mem, &memlen);

	assert_non_null(f);
	prom_init(p, f, om);
}

static void expect(struct prom *p, const char *want)
{
	assert_int_equal(prom_end(p), 0);
	fclose(p->f);
	assert_string_equal(mem, want);
	free(mem);
	mem = NULL;
}

static void test_counter_text(void **state)
{
	struct prom p;

	(void)state;
	open_mem(&p, false);
	prom_common(&p, "instance", "fg-1");
	prom_family(&p, "flowgen_tx_frames_total", PROM_COUNTER, "frames sent");
	prom_u64(&p, "flowgen_tx_frames_total", (struct prom_label[]){{"port", "0"}}, 1,
		 18446744073709551615ull);
	prom_u64(&p, "flowgen_tx_frames_total", (struct prom_label[]){{"port", NULL}}, 1, 7);
	expect(&p, "# HELP flowgen_tx_frames_total frames sent\n"
		   "# TYPE flowgen_tx_frames_total counter\n"
		   "flowgen_tx_frames_total{instance=\"fg-1\",port=\"0\"} 18446744073709551615\n"
		   "flowgen_tx_frames_total{instance=\"fg-1\"} 7\n");
}

static void test_counter_openmetrics(void **state)
{
	struct prom p;

	(void)state;
	open_mem(&p, true);
	prom_family(&p, "flowgen_tx_frames_total", PROM_COUNTER, "frames sent");
	prom_u64(&p, "flowgen_tx_frames_total", NULL, 0, 3);
	prom_family(&p, "flowgen_running", PROM_GAUGE, "running");
	prom_u64(&p, "flowgen_running", NULL, 0, 1);
	/* OpenMetrics: the family without _total, the samples with it; # EOF */
	expect(&p, "# HELP flowgen_tx_frames frames sent\n"
		   "# TYPE flowgen_tx_frames counter\n"
		   "flowgen_tx_frames_total 3\n"
		   "# HELP flowgen_running running\n"
		   "# TYPE flowgen_running gauge\n"
		   "flowgen_running 1\n"
		   "# EOF\n");
}

static void test_escape_and_numbers(void **state)
{
	struct prom p;

	(void)state;
	open_mem(&p, false);
	prom_family(&p, "x", PROM_GAUGE, "a \\ b\nc");
	prom_f64(&p, "x", (struct prom_label[]){{"stream", "a\"b\\c\nd"}}, 1, 0.1);
	prom_f64(&p, "x", NULL, 0, NAN);
	prom_f64(&p, "x", NULL, 0, INFINITY);
	prom_f64(&p, "x", NULL, 0, -INFINITY);
	prom_f64(&p, "x", NULL, 0, 1.0 / 3);
	prom_f64(&p, "x", NULL, 0, 250);
	expect(&p, "# HELP x a \\\\ b\\nc\n"
		   "# TYPE x gauge\n"
		   "x{stream=\"a\\\"b\\\\c\\nd\"} 0.1\n"
		   "x NaN\n"
		   "x +Inf\n"
		   "x -Inf\n"
		   "x 0.33333333333333331\n"
		   "x 250\n");
}

static void test_histogram(void **state)
{
	struct prom p;
	const double le[] = {0.5, 1, 2.5};
	const uint64_t cum[] = {1, 4, 4};

	(void)state;
	open_mem(&p, true);
	prom_common(&p, "instance", "i");
	prom_family(&p, "d_seconds", PROM_HISTOGRAM, "delays");
	prom_hist(&p, "d_seconds", (struct prom_label[]){{"stream", "s"}}, 1, le, cum, 3, 7.25, 6);
	expect(&p, "# HELP d_seconds delays\n"
		   "# TYPE d_seconds histogram\n"
		   "d_seconds_bucket{instance=\"i\",stream=\"s\",le=\"0.5\"} 1\n"
		   "d_seconds_bucket{instance=\"i\",stream=\"s\",le=\"1\"} 4\n"
		   "d_seconds_bucket{instance=\"i\",stream=\"s\",le=\"2.5\"} 4\n"
		   "d_seconds_bucket{instance=\"i\",stream=\"s\",le=\"+Inf\"} 6\n"
		   "d_seconds_sum{instance=\"i\",stream=\"s\"} 7.25\n"
		   "d_seconds_count{instance=\"i\",stream=\"s\"} 6\n"
		   "# EOF\n");
}

static void test_accept(void **state)
{
	(void)state;
	assert_false(prom_wants_openmetrics(NULL));
	assert_false(prom_wants_openmetrics(""));
	assert_false(prom_wants_openmetrics("text/plain;version=0.0.4"));
	assert_false(prom_wants_openmetrics("*/*"));
	/* what Prometheus 2.x sends */
	assert_true(prom_wants_openmetrics(
	    "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
	    "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"));
	assert_true(prom_wants_openmetrics("text/plain;q=0.5, Application/OpenMetrics-Text"));
	assert_true(prom_wants_openmetrics("application/openmetrics-text; q=0.2"));
	assert_false(prom_wants_openmetrics("application/openmetrics-text;q=0"));
	assert_false(prom_wants_openmetrics("application/openmetrics-textual"));
	assert_false(prom_wants_openmetrics("text/plain, application/openmetrics-text;q=x"));
}

/* lat_pow2 against a brute count: delays below each edge, and the sum */
static void test_lat_pow2(void **state)
{
	static struct lat_hist h;
	static uint64_t v[20000];
	struct lat_pow2 c;
	uint64_t sum = 0;

	(void)state;
	lat_init(&h);
	srand(7);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		/* log-uniform over 1 ns .. 2^34 ns, the edges themselves too */
		int e = rand() % 34;

		v[i] = i % 10 == 0 ? 1ull << e : (1ull << e) + (uint64_t)rand() % (1ull << e);
		lat_add(&h, v[i]);
		sum += v[i];
	}
	lat_pow2(&h, &c);
	assert_int_equal(c.count, sizeof(v) / sizeof(v[0]));
	assert_int_equal(c.sum, sum);
	for (int k = 0; k < LAT_POW2_N; k++) {
		uint64_t edge = 1ull << (LAT_POW2_LO + k), below = 0;

		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			below += v[i] < edge;
		assert_int_equal(c.cum[k], below);
		/* an edge begins its bucket */
		assert_int_equal(lat_bucket_low(lat_bucket(edge)), edge);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counter_text),
	    cmocka_unit_test(test_counter_openmetrics),
	    cmocka_unit_test(test_escape_and_numbers),
	    cmocka_unit_test(test_histogram),
	    cmocka_unit_test(test_accept),
	    cmocka_unit_test(test_lat_pow2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
