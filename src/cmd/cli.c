/*
 * cli.c — the console's command table and dispatcher. One table of rows
 * (the caller's, from cmds.c, plus the few built-in scripting rows below)
 * drives everything: dispatch, the `help` listing and TAB completion
 * (complete.c), so help text can never drift away from the command it
 * describes.
 *
 * A line is split into words by the tokenizer (cli_tok.c: shell-like
 * quoting without expansion, the rules are in cli.h), its first word names a row, and the
 * row's handler runs with the words as argv. The console's ways in (the
 * interactive prompt, batch and -x, in cli_run.c) all end in
 * cli_exec_line.
 *
 * Context: control, on the console's thread. The interrupt flag read by cli_interrupted() is
 * set from the SIGINT handler of cli_run.c and cleared here when a
 * command begins.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_tok.h"
#include "fg.h"
#include "log.h"
#include "tsc.h"

/* The installed tables, in order (cli_init, cli_add). */
static struct {
	const struct cli_cmd *rows;
	int n;
} tabs[CLI_MAX_TABLES];
static int ntabs;
static bool quit_flag;

/*
 * SIGINT since the current command began: set by the signal handler
 * (cli_set_interrupted), cleared when a run and when a command begins,
 * read by cli_interrupted() wherever a command polls it. A plain flag:
 * relaxed atomics suffice, no data is published through it.
 */
static int intr_cmd;

/* The flag of the layer below that follows intr_cmd (cli_set_cancel_hook). */
static void (*cancel_hook)(bool on);

/* The extra descriptor the console waits on, and what runs when it is readable. */
static int poll_fd = -1;
static void (*poll_fn)(void);

/* ---------------------------------------------------------------------------
 * Built-in rows
 */

static int cmd_help(int argc, char **argv);
static int cmd_echo(int argc, char **argv);
static int cmd_sleep(int argc, char **argv);
static int cmd_quit(int argc, char **argv);

static const struct cli_cmd builtin_cmds[] = {
    {"help", cmd_help, "help [CMD]", "list the commands, or show how to use one", NULL,
     CLI_F_CMDARG},
    {"echo", cmd_echo, "echo TEXT...", "print TEXT", NULL, 0},
    {"sleep", cmd_sleep, "sleep SECONDS",
     "pause SECONDS (fractions allowed, or Nms); Ctrl-C interrupts", NULL, 0},
    {"quit", cmd_quit, "quit", "leave flowgen", NULL, 0},
    {"exit", cmd_quit, "exit", "leave flowgen (same as quit)", NULL, 0},
};

static const struct cli_cmd *find_in(const struct cli_cmd *t, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (t[i].name && !strcmp(t[i].name, name))
			return &t[i];
	return NULL;
}

/* The row of that name in the first `upto` tables, or NULL. */
static const struct cli_cmd *find_tabs(int upto, const char *name)
{
	for (int t = 0; t < upto; t++) {
		const struct cli_cmd *c = find_in(tabs[t].rows, tabs[t].n, name);

		if (c)
			return c;
	}
	return NULL;
}

const struct cli_cmd *cli_find(const char *name)
{
	const struct cli_cmd *c = find_tabs(ntabs, name);

	return c ? c : find_in(builtin_cmds, (int)FG_ARRAY_SIZE(builtin_cmds), name);
}

void cli_for_each_cmd(void (*fn)(const struct cli_cmd *, void *), void *arg)
{
	for (int t = 0; t < ntabs; t++)
		for (int i = 0; i < tabs[t].n; i++)
			if (tabs[t].rows[i].name && !find_tabs(t, tabs[t].rows[i].name))
				fn(&tabs[t].rows[i], arg);
	for (size_t i = 0; i < FG_ARRAY_SIZE(builtin_cmds); i++)
		if (!find_tabs(ntabs, builtin_cmds[i].name))
			fn(&builtin_cmds[i], arg);
}

static void help_width(const struct cli_cmd *c, void *arg)
{
	int *w = arg;
	int l = (int)strlen(c->name);

	if (l > *w)
		*w = l;
}

static void help_row(const struct cli_cmd *c, void *arg)
{
	printf("  %-*s  %s\n", *(int *)arg, c->name, c->help ? c->help : "");
}

static int cmd_help(int argc, char **argv)
{
	const struct cli_cmd *c;
	int w = 0;

	if (argc > 2) {
		fg_err("usage: help [CMD]");
		return -EINVAL;
	}
	if (argc == 2) {
		c = cli_find(argv[1]);
		if (!c) {
			fg_err("unknown command '%s' (try 'help')", argv[1]);
			return -ENOENT;
		}
		printf("usage: %s\n", c->usage ? c->usage : c->name);
		if (c->help)
			printf("  %s\n", c->help);
		return 0;
	}
	cli_for_each_cmd(help_width, &w);
	printf("commands:\n");
	cli_for_each_cmd(help_row, &w);
	printf("'help CMD' shows how to use CMD.\n");
	return 0;
}

static int cmd_echo(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printf("%s%s", i > 1 ? " " : "", argv[i]);
	printf("\n");
	return 0;
}

static int cmd_sleep(int argc, char **argv)
{
	char *end;
	double s;
	int64_t deadline;

	if (argc != 2)
		goto usage;
	errno = 0;
	s = strtod(argv[1], &end);
	if (end == argv[1] || errno || !(s >= 0) || s > 1e7)
		goto usage;
	if (!strcmp(end, "ms"))
		s /= 1000;
	else if (*end && strcmp(end, "s"))
		goto usage;

	deadline = fg_mono_ns() + (int64_t)(s * 1e9);
	for (;;) {
		int64_t left = deadline - fg_mono_ns();
		struct timespec ts;

		if (cli_interrupted())
			return -EINTR;
		if (left <= 0)
			return 0;
		cli_poll_now(); /* the API's requests run while the console sleeps */
		left = FG_MIN(left, 50000000LL); /* wake up to look at Ctrl-C */
		ts.tv_sec = 0;
		ts.tv_nsec = left;
		nanosleep(&ts, NULL);
	}
usage:
	fg_err("usage: sleep SECONDS (e.g. 2, 0.5, 200ms)");
	return -EINVAL;
}

static int cmd_quit(int argc, char **argv)
{
	if (argc != 1) {
		fg_err("usage: %s", argv[0]);
		return -EINVAL;
	}
	quit_flag = true;
	return 0;
}

/* ---------------------------------------------------------------------------
 * Dispatch
 */

void cli_init(const struct cli_cmd *cmds, int n)
{
	ntabs = 0;
	if (cmds)
		(void)cli_add(cmds, n);
}

int cli_add(const struct cli_cmd *cmds, int n)
{
	if (ntabs == CLI_MAX_TABLES)
		return -ENOSPC;
	tabs[ntabs].rows = cmds;
	tabs[ntabs].n = n;
	ntabs++;
	return 0;
}

bool cli_interrupted(void) { return __atomic_load_n(&intr_cmd, __ATOMIC_RELAXED) != 0; }

void cli_set_interrupted(bool on)
{
	__atomic_store_n(&intr_cmd, on ? 1 : 0, __ATOMIC_RELAXED);
	if (cancel_hook)
		cancel_hook(on);
}

void cli_set_cancel_hook(void (*fn)(bool on)) { cancel_hook = fn; }

bool cli_quit_requested(void) { return quit_flag; }

void cli_quit_reset(void) { quit_flag = false; }

void cli_set_poll(int fd, void (*fn)(void))
{
	poll_fd = fn ? fd : -1;
	poll_fn = fn;
}

int cli_poll_fd(void) { return poll_fd; }

void cli_poll_run(void)
{
	if (poll_fn)
		poll_fn();
}

void cli_poll_now(void)
{
	struct pollfd p = {.fd = poll_fd, .events = POLLIN};

	if (poll_fd >= 0 && poll(&p, 1, 0) > 0)
		cli_poll_run();
}

int cli_exec_line(const char *line)
{
	size_t len = strlen(line);
	char *argv[CLI_MAX_ARGS];
	const struct cli_cmd *c;
	char *buf;
	int argc, ret;

	buf = malloc(len + 1);
	if (!buf) {
		fg_err("out of memory");
		return -ENOMEM;
	}
	argc = cli_tokenize(line, argv, CLI_MAX_ARGS, buf, len + 1);
	if (argc <= 0) {
		if (argc < 0)
			fg_err("%s", cli_tokenize_strerror(argc));
		ret = argc;
		goto out;
	}
	c = cli_find(argv[0]);
	if (!c || !c->fn) {
		fg_err("unknown command '%s' (try 'help')", argv[0]);
		ret = -ENOENT;
		goto out;
	}
	cli_set_interrupted(false);
	ret = c->fn(argc, argv);
	if (ret > 0) /* not in the contract: count it as a failure */
		ret = -EIO;
	fflush(stdout);
out:
	free(buf);
	return ret;
}
