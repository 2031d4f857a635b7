/*
 * record_cmd.c — the `record` console command (flowgen(8), record) and
 * `stats --from`, on the console's thread: `record start FILE [-i SECS]`,
 * `record stop` and `record status [--json]` drive the recorder of
 * src/control/record.c and give its state as their value; `record plot
 * FILE OUT.svg` draws a record's frame rates (plot.c); `stats --from FILE`
 * prints a record's line as `stats` prints the live figures (the text
 * tables from the snapshot record_snap makes of it, or the JSON members
 * as they were written). Lines that are no record line are skipped with a
 * warning naming FILE:LINE.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"
#include "json.h"
#include "plot.h"
#include "record.h"
#include "record_cmd.h"
#include "record_fmt.h"
#include "stats.h"
#include "units.h"

#define RECORD_WARN_MAX 20 /* warnings shown; the rest are counted */

static const char record_usage[] = "record start FILE [-i|--interval SECONDS] | record stop | "
				   "record status [--json] | record plot FILE OUT.svg";

static const struct option rec_status_longs[] = {{"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
static const struct cli_optspec rec_status_spec = {.longs = rec_status_longs};
static const struct option rec_start_longs[] = {{"interval", required_argument, NULL, 'i'},
						{NULL, 0, NULL, 0}};
static const char *const rec_words[] = {"start", "stop", "status", "plot", NULL};

const struct cli_optspec record_spec = {
    .shorts = "i:", .longs = rec_start_longs, .words = rec_words, .next = &rec_status_spec};

static int rec_bad(struct cmd_ctx *x, const char *what)
{
	return cmd_fail(x, FG_E_USAGE, NULL, NULL, "record: %s; usage: %s", what, record_usage);
}

/* ---- warnings of the reader ---- */

struct warns {
	struct cmd_ctx *x;
	unsigned n;
};

static void warn_line(void *arg, const char *msg)
{
	struct warns *w = arg;

	if (w->n++ < RECORD_WARN_MAX)
		fprintf(w->x->errout, "warning: %s\n", msg);
}

static void warn_end(struct warns *w, const char *path)
{
	if (w->n > RECORD_WARN_MAX)
		fprintf(w->x->errout, "warning: %s: %u more lines skipped\n", path,
			w->n - RECORD_WARN_MAX);
	fflush(w->x->errout);
}

/* ---- record start / stop / status ---- */

/* The recording's state: {"record": {...}} through j. */
static void rec_json(struct jw *j, const struct record_status *st)
{
	jw_obj(j, NULL);
	jw_obj(j, "record");
	jw_bool(j, "recording", st->active && !st->failed);
	jw_str(j, "file", st->path[0] ? st->path : NULL);
	jw_num(j, "interval_s", st->interval_s, 3);
	jw_u64(j, "lines", st->lines);
	jw_u64(j, "bytes", st->bytes);
	jw_num(j, "seconds", st->secs, 3);
	jw_str(j, "error", st->error[0] ? st->error : NULL);
	jw_obj_end(j);
	jw_obj_end(j);
}

/* The recording's state as the command's value, when one is asked for. */
static int rec_value(struct cmd_ctx *x, const struct record_status *st, int rc)
{
	struct jw j, *v = cmd_value_begin(x, &j);

	if (v)
		rec_json(v, st);
	return cmd_value_end(x, v, rc);
}

static int rec_start(struct cmd_ctx *x, int argc, char **argv)
{
	double secs = RECORD_INTERVAL_DEFAULT;
	char err[FG_ERRLEN];
	struct record_status st;
	int c;

	cli_getopt_reset();
	while ((c = cli_getopt(argc, argv, &record_spec)) != -1) {
		if (c != 'i')
			return rec_bad(x, "unknown option");
		if (units_parse_duration(optarg, &secs, err, sizeof(err)) != 0)
			return cmd_fail(x, FG_E_USAGE, "-i", NULL, "record: -i %s", err);
	}
	if (optind != argc - 1)
		return rec_bad(x, "start takes one file name");
	if (record_start(argv[optind], secs, err, sizeof(err)) != 0)
		return cmd_fail(x, FG_E_REFUSED, argv[optind],
				strstr(err, "already recording") ? "record stop first" : NULL,
				"record: %s", err);
	record_status(&st);
	fprintf(x->out, "recording to %s every %g s\n", st.path, st.interval_s);
	return rec_value(x, &st, 0);
}

static int rec_status(struct cmd_ctx *x, bool json)
{
	struct record_status st;

	record_status(&st);
	if (json || x->value) {
		struct jw j;

		cmd_json_begin(x, &j, false);
		rec_json(&j, &st);
		if (cmd_json_end(x, &j) < 0)
			return cmd_fail(x, FG_E_INTERNAL, NULL, NULL, "out of memory");
		if (json)
			return 0;
	}
	if (!st.active && !st.path[0])
		fprintf(x->out, "record: none\n");
	else if (st.failed)
		fprintf(x->out, "record: %s stopped on an error: %s\n", st.path, st.error);
	else
		fprintf(x->out,
			"record: %s %s, every %g s, %" PRIu64 " lines (%" PRIu64
			" bytes), %.1f s\n",
			st.active ? "recording to" : "stopped,", st.path, st.interval_s, st.lines,
			st.bytes, st.secs);
	return 0;
}

static int rec_stop(struct cmd_ctx *x)
{
	struct record_status st;

	if (record_stop(&st) != 0)
		return cmd_fail(x, FG_E_REFUSED, NULL, "record start FILE",
				"record: no recording is running");
	if (st.failed)
		fprintf(x->out, "record: %s had stopped on an error: %s\n", st.path, st.error);
	else
		fprintf(x->out, "record stopped: %" PRIu64 " lines (%" PRIu64 " bytes) in %s\n",
			st.lines, st.bytes, st.path);
	return rec_value(x, &st, 0);
}

/* ---- record plot ---- */

static int rec_plot(struct cmd_ctx *x, const char *path, const char *out)
{
	struct warns w = {.x = x};
	struct record_warn rw = {warn_line, &w};
	struct record_point *p = NULL;
	size_t n = 0;
	struct jw j;
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return cmd_fail(x, FG_E_FAILED, path, NULL, "record plot: %s: %s", path,
				strerror(errno));
	rc = record_points(f, path, &rw, &p, &n);
	fclose(f);
	warn_end(&w, path);
	if (rc)
		return cmd_fail(x, FG_E_FAILED, path, NULL, "record plot: %s: %s", path,
				rc == -ENOENT ? "no record line" : strerror(-rc));
	rc = plot_record(out, path, p, n);
	if (rc == 0) {
		fprintf(x->out, "plotted %zu lines of %s (lines %lu to %lu) to %s\n", n, path,
			p[0].line, p[n - 1].line, out);
		if (x->value) {
			cmd_json_begin(x, &j, false);
			jw_obj(&j, NULL);
			jw_str(&j, "file", out);
			jw_str(&j, "record", path);
			jw_u64(&j, "points", n);
			jw_u64(&j, "first_line", p[0].line);
			jw_u64(&j, "last_line", p[n - 1].line);
			jw_u64(&j, "skipped", w.n);
			jw_obj_end(&j);
			rc = cmd_json_end(x, &j) < 0 ? -1 : 0;
		}
	}
	free(p);
	return rc;
}

int record_cmd(struct cmd_ctx *x, int argc, char **argv, bool json)
{
	if (argc < 2)
		return rec_bad(x, "start, stop, status or plot?");
	if (!strcmp(argv[1], "start"))
		return rec_start(x, argc - 1, argv + 1);
	if (!strcmp(argv[1], "stop")) {
		if (argc != 2)
			return rec_bad(x, "stop takes no arguments");
		return rec_stop(x);
	}
	if (!strcmp(argv[1], "status")) {
		if (argc == 3 && !strcmp(argv[2], "--json"))
			json = true;
		else if (argc != 2)
			return rec_bad(x, "status takes only --json");
		return rec_status(x, json);
	}
	if (!strcmp(argv[1], "plot")) {
		if (argc != 4)
			return rec_bad(x, "plot takes a record and an SVG file");
		return rec_plot(x, argv[2], argv[3]);
	}
	return rec_bad(x, "start, stop, status or plot?");
}

/* ---- stats --from ---- */

/* The members of stats of the sections (as stats_json writes them), in its order. */
static json_t *sections_of(const json_t *stats, unsigned sections)
{
	static const struct {
		const char *key;
		unsigned sections;
	} keys[] = {
	    {"global", STATS_G},  {"ports", STATS_P},
	    {"flows", STATS_A},	  {"templates", STATS_A | STATS_T},
	    {"latency", STATS_L}, {"workers", STATS_W},
	};
	json_t *o = json_object();

	if (!sections)
		sections = STATS_ALL;
	for (void *it = json_object_iter((json_t *)stats); o && it;
	     it = json_object_iter_next((json_t *)stats, it)) {
		const char *k = json_object_iter_key(it);

		for (size_t i = 0; o && i < FG_ARRAY_SIZE(keys); i++)
			if (!strcmp(k, keys[i].key) && (sections & keys[i].sections) &&
			    json_object_set(o, k, json_object_iter_value(it)) != 0) {
				json_decref(o);
				o = NULL;
			}
	}
	return o;
}

/* "2026-12-05T10:00:00.123Z" of a line's t */
static const char *utc(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;
	size_t n;

	if (!isfinite(t) || !gmtime_r(&s, &tm)) {
		snprintf(buf, len, "?");
		return buf;
	}
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03dZ", (int)((t - (double)s) * 1000));
	return buf;
}

/* The text of `stats --from`: where the line is from, then the tables. */
static int from_text(struct cmd_ctx *x, const char *path, unsigned long lineno, const json_t *line,
		     unsigned sections)
{
	struct stats_snap *s = malloc(sizeof(*s));
	const json_t *rid = json_object_get(line, "run_id");
	const char *state = json_string_value(json_object_get(line, "state"));
	char when[40], run[32] = "-";
	int rc;

	if (!s)
		return cmd_fail(x, FG_E_INTERNAL, NULL, NULL, "out of memory");
	record_snap(json_object_get(line, "stats"), s);
	if (json_is_integer(rid))
		snprintf(run, sizeof(run), "%" JSON_INTEGER_FORMAT, json_integer_value(rid));
	fprintf(x->out, "Record %s, line %lu: seq %" JSON_INTEGER_FORMAT ", %s, run %s, %s%s\n\n",
		path, lineno, json_integer_value(json_object_get(line, "seq")),
		utc(json_number_value(json_object_get(line, "t")), when, sizeof(when)), run,
		state ? state : "?", json_is_true(json_object_get(line, "final")) ? ", final" : "");
	rc = stats_write_text(x->out, s, sections);
	free(s);
	return rc < 0 ? cmd_fail(x, FG_E_FAILED, NULL, NULL, "stats: %s", strerror(-rc)) : 0;
}

int record_stats_from(struct cmd_ctx *x, const char *path, const struct record_sel *sel,
		      unsigned sections, bool json)
{
	struct warns w = {.x = x};
	struct record_warn rw = {warn_line, &w};
	unsigned long lineno;
	json_t *line, *v;
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return cmd_fail(x, FG_E_FAILED, path, NULL, "stats --from %s: %s", path,
				strerror(errno));
	rc = record_pick(f, path, sel, &rw, &line, &lineno);
	fclose(f);
	warn_end(&w, path);
	if (rc == -ENOENT && sel->by_seq)
		return cmd_fail(x, FG_E_FAILED, "--seq", NULL,
				"stats --from %s: no record line of seq %" PRIu64, path, sel->seq);
	if (rc)
		return cmd_fail(x, FG_E_FAILED, path, NULL, "stats --from %s: %s", path,
				rc == -ENOENT ? "no record line" : strerror(-rc));
	if (!json) {
		rc = from_text(x, path, lineno, line, sections);
		json_decref(line);
		return rc;
	}
	v = sections_of(json_object_get(line, "stats"), sections);
	json_decref(line);
	if (!v)
		return cmd_fail(x, FG_E_INTERNAL, NULL, NULL, "out of memory");
	if (x->value) {
		json_decref(x->result);
		x->result = v;
		return 0;
	}
	rc = jw_dump(x->out, v, false);
	json_decref(v);
	fflush(x->out);
	return rc < 0 ? -1 : 0;
}
