/*
 * cli.c — the command layer's table and dispatcher. The rows (the command
 * layer's from cmds.c, the front ends' own added after them, and the few
 * built-in scripting rows below) drive everything: dispatch, the `help`
 * listing and TAB completion (console/complete.c), and each row's options
 * (struct cli_optspec) are what its handler parses, so neither help text
 * nor completion can drift away from the command they describe.
 *
 * A line is split into words by the tokenizer (cli_tok.c: shell-like
 * quoting without expansion, the rules are in cli.h), its first word
 * names a row, and the row's handler runs with the words as argv and a
 * struct cmd_ctx for its results: text, value and error value (cli.h).
 * The console's ways in (the interactive prompt, batch and -x, in
 * console/cli_run.c) end in cli_exec_line, the API's in cli_exec with a
 * ctx of its own. What every handler uses is here too: the usage error,
 * the result value, the ports list of -p and the program's --json
 * default (cli.h).
 *
 * Context: control, on the console's thread. The interrupt flag read by cli_interrupted() is
 * set from the SIGINT handler of cli_run.c and cleared here when a
 * command begins.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"
#include "cli_tok.h"
#include "errval.h"
#include "fg.h"
#include "json.h"
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

static int cmd_help(struct cmd_ctx *x, int argc, char **argv);
static int cmd_echo(struct cmd_ctx *x, int argc, char **argv);
static int cmd_sleep(struct cmd_ctx *x, int argc, char **argv);
static int cmd_quit(struct cmd_ctx *x, int argc, char **argv);

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

struct help_arg {
	FILE *f;
	int w;
};

static void help_row(const struct cli_cmd *c, void *arg)
{
	struct help_arg *h = arg;

	fprintf(h->f, "  %-*s  %s\n", h->w, c->name, c->help ? c->help : "");
}

static int cmd_help(struct cmd_ctx *x, int argc, char **argv)
{
	struct help_arg h = {.f = x->out, .w = 0};
	const struct cli_cmd *c;

	if (argc > 2)
		return cmd_fail(x, FG_E_USAGE, argv[2], NULL, "usage: help [CMD]");
	if (argc == 2) {
		c = cli_find(argv[1]);
		if (!c)
			return cmd_fail(x, FG_E_UNKNOWN, argv[1], "try 'help'",
					"unknown command '%s' (try 'help')", argv[1]);
		fprintf(x->out, "usage: %s\n", c->usage ? c->usage : c->name);
		if (c->help)
			fprintf(x->out, "  %s\n", c->help);
		return 0;
	}
	cli_for_each_cmd(help_width, &h.w);
	fprintf(x->out, "commands:\n");
	cli_for_each_cmd(help_row, &h);
	fprintf(x->out, "'help CMD' shows how to use CMD.\n");
	return 0;
}

static int cmd_echo(struct cmd_ctx *x, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		fprintf(x->out, "%s%s", i > 1 ? " " : "", argv[i]);
	fprintf(x->out, "\n");
	return 0;
}

static int cmd_sleep(struct cmd_ctx *x, int argc, char **argv)
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
	return cmd_fail(x, FG_E_USAGE, argc > 1 ? argv[1] : NULL, NULL,
			"usage: sleep SECONDS (e.g. 2, 0.5, 200ms)");
}

static int cmd_quit(struct cmd_ctx *x, int argc, char **argv)
{
	if (argc != 1)
		return cmd_fail(x, FG_E_USAGE, argv[1], NULL, "usage: %s", argv[0]);
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

void cli_getopt_reset(void)
{
	optind = 0;
	opterr = 0;
}

int cli_getopt(int argc, char **argv, const struct cli_optspec *s)
{
	static const struct option none[] = {{NULL, 0, NULL, 0}};

	return getopt_long(argc, argv, s && s->shorts ? s->shorts : "",
			   s && s->longs ? s->longs : none, NULL);
}

/* The words cli_opt_words gave already. */
struct word_seen {
	char words[64][40];
	int n;
};

static bool seen(struct word_seen *w, const char *word)
{
	for (int i = 0; i < w->n; i++)
		if (!strcmp(w->words[i], word))
			return true;
	if (w->n < (int)FG_ARRAY_SIZE(w->words))
		snprintf(w->words[w->n++], sizeof(w->words[0]), "%s", word);
	return false;
}

void cli_opt_words(const struct cli_optspec *s, void (*fn)(const char *word, void *arg), void *arg)
{
	struct word_seen w = {.n = 0};
	char word[40];

	for (; s; s = s->next) {
		for (const char *c = s->shorts ? s->shorts : ""; *c; c++) {
			if (*c == ':' || *c == '+' || *c == '-')
				continue;
			snprintf(word, sizeof(word), "-%c", *c);
			if (!seen(&w, word))
				fn(word, arg);
		}
		for (const struct option *o = s->longs; o && o->name; o++) {
			snprintf(word, sizeof(word), "--%s", o->name);
			if (!seen(&w, word))
				fn(word, arg);
		}
		for (const char *const *k = s->words; k && *k; k++)
			if (!seen(&w, *k))
				fn(*k, arg);
	}
}

void cmd_ctx_console(struct cmd_ctx *x)
{
	*x = (struct cmd_ctx){.out = stdout, .errout = stderr};
	fg_error_clear(&x->err);
}

int cmd_fail(struct cmd_ctx *x, enum fg_errcode code, const char *path, const char *hint,
	     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fg_error_vset(&x->err, code, path, hint, fmt, ap);
	va_end(ap);
	x->err_shown = false;
	return -1;
}

void cmd_json_begin(struct cmd_ctx *x, struct jw *j, bool spaced)
{
	if (x->value)
		jw_init_value(j);
	else
		jw_init(j, x->out, spaced);
}

int cmd_json_end(struct cmd_ctx *x, struct jw *j)
{
	int rc = jw_error(j);

	if (x->value) {
		json_decref(x->result);
		x->result = jw_take(j);
		return rc;
	}
	fputc('\n', x->out);
	fflush(x->out);
	return rc;
}

struct jw *cmd_value_begin(struct cmd_ctx *x, struct jw *j)
{
	if (!x->value)
		return NULL;
	cmd_json_begin(x, j, false);
	return j;
}

int cmd_value_end(struct cmd_ctx *x, struct jw *v, int rc)
{
	if (v && cmd_json_end(x, v) < 0 && rc == 0)
		return cmd_fail(x, FG_E_INTERNAL, NULL, NULL, "out of memory");
	return rc;
}

int cmd_bad_usage(struct cmd_ctx *x, char **argv)
{
	const struct cli_cmd *c = cli_find(argv[0]);
	const char *at =
	    optind > 1 && argv[optind - 1] ? argv[optind - 1] : argv[optind > 0 ? optind : 1];

	return cmd_fail(x, FG_E_USAGE, at, NULL, "%s: bad arguments; usage: %s", argv[0],
			c ? c->usage : argv[0]);
}

int64_t cmd_parse_ports(const char *s, int nports)
{
	int64_t mask = 0;
	char *end;

	while (*s) {
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (a < 0 || b < a || b >= nports)
			return -1;
		for (long i = a; i <= b; i++)
			mask |= 1LL << i;
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return mask;
}

static bool cmd_json_default;

void cmd_set_json(bool on) { cmd_json_default = on; }

bool cmd_json(void) { return cmd_json_default; }

/*
 * The log sink of a running command: an error logged by control while the
 * command runs is its error value, when the handler sets none itself; at
 * the console the line is printed as ever, for the API it goes into the
 * command's text (the reply's "output").
 */
static bool ctx_log(void *arg, enum fg_log_level level, const char *line)
{
	struct cmd_ctx *x = arg;

	if (level == FG_LOG_ERR && x->err.code == FG_E_NONE) {
		x->err.code = FG_E_FAILED;
		snprintf(x->err.message, sizeof(x->err.message), "%s", line);
		x->err_shown = true;
	}
	if (x->out == stdout)
		return false;
	fprintf(x->out, "%s%s\n",
		level == FG_LOG_ERR ? "error: " : level == FG_LOG_WARN ? "warning: " : "", line);
	return true;
}

void cmd_show_error(struct cmd_ctx *x)
{
	char text[FG_ERRTEXT_LEN];

	if (x->err.code == FG_E_NONE || x->err_shown)
		return;
	fflush(x->out);
	fprintf(x->errout, "error: %s\n", fg_error_text(&x->err, text, sizeof(text)));
	fflush(x->errout);
	x->err_shown = true;
}

int cli_exec(struct cmd_ctx *x, const char *line)
{
	struct fg_log_sink ls = {.fn = ctx_log, .arg = x};
	size_t len = strlen(line);
	char *argv[CLI_MAX_ARGS];
	const struct cli_cmd *c;
	char *buf;
	int argc, ret;

	buf = malloc(len + 1);
	if (!buf)
		return cmd_fail(x, FG_E_INTERNAL, NULL, NULL, "out of memory");
	argc = cli_tokenize(line, argv, CLI_MAX_ARGS, buf, len + 1);
	if (argc <= 0) {
		if (argc < 0)
			cmd_fail(x, FG_E_USAGE, NULL, NULL, "%s", cli_tokenize_strerror(argc));
		ret = argc;
		goto out;
	}
	c = cli_find(argv[0]);
	if (!c || !c->fn) {
		ret = cmd_fail(x, FG_E_UNKNOWN, argv[0], "try 'help'",
			       "unknown command '%s' (try 'help')", argv[0]);
		goto out;
	}
	cli_set_interrupted(false);
	fg_log_push(&ls);
	ret = c->fn(x, argc, argv);
	fg_log_pop(&ls);
	if (ret > 0) /* not in the contract: count it as a failure */
		ret = -EIO;
	if (ret < 0 && x->err.code == FG_E_NONE) {
		/* a handler that said nothing: a value for the API, nothing more to show */
		cmd_fail(x, FG_E_FAILED, NULL, NULL, "%s failed", argv[0]);
		x->err_shown = true;
	}
	fflush(x->out);
out:
	cmd_show_error(x);
	free(buf);
	return ret;
}

int cli_exec_line(const char *line)
{
	struct cmd_ctx x;
	int rc;

	cmd_ctx_console(&x);
	rc = cli_exec(&x, line);
	json_decref(x.result);
	return rc;
}
