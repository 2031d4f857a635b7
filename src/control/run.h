/*
 * run.h — the life cycle of a traffic run, as control sees it:
 * load a profile, describe its load and apply -m through the load model
 * (load.h), prepare the engine's per-worker states, start the workers,
 * then stop, pause, rescale and wait. The console's commands, the tui's
 * keys and `bench` all go through here; nothing else knows which engine a
 * profile's mode picks: that is the table of engines in run.c, one struct
 * engine (below) per engine, and nothing calls an engine but through it.
 *
 * Context: control. The statistics thread reads the running engine's
 * reports (latency rows, the NAT report) through hooks that take the
 * run's lock; workers never see it.
 *
 * Included by: control and console.
 */
#ifndef FG_RUN_H
#define FG_RUN_H

#include "fg.h"
#include "load.h"
#include "start_opts.h"
#include "units.h"

struct flowplan;
struct lat_hist;
struct lat_pow2;
struct lat_seq;
struct prof;
struct stats_lat_row;
struct stats_pair_row;
struct worker_ops;

/* A run: a profile plus the console's `start` arguments, what the engine
 * of its mode prepares its per-worker states from. */
struct run_params {
	const struct prof *prof;
	struct units_rate mult;		/* -m as parsed (multiplier or absolute rate) */
	double duration_s;		/* -d; 0 = until stop */
	uint32_t port_mask;		/* -p; bit per port, 0 = all */
	const char *tunables;		/* -t KEY=VAL,... or NULL */
	uint64_t active;		/* --active N: concurrent flows to hold; 0 = none */
	struct start_at at;		/* --at: the planned start; kind 0 = at once */
	uint64_t hz;			/* TSC ticks per second */
	uint32_t flows_max;		/* the most entries of a worker's flow table
					   (the config's flows_max); 0: not given */
	double drain_s;			/* wait for frames in flight after the last one;
					   0 = the engine's own (streams: the profile's
					   timeout, at most 1 s) */
	uint32_t cport_lo, cport_hi;	/* flows: client ports in place of the profile's
					   (bench: a window no earlier trial used);
					   both 0 = the profile's */
	int cport_order;		/* flows: enum prof_dist of the client ports'
					   order in place of the profile's; 0 = the
					   profile's */
	/* Filled in by run.c before prepare (see load.h): */
	double at_lead_s;			/* --at: seconds from now to it; 0 = none */
	uint64_t link_bps[FG_MAX_PORTS];	/* each port's link speed, 0 = unknown */
	struct load load;			/* what the engine's load() described */
	double factor[FG_MAX_PORTS];		/* -m applied: port p sends load.tx[p] x factor[p];
						   0 = nothing, or unpaced (-m max) */
};

/*
 * One traffic engine: its control half, which run.c calls on the
 * console's thread (the reports also on the statistics thread, under
 * run.c's lock), and its worker half, which START hands to every worker.
 * An engine is one of these, defined beside its control code (flows_ctl.h,
 * streams_ctl.h), and one row of run.c's table. Optional members may be
 * NULL.
 */
struct engine {
	const char *name;
	int mode;			/* enum prof_mode (prof-t.h) it runs */
	const struct worker_ops *worker; /* the loop's ops (worker-t.h) */
	/* what the run of rp sends per port at -m 1 (rp->prof, port_mask,
	 * link_bps set): the engine's side of the load model (load.h) */
	int (*load)(const struct run_params *rp, struct load *l, char *err, size_t errlen);
	/* states[w] for w in 0..fg_nworkers-1 at the rates of rp->factor;
	 * on failure nothing is left allocated and states[] is all NULL */
	int (*prepare)(const struct run_params *rp, void **states, char *err, size_t errlen);
	/* free what prepare made (the workers no longer use it) */
	void (*release)(void **states);
	/* optional: once the previous run has stopped, before START */
	int (*activate)(void **states, char *err, size_t errlen);
	/* optional: bytes of hugepage memory a worker's state takes at most
	 * with flows_max table entries (the memory plan of boot.h) */
	uint64_t (*worker_mem)(uint32_t flows_max);
	/* optional: the current run's flow tables as planned (flowplan.h), NULL
	 * for none; and whether they hold the run at `scale` of its start
	 * rate (update -m): 0, or -ERANGE with err set */
	const struct flowplan *(*tables)(void);
	int (*fits)(double scale, char *err, size_t errlen);
	/* optional reports for `stats` (the statistics thread) and GET
	 * /metrics (an HTTP thread): pow2, when not NULL, gets each row's
	 * delays cut at powers of two (lat.h) */
	int (*latency_rows)(struct stats_lat_row *rows, struct lat_pow2 *pow2, int max);
	int (*pair_rows)(struct stats_pair_row **rows, uint64_t *unmatched);
	void (*nat_report)(uint64_t *distinct_addrs, uint64_t *distinct_ports);
	/* optional reports for `plot` and `bench` */
	int (*latency_hist)(int row, struct lat_hist *h);
	int (*totals)(bool stamped_only, struct lat_hist *h, struct lat_seq *q, uint64_t *tx,
		      double *span_s);
	uint64_t (*fresh_tuples)(void);
};

/* The engine of profile mode `mode` (enum prof_mode), NULL for none. */
const struct engine *run_engine(int mode);

/* The most hugepage memory a worker's engine state takes with flows_max
 * table entries, of every engine (boot.h's memory plan). */
uint64_t run_worker_mem(uint32_t flows_max);

enum run_flag {
	RUN_FORCE = 1u << 0,	     /* stop running traffic first */
	RUN_KEEP_COUNTERS = 1u << 1, /* no stats_clear at the start */
};

/*
 * Who dispatches the command being run: the console (its prompt, batch
 * or -x) or the HTTP API (console/api.c). The origin of a run is that of
 * the command that started it; while it runs, a start from the other
 * origin is refused, --force or not, so neither side replaces the
 * other's traffic unseen.
 */
enum run_origin {
	RUN_ORIGIN_CONSOLE = 0,
	RUN_ORIGIN_API = 1,
	RUN_ORIGIN_COUNT
};
extern const char *const run_origin_names[RUN_ORIGIN_COUNT];

/* control: the origin of the commands that follow; returns the previous one. */
int run_set_origin(int origin);
/* control: the origin of the run that is going, -1 when none is. */
int run_going_origin(void);

/* control: the most entries of a worker's flow table (the config's
 * flows_max, 0 when it gives none); registers the stats hooks. */
void run_init(uint32_t flows_max);
/* control: stop traffic for good (at exit): the workers idle or gone,
 * the last run's figures still there (its states are kept). */
void run_halt(void);
/* control: run_halt, and free what the last run holds. */
void run_fini(void);

/*
 * A loaded profile as runs share it. The run that starts it holds a
 * reference until the next start (or run_fini): its workers read the
 * profile's programs and streams while they run. So a caller that starts
 * one profile again and again (bench, a trial each) loads it once and
 * keeps its own reference for as long as it needs the profile.
 */
struct run_prof;

/*
 * control: a shared profile holding *p (loaded: prof_load, prof_load_buf),
 * which it takes over (*p is left zeroed), with one reference, the
 * caller's. NULL when out of memory: *p is freed, e says so.
 */
struct run_prof *run_prof_new(struct prof *p, struct fg_error *e);
/* control: the profile sp holds (unchanged while anyone holds sp). */
const struct prof *run_prof_get(const struct run_prof *sp);
/* control: drop a reference; the last one frees the profile. NULL: nothing. */
void run_prof_put(struct run_prof *sp);

/*
 * control: prepare the profile of sp with rp (the caller sets mult,
 * duration_s, port_mask, tunables, drain_s, active, cport_*; the rest is
 * filled in here) and start it; rp->prof then points at the run's profile
 * until the next start. A profile or rate that is refused leaves running
 * traffic alone. Nothing is printed: what started is run_info's, and
 * on failure e holds why,
 * "WHO: what" (who: the command, or the request's field, that starts it),
 * and apart from it, in e->hint, what to do. 0 or -1.
 */
int run_start(struct run_prof *sp, struct run_params *rp, unsigned flags, const char *who,
	      struct fg_error *e);

/*
 * What the current (or last) run started with, for the command that
 * started it to show: its profile's path, engine and warnings (valid
 * until the next start), -m as given ("x2", "55000", "10%"), the seed,
 * the run's number, its duration (0: none) and how it ends without one.
 */
struct run_info {
	const char *file;
	const char *engine;
	char mult[48];
	unsigned seed;
	uint64_t run_id;
	double duration_s;
	bool counted;	   /* no duration: it ends when every stream has sent its count */
	bool service;	   /* service mode was on at the start */
	int64_t at_ns;	   /* the planned start, ns since the epoch (wallclock.h):
			      --at's time, or the start command's without */
	bool planned;	   /* --at was given */
	const char *const *warnings;
	size_t n_warnings;
	const struct flowplan *tables; /* the flow tables' plan (flowplan.h); NULL: none */
};
/* control: the current or last run's; -ENOENT before the first start. */
int run_info(struct run_info *ri);

/*
 * control: run_start of the profile at path `file`, loaded here (a profile
 * that does not load: e holds "FILE:LINE:COL: what is wrong", e->path the
 * file). 0 or -1.
 */
int run_start_file(const char *file, struct run_params *rp, unsigned flags, const char *who,
		   struct fg_error *e);

/*
 * control: what rp (prof and mult set) would offer, through the same load
 * model as run_start, without starting anything. -EINVAL for -m max
 * (unpaced: no known rate), -ERANGE above line rate; err says why.
 */
int run_offered(struct run_params *rp, struct load_offer *o, char *err, size_t errlen);

/* control: until the workers are idle (true), `secs` pass (<0: no limit) or, if interruptible, ^C. */
bool run_wait_idle(double secs, bool interruptible);
/* control: stop traffic and wait for it to drain: 1 none ran, 0 stopped, -1 not drained. */
int run_stop(bool interruptible);
/*
 * control: run_stop, calling between() (when not NULL) every 50 ms of the
 * drain, which lasts up to the profile's timeout and its flows' delays + 2
 * s: the console's `stop` runs the HTTP API's requests there, as `wait`
 * does (cli.h, cli_poll_now), so a poll is not held for the drain.
 */
int run_stop_serving(bool interruptible, void (*between)(void));
/* control: hold or continue the running traffic; -ENOENT when none runs. */
int run_pause(bool on);
/* control: true while a run generates or holds traffic (not once it drains). */
bool run_active(void);
/* control: true until the run's workers are idle (it drains too): once
 * false, the counts the run's snapshots give are final. */
bool run_busy(void);

/*
 * control: `update -m`: the running traffic at MULT m, which must have the
 * form start used. Refused (nothing changes) above line rate. 0 or -errno
 * with err set.
 */
int run_update(const struct units_rate *m, char *err, size_t errlen);
/* control: the tui's +/-: the rate times f, checked like run_update. */
int run_rescale(double f, char *err, size_t errlen);
/* control: the current rate against the start rate (1.0 = as started). */
double run_scale(void);

/*
 * The current (or last) run's reports, through its engine's row of the
 * table (a report the engine has none of: -ENOENT, or 0 rows / tuples):
 * the per-stream latency rows, the delays of one row, and the test frames
 * of every stream merged (streams_ctl.c, streams_totals).
 */
int run_latency_rows(struct stats_lat_row *rows, int max);
/* the same rows with their delays cut at powers of two (GET /metrics) */
int run_latency_pow2(struct stats_lat_row *rows, struct lat_pow2 *pow2, int max);
int run_latency_hist(int row, struct lat_hist *h);
int run_totals(bool stamped_only, struct lat_hist *h, struct lat_seq *q, uint64_t *tx,
	       double *span_s);
/* The distinct client (address, port) pairs the run used (flows_ctl.h). */
uint64_t run_fresh_tuples(void);

#endif
