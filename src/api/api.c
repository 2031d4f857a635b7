/*
 * api.c — the HTTP API's server (flowgen(8), API), on libmicrohttpd's
 * threads, one per connection: it enforces the limits (connections,
 * idle time, body size, JSON depth), checks the bearer token, routes the
 * request, and hands what needs flowgen to the console's thread through
 * a bounded queue and an eventfd, waiting for the answer at most
 * API_WAIT_S seconds. The HTTP threads never call flowgen code: they
 * only touch the API's own state under api.mu (the queue, the async
 * jobs, the request log). The two exceptions: POST /flowgen/v1/cancel,
 * which raises the interrupt flags a SIGINT raises (async-signal-safe
 * stores, cli.h: cli_set_interrupted), since the console's thread is busy with the very
 * command to cancel; and GET /metrics, which reads the statistics as the
 * sampler and the dashboard do (metrics.h, under their short locks), so
 * that a scrape never waits for a command to end.
 *
 * Security: loopback by default; any other address needs TLS (GnuTLS,
 * through libmicrohttpd) and a bearer token (RFC 6750), checked by
 * api_configure before anything starts.
 *
 * Context: the HTTP threads, except api_configure, api_start, api_stop
 * and api_cmd (the console's thread).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <microhttpd.h>

#include "api.h"
#include "api_int.h"
#include "api_req.h"
#include "cli.h"
#include "fg.h"
#include "log.h"
#include "metrics.h"
#include "otg.h"
#include "prom.h"
#include "readf.h"
#include "tsc.h"

#ifndef FG_VERSION
#define FG_VERSION "0.1"
#endif

#define API_PREFIX "/flowgen/v1/"
#define CT_JSON "application/json"

struct api_state api = {.mu = PTHREAD_MUTEX_INITIALIZER, .wake_fd = -1};
static struct MHD_Daemon *daemon_;

/* One connection's request as it arrives. */
struct api_conn {
	char *body;
	size_t len;
	bool answered;	/* a response is queued (413 or 401 before the body) */
	int64_t t0;
};

/* ---------------------------------------------------------------------------
 * Configuration (the console's thread, before DPDK starts)
 */

/* The whole of a small file (readf), NUL-terminated; NULL with err set. */
static char *read_small(const char *what, const char *path, char *err, size_t errlen)
{
	char *buf;
	size_t n;
	int rc = readf(path, API_BODY_MAX, 0, &buf, &n);

	if (rc == 0 && n > 0)
		return buf;
	if (rc == 0)
		free(buf);
	snprintf(err, errlen, "%s %s: %s", what, path,
		 rc == -EFBIG ? "larger than 1 MiB" : rc ? strerror(-rc) : "empty");
	return NULL;
}

/*
 * The instance label: --name, or this host's name and the API's port
 * (host:port, as Prometheus names a target). 0, or -EINVAL with err set.
 */
static int instance_name(const char *name, char *err, size_t errlen)
{
	char host[API_NAME_MAX + 1] = "localhost";

	if (name) {
		size_t n = strlen(name);

		if (n == 0 || n > API_NAME_MAX) {
			snprintf(err, errlen, "--name takes 1 to %d bytes", API_NAME_MAX);
			return -EINVAL;
		}
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f) {
				snprintf(err, errlen, "--name: no control characters");
				return -EINVAL;
			}
		snprintf(api.instance, sizeof(api.instance), "%s", name);
		return 0;
	}
	if (gethostname(host, sizeof(host) - 1) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	snprintf(api.instance, sizeof(api.instance), "%.*s:%u", API_NAME_MAX - 6, host,
		 api.addr.port);
	return 0;
}

int api_configure(const struct api_opts *o, char *err, size_t errlen)
{
	if (!o->listen) {
		if (o->cert || o->key || o->token_file || o->name) {
			snprintf(err, errlen,
				 "--api-cert, --api-key, --api-token-file and --name need --api");
			return -EINVAL;
		}
		return 0;
	}
	if (api_parse_addr(o->listen, &api.addr, err, errlen) != 0)
		return -EINVAL;
	if (instance_name(o->name, err, errlen) != 0)
		return -EINVAL;
	if (!o->cert != !o->key) {
		snprintf(err, errlen, "--api-cert and --api-key go together");
		return -EINVAL;
	}
	if (!api.addr.loopback && (!o->cert || !o->token_file)) {
		snprintf(err, errlen,
			 "--api %s is not a loopback address: it needs TLS (--api-cert FILE "
			 "--api-key FILE) and a bearer token (--api-token-file FILE)",
			 api.addr.text);
		return -EINVAL;
	}
	if (o->cert && !MHD_is_feature_supported(MHD_FEATURE_TLS)) {
		snprintf(err, errlen, "this libmicrohttpd has no TLS support");
		return -EINVAL;
	}
	if (o->cert && (!(api.cert = read_small("--api-cert", o->cert, err, errlen)) ||
			!(api.key = read_small("--api-key", o->key, err, errlen))))
		return -EINVAL;
	api.tls = o->cert != NULL;
	if (o->token_file) {
		api.token = read_small("--api-token-file", o->token_file, err, errlen);
		if (!api.token)
			return -EINVAL;
		api.token[strcspn(api.token, "\r\n")] = '\0'; /* the first line */
		if (strlen(api.token) < 16) {
			snprintf(err, errlen, "--api-token-file %s: the token's first line must "
				 "hold at least 16 characters", o->token_file);
			return -EINVAL;
		}
	}
	api.on = true;
	return 0;
}

/* ---------------------------------------------------------------------------
 * Replies
 */

static void log_request(const char *method, const char *url, int status, int64_t t0)
{
	pthread_mutex_lock(&api.mu);
	struct api_log_row *l = &api.log[api.log_n++ % API_LOG];

	snprintf(l->method, sizeof(l->method), "%s", method);
	snprintf(l->path, sizeof(l->path), "%s", url);
	l->status = status;
	l->ms = (double)(fg_mono_ns() - t0) / 1e6;
	l->when = time(NULL);
	api.requests++;
	pthread_mutex_unlock(&api.mu);
}

/* Queue body (malloc'd, taken over; NULL: an empty body) as the answer. */
static enum MHD_Result reply(struct MHD_Connection *c, struct api_conn *k, const char *method,
			     const char *url, int status, char *body, size_t len,
			     const char *ctype)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body ? body : (char *)"",
					    body ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	if (status == MHD_HTTP_UNAUTHORIZED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
					"Bearer realm=\"flowgen\"");
	ret = MHD_queue_response(c, (unsigned)status, r);
	MHD_destroy_response(r);
	k->answered = true;
	log_request(method, url, status, k->t0);
	return ret;
}

static enum MHD_Result reply_error(struct MHD_Connection *c, struct api_conn *k,
				   const char *method, const char *url, int status,
				   const char *msg)
{
	size_t len;
	char *body = api_error_body(status, status >= 500 ? "internal" : "validation", msg, &len);

	return reply(c, k, method, url, status, body, len, CT_JSON);
}

static enum MHD_Result reply_json(struct MHD_Connection *c, struct api_conn *k,
				  const char *method, const char *url, int status, json_t *o)
{
	size_t len;
	char *s = api_json_body(o, &len);

	if (!s)
		return reply_error(c, k, method, url, 500, "out of memory");
	return reply(c, k, method, url, status, s, len, CT_JSON);
}

/* ---------------------------------------------------------------------------
 * Handing requests to the console's thread
 */

void api_req_unref(struct api_req *r)
{
	if (--r->refs > 0)
		return;
	free(r->path);
	free(r->body);
	free(r->reply);
	api_cmd_req_free(&r->cmd);
	free(r);
}

/*
 * Queue r for the console's thread; with wait, until its answer (or
 * API_WAIT_S). 0, 503 (queue full or stopping) or 504 (no answer in
 * time: a request not yet started is taken back).
 */
static int submit(struct api_req *r, bool wait)
{
	uint64_t one = 1;
	struct timespec ts;
	int rc = 0;

	r->refs = wait ? 2 : 1;
	pthread_mutex_lock(&api.mu);
	if (api.stopping || !api_queue_push(&api.q, r)) {
		pthread_mutex_unlock(&api.mu);
		return 503;
	}
	pthread_mutex_unlock(&api.mu);
	if (write(api.wake_fd, &one, sizeof(one)) < 0) {
		/* a full counter: the console's thread is woken already */
	}
	if (!wait)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += API_WAIT_S;
	pthread_mutex_lock(&api.mu);
	while (!r->done && rc == 0)
		rc = pthread_cond_timedwait(&api.cv, &api.mu, &ts);
	rc = 0;
	if (!r->done) {
		/* taken back if it has not started: a client that has gone
		 * does not get a command run late */
		if (!r->started && api_queue_remove(&api.q, r))
			r->refs--;
		rc = 504;
	}
	pthread_mutex_unlock(&api.mu);
	return rc;
}

static struct api_req *req_new(int kind, const char *method, const char *url,
			       struct api_conn *k)
{
	struct api_req *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->kind = kind;
	snprintf(r->method, sizeof(r->method), "%s", method);
	r->path = strdup(url);
	r->body = k->body;
	r->body_len = k->len;
	k->body = NULL;
	k->len = 0;
	if (!r->path) {
		free(r->body);
		free(r);
		return NULL;
	}
	return r;
}

/* Answer r's reply (or the status submit gave), then let r go. */
static enum MHD_Result answer(struct MHD_Connection *c, struct api_conn *k, const char *method,
			      const char *url, struct api_req *r, int rc)
{
	enum MHD_Result ret;

	if (rc) {
		pthread_mutex_lock(&api.mu);
		api_req_unref(r);
		pthread_mutex_unlock(&api.mu);
		return reply_error(c, k, method, url, rc,
				   rc == 503 ? "the API's queue is full (or flowgen is stopping)"
					     : "no answer from the console in time: it runs a long "
					       "command (use \"async\": true)");
	}
	pthread_mutex_lock(&api.mu);
	char *body = r->reply;
	size_t len = r->reply_len;
	const char *ctype = r->ctype ? r->ctype : CT_JSON;
	int status = r->status;

	r->reply = NULL;
	api_req_unref(r);
	pthread_mutex_unlock(&api.mu);
	ret = reply(c, k, method, url, status, body, len, ctype);
	return ret;
}

/* ---------------------------------------------------------------------------
 * Async jobs
 */

/* api.mu held: a slot for a new job (a free one, else the oldest done), or NULL. */
static struct api_job *job_slot(void)
{
	struct api_job *best = NULL;

	for (int i = 0; i < API_JOBS; i++) {
		struct api_job *j = &api.jobs[i];

		if (!j->id)
			return j;
		if (j->done && (!best || j->id < best->id))
			best = j;
	}
	if (best) {
		free(best->reply);
		memset(best, 0, sizeof(*best));
	}
	return best;
}

static enum MHD_Result command_async(struct MHD_Connection *c, struct api_conn *k,
				     const char *method, const char *url, struct api_req *r)
{
	struct api_job *j;
	uint64_t id;

	pthread_mutex_lock(&api.mu);
	j = job_slot();
	if (j)
		j->id = id = ++api.next_job;
	pthread_mutex_unlock(&api.mu);
	if (!j) {
		pthread_mutex_lock(&api.mu);
		r->refs = 1;
		api_req_unref(r);
		pthread_mutex_unlock(&api.mu);
		return reply_error(c, k, method, url, 503, "too many async commands running");
	}
	r->job = id;
	if (submit(r, false) != 0) {
		pthread_mutex_lock(&api.mu);
		j->id = 0;
		api_req_unref(r);
		pthread_mutex_unlock(&api.mu);
		return reply_error(c, k, method, url, 503,
				   "the API's queue is full (or flowgen is stopping)");
	}
	return reply_json(c, k, method, url, 202,
			  json_pack("{s:I, s:s}", "id", (json_int_t)id, "state", "running"));
}

static enum MHD_Result command_poll(struct MHD_Connection *c, struct api_conn *k,
				    const char *method, const char *url, const char *idstr)
{
	char *end, *body = NULL;
	unsigned long long id = strtoull(idstr, &end, 10);
	size_t len = 0;
	int found = 0;

	pthread_mutex_lock(&api.mu);
	for (int i = 0; id && !*end && i < API_JOBS; i++) {
		struct api_job *j = &api.jobs[i];

		if (j->id != id)
			continue;
		found = j->done ? 2 : 1;
		if (j->done && (body = malloc(j->reply_len)) != NULL) {
			memcpy(body, j->reply, j->reply_len);
			len = j->reply_len;
		}
	}
	pthread_mutex_unlock(&api.mu);
	if (!found)
		return reply_error(c, k, method, url, 404, "no such command id (or forgotten)");
	if (found == 1)
		return reply_json(c, k, method, url, 200,
				  json_pack("{s:I, s:s}", "id", (json_int_t)id, "state", "running"));
	if (!body)
		return reply_error(c, k, method, url, 500, "out of memory");
	return reply(c, k, method, url, 200, body, len, CT_JSON);
}

/* ---------------------------------------------------------------------------
 * Routing
 */

static enum MHD_Result route_flowgen(struct MHD_Connection *c, struct api_conn *k,
				     const char *method, const char *url)
{
	const char *p = url + strlen(API_PREFIX);
	bool post = strcmp(method, "POST") == 0;
	char err[256];
	int rc;

	if (strcmp(p, "command") == 0 && post) {
		struct api_req *r;
		struct api_cmd_req cr;

		rc = api_parse_command(k->body ? k->body : "", k->len, &cr, err, sizeof(err));
		if (rc)
			return reply_error(c, k, method, url, rc, err);
		r = req_new(API_REQ_COMMAND, method, url, k);
		if (!r) {
			api_cmd_req_free(&cr);
			return reply_error(c, k, method, url, 500, "out of memory");
		}
		r->cmd = cr;
		if (cr.async)
			return command_async(c, k, method, url, r);
		return answer(c, k, method, url, r, submit(r, true));
	}
	if (strncmp(p, "command/", 8) == 0 && strcmp(method, "GET") == 0)
		return command_poll(c, k, method, url, p + 8);
	if (strcmp(p, "cancel") == 0 && post) {
		struct api_req *r = req_new(API_REQ_CANCEL, method, url, k);

		/* what a SIGINT does to the command that runs (cli.h); the
		 * console's thread then stops the traffic, as ^C does */
		cli_set_interrupted(true);
		if (r && submit(r, false) != 0) {
			pthread_mutex_lock(&api.mu);
			api_req_unref(r);
			pthread_mutex_unlock(&api.mu);
		}
		return reply_json(c, k, method, url, 200, json_pack("{s:b}", "ok", 1));
	}
	if (strcmp(p, "command") == 0 || strcmp(p, "cancel") == 0)
		return reply_error(c, k, method, url, 405, "use POST");
	return reply_error(c, k, method, url, 404, "no such path");
}

/*
 * GET /metrics, on the HTTP thread itself: it reads the statistics under
 * their own short locks (metrics.h) and never waits for the console's
 * thread, which may be busy with a command for minutes.
 */
static enum MHD_Result metrics(struct MHD_Connection *c, struct api_conn *k, const char *method,
			       const char *url)
{
	bool om = prom_wants_openmetrics(
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	char *body = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return reply_error(c, k, method, url, 405, "use GET");
	f = open_memstream(&body, &len);
	if (!f)
		return reply_error(c, k, method, url, 500, "out of memory");
	rc = metrics_write(f, om, api.instance);
	if (fclose(f) != 0 || rc != 0) {
		free(body);
		return reply_error(c, k, method, url, 500, "the metrics could not be written");
	}
	return reply(c, k, method, url, 200, body, len, om ? PROM_CT_OPENMETRICS : PROM_CT_TEXT);
}

static enum MHD_Result route(struct MHD_Connection *c, struct api_conn *k, const char *method,
			     const char *url)
{
	if (strcmp(url, "/metrics") == 0)
		return metrics(c, k, method, url);
	if (strcmp(url, "/capabilities/version") == 0) {
		if (strcmp(method, "GET") != 0)
			return reply_error(c, k, method, url, 405, "use GET");
		return reply_json(c, k, method, url, 200,
				  json_pack("{s:s, s:s, s:s}", "api_spec_version",
					    API_OTG_SPEC_VERSION, "sdk_version", "",
					    "app_version", FG_VERSION));
	}
	if (strncmp(url, API_PREFIX, strlen(API_PREFIX)) == 0)
		return route_flowgen(c, k, method, url);
	if (api_json_depth(k->body ? k->body : "", k->len) > API_JSON_DEPTH_MAX)
		return reply_error(c, k, method, url, 400, "the JSON nests too deep");

	struct api_req *r = req_new(API_REQ_OTG, method, url, k);

	if (!r)
		return reply_error(c, k, method, url, 500, "out of memory");
	return answer(c, k, method, url, r, submit(r, true));
}

/* ---------------------------------------------------------------------------
 * libmicrohttpd's callbacks
 */

/* The first call of a request: limits and the token, before any body is read. */
static enum MHD_Result on_headers(struct MHD_Connection *c, struct api_conn *k,
				  const char *method, const char *url)
{
	const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						     MHD_HTTP_HEADER_CONTENT_LENGTH);

	if (api.token && !api_bearer_ok(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
					MHD_HTTP_HEADER_AUTHORIZATION), api.token))
		return reply_error(c, k, method, url, 401,
				   "missing or wrong bearer token (Authorization: Bearer TOKEN)");
	if (cl && strtoull(cl, NULL, 10) > API_BODY_MAX)
		return reply_error(c, k, method, url, 413, "the body is larger than 1 MiB");
	return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct api_conn *k = *con_cls;

	(void)cls;
	(void)version;
	if (!k) {
		k = calloc(1, sizeof(*k));
		if (!k)
			return MHD_NO;
		k->t0 = fg_mono_ns();
		*con_cls = k;
		pthread_mutex_lock(&api.mu);
		api.open_reqs++;
		pthread_mutex_unlock(&api.mu);
		return on_headers(c, k, method, url);
	}
	if (k->answered) {
		*upload_size = 0; /* the rest of a refused body is dropped */
		return MHD_YES;
	}
	if (*upload_size) {
		size_t n = *upload_size;
		char *nb;

		*upload_size = 0;
		if (k->len + n > API_BODY_MAX) {
			free(k->body);
			k->body = NULL;
			return reply_error(c, k, method, url, 413, "the body is larger than 1 MiB");
		}
		nb = realloc(k->body, k->len + n + 1);
		if (!nb)
			return MHD_NO;
		memcpy(nb + k->len, upload, n);
		k->body = nb;
		k->len += n;
		k->body[k->len] = '\0';
		return MHD_YES;
	}
	return route(c, k, method, url);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct api_conn *k = *con_cls;

	(void)cls;
	(void)c;
	(void)toe;
	if (k) {
		free(k->body);
		free(k);
		*con_cls = NULL;
		pthread_mutex_lock(&api.mu);
		api.open_reqs--;
		pthread_mutex_unlock(&api.mu);
	}
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_ctx,
			  enum MHD_ConnectionNotificationCode code)
{
	(void)cls;
	(void)c;
	(void)socket_ctx;
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		pthread_mutex_lock(&api.mu);
		api.clients++;
		pthread_mutex_unlock(&api.mu);
	}
}

/* ---------------------------------------------------------------------------
 * Start, stop, and the `api` command (the console's thread)
 */

int api_start(char *err, size_t errlen)
{
	unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL_INTERNAL_THREAD;
	pthread_condattr_t ca;

	if (!api.on)
		return 0;
	api.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (api.wake_fd < 0) {
		snprintf(err, errlen, "--api: eventfd: %s", strerror(errno));
		return -errno;
	}
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&api.cv, &ca);
	pthread_condattr_destroy(&ca);
	if (api.addr.family == AF_INET6)
		flags |= MHD_USE_IPv6;
	if (api.tls)
		flags |= MHD_USE_TLS;
	/* without TLS the option list ends before the key and certificate */
	daemon_ = MHD_start_daemon(
	    flags, api.addr.port, NULL, NULL, on_request, NULL, MHD_OPTION_SOCK_ADDR, &api.addr.sa,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned)API_CONN_MAX, MHD_OPTION_CONNECTION_TIMEOUT,
	    (unsigned)API_CONN_TIMEOUT_S, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
	    (unsigned)API_CONN_MAX / 2, MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL,
	    MHD_OPTION_NOTIFY_CONNECTION, on_connection, NULL,
	    api.tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, api.key,
	    MHD_OPTION_HTTPS_MEM_CERT, api.cert, MHD_OPTION_END);
	if (!daemon_) {
		snprintf(err, errlen, "--api %s: cannot listen (address in use, or %s)",
			 api.addr.text, api.tls ? "a bad certificate or key" : "not ours");
		close(api.wake_fd);
		api.wake_fd = -1;
		return -EADDRINUSE;
	}
	cli_set_poll(api.wake_fd, api_poll);
	fprintf(stderr, "api: listening on %s://%s%s\n", api.tls ? "https" : "http",
		api.addr.text, api.token ? " (bearer token required)" : "");
	return 0;
}

void api_stop(void)
{
	struct api_req *r;

	if (!daemon_)
		return;
	cli_set_poll(-1, NULL);
	pthread_mutex_lock(&api.mu);
	api.stopping = true;
	while ((r = api_queue_pop(&api.q)) != NULL) {
		if (!r->job) {
			r->status = 503;
			r->reply = api_error_body(503, "internal", "flowgen is stopping",
						  &r->reply_len);
			r->done = true;
		}
		api_req_unref(r);
	}
	pthread_cond_broadcast(&api.cv);
	pthread_mutex_unlock(&api.mu);
	/*
	 * the answer of a last request (a quit) goes out before the threads
	 * end: up to 100 ms for the requests begun to complete (their answers
	 * sent), rather than 100 ms whatever they do
	 */
	for (int ms = 0; ms < 100; ms++) {
		pthread_mutex_lock(&api.mu);
		unsigned open = api.open_reqs;

		pthread_mutex_unlock(&api.mu);
		if (!open)
			break;
		usleep(1000);
	}
	MHD_stop_daemon(daemon_);
	daemon_ = NULL;
	close(api.wake_fd);
	api.wake_fd = -1;
	for (int i = 0; i < API_JOBS; i++)
		free(api.jobs[i].reply);
	free(api.cert);
	free(api.key);
	free(api.token);
}

int api_cmd(struct cmd_ctx *x, int argc, char **argv)
{
	unsigned n, first;

	if (argc != 1)
		return cmd_fail(x, FG_E_USAGE, argv[1], NULL, "usage: %s", argv[0]);
	if (!daemon_) {
		fprintf(x->out, "api: off (start flowgen with --api [ADDR:]PORT)\n");
		return 0;
	}
	pthread_mutex_lock(&api.mu);
	fprintf(x->out, "api: listening on %s://%s (%s)\n", api.tls ? "https" : "http", api.addr.text,
	       api.token ? "TLS, bearer token" : "loopback, no token");
	fprintf(x->out, "clients served %" PRIu64 ", requests %" PRIu64 ", queued %u\n", api.clients,
	       api.requests, api.q.n);
	n = FG_MIN(api.log_n, (unsigned)API_LOG);
	first = api.log_n - n;
	if (n)
		fprintf(x->out, "last requests:\n  %-8s  %-6s  %-40s  %6s  %10s\n", "time", "method",
		       "path", "status", "ms");
	for (unsigned i = first; i < api.log_n; i++) {
		const struct api_log_row *l = &api.log[i % API_LOG];
		struct tm tm;
		char hms[16];

		localtime_r(&l->when, &tm);
		strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
		fprintf(x->out, "  %-8s  %-6s  %-40s  %6d  %10.1f\n", hms, l->method, l->path, l->status,
		       l->ms);
	}
	pthread_mutex_unlock(&api.mu);
	return 0;
}

static const struct cli_optspec otg_spec = {.shorts = "o:"};

static const struct cli_cmd api_rows[] = {
	{"api", api_cmd, "api", "the HTTP API: its address, clients served and last requests",
	 NULL, 0},
	{"otg", otg_cmd, "otg METHOD PATH [BODY.json] [-o FILE]",
	 "one request to the OTG model handlers (the HTTP API's, without HTTP)", &otg_spec,
	 CLI_F_PATHARG},
};

int api_add_cmds(void) { return cli_add(api_rows, (int)FG_ARRAY_SIZE(api_rows)); }
