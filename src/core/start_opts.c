/*
 * start_opts.c — `start`'s options parsed without side effects
 * (start_opts.h); the console acts on them (src/console/cmds.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "start_opts.h"
#include "units.h"
#include "wallclock.h"

/* A count of --active: decimal digits only, 1..START_ACTIVE_MAX. */
static int start_count(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < 1 || v > START_ACTIVE_MAX)
		return -EINVAL;
	*out = v;
	return 0;
}

/* +SECONDS: decimal digits, a fraction of up to nine digits (more are
 * cut), at most START_AT_AHEAD_MAX_S. */
static int start_at_in(const char *s, int64_t *ns)
{
	int64_t sec = 0, frac = 0, scale = 100000000;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		sec = sec * 10 + (*s - '0');
		if (sec > START_AT_AHEAD_MAX_S)
			return -EINVAL;
	}
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return -EINVAL;
		for (; *s >= '0' && *s <= '9'; s++) {
			frac += (*s - '0') * scale;
			scale /= 10;
		}
	}
	if (*s)
		return -EINVAL;
	*ns = sec * 1000000000LL + frac;
	return *ns > START_AT_AHEAD_MAX_S * 1000000000LL ? -EINVAL : 0;
}

int start_at_parse(const char *s, struct start_at *a, char *err, size_t errlen)
{
	memset(a, 0, sizeof(*a));
	a->text = s;
	if (s && s[0] == '+' && start_at_in(s + 1, &a->ns) == 0) {
		a->kind = START_AT_IN;
		return 0;
	}
	if (s && s[0] != '+' && wc_parse(s, &a->ns) == 0) {
		a->kind = START_AT_TIME;
		return 0;
	}
	a->kind = START_AT_NONE;
	snprintf(err, errlen,
		 "--at '%s': a time in RFC 3339 form (2026-12-05T07:01:02.250Z, or with an "
		 "offset: 2026-12-05T08:01:02.250+01:00) or +SECONDS from now (+2, +0.5; "
		 "at most %d)",
		 s ? s : "", START_AT_AHEAD_MAX_S);
	return -EINVAL;
}

int start_at_resolve(const struct start_at *a, int64_t now_ns, int64_t *at_ns, char *err,
		     size_t errlen)
{
	int64_t t;

	switch (a->kind) {
	case START_AT_TIME:
		t = a->ns;
		break;
	case START_AT_IN:
		t = now_ns + a->ns;
		break;
	default:
		*at_ns = now_ns;
		return 0;
	}
	if (t <= now_ns) {
		snprintf(err, errlen, "--at %s: that time has passed (%.3f s ago)", a->text,
			 (double)(now_ns - t) / 1e9);
		return -ETIME;
	}
	if (t - now_ns > START_AT_AHEAD_MAX_S * 1000000000LL) {
		snprintf(err, errlen, "--at %s: %.0f s ahead; a start is planned at most %d s (a day) ahead",
			 a->text, (double)(t - now_ns) / 1e9, START_AT_AHEAD_MAX_S);
		return -ERANGE;
	}
	*at_ns = t;
	return 0;
}

const struct option start_opts_longs[] = {{"force", no_argument, NULL, 'F'},
					  {"nc", no_argument, NULL, 'N'},
					  {"active", required_argument, NULL, 'A'},
					  {"at", required_argument, NULL, 'T'},
					  {NULL, 0, NULL, 0}};

int start_opts_parse(int argc, char **argv, struct start_opts *o, char *err, size_t errlen)
{
	char e[160];
	int c;

	memset(o, 0, sizeof(*o));
	o->mult = (struct units_rate){.kind = UNITS_MULT, .value = 1};
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, START_OPTS_SHORTS, start_opts_longs, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->file = optarg;
			break;
		case 'm':
			if (units_parse_mult(optarg, &o->mult, e, sizeof(e)) != 0) {
				snprintf(err, errlen, "-m %s", e);
				return -EINVAL;
			}
			o->has_mult = true;
			break;
		case 'd':
			if (units_parse_duration(optarg, &o->duration_s, e, sizeof(e)) != 0 ||
			    o->duration_s < 0) {
				snprintf(err, errlen, "-d %s", e);
				return -EINVAL;
			}
			break;
		case 'p':
			o->ports = optarg;
			break;
		case 't':
			o->tunables = optarg;
			break;
		case 'A':
			if (start_count(optarg, &o->active) != 0) {
				snprintf(err, errlen,
					 "--active '%s': a count of concurrent flows, 1..%llu",
					 optarg, START_ACTIVE_MAX);
				return -EINVAL;
			}
			break;
		case 'T':
			if (start_at_parse(optarg, &o->at, err, errlen) != 0)
				return -EINVAL;
			break;
		case 'F':
			o->force = true;
			break;
		case 'N':
			o->keep = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		default:
			snprintf(err, errlen, "usage");
			return -EINVAL;
		}
	}
	if (!o->file || optind != argc) {
		snprintf(err, errlen, "usage");
		return -EINVAL;
	}
	if (o->active && !o->has_mult)
		o->mult = (struct units_rate){.kind = UNITS_MAX};
	return 0;
}
