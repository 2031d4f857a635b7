/*
 * log.c — user-facing messages from control and the console. While the ncurses
 * dashboard owns the terminal, messages are appended to a buffer instead
 * and printed when the dashboard returns, so nothing garbles the screen.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fg.h"
#include "log.h"

static bool held;
static char heldbuf[8192];
static size_t heldlen;

__attribute__((format(printf, 3, 0))) static void vlog(FILE *f, const char *prefix, const char *fmt,
						       va_list ap)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "%s", prefix);

	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
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
	vlog(stdout, "", fmt, ap);
	va_end(ap);
}

void fg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(stderr, "warning: ", fmt, ap);
	va_end(ap);
}

void fg_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(stderr, "error: ", fmt, ap);
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
