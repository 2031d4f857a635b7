/*
 * cli_tok.c — the console's tokenizer: a line split into words with
 * shell-like quoting and no expansion (the rules are in cli.h), and the
 * span of one command of a -x string. The completion (complete.c) runs
 * the same state machine, cli_tok_core, on the text before the cursor.
 *
 * Context: pure (no state; any thread).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli_tok.h"

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
