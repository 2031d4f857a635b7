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
 */
#ifndef FG_TSC_H
#define FG_TSC_H

#include <stdint.h>

/* The clocks a measurement reads; tests pass fakes. */
struct tsc_clock {
	uint64_t (*tsc)(void *arg);		/* the TSC now */
	uint64_t (*ns)(void *arg);		/* the reference clock now, in ns */
	void (*sleep_ns)(void *arg, uint64_t ns); /* wait about ns */
	void *arg;
};

/* The window main measures over: 50 ms, a few ppm. */
#define FG_TSC_WINDOW_NS 50000000ull

/* Set once by main at start-up (control), read everywhere after. */
extern uint64_t fg_tsc_hz;

/*
 * pure: the TSC rate (cycles per second) measured over window_ns of the
 * reference clock, or 0 when the clocks make no sense (the TSC or the
 * reference did not advance).
 */
uint64_t tsc_measure(const struct tsc_clock *c, uint64_t window_ns);

/*
 * control: measure the TSC against CLOCK_MONOTONIC_RAW over window_ns and
 * set fg_tsc_hz; falls back to dpdk_hz (DPDK's figure) if the measurement
 * fails. Returns fg_tsc_hz.
 */
uint64_t tsc_calibrate(uint64_t dpdk_hz, uint64_t window_ns);

#endif
