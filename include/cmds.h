/*
 * cmds.h — the console's command table (SPEC §4) and its handlers.
 * Context: control.
 */
#ifndef FG_CMDS_H
#define FG_CMDS_H

#include "fg.h"

struct cfg;

/* Installs the command table into the console; `json` is the --json default. */
void cmds_init(const struct cfg *c, bool json);
/* Stops traffic and frees what the last run holds. */
void cmds_fini(void);

/*
 * What other commands (bench) share with start, wait and stop.
 */
struct run_params;

enum cmds_run_flag {
	CMDS_RUN_FORCE = 1u << 0,	  /* stop running traffic first */
	CMDS_RUN_KEEP_COUNTERS = 1u << 1, /* no stats_clear at the start */
	CMDS_RUN_QUIET = 1u << 2,	  /* no "started" line, no warnings */
};

/*
 * Load the profile `file`, prepare it with rp (the caller sets mult,
 * duration_s, port_mask, tunables, drain_s; prof, hz and flows_max are
 * filled in here) and start it; rp->prof then points at the run's profile
 * until the next start. A profile or rate that is refused leaves running
 * traffic alone. Errors are printed prefixed by `who`. 0 or -1.
 */
int cmds_run_start(const char *file, struct run_params *rp, unsigned flags, const char *who);
/* Until the workers are idle (true), `secs` pass (<0: no limit) or, if interruptible, ^C. */
bool cmds_wait_idle(double secs, bool interruptible);
/* Stop traffic and wait for it to drain (not cut short by ^C): 1 none ran, 0 stopped, -1 not drained. */
int cmds_stop_traffic(void);
/* The --json default of the program. */
bool cmds_json(void);
/* "0,1" or "0-3" as a bit mask of existing ports; -1 on a bad list. */
int64_t cmds_parse_ports(const char *s);

#endif
