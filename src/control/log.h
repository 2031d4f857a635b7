/*
 * log.h — messages for the user (log.c), held back while the dashboard
 * owns the screen.
 *
 * Included by: control and console.
 */
#ifndef FG_LOG_H
#define FG_LOG_H

#include <stdbool.h>

/* control: messages for the user. fg_err goes to stderr. */
void fg_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fg_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* control: while the dashboard owns the screen, messages are held back. */
void fg_log_hold(bool hold);

#endif
