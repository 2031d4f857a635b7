/*
 * test_cli.c — the console without a terminal: the tokenizer, ';'
 * splitting for -x, dispatch through a fake command table, help, batch runs
 * from a memory FILE*, quit, SIGINT handling and TAB completion.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"
#include "cli_tok.h"
#include "fg.h"

/* ---- fake command table ---- */

static int rec_calls;
static int rec_argc;
static char rec_argv[CLI_MAX_ARGS][64];
static bool rec_saw_null_end;
static bool rec_saw_intr;
static int fail_calls;
static int hook_calls;
static int myecho_calls;

static int cmd_rec(struct cmd_ctx *x, int argc, char **argv)
{
	(void)x;
	rec_calls++;
	rec_argc = argc;
	for (int i = 0; i < argc && i < CLI_MAX_ARGS; i++)
		snprintf(rec_argv[i], sizeof(rec_argv[i]), "%s", argv[i]);
	rec_saw_null_end = argv[argc] == NULL;
	rec_saw_intr = cli_interrupted();
	return 0;
}

static int cmd_alwaysfail(struct cmd_ctx *x, int argc, char **argv)
{
	(void)x;
	(void)argc;
	(void)argv;
	fail_calls++;
	return -EIO;
}

static int cmd_positive(struct cmd_ctx *x, int argc, char **argv)
{
	(void)x;
	(void)argc;
	(void)argv;
	return 1;
}

static int cmd_raise(struct cmd_ctx *x, int argc, char **argv)
{
	(void)x;
	(void)argc;
	(void)argv;
	raise(SIGINT);
	return cli_interrupted() ? -EINTR : 0;
}

static int cmd_myecho(struct cmd_ctx *x, int argc, char **argv)
{
	(void)x;
	(void)argc;
	(void)argv;
	myecho_calls++;
	return 0;
}

static void hook(void) { hook_calls++; }

static const struct option rec_longs[] = {{"force", no_argument, NULL, 'F'},
					  {"file", required_argument, NULL, 'f'},
					  {NULL, 0, NULL, 0}};
static const struct cli_optspec rec_spec = {.shorts = "f:m:", .longs = rec_longs};

static const struct cli_cmd table[] = {
    {"rec", cmd_rec, "rec [ARGS...]", "record its arguments", &rec_spec, CLI_F_FILEARG},
    {"recpath", cmd_rec, "recpath PATH", "any word is a path", NULL, CLI_F_PATHARG},
    {"fail", cmd_alwaysfail, "fail", "always fails", NULL, 0},
    {"positive", cmd_positive, "positive", "returns 1", NULL, 0},
    {"raise", cmd_raise, "raise", "sends itself SIGINT", NULL, 0},
    {"start", cmd_rec, "start -f PROFILE [-m MULT]", "start traffic", &rec_spec, CLI_F_FILEARG},
    {"stats", cmd_rec, "stats [-g]", "statistics", NULL, 0},
    {"stop", cmd_rec, "stop", "stop traffic", NULL, 0},
    {"service", cmd_rec, "service [--off]", "service mode", NULL, 0},
    {"echo", cmd_myecho, "echo MINE", "the caller's echo shadows the built-in", NULL, 0},
};

static int setup(void **state)
{
	(void)state;
	cli_init(table, (int)FG_ARRAY_SIZE(table));
	cli_set_sigint_hook(hook);
	rec_calls = rec_argc = fail_calls = hook_calls = myecho_calls = 0;
	rec_saw_intr = false;
	memset(rec_argv, 0, sizeof(rec_argv));
	return 0;
}

/* ---- capturing stdout / stderr ---- */

struct capture {
	int fd, saved;
	FILE *tmp;
	char text[8192];
};

static void capture_begin(struct capture *c, int fd)
{
	fflush(stdout);
	fflush(stderr);
	c->fd = fd;
	c->tmp = tmpfile();
	assert_non_null(c->tmp);
	c->saved = dup(fd);
	assert_true(c->saved >= 0);
	assert_true(dup2(fileno(c->tmp), fd) >= 0);
}

static const char *capture_end(struct capture *c)
{
	size_t n;

	fflush(stdout);
	fflush(stderr);
	dup2(c->saved, c->fd);
	close(c->saved);
	rewind(c->tmp);
	n = fread(c->text, 1, sizeof(c->text) - 1, c->tmp);
	c->text[n] = '\0';
	fclose(c->tmp);
	return c->text;
}

/* ---- tokenizer ---- */

static int tok(const char *line, char **argv, char *buf)
{
	return cli_tokenize(line, argv, CLI_MAX_ARGS, buf, strlen(line) + 1);
}

static void test_tokenize_words(void **state)
{
	char *argv[CLI_MAX_ARGS], buf[256];

	(void)state;
	assert_int_equal(tok("  start -f\tx.yaml   -m 10kpps ", argv, buf), 5);
	assert_string_equal(argv[0], "start");
	assert_string_equal(argv[1], "-f");
	assert_string_equal(argv[2], "x.yaml");
	assert_string_equal(argv[3], "-m");
	assert_string_equal(argv[4], "10kpps");
	assert_null(argv[5]);

	assert_int_equal(tok("", argv, buf), 0);
	assert_null(argv[0]);
	assert_int_equal(tok(" \t  ", argv, buf), 0);
}

static void test_tokenize_quotes_escapes(void **state)
{
	char *argv[CLI_MAX_ARGS], buf[256];
	const char *line =
	    "echo 'a  b' \"c \\\"d\\\" \\\\e \\x\" f\\ g h'i j'\"k\" '' \"\" 'it\"s'";

	(void)state;
	assert_int_equal(tok(line, argv, buf), 8);
	assert_string_equal(argv[1], "a  b");
	assert_string_equal(argv[2], "c \"d\" \\e \\x"); /* \x stays in "" */
	assert_string_equal(argv[3], "f g");
	assert_string_equal(argv[4], "hi jk");
	assert_string_equal(argv[5], "");
	assert_string_equal(argv[6], "");
	assert_string_equal(argv[7], "it\"s");

	/* single quotes keep backslashes; a trailing backslash is literal */
	assert_int_equal(tok("a '\\n' b\\", argv, buf), 3);
	assert_string_equal(argv[1], "\\n");
	assert_string_equal(argv[2], "b\\");
	/* backslash-newline continues the word */
	assert_int_equal(tok("ab\\\ncd", argv, buf), 1);
	assert_string_equal(argv[0], "abcd");
}

static void test_tokenize_comments(void **state)
{
	char *argv[CLI_MAX_ARGS], buf[256];

	(void)state;
	assert_int_equal(tok("# only a comment", argv, buf), 0);
	assert_int_equal(tok("   #indented", argv, buf), 0);
	assert_int_equal(tok("echo a#b # rest 'unterminated", argv, buf), 2);
	assert_string_equal(argv[1], "a#b");
	assert_int_equal(tok("echo '#x' \"#y\" \\#z", argv, buf), 4);
	assert_string_equal(argv[1], "#x");
	assert_string_equal(argv[2], "#y");
	assert_string_equal(argv[3], "#z");
	/* a comment ends at a newline */
	assert_int_equal(tok("a # c\nb", argv, buf), 2);
	assert_string_equal(argv[1], "b");
}

static void test_tokenize_errors(void **state)
{
	char *argv[CLI_MAX_ARGS], buf[512], line[512];
	size_t o = 0;

	(void)state;
	assert_int_equal(tok("echo 'abc", argv, buf), -EINVAL);
	assert_int_equal(tok("echo \"abc\\\"", argv, buf), -EINVAL);
	assert_non_null(strstr(cli_tokenize_strerror(-EINVAL), "unterminated quote"));

	/* max - 1 words fit (argv[argc] = NULL), one more does not */
	for (int i = 0; i < CLI_MAX_ARGS - 1; i++)
		o += (size_t)snprintf(line + o, sizeof(line) - o, "w%d ", i);
	assert_int_equal(tok(line, argv, buf), CLI_MAX_ARGS - 1);
	assert_string_equal(argv[CLI_MAX_ARGS - 2], "w62");
	assert_null(argv[CLI_MAX_ARGS - 1]);
	snprintf(line + o, sizeof(line) - o, "one-more");
	assert_int_equal(tok(line, argv, buf), -E2BIG);
	assert_int_equal(cli_tokenize("a b c", argv, 3, buf, sizeof(buf)), -E2BIG);
	assert_int_equal(cli_tokenize("a b", argv, 3, buf, sizeof(buf)), 2);

	/* too small a buffer is reported, never overrun */
	assert_int_equal(cli_tokenize("abcdef", argv, 4, buf, 3), -ENOSPC);
	assert_int_equal(cli_tokenize("abc", argv, 4, buf, 4), 1);
}

static void test_tokenize_error_messages_printed(void **state)
{
	struct capture c;

	(void)state;
	capture_begin(&c, STDERR_FILENO);
	assert_true(cli_exec_line("rec 'oops") < 0);
	assert_non_null(strstr(capture_end(&c), "unterminated quote"));
	assert_int_equal(rec_calls, 0);
}

/* ---- ';' splitting for -x ---- */

static void test_cmd_span(void **state)
{
	(void)state;
	assert_int_equal(cli_cmd_span("echo a; echo b"), 6);
	assert_int_equal(cli_cmd_span("echo a;echo b"), 6);
	assert_int_equal(cli_cmd_span("echo \"a;b\"; x"), 10);
	assert_int_equal(cli_cmd_span("echo 'a;b'; x"), 10);
	assert_int_equal(cli_cmd_span("echo a\\;b; x"), 9);
	assert_int_equal(cli_cmd_span("echo a\necho b"), 6);
	assert_int_equal(cli_cmd_span("echo # c; d\nnext"), 11);
	assert_int_equal(cli_cmd_span("echo a#b; c"), 8);
	assert_int_equal(cli_cmd_span("no separator"), 12);
	assert_int_equal(cli_cmd_span("'open; quote"), 12);
	assert_int_equal(cli_cmd_span(""), 0);
	assert_int_equal(cli_cmd_span(";"), 0);
}

/* ---- dispatch ---- */

static void test_dispatch(void **state)
{
	(void)state;
	assert_int_equal(cli_exec_line("rec one 'two words' \"three\""), 0);
	assert_int_equal(rec_calls, 1);
	assert_int_equal(rec_argc, 4);
	assert_string_equal(rec_argv[0], "rec");
	assert_string_equal(rec_argv[1], "one");
	assert_string_equal(rec_argv[2], "two words");
	assert_string_equal(rec_argv[3], "three");
	assert_true(rec_saw_null_end);

	assert_int_equal(cli_exec_line(""), 0);
	assert_int_equal(cli_exec_line("   # nothing"), 0);
	assert_int_equal(rec_calls, 1);

	assert_true(cli_exec_line("fail") < 0);
	assert_int_equal(fail_calls, 1);
	assert_true(cli_exec_line("positive") < 0); /* outside the contract: a failure */
}

static void test_unknown_command(void **state)
{
	struct capture c;
	int rc;

	(void)state;
	capture_begin(&c, STDERR_FILENO);
	rc = cli_exec_line("foo bar");
	assert_string_equal(capture_end(&c), "error: unknown command 'foo' (try 'help')\n");
	assert_true(rc < 0);
	assert_int_equal(rec_calls, 0);
	/* no prefix matching */
	assert_true(cli_exec_line("re") < 0);
	assert_int_equal(rec_calls, 0);
}

static void test_find_and_shadowing(void **state)
{
	const struct cli_cmd *c;

	(void)state;
	c = cli_find("start");
	assert_non_null(c);
	assert_string_equal(c->usage, "start -f PROFILE [-m MULT]");
	assert_non_null(cli_find("help"));
	assert_non_null(cli_find("sleep"));
	assert_non_null(cli_find("quit"));
	assert_non_null(cli_find("exit"));
	assert_null(cli_find("nope"));

	/* the caller's "echo" wins over the built-in */
	assert_int_equal(cli_exec_line("echo hi"), 0);
	assert_int_equal(myecho_calls, 1);
	assert_ptr_equal(cli_find("echo"), &table[FG_ARRAY_SIZE(table) - 1]);
}

static void test_builtin_echo(void **state)
{
	struct capture c;

	(void)state;
	cli_init(table, 3); /* rec, recpath, fail: no echo of the caller's */
	capture_begin(&c, STDOUT_FILENO);
	assert_int_equal(cli_exec_line("echo  hello   'big  world' # not printed"), 0);
	assert_string_equal(capture_end(&c), "hello big  world\n");
}

static void test_help(void **state)
{
	struct capture c;
	const char *out;
	int rc;

	(void)state;
	capture_begin(&c, STDOUT_FILENO);
	rc = cli_exec_line("help start");
	out = capture_end(&c);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "usage: start -f PROFILE [-m MULT]"));
	assert_non_null(strstr(out, "start traffic"));

	capture_begin(&c, STDOUT_FILENO);
	rc = cli_exec_line("help");
	out = capture_end(&c);
	assert_int_equal(rc, 0);
	for (size_t i = 0; i < FG_ARRAY_SIZE(table); i++) {
		char want[128];

		snprintf(want, sizeof(want), " %s ", table[i].name);
		assert_non_null(strstr(out, want));
		assert_non_null(strstr(out, table[i].help));
	}
	assert_non_null(strstr(out, " sleep "));
	assert_non_null(strstr(out, " quit "));
	/* the built-in echo is shadowed, so its help does not show */
	assert_null(strstr(out, "print TEXT"));

	capture_begin(&c, STDERR_FILENO);
	rc = cli_exec_line("help nosuch");
	out = capture_end(&c);
	assert_true(rc < 0);
	assert_non_null(strstr(out, "unknown command 'nosuch'"));
}

/* ---- batch and -x ---- */

static int run_batch_str(const char *text, bool keep_going)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	rc = cli_run_batch(f, keep_going);
	fclose(f);
	return rc;
}

static void test_batch_ok(void **state)
{
	(void)state;
	assert_int_equal(run_batch_str("rec 1\n\n# comment\n  rec 2 'x y'\nrec 3", false),
			 FG_EXIT_OK);
	assert_int_equal(rec_calls, 3); /* last line without a newline runs too */
	assert_int_equal(rec_argc, 2);
	assert_string_equal(rec_argv[1], "3");
	assert_false(cli_quit_requested());
}

static void test_batch_stops_at_failure(void **state)
{
	(void)state;
	assert_int_equal(run_batch_str("rec 1\nfail\nrec 2\n", false), FG_EXIT_FAIL);
	assert_int_equal(rec_calls, 1);
	assert_int_equal(fail_calls, 1);

	/* a parse error or an unknown command is a failure too */
	rec_calls = 0;
	assert_int_equal(run_batch_str("nosuch\nrec 2\n", false), FG_EXIT_FAIL);
	assert_int_equal(rec_calls, 0);
	assert_int_equal(run_batch_str("rec 'open\nrec 2\n", false), FG_EXIT_FAIL);
	assert_int_equal(rec_calls, 0);
}

static void test_batch_keep_going(void **state)
{
	(void)state;
	assert_int_equal(run_batch_str("rec 1\nfail\nnosuch\nrec 2\n", true), FG_EXIT_FAIL);
	assert_int_equal(rec_calls, 2);
	assert_int_equal(fail_calls, 1);
	assert_string_equal(rec_argv[1], "2");
	rec_calls = 0;
	assert_int_equal(run_batch_str("rec 1\nrec 2\n", true), FG_EXIT_OK);
	assert_int_equal(rec_calls, 2);
}

static void test_batch_quit(void **state)
{
	(void)state;
	assert_int_equal(run_batch_str("rec 1\nquit\nrec 2\n", false), FG_EXIT_OK);
	assert_int_equal(rec_calls, 1);
	assert_true(cli_quit_requested());
	/* status so far: a failure before quit is kept (keep_going) */
	rec_calls = 0;
	assert_int_equal(run_batch_str("fail\nexit\nrec 2\n", true), FG_EXIT_FAIL);
	assert_int_equal(rec_calls, 0);
	assert_true(cli_quit_requested());
	/* a new run starts without the quit */
	assert_int_equal(run_batch_str("rec 3\n", false), FG_EXIT_OK);
	assert_false(cli_quit_requested());
	/* quit takes no arguments */
	assert_int_equal(run_batch_str("quit now\nrec 4\n", true), FG_EXIT_FAIL);
	assert_false(cli_quit_requested());
	assert_string_equal(rec_argv[1], "4");
}

static void test_exec(void **state)
{
	(void)state;
	assert_int_equal(cli_run_exec("rec 'a;b' c\\;d; rec 2;rec 3 # c; rec 4\nrec 5", false),
			 FG_EXIT_OK);
	assert_int_equal(rec_calls, 4);
	assert_string_equal(rec_argv[1], "5");

	rec_calls = 0;
	assert_int_equal(cli_run_exec("rec 'a;b' c\\;d", false), FG_EXIT_OK);
	assert_int_equal(rec_argc, 3);
	assert_string_equal(rec_argv[1], "a;b");
	assert_string_equal(rec_argv[2], "c;d");

	rec_calls = 0;
	assert_int_equal(cli_run_exec("rec 1; fail; rec 2", false), FG_EXIT_FAIL);
	assert_int_equal(rec_calls, 1);
	rec_calls = 0;
	assert_int_equal(cli_run_exec("rec 1; fail; rec 2", true), FG_EXIT_FAIL);
	assert_int_equal(rec_calls, 2);
	rec_calls = 0;
	assert_int_equal(cli_run_exec("rec 1; quit; rec 2", false), FG_EXIT_OK);
	assert_int_equal(rec_calls, 1);
	assert_true(cli_quit_requested());
	assert_int_equal(cli_run_exec(";; ;", false), FG_EXIT_OK);
	assert_int_equal(cli_run_exec("", false), FG_EXIT_OK);
}

/* ---- sleep and SIGINT ---- */

static double elapsed_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static void test_sleep(void **state)
{
	struct timespec t0;
	struct capture c;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(cli_run_exec("sleep 0.1; sleep 50ms", false), FG_EXIT_OK);
	assert_true(elapsed_since(&t0) >= 0.15);
	assert_true(elapsed_since(&t0) < 2.0);

	capture_begin(&c, STDERR_FILENO);
	assert_true(cli_exec_line("sleep") < 0);
	assert_true(cli_exec_line("sleep -1") < 0);
	assert_true(cli_exec_line("sleep abc") < 0);
	assert_true(cli_exec_line("sleep 1h") < 0);
	assert_true(cli_exec_line("sleep nan") < 0);
	assert_non_null(strstr(capture_end(&c), "usage: sleep"));
}

static void test_sigint_stops_batch(void **state)
{
	struct sigaction before, after;

	(void)state;
	sigaction(SIGINT, NULL, &before);
	assert_int_equal(cli_run_exec("rec 1; raise; rec 2", true), FG_EXIT_FAIL);
	sigaction(SIGINT, NULL, &after);
	assert_int_equal(rec_calls, 1); /* even with keep_going */
	assert_int_equal(hook_calls, 1);
	assert_ptr_equal(before.sa_handler, after.sa_handler); /* disposition restored */

	/* the interrupted flag does not leak into the next command */
	assert_int_equal(cli_run_exec("rec 3", false), FG_EXIT_OK);
	assert_false(rec_saw_intr);
	assert_int_equal(hook_calls, 1);
}

static void *send_sigint_later(void *arg)
{
	(void)arg;
	usleep(100000);
	kill(getpid(), SIGINT);
	return NULL;
}

static void test_sigint_interrupts_sleep(void **state)
{
	struct timespec t0;
	struct capture c;
	pthread_t th;
	int rc;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(pthread_create(&th, NULL, send_sigint_later, NULL), 0);
	capture_begin(&c, STDERR_FILENO);
	rc = cli_run_exec("sleep 5; rec after", true);
	capture_end(&c);
	pthread_join(th, NULL);
	assert_int_equal(rc, FG_EXIT_FAIL);
	assert_true(elapsed_since(&t0) < 2.0);
	assert_int_equal(hook_calls, 1);
	assert_int_equal(rec_calls, 0);
	assert_non_null(strstr(c.text, "interrupted"));
}

/* ---- completion ---- */

static void complete_ok(const char *pre, const char *insert, int n)
{
	struct cli_completion c;

	assert_int_equal(cli_complete(pre, &c), 0);
	assert_string_equal(c.insert, insert);
	assert_int_equal(c.n, n);
	cli_completion_free(&c);
}

static void test_complete_commands(void **state)
{
	struct cli_completion c;

	(void)state;
	complete_ok("ser", "vice ", 0);
	complete_ok("  ser", "vice ", 0);
	complete_ok("sl", "eep ", 0); /* built-ins are completed too */
	assert_int_equal(cli_complete("st", &c), 0);
	assert_string_equal(c.insert, "");
	assert_int_equal(c.n, 3);
	assert_string_equal(c.matches[0], "start");
	assert_string_equal(c.matches[1], "stats");
	assert_string_equal(c.matches[2], "stop");
	cli_completion_free(&c);
	complete_ok("sta", "", 2);
	complete_ok("star", "t ", 0);
	complete_ok("help ser", "vice ", 0); /* help completes command names */
	assert_int_equal(cli_complete("zzz", &c), -ENOENT);
	assert_int_equal(cli_complete("nosuch -", &c), -ENOENT);
	assert_int_equal(cli_complete("# ser", &c), -ENOENT);
}

static void test_complete_options(void **state)
{
	struct cli_completion c;

	(void)state;
	complete_ok("rec --fo", "rce ", 0);
	complete_ok("rec --f", "", 2); /* --file, --force */
	assert_int_equal(cli_complete("rec -", &c), 0);
	assert_int_equal(c.n, 4);
	cli_completion_free(&c);
	complete_ok("start x -m", " ", 0);
	assert_int_equal(cli_complete("stats -", &c), -ENOENT); /* no options listed */
}

static void test_complete_paths(void **state)
{
	char dir[] = "/tmp/test_cli.XXXXXX", p[512], pre[600];
	const char *files[] = {"nat.yaml", "nat2.yaml", "sp ace.yaml", ".hidden"};
	struct cli_completion c;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < FG_ARRAY_SIZE(files); i++) {
		FILE *f;

		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		f = fopen(p, "w");
		assert_non_null(f);
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/sub", dir);
	assert_int_equal(mkdir(p, 0700), 0);

	snprintf(pre, sizeof(pre), "start -f %s/n", dir);
	complete_ok(pre, "at", 2); /* common part inserted, both listed */
	snprintf(pre, sizeof(pre), "start -f %s/nat", dir);
	assert_int_equal(cli_complete(pre, &c), 0);
	assert_string_equal(c.insert, "");
	assert_int_equal(c.n, 2);
	cli_completion_free(&c);
	snprintf(pre, sizeof(pre), "start -f %s/nat2", dir);
	complete_ok(pre, ".yaml ", 0);
	snprintf(pre, sizeof(pre), "start -f %s/sp", dir); /* escaped for the line */
	complete_ok(pre, "\\ ace.yaml ", 0);
	snprintf(pre, sizeof(pre), "start -f '%s/sp", dir); /* inside quotes: closed */
	complete_ok(pre, " ace.yaml' ", 0);
	snprintf(pre, sizeof(pre), "start -f %s/su", dir); /* a directory: no space */
	complete_ok(pre, "b/", 0);
	snprintf(pre, sizeof(pre), "start -f %s/.h", dir); /* dot files only on request */
	complete_ok(pre, "idden ", 0);
	snprintf(pre, sizeof(pre), "start -f %s/", dir);
	assert_int_equal(cli_complete(pre, &c), 0);
	assert_int_equal(c.n, 4); /* nat.yaml nat2.yaml sp ace.yaml sub/ */
	cli_completion_free(&c);
	snprintf(pre, sizeof(pre), "recpath %s/nat2", dir); /* CLI_F_PATHARG */
	complete_ok(pre, ".yaml ", 0);
	snprintf(pre, sizeof(pre), "stats %s/nat2", dir); /* no path flag: nothing */
	assert_int_equal(cli_complete(pre, &c), -ENOENT);
	snprintf(pre, sizeof(pre), "start -m %s/nat2", dir); /* not after -f */
	assert_int_equal(cli_complete(pre, &c), -ENOENT);

	for (size_t i = 0; i < FG_ARRAY_SIZE(files); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		unlink(p);
	}
	snprintf(p, sizeof(p), "%s/sub", dir);
	rmdir(p);
	rmdir(dir);
}

/* the ports list of -p: "0,1", "0-3", both mixed; ports below nports only */
static void test_parse_ports(void **state)
{
	(void)state;
	assert_int_equal(cmd_parse_ports("0", 2), 1);
	assert_int_equal(cmd_parse_ports("0,1", 2), 3);
	assert_int_equal(cmd_parse_ports("1-3", 4), 14);
	assert_int_equal(cmd_parse_ports("0,2-3", 4), 13);
	assert_int_equal(cmd_parse_ports("0-1,1", 2), 3);
	assert_int_equal(cmd_parse_ports("2", 2), -1);	 /* no such port */
	assert_int_equal(cmd_parse_ports("0-3", 2), -1); /* beyond the last */
	assert_int_equal(cmd_parse_ports("1-0", 2), -1); /* backwards */
	assert_int_equal(cmd_parse_ports("-1", 2), -1);
	assert_int_equal(cmd_parse_ports("0,", 2), 1); /* a trailing comma ends the list */
	assert_int_equal(cmd_parse_ports("0;1", 2), -1);
	assert_int_equal(cmd_parse_ports("x", 2), -1);
	assert_int_equal(cmd_parse_ports("", 2), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_tokenize_words, setup),
	    cmocka_unit_test_setup(test_tokenize_quotes_escapes, setup),
	    cmocka_unit_test_setup(test_tokenize_comments, setup),
	    cmocka_unit_test_setup(test_tokenize_errors, setup),
	    cmocka_unit_test_setup(test_tokenize_error_messages_printed, setup),
	    cmocka_unit_test_setup(test_cmd_span, setup),
	    cmocka_unit_test_setup(test_dispatch, setup),
	    cmocka_unit_test_setup(test_unknown_command, setup),
	    cmocka_unit_test_setup(test_find_and_shadowing, setup),
	    cmocka_unit_test_setup(test_builtin_echo, setup),
	    cmocka_unit_test_setup(test_help, setup),
	    cmocka_unit_test_setup(test_batch_ok, setup),
	    cmocka_unit_test_setup(test_batch_stops_at_failure, setup),
	    cmocka_unit_test_setup(test_batch_keep_going, setup),
	    cmocka_unit_test_setup(test_batch_quit, setup),
	    cmocka_unit_test_setup(test_exec, setup),
	    cmocka_unit_test_setup(test_sleep, setup),
	    cmocka_unit_test_setup(test_sigint_stops_batch, setup),
	    cmocka_unit_test_setup(test_sigint_interrupts_sleep, setup),
	    cmocka_unit_test_setup(test_complete_commands, setup),
	    cmocka_unit_test_setup(test_complete_options, setup),
	    cmocka_unit_test_setup(test_complete_paths, setup),
	    cmocka_unit_test(test_parse_ports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
