/*
 * bench_search.h — the pure part of the console's `bench` command:
 * automated measurements made of trials, each trial one run of a profile
 * at one rate for a fixed time, judged afterwards from the final counters.
 *
 *   throughput  RFC 2544 §26.1: binary search for the highest offered
 *               frame rate whose loss stays within a goal (0 % by
 *               default), then a full-length confirmation (RFC 2544 §24);
 *   latency     RFC 8219 §7.2 and §7.3: one trial at a given load; min,
 *               average, max, median, 99.9th percentile and PDV of the
 *               stamped frames, a lost stamped frame counting as an
 *               infinite delay;
 *   cps         RFC 9693 §4.5 (maximum connection establishment rate): the same
 *               search over the connection rate of a flows profile, a
 *               trial passing when every connection completed at both ends;
 *   capacity    RFC 9693 §4.9 (connection tracking table capacity): at a
 *               safe rate, the largest count of connections the DUT
 *               establishes all of, by doubling and then binary search
 *               (§4.9's Figure 5 with beta = gamma = 1: flowgen(8));
 *   teardown    RFC 9693 §4.8 (connection tear-down rate): N connections loaded
 *               into the DUT's table at a safe rate, then the table
 *               deleted by the user's command between two timestamps,
 *               N / (TimestampB - TimestampA); N grows as capacity's does
 *               (bench_teardown_judge).
 *
 * The module has three parts, one per context:
 *   pure     src/core/bench_search.c: which rate next, when to stop, the
 *            verdict of a trial, latency figures (unit-tested);
 *   control  src/control/bench.c: runs the trials through the same run
 *            life cycle as `start` and reads their counters;
 *   console  src/console/bench_cmd.c: options, usage, the trial table,
 *            --json and --csv, and bench_cmd, the command's entry point.
 * This header is the pure part (the fresh connections of a flows test
 * are bench_tuples.h); the interface between the control and console
 * halves is src/control/bench.h, the command's entry point
 * src/console/bench_cmd.h.
 *
 * Included by: every folder.
 */
#ifndef FG_BENCH_SEARCH_H
#define FG_BENCH_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_TX_TOLERANCE_PCT 0.1  /* achieved vs offered rate (flowgen(8), bench) */
#define BENCH_MIN_STAMPED 500	    /* RFC 8219 §7.2: stamped frames for a latency figure */
#define BENCH_LATE_WAIT_S 2.0	    /* RFC 2544 §23: wait for late frames after a trial */
#define BENCH_FLOOR_FRAC 0.001	    /* the search gives up below this share of its start */
#define BENCH_SPAN_MIN_FRAC 0.99    /* a trial sends for at least this share of its time */
#define BENCH_DEF_RES_PCT 0.5	    /* default resolution, % of the failing rate */
#define BENCH_CAPACITY_MAX_S 3600.0 /* capacity: the longest trial (connections / rate) */
#define BENCH_INVALID_RETRIES 2	    /* an invalid search trial is run again this often */
#define BENCH_DEF_TRIAL_S 10.0	    /* default trial time */
#define BENCH_DEF_CONFIRM_S 60.0    /* default confirmation trial time (RFC 2544 §24) */
#define BENCH_CONFIRM_STEPS 5	    /* a failed confirmation steps down at most this often */

enum bench_kind {
	BENCH_THROUGHPUT = 1,
	BENCH_LATENCY,
	BENCH_CPS,
	BENCH_CAPACITY,
	BENCH_TEARDOWN,
};
#define BENCH_KIND_COUNT (BENCH_TEARDOWN + 1)
/* pure: the test names, as the command takes them. */
extern const char *const bench_kind_names[BENCH_KIND_COUNT];

/* pure: the tests that run a flows profile (connections, not frames). */
static inline bool bench_kind_flows(enum bench_kind k)
{
	return k == BENCH_CPS || k == BENCH_CAPACITY || k == BENCH_TEARDOWN;
}

/*
 * A binary search over a rate in (0, top]. The first trial is at top; then
 * each trial halves the interval between the highest rate that passed (lo,
 * 0 while none has) and the lowest that failed (hi). The search ends when
 * hi - lo is within res_pct % of hi (the result, lo, is then within res_pct
 * % of the true figure), when top itself passed, or, with nothing passed,
 * once hi falls to floor (BENCH_FLOOR_FRAC of top).
 */
struct bench_search {
	double top;	/* the first and highest rate */
	double res_pct; /* resolution, % of hi */
	double floor;	/* lowest hi worth a trial while nothing passed */
	double lo;	/* highest rate that passed; 0: none */
	double hi;	/* lowest rate that failed; top before any failure */
	unsigned trials;
};

/* pure: top > 0 and finite, 0 < res_pct < 100; 0 or -EINVAL. */
int bench_search_init(struct bench_search *s, double top, double res_pct);

/* pure: the rate of the next trial, or 0 when the search is over. */
double bench_search_next(const struct bench_search *s);

/*
 * pure: the outcome of a trial at `rate`. A failed trial whose tester could
 * not offer the rate (it sent only `cap` per second, cap < rate) moves hi to
 * cap: nothing above what the tester achieved can be measured. cap 0: none.
 */
void bench_search_record(struct bench_search *s, double rate, bool passed, double cap);

/* pure: the highest rate that passed; 0 if none did. */
static inline double bench_search_result(const struct bench_search *s) { return s->lo; }

/*
 * The confirmation of a search's result (short search trials, then one
 * trial at full length, RFC 2544 §24; README, "Interactive quick start"):
 * the first trial is at the rate found;
 * after a failure the next is res_pct % lower (the search's resolution),
 * up to BENCH_CONFIRM_STEPS steps down, so at most 1 + BENCH_CONFIRM_STEPS
 * rates, from found down to found x (1 - res_pct / 100)^BENCH_CONFIRM_STEPS.
 * The first rate that passes is confirmed; once one has, or the last step
 * failed, it is over.
 */
struct bench_confirm {
	double found;	/* the search's result */
	double res_pct; /* the step down, % of the rate that failed */
	double rate;	/* the rate of the next trial; the confirmed one once passed */
	unsigned steps; /* steps down taken */
	bool passed;	/* a trial at rate passed */
	bool over;
};

/* pure: found > 0 and finite, 0 < res_pct < 100; 0 or -EINVAL. */
int bench_confirm_init(struct bench_confirm *c, double found, double res_pct);

/* pure: the rate of the next confirmation trial, or 0 when it is over. */
static inline double bench_confirm_next(const struct bench_confirm *c)
{
	return c->over ? 0 : c->rate;
}

/*
 * pure: the outcome of the trial at bench_confirm_next's rate. An invalid
 * trial (after its retries) is recorded as failed: it confirmed nothing.
 */
void bench_confirm_record(struct bench_confirm *c, bool passed);

/* pure: the confirmed rate; 0 while none is (or when none was). */
static inline double bench_confirm_result(const struct bench_confirm *c)
{
	return c->passed ? c->rate : 0;
}

/*
 * The capacity search over a count of connections n: from n0, n doubles
 * while every connection of a trial completes (up to max); the first
 * failure bounds it, and a binary search between the largest n that passed
 * (lo) and the smallest that failed (hi) ends when hi - lo is within
 * res_pct % of hi, or 1. If n0 already fails, the search goes down from it.
 */
struct bench_grow {
	uint64_t n0, max;
	double res_pct;
	uint64_t lo; /* largest n that passed; 0: none */
	uint64_t hi; /* smallest n that failed; 0: none yet */
	unsigned trials;
};

/* pure: 1 <= n0 <= max, 0 < res_pct < 100; 0 or -EINVAL. */
int bench_grow_init(struct bench_grow *g, uint64_t n0, uint64_t max, double res_pct);
/* pure: the n of the next trial, or 0 when the search is over. */
uint64_t bench_grow_next(const struct bench_grow *g);
/* pure: the outcome of a trial of n connections. */
void bench_grow_record(struct bench_grow *g, uint64_t n, bool passed);

/*
 * Latency of the stamped frames of a trial (microseconds). The percentiles
 * count every lost stamped frame as an infinite delay (RFC 8219 §7.2): a
 * percentile whose rank falls among the lost frames is INFINITY, and so is
 * PDV = p99.9 - min then.
 */
struct bench_lat {
	uint64_t frames;  /* stamped frames sent */
	uint64_t samples; /* delays measured */
	uint64_t lost;	  /* stamped frames that never arrived */
	double min_us, avg_us, max_us;
	double p50_us, p99_us, p999_us, pdv_us;
};

struct lat_hist;

/* pure: the summary of h (delays of the stamped frames), frames sent, lost. */
void bench_lat_summary(const struct lat_hist *h, uint64_t frames, uint64_t lost,
		       struct bench_lat *out);

/*
 * One trial of bench teardown (RFC 9693 §4.8, connection tear-down rate): N
 * connections loaded into the DUT's connection tracking table at a safe
 * rate, then TimestampA, the DUT's table deleted (the user's --dut-cmd,
 * which returns once it is done), TimestampB; the rate is N / (TimestampB
 * - TimestampA). Filled in by the caller, judged by bench_teardown_judge.
 */
struct bench_teardown {
	/* in */
	uint64_t n;	     /* connections asked for */
	uint64_t started;    /* connections the tester started by TimestampA */
	uint64_t loaded;     /* connections the tester had through the DUT at TimestampA
				(its server sides accepted, none failed) */
	uint64_t failed;     /* connections that failed while loading */
	int64_t ta_ns, tb_ns; /* TimestampA and TimestampB (a monotonic clock) */
	int cmd_rc;	     /* --dut-cmd's exit status (-1: it could not run) */
	bool counted;	     /* --dut-count gave the DUT's entries */
	uint64_t dut_before; /* ... at TimestampA */
	uint64_t dut_after;  /* ... once the command returned */
	/* out */
	double secs;	     /* TimestampB - TimestampA */
	double rate;	     /* connections torn down per second: loaded / secs */
};

/* One trial: what was asked and counted (filled in by the caller), and the verdict. */
struct bench_trial {
	/* in */
	double rate;		   /* offered per second: frames (streams) */
	double line_pct;	   /* offered load of the busiest port, % of line rate */
	char mult[48];		   /* the -m that offers it */
	double secs;		   /* nominal trial time */
	bool confirm;		   /* a confirmation trial of a search's result */
	uint64_t conns;		   /* capacity: the connections asked for */
	uint32_t port_lo, port_hi; /* flows: the trial's window of client ports (0: the profile's) */
	int port_order;		   /* flows: their order, enum prof_dist (0: streams) */
	uint64_t tuples;	   /* flows: distinct client (address, port) pairs it used */
	double span;		   /* measured: start of measured traffic to its last burst */
	unsigned senders;	   /* pacers; each may be one frame off at the trial's edges */
	uint64_t tx, rx, lost;	   /* test frames sent, received once, lost */
	uint64_t queue_full;	   /* frames the tester's TX queues refused */
	uint64_t oerrors, imissed; /* the tester's NICs */
	struct bench_lat lat;
	struct bench_teardown td; /* teardown: its own figures (zero for the others) */
	/* out: bench_trial_judge */
	double achieved; /* tx / span */
	double loss_pct; /* lost * 100 / tx */
	bool valid;
	bool passed;   /* valid and loss_pct <= the goal */
	char why[128]; /* why not valid, or why failed */
};

/*
 * pure: judge a trial against a loss goal (%). Invalid (flowgen(8), bench:
 * "honest offered load") when nothing was sent; when sending took longer
 * than the trial's time, or stopped before BENCH_SPAN_MIN_FRAC of it (a
 * tester that stalled at the end); when the achieved rate (frames over the time
 * spent sending them) is off the offered one by more than
 * BENCH_TX_TOLERANCE_PCT % (and more than one frame per sender); or when
 * the tester itself dropped frames (TX queue full, NIC oerrors or
 * imissed). A valid trial passes when its loss is within the goal.
 */
void bench_trial_judge(struct bench_trial *t, double loss_goal_pct);

/*
 * pure: judge a teardown trial into t (its rate, valid, passed, why; td
 * its figures). Invalid when the command failed (a nonzero exit), when the
 * timestamps are not in order, or when the DUT still counted entries of
 * the load after the command returned (TimestampB would be early), or
 * when the tester started fewer than N by more than
 * BENCH_TX_TOLERANCE_PCT % (its shortfall, not the DUT's). A valid trial
 * passes when every connection started was loaded (none failed, all
 * through the DUT) and, counted, the DUT held at least as many entries
 * at TimestampA: only then is the count loaded (RFC 9693's N) what was
 * torn down.
 */
void bench_teardown_judge(struct bench_trial *t);

struct units_rate;

/*
 * pure: the -m that units_parse_mult reads back as r ("14880952pps",
 * "2.8125", "100%", "1000000000bps_l1"), whole numbers from 1e5 up.
 */
void bench_mult_str(const struct units_rate *r, char *buf, size_t len);

#endif
