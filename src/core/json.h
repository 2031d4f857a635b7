/*
 * json.h — the one writer of flowgen's JSON (every --json: `stats`,
 * `bench`, `bench nat`, `capture status`; flowgen(8), STATISTICS). A
 * struct json tracks the nesting, so commas and quotes come out right;
 * strings are escaped (RFC 8259 §7: quote, backslash and control
 * characters; valid UTF-8 passes through, a byte that is not becomes
 * U+FFFD), and a number that is not finite is written as null (JSON has
 * no NaN or infinity, RFC 8259 §6). Every value is written with its key,
 * or with key NULL as a member of an array or the top-level value.
 *
 * Pure: writes only to the FILE * it is given; no globals, no EAL.
 *
 * Included by: every folder.
 */
#ifndef FG_JSON_H
#define FG_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

/* json_num's precision for "%g" in place of "%.Nf" */
#define JSON_G (-1)

struct json {
	FILE *f;
	int depth;			/* open objects and arrays */
	bool first[JSON_MAX_DEPTH + 1]; /* nothing written yet at that level */
	bool spaced;			/* ", " and ": " in place of "," and ":" */
};

/* A writer on f at the top level; spaced: the separators with a space. */
void json_init(struct json *j, FILE *f, bool spaced);

/* Open and close an object or an array (key: as in the values below). */
void json_obj(struct json *j, const char *key);
void json_obj_end(struct json *j);
void json_arr(struct json *j, const char *key);
void json_arr_end(struct json *j);

/* Values. */
void json_str(struct json *j, const char *key, const char *s); /* s NULL: null */
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
/* "%.*f" with prec digits (JSON_G: "%g"); not finite: null */
void json_num(struct json *j, const char *key, double v, int prec);

/* The quoted, escaped string s alone (no key, no separator). */
void json_quote(FILE *f, const char *s);

/* 0, or -EIO when the stream has an error. */
int json_error(const struct json *j);

#endif
