/*
 * api_run.c — the HTTP API's requests on the console's thread: api_poll
 * takes them from the queue (when the eventfd says there are some) and
 * runs each exactly as the console would, between the console's own
 * commands or while one of them waits (cli_set_poll, cli.h), with the
 * run origin set to the API (run.h), so that the console and the API
 * share one run life cycle and refuse each other's starts.
 *
 * A command runs through the command layer (cli_exec) with a ctx of its
 * own: its text goes to a memory stream the ctx names, its messages to
 * the ctx's log sink, and the reply carries its result value and its
 * error value as they are (api_command_reply); nothing of the process's
 * standard output or error is touched. An API command may run inside
 * another one that waits (an async `wait`, then `stats --json`), up to
 * API_NEST_MAX deep; each has its own ctx.
 *
 * Context: control, on the console's thread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api_int.h"
#include "api_req.h"
#include "cli.h"
#include "ctl.h"
#include "errval.h"
#include "fg.h"
#include "log.h"
#include "otg.h"
#include "run.h"

/* Commands that need the terminal, refused over HTTP. */
static bool needs_terminal(const char *line)
{
	const char *p = line + strspn(line, " \t");

	return strncmp(p, "tui", 3) == 0 && (p[3] == '\0' || strchr(" \t;#", p[3]));
}

/*
 * A command through the command layer with a ctx of its own: its text on
 * a memory stream (open_memstream(3): the command writes to the FILE it
 * is given, and nothing else of the process is touched), its messages
 * through the log sink into the same text, its result value and its error
 * value as they are.
 */
static void run_command(struct api_req *r)
{
	struct cmd_ctx x = {.value = true};
	char *out = NULL;
	size_t outlen = 0;
	int rc;

	if (needs_terminal(r->cmd.command)) {
		r->status = 400;
		r->reply = api_error_body(400, "validation", "tui needs the terminal",
					  &r->reply_len);
		return;
	}
	fg_error_clear(&x.err);
	x.out = x.errout = open_memstream(&out, &outlen);
	if (!x.out) {
		r->status = 500;
		r->reply = api_error_body(500, "internal", "out of memory", &r->reply_len);
		return;
	}
	rc = cli_exec(&x, r->cmd.command);
	fclose(x.out);
	if (outlen > API_OUTPUT_MAX)
		outlen = API_OUTPUT_MAX;
	r->status = api_command_status(rc, &x.err);
	r->reply = api_command_reply(rc, &x.err, out, outlen, x.result, r->job, &r->reply_len);
	json_decref(x.result);
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
