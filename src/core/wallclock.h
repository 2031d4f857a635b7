/*
 * wallclock.h — the system clock (CLOCK_REALTIME, the one chrony or PTP
 * keep) against the TSC, for a start at a time of day (`start --at`,
 * flowgen(8), start) and for the times of a run's start that `stats
 * --json` shows (start_planned, first_frame; flowgen(8), STATISTICS).
 *
 * A time is nanoseconds since the epoch (1970-01-01T00:00:00Z, leap
 * seconds not counted, as CLOCK_REALTIME counts). RFC 3339 §5.6 gives its
 * text form: read with any fraction of a second (digits past the ninth
 * are cut) and with Z or a numeric offset; written in UTC with nine
 * digits of fraction and Z.
 *
 * A pair (struct wc_pair) is one reading of both clocks at one moment,
 * taken on one thread (clock_rt_pair, src/control/clock.h), the system
 * clock's reading bracketed by two TSC reads, the tightest bracket of a
 * few tries (tsc_pair, tsc.h); with the TSC rate it turns a system time
 * into the TSC count at that time and back, to the pair's bracket (tens of
 * nanoseconds) plus the drift between the two clocks since the pair was
 * taken: the TSC rate's error (a few parts per million) and the system
 * clock's own rate correction (chronyc tracking's "Frequency"; up to
 * 83,333 ppm while chrony slews out an offset, chrony.conf(5)
 * maxslewrate). So a worker that waits for a planned start takes a pair
 * again at each step of its wait (worker.c), and the run's TSC counts
 * become times through the last one (stats.c).
 *
 * Context: pure (no globals, no I/O; unit-tested in test/unit/test_wallclock.c).
 *
 * Included by: every folder.
 */
#ifndef FG_WALLCLOCK_H
#define FG_WALLCLOCK_H

#include <stddef.h>
#include <stdint.h>

/* The longest text wc_fmt writes, its NUL included. */
#define WC_TEXT_MAX 32
/* The first year past what a time holds: ns since the epoch in 64 bits
 * reach 2262-04-11; times are of years 1970..2261. */
#define WC_YEAR_END 2262

struct wc_pair {
	int64_t rt_ns; /* the system clock, ns since the epoch */
	uint64_t tsc;  /* the TSC at that moment */
	uint64_t hz;   /* TSC cycles per second (fg_tsc_hz) */
};

/*
 * pure: an RFC 3339 date-time (§5.6: YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM),
 * T and Z in either case) as ns since the epoch. Seconds 0..59 (a leap
 * second, :60, has no place on CLOCK_REALTIME's scale: refused), a day
 * that exists in its month, years 1970..2261 (WC_YEAR_END) after the
 * offset is applied.
 * 0, or -EINVAL.
 */
int wc_parse(const char *s, int64_t *ns);

/*
 * pure: ns since the epoch as RFC 3339 in UTC with nine digits of
 * fraction ("2026-12-05T07:01:02.250000000Z"). buf of len >= WC_TEXT_MAX;
 * returns the length written, 0 for a time outside years 1970..2261.
 */
size_t wc_fmt(int64_t ns, char *buf, size_t len);

/* pure: the TSC count at system time rt_ns, through pair p (rounded to
 * the nearest cycle; a time before the TSC's 0 gives 0). */
uint64_t wc_tsc_of(const struct wc_pair *p, int64_t rt_ns);

/* pure: the system time of TSC count tsc, through pair p (rounded to the
 * nearest ns). */
int64_t wc_rt_of(const struct wc_pair *p, uint64_t tsc);

#endif
