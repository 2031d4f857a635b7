/*
 * bench.h — what the two halves of `bench` share and nothing else
 * includes. The console half (src/console/bench_cmd.c) parses the options
 * and calls bench_run; the control half (src/control/bench.c) runs the
 * trials and hands each one, and then the result, back through a
 * struct bench_report of callbacks, so that every line the user sees
 * (table, text result, JSON, CSV) is written by the console. The control
 * half writes nothing but its error messages (fg_err, standard error).
 * Its progress is also kept for GET /metrics (bench_progress_get).
 *
 * Included by: control and console.
 */
#ifndef FG_BENCH_H
#define FG_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_search.h"
#include "bench_tuples.h"
#include "units.h"

/* The command's options, as bench_cmd parsed them. */
struct bench_opts {
	enum bench_kind kind;
	const char *file;
	struct units_rate mult;
	bool have_mult;
	double loss_pct, res_pct, trial_s, pause_s;
	double confirm_s; /* 0: no confirmation trial */
	bool have_confirm;
	int64_t mask;
	const char *tunables;
	bool json;
	const char *csv_path;
	const char *plot_path; /* --plot FILE.svg (plot.h) */
	bool reuse;	     /* cps, capacity: trials may use earlier trials' tuples */
	double dut_timeout;  /* the DUT's connection timeout, s; 0: not stated */
	/* teardown (RFC 9693, connection tear-down rate): the user's commands
	 * that act on the DUT, run by /bin/sh: delete its connection tracking
	 * table (required), print its count of entries (optional) */
	const char *dut_cmd, *dut_count;
	uint64_t max_conns; /* capacity, teardown: the largest count tried; 0: rate x 3600 s */
};

/* What a test starts from, known before its first trial. */
struct bench_plan {
	char mult[48];	 /* the -m of the start rate (capacity, latency: the -m given) */
	double rate;	 /* what it offers per second: frames or connections */
	double line_pct; /* the busiest port's share of line rate (streams; 0 for flows) */
	uint64_t n0;	 /* capacity: connections of the first trial */
};

/* The outcome of a test, handed over while its trials are still held. */
struct bench_result {
	const struct bench_trial *t; /* every trial, in the order run */
	size_t n;
	bool interrupted;	/* ^C ended it */
	struct bench_plan plan; /* as reported before the first trial */
	long best;		/* index into t, -1 for none: throughput and cps, the
				 * search's figure; capacity and teardown, the largest
				 * count that passed; latency, the trial */
	long confirmed;		/* throughput and cps: the trial that confirmed; -1 */
	bool at_limit;		/* capacity: nothing failed up to the largest count */
	bool valid;		/* latency: a valid trial with enough stamped frames */
};

/*
 * How the control half reports. Every callback gets ctx. begin runs once
 * the profile suits the test, before anything is sent (0, or -1 to give
 * up, having said why); plan once the start rate is known; trial after
 * each trial is judged (n counts from 1); result once the trials are over,
 * also after ^C, but not when a trial could not run (an error was printed
 * instead). stop tells whether the user asked to stop (^C).
 */
struct bench_report {
	void *ctx;
	int (*begin)(void *ctx);
	void (*plan)(void *ctx, const struct bench_plan *p);
	void (*trial)(void *ctx, const struct bench_trial *t, size_t n);
	void (*result)(void *ctx, const struct bench_result *r);
	bool (*stop)(void *ctx);
};

/*
 * control: run the test o->kind (the profile o->file loaded once; every
 * trial starts it through run_start, as `start` does) and report it
 * through rep. 0; or -1: refused, a trial could not run, ^C ended it (fe
 * says why), or latency had no valid figure (the report's result shows
 * it). A search that found nothing still returns 0.
 */
struct fg_error;
int bench_run(const struct bench_opts *o, const struct bench_report *rep, struct fg_error *fe);

/*
 * What GET /metrics shows of bench (flowgen(8), API): whether a test runs,
 * which, its trials since flowgen started (all tests), the trial running
 * or last run, and this test's highest passing rate. Any thread.
 */
struct bench_progress {
	bool running;
	enum bench_kind kind;	 /* of the test running or last run; 0: none yet */
	uint64_t trials, passed; /* trials judged and those that passed, all tests */
	double rate;		 /* the trial running (or last): offered per second */
	uint64_t conns;		 /* capacity: its connections */
	double best;		 /* this test's highest passing rate; 0: none yet */
};

void bench_progress_get(struct bench_progress *out);

#endif
