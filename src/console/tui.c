/*
 * tui.c — the live dashboard, TRex style.
 *
 * One screen, redrawn every 0.5 s from a statistics snapshot: a title bar
 * with the keys, Global Statistics beside the panel of the run's engine
 * (Flows for a flows run, Streams for a streams run, none before the
 * first run), a flows run's top failure reasons on one line, the Port
 * Statistics table (one column per port that fits, plus the total), a
 * sparkline of tx/rx pps history and, for a streams run, the latency
 * table with whatever rows are left. Key t swaps the
 * lower part for the page of a flows run's groups of templates
 * (flowgen-profile(5), `group`) and back. Everything scales from 80x24
 * upwards: the Global panel fits in TUI_GLOBAL_W columns and the engine's
 * panel in TUI_PANEL_W, side by side at 80.
 *
 * The terminal belongs to the REPL before and after: the dashboard saves
 * the termios settings and the signal dispositions it touches, opens its
 * own screen with newterm, and puts everything back on the way out,
 * including after SIGINT. A crash signal while curses owns the screen
 * restores the terminal and re-raises the signal.
 */
#include <errno.h>
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "fails.h"
#include "log.h"
#include "stats.h"
#include "stats_snap.h"
#include "tsc.h"
#include "tui.h"

#define TUI_REFRESH_MS 500
#define TUI_KEY_WAIT_MS 100
#define TUI_LBL_W 10 /* port table: label column */
#define TUI_COL_W 12 /* port table: one value column */
#define TUI_KEY_ESC 27
#define TUI_GLOBAL_W 48	  /* the Global panel's widest line */
#define TUI_PANEL_W 31	  /* the Flows or Streams panel's widest line */
#define TUI_GRP_NAME_W 20 /* the group page's name column */

static volatile sig_atomic_t tui_sigint, tui_winch;
static volatile sig_atomic_t tui_active;
static struct termios tui_saved_tio;

static const int tui_saved_sigs[] = {SIGINT, SIGWINCH, SIGTSTP, SIGSEGV, SIGBUS, SIGABRT, SIGTERM};

static void tui_on_sigint(int sig)
{
	(void)sig;
	tui_sigint = 1;
}

static void tui_on_winch(int sig)
{
	(void)sig;
	tui_winch = 1;
}

/* Crash: give the terminal back, then die of the same signal. */
static void tui_on_crash(int sig)
{
	if (tui_active) {
		tui_active = 0;
		endwin();
		tcsetattr(STDIN_FILENO, TCSANOW, &tui_saved_tio);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Counters: exact while short, else three significant digits and K/M/G/T. */
struct tui_ctx {
	const struct tui_ops *ops;
	struct stats_snap *snap;
	double hist_tx[STATS_HIST], hist_rx[STATS_HIST];
	int nhist;
	bool utf8;
	char msg[64];
	int h, w;
	bool groups; /* the group page (key t) instead of ports and latency */
};

/* Print at (y, x), cut at the right edge. */
static void tui_put(struct tui_ctx *c, int y, int x, const char *s)
{
	if (y < 0 || y >= c->h || x >= c->w)
		return;
	mvaddnstr(y, x, s, c->w - x);
}

static void tui_title(struct tui_ctx *c)
{
	char line[256];

	attron(A_REVERSE);
	mvhline(0, 0, ' ', c->w);
	snprintf(line, sizeof(line), " flowgen  q quit  c clear  p pause  +/- rate  t %s   %s",
		 c->groups ? "ports" : "groups", c->msg);
	tui_put(c, 0, 0, line);
	attroff(A_REVERSE);
}

/* The Global panel: every line within TUI_GLOBAL_W columns. */
static void tui_global(struct tui_ctx *c, int y, int x)
{
	const struct stats_global *g = &c->snap->g;
	bool r = stats_rated(c->snap);
	char a[32], b[32], b2[32], cpu[16] = "-", line[128];

	attron(A_BOLD);
	tui_put(c, y, x, "Global Statistics");
	attroff(A_BOLD);
	snprintf(line, sizeof(line), "Tx  %-14s L1 %s",
		 stats_fmt_rate(a, sizeof(a), g->tx_bps, "bps", r),
		 stats_fmt_rate(b, sizeof(b), g->tx_bps_l1, "bps", r));
	tui_put(c, y + 1, x, line);
	snprintf(line, sizeof(line), "Rx  %-14s L1 %s",
		 stats_fmt_rate(a, sizeof(a), g->rx_bps, "bps", r),
		 stats_fmt_rate(b, sizeof(b), g->rx_bps_l1, "bps", r));
	tui_put(c, y + 2, x, line);
	snprintf(line, sizeof(line), "pps %-14s Rx %s",
		 stats_fmt_rate(a, sizeof(a), g->tx_pps, "", r),
		 stats_fmt_rate(b, sizeof(b), g->rx_pps, "", r));
	tui_put(c, y + 3, x, line);
	snprintf(line, sizeof(line), "CPS %-14s done %-9s active %s",
		 stats_fmt_rate(a, sizeof(a), g->cps, "", r),
		 stats_fmt_rate(b, sizeof(b), g->completed_cps, "", r),
		 stats_fmt_count(b2, sizeof(b2), g->active_flows));
	tui_put(c, y + 4, x, line);
	/* the busiest worker's share: the first to run out of CPU; "-" before
	 * any worker's was measured */
	for (int i = 0; i < c->snap->nworkers; i++)
		if (c->snap->w[i].cpu_measured)
			snprintf(cpu, sizeof(cpu), "%.1f %%",
				 isfinite(g->cpu_util_max) ? g->cpu_util_max : 0.0);
	snprintf(line, sizeof(line), "drop %-13s cpu %s (busiest of %d)",
		 stats_fmt_rate(a, sizeof(a), g->drop_rate, "pps", r), cpu, c->snap->nworkers);
	tui_put(c, y + 5, x, line);
}

/* The Flows panel of a flows run: client and server, TUI_PANEL_W columns. */
static void tui_flows(struct tui_ctx *c, int y, int x)
{
	const struct stats_flows *f = &c->snap->flows;
	char a[32], b[32], line[128];
	struct {
		const char *label;
		uint64_t cl, sv;
		bool has_sv;
	} rows[] = {
	    {"started/acc", f->client.started, f->server.accepted, true},
	    {"established", f->client.established, 0, false},
	    {"completed", f->client.completed, f->server.completed, true},
	    {"failed", f->client.failed, f->server.failed, true},
	    {"active", f->active_client, f->active_server, true},
	};

	/* a run that holds flows (start --active) shows its target in place
	 * of established (still in `stats`): active against the target */
	if (f->active_target) {
		rows[1].label = "target";
		rows[1].cl = f->active_target;
		rows[1].has_sv = false;
	}

	attron(A_BOLD);
	snprintf(line, sizeof(line), "%-11s %9s %9s", "Flows", "client", "server");
	tui_put(c, y, x, line);
	attroff(A_BOLD);
	for (size_t i = 0; i < FG_ARRAY_SIZE(rows); i++) {
		snprintf(line, sizeof(line), "%-11s %9s %9s", rows[i].label,
			 stats_fmt_count(a, sizeof(a), rows[i].cl),
			 rows[i].has_sv ? stats_fmt_count(b, sizeof(b), rows[i].sv) : "-");
		tui_put(c, y + 1 + (int)i, x, line);
	}
}

/*
 * A flows run's top failure reasons, one line: the three largest counts
 * of the reasons (client and server apart) under their names (fails.h),
 * "none" while no flow failed.
 */
#define TUI_TOP_FAILS 3
static void tui_fails(struct tui_ctx *c, int y)
{
	struct stats_fail_top top[TUI_TOP_FAILS];
	int n = stats_top_fails(&c->snap->flows, top, TUI_TOP_FAILS);
	char line[256], a[32];
	size_t k = (size_t)snprintf(line, sizeof(line), "Top fail reasons:");

	if (!n)
		snprintf(line + k, sizeof(line) - k, " none");
	for (int i = 0; i < n && k < sizeof(line); i++)
		k += (size_t)snprintf(line + k, sizeof(line) - k, "%s %s %s (%s)", i ? "," : "",
				      fails_name(top[i].reason),
				      stats_fmt_count(a, sizeof(a), top[i].n),
				      top[i].side ? "server" : "client");
	tui_put(c, y, 0, line);
}

/* The Streams panel of a streams run: frames, and its latency rows summed. */
static void tui_streams(struct tui_ctx *c, int y, int x)
{
	const struct stats_snap *s = c->snap;
	uint64_t lost = 0, late = 0;
	char a[32], line[64];

	for (int i = 0; i < s->nlat; i++) {
		lost += s->lat[i].lost;
		late += s->lat[i].late;
	}
	const struct {
		const char *label;
		uint64_t v;
	} rows[] = {
	    {"tx frames", s->g.tx_pkts},
	    {"rx frames", s->g.rx_pkts},
	    {"queue full", s->g.queue_full},
	    {"lost (lat)", lost},
	    {"late (lat)", late},
	};

	attron(A_BOLD);
	tui_put(c, y, x, "Streams");
	attroff(A_BOLD);
	for (size_t i = 0; i < FG_ARRAY_SIZE(rows); i++) {
		snprintf(line, sizeof(line), "%-11s %19s", rows[i].label,
			 stats_fmt_count(a, sizeof(a), rows[i].v));
		tui_put(c, y + 1 + (int)i, x, line);
	}
}

static const struct stats_port_row tui_prows[] = {
    STATS_PORT_ROW("link", STATS_CELL_LINK, link_up),
    STATS_PORT_ROW("Tx bps", STATS_CELL_BPS, tx_bps),
    STATS_PORT_ROW("Rx bps", STATS_CELL_BPS, rx_bps),
    STATS_PORT_ROW("Tx pps", STATS_CELL_PPS, tx_pps),
    STATS_PORT_ROW("Rx pps", STATS_CELL_PPS, rx_pps),
    STATS_PORT_ROW("line util", STATS_CELL_PCT, line_util),
    STATS_PORT_ROW("opackets", STATS_CELL_COUNT, tx_pkts),
    STATS_PORT_ROW("ipackets", STATS_CELL_COUNT, rx_pkts),
    STATS_PORT_ROW("obytes", STATS_CELL_COUNT, tx_bytes),
    STATS_PORT_ROW("ibytes", STATS_CELL_COUNT, rx_bytes),
    STATS_PORT_ROW("oerrors", STATS_CELL_COUNT, oerrors),
    STATS_PORT_ROW("ierrors", STATS_CELL_COUNT, ierrors),
    STATS_PORT_ROW("imissed", STATS_CELL_COUNT, imissed),
};

/* The port table; returns the rows used. */
static int tui_ports(struct tui_ctx *c, int y)
{
	const struct stats_snap *s = c->snap;
	int fit = (c->w - TUI_LBL_W) / TUI_COL_W - 1; /* minus "total" */
	int shown = FG_MAX(0, FG_MIN(s->nports, fit));
	char cell[40], line[64];
	int row = y;

	attron(A_BOLD);
	if (shown < s->nports)
		snprintf(line, sizeof(line), "Ports +%d", s->nports - shown);
	else
		snprintf(line, sizeof(line), "Port Stats");
	tui_put(c, row, 0, line);
	for (int p = 0; p <= shown; p++) {
		if (p < shown)
			snprintf(line, sizeof(line), "%*d", TUI_COL_W, p);
		else
			snprintf(line, sizeof(line), "%*s", TUI_COL_W, "total");
		tui_put(c, row, TUI_LBL_W + p * TUI_COL_W, line);
	}
	attroff(A_BOLD);
	row++;
	for (size_t r = 0; r < FG_ARRAY_SIZE(tui_prows) && row < c->h; r++) {
		tui_put(c, row, 0, tui_prows[r].label);
		for (int p = 0; p <= shown; p++) {
			const struct stats_port_snap *o = p < shown ? &s->port[p] : &s->total;

			stats_port_cell(cell, sizeof(cell), &tui_prows[r], o, 1);
			snprintf(line, sizeof(line), "%*s", TUI_COL_W, cell);
			tui_put(c, row, TUI_LBL_W + p * TUI_COL_W, line);
		}
		row++;
	}
	return row - y;
}

/* One sparkline of the last `width` points of v at (y, x). */
static void tui_spark(struct tui_ctx *c, int y, int x, int width, const double *v, int n)
{
	static const char *const blocks[] = {"\u2581", "\u2582", "\u2583", "\u2584",
					     "\u2585", "\u2586", "\u2587", "\u2588"};
	static const char ascii[] = "_.-:=+*#";
	int from = n > width ? n - width : 0;
	double max = 0;

	if (y >= c->h || width <= 0)
		return;
	for (int i = from; i < n; i++)
		if (isfinite(v[i]) && v[i] > max)
			max = v[i];
	move(y, x);
	for (int i = from; i < n && x + (i - from) < c->w; i++) {
		int lvl = max > 0 && isfinite(v[i]) ? (int)(v[i] / max * 7.0 + 0.5) : 0;

		lvl = FG_MAX(0, FG_MIN(7, lvl));
		if (c->utf8)
			addstr(blocks[lvl]);
		else
			addch((chtype)ascii[lvl]);
	}
}

/* The history: two rows when there is room, else one row split in two. */
static int tui_history(struct tui_ctx *c, int y, int rows)
{
	char a[32], line[64];
	const double *last_tx = c->nhist ? &c->hist_tx[c->nhist - 1] : NULL;
	const double *last_rx = c->nhist ? &c->hist_rx[c->nhist - 1] : NULL;

	if (rows <= 0)
		return 0;
	if (rows >= 2) {
		int width = c->w - 24;

		snprintf(line, sizeof(line), "tx pps %-15s",
			 stats_fmt_si(a, sizeof(a), last_tx ? *last_tx : 0, ""));
		tui_put(c, y, 0, line);
		tui_spark(c, y, 23, width, c->hist_tx, c->nhist);
		snprintf(line, sizeof(line), "rx pps %-15s",
			 stats_fmt_si(a, sizeof(a), last_rx ? *last_rx : 0, ""));
		tui_put(c, y + 1, 0, line);
		tui_spark(c, y + 1, 23, width, c->hist_rx, c->nhist);
		return 2;
	}
	int half = c->w / 2;

	tui_put(c, y, 0, "tx");
	tui_spark(c, y, 3, half - 4, c->hist_tx, c->nhist);
	tui_put(c, y, half, "rx");
	tui_spark(c, y, half + 3, c->w - half - 4, c->hist_rx, c->nhist);
	return 1;
}

/* Latency columns; the optional ones appear on wide screens only. */
struct tui_lcol {
	const char *name;
	int width;
	bool optional;
};

static const struct tui_lcol tui_lcols[] = {
    {"stream", 10, false}, {"port", 4, false},	 {"tx", 7, true},   {"rx", 7, false},
    {"lost", 7, false},	   {"dup", 6, true},	 {"ooo", 6, true},  {"min", 7, true},
    {"avg", 7, false},	   {"p50", 7, true},	 {"p99", 7, false}, {"p99.9", 7, false},
    {"max", 7, false},	   {"jitter", 7, false},
};

static void tui_lcell(char *buf, size_t len, size_t col, const struct stats_lat_row *l)
{
	double us[] = {l->min_us,  l->avg_us, l->p50_us,   l->p99_us,
		       l->p999_us, l->max_us, l->jitter_us};
	double v;

	switch (col) {
	case 0:
		snprintf(buf, len, "%.10s", l->stream);
		return;
	case 1:
		snprintf(buf, len, "%d", l->port);
		return;
	case 2:
		stats_fmt_count(buf, len, l->tx);
		return;
	case 3:
		stats_fmt_count(buf, len, l->rx);
		return;
	case 4:
		stats_fmt_count(buf, len, l->lost);
		return;
	case 5:
		stats_fmt_count(buf, len, l->dup);
		return;
	case 6:
		stats_fmt_count(buf, len, l->ooo);
		return;
	default: /* "-": not measured (no stamped frame received) */
		v = us[col - 7];
		stats_fmt_us(buf, len, v);
		return;
	}
}

static void tui_latency(struct tui_ctx *c, int y, int rows)
{
	const struct stats_snap *s = c->snap;
	bool all = c->w >= 110;
	char cell[32], line[32];
	int x;

	if (rows <= 0)
		return;
	attron(A_BOLD);
	x = 0;
	for (size_t k = 0; k < FG_ARRAY_SIZE(tui_lcols); k++) {
		if (tui_lcols[k].optional && !all)
			continue;
		snprintf(line, sizeof(line), k ? "%*s" : "%-*s", tui_lcols[k].width,
			 k ? tui_lcols[k].name : "Latency us");
		tui_put(c, y, x, line);
		x += tui_lcols[k].width + 1;
	}
	attroff(A_BOLD);
	if (!s->nlat && rows > 1)
		tui_put(c, y + 1, 0, "(no latency streams)");
	for (int i = 0; i < s->nlat && i + 1 < rows; i++) {
		x = 0;
		for (size_t k = 0; k < FG_ARRAY_SIZE(tui_lcols); k++) {
			if (tui_lcols[k].optional && !all)
				continue;
			tui_lcell(cell, sizeof(cell), k, &s->lat[i]);
			snprintf(line, sizeof(line), k ? "%*s" : "%-*s", tui_lcols[k].width, cell);
			tui_put(c, y + 1 + i, x, line);
			x += tui_lcols[k].width + 1;
		}
	}
}

/* One row of the group page: name, started, completed, failed, CPS, active. */
static void tui_group_row(struct tui_ctx *c, int y, const char *name, const char *const v[5])
{
	char line[192]; /* the name and five cells of up to 31 characters */

	snprintf(line, sizeof(line), "%-*.*s %10s %10s %10s %10s %10s", TUI_GRP_NAME_W,
		 TUI_GRP_NAME_W, name, v[0], v[1], v[2], v[3], v[4]);
	tui_put(c, y, 0, line);
}

/* The group page (key t): one row per group of templates of a flows run. */
static void tui_groups(struct tui_ctx *c, int y)
{
	static const char *const head[5] = {"started", "completed", "failed", "CPS", "active"};
	const struct stats_snap *s = c->snap;
	int n = s->map.ngroups, fit = c->h - y - 1;

	attron(A_BOLD);
	tui_group_row(c, y++, "Group", head);
	attroff(A_BOLD);
	if (!n)
		tui_put(c, y, 0, "(no flows run: groups are a flows profile's templates)");
	for (int g = 0; g < n && y < c->h; g++, y++) {
		const struct stats_flows *f = &s->grp[g];
		char v[5][32], more[48];
		const char *const cell[5] = {v[0], v[1], v[2], v[3], v[4]};

		if (g + 1 == fit && g + 1 < n) {
			snprintf(more, sizeof(more), "+%d more groups (stats -t)", n - g);
			tui_put(c, y, 0, more);
			return;
		}
		stats_fmt_count(v[0], sizeof(v[0]), f->client.started);
		stats_fmt_count(v[1], sizeof(v[1]), f->client.completed);
		stats_fmt_count(v[2], sizeof(v[2]), f->client.failed);
		stats_fmt_rate(v[3], sizeof(v[3]), f->cps, "", stats_rated(s));
		stats_fmt_count(v[4], sizeof(v[4]), f->active_client);
		if (f->active_target) { /* the group's climits: "active/climit" */
			size_t l = strlen(v[4]);

			v[4][l] = '/';
			stats_fmt_count(v[4] + l + 1, sizeof(v[4]) - l - 1, f->active_target);
		}
		tui_group_row(c, y, s->map.name[g], cell);
	}
}

/* Below the panels: the port table, the history and a streams run's latency. */
static void tui_lower(struct tui_ctx *c, int y)
{
	bool streams = c->snap->mode == PROF_STREAMS;
	int left;

	y += tui_ports(c, y);
	left = c->h - y;
	if (!streams) {
		tui_history(c, y, FG_MIN(left, 2));
		return;
	}
	/* latency wants a header and a row; history takes one or two rows */
	y += tui_history(c, y, left >= 6 ? 2 : left >= 3 ? 1 : 0);
	tui_latency(c, y, c->h - y);
}

static void tui_draw(struct tui_ctx *c)
{
	int mode = c->snap->mode, x;
	char warn[200];
	int y;

	getmaxyx(stdscr, c->h, c->w);
	erase();
	tui_title(c);
	tui_global(c, 1, 0);
	x = FG_MAX(TUI_GLOBAL_W + 1, FG_MIN(c->w / 2, c->w - TUI_PANEL_W));
	if (mode == PROF_FLOWS)
		tui_flows(c, 1, x);
	else if (mode == PROF_STREAMS)
		tui_streams(c, 1, x);
	y = 7;
	if (mode == PROF_FLOWS)
		tui_fails(c, y++);
	if (stats_offer_warning(warn + 9, sizeof(warn) - 9, &c->snap->g)) {
		/* offered against achieved (flowgen(8), STATISTICS) */
		memcpy(warn, "WARNING: ", 9);
		attron(A_BOLD);
		tui_put(c, y++, 0, warn);
		attroff(A_BOLD);
	}
	if (c->groups)
		tui_groups(c, y);
	else
		tui_lower(c, y);
	refresh();
}

static void tui_sample(struct tui_ctx *c)
{
	stats_get(c->snap);
	c->nhist = stats_history(c->hist_tx, c->hist_rx, STATS_HIST);
}

/* Handle one key; false when the user leaves. */
static bool tui_key(struct tui_ctx *c, int ch)
{
	switch (ch) {
	case 'q':
	case 'Q':
	case TUI_KEY_ESC:
		return false;
	case 't':
	case 'T':
		c->groups = !c->groups;
		c->msg[0] = 0;
		break;
	case 'c':
	case 'C':
		stats_clear();
		snprintf(c->msg, sizeof(c->msg), "statistics cleared");
		break;
	case 'p':
	case 'P':
		if (c->ops && c->ops->pause_toggle) {
			c->ops->pause_toggle();
			snprintf(c->msg, sizeof(c->msg), "pause/resume");
		} else {
			snprintf(c->msg, sizeof(c->msg), "pause unavailable");
		}
		break;
	case '+':
	case '=':
	case '-':
		if (c->ops && c->ops->rate_scale) {
			c->ops->rate_scale(ch == '-' ? 1 / 1.1 : 1.1);
			snprintf(c->msg, sizeof(c->msg), "rate %s10%%", ch == '-' ? "-" : "+");
		} else {
			snprintf(c->msg, sizeof(c->msg), "rate unavailable");
		}
		break;
	default:
		break;
	}
	return true;
}

static void tui_resize(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
}

static void tui_loop(struct tui_ctx *c)
{
	double next = 0;

	for (;;) {
		int ch;

		if (tui_sigint)
			return;
		if (tui_winch) {
			tui_winch = 0;
			tui_resize();
			next = 0;
		}
		if ((double)fg_mono_ns() / 1e9 >= next) {
			tui_sample(c);
			tui_draw(c);
			next = (double)fg_mono_ns() / 1e9 + TUI_REFRESH_MS / 1000.0;
		}
		ch = getch();
		if (ch == ERR)
			continue;
		if (ch == KEY_RESIZE) {
			next = 0;
			continue;
		}
		if (!tui_key(c, ch))
			return;
		next = 0; /* show the effect at once */
	}
}

static int tui_refuse(const char *why)
{
	fg_err("tui: %s; the dashboard needs an interactive terminal", why);
	return -ENOTTY;
}

int tui_run(const struct tui_ops *ops)
{
	struct sigaction saved[FG_ARRAY_SIZE(tui_saved_sigs)];
	struct sigaction sa;
	const char *term = getenv("TERM");
	char *old_ctype;
	struct tui_ctx *c;
	SCREEN *scr;
	int rc = 0;

	if (!term || !*term)
		return tui_refuse("TERM is not set");
	if (!strcmp(term, "dumb"))
		return tui_refuse("TERM is \"dumb\"");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return tui_refuse("stdin or stdout is not a terminal");
	if (tcgetattr(STDIN_FILENO, &tui_saved_tio) != 0)
		return tui_refuse("cannot read the terminal settings");
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->snap = calloc(1, sizeof(*c->snap));
	if (!c->snap) {
		rc = -ENOMEM;
		goto err_free_ctx;
	}
	c->ops = ops;

	/* Our own handlers, installed before newterm so it keeps out. */
	for (size_t i = 0; i < FG_ARRAY_SIZE(tui_saved_sigs); i++)
		sigaction(tui_saved_sigs[i], NULL, &saved[i]);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = tui_on_sigint;
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = tui_on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	sa.sa_handler = tui_on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sa.sa_flags = 0;
	sa.sa_handler = SIG_IGN;
	sigaction(SIGTSTP, &sa, NULL); /* no job control inside the screen */
	tui_sigint = 0;
	tui_winch = 0;

	/* The character type only, so printf keeps its '.' decimal point. */
	old_ctype = strdup(setlocale(LC_CTYPE, NULL));
	setlocale(LC_CTYPE, "");
	c->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");

	fflush(stdout);
	fg_log_hold(true);
	scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		fg_log_hold(false);
		fg_err("tui: cannot initialise terminal \"%s\"", term);
		rc = -EIO;
		goto err_restore;
	}
	set_term(scr);
	tui_active = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	timeout(TUI_KEY_WAIT_MS);

	tui_loop(c);

	tui_active = 0;
	erase();
	refresh();
	endwin();
	delscreen(scr);
	fg_log_hold(false);
err_restore:
	tcsetattr(STDIN_FILENO, TCSADRAIN, &tui_saved_tio);
	if (old_ctype) {
		setlocale(LC_CTYPE, old_ctype);
		free(old_ctype);
	}
	for (size_t i = 0; i < FG_ARRAY_SIZE(tui_saved_sigs); i++)
		sigaction(tui_saved_sigs[i], &saved[i], NULL);
	free(c->snap);
err_free_ctx:
	free(c);
	return rc;
}
