/*
 * clock.h — the TSC rate flowgen runs on (clock.c): measured once by main
 * at start-up, before any worker starts, with tsc_measure (src/core/tsc.h,
 * which says why DPDK's figure is not used). Workers get it in their
 * struct worker (hz), set by ctl_launch.
 *
 * Included by: control and console.
 */
#ifndef FG_CLOCK_H
#define FG_CLOCK_H

#include <stdint.h>

#include "tsc.h"
#include "wallclock.h"

/* The window main measures over: 50 ms, a few ppm. */
#define FG_TSC_WINDOW_NS 50000000ull

/* Set once by main at start-up (control), read everywhere after. */
extern uint64_t fg_tsc_hz;

/*
 * control: measure the TSC against CLOCK_MONOTONIC_RAW over window_ns and
 * set fg_tsc_hz; falls back to dpdk_hz (DPDK's figure) if the measurement
 * fails. Returns fg_tsc_hz. The window runs from tsc_calibrate_mark()
 * when that was called (main calls it before rte_eal_init, which outlasts
 * the window: the measurement then waits for nothing), else from the call.
 * The TSC is read on whichever CPU the thread is on at each end; flowgen,
 * as DPDK's timers, takes it to be one clock on every CPU (the CPU flags
 * constant_tsc and nonstop_tsc).
 */
uint64_t tsc_calibrate(uint64_t dpdk_hz, uint64_t window_ns);

/* control: the first reading of tsc_calibrate's window (main, at start). */
void tsc_calibrate_mark(void);

/* control: the system clock (CLOCK_REALTIME) now, ns since the epoch. */
int64_t clock_rt_ns(void);

/*
 * any context (workers too: no lock, no allocation; clock_gettime(2) is
 * the vDSO's where the clock source allows): the system clock and the
 * TSC read together (the tightest of a few brackets, tsc_pair), with
 * fg_tsc_hz: what turns a time of day into the workers' TSC and back
 * (wallclock.h).
 */
void clock_rt_pair(struct wc_pair *p);

#endif
