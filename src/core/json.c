/*
 * json.c — the JSON writer every --json goes through (json.h): separators
 * by nesting level, string escaping with a UTF-8 check, and numbers that
 * are never NaN or infinity; or the same calls building a jansson value
 * for the HTTP API. Pure: it writes to the FILE * or the tree it is given;
 * run by the console and control threads, and by the unit tests.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include <jansson.h>

#include "json.h"

void jw_init(struct jw *j, FILE *f, bool spaced)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->spaced = spaced;
	j->root = NULL;
	j->nomem = false;
}

void jw_init_value(struct jw *j)
{
	jw_init(j, NULL, false);
}

json_t *jw_take(struct jw *j)
{
	json_t *v = j->nomem ? NULL : j->root;

	if (j->nomem)
		json_decref(j->root);
	j->root = NULL;
	j->depth = 0;
	return v;
}

int jw_dump(FILE *f, const json_t *v, bool spaced)
{
	if (json_dumpf(v, f, JW_DUMP_FLAGS(spaced)) != 0 || fputc('\n', f) == EOF)
		return -EIO;
	return 0;
}

/*
 * Value sink: put v (a new reference) under key in the open container, or
 * make it the top-level value. Returns v, still valid while its container
 * lives, or NULL.
 */
static json_t *tree_put(struct jw *j, const char *key, json_t *v)
{
	json_t *in = j->depth > 0 ? j->tree[j->depth] : NULL;
	int rc;

	if (!v) {
		j->nomem = true;
		return NULL;
	}
	if (j->depth > 0 && !in) { /* inside a container that could not be made */
		json_decref(v);
		return NULL;
	}
	if (!in) {
		json_decref(j->root);
		j->root = v;
		return v;
	}
	if (json_is_object(in))
		rc = json_object_set_new(in, key ? key : "", v);
	else
		rc = json_array_append_new(in, v);
	if (rc != 0) {
		j->nomem = true;
		return NULL;
	}
	return v;
}

/* The length of the valid UTF-8 sequence at s (RFC 3629 §4), 0 if none. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n;
	unsigned lo = 0x80, hi = 0xbf;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0; /* no overlong forms */
		else if (c == 0xed)
			hi = 0x9f; /* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f; /* nothing above U+10FFFF */
	} else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

void jw_quote(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		unsigned c = *p;
		size_t n;

		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc((int)c, f);
			p++;
		} else if (c < 0x20) {
			fprintf(f, "\\u%04x", c);
			p++;
		} else if (c < 0x80) {
			fputc((int)c, f);
			p++;
		} else if ((n = utf8_len(p)) != 0) {
			fwrite(p, 1, n, f);
			p += n;
		} else {
			fputs("\\ufffd", f); /* not UTF-8: the replacement character */
			p++;
		}
	}
	fputc('"', f);
}

/* The separator before a value at the current level, and its key. */
static void jw_key(struct jw *j, const char *key)
{
	if (!j->first[j->depth])
		fputs(j->spaced ? ", " : ",", j->f);
	j->first[j->depth] = false;
	if (key) {
		jw_quote(j->f, key);
		fputs(j->spaced ? ": " : ":", j->f);
	}
}

static void jw_open(struct jw *j, const char *key, char c)
{
	if (!j->f) {
		json_t *v = tree_put(j, key, c == '{' ? json_object() : json_array());

		if (j->depth < JW_MAX_DEPTH)
			j->depth++;
		/* NULL, a container that could not be made: what goes in it is dropped */
		j->tree[j->depth] = v;
		return;
	}
	jw_key(j, key);
	fputc(c, j->f);
	if (j->depth < JW_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void jw_close(struct jw *j, char c)
{
	if (j->f)
		fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

void jw_obj(struct jw *j, const char *key) { jw_open(j, key, '{'); }
void jw_obj_end(struct jw *j) { jw_close(j, '}'); }
void jw_arr(struct jw *j, const char *key) { jw_open(j, key, '['); }
void jw_arr_end(struct jw *j) { jw_close(j, ']'); }

/* The value sink's form of one value (j->f is NULL). */
static void tree_val(struct jw *j, const char *key, json_t *v)
{
	tree_put(j, key, v);
}

void jw_str(struct jw *j, const char *key, const char *s)
{
	if (!j->f) {
		/* jansson takes UTF-8 only: what is not becomes U+FFFD, as in the text */
		json_t *v = s ? json_string(s) : json_null();

		if (s && !v) {
			char *fixed = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&fixed, &len);

			if (m) {
				jw_quote(m, s);
				fclose(m);
				v = json_loadb(fixed, len, JSON_DECODE_ANY, NULL);
				free(fixed);
			}
		}
		tree_val(j, key, v);
		return;
	}
	jw_key(j, key);
	if (s)
		jw_quote(j->f, s);
	else
		fputs("null", j->f);
}

void jw_bool(struct jw *j, const char *key, bool v)
{
	if (!j->f) {
		tree_val(j, key, json_boolean(v));
		return;
	}
	jw_key(j, key);
	fputs(v ? "true" : "false", j->f);
}

void jw_null(struct jw *j, const char *key)
{
	if (!j->f) {
		tree_val(j, key, json_null());
		return;
	}
	jw_key(j, key);
	fputs("null", j->f);
}

void jw_u64(struct jw *j, const char *key, uint64_t v)
{
	if (!j->f) {
		tree_val(j, key, v <= INT64_MAX ? json_integer((json_int_t)v) : json_real((double)v));
		return;
	}
	jw_key(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void jw_i64(struct jw *j, const char *key, int64_t v)
{
	if (!j->f) {
		tree_val(j, key, json_integer((json_int_t)v));
		return;
	}
	jw_key(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void jw_num(struct jw *j, const char *key, double v, int prec)
{
	if (!j->f) {
		char t[64];

		if (!isfinite(v)) {
			tree_val(j, key, json_null());
			return;
		}
		/* the number the text sink would print, read back */
		if (prec < 0)
			snprintf(t, sizeof(t), "%g", v);
		else
			snprintf(t, sizeof(t), "%.*f", prec, v);
		tree_val(j, key, json_real(strtod(t, NULL)));
		return;
	}
	jw_key(j, key);
	if (!isfinite(v))
		fputs("null", j->f);
	else if (prec < 0)
		fprintf(j->f, "%g", v);
	else
		fprintf(j->f, "%.*f", prec, v);
}

int jw_error(const struct jw *j)
{
	if (!j->f)
		return j->nomem ? -ENOMEM : 0;
	return ferror(j->f) ? -EIO : 0;
}
