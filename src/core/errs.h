/*
 * errs.h — filling in and showing a struct fg_error (include/fg.h): the
 * error value control gives back instead of printing, which the console
 * prints and the HTTP API and OTG model reply with, in the same words.
 *
 * Context: pure (formatting only).
 *
 * Included by: every folder.
 */
#ifndef FG_ERRS_H
#define FG_ERRS_H

#include <stddef.h>

#include "fg.h"

/*
 * pure: e (may be NULL: nothing happens) set to code, the message fmt and
 * the hint (NULL: none); path is left as it was. Returns -1.
 */
int fg_error_set(struct fg_error *e, int code, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* pure: e back to no error. */
void fg_error_clear(struct fg_error *e);
/* pure: "MESSAGE (HINT)", or "MESSAGE" without a hint, into buf; buf. */
const char *fg_error_text(const struct fg_error *e, char *buf, size_t len);

#endif
