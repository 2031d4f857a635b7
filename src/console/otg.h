/*
 * otg.h — the Open Traffic Generator (OTG) model's paths of the HTTP API
 * (/config, /control/..., /monitor/...): what api.c calls for every path
 * that is not its own (not under /flowgen/v1/, not /capabilities/version),
 * with the run origin set to the API (run.h).
 *
 * Context: control, on the console's thread.
 *
 * Included by: console.
 */
#ifndef FG_OTG_H
#define FG_OTG_H

#include <stdbool.h>
#include <stddef.h>

/* Runs on the console's thread. Returns false when PATH is not an OTG
 * path (the API then answers 404). Otherwise sets *status, *reply (a
 * malloc'd body the caller frees), *reply_len and *ctype
 * ("application/json" or "application/octet-stream"). */
bool otg_handle(const char *method, const char *path, const char *body, size_t body_len,
		int *status, char **reply, size_t *reply_len, const char **ctype);

#endif
