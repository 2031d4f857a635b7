/*
 * natb.h — the control half of `bench nat` (natb.c, natb_timer.c,
 * natb_icmp.c, natb_io.c): the measurements, run on the ports' control
 * queues; their judgement is src/core/natb_judge.h.
 *
 * Included by: control and console.
 */
#ifndef FG_NATB_H
#define FG_NATB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "natb_judge.h"

struct natb_opts {
	bool udp, tcp, icmp;
	double tmax;	  /* --timeout-max, seconds */
	uint32_t inside;  /* first internal address; 0 = the client port's */
	uint32_t outside; /* first external (server) address; 0 = after the server port's */
	int pair;	  /* port pair: client port 2 * pair */
	FILE *progress;	  /* one line per probe step */
};

/*
 * control: run every measurement of o; 0, or -1 with fe saying why it could
 * not (traffic running, no next hop, bad addresses: nothing measured).
 */
int natb_run(const struct natb_opts *o, struct natb_result *r, struct fg_error *fe);

#endif
