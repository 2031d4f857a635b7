/*
 * wallclock.c — RFC 3339 times read and written, and a (system clock, TSC)
 * pair's conversions (wallclock.h). Pure: the calendar arithmetic is the
 * proleptic Gregorian one of days_from_civil below, no time zone and no
 * libc time function.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include "wallclock.h"

#define NS 1000000000LL

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; m 1..12). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	const int64_t era = (y >= 0 ? y : y - 399) / 400;
	const unsigned yoe = (unsigned)(y - era * 400);
	const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + (int64_t)doe - 719468;
}

/* The inverse: y-m-d of a day count from 1970-01-01. */
static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	z += 719468;
	const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	const unsigned doe = (unsigned)(z - era * 146097);
	const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	const unsigned mp = (5 * doy + 2) / 153;

	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static unsigned days_in_month(int64_t y, unsigned m)
{
	static const unsigned dm[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : dm[m - 1];
}

/* n decimal digits at *s (exactly n), advancing *s. */
static bool digits(const char **s, int n, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		char c = (*s)[i];

		if (c < '0' || c > '9')
			return false;
		*v = *v * 10 + (unsigned)(c - '0');
	}
	*s += n;
	return true;
}

static bool lit(const char **s, char c)
{
	if (**s != c)
		return false;
	(*s)++;
	return true;
}

int wc_parse(const char *s, int64_t *ns)
{
	unsigned y, mo, d, h, mi, sec, oh = 0, om = 0;
	int64_t frac = 0, scale = NS / 10, t, off = 0;

	if (!s || !digits(&s, 4, &y) || !lit(&s, '-') || !digits(&s, 2, &mo) || !lit(&s, '-') ||
	    !digits(&s, 2, &d))
		return -EINVAL;
	if (*s != 'T' && *s != 't')
		return -EINVAL;
	s++;
	if (!digits(&s, 2, &h) || !lit(&s, ':') || !digits(&s, 2, &mi) || !lit(&s, ':') ||
	    !digits(&s, 2, &sec))
		return -EINVAL;
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return -EINVAL; /* "time-secfrac = "." 1*DIGIT" */
		for (; *s >= '0' && *s <= '9'; s++) {
			frac += (*s - '0') * scale;
			scale /= 10;
		}
	}
	if (*s == 'Z' || *s == 'z') {
		s++;
	} else if (*s == '+' || *s == '-') {
		int sign = *s++ == '-' ? -1 : 1;

		if (!digits(&s, 2, &oh) || !lit(&s, ':') || !digits(&s, 2, &om) || oh > 23 ||
		    om > 59)
			return -EINVAL;
		off = sign * ((int64_t)oh * 3600 + om * 60);
	} else {
		return -EINVAL;
	}
	if (*s || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 ||
	    sec > 59)
		return -EINVAL;
	/* local time less its offset is UTC */
	t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - off;
	if (t < 0 || t >= days_from_civil(WC_YEAR_END, 1, 1) * 86400)
		return -EINVAL;
	*ns = t * NS + frac;
	return 0;
}

size_t wc_fmt(int64_t ns, char *buf, size_t len)
{
	int64_t s = ns / NS, f = ns % NS, y;
	unsigned m, d, sod;
	int n;

	if (ns < 0 || s >= days_from_civil(WC_YEAR_END, 1, 1) * 86400 || len < WC_TEXT_MAX) {
		if (len)
			buf[0] = '\0';
		return 0;
	}
	civil_from_days(s / 86400, &y, &m, &d);
	sod = (unsigned)(s % 86400);
	n = snprintf(buf, len, "%04d-%02u-%02uT%02u:%02u:%02u.%09dZ", (int)y, m, d, sod / 3600,
		     sod / 60 % 60, sod % 60, (int)f);
	return n > 0 ? (size_t)n : 0;
}

uint64_t wc_tsc_of(const struct wc_pair *p, int64_t rt_ns)
{
	__int128 dt = (__int128)rt_ns - p->rt_ns, c;

	/* dt * hz / 1e9, rounded half away from zero */
	c = dt * (__int128)p->hz;
	c = (c >= 0 ? c + NS / 2 : c - NS / 2) / NS;
	c += p->tsc;
	return c < 0 ? 0 : c > (__int128)UINT64_MAX ? UINT64_MAX : (uint64_t)c;
}

int64_t wc_rt_of(const struct wc_pair *p, uint64_t tsc)
{
	__int128 dc = (__int128)tsc - p->tsc, t;

	if (!p->hz)
		return p->rt_ns;
	t = dc * NS;
	t = (t >= 0 ? t + (__int128)(p->hz / 2) : t - (__int128)(p->hz / 2)) / (__int128)p->hz;
	return (int64_t)(t + p->rt_ns);
}
