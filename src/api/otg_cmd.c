/*
 * otg_cmd.c — the console's `otg` command (flowgen(8), OTG MODEL): one
 * request to the OTG model handlers without the HTTP server, `otg METHOD
 * PATH [BODY.json] [-o FILE]`, for checks by hand and from scripts. It
 * prints the status and the JSON reply; a binary reply (a capture) goes
 * to FILE. Runs on the console's thread, like the handlers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "log.h"
#include "otg.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		char *nb;

		if (*len + 4096 > cap) {
			cap = cap ? cap * 2 : 8192;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	fclose(f);
	return buf ? buf : strdup("");
}

int otg_cmd(struct cmd_ctx *x, int argc, char **argv)
{
	const char *body_file = NULL, *out = NULL, *ctype = NULL;
	char *body = NULL, *reply = NULL;
	size_t blen = 0, rlen = 0;
	int status = 0, i;
	FILE *f;

	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!body_file && argv[i][0] != '-')
			body_file = argv[i];
		else
			break;
	}
	if (argc < 3 || i != argc)
		return cmd_fail(x, FG_E_USAGE, i < argc ? argv[i] : NULL, NULL,
				"otg: usage: otg METHOD PATH [BODY.json] [-o FILE]");
	if (body_file && !(body = slurp(body_file, &blen)))
		return cmd_fail(x, FG_E_FAILED, body_file, NULL, "otg: %s: %s", body_file,
				strerror(errno));
	if (!otg_handle(argv[1], argv[2], body, blen, &status, &reply, &rlen, &ctype)) {
		free(body);
		return cmd_fail(x, FG_E_USAGE, argv[2], NULL, "otg: %s: not an OTG path (404)",
				argv[2]);
	}
	free(body);
	if (ctype && !strcmp(ctype, "application/json")) {
		fprintf(x->out, "%d %.*s\n", status, (int)rlen, reply ? reply : "");
	} else if (out && (f = fopen(out, "wb")) != NULL) {
		size_t w = fwrite(reply, 1, rlen, f);

		fclose(f);
		fprintf(x->out, "%d %zu bytes (%s) written to %s\n", status, w, ctype, out);
	} else {
		fprintf(x->out, "%d %zu bytes (%s)%s\n", status, rlen, ctype,
			out ? ": cannot write -o" : "");
	}
	fflush(x->out);
	free(reply);
	return status >= 200 && status < 300 ? 0 : -1;
}
