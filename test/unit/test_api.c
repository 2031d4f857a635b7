/*
 * test_api.c — the pure parts of the HTTP API (src/api/api_req.h):
 * the listening address ([ADDR:]PORT, loopback or not), the bearer
 * token's comparison and the Authorization header, the nesting depth of
 * a JSON text, the command request (good, malformed, too deep, too
 * large, wrong keys and types), the OTG Error body, the JSON object a
 * command printed, and the bounded queue.
 */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api_req.h"
#include "errval.h"

static void test_addr(void **state)
{
	struct api_addr a;
	char err[256];

	(void)state;
	assert_int_equal(api_parse_addr("8080", &a, err, sizeof(err)), 0);
	assert_int_equal(a.family, AF_INET);
	assert_int_equal(a.port, 8080);
	assert_true(a.loopback);
	assert_string_equal(a.text, "127.0.0.1:8080");

	assert_int_equal(api_parse_addr("127.1.2.3:1", &a, err, sizeof(err)), 0);
	assert_true(a.loopback);
	assert_int_equal(api_parse_addr("0.0.0.0:8443", &a, err, sizeof(err)), 0);
	assert_false(a.loopback);
	assert_int_equal(api_parse_addr("192.0.2.1:65535", &a, err, sizeof(err)), 0);
	assert_false(a.loopback);
	assert_int_equal(ntohs(((struct sockaddr_in *)&a.sa)->sin_port), 65535);

	assert_int_equal(api_parse_addr("[::1]:9000", &a, err, sizeof(err)), 0);
	assert_int_equal(a.family, AF_INET6);
	assert_true(a.loopback);
	assert_string_equal(a.text, "[::1]:9000");
	assert_int_equal(api_parse_addr("[2001:db8::1]:9000", &a, err, sizeof(err)), 0);
	assert_false(a.loopback);

	static const char *const bad[] = {"", "0", "65536", "-1", "80x", "host:80", "::1:80",
					  "[::1]80", "[::1", "1.2.3.4:", "1.2.3:80", ":80"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_not_equal(api_parse_addr(bad[i], &a, err, sizeof(err)), 0);
		assert_true(err[0] != '\0');
	}
}

static void test_token(void **state)
{
	(void)state;
	assert_true(api_token_equal("secret", 6, "secret", 6));
	assert_false(api_token_equal("secreT", 6, "secret", 6));
	assert_false(api_token_equal("secret", 6, "secret2", 7));
	assert_false(api_token_equal("secret2", 7, "secret", 6));
	assert_false(api_token_equal("", 0, "secret", 6));
	assert_false(api_token_equal("secret", 5, "secret", 6));

	const char *tok = "0123456789abcdef";

	assert_true(api_bearer_ok("Bearer 0123456789abcdef", tok));
	assert_true(api_bearer_ok("bearer 0123456789abcdef", tok));
	assert_true(api_bearer_ok("Bearer   0123456789abcdef", tok));
	assert_false(api_bearer_ok(NULL, tok));
	assert_false(api_bearer_ok("", tok));
	assert_false(api_bearer_ok("Bearer", tok));
	assert_false(api_bearer_ok("Bearer ", tok));
	assert_false(api_bearer_ok("Basic 0123456789abcdef", tok));
	assert_false(api_bearer_ok("Bearer0123456789abcdef", tok));
	assert_false(api_bearer_ok("Bearer 0123456789abcdeF", tok));
	assert_false(api_bearer_ok("Bearer 0123456789abcdef ", tok));
}

static void test_depth(void **state)
{
	char deep[200];

	(void)state;
	assert_int_equal(api_json_depth("", 0), 0);
	assert_int_equal(api_json_depth("1", 1), 0);
	assert_int_equal(api_json_depth("{}", 2), 1);
	assert_int_equal(api_json_depth("{\"a\":[1,{\"b\":[]}]}", 17), 4);
	/* brackets in strings, escaped quotes, do not count */
	const char *s = "{\"a\":\"[[[{{\\\"[[\"}";

	assert_int_equal(api_json_depth(s, strlen(s)), 1);
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	assert_int_equal(api_json_depth(deep, sizeof(deep)), 100);
}

static int parse(const char *body, struct api_cmd_req *r, char *err, size_t n)
{
	return api_parse_command(body, strlen(body), r, err, n);
}

static void test_command(void **state)
{
	struct api_cmd_req r;
	char err[256], *bomb;

	(void)state;
	assert_int_equal(parse("{\"command\": \"stats --json\"}", &r, err, sizeof(err)), 0);
	assert_string_equal(r.command, "stats --json");
	assert_false(r.async);
	api_cmd_req_free(&r);
	assert_int_equal(parse("{\"command\": \"wait 2\", \"async\": true}", &r, err, sizeof(err)),
			 0);
	assert_string_equal(r.command, "wait 2");
	assert_true(r.async);
	api_cmd_req_free(&r);

	static const char *const bad[] = {
	    "",
	    "{",
	    "not json",
	    "[\"stats\"]",
	    "\"stats\"",
	    "{}",
	    "{\"command\": \"\"}",
	    "{\"command\": 3}",
	    "{\"command\": \"stats\", \"async\": \"yes\"}",
	    "{\"command\": \"stats\", \"extra\": 1}",
	    "{\"command\": \"a\", \"command\": \"b\"}",
	    "{\"command\": \"a\\u0000b\"}",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(parse(bad[i], &r, err, sizeof(err)), 400);
		assert_null(r.command);
		assert_true(err[0] != '\0');
	}

	/* a depth bomb is refused before jansson recurses into it */
	size_t n = 100000;

	bomb = malloc(2 * n + 1);
	assert_non_null(bomb);
	memset(bomb, '[', n);
	memset(bomb + n, ']', n);
	bomb[2 * n] = '\0';
	assert_int_equal(api_parse_command(bomb, 2 * n, &r, err, sizeof(err)), 400);
	assert_non_null(strstr(err, "deeper"));
	free(bomb);

	/* just over 1 MiB */
	assert_int_equal(api_parse_command("{}", API_BODY_MAX + 1, &r, err, sizeof(err)), 413);
}

static void test_error_body(void **state)
{
	size_t len;
	char *s;

	(void)state;
	s = api_error_body(401, "validation", "missing \"token\"", &len);
	assert_non_null(s);
	assert_string_equal(s, "{\"code\":401,\"kind\":\"validation\",\"errors\":[\"missing "
			       "\\\"token\\\"\"]}");
	assert_int_equal(len, strlen(s));
	free(s);
	/* bytes that are not UTF-8 do not lose the message */
	s = api_error_body(500, "internal", "bad \xff byte", &len);
	assert_non_null(s);
	assert_non_null(strstr(s, "bad ? byte"));
	free(s);
}

/* The command reply carries the value and the error value as they are. */
static void test_command_reply(void **state)
{
	struct fg_error e;
	json_t *v = json_pack("{s:{s:i}}", "global", "tx_pkts", 5), *o;
	size_t len;
	char *s;

	(void)state;
	fg_error_clear(&e);
	assert_int_equal(api_command_status(0, &e), 200);
	s = api_command_reply(0, &e, "text\n", 5, v, 0, &len);
	assert_non_null(s);
	o = json_loads(s, 0, NULL);
	assert_true(json_is_true(json_object_get(o, "ok")));
	assert_int_equal(json_integer_value(json_object_get(o, "exit")), 0);
	assert_string_equal(json_string_value(json_object_get(o, "output")), "text\n");
	assert_true(json_equal(json_object_get(o, "json"), v));
	assert_null(json_object_get(o, "error"));
	json_decref(o);
	free(s);

	/* an unknown command: 400, the error value with the word at fault */
	fg_error_set(&e, FG_E_UNKNOWN, "frobnicate", "try 'help'",
		     "unknown command '%s' (try 'help')", "frobnicate");
	assert_int_equal(api_command_status(-1, &e), 400);
	s = api_command_reply(-1, &e, "", 0, NULL, 7, &len);
	o = json_loads(s, 0, NULL);
	assert_true(json_is_false(json_object_get(o, "ok")));
	assert_int_equal(json_integer_value(json_object_get(o, "exit")), 1);
	assert_null(json_object_get(o, "json"));
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "error"), "code")),
			    "unknown_command");
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "error"), "path")),
			    "frobnicate");
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "error"), "hint")),
			    "try 'help'");
	assert_int_equal(json_integer_value(json_object_get(o, "id")), 7);
	json_decref(o);
	free(s);

	/* a bad option is 400 too; a command that ran and failed is 200, ok false */
	e.code = FG_E_USAGE;
	assert_int_equal(api_command_status(-1, &e), 400);
	e.code = FG_E_REFUSED;
	assert_int_equal(api_command_status(-1, &e), 200);
	e.code = FG_E_FAILED;
	assert_int_equal(api_command_status(-1, &e), 200);
	json_decref(v);
}

static void test_queue(void **state)
{
	struct api_queue q = {0};
	int v[API_QUEUE_MAX + 1];

	(void)state;
	assert_null(api_queue_pop(&q));
	for (int i = 0; i < API_QUEUE_MAX; i++)
		assert_true(api_queue_push(&q, &v[i]));
	assert_false(api_queue_push(&q, &v[API_QUEUE_MAX])); /* full: the API answers 503 */
	assert_ptr_equal(api_queue_pop(&q), &v[0]);
	assert_true(api_queue_push(&q, &v[API_QUEUE_MAX])); /* wraps round */
	assert_true(api_queue_remove(&q, &v[5]));
	assert_false(api_queue_remove(&q, &v[5]));
	for (int i = 1; i <= API_QUEUE_MAX; i++) {
		if (i == 5)
			continue;
		assert_ptr_equal(api_queue_pop(&q), &v[i]);
	}
	assert_null(api_queue_pop(&q));
	assert_int_equal(q.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_addr),	cmocka_unit_test(test_token),
	    cmocka_unit_test(test_depth),	cmocka_unit_test(test_command),
	    cmocka_unit_test(test_error_body), cmocka_unit_test(test_command_reply),
	    cmocka_unit_test(test_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
