/*
 * api_req.h — the pure parts of the HTTP API (api.c): the listening
 * address, the bearer token's comparison, the nesting depth of a JSON
 * text, the request of POST /flowgen/v1/command, the OTG Error body, the
 * JSON object a command printed, and the bounded request queue.
 *
 * Context: pure (any thread, no globals; the queue's lock is its
 * caller's).
 *
 * Included by: api.
 */
#ifndef FG_API_REQ_H
#define FG_API_REQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <jansson.h>

#include "fg.h"

#define API_BODY_MAX (1u << 20)	   /* request body: more is refused (413) */
#define API_JSON_DEPTH_MAX 32	   /* nested arrays and objects in a request (400) */
#define API_COMMAND_MAX 4096	   /* bytes of one command line */
#define API_QUEUE_MAX 16	   /* requests waiting for the console's thread (503) */

/* Where the API listens: [ADDR:]PORT, ADDR an IPv4 address or [IPv6]. */
struct api_addr {
	struct sockaddr_storage sa;
	socklen_t salen;
	int family;
	uint16_t port;
	bool loopback;	/* 127.0.0.0/8 or ::1 */
	char text[80];	/* "127.0.0.1:8080", "[::1]:8080" (a 63-byte address at most) */
};

/*
 * pure: parse "[ADDR:]PORT" (ADDR 127.0.0.1 when absent; an IPv6 address
 * in brackets, "[::1]:8080"; numeric addresses only). 0, or -EINVAL with
 * err saying why.
 */
int api_parse_addr(const char *s, struct api_addr *a, char *err, size_t errlen);

/*
 * pure: whether given (glen bytes) equals want (wlen bytes), in a time
 * that depends on wlen alone, not on where the two differ.
 */
bool api_token_equal(const char *given, size_t glen, const char *want, size_t wlen);

/*
 * pure: whether an Authorization header value (NULL when absent) is
 * "Bearer TOKEN" with token's value (RFC 6750, section 2.1; the scheme's
 * name is case-insensitive, RFC 9110, section 11.1).
 */
bool api_bearer_ok(const char *header, const char *token);

/*
 * pure: the deepest nesting of arrays and objects in the JSON text s (len
 * bytes), strings skipped; what jansson would recurse through, counted
 * before it does.
 */
int api_json_depth(const char *s, size_t len);

/* The request of POST /flowgen/v1/command: {"command": "...", "async": bool}. */
struct api_cmd_req {
	char *command; /* malloc'd */
	bool async;
};

/*
 * pure: parse and check a command request. 0, or the HTTP status to
 * answer (400 for bad JSON, a depth over API_JSON_DEPTH_MAX, a missing or
 * empty command, a key that is not ours; 413 above API_BODY_MAX) with err
 * saying why. Free with api_cmd_req_free.
 */
int api_parse_command(const char *body, size_t len, struct api_cmd_req *r, char *err,
		      size_t errlen);
void api_cmd_req_free(struct api_cmd_req *r);

/*
 * pure: j (its reference taken: dropped here) as a compact JSON body,
 * malloc'd, its length in *len; NULL when j is NULL or memory runs out.
 */
char *api_json_body(json_t *j, size_t *len);

/*
 * pure: an OTG Error body, {"code": code, "kind": kind, "errors": [msg]}
 * (kind "validation" or "internal"), malloc'd, its length in *len; NULL
 * when out of memory.
 */
char *api_error_body(int code, const char *kind, const char *msg, size_t *len);

/* pure: a JSON string of len bytes of text that may not be UTF-8 (other bytes become '?'). */
json_t *api_json_text(const char *text, size_t len);

/*
 * pure: the HTTP status of a command's reply: 400 for a command that is
 * not one or a bad option or argument (the error value says which), else
 * 200 (ok false when the command ran and failed).
 */
int api_command_status(int rc, const struct fg_error *e);

/*
 * pure: the reply of a command, {"ok", "exit", "output"[, "json"][,
 * "error"]}: output is the command's text for people, json its result
 * value (taken as it is, a reference added), error the error value
 * {code, message, hint, path} when rc < 0; an async job (job != 0) adds
 * id and state. Malloc'd, its length in *len; NULL when out of memory.
 */
char *api_command_reply(int rc, const struct fg_error *e, const char *out, size_t outlen,
			json_t *value, uint64_t job, size_t *len);

/* A bounded FIFO of pointers. */
struct api_queue {
	void *slot[API_QUEUE_MAX];
	unsigned head, n;
};

/* pure: append p; false when the queue is full. */
bool api_queue_push(struct api_queue *q, void *p);
/* pure: the oldest entry, taken out, or NULL when empty. */
void *api_queue_pop(struct api_queue *q);
/* pure: take p out wherever it sits; false when it is not queued. */
bool api_queue_remove(struct api_queue *q, void *p);

#endif
