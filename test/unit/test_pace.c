/*
 * test_pace.c — the TSC pacer on a simulated clock: exact counts over a
 * second at several rates and call patterns, the per-call bound, rate
 * changes, pause/resume, unpaced mode, clearing or restarting a pacer's
 * backlog, and the backlog bound (pace.h: PACE_BOUND_MS of traffic at the
 * rate, floor one burst, cap PACE_SLACK_MAX): a stall within the bound
 * loses nothing and its backlog comes out burst by burst, a longer one
 * drops exactly what fell due beyond it, the bound follows rate changes
 * and pauses, a caller that cannot keep up is bounded the same way, and a
 * long run with stalls releases exactly the rate.
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

/*
 * The cap per call holds even when the caller is slow; the backlog is the
 * bound: 20 ms at 55,000/s is 1,100 events, above the floor of 256 given.
 */
static void test_burst_bound(void **state)
{
	struct pace p;
	uint32_t maxcall = 0;
	uint64_t got;

	(void)state;
	start(&p, 55000, 32, 256, 0);
	assert_in_range(p.slack, 1099, 1100); /* 1099.99...: inc rounds down */
	/* Stall 1 s: a second's worth must not come out. */
	got = pace_due(&p, HZ);
	assert_int_equal(got, 32);
	got += run(&p, HZ, HZ + 1000000, 10, 0, &maxcall);
	/* Backlog capped to the bound (1,100) plus what accrues in 400 us (22). */
	assert_in_range(got, 1100 + 22 - 1, 1100 + 22 + 1);
	assert_int_equal(maxcall, 32);
	/* what did not come out was dropped: released + dropped = asked */
	assert_in_range(got + p.dropped, 55000 + 22 - 1, 55000 + 22 + 1);
}

/* The bound is 20 ms at the rate, within [floor, PACE_SLACK_MAX]. */
static void test_bound_limits(void **state)
{
	struct pace p;

	(void)state;
	assert_int_equal(PACE_BOUND_MS, 20);
	start(&p, 1e6, 32, 0, 0);
	assert_in_range(p.slack, 19999, 20000);
	start(&p, 3e6, 32, 0, 0);
	assert_in_range(p.slack, 59999, 60000);
	/* 100/s: 20 ms is two events; the floor is one burst */
	start(&p, 100, 32, 0, 0);
	assert_int_equal(p.slack, 32);
	start(&p, 100, 32, 64, 0);
	assert_int_equal(p.slack, 64);
	/* 20 M/s: 400,000 in 20 ms, capped */
	start(&p, 20e6, 32, 0, 0);
	assert_int_equal(p.slack, PACE_SLACK_MAX);
	/* before any rate: the floor */
	assert_int_equal(pace_init(&p, HZ, 32, 0, 0), 0);
	assert_int_equal(p.slack, 32);
}

/*
 * Stalls shorter than the bound (20 ms: 20,000 events at 1 M/s) lose
 * nothing: after a 3, a 15 and a 19.99 ms stall the backlog comes out 32
 * a call until it is sent; nothing is dropped, and over the run exactly
 * rate x time comes out. A stall of exactly the bound's cycles too.
 */
static void test_stall_within_bound(void **state)
{
	const uint64_t us = HZ / 1000000;
	const uint64_t stalls[] = {3000, 15000, 19990};
	struct pace p;
	uint64_t t = 1000, t0 = t, got = 0;

	(void)state;
	start(&p, 1e6, 32, 0, t);
	got += run(&p, t, t + 10000 * us, 10 * us, 0, NULL);
	t += 10000 * us;
	for (unsigned i = 0; i < sizeof(stalls) / sizeof(stalls[0]); i++) {
		uint64_t back = 0, calls = 0;
		uint32_t n;

		t += stalls[i] * us;
		/* at one instant: burst by burst, every call full but the last */
		while ((n = pace_due(&p, t)) > 0) {
			assert_true(n <= 32);
			if (n < 32)
				assert_int_equal(pace_due(&p, t), 0);
			back += n;
			calls++;
		}
		assert_in_range(back, stalls[i] - 1, stalls[i] + 1);
		assert_in_range(calls, stalls[i] / 32, stalls[i] / 32 + 1);
		assert_int_equal(p.dropped, 0);
		got += back;
		got += run(&p, t, t + 10000 * us, 10 * us, 0, NULL);
		t += 10000 * us;
	}
	t += p.bound_tsc;
	got += run(&p, t - p.bound_tsc, t + 10000 * us, 10 * us, 0, NULL);
	t += 10000 * us;
	assert_int_equal(p.dropped, 0);
	assert_in_range(got, (t - t0) / us - 1, (t - t0) / us + 1);
}

/*
 * Released while the caller goes on at its pace: after a 15 ms stall a
 * caller turning every 10 us gets 32 a turn (22 more than the rate) until
 * the backlog is sent, in about 15,000 / 22 turns, then 10 a turn again.
 */
static void test_stall_catch_up(void **state)
{
	const uint64_t us = HZ / 1000000;
	struct pace p;
	uint64_t t = 5000;
	unsigned full = 0;

	(void)state;
	start(&p, 1e6, 32, 0, t);
	run(&p, t, t + 1000 * us, 10 * us, 0, NULL);
	t += 1000 * us + 15000 * us;
	while (pace_due(&p, t) == 32) {
		full++;
		t += 10 * us;
	}
	assert_in_range(full, 15000 / 22 - 2, 15000 / 22 + 2);
	assert_int_equal(p.dropped, 0);
	for (int i = 0; i < 100; i++) {
		t += 10 * us;
		assert_in_range(pace_due(&p, t), 9, 11);
	}
}

/*
 * A stall longer than the bound drops exactly what fell due beyond it
 * (due - bound, +-1), and the bound comes out burst by burst.
 */
static void test_stall_beyond_bound(void **state)
{
	const uint64_t us = HZ / 1000000;
	const uint64_t stalls[] = {20500, 100000, 3000000};
	struct pace p;
	uint64_t t = 777;

	(void)state;
	start(&p, 1e6, 32, 0, t);
	for (unsigned i = 0; i < sizeof(stalls) / sizeof(stalls[0]); i++) {
		uint64_t back = 0, d0;
		uint32_t n;

		run(&p, t, t + 1000 * us, 10 * us, 0, NULL);
		t += 1000 * us;
		d0 = p.dropped;
		t += stalls[i] * us;
		while ((n = pace_due(&p, t)) > 0)
			back += n;
		assert_in_range(back, 19999, 20001);
		assert_in_range(p.dropped - d0, stalls[i] - 20000 - 1, stalls[i] - 20000 + 1);
		assert_in_range(back + p.dropped - d0, stalls[i] - 1, stalls[i] + 1);
	}
}

/*
 * Nothing is lost in the rounding: at an odd rate, 500 stalls of 5 to 300
 * ms (most beyond the bound) between runs of calls; released + dropped is
 * what the rate asked for over the whole time, +-1, not +-1 per stall.
 */
static void test_stall_conservation(void **state)
{
	const uint64_t us = HZ / 1000000;
	const double rate = 123456.789;
	struct pace p;
	uint64_t t = 31, t0 = t, got = 0;
	double asked;
	uint32_t n;

	(void)state;
	start(&p, rate, 32, 0, t);
	for (int i = 0; i < 500; i++) {
		got += run(&p, t, t + 3000 * us, 7 * us, 3 * us, NULL);
		t += 3000 * us;
		t += (5000 + rnd() % 295000) * us + rnd() % us;
		while ((n = pace_due(&p, t)) > 0)
			got += n;
	}
	asked = rate * (double)(t - t0) / (double)HZ;
	assert_true(p.dropped > 0);
	assert_true(fabs((double)(got + p.dropped) - asked) <= 1.0);
}

/*
 * The bound follows the rate: a backlog of 8,000 at 1 M/s beyond the
 * bound of a new 100,000/s (2,000 events) is dropped at the change; at
 * that rate a 19 ms stall loses nothing, a 50 ms one drops 3,000; raised
 * again, 20,000. Paused, the rate's bound holds: the backlog from before
 * the pause comes out after it, nothing accrues meanwhile, and a stall
 * right after resuming is bounded as before; a rate set while paused
 * sets the bound it resumes with.
 */
static void test_bound_follows_rate(void **state)
{
	const uint64_t us = HZ / 1000000;
	struct pace p;
	uint64_t t = 99, back, d0;
	uint32_t n;

	(void)state;
	start(&p, 1e6, 32, 0, t);
	t += 8000 * us;
	assert_int_equal(pace_set_rate(&p, 1e5, t), 0);
	assert_in_range(p.slack, 1999, 2000);
	assert_in_range(p.dropped, 5999, 6001);
	for (back = 0; (n = pace_due(&p, t)) > 0;)
		back += n;
	assert_in_range(back, 1999, 2001);
	d0 = p.dropped;
	t += 19000 * us;
	for (back = 0; (n = pace_due(&p, t)) > 0;)
		back += n;
	assert_in_range(back, 1899, 1901);
	assert_int_equal(p.dropped, d0);
	t += 50000 * us;
	for (back = 0; (n = pace_due(&p, t)) > 0;)
		back += n;
	assert_in_range(back, 1999, 2001);
	assert_in_range(p.dropped - d0, 2999, 3001);
	assert_int_equal(pace_set_rate(&p, 1e6, t), 0);
	assert_in_range(p.slack, 19999, 20000);
	d0 = p.dropped;
	t += 18000 * us;
	for (back = 0; (n = pace_due(&p, t)) > 0;)
		back += n;
	assert_in_range(back, 17999, 18001);
	assert_int_equal(p.dropped, d0);

	/* a 5 ms backlog, paused for a second (the engines do not call
	 * pace_due while paused): 5,000 still owed after, no more */
	t += 5000 * us;
	pace_pause(&p, t);
	assert_in_range(p.slack, 19999, 20000);
	t += HZ;
	pace_resume(&p, t);
	for (back = 0; (n = pace_due(&p, t)) > 0;)
		back += n;
	assert_in_range(back, 4999, 5001);
	assert_int_equal(p.dropped, d0);
	/* after resuming: a 19 ms stall loses nothing, a 30 ms one 10,000 */
	t += 19000 * us;
	for (back = 0; (n = pace_due(&p, t)) > 0;)
		back += n;
	assert_in_range(back, 18999, 19001);
	assert_int_equal(p.dropped, d0);
	t += 30000 * us;
	for (back = 0; (n = pace_due(&p, t)) > 0;)
		back += n;
	assert_in_range(back, 19999, 20001);
	assert_in_range(p.dropped - d0, 9999, 10001);
	/* a rate set while paused sets the bound it resumes with */
	pace_pause(&p, t);
	assert_int_equal(pace_set_rate(&p, 2e5, t), 0);
	assert_in_range(p.slack, 3999, 4000);
	t += HZ;
	pace_resume(&p, t);
	d0 = p.dropped;
	t += 30000 * us;
	for (back = 0; (n = pace_due(&p, t)) > 0;)
		back += n;
	assert_in_range(back, 3999, 4001);
	assert_in_range(p.dropped - d0, 1999, 2001);
}

/*
 * Ten simulated seconds at 1 M/s with a stall within the bound (1 to
 * 19.9 ms) every 20 ms, calls 8 to 12 us apart otherwise: exactly
 * 10,000,000 events (+-1) come out, none dropped.
 */
static void test_long_run_with_stalls(void **state)
{
	const uint64_t us = HZ / 1000000, end = 10 * HZ + 4242;
	struct pace p;
	uint64_t t = 4242, got = 0;
	uint32_t n;

	(void)state;
	start(&p, 1e6, 32, 0, t);
	while (t < end) {
		uint64_t stall = (1000 + rnd() % 18900) * us, next = t + 20000 * us;

		if (next > end)
			next = end;
		while (t < next) {
			t += 8 * us + rnd() % (4 * us);
			if (t > next)
				t = next;
			n = pace_due(&p, t);
			assert_true(n <= 32);
			got += n;
		}
		if (t + stall < end)
			t += stall;
	}
	/* the backlog left at the end, as at a deadline */
	while ((n = pace_due(&p, end)) > 0)
		got += n;
	assert_int_equal(p.dropped, 0);
	assert_in_range(got, 9999999, 10000001);
}

/*
 * A caller that cannot keep up (the bound is 20,000 events at 1 M/s):
 * turns of 50 us (50 frames due, 32 per call) get 32 per turn; the
 * backlog grows to the bound, and beyond it the rest is counted in
 * dropped. released + dropped + still owed is what the rate asked for,
 * +-1. A time before the last call (a deadline that passed while paused)
 * releases nothing and counts nothing late.
 */
static void test_slow_caller(void **state)
{
	const uint64_t us = HZ / 1000000;
	struct pace p;
	uint64_t t = 1000, got, owed;
	uint32_t n;

	(void)state;
	start(&p, 1e6, 32, 0, t);
	got = run(&p, t, t + 100000 * us, 50 * us, 0, NULL);
	t += 100000 * us;
	assert_in_range(got, 2000 * 32 - 1, 2000 * 32 + 1);
	for (owed = 0; (n = pace_due(&p, t)) > 0;)
		owed += n;
	/* the bound, less the burst the last turn took */
	assert_in_range(owed, 20000 - 32 - 1, 20000 - 32 + 1);
	assert_in_range(got + owed + p.dropped, 100000 - 1, 100000 + 1);
	owed = p.dropped;
	assert_int_equal(pace_due(&p, t - 50 * us), 0);
	assert_int_equal(p.dropped, owed);
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
	    cmocka_unit_test(test_params),
	    cmocka_unit_test(test_exact_55k),
	    cmocka_unit_test(test_burst_bound),
	    cmocka_unit_test(test_rate_change),
	    cmocka_unit_test(test_pause_resume),
	    cmocka_unit_test(test_low_rate),
	    cmocka_unit_test(test_high_rate),
	    cmocka_unit_test(test_return_and_max),
	    cmocka_unit_test(test_clear),
	    cmocka_unit_test(test_restart),
	    cmocka_unit_test(test_slow_caller),
	    cmocka_unit_test(test_bound_limits),
	    cmocka_unit_test(test_stall_within_bound),
	    cmocka_unit_test(test_stall_catch_up),
	    cmocka_unit_test(test_stall_beyond_bound),
	    cmocka_unit_test(test_stall_conservation),
	    cmocka_unit_test(test_bound_follows_rate),
	    cmocka_unit_test(test_long_run_with_stalls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
