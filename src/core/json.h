/*
 * json.h — the one writer of flowgen's JSON (every --json: `stats`,
 * `bench`, `bench nat`, `capture status`; flowgen(8), STATISTICS). A
 * struct jw tracks the nesting, so commas and quotes come out right;
 * strings are escaped (RFC 8259 §7: quote, backslash and control
 * characters; valid UTF-8 passes through, a byte that is not becomes
 * U+FFFD), and a number that is not finite is written as null (JSON has
 * no NaN or infinity, RFC 8259 §6). Every value is written with its key,
 * or with key NULL as a member of an array or the top-level value.
 *
 * The value sink stores a number of N decimals rounded to them (the text's
 * "%.Nf" read back), so that jw_dump prints what the text sink prints,
 * less trailing zeros (12.50 -> 12.5).
 *
 * Pure: writes only to the FILE * or the tree it is given; no globals, no EAL.
 *
 * Included by: every folder.
 */
#ifndef FG_JSON_H
#define FG_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 16

/* jw_num's precision for "%g" in place of "%.Nf" */
#define JW_G (-1)

struct json_t; /* jansson's */

struct jw {
	FILE *f;			/* the text sink, or NULL for the value sink */
	int depth;			/* open objects and arrays */
	bool first[JW_MAX_DEPTH + 1]; /* nothing written yet at that level */
	bool spaced;			/* ", " and ": " in place of "," and ":" */
	struct json_t *tree[JW_MAX_DEPTH + 1]; /* value sink: the open containers */
	struct json_t *root;		/* value sink: the top-level value */
	bool nomem;			/* value sink: an allocation failed */
};

/* A writer on f at the top level; spaced: the separators with a space. */
void jw_init(struct jw *j, FILE *f, bool spaced);

/* A writer that builds a value (take it with jw_take). */
void jw_init_value(struct jw *j);

/*
 * The value built (a new reference the caller owns), or NULL when nothing
 * was written or memory ran out; the writer keeps nothing.
 */
struct json_t *jw_take(struct jw *j);

/* Print value v on f as the text sink would (spaced or not), then a newline. 0 or -EIO. */
int jw_dump(FILE *f, const struct json_t *v, bool spaced);

/* jansson's dump flags that jw_dump and the API use: reals to 15 digits. */
#define JW_DUMP_FLAGS(spaced) ((spaced) ? JSON_REAL_PRECISION(15) : JSON_COMPACT | JSON_REAL_PRECISION(15))

/* Open and close an object or an array (key: as in the values below). */
void jw_obj(struct jw *j, const char *key);
void jw_obj_end(struct jw *j);
void jw_arr(struct jw *j, const char *key);
void jw_arr_end(struct jw *j);

/* Values. */
void jw_str(struct jw *j, const char *key, const char *s); /* s NULL: null */
void jw_bool(struct jw *j, const char *key, bool v);
void jw_null(struct jw *j, const char *key);
void jw_u64(struct jw *j, const char *key, uint64_t v);
void jw_i64(struct jw *j, const char *key, int64_t v);
/* "%.*f" with prec digits (JW_G: "%g"); not finite: null */
void jw_num(struct jw *j, const char *key, double v, int prec);

/* The quoted, escaped string s alone (no key, no separator). */
void jw_quote(FILE *f, const char *s);

/* 0, or -EIO when the stream has an error (value sink: -ENOMEM when memory ran out). */
int jw_error(const struct jw *j);

#endif
