/*
 * capture_cmd.h — the console's `capture` command (capture_cmd.c,
 * flowgen(8), capture) over the control half of src/control/capture.h.
 *
 * Included by: console.
 */
#ifndef FG_CAPTURE_CMD_H
#define FG_CAPTURE_CMD_H

struct cmd_ctx;

/* `capture start|stop|save|status ...`; 0 or -errno. */
int capture_cmd(struct cmd_ctx *x, int argc, char **argv);

#endif
