/*
 * test_tsc.c — the TSC measurement on fake clocks: a 2.096 GHz TSC is
 * measured as such (not DPDK's rounded 2.100 GHz), a preempted reading is
 * passed over for a tighter one, a sleep that overruns (the thread woke
 * late) does not bias the figure, and clocks that do not advance give 0.
 * A measurement in two parts (tsc_mark, tsc_measure_from) sleeps only
 * what is left of its window, nothing once the work between the parts
 * (rte_eal_init at start-up) outlasted it, and measures the whole span.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tsc.h"

/* A fake machine: time in ns; the TSC runs at hz; reads cost read_ns. */
struct fake {
	double t_ns;
	double hz;
	double read_ns;
	int stall_at;	/* the nth TSC read takes stall_ns longer (0: never) */
	double stall_ns;
	int reads;
	double tsc_off;
};

static uint64_t f_tsc(void *arg)
{
	struct fake *f = arg;

	f->reads++;
	f->t_ns += f->read_ns;
	if (f->reads == f->stall_at)
		f->t_ns += f->stall_ns;
	return (uint64_t)(f->tsc_off + f->t_ns * f->hz / 1e9);
}

static uint64_t f_ns(void *arg)
{
	struct fake *f = arg;

	f->t_ns += f->read_ns;
	return (uint64_t)f->t_ns;
}

static void f_sleep(void *arg, uint64_t ns)
{
	((struct fake *)arg)->t_ns += (double)ns;
}

static void test_exact_rate(void **st)
{
	struct fake f = {.t_ns = 1e12, .hz = 2.096e9, .read_ns = 20, .tsc_off = 12345};
	const struct tsc_clock c = {f_tsc, f_ns, f_sleep, &f};
	uint64_t hz;

	(void)st;
	hz = tsc_measure(&c, 50000000);
	assert_true(fabs((double)hz - 2.096e9) < 2.096e9 * 5e-6);
	/* and not the 10 MHz-rounded estimate */
	assert_true(fabs((double)hz - 2.1e9) > 1e6);
}

/* A reading preempted for 2 ms between its TSC reads is not the one used. */
static void test_preempted_read(void **st)
{
	struct fake f = {.t_ns = 1e9, .hz = 3e9, .read_ns = 30, .stall_at = 2, .stall_ns = 2e6};
	const struct tsc_clock c = {f_tsc, f_ns, f_sleep, &f};
	uint64_t hz;

	(void)st;
	hz = tsc_measure(&c, 50000000);
	assert_true(fabs((double)hz - 3e9) < 3e9 * 5e-6);
}

/*
 * The sleep overruns by 30 % and 7 ms, as a descheduled thread's does: the
 * rate comes from the two readings, not from the window asked for.
 */
static void f_sleep_late(void *arg, uint64_t ns)
{
	((struct fake *)arg)->t_ns += (double)ns * 1.3 + 7e6;
}

static void test_sleep_overrun(void **st)
{
	struct fake f = {.t_ns = 5e9, .hz = 2.096e9, .read_ns = 25};
	const struct tsc_clock c = {f_tsc, f_ns, f_sleep_late, &f};
	uint64_t hz;

	(void)st;
	hz = tsc_measure(&c, 50000000);
	assert_true(fabs((double)hz - 2.096e9) < 2.096e9 * 5e-6);
}

static uint64_t f_still(void *arg)
{
	(void)arg;
	return 42;
}

static void test_broken_clocks(void **st)
{
	struct fake f = {.t_ns = 1e9, .hz = 3e9, .read_ns = 30};
	const struct tsc_clock still_tsc = {f_still, f_ns, f_sleep, &f};
	const struct tsc_clock still_ns = {f_tsc, f_still, f_sleep, &f};

	(void)st;
	assert_int_equal(tsc_measure(&still_tsc, 1000000), 0);
	assert_int_equal(tsc_measure(&still_ns, 1000000), 0);
}

/* f_sleep that also counts what it was asked for */
static double slept_ns;

static void f_sleep_count(void *arg, uint64_t ns)
{
	slept_ns += (double)ns;
	f_sleep(arg, ns);
}

static void test_two_parts(void **st)
{
	struct fake f = {.t_ns = 2e9, .hz = 2.096e9, .read_ns = 20, .tsc_off = 777};
	const struct tsc_clock c = {f_tsc, f_ns, f_sleep_count, &f};
	struct tsc_mark m;
	double t0;
	uint64_t hz;

	(void)st;
	/* 120 ms of other work between the parts: no sleep at all */
	tsc_mark(&c, &m);
	f.t_ns += 120e6;
	slept_ns = 0;
	hz = tsc_measure_from(&c, &m, 50000000);
	assert_true(slept_ns == 0);
	assert_true(fabs((double)hz - 2.096e9) < 2.096e9 * 5e-6);

	/* 20 ms of it: the other 30 ms slept, the window whole */
	tsc_mark(&c, &m);
	t0 = f.t_ns;
	f.t_ns += 20e6;
	slept_ns = 0;
	hz = tsc_measure_from(&c, &m, 50000000);
	assert_true(slept_ns > 29.9e6 && slept_ns < 30e6);
	assert_true(f.t_ns - t0 >= 50e6);
	assert_true(fabs((double)hz - 2.096e9) < 2.096e9 * 5e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_exact_rate),
	    cmocka_unit_test(test_preempted_read),
	    cmocka_unit_test(test_sleep_overrun),
	    cmocka_unit_test(test_broken_clocks),
	    cmocka_unit_test(test_two_parts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
