/*
 * json.c — the JSON writer every --json goes through (json.h): separators
 * by nesting level, string escaping with a UTF-8 check, and numbers that
 * are never NaN or infinity. Pure: it writes to the FILE * it is given;
 * run by the console and control threads, and by the unit tests.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>

#include "json.h"

void json_init(struct json *j, FILE *f, bool spaced)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->spaced = spaced;
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

void json_quote(FILE *f, const char *s)
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
static void json_key(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		fputs(j->spaced ? ", " : ",", j->f);
	j->first[j->depth] = false;
	if (key) {
		json_quote(j->f, key);
		fputs(j->spaced ? ": " : ":", j->f);
	}
}

static void json_open(struct json *j, const char *key, char c)
{
	json_key(j, key);
	fputc(c, j->f);
	if (j->depth < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void json_close(struct json *j, char c)
{
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

void json_obj(struct json *j, const char *key) { json_open(j, key, '{'); }
void json_obj_end(struct json *j) { json_close(j, '}'); }
void json_arr(struct json *j, const char *key) { json_open(j, key, '['); }
void json_arr_end(struct json *j) { json_close(j, ']'); }

void json_str(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	if (s)
		json_quote(j->f, s);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	json_key(j, key);
	fputs("null", j->f);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void json_num(struct json *j, const char *key, double v, int prec)
{
	json_key(j, key);
	if (!isfinite(v))
		fputs("null", j->f);
	else if (prec < 0)
		fprintf(j->f, "%g", v);
	else
		fprintf(j->f, "%.*f", prec, v);
}

int json_error(const struct json *j)
{
	return ferror(j->f) ? -EIO : 0;
}
