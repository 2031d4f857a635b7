/*
 * record.h — the recorder of `--record FILE` and `record start|stop|status`
 * (flowgen(8), FILES): the run's figures in a file as they go, so that
 * none are lost when flowgen is killed. Each line is one JSON object (the
 * format and its reading back: src/core/record_fmt.h), written with one
 * write(2) on a descriptor opened with O_APPEND: once write(2) has
 * returned, the line is the kernel's, and a kill -9 of flowgen loses at
 * most the line being made. Lines come every interval, once when a run
 * ends (its end figures, "final"), and when the recording ends (record
 * stop, or flowgen's exit after its traffic has stopped). A run's end
 * line and the last line are followed by fdatasync(2), against power
 * loss; the lines between are left to the kernel's write-back.
 *
 * Context: control. A thread of its own (fg-rec, a control thread, while
 * a recording runs) takes the figures every interval and at a run's end
 * and writes every line; the console's thread makes the lines of a start,
 * a stop and of the end of a run it replaces (record_run_ends), in memory,
 * and hands them over: no thread but the recorder's waits on the disk.
 * A write that fails (disk full, EIO) is said once on standard error and
 * in `record status`, and ends the recording; traffic goes on.
 *
 * Included by: control, cmd and main.c.
 */
#ifndef FG_RECORD_H
#define FG_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fg.h"

#define RECORD_INTERVAL_DEFAULT 1.0 /* seconds */
#define RECORD_INTERVAL_MIN 0.1	    /* the sampler's period (stats.h) */
#define RECORD_INTERVAL_MAX 3600.0

struct record_status {
	bool active; /* a recording was started and not stopped */
	bool failed; /* it ended on an error, which `error` says */
	char path[1024];
	double interval_s;
	uint64_t lines, bytes; /* written to the file */
	double secs;	       /* since it began */
	char error[FG_ERRLEN];
};

/*
 * control: open path for a record: created (mode 0666 less the umask) or
 * appended to, a regular file or a device (not a FIFO or a socket); a
 * partial last line left by a kill is ended with a newline first. The
 * descriptor, or -errno with err set ("PATH: why").
 */
int record_open(const char *path, char *err, size_t errlen);

/*
 * control: record on fd (record_open's; taken over, closed on failure)
 * every interval_s seconds: the first line (seq 0) now, then the thread.
 * 0, or -EBUSY (a recording runs), -EINVAL (interval), -errno; err says why.
 */
int record_start_fd(int fd, const char *path, double interval_s, char *err, size_t errlen);
/* control: record_open, then record_start_fd. */
int record_start(const char *path, double interval_s, char *err, size_t errlen);

/*
 * control: end the recording: its last line ("stop"; final when no
 * traffic runs), written and synced before this returns. *st (may be
 * NULL): what it wrote. 0, or -ENOENT when none was started.
 */
int record_stop(struct record_status *st);

/* control: what the recording is doing (active false: none). */
void record_status(struct record_status *st);

/*
 * control (the console's thread, run.c): a run's figures are about to
 * go (its states freed, the next start's clear): if it ended and its end
 * line is not made yet, it is made now. The workers must be idle.
 */
void record_run_ends(void);

/* control: at exit, once the traffic has stopped (and before the run's
 * states are freed): the end line if due, the last line ("exit"), synced. */
void record_fini(void);

#endif
