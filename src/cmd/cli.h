/*
 * cli.h — the console: one command table drives dispatch, `help` and TAB
 * completion, whether commands come from the interactive libedit prompt,
 * from a batch stream (stdin that is not a terminal, or --batch) or from
 * -x's ';'-separated string.
 *
 * The caller (cmds.c) passes its table of rows to cli_init(); the console
 * adds its own rows (help, echo, sleep, quit, exit) after them. A caller row
 * with the same name as a built-in one wins.
 *
 * Lines are split into words like a shell does it, without expansion:
 * whitespace separates words; '...' keeps everything literal; "..." keeps
 * everything but \" and \\; outside quotes a backslash escapes the next
 * character; quoted pieces glue to their neighbours (a"b c"d is one word);
 * '#' at the start of a word begins a comment that runs to the end of line.
 *
 * SIGINT: while a cli_run_* function runs, SIGINT only sets flags. The
 * running command sees cli_interrupted() and should return early; the
 * console then calls the hook set with cli_set_sigint_hook() (from its own
 * thread, never from the signal handler), prints a note and goes on. At the
 * prompt a second SIGINT within 2 s ends cli_run_interactive(); in batch and
 * -x mode a SIGINT ends the run (status FG_EXIT_FAIL).
 *
 * Included by: cmd, console, api.
 */
#ifndef FG_CLI_H
#define FG_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "fg.h"

#define CLI_MAX_ARGS 64 /* words per command line, argv[argc] = NULL included */

/* Row flags: what TAB completes for words after the command name. */
enum cli_flag {
	CLI_F_FILEARG = 1u << 0, /* paths after -f / --file / --from */
	CLI_F_PATHARG = 1u << 1, /* paths for every word that is not an option */
	CLI_F_CMDARG = 1u << 2,	 /* command names (as for `help CMD`) */
};

struct json_t; /* jansson's */
struct cli_optspec;

/*
 * What a command runs with and returns: the command layer's result. A
 * handler writes its text rendering on `out` (stdout at the console, a
 * memory stream for the HTTP API; never stdout itself), builds its value
 * in `result` when it has one (stats --json, bench --json, bench nat
 * --json: with `value` set, the JSON is built as a value instead of
 * printed), and on failure returns <0 with `err` saying why (cmd_fail).
 * Messages that control logs while the command runs (fg_info, fg_warn,
 * fg_err from this thread) go where the front end's ctx says: to the
 * terminal at the console, into `out` for the API; an error logged that
 * way also becomes `err` when the handler set none.
 */
struct cmd_ctx {
	FILE *out;		/* the text rendering */
	FILE *errout;		/* progress lines and errors: stderr, or out for the API */
	bool value;		/* build --json output as `result`, do not print it */
	struct json_t *result;	/* the result value (NULL: none); the caller owns it */
	struct fg_error err;	/* why it failed; code FG_E_NONE when nothing was set */
	bool err_shown;		/* err was logged already (it came from a log line) */
};

/*
 * control: getopt_long over argv with the spec's first form (optind and
 * opterr reset at optind 0: set optind = 0 before the first call, as
 * cli_getopt_reset does). Returns what getopt_long returns.
 */
int cli_getopt(int argc, char **argv, const struct cli_optspec *s);
void cli_getopt_reset(void);

/*
 * pure: fn for every word of every form of s, in order, duplicates left
 * out: "-x" for each short option, "--name" for each long one, then the
 * keywords.
 */
void cli_opt_words(const struct cli_optspec *s, void (*fn)(const char *word, void *arg), void *arg);

/* The console's ctx: text on stdout, errors on stderr, --json printed. */
void cmd_ctx_console(struct cmd_ctx *x);

/*
 * control: fail with an error value: sets x->err (code, the argument at
 * fault or NULL, a hint or NULL, the message) and returns -1. The
 * dispatcher shows it ("error: MESSAGE (HINT)", fg_error_text) on x->errout.
 */
int cmd_fail(struct cmd_ctx *x, enum fg_errcode code, const char *path, const char *hint,
	     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * control: show x->err on x->errout now ("error: MESSAGE (HINT)"), once: a
 * handler that goes on after a failure (arp's next port) shows each as it
 * comes; the dispatcher shows the last when the handler returns.
 */
void cmd_show_error(struct cmd_ctx *x);
/*
 * control: a JSON writer for the command's --json output: on x->out as
 * text, or (x->value) building the result value; cmd_json_end takes the
 * value into x->result, or ends the text with a newline. 0 or <0.
 */
struct jw;
void cmd_json_begin(struct cmd_ctx *x, struct jw *j, bool spaced);
int cmd_json_end(struct cmd_ctx *x, struct jw *j);

/*
 * control: the handler's result value, when its front end asks for one
 * (x->value, the API): j begun as a value and returned; NULL otherwise,
 * and the handler only writes its text. cmd_value_end(x, v, rc) takes v
 * (NULL: nothing) and returns rc, or fails (FG_E_INTERNAL) when rc was 0
 * and the value could not be built.
 */
struct jw *cmd_value_begin(struct cmd_ctx *x, struct jw *j);
int cmd_value_end(struct cmd_ctx *x, struct jw *v, int rc);

/*
 * control: a usage error of the command argv[0] (its row's usage line):
 * the argument at fault is the one getopt stopped at (an unknown option,
 * a bad value) or the first one left over. Returns -1 (cmd_fail).
 */
int cmd_bad_usage(struct cmd_ctx *x, char **argv);

/* pure: "0,1" or "0-3" as a bit mask of ports below nports; -1 on a bad list. */
int64_t cmd_parse_ports(const char *s, int nports);

/* control: the program's --json default (flowgen --json), where the
 * commands with a --json option start from; cmds_init sets it. */
void cmd_set_json(bool on);
bool cmd_json(void);

/*
 * A command's options as data: getopt_long's two tables, which the handler
 * parses its argv with (cli_getopt), TAB completion offers (as "-x" and
 * "--name"), and the row's usage line and flowgen(8)'s synopsis must list
 * (test_cmdtab checks that the four agree); words are the command's
 * keywords that are not options (subcommands, test names). A command of
 * several forms (bench and bench nat, capture start and capture status)
 * chains one spec per form.
 */
struct cli_optspec {
	const char *shorts;		/* getopt's optstring ("p:"), or NULL */
	const struct option *longs;	/* getopt_long's table, {0}-ended, or NULL */
	const char *const *words;	/* NULL-ended, or NULL */
	const struct cli_optspec *next; /* the next form, or NULL */
};

struct cli_cmd {
	const char *name; /* "start" */
	/* argv[0] = name, argv[argc] = NULL; 0 ok, <0 failed (x->err or a logged error says why) */
	int (*fn)(struct cmd_ctx *x, int argc, char **argv);
	const char *usage;		  /* "start -f PROFILE [-m MULT] ..." */
	const char *help;		  /* one line */
	const struct cli_optspec *opts;	  /* its options, or NULL for none */
	unsigned flags;			  /* enum cli_flag bits */
};

/*
 * control: install the caller's table (kept by pointer, not copied; it must
 * outlive the console). May be called again to replace it, and every
 * table added with cli_add.
 */
void cli_init(const struct cli_cmd *cmds, int n);

/*
 * control: one more table after those installed (the front ends' own
 * rows: the console's `tui`, the API's `api` and `otg`), up to
 * CLI_MAX_TABLES in all; -ENOSPC past that. An earlier table's row of the
 * same name wins.
 */
#define CLI_MAX_TABLES 4
int cli_add(const struct cli_cmd *cmds, int n);

/* control: the row named `name` (caller's rows first, then built-ins), or NULL. */
const struct cli_cmd *cli_find(const char *name);

/*
 * control: tokenize and run one line with the console's ctx. Empty lines
 * and comments do nothing. Returns 0, or <0 if the command failed or the
 * line could not be parsed (an error has been printed). The interrupt
 * flag is cleared first.
 */
int cli_exec_line(const char *line);

/*
 * control: as cli_exec_line, with the caller's ctx (the API's): an
 * unknown command is FG_E_UNKNOWN, a line that does not tokenize
 * FG_E_USAGE, in x->err. x->result is the caller's to free.
 */
int cli_exec(struct cmd_ctx *x, const char *line);

/*
 * control: the interactive prompt "flowgen> " on stdin/stdout (libedit),
 * history in ~/.flowgen_history, TAB completion. Returns FG_EXIT_OK on
 * quit/exit, EOF (Ctrl-D) or a double Ctrl-C. The terminal is left exactly
 * as it was found.
 */
int cli_run_interactive(void);

/*
 * control: read commands from `in`, one per line, no prompt, no editing.
 * Stops at the first failing command unless keep_going, and at quit/exit.
 * Returns FG_EXIT_FAIL if any command run failed (or SIGINT), else FG_EXIT_OK.
 */
int cli_run_batch(FILE *in, bool keep_going);

/* control: as cli_run_batch, for -x: commands separated by ';' or newlines. */
int cli_run_exec(const char *cmds, bool keep_going);


/*
 * control: TAB completion for the text before the cursor. On return
 * c->insert holds what to insert at the cursor (possibly ""); when several
 * candidates remain, c->matches lists them (c->n of them, sorted) for
 * display. Returns 0, or -ENOENT if nothing matches. Free with
 * cli_completion_free().
 */
struct cli_completion {
	char *insert;
	char **matches;
	int n;
};
int cli_complete(const char *before_cursor, struct cli_completion *c);
void cli_completion_free(struct cli_completion *c);

/* control: fn is called from the console's thread after a SIGINT (e.g. stop traffic). */
void cli_set_sigint_hook(void (*fn)(void));

/* any context (async-signal-safe read): SIGINT since the current command began. */
bool cli_interrupted(void);

/*
 * The flag the layer below polls (control's, ctl_set_cancel) follows the
 * interrupt flag: fn(true) when a SIGINT arrives, fn(false) when a command
 * begins. fn runs in the signal handler: it must be async-signal-safe.
 */
void cli_set_cancel_hook(void (*fn)(bool on));

/* control: quit/exit was run in the current cli_run_*. */
bool cli_quit_requested(void);

/*
 * control: one more descriptor the console waits on (the HTTP API's
 * wake-up, api.h): fn runs on the console's thread whenever fd is
 * readable, at the prompt, between the lines of a batch or -x script,
 * while `sleep` and `wait` wait, and in cli_serve. fd < 0 removes it. fn
 * may run commands (cli_exec_line); after one that ran quit, the console
 * ends as if quit had been typed.
 */
void cli_set_poll(int fd, void (*fn)(void));

/* control: run the poll function if its descriptor is readable, without blocking. */
void cli_poll_now(void);

/*
 * control: after a batch or -x script, wait on the poll descriptor alone
 * and run its function, until quit (run through it), SIGINT or SIGTERM.
 * Returns at once when there is no poll descriptor or a SIGINT ended the
 * script.
 */
void cli_serve(void);

/* control: fn for every visible row: the tables' in order, then unshadowed built-ins. */
void cli_for_each_cmd(void (*fn)(const struct cli_cmd *, void *), void *arg);

/*
 * any context, async-signal-safe: set (a SIGINT arrived) or clear the flag
 * that cli_interrupted() reads.
 */
void cli_set_interrupted(bool on);

/* control: the descriptor of cli_set_poll (-1: none) and its function. */
int cli_poll_fd(void);
void cli_poll_run(void);

/* control: forget a quit/exit of an earlier run; each cli_run_* begins so. */
void cli_quit_reset(void);

#endif
