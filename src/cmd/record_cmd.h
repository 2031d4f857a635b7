/*
 * record_cmd.h — the console's `record` command and `stats --from`
 * (record_cmd.c; flowgen(8), record and stats, FILES) over the recorder
 * of src/control/record.h and the reader of src/core/record_fmt.h.
 *
 * Included by: cmd.
 */
#ifndef FG_RECORD_CMD_H
#define FG_RECORD_CMD_H

#include <stdbool.h>

struct cmd_ctx;
struct cli_optspec;
struct record_sel;

/* The command table's options of `record` (start's, then status's). */
extern const struct cli_optspec record_spec;

/* `record start FILE [-i SECS] | stop | status [--json] | plot FILE OUT.svg`;
 * json: the program's --json default (status). 0 or -1. */
int record_cmd(struct cmd_ctx *x, int argc, char **argv, bool json);

/*
 * `stats --from FILE [--seq N]`: the figures of the record's line sel
 * picks, as `stats` prints them: the sections (stats.h; 0 all) as text
 * tables, or with json the "stats" object's members of those sections.
 * 0 or -1.
 */
int record_stats_from(struct cmd_ctx *x, const char *path, const struct record_sel *sel,
		      unsigned sections, bool json);

#endif
