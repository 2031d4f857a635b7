/*
 * cli_tok.h — the console's tokenizer (cli_tok.c): the quoting rules are
 * those of cli.h.
 *
 * Context: pure.
 *
 * Included by: cmd and console (cli_run.c, complete.c).
 */
#ifndef FG_CLI_TOK_H
#define FG_CLI_TOK_H

#include <stdbool.h>
#include <stddef.h>

/* pure: the blanks that separate words */
static inline bool tok_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

struct tok_end {
	char quote;	/* quote still open at the end of the text, or 0 */
	bool open_word; /* the last word runs up to the end of the text */
	bool comment;	/* the text ends inside a comment */
};

/*
 * pure: the one state machine behind cli_tokenize and completion. With
 * end != NULL an open quote is not an error: its state is reported instead.
 */
int cli_tok_core(const char *s, char **argv, int max, char *buf, size_t buflen,
		 struct tok_end *end);

/*
 * pure: split `line` into words. The words are written into buf (buflen
 * bytes; strlen(line) + 1 is always enough) and argv[0..argc-1] point into
 * it, argv[argc] = NULL. Returns argc (0 for an empty line or a comment),
 * -EINVAL for an unterminated quote, -E2BIG if more than max - 1 words,
 * -ENOSPC if buf is too small.
 */
int cli_tokenize(const char *line, char **argv, int max, char *buf, size_t buflen);

/* pure: a message for a negative cli_tokenize() result. */
const char *cli_tokenize_strerror(int err);

/*
 * pure: length of the first command in s for -x: up to (not including) the
 * first ';' or newline outside quotes, escapes and comments; strlen(s) if
 * none. The caller skips s[len] when it is ';' or '\n'.
 */
size_t cli_cmd_span(const char *s);

#endif
