/*
 * otg.h — the Open Traffic Generator (OTG) model handlers of flowgen's
 * HTTP API (flowgen(8), OTG MODEL): POST and GET /config, POST
 * /control/state, POST /monitor/metrics and POST /monitor/capture, over
 * the streams engine, the statistics and the capture module. The HTTP
 * server hands each request to otg_handle and sends back what it sets.
 *
 * Context: console (the console's thread, which runs control's calls).
 *
 * Included by: api and main.c.
 */
#ifndef FG_OTG_H
#define FG_OTG_H

struct cmd_ctx;

#include <stdbool.h>
#include <stddef.h>

/* Runs on the console's thread. Returns false when PATH is not an OTG
 * path (the API then answers 404). Otherwise sets *status, *reply (a
 * malloc'd body the caller frees), *reply_len and *ctype
 * ("application/json" or "application/octet-stream"). */
bool otg_handle(const char *method, const char *path, const char *body, size_t body_len,
		int *status, char **reply, size_t *reply_len, const char **ctype);

/* `otg METHOD PATH [BODY.json] [-o FILE]` (otg_cmd.c): one request to
 * otg_handle from the console; 0 for a 2xx status. */
int otg_cmd(struct cmd_ctx *x, int argc, char **argv);

/* Frees the config the handlers hold (at exit). */
void otg_fini(void);

#endif
