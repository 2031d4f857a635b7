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

#include "api_req.h"
#include "cli.h"
#include "log.h"
#include "otg.h"
#include "readf.h"

int otg_cmd(struct cmd_ctx *x, int argc, char **argv)
{
	const char *body_file = NULL, *out = NULL, *ctype = NULL;
	char *body = NULL, *reply = NULL;
	size_t blen = 0, rlen = 0;
	int status = 0, i, rc;
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
	/* a body of the HTTP API's largest (a larger one is refused there too) */
	if (body_file && (rc = readf(body_file, API_BODY_MAX, 0, &body, &blen)) != 0)
		return cmd_fail(x, FG_E_FAILED, body_file, NULL, "otg: %s: %s", body_file,
				rc == -EFBIG ? "larger than 1 MiB" : strerror(-rc));
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
