/*
 * test_cmdtab.c — the command table as data (src/cmd/cli.h, struct
 * cli_optspec): for every command of flowgen's tables (the command layer's,
 * the API's, the console's and the built-ins), the options its handler
 * parses (the row's getopt tables), what TAB completes, the row's usage
 * line and the synopsis of its entry in flowgen(8)'s COMMANDS list the
 * same options, and every keyword of the row is in the usage and completes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api.h"
#include "cli.h"
#include "cmds.h"
#include "console.h"
#include "fg.h"

#define MAXW 64
#define WLEN 48

/* A set of words, in the order first seen. */
struct wset {
	char w[MAXW][WLEN];
	int n;
};

static bool has(const struct wset *s, const char *w)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->w[i], w))
			return true;
	return false;
}

static void add(struct wset *s, const char *w, size_t len)
{
	char t[WLEN];

	snprintf(t, sizeof(t), "%.*s", (int)len, w);
	if (!has(s, t) && s->n < MAXW)
		snprintf(s->w[s->n++], WLEN, "%s", t);
}

/* "a b" for the report of a difference */
static const char *join(const struct wset *s, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < s->n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", s->w[i]);
	return buf;
}

/* The words of a not in b, or "" */
static const char *minus(const struct wset *a, const struct wset *b, char *buf, size_t len)
{
	struct wset d = {.n = 0};

	for (int i = 0; i < a->n; i++)
		if (!has(b, a->w[i]))
			add(&d, a->w[i], strlen(a->w[i]));
	return join(&d, buf, len);
}

static void same(const char *cmd, const char *what, const struct wset *want,
		 const struct wset *got)
{
	char b1[1024], b2[1024];

	minus(want, got, b1, sizeof(b1));
	minus(got, want, b2, sizeof(b2));
	if (b1[0] || b2[0])
		fail_msg("%s: %s: missing [%s], not in the options [%s]", cmd, what, b1, b2);
}

/* The option words ("-x", "--name") in a line of text. */
static void options_of(const char *text, struct wset *s)
{
	for (const char *p = text; *p; p++) {
		size_t n;

		if (*p != '-' || (p > text && !strchr(" [|(", p[-1])))
			continue;
		n = 1 + (p[1] == '-');
		if (!((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z')))
			continue;
		while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') || p[n] == '-' ||
		       (p[n] >= '0' && p[n] <= '9'))
			n++;
		add(s, p, n);
		p += n - 1;
	}
}

/* ---- the row's spec ---- */

struct spec_words {
	struct wset opts, words;
};

static void spec_word(const char *w, void *arg)
{
	struct spec_words *s = arg;

	add(w[0] == '-' ? &s->opts : &s->words, w, strlen(w));
}

/* ---- flowgen(8) ---- */

static char *man;

/* troff's escapes out of a synopsis line: \fB \fR \fI \fP, \- and \~ */
static void untroff(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (const char *p = in; *p && o + 1 < len; p++) {
		if (p[0] == '\\' && p[1] == 'f' && p[2]) {
			p += 2;
			continue;
		}
		if (p[0] == '\\' && (p[1] == '-' || p[1] == '~')) {
			out[o++] = p[1] == '-' ? '-' : ' ';
			p++;
			continue;
		}
		if (*p == '"')
			continue;
		out[o++] = *p;
	}
	out[o] = '\0';
}

/*
 * The options of NAME's synopses: the tag lines ".B NAME ..." (after a
 * .TP) of the COMMANDS section.
 */
static int man_synopsis(const char *name, struct wset *s)
{
	const char *sec = strstr(man, "\n.SH COMMANDS"), *end;
	size_t nl = strlen(name);
	int found = 0;

	assert_non_null(sec);
	end = strstr(sec + 1, "\n.SH ");
	for (const char *p = strstr(sec, "\n.TP\n"); p && (!end || p < end);
	     p = strstr(p + 1, "\n.TP\n")) {
		const char *tag = p + 5, *eol = strchr(tag, '\n');
		char line[2048], plain[2048];

		if (strncmp(tag, ".B ", 3) || strncmp(tag + 3, name, nl) ||
		    !strchr(" \n", tag[3 + nl]))
			continue;
		snprintf(line, sizeof(line), "%.*s", (int)(eol ? eol - tag : (long)strlen(tag)), tag);
		untroff(line + 3 + nl, plain, sizeof(plain));
		options_of(plain, s);
		found++;
	}
	return found;
}

/* ---- TAB ---- */

static void completions(const char *line, struct wset *s)
{
	struct cli_completion c;
	size_t len = strlen(line);
	const char *word = strrchr(line, ' ') + 1;

	if (cli_complete(line, &c) != 0)
		return;
	if (c.n)
		for (int i = 0; i < c.n; i++)
			add(s, c.matches[i], strlen(c.matches[i]));
	else if (c.insert) {
		/* one candidate: what was typed of it plus the insertion, less a trailing space */
		char w[WLEN];
		size_t il = strlen(c.insert);

		snprintf(w, sizeof(w), "%.*s%.*s", (int)(line + len - word), word,
			 (int)(il && c.insert[il - 1] == ' ' ? il - 1 : il), c.insert);
		add(s, w, strlen(w));
	}
	cli_completion_free(&c);
}

/* ---- every row ---- */

struct row_list {
	const struct cli_cmd *r[64];
	int n;
};

static void collect(const struct cli_cmd *c, void *arg)
{
	struct row_list *l = arg;

	if (l->n < 64)
		l->r[l->n++] = c;
}

static void check_row(const struct cli_cmd *row)
{
	struct spec_words spec = {.opts.n = 0};
	struct wset usage = {.n = 0}, manopts = {.n = 0}, tab = {.n = 0};
	char line[128];

	cli_opt_words(row->opts, spec_word, &spec);

	/* usage */
	options_of(row->usage ? row->usage : "", &usage);
	same(row->name, "the usage line", &spec.opts, &usage);
	for (int i = 0; i < spec.words.n; i++)
		if (!strstr(row->usage, spec.words.w[i]))
			fail_msg("%s: keyword %s is not in the usage line", row->name,
				 spec.words.w[i]);

	/* flowgen(8) */
	if (man_synopsis(row->name, &manopts) == 0)
		fail_msg("%s: no '.TP / .B %s' synopsis in flowgen(8)'s COMMANDS", row->name,
			 row->name);
	same(row->name, "flowgen(8)'s synopsis", &spec.opts, &manopts);

	/* TAB: every option word, and each keyword */
	snprintf(line, sizeof(line), "%s -", row->name);
	completions(line, &tab);
	same(row->name, "TAB completion", &spec.opts, &tab);
	for (int i = 0; i < spec.words.n; i++) {
		struct wset kw = {.n = 0};

		snprintf(line, sizeof(line), "%s %s", row->name, spec.words.w[i]);
		completions(line, &kw);
		if (!has(&kw, spec.words.w[i]))
			fail_msg("%s: keyword %s does not complete", row->name, spec.words.w[i]);
	}
}

static void test_every_command(void **state)
{
	struct row_list rows = {.n = 0};

	(void)state;
	cmds_install();
	assert_int_equal(api_add_cmds(), 0);
	assert_int_equal(console_add_cmds(), 0);
	cli_for_each_cmd(collect, &rows);
	assert_true(rows.n >= 20);
	for (int i = 0; i < rows.n; i++)
		check_row(rows.r[i]);
}

/* The checks catch a difference: a spec with an option the usage lacks. */
static void test_catches_a_drift(void **state)
{
	static const struct option longs[] = {{"json", no_argument, NULL, 'j'},
					      {"reuse", no_argument, NULL, 'r'},
					      {NULL, 0, NULL, 0}};
	static const struct cli_optspec spec = {.shorts = "p:", .longs = longs};
	struct spec_words sw = {.opts.n = 0};
	struct wset usage = {.n = 0};
	char b[256];

	(void)state;
	cli_opt_words(&spec, spec_word, &sw);
	options_of("x [-p PORTS] [--json] [--dut-timeout S] [--a|--b]", &usage);
	assert_string_equal(minus(&sw.opts, &usage, b, sizeof(b)), "--reuse");
	assert_string_equal(minus(&usage, &sw.opts, b, sizeof(b)), "--dut-timeout --a --b");
}

static int setup(void **state)
{
	FILE *f = fopen("man/flowgen.8", "r");
	long n;

	(void)state;
	if (!f)
		return -1; /* run from the source tree's top, as make test does */
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	man = calloc(1, (size_t)n + 1);
	if (!man || fread(man, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(man);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_catches_a_drift),
	    cmocka_unit_test(test_every_command),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
