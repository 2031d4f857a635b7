/*
 * test_tunables.c — the one parser of `start -t KEY=VAL,...`
 * (src/core/tunables.h): numbers with a range, 0|1 switches, words, the
 * error messages the console prints, and that a failed item leaves the
 * keys after it alone.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fg.h"
#include "tunables.h"

struct opts {
	bool on;
	double secs;
	int mode;
};

static const struct tun_word mode_words[] = {{"0", 10}, {"1", 11}, {"auto", 12}};

static const struct tun_key keys[] = {
    {.name = "on", .type = TUN_BOOL, .off = offsetof(struct opts, on)},
    {.name = "secs", .type = TUN_NUM, .min = 0.5, .max = 60, .off = offsetof(struct opts, secs)},
    {.name = "mode",
     .type = TUN_WORD,
     .words = mode_words,
     .nwords = FG_ARRAY_SIZE(mode_words),
     .off = offsetof(struct opts, mode)},
};

static const struct tun_table table = {.engine = "test", .keys = keys, .nkeys = 3};
static const struct tun_table words_only = {.engine = "w", .keys = &keys[2], .nkeys = 1};

static void test_values(void **st)
{
	struct opts o = {.on = false, .secs = 1, .mode = 12};
	char err[200] = "";

	(void)st;
	assert_int_equal(tun_parse(&table, NULL, &o, err, sizeof(err)), 0);
	assert_int_equal(tun_parse(&table, "", &o, err, sizeof(err)), 0);
	assert_false(o.on);
	assert_int_equal(tun_parse(&table, "on=1,secs=2.5,mode=0", &o, err, sizeof(err)), 0);
	assert_true(o.on);
	assert_true(o.secs == 2.5);
	assert_int_equal(o.mode, 10);
	/* empty items are skipped; any non-zero number switches on */
	assert_int_equal(tun_parse(&table, ",on=0,,mode=auto,", &o, err, sizeof(err)), 0);
	assert_false(o.on);
	assert_int_equal(o.mode, 12);
	assert_int_equal(tun_parse(&table, "on=0.5,secs=60,secs=0.5", &o, err, sizeof(err)), 0);
	assert_true(o.on);
	assert_true(o.secs == 0.5);
	assert_string_equal(err, "");
}

static void test_errors(void **st)
{
	struct opts o = {.on = false, .secs = 1, .mode = 12};
	char err[200], big[300];

	(void)st;
	assert_int_equal(tun_parse(&table, "secs=61", &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-t secs=61: unknown key or value out of range "
				 "(test: on=0|1, secs=0.5..60, mode=0|1|auto)");
	assert_int_equal(tun_parse(&table, "secs=0.25", &o, err, sizeof(err)), -EINVAL);
	assert_true(o.secs == 1);
	assert_int_equal(tun_parse(&table, "bogus=1", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "-t bogus=1: unknown key"));
	assert_int_equal(tun_parse(&table, "secs=-1", &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-t secs: bad value '-1'");
	assert_int_equal(tun_parse(&table, "secs=inf", &o, err, sizeof(err)), -EINVAL);
	assert_int_equal(tun_parse(&table, "secs=nan", &o, err, sizeof(err)), -EINVAL);
	assert_int_equal(tun_parse(&table, "secs=2x", &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-t secs: bad value '2x'");
	assert_int_equal(tun_parse(&table, "secs", &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-t secs: KEY=VAL expected");
	/* a table with no range says so */
	assert_int_equal(tun_parse(&words_only, "mode=2", &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-t mode=2: unknown key or value (w: mode=0|1|auto)");
	assert_int_equal(tun_parse(&words_only, "mode=Auto", &o, err, sizeof(err)), -EINVAL);
	/* keys before the bad item are stored, those after it are not */
	assert_int_equal(tun_parse(&table, "on=1,secs=99,mode=0", &o, err, sizeof(err)), -EINVAL);
	assert_true(o.on);
	assert_int_equal(o.mode, 12);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	assert_int_equal(tun_parse(&table, big, &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-t: too long");
}

static void test_describe(void **st)
{
	char buf[16];

	(void)st;
	/* snprintf-style: the full length, the buffer cut and terminated */
	assert_int_equal(tun_describe(&table, buf, sizeof(buf)),
			 (int)strlen("on=0|1, secs=0.5..60, mode=0|1|auto"));
	assert_string_equal(buf, "on=0|1, secs=0.");
	assert_int_equal(tun_describe(&table, NULL, 0), 35);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
