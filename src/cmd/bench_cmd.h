/*
 * bench_cmd.h — the console's `bench` command (bench_cmd.c, flowgen(8),
 * bench): options, the trial table, --json and --csv, over the control
 * half of src/control/bench.h.
 *
 * Included by: cmd.
 */
#ifndef FG_BENCH_CMD_H
#define FG_BENCH_CMD_H

struct cmd_ctx;
struct cli_optspec;

/* The command table's usage line and options of `bench` (both forms, bench nat's too). */
extern const char bench_usage[];
extern const struct cli_optspec bench_spec;

/*
 * The `bench` command (argv[0] = "bench"), from the command table. 0, or
 * -1 (error printed).
 */
int bench_cmd(struct cmd_ctx *x, int argc, char **argv);

#endif
