/*
 * test_readf.c — the one whole-file reader (src/config/readf.h): a file
 * up to its limit and one byte over it, an empty file, a directory, a
 * FIFO refused with READF_REGULAR, a missing file, and the NUL after the
 * bytes read.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "readf.h"

static char dir[64];

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void put(const char *name, const char *text)
{
	char p[128];
	FILE *f;

	path_of(p, sizeof(p), name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_sizes(void **state)
{
	char p[128], *buf;
	size_t len;

	(void)state;
	put("five", "hello");
	path_of(p, sizeof(p), "five");
	assert_int_equal(readf(p, 5, 0, &buf, &len), 0);
	assert_int_equal(len, 5);
	assert_string_equal(buf, "hello"); /* NUL after the bytes */
	free(buf);
	assert_int_equal(readf(p, 4, 0, &buf, &len), -EFBIG);
	assert_null(buf);
	assert_int_equal(len, 0);

	put("empty", "");
	path_of(p, sizeof(p), "empty");
	assert_int_equal(readf(p, 5, READF_REGULAR, &buf, &len), 0);
	assert_int_equal(len, 0);
	assert_string_equal(buf, "");
	free(buf);
}

static void test_not_files(void **state)
{
	char p[128], *buf;
	size_t len;

	(void)state;
	assert_int_equal(readf(dir, 100, 0, &buf, &len), -EISDIR);
	assert_int_equal(readf(dir, 100, READF_REGULAR, &buf, &len), -EINVAL);
	path_of(p, sizeof(p), "fifo");
	assert_int_equal(mkfifo(p, 0600), 0);
	/* opened without blocking, refused before any read */
	assert_int_equal(readf(p, 100, READF_REGULAR, &buf, &len), -EINVAL);
	unlink(p);
	path_of(p, sizeof(p), "missing");
	assert_int_equal(readf(p, 100, 0, &buf, &len), -ENOENT);
	assert_null(buf);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_readf.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char p[128];

	(void)state;
	path_of(p, sizeof(p), "five");
	unlink(p);
	path_of(p, sizeof(p), "empty");
	unlink(p);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_not_files),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
