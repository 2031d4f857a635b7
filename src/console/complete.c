/*
 * complete.c — TAB completion for the console: command names at the first
 * word, a row's option words after it, and file paths where the row says
 * so (CLI_F_FILEARG after -f and --from, CLI_F_PATHARG everywhere), quoting and
 * escaping what it inserts the way the tokenizer reads it back. It works
 * on the text before the cursor and knows nothing of libedit.
 *
 * Context: control.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_tok.h"
#include "fg.h"

#define CLI_MAX_MATCHES 10000 /* completion candidates kept */


struct cand {
	char **v;
	int n, cap;
};

static int cand_add(struct cand *c, const char *s, size_t n)
{
	if (c->n >= CLI_MAX_MATCHES)
		return 0;
	if (c->n == c->cap) {
		int cap = c->cap ? c->cap * 2 : 32;
		char **v = realloc(c->v, (size_t)cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n] = strndup(s, n);
	if (!c->v[c->n])
		return -ENOMEM;
	c->n++;
	return 0;
}

static void cand_free(struct cand *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->v[i]);
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
}

struct cand_cmd_arg {
	struct cand *c;
	const char *prefix;
};

static void cand_cmd(const struct cli_cmd *row, void *arg)
{
	struct cand_cmd_arg *a = arg;

	if (!strncmp(row->name, a->prefix, strlen(a->prefix)))
		cand_add(a->c, row->name, strlen(row->name));
}

static void cand_word(const char *word, void *arg)
{
	struct cand_cmd_arg *a = arg;

	if (!strncmp(word, a->prefix, strlen(a->prefix)))
		cand_add(a->c, word, strlen(word));
}

/* The row's option words and keywords (its cli_optspec) that begin with prefix. */
static void cand_opts(struct cand *c, const struct cli_cmd *row, const char *prefix)
{
	struct cand_cmd_arg a = {.c = c, .prefix = prefix};

	cli_opt_words(row->opts, cand_word, &a);
}

static void cand_paths(struct cand *c, const char *word)
{
	const char *slash = strrchr(word, '/');
	size_t dlen = slash ? (size_t)(slash - word) + 1 : 0;
	const char *base = word + dlen;
	size_t blen = strlen(base);
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (!dlen)
		snprintf(dir, sizeof(dir), ".");
	else if (word[0] == '~' && word[1] == '/' && getenv("HOME"))
		snprintf(dir, sizeof(dir), "%s%.*s", getenv("HOME"), (int)dlen - 1, word + 1);
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)dlen, word);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		bool isdir = de->d_type == DT_DIR;
		char *s;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_name[0] == '.' && base[0] != '.')
			continue;
		if (strncmp(de->d_name, base, blen))
			continue;
		if (de->d_type == DT_UNKNOWN || de->d_type == DT_LNK) {
			isdir = fstatat(dirfd(d), de->d_name, &st, 0) == 0 && S_ISDIR(st.st_mode);
		}
		if (asprintf(&s, "%.*s%s%s", (int)dlen, word, de->d_name, isdir ? "/" : "") < 0)
			break;
		cand_add(c, s, strlen(s));
		free(s);
	}
	closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends src to *dst, escaped for the quoting state q at the cursor. */
static int append_escaped(char **dst, size_t *len, const char *src, char q, bool word_start)
{
	size_t need = *len + 4 * strlen(src) + 4;
	char *d = realloc(*dst, need);

	if (!d)
		return -ENOMEM;
	for (const char *s = src; *s; s++) {
		char ch = *s;

		if (q == '\'' && ch == '\'') {
			memcpy(d + *len, "'\\''", 4);
			*len += 4;
			continue;
		}
		if ((q == '"' && (ch == '"' || ch == '\\')) ||
		    (!q && (tok_space(ch) || ch == '\'' || ch == '"' || ch == '\\' ||
			    (ch == '#' && word_start && s == src))))
			d[(*len)++] = '\\';
		d[(*len)++] = ch;
	}
	d[*len] = '\0';
	*dst = d;
	return 0;
}

int cli_complete(const char *pre, struct cli_completion *out)
{
	size_t len = strlen(pre), wlen, ilen = 0, common;
	char *argv[CLI_MAX_ARGS];
	const struct cli_cmd *row = NULL;
	struct cand c = {0};
	struct tok_end end;
	const char *word = "";
	bool close_word;
	char *buf;
	int argc, widx, ret = -ENOENT;

	memset(out, 0, sizeof(*out));
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	argc = cli_tok_core(pre, argv, CLI_MAX_ARGS, buf, len + 1, &end);
	if (argc < 0 || end.comment)
		goto out;
	widx = argc;
	if (end.open_word)
		word = argv[--widx];
	wlen = strlen(word);

	if (widx == 0) {
		struct cand_cmd_arg a = {&c, word};

		cli_for_each_cmd(cand_cmd, &a);
	} else {
		const char *prev = argv[widx - 1];

		row = cli_find(argv[0]);
		if (!row)
			goto out;
		if ((row->flags & CLI_F_FILEARG) &&
		    (!strcmp(prev, "-f") || !strcmp(prev, "--file") || !strcmp(prev, "--from")))
			cand_paths(&c, word);
		else if (word[0] == '-')
			cand_opts(&c, row, word);
		else if (row->flags & CLI_F_PATHARG) {
			/* the keywords first (capture start|stop|save|status), then paths */
			if (widx == 1)
				cand_opts(&c, row, word);
			cand_paths(&c, word);
		}
		else if ((row->flags & CLI_F_CMDARG) && widx == 1) {
			struct cand_cmd_arg a = {&c, word};

			cli_for_each_cmd(cand_cmd, &a);
		} else
			cand_opts(&c, row, word);
	}
	if (!c.n)
		goto out;
	qsort(c.v, (size_t)c.n, sizeof(*c.v), cmp_str);
	/* drop duplicates (an option listed twice, ...) */
	{
		int k = 1;

		for (int i = 1; i < c.n; i++) {
			if (strcmp(c.v[i], c.v[k - 1]))
				c.v[k++] = c.v[i];
			else
				free(c.v[i]);
		}
		c.n = k;
	}
	common = strlen(c.v[0]);
	for (int i = 1; i < c.n; i++) {
		size_t j = 0;

		while (j < common && c.v[i][j] == c.v[0][j])
			j++;
		common = j;
	}
	/* every candidate starts with word, so common >= wlen */
	ret = -ENOMEM;
	out->insert = strdup("");
	if (!out->insert)
		goto out;
	{
		char *tail = strndup(c.v[0] + wlen, common - wlen);

		if (!tail)
			goto out;
		ret = append_escaped(&out->insert, &ilen, tail, end.quote, wlen == 0);
		free(tail);
		if (ret)
			goto out;
	}
	close_word = c.n == 1 && c.v[0][strlen(c.v[0]) - 1] != '/';
	if (close_word) {
		char *d = realloc(out->insert, ilen + 3);

		if (!d) {
			ret = -ENOMEM;
			goto out;
		}
		if (end.quote)
			d[ilen++] = end.quote;
		d[ilen++] = ' ';
		d[ilen] = '\0';
		out->insert = d;
	}
	if (c.n > 1) {
		out->matches = c.v;
		out->n = c.n;
		c.v = NULL;
		c.n = 0;
	}
	ret = 0;
out:
	if (ret < 0 && out->insert) {
		free(out->insert);
		out->insert = NULL;
	}
	cand_free(&c);
	free(buf);
	return ret;
}

void cli_completion_free(struct cli_completion *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->matches[i]);
	free(c->matches);
	free(c->insert);
	memset(c, 0, sizeof(*c));
}

/* ---------------------------------------------------------------------------
 * Interactive prompt (libedit)
 */

