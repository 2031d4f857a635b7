/*
 * boot.c — keeping DPDK's start-up log (boot.h): from boot_log_open on,
 * what DPDK logs goes to standard error as before and its last few
 * kilobytes are kept, so that when rte_eal_init or a port's set-up fails
 * main() can hand the tail to boot_diagnose (src/core/boot_plan.c) and
 * print DPDK's reason with a remedy, never a bare error code (DPDK often
 * leaves rte_errno at 0 and flowgen would print "Success").
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <rte_log.h>

#include "boot.h"
#include "fg.h"

/* ---- keeping DPDK's log ---- */

#define BOOT_TAIL 4096

static struct {
	FILE *f;
	char tail[BOOT_TAIL + 1];
	size_t n;
} blog;

/* fopencookie's write: standard error as before, and the tail kept. */
static ssize_t blog_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	fwrite(buf, 1, size, stderr);
	fflush(stderr);
	if (size >= BOOT_TAIL) {
		memcpy(blog.tail, buf + size - BOOT_TAIL, BOOT_TAIL);
		blog.n = BOOT_TAIL;
	} else {
		if (blog.n + size > BOOT_TAIL) {
			size_t drop = blog.n + size - BOOT_TAIL;

			memmove(blog.tail, blog.tail + drop, blog.n - drop);
			blog.n -= drop;
		}
		memcpy(blog.tail + blog.n, buf, size);
		blog.n += size;
	}
	blog.tail[blog.n] = '\0';
	return (ssize_t)size;
}

void boot_log_open(void)
{
	cookie_io_functions_t io = {.write = blog_write};

	blog.n = 0;
	blog.tail[0] = '\0';
	blog.f = fopencookie(NULL, "w", io);
	if (!blog.f)
		return;
	setvbuf(blog.f, NULL, _IOLBF, 0);
	rte_openlog_stream(blog.f);
}

const char *boot_log_tail(void)
{
	if (blog.f)
		fflush(blog.f);
	return blog.tail;
}

void boot_log_close(void)
{
	if (!blog.f)
		return;
	rte_openlog_stream(NULL);
	fclose(blog.f);
	blog.f = NULL;
	blog.n = 0;
	blog.tail[0] = '\0';
}
