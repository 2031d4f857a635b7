/*
 * natb_cmd.h — the console's `bench nat` (natb_cmd.c, flowgen(8), bench
 * nat): options, the table of checks, JSON and CSV.
 *
 * Included by: console.
 */
#ifndef FG_NATB_CMD_H
#define FG_NATB_CMD_H

struct cmd_ctx;

/* `bench nat ...` with argv[0] = "nat"; 0, or -1 (error printed). */
int natb_cmd(struct cmd_ctx *x, int argc, char **argv);

#endif
