/*
 * api_req.c — the parts of the HTTP API that need no server and no
 * DPDK, unit-tested in test/unit/test_api.c: parsing the listening
 * address, comparing the bearer token in constant time, measuring a
 * JSON text's nesting before jansson parses it, reading the command
 * request, writing the OTG Error body, finding the JSON object a command
 * printed, and the bounded queue between the HTTP threads and the
 * console's thread.
 *
 * Context: pure.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api_req.h"
#include "errval.h"
#include "json.h"

/* ---------------------------------------------------------------------------
 * The listening address
 */

static int parse_port(const char *s, uint16_t *port)
{
	char *end;
	long v;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

int api_parse_addr(const char *s, struct api_addr *a, char *err, size_t errlen)
{
	char host[64] = "127.0.0.1";
	const char *port = s, *colon;

	memset(a, 0, sizeof(*a));
	if (s[0] == '[') {
		const char *close = strchr(s, ']');

		if (!close || close[1] != ':' || (size_t)(close - s - 1) >= sizeof(host)) {
			snprintf(err, errlen, "'%s': an IPv6 address is written [ADDR]:PORT", s);
			return -EINVAL;
		}
		memcpy(host, s + 1, (size_t)(close - s - 1));
		host[close - s - 1] = '\0';
		port = close + 2;
	} else if ((colon = strrchr(s, ':'))) {
		if (strchr(s, ':') != colon) {
			snprintf(err, errlen, "'%s': an IPv6 address is written [ADDR]:PORT", s);
			return -EINVAL;
		}
		if ((size_t)(colon - s) >= sizeof(host)) {
			snprintf(err, errlen, "'%s': address too long", s);
			return -EINVAL;
		}
		memcpy(host, s, (size_t)(colon - s));
		host[colon - s] = '\0';
		port = colon + 1;
	}
	if (parse_port(port, &a->port) != 0) {
		snprintf(err, errlen, "'%s': the port must be 1..65535", s);
		return -EINVAL;
	}
	struct sockaddr_in *v4 = (struct sockaddr_in *)&a->sa;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&a->sa;

	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(a->port);
		a->family = AF_INET;
		a->salen = sizeof(*v4);
		a->loopback = (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
		snprintf(a->text, sizeof(a->text), "%s:%u", host, a->port);
	} else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(a->port);
		a->family = AF_INET6;
		a->salen = sizeof(*v6);
		a->loopback = IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr);
		snprintf(a->text, sizeof(a->text), "[%s]:%u", host, a->port);
	} else {
		snprintf(err, errlen, "'%s': '%s' is not a numeric IPv4 or IPv6 address", s, host);
		return -EINVAL;
	}
	return 0;
}

/* ---------------------------------------------------------------------------
 * The bearer token
 */

bool api_token_equal(const char *given, size_t glen, const char *want, size_t wlen)
{
	/* every byte of want is looked at, whatever given holds: the time
	 * tells nothing of how much of a guess was right */
	volatile unsigned char diff = glen != wlen;

	for (size_t i = 0; i < wlen; i++)
		diff |= (unsigned char)(want[i] ^ (i < glen ? given[i] : 0));
	return diff == 0;
}

bool api_bearer_ok(const char *header, const char *token)
{
	static const char scheme[] = "Bearer";
	size_t n = sizeof(scheme) - 1;

	if (!header || strncasecmp(header, scheme, n) != 0 || header[n] != ' ')
		return false;
	header += n;
	while (*header == ' ')
		header++;
	return api_token_equal(header, strlen(header), token, strlen(token));
}

/* ---------------------------------------------------------------------------
 * JSON requests and replies
 */

int api_json_depth(const char *s, size_t len)
{
	int depth = 0, most = 0;
	bool str = false;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				str = false;
			continue;
		}
		if (c == '"') {
			str = true;
		} else if (c == '[' || c == '{') {
			if (++depth > most)
				most = depth;
		} else if ((c == ']' || c == '}') && depth > 0) {
			depth--;
		}
	}
	return most;
}

int api_parse_command(const char *body, size_t len, struct api_cmd_req *r, char *err,
		      size_t errlen)
{
	json_error_t je;
	json_t *root, *cmd, *async;
	const char *key;
	json_t *val;

	memset(r, 0, sizeof(*r));
	if (len > API_BODY_MAX) {
		snprintf(err, errlen, "the body is larger than %u bytes", API_BODY_MAX);
		return 413;
	}
	if (api_json_depth(body, len) > API_JSON_DEPTH_MAX) {
		snprintf(err, errlen, "the JSON nests deeper than %d levels", API_JSON_DEPTH_MAX);
		return 400;
	}
	root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		snprintf(err, errlen, "bad JSON at line %d, column %d: %s", je.line, je.column,
			 je.text);
		return 400;
	}
	if (!json_is_object(root)) {
		snprintf(err, errlen, "the body must be a JSON object");
		goto err_root;
	}
	json_object_foreach(root, key, val) {
		if (strcmp(key, "command") != 0 && strcmp(key, "async") != 0) {
			snprintf(err, errlen, "unknown key \"%.64s\" (command, async)", key);
			goto err_root;
		}
	}
	cmd = json_object_get(root, "command");
	async = json_object_get(root, "async");
	if (!json_is_string(cmd) || json_string_length(cmd) == 0) {
		snprintf(err, errlen, "\"command\" must be a non-empty string");
		goto err_root;
	}
	if (json_string_length(cmd) > API_COMMAND_MAX) {
		snprintf(err, errlen, "\"command\" is longer than %d bytes", API_COMMAND_MAX);
		goto err_root;
	}
	if (async && !json_is_boolean(async)) {
		snprintf(err, errlen, "\"async\" must be true or false");
		goto err_root;
	}
	r->command = strdup(json_string_value(cmd));
	r->async = async && json_is_true(async);
	json_decref(root);
	if (!r->command) {
		snprintf(err, errlen, "out of memory");
		return 500;
	}
	return 0;

err_root:
	json_decref(root);
	return 400;
}

void api_cmd_req_free(struct api_cmd_req *r)
{
	free(r->command);
	r->command = NULL;
}

char *api_json_body(json_t *j, size_t *len)
{
	char *s = j ? json_dumps(j, JW_DUMP_FLAGS(false)) : NULL;

	json_decref(j);
	*len = s ? strlen(s) : 0;
	return s;
}

char *api_error_body(int code, const char *kind, const char *msg, size_t *len)
{
	return api_json_body(json_pack("{s:i, s:s, s:[o]}", "code", code, "kind", kind, "errors",
				       api_json_text(msg, strlen(msg))),
			     len);
}

json_t *api_json_text(const char *text, size_t len)
{
	json_t *s = json_stringn(text, len);
	char *copy;

	if (s)
		return s;
	/* not UTF-8 (or a NUL): keep the ASCII, mark the rest */
	copy = malloc(len + 1);
	if (!copy)
		return NULL;
	for (size_t i = 0; i < len; i++)
		copy[i] = (unsigned char)text[i] < 0x80 && text[i] ? text[i] : '?';
	s = json_stringn(copy, len);
	free(copy);
	return s;
}

int api_command_status(int rc, const struct fg_error *e)
{
	if (rc < 0 && (e->code == FG_E_USAGE || e->code == FG_E_UNKNOWN))
		return 400;
	return 200;
}

char *api_command_reply(int rc, const struct fg_error *e, const char *out, size_t outlen,
			json_t *value, uint64_t job, size_t *len)
{
	json_t *o = json_pack("{s:b, s:i, s:o}", "ok", rc == 0, "exit",
			      rc == 0 ? FG_EXIT_OK : FG_EXIT_FAIL, "output",
			      api_json_text(out ? out : "", out ? outlen : 0));

	if (o && value)
		json_object_set(o, "json", value);
	if (o && rc < 0)
		json_object_set_new(o, "error",
				    json_pack("{s:s, s:o, s:s, s:s}", "code",
					      fg_errcode_name(e->code), "message",
					      api_json_text(e->message, strlen(e->message)),
					      "hint", e->hint, "path", e->path));
	if (o && job) {
		json_object_set_new(o, "id", json_integer((json_int_t)job));
		json_object_set_new(o, "state", json_string("done"));
	}
	return api_json_body(o, len);
}

/* ---------------------------------------------------------------------------
 * The queue
 */

bool api_queue_push(struct api_queue *q, void *p)
{
	if (q->n == API_QUEUE_MAX)
		return false;
	q->slot[(q->head + q->n++) % API_QUEUE_MAX] = p;
	return true;
}

void *api_queue_pop(struct api_queue *q)
{
	void *p;

	if (!q->n)
		return NULL;
	p = q->slot[q->head];
	q->head = (q->head + 1) % API_QUEUE_MAX;
	q->n--;
	return p;
}

bool api_queue_remove(struct api_queue *q, void *p)
{
	for (unsigned i = 0; i < q->n; i++) {
		if (q->slot[(q->head + i) % API_QUEUE_MAX] != p)
			continue;
		for (unsigned j = i; j + 1 < q->n; j++)
			q->slot[(q->head + j) % API_QUEUE_MAX] =
			    q->slot[(q->head + j + 1) % API_QUEUE_MAX];
		q->n--;
		return true;
	}
	return false;
}
