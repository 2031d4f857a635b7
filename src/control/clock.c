/*
 * clock.c — the TSC rate flowgen runs on: measured once at start-up, by
 * the main thread before any worker starts, against CLOCK_MONOTONIC_RAW
 * (src/core/tsc.h says why DPDK's own figure is not used); and the system
 * clock read with the TSC beside it, for a start at a time of day
 * (wallclock.h).
 */
#include <stdbool.h>
#include <time.h>

#include <rte_cycles.h>

#include "clock.h"

uint64_t fg_tsc_hz;

static uint64_t tsc_real_tsc(void *arg)
{
	(void)arg;
	return rte_rdtsc_precise();
}

static uint64_t tsc_real_ns(void *arg)
{
	struct timespec ts;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void tsc_real_sleep(void *arg, uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ull),
			      .tv_nsec = (long)(ns % 1000000000ull)};

	(void)arg;
	while (nanosleep(&ts, &ts) != 0)
		;
}

static uint64_t tsc_rt_ns(void *arg)
{
	struct timespec ts;

	(void)arg;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int64_t clock_rt_ns(void)
{
	return (int64_t)tsc_rt_ns(NULL);
}

void clock_rt_pair(struct wc_pair *p)
{
	const struct tsc_clock rt = {tsc_real_tsc, tsc_rt_ns, tsc_real_sleep, NULL};
	uint64_t ns = 0;

	tsc_pair(&rt, &p->tsc, &ns);
	p->rt_ns = (int64_t)ns;
	p->hz = fg_tsc_hz;
}

static struct tsc_mark cal_mark;
static bool cal_marked;

void tsc_calibrate_mark(void)
{
	const struct tsc_clock real = {tsc_real_tsc, tsc_real_ns, tsc_real_sleep, NULL};

	tsc_mark(&real, &cal_mark);
	cal_marked = true;
}

uint64_t tsc_calibrate(uint64_t dpdk_hz, uint64_t window_ns)
{
	const struct tsc_clock real = {tsc_real_tsc, tsc_real_ns, tsc_real_sleep, NULL};
	uint64_t hz;

	if (!cal_marked)
		tsc_calibrate_mark();
	hz = tsc_measure_from(&real, &cal_mark, window_ns);
	cal_marked = false;
	fg_tsc_hz = hz ? hz : dpdk_hz;
	return fg_tsc_hz;
}
