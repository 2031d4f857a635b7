/*
 * cli_run.c — the console's three ways in, all ending in one dispatcher
 * (cli_exec_line, cli.c):
 *   - the interactive prompt, on libedit's native API, with history in
 *     ~/.flowgen_history and TAB completion (complete.c). libedit does not
 *     get to handle signals (no EL_SIGNAL: its handler re-sends the signal
 *     to the whole process group). Instead our handlers only set flags and
 *     write a byte to a self-pipe, and our own character reader polls the
 *     terminal and that pipe together. This works whichever thread the
 *     kernel picks to run the handler (DPDK starts several), and a Ctrl-C
 *     at the prompt becomes a character bound to a function that ends the
 *     line, which the loop then throws away: never mistaken for EOF.
 *   - batch: lines from a FILE*, no prompt, no editing, no history.
 *   - -x: the same, commands separated by ';' or newlines.
 * With a poll descriptor set (cli_set_poll: the HTTP API's wake-up), each
 * of them also waits on it and runs its function between commands, and
 * cli_serve waits on it alone once a script has ended.
 *
 * Context: control. main() runs one of cli_run_interactive, cli_run_batch
 * and cli_run_exec on its own thread, which is the console's thread from
 * then on; on_signal runs in whichever thread the kernel picks and only
 * sets flags. The hook set by cli_set_sigint_hook (stop the traffic)
 * always runs on the console's own thread, after the interrupted command
 * has returned.
 */
#define _GNU_SOURCE
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
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "cli.h"
#include "cli_tok.h"
#include "fg.h"
#include "log.h"
#include "tsc.h"

#define CLI_PROMPT "flowgen> "
#define CLI_HISTFILE ".flowgen_history"
#define CLI_HISTSIZE 1000
#define CLI_DOUBLE_INTR_NS 2000000000LL /* second Ctrl-C within this quits */
#define CLI_CTRL_C 3 /* what our reader hands libedit after a SIGINT */

static void (*sigint_hook)(void);

/*
 * Written by the signal handlers, read by the console thread. Plain flags:
 * relaxed atomics suffice, no data is published through them.
 */
static int intr_pending;     /* SIGINT not yet handled by the run loop */
static int intr_double;	     /* two SIGINTs less than 2 s apart */
static int64_t intr_last_ns; /* monotonic time of the last SIGINT */
static int winch_pending, cont_pending;
static int wake_wr = -1, wake_rd = -1; /* self-pipe waking the reader */
static bool intr_in_line;	       /* the ^C of this interrupt was given to libedit */
static int intr_seen;		       /* a SIGINT (or SIGTERM) came at any time */

/* ---------------------------------------------------------------------------
 * Signals
 */

void cli_set_sigint_hook(void (*fn)(void)) { sigint_hook = fn; }

static void on_signal(int sig)
{
	int saved = errno;

	if (sig == SIGINT) {
		int64_t now = fg_mono_ns();
		int64_t prev = __atomic_exchange_n(&intr_last_ns, now, __ATOMIC_RELAXED);

		if (prev && now - prev < CLI_DOUBLE_INTR_NS)
			__atomic_store_n(&intr_double, 1, __ATOMIC_RELAXED);
		cli_set_interrupted(true);
		__atomic_store_n(&intr_pending, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&intr_seen, 1, __ATOMIC_RELAXED);
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

	cli_set_interrupted(false);
	__atomic_store_n(&intr_pending, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&intr_double, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&intr_last_ns, 0, __ATOMIC_RELAXED);
	sv->interactive = interactive;
	if (interactive || cli_poll_fd() >= 0) {
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
	}
	if (wake_wr >= 0) {
		int rd = wake_rd, wr = wake_wr;

		wake_wr = wake_rd = -1;
		close(wr);
		close(rd);
	}
}

static void drain_wake(void)
{
	char drain[64];

	while (wake_rd >= 0 && read(wake_rd, drain, sizeof(drain)) > 0)
		;
}

/*
 * Waits until fd (-1: none) is readable, running the poll function
 * whenever its descriptor is. Returns false when a SIGINT arrived or a
 * command run by the poll function was quit.
 */
static bool wait_input(int fd)
{
	struct pollfd p[3];
	int n;

	for (;;) {
		if (__atomic_load_n(&intr_pending, __ATOMIC_RELAXED) || cli_quit_requested())
			return false;
		n = 0;
		p[n++] = (struct pollfd){.fd = wake_rd, .events = POLLIN};
		p[n++] = (struct pollfd){.fd = cli_poll_fd(), .events = POLLIN};
		if (fd >= 0)
			p[n++] = (struct pollfd){.fd = fd, .events = POLLIN};
		if (poll(p, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			return true; /* let the read report it */
		}
		if (p[0].revents)
			drain_wake();
		if (p[1].revents)
			cli_poll_run();
		if (fd >= 0 && p[2].revents)
			return !cli_quit_requested();
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
	return stop || cli_quit_requested();
}

int cli_run_batch(FILE *in, bool keep_going)
{
	struct sig_saved sv;
	bool failed = false;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	cli_quit_reset();
	sig_install(&sv, false);
	/* with a poll descriptor, stdio must not read ahead of the line it
	 * returns: poll() would not see what sits in its buffer */
	if (cli_poll_fd() >= 0)
		setvbuf(in, NULL, _IONBF, 0);
	for (;;) {
		if (cli_poll_fd() >= 0 && !wait_input(fileno(in))) {
			if (__atomic_load_n(&intr_pending, __ATOMIC_RELAXED)) {
				handle_intr(false);
				fg_err("interrupted");
				failed = true;
			}
			break;
		}
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

	cli_quit_reset();
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
		cli_poll_now();
		if (cli_quit_requested())
			break;
		p += len;
		if (*p)
			p++; /* the ';' or newline */
	}
	sig_restore(&sv);
	return failed ? FG_EXIT_FAIL : FG_EXIT_OK;
}

void cli_serve(void)
{
	struct sig_saved sv;

	if (cli_poll_fd() < 0 || cli_quit_requested() ||
	    __atomic_load_n(&intr_seen, __ATOMIC_RELAXED))
		return;
	sig_install(&sv, false);
	while (wait_input(-1))
		;
	if (__atomic_load_n(&intr_pending, __ATOMIC_RELAXED))
		handle_intr(false);
	sig_restore(&sv);
}

/* ---------------------------------------------------------------------------
 * The interactive prompt
 */

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
	struct pollfd p[3];
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
		p[2].fd = cli_poll_fd(); /* poll() skips a negative descriptor */
		p[2].events = POLLIN;
		p[0].revents = p[1].revents = p[2].revents = 0;
		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (p[1].revents)
			drain_wake();
		if (p[2].revents) {
			cli_poll_run();
			if (cli_quit_requested())
				return 0; /* quit from the API: as at end of input */
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

	cli_quit_reset();
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
		if (cli_quit_requested())
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
