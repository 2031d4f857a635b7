/*
 * cli.c — the console. One table of rows (the caller's, from cmds.c, plus
 * the few built-in scripting rows below) drives everything: dispatch, the
 * `help` listing and TAB completion, so help text can never drift away
 * from the command it describes.
 *
 * Three ways in, one dispatcher (cli_exec_line):
 *   - the interactive prompt, on libedit's native API. libedit does not get
 *     to handle signals (no EL_SIGNAL: its handler re-sends the signal to
 *     the whole process group). Instead our handlers only set flags and
 *     write a byte to a self-pipe, and our own character reader polls the
 *     terminal and that pipe together. This works whichever thread the
 *     kernel picks to run the handler (DPDK starts several), and a Ctrl-C
 *     at the prompt becomes a character bound to a function that ends the
 *     line, which the loop then throws away: never mistaken for EOF.
 *   - batch: lines from a FILE*, no prompt, no editing, no history.
 *   - -x: the same, commands separated by ';' or newlines.
 *
 * The hook set by cli_set_sigint_hook (stop the traffic) always runs on the
 * console's own thread, after the interrupted command has returned.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <histedit.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "cli.h"
#include "cli_int.h"
#include "fg.h"

#define CLI_PROMPT "flowgen> "
#define CLI_HISTFILE ".flowgen_history"
#define CLI_HISTSIZE 1000
#define CLI_DOUBLE_INTR_NS 2000000000LL /* second Ctrl-C within this quits */
#define CLI_CTRL_C 3 /* what our reader hands libedit after a SIGINT */

static const struct cli_cmd *user_cmds;
static int user_ncmds;
static void (*sigint_hook)(void);
static bool quit_flag;

/*
 * Written by the signal handlers, read by the console thread (and by
 * cli_interrupted() from wherever a handler polls it). Plain flags:
 * relaxed atomics suffice, no data is published through them.
 */
static int intr_cmd;	     /* SIGINT since the current command began */
static int intr_pending;     /* SIGINT not yet handled by the run loop */
static int intr_double;	     /* two SIGINTs less than 2 s apart */
static int64_t intr_last_ns; /* monotonic time of the last SIGINT */
static int winch_pending, cont_pending;
static int wake_wr = -1, wake_rd = -1; /* self-pipe waking the reader */
static bool intr_in_line;	       /* the ^C of this interrupt was given to libedit */

/* ---------------------------------------------------------------------------
 * Tokenizer
 */


/*
 * The one state machine behind cli_tokenize and completion. With end !=
 * NULL an open quote is not an error: its state is reported instead.
 */
int cli_tok_core(const char *s, char **argv, int max, char *buf, size_t buflen,
		 struct tok_end *end)
{
	int argc = 0;
	size_t o = 0;
	bool inword = false, comment = false;
	char q = 0;

#define TOK_PUT(c)                                                                                 \
	do {                                                                                       \
		if (o >= buflen)                                                                   \
			return -ENOSPC;                                                            \
		buf[o++] = (c);                                                                    \
	} while (0)

	if (max < 1)
		return -E2BIG;
	for (; *s; s++) {
		char ch = *s;

		if (comment) {
			if (ch == '\n')
				comment = false;
			continue;
		}
		if (q == '\'') {
			if (ch == '\'')
				q = 0;
			else
				TOK_PUT(ch);
			continue;
		}
		if (q == '"') {
			if (ch == '"') {
				q = 0;
				continue;
			}
			if (ch == '\\' && (s[1] == '"' || s[1] == '\\'))
				ch = *++s;
			TOK_PUT(ch);
			continue;
		}
		if (ch == '\\' && s[1] == '\n') { /* line continuation */
			s++;
			continue;
		}
		if (tok_space(ch)) {
			if (inword) {
				TOK_PUT('\0');
				inword = false;
			}
			continue;
		}
		if (ch == '#' && !inword) {
			comment = true;
			continue;
		}
		if (!inword) {
			if (argc >= max - 1)
				return -E2BIG;
			if (o >= buflen)
				return -ENOSPC;
			argv[argc++] = buf + o;
			inword = true;
		}
		if (ch == '\'' || ch == '"') {
			q = ch;
			continue;
		}
		if (ch == '\\' && s[1])
			ch = *++s;
		TOK_PUT(ch);
	}
	if (q && !end)
		return -EINVAL;
	if (inword)
		TOK_PUT('\0');
	argv[argc] = NULL;
	if (end) {
		end->quote = q;
		end->open_word = inword;
		end->comment = comment;
	}
	return argc;
#undef TOK_PUT
}

int cli_tokenize(const char *line, char **argv, int max, char *buf, size_t buflen)
{
	return cli_tok_core(line, argv, max, buf, buflen, NULL);
}

const char *cli_tokenize_strerror(int err)
{
	switch (err) {
	case -EINVAL:
		return "unterminated quote";
	case -E2BIG:
		return "too many words on the line";
	case -ENOSPC:
		return "line too long";
	default:
		return "cannot parse the line";
	}
}

size_t cli_cmd_span(const char *s)
{
	const char *p = s;
	bool inword = false, comment = false;
	char q = 0;

	for (; *p; p++) {
		char ch = *p;

		if (comment) {
			if (ch == '\n')
				break;
			continue;
		}
		if (q == '\'') {
			if (ch == '\'')
				q = 0;
			continue;
		}
		if (q == '"') {
			if (ch == '"')
				q = 0;
			else if (ch == '\\' && (p[1] == '"' || p[1] == '\\'))
				p++;
			continue;
		}
		if (ch == ';' || ch == '\n')
			break;
		if (tok_space(ch)) {
			inword = false;
			continue;
		}
		if (ch == '#' && !inword) {
			comment = true;
			continue;
		}
		inword = true;
		if (ch == '\'' || ch == '"')
			q = ch;
		else if (ch == '\\' && p[1])
			p++;
	}
	return (size_t)(p - s);
}

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

const struct cli_cmd *cli_find(const char *name)
{
	const struct cli_cmd *c = find_in(user_cmds, user_ncmds, name);

	return c ? c : find_in(builtin_cmds, (int)FG_ARRAY_SIZE(builtin_cmds), name);
}

/* Calls fn for every visible row: the caller's, then unshadowed built-ins. */
void cli_for_each_cmd(void (*fn)(const struct cli_cmd *, void *), void *arg)
{
	for (int i = 0; i < user_ncmds; i++)
		if (user_cmds[i].name)
			fn(&user_cmds[i], arg);
	for (size_t i = 0; i < FG_ARRAY_SIZE(builtin_cmds); i++)
		if (!find_in(user_cmds, user_ncmds, builtin_cmds[i].name))
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

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
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

	deadline = now_ns() + (int64_t)(s * 1e9);
	for (;;) {
		int64_t left = deadline - now_ns();
		struct timespec ts;

		if (cli_interrupted())
			return -EINTR;
		if (left <= 0)
			return 0;
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
	user_cmds = cmds;
	user_ncmds = cmds ? n : 0;
}

void cli_set_sigint_hook(void (*fn)(void)) { sigint_hook = fn; }

bool cli_interrupted(void) { return __atomic_load_n(&intr_cmd, __ATOMIC_RELAXED) != 0; }

bool cli_quit_requested(void) { return quit_flag; }

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
	__atomic_store_n(&intr_cmd, 0, __ATOMIC_RELAXED);
	ret = c->fn(argc, argv);
	if (ret > 0) /* not in the contract: count it as a failure */
		ret = -EIO;
	fflush(stdout);
out:
	free(buf);
	return ret;
}

/* ---------------------------------------------------------------------------
 * Signals
 */

static void on_signal(int sig)
{
	int saved = errno;

	if (sig == SIGINT) {
		int64_t now = now_ns();
		int64_t prev = __atomic_exchange_n(&intr_last_ns, now, __ATOMIC_RELAXED);

		if (prev && now - prev < CLI_DOUBLE_INTR_NS)
			__atomic_store_n(&intr_double, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&intr_cmd, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&intr_pending, 1, __ATOMIC_RELAXED);
	} else if (sig == SIGWINCH) {
		__atomic_store_n(&winch_pending, 1, __ATOMIC_RELAXED);
	} else if (sig == SIGCONT) {
		__atomic_store_n(&cont_pending, 1, __ATOMIC_RELAXED);
	}
	if (wake_wr >= 0) {
		ssize_t r = write(wake_wr, "", 1); /* full pipe: a wake-up is pending anyway */

		(void)r;
	}
	errno = saved;
}

struct sig_saved {
	struct sigaction intr, winch, cont;
	bool interactive;
};

static void sig_install(struct sig_saved *sv, bool interactive)
{
	struct sigaction sa;

	__atomic_store_n(&intr_cmd, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&intr_pending, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&intr_double, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&intr_last_ns, 0, __ATOMIC_RELAXED);
	sv->interactive = interactive;
	if (interactive) {
		int fds[2];

		if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) {
			wake_rd = fds[0];
			wake_wr = fds[1];
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a blocking read in a command sees EINTR */
	sigaction(SIGINT, &sa, &sv->intr);
	if (interactive) {
		sa.sa_flags = SA_RESTART;
		sigaction(SIGWINCH, &sa, &sv->winch);
		sigaction(SIGCONT, &sa, &sv->cont);
	}
}

static void sig_restore(struct sig_saved *sv)
{
	sigaction(SIGINT, &sv->intr, NULL);
	if (sv->interactive) {
		sigaction(SIGWINCH, &sv->winch, NULL);
		sigaction(SIGCONT, &sv->cont, NULL);
		if (wake_wr >= 0) {
			int rd = wake_rd, wr = wake_wr;

			wake_wr = wake_rd = -1;
			close(wr);
			close(rd);
		}
	}
}

/*
 * A SIGINT arrived: run the hook on this thread. Returns true if it was the
 * second one within 2 s (the caller quits).
 */
static bool handle_intr(bool interactive)
{
	__atomic_store_n(&intr_pending, 0, __ATOMIC_RELAXED);
	if (sigint_hook)
		sigint_hook();
	if (__atomic_exchange_n(&intr_double, 0, __ATOMIC_RELAXED)) {
		printf("interrupted twice: quitting\n");
		fflush(stdout);
		return true;
	}
	if (interactive)
		printf("interrupted (press Ctrl-C again within 2 s to quit)\n");
	fflush(stdout);
	return false;
}

/* ---------------------------------------------------------------------------
 * Batch and -x
 */

/* Runs one line of a batch; returns true when the run must stop. */
static bool batch_step(const char *line, bool keep_going, bool *failed)
{
	bool stop = false;

	if (cli_exec_line(line) < 0) {
		*failed = true;
		stop = !keep_going;
	}
	if (__atomic_load_n(&intr_pending, __ATOMIC_RELAXED)) {
		handle_intr(false);
		fg_err("interrupted");
		*failed = true;
		stop = true;
	}
	return stop || quit_flag;
}

int cli_run_batch(FILE *in, bool keep_going)
{
	struct sig_saved sv;
	bool failed = false;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	quit_flag = false;
	sig_install(&sv, false);
	for (;;) {
		n = getline(&line, &cap, in);
		if (n < 0) {
			if (__atomic_load_n(&intr_pending, __ATOMIC_RELAXED)) {
				handle_intr(false);
				fg_err("interrupted");
				failed = true;
			}
			break;
		}
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if (batch_step(line, keep_going, &failed))
			break;
	}
	free(line);
	sig_restore(&sv);
	return failed ? FG_EXIT_FAIL : FG_EXIT_OK;
}

int cli_run_exec(const char *cmds, bool keep_going)
{
	struct sig_saved sv;
	bool failed = false;
	const char *p = cmds;

	quit_flag = false;
	sig_install(&sv, false);
	while (*p) {
		size_t len = cli_cmd_span(p);
		char *one = strndup(p, len);

		if (!one) {
			fg_err("out of memory");
			failed = true;
			break;
		}
		bool stop = batch_step(one, keep_going, &failed);

		free(one);
		if (stop)
			break;
		p += len;
		if (*p)
			p++; /* the ';' or newline */
	}
	sig_restore(&sv);
	return failed ? FG_EXIT_FAIL : FG_EXIT_OK;
}

static char *el_prompt(EditLine *e)
{
	static char prompt[] = CLI_PROMPT;

	(void)e;
	return prompt;
}

static void print_matches(char **m, int n)
{
	struct winsize ws;
	int cols = 80, w = 0, per, rows;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		cols = ws.ws_col;
	for (int i = 0; i < n; i++)
		w = FG_MAX(w, (int)strlen(m[i]));
	w += 2;
	per = FG_MAX(1, cols / w);
	rows = (n + per - 1) / per;
	printf("\n");
	for (int r = 0; r < rows; r++) {
		for (int k = 0; k < per; k++) {
			int i = k * rows + r;

			if (i < n)
				printf("%-*s", i + rows < n ? w : 0, m[i]);
		}
		printf("\n");
	}
	fflush(stdout);
}

static unsigned char el_complete_fn(EditLine *e, int ch)
{
	const LineInfo *li = el_line(e);
	struct cli_completion c;
	unsigned char ret;
	char *pre;

	(void)ch;
	pre = strndup(li->buffer, (size_t)(li->cursor - li->buffer));
	if (!pre)
		return CC_ERROR;
	if (cli_complete(pre, &c) < 0) {
		free(pre);
		return CC_REFRESH_BEEP;
	}
	free(pre);
	if (c.insert[0]) {
		ret = el_insertstr(e, c.insert) == 0 ? CC_REFRESH : CC_ERROR;
	} else if (c.n > 1) {
		print_matches(c.matches, c.n);
		ret = CC_REDISPLAY;
	} else {
		ret = CC_REFRESH_BEEP;
	}
	cli_completion_free(&c);
	return ret;
}

/*
 * Bound to ^C: shows "^C" at the end of the line and ends it (through a
 * pushed newline, so libedit moves to a fresh line as for Enter); the run
 * loop then discards the line as interrupted.
 */
static unsigned char el_intr_fn(EditLine *e, int ch)
{
	const LineInfo *li = el_line(e);

	(void)ch;
	__atomic_store_n(&intr_pending, 1, __ATOMIC_RELAXED);
	intr_in_line = true;
	el_cursor(e, (int)(li->lastchar - li->cursor));
	el_insertstr(e, "^C");
	el_push(e, "\n");
	return CC_REFRESH;
}

/*
 * libedit's character reader: waits on the terminal and the self-pipe so
 * that a signal is seen at once, whichever thread it was delivered to.
 */
static int el_getc_fn(EditLine *e, wchar_t *wc)
{
	static mbstate_t mbs;
	struct pollfd p[2];
	char b;

	for (;;) {
		if (__atomic_load_n(&intr_pending, __ATOMIC_RELAXED) && !intr_in_line) {
			memset(&mbs, 0, sizeof(mbs));
			*wc = CLI_CTRL_C;
			return 1;
		}
		if (__atomic_exchange_n(&winch_pending, 0, __ATOMIC_RELAXED))
			el_resize(e);
		if (__atomic_exchange_n(&cont_pending, 0, __ATOMIC_RELAXED)) {
			/* back from Ctrl-Z: the shell may have reset the terminal */
			el_set(e, EL_PREP_TERM, 0);
			el_set(e, EL_PREP_TERM, 1);
			el_set(e, EL_REFRESH);
		}
		p[0].fd = STDIN_FILENO;
		p[0].events = POLLIN;
		p[1].fd = wake_rd;
		p[1].events = POLLIN;
		p[0].revents = p[1].revents = 0;
		if (poll(p, wake_rd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (p[1].revents) {
			char drain[64];

			while (read(wake_rd, drain, sizeof(drain)) > 0)
				;
		}
		if (!p[0].revents)
			continue;
		ssize_t n = read(STDIN_FILENO, &b, 1);

		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		wchar_t w;
		size_t k = mbrtowc(&w, &b, 1, &mbs);

		if (k == (size_t)-2)
			continue; /* more bytes of this character to come */
		if (k == (size_t)-1) {
			memset(&mbs, 0, sizeof(mbs));
			w = (unsigned char)b;
		}
		*wc = w;
		return 1;
	}
}

static void hist_path(char *p, size_t n)
{
	const char *home = getenv("HOME");

	if (!home || !*home) {
		struct passwd *pw = getpwuid(getuid());

		home = pw ? pw->pw_dir : NULL;
	}
	if (home)
		snprintf(p, n, "%s/%s", home, CLI_HISTFILE);
	else
		p[0] = '\0';
}

static bool blank(const char *s)
{
	for (; *s; s++)
		if (!tok_space(*s))
			return false;
	return true;
}

int cli_run_interactive(void)
{
	struct termios saved_tty;
	bool have_tty = tcgetattr(STDIN_FILENO, &saved_tty) == 0;
	char hpath[PATH_MAX];
	struct sig_saved sv;
	HistEvent ev;
	History *hist;
	EditLine *el;

	quit_flag = false;
	setlocale(LC_CTYPE, "");
	el = el_init("flowgen", stdin, stdout, stderr);
	hist = history_init();
	if (!el || !hist) {
		if (el)
			el_end(el);
		if (hist)
			history_end(hist);
		fg_warn("line editing unavailable, reading commands without it");
		return cli_run_batch(stdin, true);
	}
	history(hist, &ev, H_SETSIZE, CLI_HISTSIZE);
	history(hist, &ev, H_SETUNIQUE, 1);
	hist_path(hpath, sizeof(hpath));
	if (hpath[0])
		history(hist, &ev, H_LOAD, hpath); /* a missing file is fine */

	el_set(el, EL_EDITOR, "emacs");
	el_set(el, EL_SIGNAL, 0); /* our handlers, see the top of the file */
	el_set(el, EL_HIST, history, hist);
	el_set(el, EL_PROMPT, el_prompt);
	el_set(el, EL_GETCFN, el_getc_fn);
	el_set(el, EL_ADDFN, "fg-complete", "complete a command, option or path", el_complete_fn);
	el_set(el, EL_ADDFN, "fg-intr", "discard the line (Ctrl-C)", el_intr_fn);
	el_set(el, EL_BIND, "^I", "fg-complete", NULL);
	el_set(el, EL_BIND, "^C", "fg-intr", NULL);

	sig_install(&sv, true);
	for (;;) {
		const char *got;
		char *line;
		int n = 0;

		if (__atomic_load_n(&intr_pending, __ATOMIC_RELAXED) && handle_intr(true))
			break;
		fflush(stdout);
		intr_in_line = false;
		got = el_gets(el, &n);
		if (__atomic_load_n(&intr_pending, __ATOMIC_RELAXED))
			continue; /* Ctrl-C: the line is dropped, handled at the top */
		if (!got || n <= 0) {
			printf("\n"); /* EOF (Ctrl-D): leave the shell a clean line */
			break;
		}
		line = strdup(got);
		if (!line)
			break;
		if (n > 0 && line[strlen(line) - 1] == '\n')
			line[strlen(line) - 1] = '\0';
		if (!blank(line)) {
			history(hist, &ev, H_ENTER, line);
			if (hpath[0])
				history(hist, &ev, H_SAVE, hpath);
		}
		/* commands see the terminal exactly as flowgen found it */
		if (have_tty)
			tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_tty);
		cli_exec_line(line);
		free(line);
		if (__atomic_load_n(&intr_pending, __ATOMIC_RELAXED))
			printf("\n"); /* the terminal echoed ^C mid-line */
		if (quit_flag)
			break;
	}
	sig_restore(&sv);
	el_end(el);
	history_end(hist);
	if (have_tty)
		tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_tty);
	fflush(stdout);
	return FG_EXIT_OK;
}
