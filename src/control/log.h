/*
 * log.h — messages for the user (log.c), held back while the dashboard
 * owns the screen.
 *
 * Included by: control, cmd, console and api.
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

/*
 * The messages of one thread, as values for whoever runs a command there
 * (the command layer, src/cmd/cli.c): while a sink is pushed, each message
 * logged from the pushing thread is handed to fn (the line without its
 * "error: " or "warning: " prefix); fn returns true when it took the
 * message, false to have it printed as usual as well. Messages of other
 * threads are never a sink's. Sinks nest (a command run inside another,
 * as the API's inside `wait`): the newest one gets them.
 */
enum fg_log_level {
	FG_LOG_INFO = 0,
	FG_LOG_WARN = 1,
	FG_LOG_ERR = 2,
};

struct fg_log_sink {
	bool (*fn)(void *arg, enum fg_log_level level, const char *line);
	void *arg;
	struct fg_log_sink *prev; /* set by fg_log_push */
};

/* control: push s (kept by pointer until popped) / pop it; pops must match pushes. */
void fg_log_push(struct fg_log_sink *s);
void fg_log_pop(struct fg_log_sink *s);

#endif
