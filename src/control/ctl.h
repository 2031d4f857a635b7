/*
 * ctl.h — control of the workers: creating them with their rings,
 * launching them on their lcores, and the traffic life cycle (start, stop,
 * pause, resume, rate updates, wait) posted through their mailboxes.
 *
 * Context: control.
 *
 * Included by: control and console.
 */
#ifndef FG_CTL_H
#define FG_CTL_H

#include "fg.h"

struct worker_ops;
struct wmsg;
struct worker;

/* Post m to worker w's mailbox (control's threads are its producers: the
 * console's, and the service thread's next-hop changes); false when the
 * mailbox is full. */
bool worker_post(struct worker *w, const struct wmsg *m);

/* Create `per_pair` workers for every port pair on the worker lcores, and launch them. */
int ctl_launch(int per_pair, char *err, size_t errlen);
/* Tell every worker to quit and wait for it. */
void ctl_shutdown(void);

/* Post m to every worker of port pair `pair` (all workers if pair < 0),
 * waiting while a mailbox is full. */
void ctl_post(const struct wmsg *m, int pair);

/*
 * The cancel flag of control's long waits (run_wait_idle, ping, arp,
 * `bench nat`): set when the user interrupts the command that waits (the
 * console sets it from its SIGINT handler: async-signal-safe), cleared
 * when a command begins. Control never reads the console's own flag.
 */
void ctl_set_cancel(bool on);
bool ctl_cancelled(void);

/* Traffic life cycle. `states[w]` is each worker's engine state, e the
 * engine's worker half; at_ns the planned start on the system clock
 * (start --at; 0: at once), which every worker's measured traffic begins
 * at: each worker puts it on its TSC itself, and again while it holds for
 * it (worker.c, worker_at_take). */
int ctl_start(const struct worker_ops *e, void **states, uint64_t run_id, int64_t at_ns);
void ctl_stop(void);
void ctl_pause(bool on);
/* scale every rate of the running traffic by `scale` (1.0 = as started) */
void ctl_rate(double scale);
/* true while any worker runs, pauses or drains traffic */
bool ctl_busy(void);
/* the run_id of the last ctl_start, once every worker has taken it; 0
 * before the first (any control thread) */
uint64_t ctl_run_id(void);
/* state of the traffic overall: enum ctr_state of the "most active" worker */
int ctl_state(void);

#endif
