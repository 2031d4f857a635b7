/*
 * errval.h — filling and naming the error value of include/fg.h (struct
 * fg_error): what a command or control refused or failed, why, what to do
 * and the argument at fault, as data that each front end renders
 * (flowgen(8), API: the reply's "error" object).
 *
 * Pure.
 *
 * Included by: every folder.
 */
#ifndef FG_ERRVAL_H
#define FG_ERRVAL_H

#include <stdarg.h>
#include <stddef.h>

#include "fg.h"

/*
 * Set e (when not NULL) to code, the message made from fmt, the argument
 * path (NULL: none) and the hint (NULL: none). Returns -1, so that a
 * caller can `return fg_error_set(...)`.
 */
int fg_error_set(struct fg_error *e, enum fg_errcode code, const char *path, const char *hint,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* fg_error_set with the message's arguments as a va_list. */
int fg_error_vset(struct fg_error *e, enum fg_errcode code, const char *path, const char *hint,
		  const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

/* Clear e to FG_E_NONE and empty strings. */
void fg_error_clear(struct fg_error *e);

/*
 * pure: e shown as the one line the console prints after "error: " and
 * the OTG model replies with: "MESSAGE (HINT)", or "MESSAGE" without a
 * hint (or when the message says the hint already). Returns buf.
 */
const char *fg_error_text(const struct fg_error *e, char *buf, size_t len);

/* buf's size for fg_error_text */
#define FG_ERRTEXT_LEN (FG_ERRLEN + 256 + 4)

/* "usage", "unknown_command", "refused", "failed", "internal" ("none" for FG_E_NONE). */
const char *fg_errcode_name(enum fg_errcode code);

#endif
