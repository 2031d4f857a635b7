/*
 * natb_cmd.h — the console's `bench nat` (natb_cmd.c, flowgen(8), bench
 * nat): options, the table of checks, JSON and CSV.
 *
 * Included by: cmd.
 */
#ifndef FG_NATB_CMD_H
#define FG_NATB_CMD_H

struct cmd_ctx;
struct cli_optspec;

/* bench nat's usage line and options (the second form of bench's, bench_cmd.h). */
#define NATB_USAGE                                                                                 \
	"bench nat [-p udp|tcp|icmp|all] [--timeout-max SECONDS] [--inside IP] [--outside IP] "     \
	"[--json] [--csv FILE]"
extern const struct cli_optspec natb_spec;

/* `bench nat ...` with argv[0] = "nat"; 0, or -1 (error printed). */
int natb_cmd(struct cmd_ctx *x, int argc, char **argv);

#endif
