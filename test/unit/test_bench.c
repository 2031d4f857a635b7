/*
 * test_bench.c — the pure parts of `bench`: the binary search finds a
 * simulated device's limit within the resolution in a bounded number of
 * trials, stops at once when the start rate passes, gives up when nothing
 * passes, and lets an invalid trial's achieved rate bound the search; the
 * verdict of a trial (achieved rate, sending time, the tester's own drops,
 * the loss goal); percentiles that count lost stamped frames as infinite;
 * the capacity search (doubling, then halving) lands on the table size;
 * the confirmation steps down by the resolution a bounded number of times;
 * the -m written for a trial reads back as the rate it was made from.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench_search.h"
#include "bench_tuples.h"
#include "lat.h"
#include "prof-t.h"
#include "units.h"

/* Search against a device that passes every rate up to `limit`. */
static unsigned search_to(double top, double res, double limit, double *result)
{
	struct bench_search s;
	double r;

	assert_int_equal(bench_search_init(&s, top, res), 0);
	while ((r = bench_search_next(&s)) > 0) {
		assert_true(r <= top);
		assert_true(s.trials < 200);
		bench_search_record(&s, r, r <= limit, 0);
	}
	*result = bench_search_result(&s);
	return s.trials;
}

static void test_search_params(void **st)
{
	struct bench_search s;

	(void)st;
	assert_int_equal(bench_search_init(&s, 0, 1), -EINVAL);
	assert_int_equal(bench_search_init(&s, -5, 1), -EINVAL);
	assert_int_equal(bench_search_init(&s, INFINITY, 1), -EINVAL);
	assert_int_equal(bench_search_init(&s, NAN, 1), -EINVAL);
	assert_int_equal(bench_search_init(&s, 1e6, 0), -EINVAL);
	assert_int_equal(bench_search_init(&s, 1e6, 100), -EINVAL);
	assert_int_equal(bench_search_init(&s, 1e6, 0.5), 0);
	/* the first trial is at the start rate */
	assert_true(bench_search_next(&s) == 1e6);
}

static void test_search_top_passes(void **st)
{
	double res;

	(void)st;
	assert_int_equal(search_to(14880952, 0.5, 14880952, &res), 1);
	assert_true(res == 14880952);
	assert_int_equal(search_to(1000, 5, 1e9, &res), 1);
	assert_true(res == 1000);
}

/* The result is a passing rate within the resolution of the limit. */
static void test_search_finds_limit(void **st)
{
	static const double limits[] = {1, 777, 6000, 123456, 5e5, 999999, 1e6 - 1};
	static const double resolutions[] = {0.1, 0.5, 1, 5, 10, 50};

	(void)st;
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		for (size_t j = 0; j < sizeof(resolutions) / sizeof(resolutions[0]); j++) {
			double top = 1e6, lim = limits[i], res = resolutions[j], got;
			unsigned n = search_to(top, res, lim, &got);

			if (lim < top * BENCH_FLOOR_FRAC) {
				/* below the floor: nothing passes, the search gives up */
				assert_true(got == 0 || got <= lim);
				continue;
			}
			assert_true(got <= lim);
			assert_true(got >= lim * (1 - res / 100) - 1e-9);
			/* halvings down to the limit, then down to the resolution */
			assert_true(n <= 2 + (unsigned)ceil(log2(top / lim)) +
					     (unsigned)ceil(log2(100 / res)));
		}
}

static void test_search_nothing_passes(void **st)
{
	struct bench_search s;
	double r, last = 0;

	(void)st;
	assert_int_equal(bench_search_init(&s, 1e6, 0.5), 0);
	while ((r = bench_search_next(&s)) > 0) {
		bench_search_record(&s, r, false, 0);
		last = r;
		assert_true(s.trials < 64);
	}
	assert_true(bench_search_result(&s) == 0);
	/* it went down to the floor, no further */
	assert_true(last <= 1e6 * BENCH_FLOOR_FRAC * 2);
	assert_true(last >= 1e6 * BENCH_FLOOR_FRAC / 2);
}

/* A tester that could send only 300k of 1M bounds the search there. */
static void test_search_invalid_cap(void **st)
{
	struct bench_search s;

	(void)st;
	assert_int_equal(bench_search_init(&s, 1e6, 1), 0);
	bench_search_record(&s, bench_search_next(&s), false, 3e5);
	assert_true(bench_search_next(&s) == 1.5e5);
	bench_search_record(&s, 1.5e5, true, 0);
	assert_true(bench_search_next(&s) == 2.25e5);
	/* a cap below a rate that passed cannot move hi under lo */
	bench_search_record(&s, 2.25e5, false, 1e5);
	assert_true(s.hi >= s.lo);
	assert_true(bench_search_next(&s) == 0);
	assert_true(bench_search_result(&s) == 1.5e5);
}

static void test_confirm_params(void **st)
{
	struct bench_confirm c;

	(void)st;
	assert_int_equal(bench_confirm_init(&c, 0, 1), -EINVAL);
	assert_int_equal(bench_confirm_init(&c, -1, 1), -EINVAL);
	assert_int_equal(bench_confirm_init(&c, INFINITY, 1), -EINVAL);
	assert_int_equal(bench_confirm_init(&c, NAN, 1), -EINVAL);
	assert_int_equal(bench_confirm_init(&c, 1e6, 0), -EINVAL);
	assert_int_equal(bench_confirm_init(&c, 1e6, 100), -EINVAL);
	assert_int_equal(bench_confirm_init(&c, 1e6, 0.5), 0);
	/* nothing confirmed before a trial */
	assert_true(bench_confirm_result(&c) == 0);
}

/* The first trial at the rate found passes: confirmed there, one trial. */
static void test_confirm_first_passes(void **st)
{
	struct bench_confirm c;

	(void)st;
	assert_int_equal(bench_confirm_init(&c, 14880952, 0.5), 0);
	assert_true(bench_confirm_next(&c) == 14880952);
	bench_confirm_record(&c, true);
	assert_true(bench_confirm_next(&c) == 0);
	assert_true(bench_confirm_result(&c) == 14880952);
	assert_int_equal(c.steps, 0);
	/* recording after the end changes nothing */
	bench_confirm_record(&c, false);
	assert_true(bench_confirm_result(&c) == 14880952);
}

/* Each failure steps res_pct % down; the first that passes is confirmed. */
static void test_confirm_steps_down(void **st)
{
	struct bench_confirm c;

	(void)st;
	assert_int_equal(bench_confirm_init(&c, 8000, 50), 0);
	bench_confirm_record(&c, false);
	assert_true(bench_confirm_next(&c) == 4000);
	assert_true(bench_confirm_result(&c) == 0);
	bench_confirm_record(&c, false);
	assert_true(bench_confirm_next(&c) == 2000);
	bench_confirm_record(&c, true);
	assert_true(bench_confirm_next(&c) == 0);
	assert_true(bench_confirm_result(&c) == 2000);
	assert_int_equal(c.steps, 2);

	/* 10 %: 1000, 900, 810, 729 */
	assert_int_equal(bench_confirm_init(&c, 1000, 10), 0);
	for (int i = 0; i < 3; i++)
		bench_confirm_record(&c, false);
	assert_true(fabs(bench_confirm_next(&c) - 729) < 1e-9);
	bench_confirm_record(&c, true);
	assert_true(fabs(bench_confirm_result(&c) - 729) < 1e-9);
}

/* Nothing passes: 1 + BENCH_CONFIRM_STEPS trials, each lower, none confirmed. */
static void test_confirm_none_passes(void **st)
{
	static const double resolutions[] = {0.1, 0.5, 1, 10, 50};

	(void)st;
	for (size_t j = 0; j < sizeof(resolutions) / sizeof(resolutions[0]); j++) {
		struct bench_confirm c;
		double r, last = 0, res = resolutions[j];
		unsigned n = 0;

		assert_int_equal(bench_confirm_init(&c, 1e6, res), 0);
		while ((r = bench_confirm_next(&c)) > 0) {
			assert_true(n == 0 ? r == 1e6 : r < last);
			/* one step: res_pct % of the rate that failed */
			if (n)
				assert_true(fabs(r - last * (1 - res / 100)) < 1e-6);
			last = r;
			n++;
			assert_true(n <= 1 + BENCH_CONFIRM_STEPS);
			bench_confirm_record(&c, false);
		}
		assert_int_equal(n, 1 + BENCH_CONFIRM_STEPS);
		assert_int_equal(c.steps, BENCH_CONFIRM_STEPS);
		assert_true(bench_confirm_result(&c) == 0);
		assert_true(fabs(last - 1e6 * pow(1 - res / 100, BENCH_CONFIRM_STEPS)) < 1e-3);
		assert_true(last > 0);
		/* the search's figure stays where it was */
		assert_true(c.found == 1e6);
	}
}

/* Capacity: a table of `cap` entries passes every n <= cap. */
static uint64_t grow_to(uint64_t n0, uint64_t max, double res, uint64_t cap, unsigned *trials)
{
	struct bench_grow g;
	uint64_t n, prev = 0;

	assert_int_equal(bench_grow_init(&g, n0, max, res), 0);
	while ((n = bench_grow_next(&g)) > 0) {
		assert_true(n <= max);
		assert_true(n != prev || g.trials == 0);
		assert_true(g.trials < 200);
		bench_grow_record(&g, n, n <= cap);
		prev = n;
	}
	*trials = g.trials;
	return g.lo;
}

static void test_grow(void **st)
{
	struct bench_grow g;
	unsigned n;
	uint64_t got;

	(void)st;
	assert_int_equal(bench_grow_init(&g, 0, 10, 1), -EINVAL);
	assert_int_equal(bench_grow_init(&g, 100, 10, 1), -EINVAL);
	assert_int_equal(bench_grow_init(&g, 1, 10, 0), -EINVAL);
	assert_int_equal(bench_grow_init(&g, 1000, 1000000, 5), 0);
	assert_true(bench_grow_next(&g) == 1000);
	/* doubling while trials pass */
	bench_grow_record(&g, 1000, true);
	assert_true(bench_grow_next(&g) == 2000);
	bench_grow_record(&g, 2000, true);
	assert_true(bench_grow_next(&g) == 4000);
	/* then halving the interval */
	bench_grow_record(&g, 4000, false);
	assert_true(bench_grow_next(&g) == 3000);

	/* the result is a count that passed, within the resolution of the table */
	for (uint64_t cap = 1; cap < 300000; cap = cap * 3 + 7) {
		got = grow_to(1000, 1000000, 5, cap, &n);
		assert_true(got <= cap);
		assert_true((double)got >= (double)cap * 0.95 - 1);
		assert_true(n <= 2 + 64);
	}
	/* exact with a fine resolution */
	assert_true(grow_to(1000, 1000000, 0.01, 2000, &n) == 2000);
	assert_true(grow_to(1000, 1000000, 0.01, 2047, &n) == 2047);
	/* nothing fails up to max: the search stops there */
	assert_true(grow_to(1000, 64000, 5, UINT64_MAX, &n) == 64000);
	assert_int_equal(n, 7);
	/* the first trial fails: down from n0, to 0 if nothing passes */
	assert_true(grow_to(1000, 1000000, 5, 0, &n) == 0);
	assert_true(n <= 12);
}

static struct bench_trial trial(double rate, double secs, uint64_t tx, uint64_t lost)
{
	struct bench_trial t;

	memset(&t, 0, sizeof(t));
	t.rate = rate;
	t.secs = secs;
	t.span = secs;
	t.senders = 1;
	t.tx = tx;
	t.lost = lost;
	t.rx = tx - lost;
	return t;
}

static void test_judge(void **st)
{
	struct bench_trial t;

	(void)st;
	t = trial(100000, 10, 1000000, 0);
	bench_trial_judge(&t, 0);
	assert_true(t.valid && t.passed);
	assert_true(fabs(t.achieved - 100000) < 1e-6);
	assert_true(t.loss_pct == 0);

	/* loss against the goal: NDR fails, a 0.5 % PDR passes */
	t = trial(100000, 10, 1000000, 4000);
	bench_trial_judge(&t, 0);
	assert_true(t.valid && !t.passed);
	assert_true(fabs(t.loss_pct - 0.4) < 1e-9);
	assert_non_null(strstr(t.why, "loss"));
	bench_trial_judge(&t, 0.5);
	assert_true(t.valid && t.passed);

	/* achieved rate: 0.05 % off is fine, 0.2 % is not (either way) */
	t = trial(100000, 10, 999500, 0);
	bench_trial_judge(&t, 0);
	assert_true(t.valid);
	t = trial(100000, 10, 998000, 0);
	bench_trial_judge(&t, 0);
	assert_false(t.valid || t.passed);
	assert_non_null(strstr(t.why, "below"));
	t = trial(100000, 10, 1002000, 0);
	bench_trial_judge(&t, 0);
	assert_false(t.valid);
	assert_non_null(strstr(t.why, "above"));

	/* few frames: one frame per sender of rounding is not a miss */
	t = trial(100, 1, 98, 0);
	t.senders = 2;
	bench_trial_judge(&t, 0);
	assert_true(t.valid);
	t.tx = 97;
	bench_trial_judge(&t, 0);
	assert_false(t.valid);

	/* the rate over the time actually spent sending */
	t = trial(100000, 10, 999500, 0);
	t.span = 9.995;
	bench_trial_judge(&t, 0);
	assert_true(t.valid);
	assert_true(fabs(t.achieved - 100000) < 1e-6);
	t.span = 9.5; /* stalled for the last half second */
	t.tx = 950000;
	bench_trial_judge(&t, 0);
	assert_false(t.valid);
	assert_non_null(strstr(t.why, "before the trial's end"));
	t.span = 10.5;
	t.tx = 1050000;
	bench_trial_judge(&t, 0);
	assert_false(t.valid);
	assert_non_null(strstr(t.why, "longer"));

	/* the tester's own drops */
	t = trial(100000, 10, 1000000, 10);
	t.queue_full = 10;
	bench_trial_judge(&t, 100);
	assert_false(t.valid || t.passed);
	assert_non_null(strstr(t.why, "queue full"));
	t.queue_full = 0;
	t.oerrors = 1;
	bench_trial_judge(&t, 100);
	assert_false(t.valid);
	t.oerrors = 0;
	t.imissed = 3;
	bench_trial_judge(&t, 100);
	assert_false(t.valid);
	assert_non_null(strstr(t.why, "imissed"));

	t = trial(100000, 10, 0, 0);
	bench_trial_judge(&t, 100);
	assert_false(t.valid || t.passed);
	assert_non_null(strstr(t.why, "nothing"));
}

/* 1,000 delays of 1..1000 us. */
static void fill(struct lat_hist *h)
{
	lat_init(h);
	for (uint64_t i = 1; i <= 1000; i++)
		lat_add(h, i * 1000);
}

static void test_pct_with_loss(void **st)
{
	static struct lat_hist h;
	struct bench_lat l;

	(void)st;
	fill(&h);
	/* no loss: the histogram's own percentiles (within a bucket, < 1 %) */
	assert_true(fabs(lat_pct_lost(&h, 0, 50) - 500000) < 500000 * 0.01);
	assert_true(fabs(lat_pct_lost(&h, 0, 99.9) - 999000) < 999000 * 0.01);
	/* one lost of 1,001: rank 1,000 of p99.9 is still a measured one */
	assert_true(isfinite(lat_pct_lost(&h, 1, 99.9)));
	/* two lost of 1,002: p99.9's rank (1,001) is a lost frame */
	assert_true(isinf(lat_pct_lost(&h, 2, 99.9)));
	assert_true(isfinite(lat_pct_lost(&h, 2, 99)));
	/* half lost or more: even the median is infinite */
	assert_true(isinf(lat_pct_lost(&h, 1001, 50)));
	/* lost frames push the percentiles up */
	assert_true(lat_pct_lost(&h, 100, 50) > lat_pct_lost(&h, 0, 50));

	bench_lat_summary(&h, 1000, 0, &l);
	assert_int_equal(l.samples, 1000);
	assert_true(fabs(l.min_us - 1) < 1e-9);
	assert_true(fabs(l.max_us - 1000) < 1e-9);
	assert_true(fabs(l.avg_us - 500.5) < 1e-9);
	assert_true(fabs(l.pdv_us - (l.p999_us - l.min_us)) < 1e-9);
	assert_true(l.p50_us <= l.p99_us && l.p99_us <= l.p999_us && l.p999_us <= l.max_us);
	bench_lat_summary(&h, 1010, 10, &l);
	assert_int_equal(l.lost, 10);
	assert_true(isinf(l.p999_us) && isinf(l.pdv_us));

	lat_init(&h);
	bench_lat_summary(&h, 0, 0, &l);
	assert_true(l.min_us == 0 && l.p999_us == 0 && l.pdv_us == 0);
}

/* The -m of a trial: units_parse_mult reads it back as the same rate. */
static void test_mult_str(void **st)
{
	static const struct {
		struct units_rate r;
		const char *s;
	} cases[] = {
	    {{UNITS_MULT, 2.8125, false}, "2.8125"},
	    {{UNITS_MULT, 5, false}, "5"},
	    {{UNITS_PCT, 100, false}, "100%"},
	    {{UNITS_PCT, 0.3359375, false}, "0.335938%"},
	    {{UNITS_PPS, 14880952, false}, "14880952pps"},
	    {{UNITS_PPS, 99999.5, false}, "99999.5pps"},
	    {{UNITS_BPS, 1e9, false}, "1000000000bps"},
	    {{UNITS_BPS, 1e9, true}, "1000000000bps_l1"},
	    {{UNITS_CPS, 20000, false}, "20000cps"},
	    {{UNITS_CPS, 1234567.4, false}, "1234567cps"},
	};
	char buf[48], err[128];
	struct units_rate back;

	(void)st;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bench_mult_str(&cases[i].r, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].s);
		assert_int_equal(units_parse_mult(buf, &back, err, sizeof(err)), 0);
		assert_int_equal(back.kind, cases[i].r.kind);
		assert_int_equal(back.l1, cases[i].r.l1);
		/* %.6g below 1e5, whole numbers above: within half a unit either way */
		assert_true(fabs(back.value - cases[i].r.value) <=
			    fmax(0.5, fabs(cases[i].r.value) * 5e-6));
	}
	/* a short buffer is cut, never overrun */
	bench_mult_str(&cases[4].r, buf, 6);
	assert_string_equal(buf, "14880");
}

static void test_kind(void **st)
{
	(void)st;
	assert_string_equal(bench_kind_names[BENCH_THROUGHPUT], "throughput");
	assert_string_equal(bench_kind_names[BENCH_CAPACITY], "capacity");
	assert_false(bench_kind_flows(BENCH_THROUGHPUT) || bench_kind_flows(BENCH_LATENCY));
	assert_true(bench_kind_flows(BENCH_CPS) && bench_kind_flows(BENCH_CAPACITY));
	assert_string_equal(bench_kind_names[BENCH_TEARDOWN], "teardown");
	assert_true(bench_kind_flows(BENCH_TEARDOWN));
}

/* a teardown trial of n connections, all loaded, the table deleted in ms */
static struct bench_trial td_trial(uint64_t n, double ms)
{
	struct bench_trial t;

	memset(&t, 0, sizeof(t));
	t.tx = t.rx = n;
	t.td.n = t.td.loaded = t.td.started = n;
	t.td.ta_ns = 5000000000LL;
	t.td.tb_ns = t.td.ta_ns + (int64_t)(ms * 1e6);
	return t;
}

/*
 * RFC 9693's connection tear-down rate (§4.8): N / (TimestampB - TimestampA);
 * invalid when the command failed, the timestamps are out of order or
 * the DUT still counted entries at TimestampB; failed when not all N
 * were loaded (a failure, fewer through the DUT, or fewer in its table).
 */
static void test_teardown(void **st)
{
	struct bench_trial t = td_trial(1000000, 250);

	(void)st;
	bench_teardown_judge(&t);
	assert_true(t.valid && t.passed);
	assert_true(fabs(t.td.secs - 0.25) < 1e-12);
	assert_true(fabs(t.td.rate - 4000000.0) < 1e-6);
	/* counted by the DUT: at least N at A, none at B */
	t.td.counted = true;
	t.td.dut_before = 1000003;
	t.td.dut_after = 0;
	bench_teardown_judge(&t);
	assert_true(t.valid && t.passed);
	t.td.dut_before = 999000;
	bench_teardown_judge(&t);
	assert_true(t.valid && !t.passed);
	assert_string_equal(t.why, "the DUT held 999000 entries of 1000000 connections loaded");
	t.td.dut_before = 1000000;
	t.td.dut_after = 12;
	bench_teardown_judge(&t);
	assert_false(t.valid);
	assert_string_equal(t.why, "the DUT still held 12 entries when --dut-cmd returned");
	/* not all loaded */
	t = td_trial(1000, 2);
	t.td.loaded = 990;
	t.td.failed = 10;
	bench_teardown_judge(&t);
	assert_true(t.valid && !t.passed);
	assert_string_equal(t.why, "990 of 1000 connections loaded (10 failed)");
	assert_true(fabs(t.td.rate - 495000.0) < 1e-6); /* what was loaded, over the time */
	/* the tester 73 short of 2,000,000 (within 0.1 %), all of them loaded:
	 * N is what was loaded (the NAT lab's trial of 2 M) */
	t = td_trial(2000000, 2125.794);
	t.td.started = t.td.loaded = 1999927;
	bench_teardown_judge(&t);
	assert_true(t.valid && t.passed);
	assert_true(fabs(t.td.rate - 1999927 / 2.125794) < 1e-3);
	/* more than 0.1 % short: the tester's shortfall, invalid */
	t.td.started = t.td.loaded = 1997000;
	bench_teardown_judge(&t);
	assert_false(t.valid);
	assert_string_equal(t.why, "the tester started 1997000 of 2000000 connections");
	/* the command failed, or could not run */
	t = td_trial(1000, 2);
	t.td.cmd_rc = 1;
	bench_teardown_judge(&t);
	assert_false(t.valid);
	assert_string_equal(t.why, "--dut-cmd exited 1");
	t.td.cmd_rc = -1;
	bench_teardown_judge(&t);
	assert_string_equal(t.why, "--dut-cmd could not run: -1");
	/* timestamps out of order */
	t = td_trial(1000, 0);
	bench_teardown_judge(&t);
	assert_false(t.valid);
	assert_string_equal(t.why, "TimestampB not after TimestampA");
}

/*
 * The client ports' order of a flows test: pseudorandom unless the
 * profile asks for increasing order (RFC 9693 §4.4).
 */
static void test_tuples_order(void **st)
{
	(void)st;
	assert_int_equal(bench_tuples_order(0), PROF_DIST_RAND);
	assert_int_equal(bench_tuples_order(PROF_DIST_RAND), PROF_DIST_RAND);
	assert_int_equal(bench_tuples_order(PROF_DIST_SEQ), PROF_DIST_SEQ);
}

/*
 * Fresh tuples: the windows of a search are disjoint, each large enough
 * for one flow per address and port (with the margin and the flows open
 * at once), and a range that runs out is refused without taking anything.
 */
static void test_tuples(void **st)
{
	struct bench_tuples t;
	uint32_t lo, hi, plo = 0, phi = 0;
	uint64_t used = 0;

	(void)st;
	assert_int_equal(bench_tuples_init(&t, 0, 1, 1024, 65535), -EINVAL);
	assert_int_equal(bench_tuples_init(&t, 254, 0, 1024, 65535), -EINVAL);
	assert_int_equal(bench_tuples_init(&t, 254, 1, 2000, 1999), -EINVAL);
	assert_int_equal(bench_tuples_init(&t, 254, 2, 1024, 65535), 0);
	/* 10,000 connections, 1,000 open at once, over 254 addresses: each
	 * address needs ceil(11,000 x 1.25 / 254) ports, two workers round up */
	assert_int_equal(bench_tuples_ports(&t, 10000, 1000), 2 * (uint32_t)ceil(11000 * 1.25 / 508) + 2);
	for (int k = 0; k < 10; k++) {
		double conns = 10000.0 / (k + 1);

		assert_int_equal(bench_tuples_take(&t, conns, 0, &lo, &hi), 0);
		assert_true(lo >= 1024 && hi <= 65535 && lo <= hi);
		/* no earlier window overlaps */
		if (k)
			assert_true(lo > phi);
		/* one flow per address and port fits, with the margin */
		assert_true((double)(hi - lo + 1) * 254 >= conns * BENCH_TUPLE_MARGIN);
		used += hi - lo + 1;
		plo = lo;
		phi = hi;
	}
	(void)plo;
	assert_int_equal(t.taken, used);
	assert_int_equal(bench_tuples_left(&t), 65536 - 1024 - used);
	/* a window larger than what is left: refused, nothing taken */
	assert_int_equal(bench_tuples_take(&t, 254.0 * 70000, 0, &lo, &hi), -ENOSPC);
	assert_int_equal(t.taken, used);
	assert_int_equal(bench_tuples_take(&t, 100, 0, &lo, &hi), 0);
	assert_int_equal(lo, phi + 1);
}

/* The worst case of a search: what its trials take, at most. */
static void test_tuples_search_need(void **st)
{
	struct bench_tuples t, sim;
	struct bench_search s;
	uint64_t need, taken = 0;
	uint32_t lo, hi;
	double rate;

	(void)st;
	assert_int_equal(bench_tuples_init(&t, 254, 1, 1024, 65535), 0);
	need = bench_tuples_search_need(&t, 10000, 10, 1, 0, 1);
	/* a search that fails at the top and then passes all: its windows */
	sim = t;
	assert_int_equal(bench_search_init(&s, 10000, 10), 0);
	while ((rate = bench_search_next(&s)) > 0) {
		assert_int_equal(bench_tuples_take(&sim, rate, rate, &lo, &hi), 0);
		bench_search_record(&s, rate, s.trials > 0, 0);
	}
	taken = sim.taken;
	assert_int_equal(need, taken);
	/* a search limited at half the top takes no more */
	sim = t;
	assert_int_equal(bench_search_init(&s, 10000, 10), 0);
	while ((rate = bench_search_next(&s)) > 0) {
		assert_int_equal(bench_tuples_take(&sim, rate, rate, &lo, &hi), 0);
		bench_search_record(&s, rate, rate <= 5000, 0);
	}
	assert_true(sim.taken <= need);
	/* confirmation trials add to it; a tiny range cannot hold it */
	assert_true(bench_tuples_search_need(&t, 10000, 10, 1, 5, 1) > need);
	assert_int_equal(bench_tuples_init(&t, 1, 1, 1024, 1100), 0);
	assert_true(bench_tuples_search_need(&t, 10000, 10, 1, 0, 1) > bench_tuples_left(&t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_search_params),      cmocka_unit_test(test_search_top_passes),
	    cmocka_unit_test(test_search_finds_limit), cmocka_unit_test(test_search_nothing_passes),
	    cmocka_unit_test(test_search_invalid_cap), cmocka_unit_test(test_judge),
	    cmocka_unit_test(test_pct_with_loss),      cmocka_unit_test(test_grow),
	    cmocka_unit_test(test_confirm_params),     cmocka_unit_test(test_confirm_first_passes),
	    cmocka_unit_test(test_confirm_steps_down), cmocka_unit_test(test_confirm_none_passes),
	    cmocka_unit_test(test_mult_str),	       cmocka_unit_test(test_kind),
	    cmocka_unit_test(test_teardown),	       cmocka_unit_test(test_tuples),
	    cmocka_unit_test(test_tuples_order),       cmocka_unit_test(test_tuples_search_need),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
