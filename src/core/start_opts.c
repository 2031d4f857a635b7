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

const struct option start_opts_longs[] = {{"force", no_argument, NULL, 'F'},
					  {"nc", no_argument, NULL, 'N'},
					  {"active", required_argument, NULL, 'A'},
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
		case 'F':
			o->force = true;
			break;
		case 'N':
			o->keep = true;
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
