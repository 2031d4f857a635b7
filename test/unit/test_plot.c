/*
 * test_plot.c — the latency histogram's display bins (plot_hist_bins): the
 * bins cover the least delay to p99.9 in equal steps, one overflow bin
 * holds what lies beyond, every delay is counted exactly once, and an empty
 * histogram gives no bins.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lat.h"
#include "plot_bins.h"

#define NB 40

static void test_empty(void **state)
{
	struct lat_hist *h = malloc(sizeof(*h));
	double lo[NB + 1], hi[NB + 1], c[NB + 1];

	(void)state;
	assert_non_null(h);
	lat_init(h);
	assert_int_equal(plot_hist_bins(h, NB, lo, hi, c), 0);
	free(h);
}

static void test_bins(void **state)
{
	struct lat_hist *h = malloc(sizeof(*h));
	double lo[NB + 1], hi[NB + 1], c[NB + 1], sum = 0;
	int n;

	(void)state;
	assert_non_null(h);
	lat_init(h);
	/* 10,000 delays from 1 to 10 us, and 5 far out at 1 ms */
	for (int i = 0; i < 10000; i++)
		lat_add(h, 1000 + (uint64_t)i * 9000 / 10000);
	for (int i = 0; i < 5; i++)
		lat_add(h, 1000000);
	n = plot_hist_bins(h, NB, lo, hi, c);
	assert_int_equal(n, NB + 1); /* the far ones are beyond p99.9 */
	for (int i = 0; i < n; i++)
		sum += c[i];
	assert_true(sum == (double)h->count);
	assert_true(fabs(lo[0] - (double)h->min / 1000) < 1e-9);
	assert_true(fabs(hi[NB - 1] - (double)lat_percentile(h, 99.9) / 1000) < 1e-6);
	assert_true(fabs(hi[NB] - 1000.0) < 1e-9); /* the overflow bin ends at the max */
	assert_true(c[NB] >= 5 && c[NB] < 20);
	for (int i = 1; i < NB; i++) {
		assert_true(fabs((hi[i] - lo[i]) - (hi[0] - lo[0])) < 1e-9);
		assert_true(fabs(lo[i] - hi[i - 1]) < 1e-9);
	}
	/* evenly spread delays fill the bins about evenly */
	for (int i = 1; i < NB - 1; i++)
		assert_true(c[i] > 10000.0 / NB / 2 && c[i] < 10000.0 / NB * 2);
	free(h);
}

static void test_one_value(void **state)
{
	struct lat_hist *h = malloc(sizeof(*h));
	double lo[NB + 1], hi[NB + 1], c[NB + 1];
	int n;

	(void)state;
	assert_non_null(h);
	lat_init(h);
	for (int i = 0; i < 100; i++)
		lat_add(h, 5000);
	n = plot_hist_bins(h, NB, lo, hi, c);
	assert_int_equal(n, NB); /* nothing beyond p99.9 */
	assert_true(c[0] == 100);
	assert_true(hi[0] > lo[0]);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_empty),
	    cmocka_unit_test(test_bins),
	    cmocka_unit_test(test_one_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
