/*
 * units.c — parsing of the rate, size and duration strings users type
 * (the MULT forms of flowgen(8), profile `rate:` values) and the frame-rate arithmetic
 * of RFC 2544 (frame rates at line rate, L1 and L2 bits). Every parser first checks the number with a strict grammar
 * (digits, at most one '.', no exponent, no hex, no inf/nan) so that what
 * strtod would quietly accept never reaches the dataplane.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "units.h"

const char *const units_kind_names[UNITS_KIND_COUNT] = {
    [UNITS_MULT] = "mult", [UNITS_PPS] = "pps", [UNITS_BPS] = "bps",
    [UNITS_PCT] = "pct",   [UNITS_CPS] = "cps", [UNITS_MAX] = "max",
};

const struct units_imix_entry units_imix_default[3] = {
    {64, 7},
    {594, 4},
    {1518, 1},
};

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/*
 * Splits "1.5mpps" into 1.5 and "mpps". Accepts [digits][.digits] with at
 * least one digit; returns the suffix or NULL when there is no number.
 */
static const char *split_number(const char *s, double *v)
{
	const char *p = s;
	size_t digits = 0;
	char num[64];

	while (isdigit((unsigned char)*p)) {
		p++;
		digits++;
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			p++;
			digits++;
		}
	}
	if (digits == 0 || (size_t)(p - s) >= sizeof(num))
		return NULL;
	memcpy(num, s, p - s);
	num[p - s] = '\0';
	*v = strtod(num, NULL);
	if (!isfinite(*v))
		return NULL;
	return p;
}

struct suffix {
	const char *name;
	double scale;
	enum units_kind kind;
	bool l1;
};

static const struct suffix rate_suffixes[] = {
    {"pps", 1, UNITS_PPS, false},      {"kpps", 1e3, UNITS_PPS, false},
    {"mpps", 1e6, UNITS_PPS, false},   {"gpps", 1e9, UNITS_PPS, false},
    {"bps", 1, UNITS_BPS, false},      {"kbps", 1e3, UNITS_BPS, false},
    {"mbps", 1e6, UNITS_BPS, false},   {"gbps", 1e9, UNITS_BPS, false},
    {"tbps", 1e12, UNITS_BPS, false},  {"bps_l1", 1, UNITS_BPS, true},
    {"kbps_l1", 1e3, UNITS_BPS, true}, {"mbps_l1", 1e6, UNITS_BPS, true},
    {"gbps_l1", 1e9, UNITS_BPS, true}, {"tbps_l1", 1e12, UNITS_BPS, true},
    {"cps", 1, UNITS_CPS, false},      {"kcps", 1e3, UNITS_CPS, false},
    {"mcps", 1e6, UNITS_CPS, false},   {"%", 1, UNITS_PCT, false},
};

/* flows: true for -m (plain = multiplier, cps and max allowed). */
static int parse_rate(const char *s, struct units_rate *out, bool mult, char *err, size_t errlen)
{
	const char *suf;
	double v;
	size_t i;

	if (!s || !*s)
		return fail(err, errlen, "empty rate");
	if (mult && strcasecmp(s, "max") == 0) {
		*out = (struct units_rate){.kind = UNITS_MAX};
		return 0;
	}
	suf = split_number(s, &v);
	if (!suf)
		return fail(err, errlen, "'%s' is not a rate (e.g. 2.5, 10kpps, 500mbps, 40%%)", s);
	if (!*suf) {
		if (v <= 0)
			return fail(err, errlen, "rate '%s' must be > 0", s);
		if (mult && v > FG_UNITS_MULT_MAX)
			return fail(err, errlen, "multiplier '%s' is too large", s);
		if (!mult && v > FG_UNITS_RATE_MAX)
			return fail(err, errlen, "rate '%s' is too large", s);
		*out = (struct units_rate){.kind = mult ? UNITS_MULT : UNITS_PPS, .value = v};
		return 0;
	}
	for (i = 0; i < sizeof(rate_suffixes) / sizeof(rate_suffixes[0]); i++) {
		const struct suffix *x = &rate_suffixes[i];

		if (strcasecmp(suf, x->name) != 0)
			continue;
		if (!mult && x->kind == UNITS_CPS)
			return fail(err, errlen, "'%s': a stream rate cannot be in connections/s",
				    s);
		v *= x->scale;
		if (v <= 0)
			return fail(err, errlen, "rate '%s' must be > 0", s);
		if (x->kind == UNITS_PCT && v > 100)
			return fail(err, errlen, "'%s' is more than 100%% of line rate", s);
		if (v > FG_UNITS_RATE_MAX)
			return fail(err, errlen, "rate '%s' is too large", s);
		*out = (struct units_rate){.kind = x->kind, .value = v, .l1 = x->l1};
		return 0;
	}
	return fail(err, errlen, "'%s': unknown rate unit (use pps, kpps, mpps, mbps, gbps, %%%s)",
		    s, mult ? ", kcps" : "");
}

int units_parse_mult(const char *s, struct units_rate *out, char *err, size_t errlen)
{
	return parse_rate(s, out, true, err, errlen);
}

int units_parse_rate(const char *s, struct units_rate *out, char *err, size_t errlen)
{
	return parse_rate(s, out, false, err, errlen);
}

uint64_t units_frame_bits(uint32_t frame, bool l1)
{
	return ((uint64_t)frame + (l1 ? FG_UNITS_L1_OVERHEAD : 0)) * 8;
}

double units_line_pps(uint64_t link_bps, double frame)
{
	if (link_bps == 0 || !(frame > 0))
		return 0;
	return (double)link_bps / ((frame + FG_UNITS_L1_OVERHEAD) * 8.0);
}

double units_pct_to_pps(double pct, uint64_t link_bps, double frame)
{
	if (!(pct > 0))
		return 0;
	return units_line_pps(link_bps, frame) * pct / 100.0;
}

double units_bps_to_pps(double bps, double frame, bool l1)
{
	double bits = (frame + (l1 ? FG_UNITS_L1_OVERHEAD : 0)) * 8.0;

	if (!(frame > 0) || !(bps > 0))
		return 0;
	return bps / bits;
}

double units_pps_to_bps(double pps, double frame, bool l1)
{
	if (!(frame > 0) || !(pps > 0))
		return 0;
	return pps * (frame + (l1 ? FG_UNITS_L1_OVERHEAD : 0)) * 8.0;
}

int units_rate_to_pps(const struct units_rate *r, uint64_t link_bps, double frame, double *pps,
		      char *err, size_t errlen)
{
	if (!(frame > 0))
		return fail(err, errlen, "frame size must be > 0");
	switch (r->kind) {
	case UNITS_PPS:
		*pps = r->value;
		return 0;
	case UNITS_BPS:
		*pps = units_bps_to_pps(r->value, frame, r->l1);
		return 0;
	case UNITS_PCT:
		if (link_bps == 0)
			return fail(err, errlen, "%% of line rate needs a known link speed");
		*pps = units_pct_to_pps(r->value, link_bps, frame);
		return 0;
	case UNITS_MULT:
	case UNITS_CPS:
	case UNITS_MAX:
		break;
	}
	return fail(err, errlen, "a %s rate has no frame rate",
		    r->kind >= UNITS_MULT && r->kind <= UNITS_MAX ? units_kind_names[r->kind]
								  : "bad");
}

int units_imix_avg(const struct units_imix_entry *t, size_t n, double *avg)
{
	double bytes = 0, frames = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		bytes += (double)t[i].size * t[i].weight;
		frames += t[i].weight;
	}
	if (frames <= 0)
		return -EINVAL;
	*avg = bytes / frames;
	return 0;
}

int units_parse_duration(const char *s, double *seconds, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		double scale;
	} sfx[] = {{"", 1},	 {"s", 1},  {"sec", 1},	 {"ms", 1e-3},
		   {"us", 1e-6}, {"m", 60}, {"min", 60}, {"h", 3600}};
	const char *suf;
	double v;
	size_t i;

	if (!s || !*s)
		return fail(err, errlen, "empty duration");
	suf = split_number(s, &v);
	if (!suf)
		return fail(err, errlen, "'%s' is not a duration (e.g. 10, 500ms, 2s, 1m)", s);
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		if (strcasecmp(suf, sfx[i].name) != 0)
			continue;
		v *= sfx[i].scale;
		if (v > 10.0 * 365 * 86400)
			return fail(err, errlen, "duration '%s' is too long", s);
		*seconds = v;
		return 0;
	}
	return fail(err, errlen, "'%s': unknown duration unit (use ms, s, m, h)", s);
}

int units_parse_size(const char *s, uint64_t *bytes, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		double scale;
	} sfx[] = {{"", 1},
		   {"b", 1},
		   {"k", 1024.0},
		   {"kb", 1024.0},
		   {"kib", 1024.0},
		   {"m", 1048576.0},
		   {"mb", 1048576.0},
		   {"mib", 1048576.0},
		   {"g", 1073741824.0},
		   {"gb", 1073741824.0},
		   {"gib", 1073741824.0}};
	const char *suf;
	double v;
	size_t i;

	if (!s || !*s)
		return fail(err, errlen, "empty size");
	suf = split_number(s, &v);
	if (!suf)
		return fail(err, errlen, "'%s' is not a size (e.g. 1518, 64k, 2m)", s);
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		if (strcasecmp(suf, sfx[i].name) != 0)
			continue;
		v *= sfx[i].scale;
		if (v > 1125899906842624.0) /* 2^50 */
			return fail(err, errlen, "size '%s' is too large", s);
		if (v != floor(v))
			return fail(err, errlen, "size '%s' is not a whole number of bytes", s);
		*bytes = (uint64_t)v;
		return 0;
	}
	return fail(err, errlen, "'%s': unknown size unit (use k, m, g)", s);
}

const char *units_fmt(double v, const char *unit, char *buf, size_t len)
{
	static const char prefix[] = {' ', 'k', 'M', 'G', 'T', 'P'};
	size_t i = 0;

	if (!isfinite(v)) {
		snprintf(buf, len, "- %s", unit);
		return buf;
	}
	while (fabs(v) >= 1000.0 && i + 1 < sizeof(prefix)) {
		v /= 1000.0;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.4g %s", v, unit);
	else
		snprintf(buf, len, "%.2f %c%s", v, prefix[i], unit);
	return buf;
}
