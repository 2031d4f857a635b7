/*
 * console.c — the console's own command rows. `tui` runs the dashboard
 * (tui.c) with the two actions its keys take on traffic, pause/resume and
 * a rate step, which go to control's run life cycle here so that the
 * dashboard itself only reads statistics.
 *
 * Context: control, on the console's thread.
 */
#include "cli.h"
#include "console.h"
#include "ctl.h"
#include "ctr.h"
#include "fg.h"
#include "log.h"
#include "run.h"
#include "tui.h"

static void tui_pause_toggle(void)
{
	int s = ctl_state();

	if (s == CTR_RUNNING || s == CTR_PAUSED)
		(void)run_pause(s == CTR_RUNNING);
}

/* A step the links cannot carry is not taken (the dashboard holds messages). */
static void tui_rate_scale(double f)
{
	char err[FG_ERRLEN];

	if (run_active() && run_rescale(f, err, sizeof(err)) != 0)
		fg_warn("tui: %s", err);
}

static int cmd_tui(struct cmd_ctx *x, int argc, char **argv)
{
	static const struct tui_ops ops = {.pause_toggle = tui_pause_toggle,
					   .rate_scale = tui_rate_scale};

	if (argc != 1)
		return cmd_fail(x, FG_E_USAGE, argv[1], NULL, "%s: bad arguments; usage: %s",
				argv[0], argv[0]);
	return tui_run(&ops) < 0 ? -1 : 0;
}

static const struct cli_cmd console_rows[] = {
	{"tui", cmd_tui, "tui", "live dashboard; q or ESC returns", NULL, 0},
};

int console_add_cmds(void) { return cli_add(console_rows, (int)FG_ARRAY_SIZE(console_rows)); }
