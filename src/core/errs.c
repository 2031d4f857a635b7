/*
 * errs.c — the struct fg_error helpers of errs.h: set one from a format
 * and a hint, clear one, and show one as the single line the console
 * prints and the API replies with ("MESSAGE (HINT)").
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errs.h"

int fg_error_set(struct fg_error *e, int code, const char *hint, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
	snprintf(e->hint, sizeof(e->hint), "%s", hint ? hint : "");
	return -1;
}

void fg_error_clear(struct fg_error *e)
{
	if (e)
		memset(e, 0, sizeof(*e));
}

const char *fg_error_text(const struct fg_error *e, char *buf, size_t len)
{
	if (!len)
		return buf;
	if (e->hint[0])
		snprintf(buf, len, "%s (%s)", e->message, e->hint);
	else
		snprintf(buf, len, "%s", e->message);
	return buf;
}
