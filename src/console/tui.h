/*
 * tui.h — the live ncurses dashboard (`tui`, flowgen(8) DASHBOARD).
 *
 * The dashboard only reads: every 0.5 s it takes a snapshot from the
 * statistics module (stats_get, stats_history) and draws the Global, Port,
 * Flows and Latency panels and a tx/rx pps sparkline. The keys that act on
 * traffic go through the caller's ops, so the dashboard knows nothing of
 * the control plane.
 *
 * Included by: console.
 */
#ifndef FG_TUI_H
#define FG_TUI_H

/* Actions the dashboard's keys trigger; either member may be NULL. */
struct tui_ops {
	void (*pause_toggle)(void);	   /* key p: pause / resume traffic */
	void (*rate_scale)(double factor); /* keys + and -: 1.1 and 1/1.1 */
};

/*
 * control: run the dashboard until the user leaves (q, ESC or SIGINT).
 * Returns 0, or a negative errno after printing why the dashboard was
 * refused (-ENOTTY: TERM unset or "dumb", stdin/stdout not a terminal;
 * -EIO: the terminal could not be initialised). The terminal settings are
 * exactly as before on return; log messages are held back while it runs.
 */
int tui_run(const struct tui_ops *ops);

#endif
