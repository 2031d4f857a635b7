/*
 * readf.h — the whole of a file in memory, bounded: the one reader behind
 * the platform config and profiles (yamlu_load), a program's payload file
 * (prof_prog.c), the API's certificate, key and token files and the `otg`
 * command's request body.
 *
 * Context: control (file I/O; no globals).
 *
 * Included by: config, api.
 */
#ifndef FG_READF_H
#define FG_READF_H

#include <stddef.h>

enum readf_flag {
	READF_REGULAR = 1u << 0, /* a regular file only: a FIFO or a device would block or never end */
};

/*
 * The file at path, at most max bytes: *buf malloc'd (free it), a NUL
 * after its *len bytes (an empty file is 0 bytes, not an error). Opened
 * without blocking. 0, or a negative errno: open(2)'s or read(2)'s,
 * -EISDIR for a directory, -EINVAL for what is not a regular file with
 * READF_REGULAR (a directory included), -EFBIG when it holds more than
 * max bytes, -ENOMEM.
 */
int readf(const char *path, size_t max, unsigned flags, char **buf, size_t *len);

#endif
