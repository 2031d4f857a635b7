/*
 * yamlu_scalar.c — the value side of the YAML reader: one scalar node of
 * the document turned into the C value a schema row asks for (integers,
 * numbers, booleans, strings, IPv4 and MAC addresses, words of an enum,
 * [first, last] ranges), with the row's range checked and a message at the
 * node when it does not fit. Under it is the strict integer parser; the
 * strict address parsers and the address formatter of range messages are
 * yamlu_text.c.
 *
 * Context: control, called by the walker of yamlu.c and by the custom
 * parsers of cfg.c and prof.c (through yamlu_scalar) while a platform
 * config or a profile is read.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "yamlu.h"
#include "yamlu_int.h"

const char *const yamlu_type_names[YAMLU_TYPE_COUNT] = {
    [YAMLU_INT] = "integer",	 [YAMLU_UINT32] = "integer", [YAMLU_DOUBLE] = "number",
    [YAMLU_BOOL] = "boolean",	 [YAMLU_STRING] = "string",  [YAMLU_IPV4] = "IPv4 address",
    [YAMLU_MAC] = "MAC address", [YAMLU_ENUM] = "word",	     [YAMLU_IPV4_RANGE] = "address range",
    [YAMLU_U32_RANGE] = "range", [YAMLU_LIST] = "list",	     [YAMLU_MAP] = "mapping",
    [YAMLU_LIST_MAP] = "list",	 [YAMLU_CUSTOM] = "value",
};

/* Strict integer: optional sign, decimal digits or 0x hex; no spaces. */
static bool parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;
	int base = 10;
	const char *p = s;

	if (*p == '+' || *p == '-')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16;
	if (!isxdigit((unsigned char)p[base == 16 ? 2 : 0]))
		return false;
	errno = 0;
	v = strtoll(s, &end, base);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* ---- conversion of one value ---- */

static int want_scalar(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n,
		       const char **s)
{
	*s = yamlu_str(n);
	if (!*s)
		return yamlu_errf(y, n, "'%s' must be %s %s, not %s", f->key,
				  f->type == YAMLU_IPV4 || f->type == YAMLU_INT ||
					  f->type == YAMLU_UINT32 || f->type == YAMLU_ENUM
				      ? "an"
				      : "a",
				  yamlu_type_names[f->type], yamlu_node_kind(n));
	if (strlen(*s) != n->data.scalar.length)
		return yamlu_errf(y, n, "'%s' contains a NUL character", f->key);
	if (yamlu_is_null(n))
		return yamlu_errf(y, n, "'%s' has no value", f->key);
	return 0;
}

static int int_value(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, int64_t lo,
		     int64_t hi, int64_t *v)
{
	const char *s;
	int rc = want_scalar(y, f, n, &s);

	if (rc)
		return rc;
	if (!parse_i64(s, v))
		return yamlu_errf(y, n, "'%s' must be an integer, got '%s'", f->key, s);
	if (*v < lo || *v > hi)
		return yamlu_errf(y, n, "'%s' %s is out of range %" PRId64 "..%" PRId64, f->key, s,
				  lo, hi);
	return 0;
}

static void limits(const struct yamlu_field *f, int64_t *lo, int64_t *hi, int64_t dlo, int64_t dhi)
{
	*lo = f->min;
	*hi = f->max;
	if (*lo == 0 && *hi == 0) {
		*lo = dlo;
		*hi = dhi;
	}
	if (*lo < dlo)
		*lo = dlo;
	if (*hi > dhi)
		*hi = dhi;
}

static int mac_list(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, uint8_t *mac)
{
	static const struct yamlu_field byte = {.key = "MAC byte", .type = YAMLU_INT};
	int64_t v;
	size_t i;
	int rc;

	if (yamlu_len(n) != 6)
		return yamlu_errf(y, n, "'%s' is not a MAC address: a list needs 6 bytes", f->key);
	for (i = 0; i < 6; i++) {
		rc = int_value(y, &byte, yamlu_item(y, n, i), 0, 255, &v);
		if (rc)
			return rc;
		mac[i] = (uint8_t)v;
	}
	return 0;
}

static int range_value(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n,
		       struct yamlu_range *r)
{
	struct yamlu_field ef = *f;
	char a[16], b[16];
	uint32_t v[2];
	size_t i;
	int rc;

	if (n->type != YAML_SEQUENCE_NODE || yamlu_len(n) != 2)
		return yamlu_errf(y, n, "'%s' must be a list [first, last]", f->key);
	ef.type = f->type == YAMLU_IPV4_RANGE ? YAMLU_IPV4 : YAMLU_UINT32;
	if (f->type == YAMLU_IPV4_RANGE)
		ef.min = ef.max = 0;
	for (i = 0; i < 2; i++) {
		rc = yamlu_scalar(y, &ef, yamlu_item(y, n, i), &v[i]);
		if (rc)
			return rc;
	}
	if (v[0] > v[1]) {
		if (f->type == YAMLU_IPV4_RANGE)
			return yamlu_errf(y, n, "'%s' is empty: %s is above %s", f->key,
					  yamlu_fmt_ipv4(v[0], a, sizeof(a)),
					  yamlu_fmt_ipv4(v[1], b, sizeof(b)));
		return yamlu_errf(y, n, "'%s' is empty: %u is above %u", f->key, v[0], v[1]);
	}
	if (f->type == YAMLU_IPV4_RANGE && f->max > 0 &&
	    (uint64_t)v[1] - v[0] + 1 > (uint64_t)f->max)
		return yamlu_errf(y, n, "'%s' has %" PRIu64 " addresses, more than %" PRId64,
				  f->key, (uint64_t)v[1] - v[0] + 1, f->max);
	r->lo = v[0];
	r->hi = v[1];
	return 0;
}

int yamlu_scalar(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst)
{
	const char *s;
	int64_t v, lo, hi;
	char *end;
	double d;
	int rc, i;

	switch (f->type) {
	case YAMLU_INT:
		limits(f, &lo, &hi, INT_MIN, INT_MAX);
		rc = int_value(y, f, n, lo, hi, &v);
		if (!rc)
			*(int *)dst = (int)v;
		return rc;
	case YAMLU_UINT32:
		limits(f, &lo, &hi, 0, UINT32_MAX);
		rc = int_value(y, f, n, lo, hi, &v);
		if (!rc)
			*(uint32_t *)dst = (uint32_t)v;
		return rc;
	case YAMLU_DOUBLE:
		rc = want_scalar(y, f, n, &s);
		if (rc)
			return rc;
		errno = 0;
		d = strtod(s, &end);
		if (end == s || *end || errno || !isfinite(d) || isspace((unsigned char)*s))
			return yamlu_errf(y, n, "'%s' must be a number, got '%s'", f->key, s);
		if ((f->flags & YAMLU_F_GT0) && !(d > 0))
			return yamlu_errf(y, n, "'%s' must be > 0, got '%s'", f->key, s);
		if ((f->dmin != 0 || f->dmax != 0) && (d < f->dmin || d > f->dmax))
			return yamlu_errf(y, n, "'%s' %s is out of range %g..%g", f->key, s,
					  f->dmin, f->dmax);
		*(double *)dst = d;
		return 0;
	case YAMLU_BOOL:
		rc = want_scalar(y, f, n, &s);
		if (rc)
			return rc;
		if (!strcasecmp(s, "true") || !strcasecmp(s, "yes") || !strcasecmp(s, "on") ||
		    !strcmp(s, "1"))
			*(bool *)dst = true;
		else if (!strcasecmp(s, "false") || !strcasecmp(s, "no") || !strcasecmp(s, "off") ||
			 !strcmp(s, "0"))
			*(bool *)dst = false;
		else
			return yamlu_errf(y, n, "'%s' must be true or false, got '%s'", f->key, s);
		return 0;
	case YAMLU_STRING:
		rc = want_scalar(y, f, n, &s);
		if (rc)
			return rc;
		if (strlen(s) > (f->max > 0 ? (size_t)f->max : 4096))
			return yamlu_errf(y, n, "'%s' is longer than %zu characters", f->key,
					  f->max > 0 ? (size_t)f->max : (size_t)4096);
		free(*(char **)dst);
		*(char **)dst = strdup(s);
		if (!*(char **)dst)
			return yamlu_errf(y, n, "out of memory");
		return 0;
	case YAMLU_IPV4:
		rc = want_scalar(y, f, n, &s);
		if (rc)
			return rc;
		if (!yamlu_parse_ipv4(s, dst))
			return yamlu_errf(y, n, "'%s' is not an IPv4 address: '%s'", f->key, s);
		return 0;
	case YAMLU_MAC:
		if (n->type == YAML_SEQUENCE_NODE)
			return mac_list(y, f, n, dst);
		rc = want_scalar(y, f, n, &s);
		if (rc)
			return rc;
		if (!yamlu_parse_mac(s, dst))
			return yamlu_errf(y, n, "'%s' is not a MAC address: '%s'", f->key, s);
		return 0;
	case YAMLU_ENUM:
		rc = want_scalar(y, f, n, &s);
		if (rc)
			return rc;
		for (i = (int)f->min; i <= (int)f->max; i++) {
			if (f->names[i] && !strcmp(f->names[i], s)) {
				*(int *)dst = i;
				return 0;
			}
		}
		{
			char list[256] = "";
			size_t l = 0;

			for (i = (int)f->min; i <= (int)f->max; i++) {
				if (!f->names[i])
					continue;
				l += snprintf(list + l, l < sizeof(list) ? sizeof(list) - l : 0,
					      "%s%s", l ? ", " : "", f->names[i]);
			}
			return yamlu_errf(y, n, "'%s' must be one of: %s; got '%s'", f->key, list,
					  s);
		}
	case YAMLU_IPV4_RANGE:
	case YAMLU_U32_RANGE:
		return range_value(y, f, n, dst);
	case YAMLU_LIST:
	case YAMLU_MAP:
	case YAMLU_LIST_MAP:
	case YAMLU_CUSTOM:
		break;
	}
	return yamlu_errf(y, n, "'%s': internal error: not a scalar type", f->key);
}
