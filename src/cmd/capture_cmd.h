/*
 * capture_cmd.h — the console's `capture` command (capture_cmd.c,
 * flowgen(8), capture) over the control half of src/control/capture.h.
 *
 * Included by: cmd.
 */
#ifndef FG_CAPTURE_CMD_H
#define FG_CAPTURE_CMD_H

struct cmd_ctx;
struct cli_optspec;

/* The command table's usage line and options of `capture` (start's, then status's). */
extern const char capture_usage[];
extern const struct cli_optspec capture_spec;

/* `capture start|stop|save|status ...`; 0 or -errno. */
int capture_cmd(struct cmd_ctx *x, int argc, char **argv);

#endif
