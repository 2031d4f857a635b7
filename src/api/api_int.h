/*
 * api_int.h — what the API's two halves share: api.c (the server, on the
 * HTTP threads: limits, authentication, routing, the queue's producer
 * side, the async jobs' table) and api_run.c (the console's thread:
 * running the queued requests).
 *
 * Context: any thread for the state under api.mu; api_poll runs on the
 * console's thread only.
 *
 * Included by: api.
 */
#ifndef FG_API_INT_H
#define FG_API_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "api_req.h"

#define API_JOBS 32		/* async commands kept (running or done) */
#define API_LOG 10		/* last requests `api` shows */
#define API_WAIT_S 60		/* an HTTP thread waits this long for the console */
#define API_NEST_MAX 2		/* API commands running inside one another (api_poll) */
#define API_OUTPUT_MAX (4u << 20) /* bytes of a command's output kept */
#define API_CONN_MAX 16		/* connections at once */
#define API_CONN_TIMEOUT_S 10	/* an idle connection is closed */
#define API_NAME_MAX 128	/* --name: bytes */
/* The OTG models release whose API the paths of otg.h follow. */
#define API_OTG_SPEC_VERSION "1.61.0"

enum api_req_kind {
	API_REQ_COMMAND = 1, /* POST /flowgen/v1/command */
	API_REQ_OTG = 2,     /* any other path: otg_handle */
	API_REQ_CANCEL = 3,  /* POST /flowgen/v1/cancel: stop traffic as ^C does */
};

/* One request handed to the console's thread. */
struct api_req {
	int kind;		/* enum api_req_kind */
	char method[16];
	char *path;
	char *body;
	size_t body_len;
	struct api_cmd_req cmd;	/* API_REQ_COMMAND */
	uint64_t job;		/* async: the job's id; 0 = an HTTP thread waits */
	/* the answer, set by the console's thread */
	int status;
	char *reply;
	size_t reply_len;
	const char *ctype;
	bool started, done;
	int refs;		/* the queue or the console's thread, and the waiter */
};

/* An async command: running (reply NULL) or done (its reply body). */
struct api_job {
	uint64_t id;		/* 0: free */
	bool done;
	char *reply;
	size_t reply_len;
};

struct api_log_row {
	char method[8];
	char path[56];
	int status;
	double ms;
	time_t when;
};

struct api_state {
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* broadcast when a request is done */
	struct api_queue q;
	int wake_fd;		/* eventfd: written when a request is queued */
	bool on, stopping;
	struct api_job jobs[API_JOBS];
	uint64_t next_job;
	uint64_t clients, requests;
	unsigned open_reqs;	/* requests begun and not yet completed (sent) */
	struct api_log_row log[API_LOG];
	unsigned log_n;		/* rows written in all; the last API_LOG kept */
	/* configuration (api_configure) */
	struct api_addr addr;
	char instance[API_NAME_MAX + 1]; /* GET /metrics' instance label (--name) */
	bool tls;
	char *cert, *key, *token;
};

extern struct api_state api;

/* any thread, api.mu held: drop one reference of r, freeing it with the last. */
void api_req_unref(struct api_req *r);

/* console: run the queued requests (what cli_set_poll calls). */
void api_poll(void);

#endif
