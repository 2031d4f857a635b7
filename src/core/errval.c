/*
 * errval.c — the error value's helpers (errval.h): one place that fills a
 * struct fg_error and one table of the codes' names, which the API answers
 * and the man page lists.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errval.h"

static const char *const code_names[] = {
	[FG_E_NONE] = "none",	  [FG_E_USAGE] = "usage",   [FG_E_UNKNOWN] = "unknown_command",
	[FG_E_REFUSED] = "refused", [FG_E_FAILED] = "failed", [FG_E_INTERNAL] = "internal",
};

int fg_error_vset(struct fg_error *e, enum fg_errcode code, const char *path, const char *hint,
		  const char *fmt, va_list ap)
{
	if (!e)
		return -1;
	e->code = code;
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	snprintf(e->hint, sizeof(e->hint), "%s", hint ? hint : "");
	snprintf(e->path, sizeof(e->path), "%s", path ? path : "");
	return -1;
}

int fg_error_set(struct fg_error *e, enum fg_errcode code, const char *path, const char *hint,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fg_error_vset(e, code, path, hint, fmt, ap);
	va_end(ap);
	return -1;
}

void fg_error_clear(struct fg_error *e)
{
	e->code = FG_E_NONE;
	e->message[0] = e->hint[0] = e->path[0] = '\0';
}

const char *fg_error_text(const struct fg_error *e, char *buf, size_t len)
{
	if (!len)
		return buf;
	if (e->hint[0] && !strstr(e->message, e->hint))
		snprintf(buf, len, "%s (%s)", e->message, e->hint);
	else
		snprintf(buf, len, "%s", e->message);
	return buf;
}

const char *fg_errcode_name(enum fg_errcode code)
{
	if ((unsigned)code < sizeof(code_names) / sizeof(code_names[0]) && code_names[code])
		return code_names[code];
	return "internal";
}
