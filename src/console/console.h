/*
 * console.h — the console's own rows of the command table: `tui`, the
 * dashboard, which needs the terminal and so belongs to no other front
 * end (the HTTP API refuses it).
 *
 * Context: control, on the console's thread.
 *
 * Included by: main.c.
 */
#ifndef FG_CONSOLE_H
#define FG_CONSOLE_H

/* control: add the console's rows to the command table (cli_add); 0 or -ENOSPC. */
int console_add_cmds(void);

#endif
