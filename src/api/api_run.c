/*
 * api_run.c — the HTTP API's requests on the console's thread: api_poll
 * takes them from the queue (when the eventfd says there are some) and
 * runs each exactly as the console would, between the console's own
 * commands or while one of them waits (cli_set_poll, cli.h), with the
 * run origin set to the API (run.h), so that the console and the API
 * share one run life cycle and refuse each other's starts.
 *
 * A command's output is what it writes to standard output and standard
 * error while it runs: both are pointed at one memory file (memfd, see
 * memfd_create(2)) for the command's time, with dup2(2), and put back
 * after. An API command may run inside another one that waits (an async
 * `wait`, then `stats --json`), up to API_NEST_MAX deep; the captures
 * nest with them.
 *
 * Context: control, on the console's thread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "api_int.h"
#include "api_req.h"
#include "cli.h"
#include "ctl.h"
#include "fg.h"
#include "log.h"
#include "otg.h"
#include "run.h"

/* Standard output and error, pointed at a memory file while a command runs. */
struct capture {
	int fd, out, err;
};

static int capture_begin(struct capture *c)
{
	fflush(stdout);
	fflush(stderr);
	c->fd = memfd_create("flowgen-api", MFD_CLOEXEC);
	if (c->fd < 0)
		return -errno;
	c->out = dup(STDOUT_FILENO);
	c->err = dup(STDERR_FILENO);
	if (c->out < 0 || c->err < 0 || dup2(c->fd, STDOUT_FILENO) < 0 ||
	    dup2(c->fd, STDERR_FILENO) < 0) {
		int e = errno;

		if (c->out >= 0) {
			dup2(c->out, STDOUT_FILENO);
			close(c->out);
		}
		if (c->err >= 0) {
			dup2(c->err, STDERR_FILENO);
			close(c->err);
		}
		close(c->fd);
		return -e;
	}
	return 0;
}

/* Put standard output and error back; what was written (malloc'd, NUL-terminated). */
static char *capture_end(struct capture *c, size_t *len)
{
	off_t size;
	char *text;
	ssize_t n = 0;

	fflush(stdout);
	fflush(stderr);
	dup2(c->out, STDOUT_FILENO);
	dup2(c->err, STDERR_FILENO);
	close(c->out);
	close(c->err);
	size = lseek(c->fd, 0, SEEK_END);
	if (size < 0)
		size = 0;
	if ((size_t)size > API_OUTPUT_MAX)
		size = API_OUTPUT_MAX;
	text = malloc((size_t)size + 1);
	if (text) {
		n = pread(c->fd, text, (size_t)size, 0);
		text[n > 0 ? n : 0] = '\0';
	}
	close(c->fd);
	*len = n > 0 ? (size_t)n : 0;
	return text;
}

/* Commands that need the terminal, refused over HTTP. */
static bool needs_terminal(const char *line)
{
	const char *p = line + strspn(line, " \t");

	return strncmp(p, "tui", 3) == 0 && (p[3] == '\0' || strchr(" \t;#", p[3]));
}

/* The reply of a command: {"ok", "exit", "output"[, "json"]}; async jobs add id and state. */
static char *command_reply(const struct api_req *r, int rc, const char *out, size_t outlen,
			   size_t *len)
{
	json_t *o = json_pack("{s:b, s:i, s:o}", "ok", rc == 0, "exit",
			      rc == 0 ? FG_EXIT_OK : FG_EXIT_FAIL, "output",
			      api_json_text(out ? out : "", out ? outlen : 0));
	json_t *j = out ? api_output_json(out, outlen) : NULL;
	char *s;

	if (o && j)
		json_object_set_new(o, "json", j);
	else
		json_decref(j);
	if (o && r->job) {
		json_object_set_new(o, "id", json_integer((json_int_t)r->job));
		json_object_set_new(o, "state", json_string("done"));
	}
	s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	*len = s ? strlen(s) : 0;
	return s;
}

static void run_command(struct api_req *r)
{
	struct capture cap = {.fd = -1, .out = -1, .err = -1};
	size_t outlen = 0;
	char *out = NULL;
	int rc;

	if (needs_terminal(r->cmd.command)) {
		r->status = 400;
		r->reply = api_error_body(400, "validation", "tui needs the terminal",
					  &r->reply_len);
		return;
	}
	if (capture_begin(&cap) != 0) {
		r->status = 500;
		r->reply = api_error_body(500, "internal", "cannot capture the output",
					  &r->reply_len);
		return;
	}
	rc = cli_exec_line(r->cmd.command);
	out = capture_end(&cap, &outlen);
	r->status = 200;
	r->reply = command_reply(r, rc, out, outlen, &r->reply_len);
	free(out);
	if (!r->reply) {
		r->status = 500;
		r->reply = api_error_body(500, "internal", "out of memory", &r->reply_len);
	}
}

static void run_otg(struct api_req *r)
{
	char msg[128];

	r->ctype = "application/json";
	if (otg_handle(r->method, r->path, r->body ? r->body : "", r->body_len, &r->status,
		       &r->reply, &r->reply_len, &r->ctype))
		return;
	snprintf(msg, sizeof(msg), "no such path");
	r->status = 404;
	r->reply = api_error_body(404, "validation", msg, &r->reply_len);
}

/* POST /flowgen/v1/cancel: the flags are raised already (api.c); stop the traffic as ^C does. */
static void run_cancel(void)
{
	if (ctl_busy()) {
		ctl_stop();
		fg_info("stopping traffic (cancel from the API)");
	}
}

/* Hand r's answer back: to its waiting HTTP thread, or to its async job. */
static void finish(struct api_req *r)
{
	pthread_mutex_lock(&api.mu);
	if (r->job) {
		for (int i = 0; i < API_JOBS; i++) {
			struct api_job *j = &api.jobs[i];

			if (j->id != r->job)
				continue;
			j->reply = r->reply;
			j->reply_len = r->reply_len;
			j->done = true;
			r->reply = NULL;
		}
	}
	r->done = true;
	pthread_cond_broadcast(&api.cv);
	api_req_unref(r);
	pthread_mutex_unlock(&api.mu);
}

static void serve(struct api_req *r)
{
	int prev = run_set_origin(RUN_ORIGIN_API);

	switch (r->kind) {
	case API_REQ_COMMAND:
		run_command(r);
		break;
	case API_REQ_OTG:
		run_otg(r);
		break;
	case API_REQ_CANCEL:
		run_cancel();
		break;
	}
	run_set_origin(prev);
	finish(r);
}

void api_poll(void)
{
	static int depth;
	struct api_req *r;
	uint64_t v;

	if (depth >= API_NEST_MAX)
		return; /* the calls below on the stack take what is queued */
	if (read(api.wake_fd, &v, sizeof(v)) < 0) {
		/* nothing to read: woken by an earlier write already taken */
	}
	for (;;) {
		pthread_mutex_lock(&api.mu);
		r = api_queue_pop(&api.q);
		if (r)
			r->started = true;
		pthread_mutex_unlock(&api.mu);
		if (!r)
			break;
		depth++;
		serve(r);
		depth--;
		if (cli_quit_requested())
			break;
	}
}
