/*
 * test_json.c — the JSON writer of every --json (src/core/json.h): string
 * escaping (quotes, backslash, control characters, UTF-8 passed through,
 * bytes that are not UTF-8 replaced), numbers (never NaN or infinity:
 * null), separators at every level of nesting, and the spaced form.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json.h"

static char *mem;
static size_t memlen;

static struct json *open_mem(struct json *j, bool spaced)
{
	FILE *f = open_memstream(&mem, &memlen);

	assert_non_null(f);
	json_init(j, f, spaced);
	return j;
}

/* close the stream and check what it holds */
static void expect(struct json *j, const char *want)
{
	assert_int_equal(json_error(j), 0);
	fclose(j->f);
	assert_string_equal(mem, want);
	free(mem);
	mem = NULL;
}

static void quoted(const char *s, const char *want)
{
	struct json j;

	open_mem(&j, false);
	json_str(&j, NULL, s);
	expect(&j, want);
}

static void test_escape(void **st)
{
	(void)st;
	quoted("plain", "\"plain\"");
	quoted("", "\"\"");
	quoted("a\"b\\c", "\"a\\\"b\\\\c\"");
	quoted("\n\t\r\x01\x1f", "\"\\u000a\\u0009\\u000d\\u0001\\u001f\"");
	quoted("/ \x7f", "\"/ \x7f\"");
	/* valid UTF-8 passes through: 2, 3 and 4 bytes */
	quoted("\xc3\xbc \xe2\x82\xac \xf0\x9f\x98\x80", "\"\xc3\xbc \xe2\x82\xac \xf0\x9f\x98\x80\"");
	/* not UTF-8: each bad byte one U+FFFD */
	quoted("a\xff" "b", "\"a\\ufffdb\"");
	quoted("\xc3", "\"\\ufffd\"");			      /* cut short at the end */
	quoted("\xc3(", "\"\\ufffd(\"");		      /* bad continuation */
	quoted("\xc0\xaf", "\"\\ufffd\\ufffd\"");	      /* overlong '/' */
	quoted("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\""); /* overlong, 3 bytes */
	quoted("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""); /* a surrogate */
	quoted("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* above U+10FFFF */
	quoted("\x80x", "\"\\ufffdx\"");		      /* a lone continuation byte */
}

static void test_numbers(void **st)
{
	struct json j;

	(void)st;
	open_mem(&j, false);
	json_arr(&j, NULL);
	json_num(&j, NULL, 1.0 / 3, 2);
	json_num(&j, NULL, 2.5, 0);
	json_num(&j, NULL, NAN, 3);
	json_num(&j, NULL, INFINITY, 3);
	json_num(&j, NULL, -INFINITY, JSON_G);
	json_num(&j, NULL, 0.05, JSON_G);
	json_num(&j, NULL, 1e20, JSON_G);
	json_u64(&j, NULL, UINT64_MAX);
	json_i64(&j, NULL, INT64_MIN);
	json_bool(&j, NULL, true);
	json_null(&j, NULL);
	json_str(&j, NULL, NULL);
	json_arr_end(&j);
	expect(&j, "[0.33,2,null,null,null,0.05,1e+20,18446744073709551615,"
		   "-9223372036854775808,true,null,null]");
}

static void test_nesting(void **st)
{
	struct json j;

	(void)st;
	open_mem(&j, false);
	json_obj(&j, NULL);
	json_obj(&j, "empty");
	json_obj_end(&j);
	json_arr(&j, "none");
	json_arr_end(&j);
	json_arr(&j, "rows");
	json_obj(&j, NULL);
	json_u64(&j, "a", 1);
	json_arr(&j, "b");
	json_u64(&j, NULL, 2);
	json_arr(&j, NULL);
	json_arr_end(&j);
	json_u64(&j, NULL, 3);
	json_arr_end(&j);
	json_obj_end(&j);
	json_obj(&j, NULL);
	json_obj_end(&j);
	json_arr_end(&j);
	json_str(&j, "k\"ey", "v");
	json_obj_end(&j);
	expect(&j, "{\"empty\":{},\"none\":[],\"rows\":[{\"a\":1,\"b\":[2,[],3]},{}],"
		   "\"k\\\"ey\":\"v\"}");
}

static void test_spaced(void **st)
{
	struct json j;

	(void)st;
	open_mem(&j, true);
	json_obj(&j, NULL);
	json_obj(&j, "capture");
	json_bool(&j, "running", false);
	json_num(&j, "seconds", 1.5, 3);
	json_obj_end(&j);
	json_obj_end(&j);
	expect(&j, "{\"capture\": {\"running\": false, \"seconds\": 1.500}}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_escape),
	    cmocka_unit_test(test_numbers),
	    cmocka_unit_test(test_nesting),
	    cmocka_unit_test(test_spaced),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
