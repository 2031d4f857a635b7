/*
 * otg_pat.c — the JSON side of the OTG translation: typed member access
 * that names the path of the first bad field ("flows[0].rate.pps: must
 * be an integer"), the check that an object holds only the model's keys,
 * a `choice` with the model's rule (absent: the one member set), and the
 * pattern fields of the packet headers (value, values, increment,
 * decrement, random, auto, checksums) turned into the ranges the streams
 * engine varies (a prof_field: fixed, inc, dec or rand over lo..hi).
 * Pure: no DPDK, no globals; unit-tested and fuzzed with otg_plan.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otg_int.h"
#include "yamlu_text.h"

#define PATH_MAX_LEN 320

void otg_pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

int otg_fail(struct otg_err *e, const char *path, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!e->buf || !e->len)
		return -EINVAL;
	n = snprintf(e->buf, e->len, "%s: ", path);
	if (n < 0 || (size_t)n >= e->len)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(e->buf + n, e->len - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int otg_keys(struct otg_err *e, const char *path, const json_t *obj, const char *const *keys)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)obj, k, v)
	{
		size_t i;

		(void)v;
		for (i = 0; keys[i] && strcmp(keys[i], k); i++)
			;
		if (!keys[i])
			return otg_fail(e, path, "unknown field '%.64s'", k);
	}
	return 0;
}

static const char *type_name(json_type t)
{
	switch (t) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

const json_t *otg_get(struct otg_err *e, const char *path, const json_t *obj, const char *key,
		      json_type type, int *bad)
{
	const json_t *v = json_object_get(obj, key);
	json_type t;

	*bad = 0;
	if (!v || json_is_null(v))
		return NULL;
	t = json_typeof(v);
	if (t == type || (type == JSON_REAL && t == JSON_INTEGER) ||
	    (type == JSON_TRUE && (t == JSON_TRUE || t == JSON_FALSE)))
		return v;
	*bad = otg_fail(e, path, "'%s' must be %s", key, type_name(type));
	return NULL;
}

/* An unsigned integer: a JSON integer, or a decimal string (the protobuf
 * mapping of uint64). false when it is neither. */
static bool json_uint(const json_t *v, uint64_t *out)
{
	if (json_is_integer(v)) {
		if (json_integer_value(v) < 0)
			return false;
		*out = (uint64_t)json_integer_value(v);
		return true;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;

		if (!*s || *s == '-' || *s == '+' || *s == ' ')
			return false;
		errno = 0;
		*out = strtoull(s, &end, 10);
		return !errno && !*end;
	}
	return false;
}

int otg_get_uint(struct otg_err *e, const char *path, const json_t *obj, const char *key,
		 uint64_t lo, uint64_t hi, uint64_t def, uint64_t *out)
{
	const json_t *v = json_object_get(obj, key);

	if (!v || json_is_null(v)) {
		*out = def;
		return 0;
	}
	if (!json_uint(v, out))
		return otg_fail(e, path, "'%s' must be an unsigned integer", key);
	if (*out < lo || *out > hi)
		return otg_fail(e, path, "'%s' %" PRIu64 " is out of range %" PRIu64 "..%" PRIu64,
				key, *out, lo, hi);
	return 0;
}

int otg_get_num(struct otg_err *e, const char *path, const json_t *obj, const char *key, double lo,
		double hi, double def, double *out)
{
	const json_t *v = json_object_get(obj, key);

	if (!v || json_is_null(v)) {
		*out = def;
		return 0;
	}
	if (!json_is_number(v))
		return otg_fail(e, path, "'%s' must be a number", key);
	*out = json_number_value(v);
	if (!(*out >= lo && *out <= hi))
		return otg_fail(e, path, "'%s' %g is out of range %g..%g", key, *out, lo, hi);
	return 0;
}

int otg_get_str(struct otg_err *e, const char *path, const json_t *obj, const char *key,
		const char *def, char *out, size_t max)
{
	int bad;
	const json_t *v = otg_get(e, path, obj, key, JSON_STRING, &bad);
	const char *s = v ? json_string_value(v) : def;

	if (bad)
		return bad;
	if (strlen(s) >= max)
		return otg_fail(e, path, "'%s' is longer than %zu bytes", key, max - 1);
	memcpy(out, s, strlen(s) + 1);
	return 0;
}

int otg_choice(struct otg_err *e, const char *path, const json_t *obj, const char *const *names,
	       int def, int *out)
{
	int bad, found = -1;
	const json_t *v = otg_get(e, path, obj, "choice", JSON_STRING, &bad);

	if (bad)
		return bad;
	if (v) {
		for (int i = 0; names[i]; i++)
			if (*names[i] && !strcmp(names[i], json_string_value(v))) {
				*out = i;
				return 0;
			}
		return otg_fail(e, path, "choice '%.64s' is not one of the model's",
				json_string_value(v));
	}
	for (int i = 0; names[i]; i++) {
		if (!*names[i] || !json_object_get(obj, names[i]))
			continue;
		if (found >= 0) {
			found = -2;
			break;
		}
		found = i;
	}
	*out = found >= 0 ? found : def;
	return 0;
}

/* --- patterns ----------------------------------------------------------------------- */

static const char *const choice_names[] = {
    [0] = "",
    [OTG_CH_VALUE] = "value",
    [OTG_CH_VALUES] = "values",
    [OTG_CH_INC] = "increment",
    [OTG_CH_DEC] = "decrement",
    [OTG_CH_RANDOM] = "random",
    [OTG_CH_AUTO] = "auto",
    [OTG_CH_GENERATED] = "generated",
    [OTG_CH_CUSTOM] = "custom",
    NULL,
};

static const char *const pat_keys[] = {"choice",    "value",  "values", "increment",
				       "decrement", "random", "auto",	"metric_tags",
				       "generated", "custom", NULL};

/* One value of a pattern: *v (UINT, IPv4 host order, MAC as 48 bits, IPv6
 * low 32 bits) and, for IPv6, the whole address in a6. */
static int pat_scalar(struct otg_err *e, const char *path, const json_t *j,
		      const struct otg_pat_spec *s, uint64_t *v, uint8_t *a6)
{
	const char *str = json_is_string(j) ? json_string_value(j) : NULL;
	uint8_t m[6];
	uint32_t a4;

	switch (s->kind) {
	case OTG_PAT_UINT:
		if (!json_uint(j, v))
			return otg_fail(e, path, "must be an unsigned integer");
		if (*v > s->max)
			return otg_fail(e, path, "%" PRIu64 " is above the maximum %" PRIu64, *v,
					s->max);
		return 0;
	case OTG_PAT_IPV4:
		if (!str || inet_pton(AF_INET, str, &a4) != 1)
			return otg_fail(e, path, "must be an IPv4 address");
		*v = ntohl(a4);
		return 0;
	case OTG_PAT_IPV6:
		if (!str || inet_pton(AF_INET6, str, a6) != 1)
			return otg_fail(e, path, "must be an IPv6 address");
		*v = (uint64_t)a6[12] << 24 | (uint64_t)a6[13] << 16 | (uint64_t)a6[14] << 8 |
		     a6[15];
		return 0;
	case OTG_PAT_MAC:
		/* the platform config's parser (yamlu_text.h), the one of flowgen */
		if (!yamlu_parse_mac(str, m))
			return otg_fail(e, path, "must be a MAC address (xx:xx:xx:xx:xx:xx)");
		*v = 0;
		for (int i = 0; i < 6; i++)
			*v = *v << 8 | m[i];
		return 0;
	}
	return otg_fail(e, path, "unknown kind");
}

/* The largest value of a field the engine varies (IPv6: the last 32 bits). */
static uint64_t pat_max(const struct otg_pat_spec *s)
{
	switch (s->kind) {
	case OTG_PAT_UINT:
		return s->max;
	case OTG_PAT_MAC:
		return (1ull << 48) - 1;
	default:
		return UINT32_MAX;
	}
}

static int pat_member(struct otg_err *e, const char *path, const json_t *o, const char *key,
		      const struct otg_pat_spec *s, uint64_t def, const uint8_t *def6, uint64_t *v,
		      uint8_t *a6)
{
	char fp[PATH_MAX_LEN];
	const json_t *j = json_object_get(o, key);

	if (!j || json_is_null(j)) {
		*v = def;
		if (a6 && def6)
			memcpy(a6, def6, 16);
		return 0;
	}
	otg_pathf(fp, sizeof(fp), "%s.%s", path, key);
	return pat_scalar(e, fp, j, s, v, a6);
}

/* values: one value, or consecutive ones (IPv6: the same first 96 bits). */
static int pat_values(struct otg_err *e, const char *path, const json_t *arr,
		      const struct otg_pat_spec *s, struct otg_pat *p)
{
	char fp[PATH_MAX_LEN];
	size_t n = json_array_size(arr);
	uint64_t first = 0, prev = 0, v;
	uint8_t a6[16];
	int dir = 0;

	if (!json_is_array(arr) || !n)
		return otg_fail(e, path, "must be a non-empty array");
	for (size_t i = 0; i < n; i++) {
		otg_pathf(fp, sizeof(fp), "%s[%zu]", path, i);
		if (pat_scalar(e, fp, json_array_get(arr, i), s, &v, a6))
			return -EINVAL;
		if (i == 0) {
			first = prev = v;
			memcpy(p->a6, a6, 16);
			continue;
		}
		if (s->kind == OTG_PAT_IPV6 && memcmp(a6, p->a6, 12))
			return otg_fail(e, path,
					"not supported: values must share their first 96 bits");
		if (i == 1)
			dir = v == prev + 1 ? 1 : v + 1 == prev ? -1 : 0;
		if (!dir || v != (uint64_t)((int64_t)prev + dir))
			return otg_fail(e, path,
					"not supported: flowgen varies a field over consecutive "
					"values only (use increment, decrement or random)");
		prev = v;
	}
	p->value = FG_MIN(first, prev);
	p->f.lo = (uint32_t)FG_MIN(first, prev);
	p->f.hi = (uint32_t)FG_MAX(first, prev);
	p->f.mode = dir > 0 ? PROF_VAR_INC : dir < 0 ? PROF_VAR_DEC : PROF_VAR_FIXED;
	if (dir < 0 && s->kind == OTG_PAT_IPV6)
		p->a6[12] = (uint8_t)(p->f.lo >> 24), p->a6[13] = (uint8_t)(p->f.lo >> 16),
		p->a6[14] = (uint8_t)(p->f.lo >> 8), p->a6[15] = (uint8_t)p->f.lo;
	return 0;
}

/* increment / decrement {start, step, count}: step 1 (or any step when count is 1). */
static int pat_counter(struct otg_err *e, const char *path, const json_t *c,
		       const struct otg_pat_spec *s, bool inc, uint64_t def, const uint8_t *def6,
		       struct otg_pat *p)
{
	static const char *const keys[] = {"start", "step", "count", NULL};
	static const uint8_t one6[16] = {[15] = 1};
	uint64_t start = 0, step = 1, count = 1, lo, hi;
	uint8_t step6[16];

	if (!json_is_object(c))
		return otg_fail(e, path, "must be an object");
	if (otg_keys(e, path, c, keys) ||
	    pat_member(e, path, c, "start", s, def, def6, &start, p->a6) ||
	    pat_member(e, path, c, "step", s, 1, one6, &step, step6) ||
	    otg_get_uint(e, path, c, "count", 1, UINT32_MAX, 1, &count))
		return -EINVAL;
	if (s->kind == OTG_PAT_IPV6 && count > 1 && memcmp(step6, one6, 12))
		return otg_fail(e, path, "not supported: step must be ::1 (flowgen varies by one)");
	if (count > 1 && step != 1)
		return otg_fail(e, path,
				"not supported: step %" PRIu64 ": flowgen varies a field "
				"by one",
				step);
	if (inc ? start + (count - 1) > pat_max(s) : start < count - 1)
		return otg_fail(e, path, "start and count run past the field's %s",
				inc ? "maximum (IPv6: the last 32 bits)"
				    : "minimum (IPv6: the last 32 bits)");
	lo = inc ? start : start - (count - 1);
	hi = inc ? start + (count - 1) : start;
	p->value = lo;
	p->f.lo = (uint32_t)lo;
	p->f.hi = (uint32_t)hi;
	p->f.mode = count == 1 ? PROF_VAR_FIXED : inc ? PROF_VAR_INC : PROF_VAR_DEC;
	if (!inc && s->kind == OTG_PAT_IPV6) /* a6 holds the range's first address */
		p->a6[12] = (uint8_t)(lo >> 24), p->a6[13] = (uint8_t)(lo >> 16),
		p->a6[14] = (uint8_t)(lo >> 8), p->a6[15] = (uint8_t)lo;
	return 0;
}

static int pat_random(struct otg_err *e, const char *path, const json_t *r,
		      const struct otg_pat_spec *s, struct otg_pat *p)
{
	static const char *const keys[] = {"min", "max", "seed", "count", NULL};
	uint64_t lo, hi, seed, count;

	if (!json_is_object(r))
		return otg_fail(e, path, "must be an object");
	if (otg_keys(e, path, r, keys) || pat_member(e, path, r, "min", s, 0, NULL, &lo, NULL) ||
	    pat_member(e, path, r, "max", s, pat_max(s), NULL, &hi, NULL) ||
	    otg_get_uint(e, path, r, "seed", 0, UINT32_MAX, 1, &seed) ||
	    otg_get_uint(e, path, r, "count", 0, UINT32_MAX, 1, &count))
		return -EINVAL;
	if (lo >= hi)
		return otg_fail(e, path, "min must be below max (two values or more)");
	p->value = lo;
	p->f = (struct prof_field){.lo = (uint32_t)lo, .hi = (uint32_t)hi, .mode = PROF_VAR_RAND};
	p->has_seed = json_object_get(r, "seed") != NULL;
	p->seed = (uint32_t)seed;
	return 0;
}

static int pat_checksum(struct otg_err *e, const char *path, const json_t *o, int choice,
			struct otg_pat *p)
{
	int bad;
	const json_t *g;
	uint64_t v;

	if (choice == OTG_CH_CUSTOM) {
		if (otg_get_uint(e, path, o, "custom", 0, 65535, 0, &v))
			return -EINVAL;
		p->bad_cksum = true;
		return 0;
	}
	g = otg_get(e, path, o, "generated", JSON_STRING, &bad);
	if (bad)
		return bad;
	if (g && strcmp(json_string_value(g), "good") && strcmp(json_string_value(g), "bad"))
		return otg_fail(e, path, "generated must be good or bad");
	p->bad_cksum = g && !strcmp(json_string_value(g), "bad");
	return 0;
}

static int pat_choice(struct otg_err *e, const char *path, const json_t *o,
		      const struct otg_pat_spec *s, uint64_t def, const uint8_t *def6,
		      struct otg_pat *p)
{
	char fp[PATH_MAX_LEN];
	const json_t *m = json_object_get(o, choice_names[p->choice]);

	otg_pathf(fp, sizeof(fp), "%s.%s", path, choice_names[p->choice]);
	switch (p->choice) {
	case OTG_CH_VALUE:
		if (pat_member(e, path, o, "value", s, def, def6, &p->value, p->a6))
			return -EINVAL;
		p->f.lo = p->f.hi = (uint32_t)p->value;
		return 0;
	case OTG_CH_VALUES:
		return pat_values(e, fp, m, s, p);
	case OTG_CH_INC:
	case OTG_CH_DEC:
		if (!m)
			return otg_fail(e, fp, "missing");
		return pat_counter(e, fp, m, s, p->choice == OTG_CH_INC, def, def6, p);
	case OTG_CH_RANDOM:
		if (!m)
			return otg_fail(e, fp, "missing");
		return pat_random(e, fp, m, s, p);
	case OTG_CH_GENERATED:
	case OTG_CH_CUSTOM:
		return pat_checksum(e, path, o, p->choice, p);
	default: /* auto: the model's default */
		p->value = def;
		p->f.lo = p->f.hi = (uint32_t)def;
		if (def6)
			memcpy(p->a6, def6, 16);
		return 0;
	}
}

int otg_pattern(struct otg_err *e, const char *path, const json_t *obj, const char *key,
		const struct otg_pat_spec *s, uint64_t def, const uint8_t *def6, struct otg_pat *p)
{
	char fp[PATH_MAX_LEN];
	int bad;
	const json_t *o = otg_get(e, path, obj, key, JSON_OBJECT, &bad);

	memset(p, 0, sizeof(*p));
	p->choice = s->def;
	p->value = def;
	p->f =
	    (struct prof_field){.lo = (uint32_t)def, .hi = (uint32_t)def, .mode = PROF_VAR_FIXED};
	if (def6)
		memcpy(p->a6, def6, 16);
	if (bad)
		return bad;
	if (!o)
		return 0;
	p->given = true;
	otg_pathf(fp, sizeof(fp), "%s.%s", path, key);
	if (otg_keys(e, fp, o, pat_keys) || otg_choice(e, fp, o, choice_names, s->def, &p->choice))
		return -EINVAL;
	if (!(s->choices & OTG_CH(p->choice)))
		return otg_fail(e, fp, "choice '%s' is not one the model has for this field",
				choice_names[p->choice]);
	if (json_array_size(json_object_get(o, "metric_tags")))
		return otg_fail(e, fp, "metric_tags: not supported");
	return pat_choice(e, fp, o, s, def, def6, p);
}
