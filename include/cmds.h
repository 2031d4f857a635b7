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

#endif
