/*
 * worker-t.h — types only: a worker lcore (struct worker), the mailbox
 * message that is the only way control reaches it (struct wmsg), and the
 * worker half of a traffic engine (struct worker_ops), which control's
 * engine descriptor points to (struct engine, src/control/run.h) and START
 * hands over; nothing tests a mode flag per packet. The loop
 * itself is src/dataplane/worker.c (worker.h); control posts with
 * ctl_post (src/control/ctl.h).
 *
 * Included by: every folder (no prototypes, no data).
 */
#ifndef FG_WORKER_T_H
#define FG_WORKER_T_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "ctr.h"
#include "fg.h"
#include "own-t.h"
#include "port-t.h"

#define FG_BURST 32

enum wmsg_op {
	WMSG_QUIT = 1,     /* leave the loop */
	WMSG_SERVICE = 2,  /* val: 1 on, 0 off */
	WMSG_GWMAC = 3,    /* port (0/1 side), val: MAC word | PORT_MAC_KNOWN */
	WMSG_START = 4,    /* ptr: struct worker_ops, arg: this worker's engine state, val: run id,
			      ns: the planned start (start --at) on the system clock, 0: at once */
	WMSG_STOP = 5,     /* stop generating; drain */
	WMSG_PAUSE = 6,
	WMSG_RESUME = 7,
	WMSG_RATE = 8,     /* val: new rate multiplier × 1e6 (fixed point) against the START rate */
	WMSG_CAPTURE = 9,  /* ptr: struct cap_worker * or NULL, val: generation (capture.h) */
	WMSG_GW6MAC = 10,  /* port (0/1 side), val: IPv6 next-hop MAC word (port_gw6_word) */
};

struct wmsg {
	uint32_t op;
	uint32_t port;
	uint64_t val;
	void *ptr;
	void *arg;
	int64_t ns;
};

struct worker;
struct wc_pair;	 /* src/core/wallclock.h: the system clock and the TSC, read together */
struct pkt_info; /* src/core/pkt.h: what the loop parsed of a frame */
struct icmperr;	 /* src/core/icmperr.h: an ICMP error's quote, read */

/* The worker half of a traffic engine: chosen at START, called by the
 * loop (one pointer, w->eng, per loop turn). worker context. */
struct worker_ops {
	const char *name;
	/* a test frame (UDP/TCP; ICMP with icmp_sig) arrived on `side` (0
	 * client port, 1 server port) */
	void (*rx)(struct worker *w, int side, struct rte_mbuf *m, const struct pkt_info *pi,
		   uint64_t now);
	/* or, if set instead of rx: the burst's n test frames at once, in
	 * arrival order (an engine that pipelines its lookups) */
	void (*rx_burst)(struct worker *w, int side, struct rte_mbuf **m,
			 const struct pkt_info *pi, unsigned n, uint64_t now);
	/* generate new work and run timers */
	void (*tick)(struct worker *w, uint64_t now);
	/* control messages the engine cares about */
	void (*stop)(struct worker *w, uint64_t now);
	void (*rate)(struct worker *w, uint64_t scale_micro, uint64_t now);
	void (*pause)(struct worker *w, bool on, uint64_t now);
	/* true when nothing is in flight any more */
	bool (*idle)(struct worker *w);
	/* optional: the run's ownership map of w's pair (own.h); an engine
	 * without it gets every frame on the worker that received it */
	bool (*own)(struct worker *w, struct own_map *m);
	/* ICMP and ICMPv6 frames whose payload carries a signature (lat.h)
	 * are test frames too: they go to rx instead of being answered */
	bool icmp_sig;
	/* the engine finishes the checksums of long TCP payloads itself
	 * (pkt_parse_defer()): a frame it is handed may have sum_todo set */
	bool sum_later;
	/* optional: an ICMP error arrived on `side` whose quote names a UDP
	 * or TCP datagram (f: the frame, freed by the loop afterwards; the
	 * loop counted it on the port and handed it to the owner of the
	 * flow it names, own.h). Without it, the loop counts the error as
	 * unmatched. */
	void (*icmp_err)(struct worker *w, int side, const uint8_t *f, const struct icmperr *e,
			 uint64_t now);
};

struct worker {
	int id;				/* dense worker id */
	unsigned lcore;
	int pair;			/* port pair index */
	uint16_t q;			/* queue on both ports */
	uint16_t nq;			/* workers in the pair */
	int port[2];			/* port indexes: client side, server side */
	/* the views of port[0] and port[1] (port-t.h), set by control before
	 * the launch: all a worker reads of its ports */
	const struct port_view *pv[2];
	struct rte_ring *mbox;		/* control -> worker, MPSC, struct wmsg */
	struct rte_ring *punt;		/* worker -> control, SPSC, mbufs */
	struct ctr_worker *ctr;
	/* hand-off rings (SPSC) to and from the other workers of the pair,
	 * by queue index; NULL for this worker's own index */
	struct rte_ring *hand_out[FG_MAX_WORKERS];
	struct rte_ring *hand_in[FG_MAX_WORKERS];
	/* this worker's CPU is another lcore's too (more lcores than CPUs):
	 * an idle loop turn gives it up for a moment (worker.c) */
	bool cpu_shared;

	/* Worker-local state below: written only by this worker. */
	bool service;
	bool dst_known[2];
	struct rte_ether_addr dst[2];	/* next-hop MAC per side */
	uint32_t dst_gen[2];		/* bumped when dst[] is written: headers prebuilt for it follow */
	bool dst6_known[2];
	struct rte_ether_addr dst6[2];	/* IPv6 next-hop MAC per side */
	const struct worker_ops *eng;
	/* one RX burst of a queue: with or without the ownership rule,
	 * chosen at START */
	void (*rx)(struct worker *w, int side, uint16_t q, uint64_t now, bool *busy);
	struct own_map own;		/* the run's, when rx applies it */
	void *state;			/* engine's per-worker state (from START) */
	uint64_t run_id;
	uint64_t hz;			/* TSC ticks per second */
	uint64_t stall_max;		/* the longest stall since the last START, TSC cycles */
	/* start --at: the run's planned start on the system clock (START's
	 * ns; 0: none) and on the TSC (0: none), which the engine's measured
	 * traffic begins at; and a hold the engine asks for until then (0:
	 * none): the loop runs no tick before it, serves RX and sleeps, then
	 * spins to it (worker.c, worker_hold). at_tsc is taken through a
	 * reading of both clocks (rt_pair) at START and again at each step
	 * of the hold: the two clocks can run apart over the lead */
	int64_t at_ns;
	uint64_t at_tsc;
	uint64_t hold_tsc;
	/* the system clock and the TSC read together (control's, set at
	 * launch: src/control/clock.h, clock_rt_pair) */
	void (*rt_pair)(struct wc_pair *p);
	/* a hold has ended: an idle loop turn gives the CPU up for a moment
	 * until the run's first test frame has gone and yield_until has
	 * passed (worker.c) */
	bool hold_yield;
	uint64_t yield_until;
	/* start --at: the last 50 ms of a hold up to the first test frame
	 * run at SCHED_FIFO (worker.c, worker_rt): on now, refused once
	 * (no privilege, or real-time already), and the policy and priority
	 * to go back to */
	bool rt_on, rt_refused;
	int rt_policy, rt_prio;
	/* the run's first test frame is still to be recorded (ctr.h,
	 * first_tx_tsc: the TSC just before the burst that carried it):
	 * START clears it, the engine sets it when its measured traffic
	 * begins, the loop clears it once a tick sent. While it is set,
	 * worker_send_bytes() keeps the TSC of the first burst since the
	 * turn's tick began in first_burst_tsc (0: none yet; last in the
	 * struct, away from the loop's fields). */
	bool first_armed;
	struct rte_mbuf *txb[2][FG_BURST];
	uint16_t ntx[2];
	/* This loop turn a data RX burst came back full: frames are still
	 * waiting, so an engine should not add new work (closed-loop
	 * admission, see flows.c). */
	bool rx_backlog;
	uint64_t first_burst_tsc;
} __rte_cache_aligned;

#endif
