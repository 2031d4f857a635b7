/*
 * test_pace.c — the TSC pacer on a simulated clock: exact counts over a
 * second at several rates and call patterns, the per-call bound, rate
 * changes, pause/resume, stalls (slack), the streams' credit of one burst
 * (what a stall or a slow caller could not send is counted, not sent back
 * to back later), unpaced mode, and clearing or restarting a pacer's backlog.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pace.h"

#define HZ 2500000000ull

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/*
 * Run from t0 to t1 calling every step cycles (+ jitter up to jit), checking
 * the per-call bound. Returns the events released.
 */
static uint64_t run(struct pace *p, uint64_t t0, uint64_t t1, uint64_t step, uint64_t jit,
		    uint32_t *maxcall)
{
	uint64_t total = 0, t = t0;

	for (;;) {
		uint32_t n;

		t += step + (jit ? rnd() % jit : 0);
		if (t > t1)
			t = t1;
		n = pace_due(p, t);
		assert_true(n <= p->burst);
		if (maxcall && n > *maxcall)
			*maxcall = n;
		total += n;
		if (t == t1)
			return total;
	}
}

static void start(struct pace *p, double rate, uint32_t burst, uint32_t slack, uint64_t t0)
{
	assert_int_equal(pace_init(p, HZ, burst, slack, t0), 0);
	assert_int_equal(pace_set_rate(p, rate, t0), 0);
	pace_resume(p, t0);
}

static void test_params(void **state)
{
	struct pace p;

	(void)state;
	assert_int_equal(pace_init(&p, 0, 32, 0, 0), -EINVAL);
	assert_int_equal(pace_init(&p, HZ, 0, 0, 0), -EINVAL);
	assert_int_equal(pace_init(&p, HZ, 32, 16, 0), -EINVAL);
	assert_int_equal(pace_init(&p, HZ, 32, 0, 0), 0);
	assert_int_equal(pace_set_rate(&p, 0, 0), -EINVAL);
	assert_int_equal(pace_set_rate(&p, -5, 0), -EINVAL);
	assert_int_equal(pace_set_rate(&p, NAN, 0), -EINVAL);
	assert_int_equal(pace_set_rate(&p, (double)HZ * 2, 0), -EINVAL);
	/* A new pacer is paused: nothing comes out. */
	assert_int_equal(pace_set_rate(&p, 1e6, 0), 0);
	assert_int_equal(run(&p, 0, HZ, HZ / 1000, 0, NULL), 0);
}

/* 55,000/s for one simulated second: 55,000 +-1, at many call patterns. */
static void test_exact_55k(void **state)
{
	const uint64_t steps[] = {100, 1000, 7919, 25000, 100000, 2500000};
	struct pace p;

	(void)state;
	for (unsigned i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		uint64_t t0 = 123456789ull * (i + 1), got;
		uint32_t maxcall = 0;

		start(&p, 55000, 256, 0, t0);
		got = run(&p, t0, t0 + HZ, steps[i], steps[i] / 2, &maxcall);
		assert_in_range(got, 54999, 55001);
		/* Spread out: a call every step cycles gets about step*rate/HZ. */
		assert_true(maxcall <= (uint32_t)(1.5 * steps[i] * 55000 / HZ) + 1);
	}
}

/* The cap per call holds even when the caller is slow; backlog <= slack. */
static void test_burst_bound(void **state)
{
	struct pace p;
	uint32_t maxcall = 0;
	uint64_t got;

	(void)state;
	start(&p, 55000, 32, 256, 0);
	/* Stall 1 s: a second's worth must not come out. */
	got = pace_due(&p, HZ);
	assert_int_equal(got, 32);
	got += run(&p, HZ, HZ + 100000, 10, 0, &maxcall);
	/* Backlog capped to slack (256) plus what accrues in 40 us (2). */
	assert_in_range(got, 256, 259);
	assert_int_equal(maxcall, 32);
	assert_true(p.dropped >= 55000 - 260);
}

/*
 * The streams' pacer (slack 0: one burst of credit). After a 5 ms stall at
 * 1 Mpps one burst comes out and the other 4,968 frames are counted in
 * dropped; a caller whose turns take 50 us (50 frames due, 32 per call) is
 * released 32 per turn and the rest counted. Either way released + dropped
 * is what the rate asked for, +-1, and nothing beyond one burst is owed.
 */
static void test_one_burst_credit(void **state)
{
	const uint64_t us = HZ / 1000000;
	struct pace p;
	uint64_t t = 1000, got, asked;
	uint32_t maxcall = 0;

	(void)state;
	start(&p, 1e6, 32, 0, t);
	assert_int_equal(p.slack, 32);
	/* steady 10 us turns: all sent, nothing late */
	got = run(&p, t, t + 10000 * us, 10 * us, 0, NULL);
	t += 10000 * us;
	assert_in_range(got, 9999, 10001);
	assert_int_equal(p.dropped, 0);
	/* a 5 ms stall: one burst, then back to the rate */
	t += 5000 * us;
	assert_int_equal(pace_due(&p, t), 32);
	assert_int_equal(pace_due(&p, t), 0);
	assert_in_range(p.dropped, 4967, 4969);
	got = run(&p, t, t + 1000 * us, 10 * us, 0, &maxcall);
	t += 1000 * us;
	assert_in_range(got, 999, 1001);
	assert_int_equal(maxcall, 10);
	/* turns of 50 us: 32 a turn, 18 a turn late */
	p.dropped = 0;
	got = run(&p, t, t + 100000 * us, 50 * us, 0, NULL);
	asked = 100000;
	assert_in_range(got, 2000 * 32 - 1, 2000 * 32 + 1);
	assert_in_range(got + p.dropped, asked - 1, asked + 1);
	/* a time before the last call (a deadline that passed while paused)
	 * releases nothing and counts nothing late */
	t += 100000 * us;
	asked = p.dropped;
	assert_int_equal(pace_due(&p, t - 50 * us), 0);
	assert_int_equal(p.dropped, asked);
	assert_int_equal(pace_due(&p, t + 10 * us), 10);
}

static void test_rate_change(void **state)
{
	struct pace p;
	uint64_t a, b;

	(void)state;
	start(&p, 10000, 64, 0, 0);
	a = run(&p, 0, HZ / 2, 50000, 1000, NULL); /* 0.5 s at 10k/s */
	assert_int_equal(pace_set_rate(&p, 30000, HZ / 2), 0);
	b = run(&p, HZ / 2, HZ, 50000, 1000, NULL); /* 0.5 s at 30k/s */
	assert_in_range(a, 4999, 5001);
	assert_in_range(a + b, 19999, 20001);
}

static void test_pause_resume(void **state)
{
	struct pace p;
	uint64_t a, b, c;

	(void)state;
	start(&p, 1000, 64, 0, 0);
	a = run(&p, 0, HZ, 1000000, 0, NULL);
	pace_pause(&p, HZ);
	b = run(&p, HZ, 3 * HZ, 1000000, 0, NULL);
	pace_resume(&p, 3 * HZ);
	c = run(&p, 3 * HZ, 4 * HZ, 1000000, 0, NULL);
	assert_in_range(a, 999, 1001);
	assert_int_equal(b, 0);
	assert_in_range(a + c, 1999, 2001);
	assert_int_equal(p.dropped, 0);
}

static void test_low_rate(void **state)
{
	struct pace p;
	uint64_t got, t;
	uint32_t n;

	(void)state;
	start(&p, 1, 32, 0, 0);
	got = run(&p, 0, 10 * HZ, 1000003, 0, NULL);
	assert_in_range(got, 9, 11);
	/* Evenly: never two events within much less than a second. */
	start(&p, 2, 32, 0, 0);
	for (t = 0, got = 0; t < 20 * HZ; t += HZ / 100) {
		n = pace_due(&p, t);
		assert_true(n <= 1);
		got += n;
	}
	assert_in_range(got, 39, 41);
}

static void test_high_rate(void **state)
{
	struct pace p;
	uint32_t maxcall = 0;
	uint64_t got;

	(void)state;
	start(&p, 100e6, 256, 0, 0);
	got = run(&p, 0, HZ, 2500, 0, &maxcall); /* a call per us: 100 each */
	assert_in_range(got, 99999999, 100000001);
	assert_in_range(maxcall, 100, 101);
}

static void test_return_and_max(void **state)
{
	struct pace p;
	uint32_t n;

	(void)state;
	start(&p, 1000, 32, 0, 0);
	n = pace_due(&p, HZ / 100); /* 10 due */
	assert_in_range(n, 9, 11);
	pace_return(&p, n);
	assert_int_equal(pace_due(&p, HZ / 100), n);
	pace_set_max(&p, true);
	for (int i = 0; i < 5; i++)
		assert_int_equal(pace_due(&p, HZ / 100), 32);
	pace_set_max(&p, false);
	assert_int_equal(pace_due(&p, HZ / 100), 0);
}

/*
 * Credit accrued and not used (a learning phase that sent little) is
 * dropped by pace_clear: the next second releases the rate, +-1, not the
 * rate plus the backlog.
 */
static void test_clear(void **state)
{
	struct pace p;
	uint64_t t = HZ / 10;

	(void)state;
	start(&p, 100000, 32, 5000, 0);
	/* 0.1 s unused: up to the slack (5,000) is owed */
	pace_pause(&p, t);
	pace_resume(&p, t);
	assert_int_equal(pace_due(&p, t), 32);
	pace_clear(&p, t);
	assert_int_equal(pace_due(&p, t), 0);
	assert_in_range(run(&p, t, t + HZ, HZ / 10000, 0, NULL), 99999, 100001);
}

/*
 * pace_restart: the backlog is forgotten as by pace_clear; running, the
 * next second releases the rate +-1; held, nothing comes out, however long,
 * until pace_resume, and then the rate again. The rate set before holds.
 */
static void test_restart(void **state)
{
	struct pace p;
	uint64_t t = HZ / 10;

	(void)state;
	start(&p, 100000, 32, 5000, 0);
	/* 0.1 s unused: up to the slack (5,000) is owed */
	pace_pause(&p, t);
	pace_resume(&p, t);
	pace_restart(&p, t, true);
	assert_int_equal(pace_due(&p, t), 0);
	assert_in_range(run(&p, t, t + HZ, HZ / 10000, 0, NULL), 99999, 100001);

	/* held: a second passes and nothing is due, no credit piles up */
	t += HZ;
	pace_restart(&p, t, false);
	assert_int_equal(run(&p, t, t + HZ, HZ / 1000, 0, NULL), 0);
	t += HZ;
	pace_resume(&p, t);
	assert_int_equal(pace_due(&p, t), 0);
	assert_in_range(run(&p, t, t + HZ, HZ / 10000, 0, NULL), 99999, 100001);

	/* a paused pacer restarted running runs, at the rate it had */
	t += HZ;
	pace_pause(&p, t);
	assert_int_equal(pace_set_rate(&p, 20000, t), 0);
	t += HZ / 2;
	pace_restart(&p, t, true);
	assert_in_range(run(&p, t, t + HZ, HZ / 10000, 0, NULL), 19999, 20001);

	/* unpaced mode is kept: a full burst on every call */
	pace_set_max(&p, true);
	pace_restart(&p, t, false);
	assert_int_equal(pace_due(&p, t + 1), 32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_params),	 cmocka_unit_test(test_exact_55k),
	    cmocka_unit_test(test_burst_bound),	 cmocka_unit_test(test_rate_change),
	    cmocka_unit_test(test_pause_resume), cmocka_unit_test(test_low_rate),
	    cmocka_unit_test(test_high_rate),	 cmocka_unit_test(test_return_and_max),
	    cmocka_unit_test(test_clear),	 cmocka_unit_test(test_restart),
	    cmocka_unit_test(test_one_burst_credit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
