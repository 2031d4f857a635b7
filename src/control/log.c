/*
 * log.c — user-facing messages from control and the console. While the ncurses
 * dashboard owns the terminal, messages are appended to a buffer instead
 * and printed when the dashboard returns, so nothing garbles the screen.
 * While a command runs, its thread's messages go to the command's sink
 * first (log.h), so that each front end gets them as values.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fg.h"
#include "log.h"

/* the newest sink of this thread (fg_log_push) */
static __thread struct fg_log_sink *sink;

static bool held;
static char heldbuf[8192];
static size_t heldlen;

__attribute__((format(printf, 4, 0))) static void vlog(FILE *f, enum fg_log_level level,
						       const char *prefix, const char *fmt,
						       va_list ap)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "%s", prefix);

	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	if (sink && sink->fn(sink->arg, level, line + n))
		return;
	if (held) {
		size_t l = strlen(line);

		if (heldlen + l + 2 < sizeof(heldbuf)) {
			memcpy(heldbuf + heldlen, line, l);
			heldlen += l;
			heldbuf[heldlen++] = '\n';
			heldbuf[heldlen] = '\0';
		}
		return;
	}
	fprintf(f, "%s\n", line);
	fflush(f);
}

void fg_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(stdout, FG_LOG_INFO, "", fmt, ap);
	va_end(ap);
}

void fg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(stderr, FG_LOG_WARN, "warning: ", fmt, ap);
	va_end(ap);
}

void fg_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(stderr, FG_LOG_ERR, "error: ", fmt, ap);
	va_end(ap);
}

void fg_log_hold(bool hold)
{
	held = hold;
	if (!hold && heldlen) {
		fputs(heldbuf, stderr);
		heldlen = 0;
		heldbuf[0] = '\0';
	}
}

void fg_log_push(struct fg_log_sink *s)
{
	s->prev = sink;
	sink = s;
}

void fg_log_pop(struct fg_log_sink *s)
{
	if (sink == s)
		sink = s->prev;
}
