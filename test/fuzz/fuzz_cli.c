/*
 * fuzz_cli.c — libFuzzer harness for the console's line parsing: the
 * tokenizer, the -x command splitter and completion of command names.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc/core -Isrc/config \
 *       -Isrc/dataplane -Isrc/control -Isrc/cmd -Isrc/console \
 *       $(pkg-config --cflags libedit) test/fuzz/fuzz_cli.c src/cmd/cli.c src/cmd/cli_tok.c src/console/complete.c src/control/log.c src/core/errval.c src/core/json.c \
 *       $(pkg-config --libs libedit jansson) -o build/fuzz_cli
 *
 * Besides memory safety it checks properties: words lie inside the output
 * buffer, argv is NULL-terminated, the splitter never runs past the end,
 * and re-quoting the words and tokenizing again gives the same words.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_tok.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 'word' with every ' written as '\'' : always one word for the tokenizer. */
static size_t requote(char *dst, const char *w)
{
	size_t o = 0;

	dst[o++] = '\'';
	for (; *w; w++) {
		if (*w == '\'') {
			memcpy(dst + o, "'\\''", 4);
			o += 4;
		} else {
			dst[o++] = *w;
		}
	}
	dst[o++] = '\'';
	dst[o++] = ' ';
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[CLI_MAX_ARGS], *argv2[CLI_MAX_ARGS];
	char *line, *buf, *again, *buf2;
	size_t o = 0, span;
	int argc, argc2;

	line = malloc(size + 1);
	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	size = strlen(line); /* the console sees C strings */

	span = cli_cmd_span(line);
	if (span > size)
		abort();
	if (span < size && line[span] != ';' && line[span] != '\n')
		abort();

	buf = malloc(size + 1);
	argc = cli_tokenize(line, argv, CLI_MAX_ARGS, buf, size + 1);
	if (argc == -ENOSPC) /* strlen + 1 is always enough */
		abort();
	if (argc >= 0) {
		if (argc >= CLI_MAX_ARGS || argv[argc] != NULL)
			abort();
		again = malloc(4 * size + 3 * (size_t)argc + 1);
		for (int i = 0; i < argc; i++) {
			if (argv[i] < buf || argv[i] + strlen(argv[i]) >= buf + size + 1)
				abort();
			o += requote(again + o, argv[i]);
		}
		again[o] = '\0';
		buf2 = malloc(o + 1);
		argc2 = cli_tokenize(again, argv2, CLI_MAX_ARGS, buf2, o + 1);
		if (argc2 != argc)
			abort();
		for (int i = 0; i < argc; i++)
			if (strcmp(argv[i], argv2[i]))
				abort();
		free(buf2);
		free(again);
	} else if (argc != -EINVAL && argc != -E2BIG) {
		abort();
	}
	free(buf);

	/* completion with the built-in rows only: no file system access */
	if (!strstr(line, "-f")) {
		struct cli_completion c;

		if (cli_complete(line, &c) == 0)
			cli_completion_free(&c);
	}
	free(line);
	return 0;
}
