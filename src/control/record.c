/*
 * record.c — the recorder (record.h, flowgen(8) FILES): one descriptor
 * opened with O_APPEND, a queue of lines made in memory, and a control
 * thread (fg-rec) that wakes every 100 ms to see whether the run has
 * ended (ctl_run_id and ctl_busy: the run that started last, and whether
 * a worker still has traffic), makes a line when the interval has come
 * round or a run has ended, and writes each line with one write(2).
 *
 * A line is the header of record_fmt.h and the object `stats --json`
 * prints (stats_get, then stats_json_at through the JSON writer's text
 * sink on a memory stream): one object, compact, one line. The lines are
 * made under rec.mu, in the order of their seq, by the recorder's thread
 * or by the console's (start, stop, and the end of a run that a new start
 * or the exit replaces: record_run_ends); only the recorder's thread
 * writes, outside the lock, so the console's thread never waits on the
 * disk. Each run gets one end line: rec.end_rid is the last run whose end
 * line was made (or that had ended before the recording began).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_lcore.h>

#include "ctl.h"
#include "json.h"
#include "log.h"
#include "record.h"
#include "record_fmt.h"
#include "stats.h"

#define REC_POLL_S 0.1 /* how soon a run's end is seen */

struct rec_line {
	struct rec_line *next;
	char *buf;
	size_t len;
	bool final; /* synced once written */
};

static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* on CLOCK_MONOTONIC: the thread's wake-up */
	pthread_once_t once;
	bool active;   /* started, not yet stopped (the thread may have ended on an error) */
	bool stopping; /* the last line is queued: write it and end */
	bool failed;
	pthread_t thr;
	int fd;
	char path[1024];
	double interval;
	double t0, next; /* monotonic seconds: the start, the next interval line */
	double t_end;	 /* monotonic seconds: when it ended (stopped, or failed) */
	uint64_t seq;
	uint64_t end_rid; /* the last run whose end line is made (or ended before) */
	struct rec_line *head, **tail;
	uint64_t lines, bytes;
	char error[FG_ERRLEN];
	struct stats_snap *snap; /* the figures of the line being made */
} rec = {
    .mu = PTHREAD_MUTEX_INITIALIZER,
    .once = PTHREAD_ONCE_INIT,
    .fd = -1,
};

static const char *const state_names[CTR_STATE_COUNT] = {
    [CTR_IDLE] = "idle",
    [CTR_RUNNING] = "running",
    [CTR_PAUSED] = "paused",
    [CTR_DRAINING] = "draining",
};

static void rec_init(void)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&rec.cv, &a);
	pthread_condattr_destroy(&a);
	rec.tail = &rec.head;
}

static double now_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The recording ends on an error (rec.mu held): what failed, and why. */
static void failed(const char *what, int rc)
{
	rec.failed = true;
	snprintf(rec.error, sizeof(rec.error), "%s: %s", what, strerror(-rc));
}

/* ---- making lines (rec.mu held) ---------------------------------------------- */

/*
 * The line of why: the figures now, with the header. final: a run's end
 * line, and the recording's last when no traffic runs. 0, or -ENOMEM.
 */
static int line_make(enum record_reason why)
{
	struct record_head h = {.seq = rec.seq, .reason = why};
	struct rec_line *l = calloc(1, sizeof(*l));
	int state = ctl_state();
	struct jw j;
	FILE *f;

	if (!l)
		return -ENOMEM;
	h.run_id = ctl_run_id();
	h.state = state >= 0 && state < CTR_STATE_COUNT ? state_names[state] : NULL;
	h.final =
	    why == RECORD_END || ((why == RECORD_STOP || why == RECORD_EXIT) && state == CTR_IDLE);
	h.t = now_s(CLOCK_REALTIME);
	stats_get(rec.snap);
	f = open_memstream(&l->buf, &l->len);
	if (!f) {
		free(l);
		return -ENOMEM;
	}
	jw_init(&j, f, false);
	jw_obj(&j, NULL);
	record_head_json(&j, &h);
	stats_json_at(&j, "stats", rec.snap, 0);
	jw_obj_end(&j);
	fputc('\n', f);
	if (fclose(f) != 0 || !l->buf) {
		free(l->buf);
		free(l);
		return -ENOMEM;
	}
	l->final = h.final;
	*rec.tail = l;
	rec.tail = &l->next;
	rec.seq++;
	return 0;
}

/* The line of why; out of memory fails the recording (said by the thread). */
static void make(enum record_reason why)
{
	if (!rec.failed && line_make(why) != 0)
		failed("making a line", -ENOMEM);
}

/* The end line of the run that started last, when it has ended and has none. */
static void end_check(void)
{
	uint64_t rid = ctl_run_id(); /* before the workers' state: see ctl.h */

	if (rid && rid != rec.end_rid && !ctl_busy()) {
		rec.end_rid = rid;
		make(RECORD_END);
	}
}

/* The recorder's look every REC_POLL_S: a run's end, the interval. */
static void poll_lines(void)
{
	double now = now_s(CLOCK_MONOTONIC);

	end_check();
	if (now >= rec.next) {
		make(RECORD_INTERVAL);
		rec.next += rec.interval;
		if (rec.next <= now) /* the thread was held up: no burst of lines */
			rec.next = now + rec.interval;
	}
}

static void free_lines(struct rec_line *l)
{
	while (l) {
		struct rec_line *n = l->next;

		free(l->buf);
		free(l);
		l = n;
	}
}

/* ---- the thread --------------------------------------------------------------- */

/* fdatasync(2); a file that cannot be synced (a device) is no error. */
static int sync_fd(int fd)
{
	if (fdatasync(fd) == 0 || errno == EINVAL || errno == EROFS || errno == ENOTSUP)
		return 0;
	return -errno;
}

/*
 * Write lines l (freed here), each with one write(2), a final one synced.
 * 0, or -errno (a short write is -ENOSPC) with *what the call that
 * failed; *lines and *bytes: written.
 */
static int write_lines(int fd, struct rec_line *l, uint64_t *lines, uint64_t *bytes,
		       const char **what)
{
	struct rec_line *first = l;
	int rc = 0;

	for (; l && !rc; l = l->next) {
		ssize_t n;

		do
			n = write(fd, l->buf, l->len);
		while (n < 0 && errno == EINTR);
		*what = "write";
		if (n < 0)
			rc = -errno;
		else if ((size_t)n != l->len)
			rc = -ENOSPC;
		else {
			++*lines;
			*bytes += (uint64_t)n;
			*what = "fdatasync";
			if (l->final)
				rc = sync_fd(fd);
		}
	}
	free_lines(first);
	return rc;
}

/* Wait (rec.mu held) until the next interval line or REC_POLL_S, or a signal. */
static void wait_poll(void)
{
	double now = now_s(CLOCK_MONOTONIC),
	       until = rec.next < now + REC_POLL_S ? rec.next : now + REC_POLL_S;
	struct timespec ts = {.tv_sec = (time_t)until,
			      .tv_nsec = (long)((until - (double)(time_t)until) * 1e9)};

	if (until > now)
		pthread_cond_timedwait(&rec.cv, &rec.mu, &ts);
}

static void *rec_main(void *arg)
{
	const char *what = "write";
	int rc = 0, fd;
	bool bad;

	(void)arg;
	pthread_mutex_lock(&rec.mu);
	for (;;) {
		struct rec_line *q;
		uint64_t lines = 0, bytes = 0;

		if (!rec.stopping && !rec.failed)
			poll_lines();
		if (rec.failed)
			break;
		if (!rec.head) {
			if (rec.stopping)
				break;
			wait_poll();
			continue;
		}
		q = rec.head;
		rec.head = NULL;
		rec.tail = &rec.head;
		pthread_mutex_unlock(&rec.mu);
		rc = write_lines(rec.fd, q, &lines, &bytes, &what);
		pthread_mutex_lock(&rec.mu);
		rec.lines += lines;
		rec.bytes += bytes;
		if (rc) {
			failed(what, rc);
			break;
		}
	}
	free_lines(rec.head);
	rec.head = NULL;
	rec.tail = &rec.head;
	fd = rec.fd;
	bad = rec.failed;
	pthread_mutex_unlock(&rec.mu);
	/* the last line is on the disk before record_stop returns */
	rc = bad ? 0 : sync_fd(fd);
	close(fd);
	pthread_mutex_lock(&rec.mu);
	if (rc)
		failed("fdatasync", rc);
	rec.fd = -1;
	rec.t_end = now_s(CLOCK_MONOTONIC);
	bad = rec.failed;
	pthread_mutex_unlock(&rec.mu);
	/* said once, here, whatever the thread that meets it: traffic goes on */
	if (bad)
		fg_err("record: %s: %s; recording stopped (traffic goes on)", rec.path, rec.error);
	return NULL;
}

/* ---- the console's side ------------------------------------------------------------ */

int record_open(const char *path, char *err, size_t errlen)
{
	struct stat sb;
	char last;
	int fd =
	    open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0666);

	if (fd < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, &sb) != 0 || S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)) {
		close(fd);
		snprintf(err, errlen,
			 "%s: not a file a record can be written to (a FIFO or a socket)", path);
		return -EINVAL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	/* a line cut off by a kill stays a line of its own, which readers skip */
	if (S_ISREG(sb.st_mode) && sb.st_size > 0 && pread(fd, &last, 1, sb.st_size - 1) == 1 &&
	    last != '\n' && write(fd, "\n", 1) != 1) {
		int e = errno;

		close(fd);
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	return fd;
}

/* Join a thread that ended on an error and forget its recording (rec.mu not held). */
static void reap_failed(void)
{
	pthread_mutex_lock(&rec.mu);
	if (!rec.active || !rec.failed) {
		pthread_mutex_unlock(&rec.mu);
		return;
	}
	rec.stopping = true;
	pthread_cond_signal(&rec.cv);
	pthread_mutex_unlock(&rec.mu);
	pthread_join(rec.thr, NULL);
	pthread_mutex_lock(&rec.mu);
	rec.active = false;
	pthread_mutex_unlock(&rec.mu);
}

int record_start_fd(int fd, const char *path, double interval_s, char *err, size_t errlen)
{
	int rc;

	pthread_once(&rec.once, rec_init);
	reap_failed();
	if (!(interval_s >= RECORD_INTERVAL_MIN && interval_s <= RECORD_INTERVAL_MAX)) {
		snprintf(err, errlen, "an interval of %g s: from %g to %g s", interval_s,
			 RECORD_INTERVAL_MIN, RECORD_INTERVAL_MAX);
		close(fd);
		return -EINVAL;
	}
	pthread_mutex_lock(&rec.mu);
	if (rec.active) {
		snprintf(err, errlen, "already recording to %s", rec.path);
		pthread_mutex_unlock(&rec.mu);
		close(fd);
		return -EBUSY;
	}
	if (!rec.snap && !(rec.snap = malloc(sizeof(*rec.snap)))) {
		pthread_mutex_unlock(&rec.mu);
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rec.fd = fd;
	snprintf(rec.path, sizeof(rec.path), "%s", path);
	rec.interval = interval_s;
	rec.stopping = rec.failed = false;
	rec.seq = rec.lines = rec.bytes = 0;
	rec.error[0] = '\0';
	/* a run that has ended already gets no end line here */
	rec.end_rid = ctl_busy() ? 0 : ctl_run_id();
	rec.t0 = now_s(CLOCK_MONOTONIC);
	rec.next = rec.t0 + interval_s;
	make(RECORD_START);
	rc = rte_ctrl_thread_create(&rec.thr, "fg-rec", NULL, rec_main, NULL);
	if (rc != 0 || rec.failed) {
		if (rc == 0) { /* out of memory for the first line: the thread ends at once */
			rec.stopping = true;
			pthread_mutex_unlock(&rec.mu);
			pthread_join(rec.thr, NULL);
			pthread_mutex_lock(&rec.mu);
		} else {
			close(fd);
		}
		snprintf(err, errlen, "%s", rc ? strerror(-rc) : rec.error);
		free_lines(rec.head);
		rec.head = NULL;
		rec.tail = &rec.head;
		rec.fd = -1;
		pthread_mutex_unlock(&rec.mu);
		return rc ? rc : -ENOMEM;
	}
	rec.active = true;
	pthread_mutex_unlock(&rec.mu);
	return 0;
}

int record_start(const char *path, double interval_s, char *err, size_t errlen)
{
	int fd = record_open(path, err, errlen);

	return fd < 0 ? fd : record_start_fd(fd, path, interval_s, err, errlen);
}

/* rec.mu held */
static void status_locked(struct record_status *st)
{
	memset(st, 0, sizeof(*st));
	st->active = rec.active;
	st->failed = rec.failed;
	snprintf(st->path, sizeof(st->path), "%s", rec.path);
	st->interval_s = rec.interval;
	st->lines = rec.lines;
	st->bytes = rec.bytes;
	if (rec.t0 > 0)
		st->secs =
		    (rec.active && !rec.failed ? now_s(CLOCK_MONOTONIC) : rec.t_end) - rec.t0;
	snprintf(st->error, sizeof(st->error), "%s", rec.error);
}

void record_status(struct record_status *st)
{
	pthread_mutex_lock(&rec.mu);
	status_locked(st);
	pthread_mutex_unlock(&rec.mu);
}

/* The recording's end: its last lines (why), written, synced, closed. */
static int rec_close(enum record_reason why, struct record_status *st)
{
	pthread_mutex_lock(&rec.mu);
	if (!rec.active) {
		pthread_mutex_unlock(&rec.mu);
		return -ENOENT;
	}
	if (!rec.failed) {
		end_check();
		make(why);
	}
	rec.stopping = true;
	pthread_cond_signal(&rec.cv);
	pthread_mutex_unlock(&rec.mu);
	pthread_join(rec.thr, NULL);
	pthread_mutex_lock(&rec.mu);
	rec.active = false;
	if (st)
		status_locked(st);
	pthread_mutex_unlock(&rec.mu);
	return 0;
}

int record_stop(struct record_status *st) { return rec_close(RECORD_STOP, st); }

void record_run_ends(void)
{
	pthread_mutex_lock(&rec.mu);
	if (rec.active && !rec.failed && !rec.stopping) {
		end_check();
		if (rec.head)
			pthread_cond_signal(&rec.cv);
	}
	pthread_mutex_unlock(&rec.mu);
}

void record_fini(void)
{
	(void)rec_close(RECORD_EXIT, NULL);
	free(rec.snap);
	rec.snap = NULL;
}
