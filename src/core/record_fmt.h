/*
 * record_fmt.h — the record of `--record FILE` and `record start FILE`
 * (flowgen(8), FILES): JSON Lines (one JSON object per line, each ended by
 * a newline, RFC 8259 text), a line per interval, per run end and when
 * the recording ends. A line is the header below and, as "stats", the
 * object `stats --json` prints:
 *
 *   {"t":1765000000.123456,"seq":3,"reason":"interval","run_id":2,
 *    "state":"running","final":false,"stats":{"global":{...},...}}
 *
 * Here the line's header (written by the recorder, src/control/record.c)
 * and what reads a record back: a line checked as a record line, the line
 * `stats --from` picks, the points `record plot` draws, and a "stats"
 * object turned back into the snapshot the text tables of `stats` print
 * (the inverse of stats_json, src/control/stats_json.c). A line that is
 * not a record line (a partial last line cut off by a kill, anything
 * else) is skipped with a warning naming FILE:LINE.
 *
 * Context: pure (reads only the FILE * it is given; no globals, no EAL);
 * unit-tested in test/unit/test_record.c (record_fmt.c).
 *
 * Included by: every folder.
 */
#ifndef FG_RECORD_FMT_H
#define FG_RECORD_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_t; /* jansson's */
struct jw;
struct stats_snap;

/* Why a line was written (its "reason"). */
enum record_reason {
	RECORD_START = 0, /* the recording began (seq 0) */
	RECORD_INTERVAL,  /* the interval came round */
	RECORD_END,	  /* a run ended: its end figures (final) */
	RECORD_STOP,	  /* `record stop` */
	RECORD_EXIT,	  /* flowgen exits */
	RECORD_REASON_COUNT
};
extern const char *const record_reason_names[RECORD_REASON_COUNT];

/* A line's header (flowgen(8), FILES). */
struct record_head {
	double t;     /* Unix time the figures were taken, in seconds */
	uint64_t seq; /* 0, 1, 2 ... within one recording */
	enum record_reason reason;
	uint64_t run_id;   /* the run's number (start's run_id); 0: none yet (null) */
	const char *state; /* the traffic's: "idle", "running", "paused", "draining" */
	bool final;	   /* a run's end figures (see flowgen(8), FILES) */
};

/* pure: the header's members, into the object open on j. */
void record_head_json(struct jw *j, const struct record_head *h);

/*
 * pure: the line of len bytes (its newline may be there or not) as a
 * record line: an object with "t" (a number), "seq" (a whole number),
 * "final" (true or false) and "stats" (an object). 0 and *obj (a new
 * reference), or -1 and why it is not one.
 */
int record_parse(const char *line, size_t len, struct json_t **obj, char *why, size_t whylen);

/* What a reader says about a line it skipped: "FILE:LINE: ..." to fn. */
struct record_warn {
	void (*fn)(void *arg, const char *msg);
	void *arg;
};

/* Which line `stats --from` takes: the last record line, or with by_seq
 * the last whose seq is seq (in an appended file, the latest recording's). */
struct record_sel {
	bool by_seq;
	uint64_t seq;
};

/*
 * pure: read the record on f (called name in the warnings; w may be NULL)
 * to its end and pick the line of sel: *line its object (a new reference)
 * and *lineno its line number (from 1). Each line that is not a record
 * line is skipped, with a warning. 0; -ENOENT: no such line; -EIO: f
 * could not be read; -ENOMEM.
 */
int record_pick(FILE *f, const char *name, const struct record_sel *sel,
		const struct record_warn *w, struct json_t **line, unsigned long *lineno);

/* One line of a record as `record plot` draws it. */
struct record_point {
	double t; /* the line's "t" */
	uint64_t seq;
	uint64_t run_id; /* 0: none */
	bool final;
	bool end;	       /* a run's end line (reason "end") */
	bool rated;	       /* tx_pps and rx_pps were measured (not null) */
	double tx_pps, rx_pps; /* stats.global's */
	unsigned long line;    /* its line number in the file */
};

/*
 * pure: the points of the last recording on f (a file appended to by
 * several holds one recording after another, each from a line of seq 0):
 * *pts malloc'd (free it), *n of them, in the file's order. Skipped lines
 * as in record_pick. 0; -ENOENT: no record line; -EIO; -ENOMEM.
 */
int record_points(FILE *f, const char *name, const struct record_warn *w, struct record_point **pts,
		  size_t *n);

/*
 * pure: the object `stats --json` printed (a record line's "stats") as the
 * snapshot it was written from, as far as the JSON keeps it: counters as
 * they are, rates and figures as printed (2 or 3 decimals), null as not
 * measured, the ports' total summed again (stats_total); the drivers'
 * xstats and the host pairs are not part of a snapshot. A member missing
 * is left 0. 0, or -EINVAL when stats is not an object.
 */
int record_snap(const struct json_t *stats, struct stats_snap *s);

#endif
