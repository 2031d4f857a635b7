/*
 * api.h — the HTTP API inside the flowgen process (flowgen(8), API):
 * `flowgen --api [ADDR:]PORT` serves every console command over HTTP
 * (POST /flowgen/v1/command), the OTG model's paths (otg.h) and
 * GET /capabilities/version, beside the console and on its thread: the
 * HTTP threads (libmicrohttpd) only queue a request and wake the
 * console's thread, which runs it between its own commands
 * (cli_set_poll, cli.h) and hands the answer back.
 *
 * Context: control, on the console's thread (api_configure before DPDK
 * starts, api_start and api_stop around the console).
 *
 * Included by: main.c.
 */
#ifndef FG_API_H
#define FG_API_H

struct cmd_ctx;

#include <stdbool.h>
#include <stddef.h>

/* The command line's API options; NULL for what was not given. */
struct api_opts {
	const char *listen;	/* --api [ADDR:]PORT */
	const char *cert;	/* --api-cert FILE (PEM) */
	const char *key;	/* --api-key FILE (PEM) */
	const char *token_file;	/* --api-token-file FILE */
	const char *name;	/* --name NAME: the instance label of GET /metrics */
};

/*
 * Check the options and read their files, before anything starts: an
 * address other than loopback needs TLS (cert and key) and a token. 0, or
 * -EINVAL with err saying why (a usage error). Nothing to do when
 * o->listen is NULL and no other option is given.
 */
int api_configure(const struct api_opts *o, char *err, size_t errlen);

/*
 * Listen (when configured) and have the console wait on the API's
 * wake-up. 0, or -errno with err set.
 */
int api_start(char *err, size_t errlen);

/* Stop listening; requests still queued are answered 503. */
void api_stop(void);

/* The `api` console command: the address, clients served, last requests. */
int api_cmd(struct cmd_ctx *x, int argc, char **argv);

/* control: add the API's rows (`api`, `otg`) to the command table (cli_add). */
int api_add_cmds(void);

#endif
