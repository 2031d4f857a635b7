/*
 * readf.c — one bounded whole-file reader (readf.h): open without
 * blocking, refuse a directory (or, when asked, whatever is not a regular
 * file), read at most the caller's limit
 * plus the one byte that shows the file is larger, and end the text with
 * a NUL so that parsers may treat it as a string.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "readf.h"

int readf(const char *path, size_t max, unsigned flags, char **buf, size_t *len)
{
	struct stat st;
	size_t got = 0;
	char *b;
	int fd, rc = 0;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		goto err_close;
	}
	if ((flags & READF_REGULAR) && !S_ISREG(st.st_mode)) {
		rc = -EINVAL;
		goto err_close;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = -EISDIR;
		goto err_close;
	}
	/* opened without blocking (a FIFO without a writer); read as a pipe is
	 * read, waiting for what its writer sends */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		rc = -errno;
		goto err_close;
	}
	b = malloc(max + 2);
	if (!b) {
		rc = -ENOMEM;
		goto err_close;
	}
	/* max + 1 bytes at most: one more than allowed says it is too large */
	while (got <= max) {
		ssize_t n = read(fd, b + got, max + 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			goto err_free;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got > max) {
		rc = -EFBIG;
		goto err_free;
	}
	close(fd);
	b[got] = '\0';
	*buf = b;
	*len = got;
	return 0;

err_free:
	free(b);
err_close:
	close(fd);
	return rc;
}
