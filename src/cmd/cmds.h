/*
 * cmds.h — the console's command table (flowgen(8), COMMANDS) and its
 * handlers. Context: console (the REPL's thread, which also runs control's
 * calls; README, "Design").
 *
 * Included by: cmd and main.c.
 */
#ifndef FG_CMDS_H
#define FG_CMDS_H

#include "fg.h"

struct cfg;

/* Installs the command table (cli_init), and nothing else (test_cmdtab reads it so). */
void cmds_install(void);

/*
 * A command line that reads files only and needs no port, config or DPDK
 * (`stats --from`, `record plot`, `help`, `echo`; an empty line or a
 * comment): -x of nothing else runs without them (main.c).
 */
bool cmds_files_only(const char *line);
/* Installs the command table for such lines alone; `json` is the --json default. */
void cmds_init_files(bool json);

/* Installs the command table into the console; `json` is the --json default. */
void cmds_init(const struct cfg *c, bool json);
/* Stops traffic and frees what the last run holds. */
void cmds_fini(void);

/* flowgen -v: every start prints its flow tables' plan, as start -v does. */
void cmds_set_verbose(bool on);

#endif
