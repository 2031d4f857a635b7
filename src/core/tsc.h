/*
 * tsc.h — the TSC rate every time and rate of flowgen is computed with.
 *
 * DPDK takes the TSC frequency from the CPU when the CPU states it, and
 * otherwise estimates it over a short sleep and rounds the estimate to
 * 10 MHz: on a 2.096 GHz TSC it says 2.100 GHz, and every latency then
 * reads 0.19 % short. flowgen measures the rate itself at start-up,
 * against CLOCK_MONOTONIC_RAW (the kernel's clock not slewed by NTP), and
 * uses the measured figure everywhere (fg_tsc_hz). `portattr` and
 * `stats --json` (global.tsc_hz) show it.
 *
 * A measurement brackets each clock reading between two TSC reads and
 * keeps the tightest of a few tries, so a preemption while reading does not
 * skew it; over a 50 ms window the error is a few parts per million.
 * The measurement is pure (tsc.c); the start-up calibration and fg_tsc_hz
 * are control's (src/control/clock.h).
 *
 * Included by: every folder.
 */
#ifndef FG_TSC_H
#define FG_TSC_H

#include <stdint.h>
#include <time.h>

/* The clocks a measurement reads; tests pass fakes. */
struct tsc_clock {
	uint64_t (*tsc)(void *arg);		/* the TSC now */
	uint64_t (*ns)(void *arg);		/* the reference clock now, in ns */
	void (*sleep_ns)(void *arg, uint64_t ns); /* wait about ns */
	void *arg;
};

/*
 * pure: the TSC rate (cycles per second) measured over window_ns of the
 * reference clock, or 0 when the clocks make no sense (the TSC or the
 * reference did not advance).
 */
uint64_t tsc_measure(const struct tsc_clock *c, uint64_t window_ns);

/* The first reading of a measurement taken in two parts (tsc_measure_from). */
struct tsc_mark {
	uint64_t tsc, ns;
};

/* pure: the first reading (tsc_pair) of a measurement. */
void tsc_mark(const struct tsc_clock *c, struct tsc_mark *m);

/*
 * pure: the TSC rate from the mark m to now, as tsc_measure gives it,
 * having slept only what is left of window_ns since m (nothing when
 * that much passed already). The start-up calibration marks before
 * rte_eal_init, which takes longer than the window on its own (its own
 * estimate sleeps 100 ms), so the window costs flowgen's start nothing.
 */
uint64_t tsc_measure_from(const struct tsc_clock *c, const struct tsc_mark *m,
			  uint64_t window_ns);

/*
 * pure: one reading of the reference clock, with the TSC at that moment:
 * the mid-point of the two TSC reads around it, from the try (of a few)
 * whose two reads were closest (the one least disturbed). The measurement
 * above takes two; a start at a time of day one (wallclock.h).
 */
void tsc_pair(const struct tsc_clock *c, uint64_t *tsc, uint64_t *ns);

/*
 * any context, async-signal-safe (clock_gettime(2) is): CLOCK_MONOTONIC in
 * nanoseconds, the one wall-independent clock of the control side's
 * timeouts, request times and the dashboard's refresh.
 */
static inline int64_t fg_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#endif
