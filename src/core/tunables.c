/*
 * tunables.c — the table-driven parser of `start -t KEY=VAL,...`
 * (tunables.h): one loop over comma-separated items, each looked up in the
 * engine's table of keys and stored at that key's offset. Pure; run by
 * control when it prepares a run, and by the unit tests.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tunables.h"

#define TUN_MAX_LEN 256

/* snprintf at buf + *n, *n counting what would have been written */
static void tun_cat(char *buf, size_t len, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void tun_cat(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(*n < len ? buf + *n : NULL, *n < len ? len - *n : 0, fmt, ap);
	va_end(ap);
	*n += (size_t)(k > 0 ? k : 0);
}

int tun_describe(const struct tun_table *t, char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < t->nkeys; i++) {
		const struct tun_key *k = &t->keys[i];

		tun_cat(buf, len, &n, "%s%s=", i ? ", " : "", k->name);
		if (k->type == TUN_BOOL)
			tun_cat(buf, len, &n, "0|1");
		else if (k->type == TUN_NUM)
			tun_cat(buf, len, &n, "%g..%g", k->min, k->max);
		else
			for (size_t w = 0; w < k->nwords; w++)
				tun_cat(buf, len, &n, "%s%s", w ? "|" : "", k->words[w].word);
	}
	return (int)n;
}

static const struct tun_key *tun_find(const struct tun_table *t, const char *name)
{
	for (size_t i = 0; i < t->nkeys; i++)
		if (strcmp(t->keys[i].name, name) == 0)
			return &t->keys[i];
	return NULL;
}

static int tun_unknown(const struct tun_table *t, const char *key, const char *val, char *err,
		       size_t errlen)
{
	char list[200];
	bool ranged = false;

	for (size_t i = 0; i < t->nkeys; i++)
		ranged |= t->keys[i].type == TUN_NUM;
	tun_describe(t, list, sizeof(list));
	snprintf(err, errlen, "-t %s=%s: unknown key or value%s (%s: %s)", key, val,
		 ranged ? " out of range" : "", t->engine, list);
	return -EINVAL;
}

/* One KEY=VAL of the table into dst. */
static int tun_item(const struct tun_table *t, const char *key, const char *val, void *dst,
		    char *err, size_t errlen)
{
	const struct tun_key *k = tun_find(t, key);
	char *at = (char *)dst, *end;
	double v;

	if (!k)
		return tun_unknown(t, key, val, err, errlen);
	if (k->type == TUN_WORD) {
		for (size_t w = 0; w < k->nwords; w++)
			if (strcmp(val, k->words[w].word) == 0) {
				*(int *)(at + k->off) = k->words[w].val;
				return 0;
			}
		return tun_unknown(t, key, val, err, errlen);
	}
	v = strtod(val, &end);
	if (end == val || *end || !isfinite(v) || v < 0) {
		snprintf(err, errlen, "-t %s: bad value '%s'", key, val);
		return -EINVAL;
	}
	if (k->type == TUN_NUM && (v < k->min || v > k->max))
		return tun_unknown(t, key, val, err, errlen);
	if (k->type == TUN_BOOL)
		*(bool *)(at + k->off) = v != 0;
	else
		*(double *)(at + k->off) = v;
	return 0;
}

int tun_parse(const struct tun_table *t, const char *s, void *dst, char *err, size_t errlen)
{
	char buf[TUN_MAX_LEN], *save = NULL;

	if (!s || !*s)
		return 0;
	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "-t: too long");
		return -EINVAL;
	}
	strcpy(buf, s);
	for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		int rc;

		if (!eq) {
			snprintf(err, errlen, "-t %s: KEY=VAL expected", kv);
			return -EINVAL;
		}
		*eq = 0;
		rc = tun_item(t, kv, eq + 1, dst, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}
