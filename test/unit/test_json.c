/*
 * test_json.c — the JSON writer of every --json (src/core/json.h): string
 * escaping (quotes, backslash, control characters, UTF-8 passed through,
 * bytes that are not UTF-8 replaced), numbers (never NaN or infinity:
 * null), separators at every level of nesting, and the spaced form; and
 * the value sink (a jansson tree) built by the same calls.
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

#include <jansson.h>

#include "json.h"

static char *mem;
static size_t memlen;

static struct jw *open_mem(struct jw *j, bool spaced)
{
	FILE *f = open_memstream(&mem, &memlen);

	assert_non_null(f);
	jw_init(j, f, spaced);
	return j;
}

/* close the stream and check what it holds */
static void expect(struct jw *j, const char *want)
{
	assert_int_equal(jw_error(j), 0);
	fclose(j->f);
	assert_string_equal(mem, want);
	free(mem);
	mem = NULL;
}

static void quoted(const char *s, const char *want)
{
	struct jw j;

	open_mem(&j, false);
	jw_str(&j, NULL, s);
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
	struct jw j;

	(void)st;
	open_mem(&j, false);
	jw_arr(&j, NULL);
	jw_num(&j, NULL, 1.0 / 3, 2);
	jw_num(&j, NULL, 2.5, 0);
	jw_num(&j, NULL, NAN, 3);
	jw_num(&j, NULL, INFINITY, 3);
	jw_num(&j, NULL, -INFINITY, JW_G);
	jw_num(&j, NULL, 0.05, JW_G);
	jw_num(&j, NULL, 1e20, JW_G);
	jw_u64(&j, NULL, UINT64_MAX);
	jw_i64(&j, NULL, INT64_MIN);
	jw_bool(&j, NULL, true);
	jw_null(&j, NULL);
	jw_str(&j, NULL, NULL);
	jw_arr_end(&j);
	expect(&j, "[0.33,2,null,null,null,0.05,1e+20,18446744073709551615,"
		   "-9223372036854775808,true,null,null]");
}

static void test_nesting(void **st)
{
	struct jw j;

	(void)st;
	open_mem(&j, false);
	jw_obj(&j, NULL);
	jw_obj(&j, "empty");
	jw_obj_end(&j);
	jw_arr(&j, "none");
	jw_arr_end(&j);
	jw_arr(&j, "rows");
	jw_obj(&j, NULL);
	jw_u64(&j, "a", 1);
	jw_arr(&j, "b");
	jw_u64(&j, NULL, 2);
	jw_arr(&j, NULL);
	jw_arr_end(&j);
	jw_u64(&j, NULL, 3);
	jw_arr_end(&j);
	jw_obj_end(&j);
	jw_obj(&j, NULL);
	jw_obj_end(&j);
	jw_arr_end(&j);
	jw_str(&j, "k\"ey", "v");
	jw_obj_end(&j);
	expect(&j, "{\"empty\":{},\"none\":[],\"rows\":[{\"a\":1,\"b\":[2,[],3]},{}],"
		   "\"k\\\"ey\":\"v\"}");
}

static void test_spaced(void **st)
{
	struct jw j;

	(void)st;
	open_mem(&j, true);
	jw_obj(&j, NULL);
	jw_obj(&j, "capture");
	jw_bool(&j, "running", false);
	jw_num(&j, "seconds", 1.5, 3);
	jw_obj_end(&j);
	jw_obj_end(&j);
	expect(&j, "{\"capture\": {\"running\": false, \"seconds\": 1.500}}");
}

/* The same calls, through the value sink: the value, and its dump as the text sink's JSON. */
static void write_sample(struct jw *j)
{
	jw_obj(j, NULL);
	jw_str(j, "s", "a\"b\xff");
	jw_bool(j, "t", true);
	jw_null(j, "n");
	jw_u64(j, "u", UINT64_C(18446744073709551615) / 4);
	jw_i64(j, "i", -5);
	jw_num(j, "f", 12.3456, 2);
	jw_num(j, "g", 1234567.0, JW_G);
	jw_num(j, "nan", NAN, 3);
	jw_arr(j, "a");
	jw_u64(j, NULL, 1);
	jw_obj(j, NULL);
	jw_obj_end(j);
	jw_arr_end(j);
	jw_obj_end(j);
}

static void test_value(void **st)
{
	struct jw j, t;
	json_t *v, *fromtext;
	char *dump = NULL;
	size_t len = 0;
	FILE *f;

	(void)st;
	jw_init_value(&j);
	write_sample(&j);
	assert_int_equal(jw_error(&j), 0);
	v = jw_take(&j);
	assert_non_null(v);
	assert_null(jw_take(&j)); /* taken: the writer keeps nothing */
	assert_string_equal(json_string_value(json_object_get(v, "s")), "a\"b\xef\xbf\xbd");
	assert_true(json_is_true(json_object_get(v, "t")));
	assert_true(json_is_null(json_object_get(v, "n")));
	assert_true(json_integer_value(json_object_get(v, "u")) == (json_int_t)(UINT64_MAX / 4));
	assert_int_equal(json_integer_value(json_object_get(v, "i")), -5);
	assert_true(json_real_value(json_object_get(v, "f")) == 12.35);
	assert_true(json_real_value(json_object_get(v, "g")) == 1.23457e6);
	assert_true(json_is_null(json_object_get(v, "nan")));
	assert_int_equal(json_array_size(json_object_get(v, "a")), 2);

	/* the text sink's output reads back as the same value */
	open_mem(&t, false);
	write_sample(&t);
	fclose(t.f);
	fromtext = json_loads(mem, 0, NULL);
	assert_non_null(fromtext);
	assert_true(json_equal(v, fromtext));
	free(mem);
	mem = NULL;

	/* and jw_dump prints the numbers as the text has them, less trailing zeros */
	f = open_memstream(&dump, &len);
	assert_int_equal(jw_dump(f, v, false), 0);
	fclose(f);
	assert_non_null(strstr(dump, "\"f\":12.35,"));
	assert_non_null(strstr(dump, "\"g\":1234570.0,"));
	free(dump);
	json_decref(fromtext);
	json_decref(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_escape),
	    cmocka_unit_test(test_numbers),
	    cmocka_unit_test(test_nesting),
	    cmocka_unit_test(test_spaced),
	    cmocka_unit_test(test_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
