/*
 * ctr.h — the counter blocks each worker writes and the control threads read.
 *
 * Every worker owns one struct ctr_worker (cache aligned, in an array indexed
 * by the dense worker id). Only that worker writes it, with FG_CTR_ADD (a
 * plain load and a relaxed store); readers use FG_CTR_GET. Counters are
 * monotonic: "clear" is a baseline kept by the reader, never a write here.
 * Gauges (values that go down) are kept apart in struct ctr_gauge, and
 * in the two active_* words of a template's block.
 *
 * The stateful flows' counters exist per template only (struct ctr_tpl,
 * indexed by the template id every flow carries): a worker moves one
 * counter per event, as it would in a single block, and the totals that
 * `stats` shows are the sum the reader takes (stats_sum). Keeping the
 * totals beside the per-template blocks would double the worker's
 * counter stores; summing 64 blocks per worker every 100 ms on the
 * statistics thread costs the workers nothing.
 *
 * Included by: every folder (types only: no prototypes, no data).
 */
#ifndef FG_CTR_H
#define FG_CTR_H

#include <rte_common.h>

#include "fail-t.h"
#include "fg.h"
#include "prof-t.h"

/* Per worker, per port: what this worker sent and received on the port. */
struct ctr_port {
	uint64_t tx_pkts, tx_bytes;   /* handed to the NIC and accepted */
	uint64_t rx_pkts, rx_bytes;   /* every frame polled */
	uint64_t tx_queue_full;       /* frames the TX queue refused (dropped) */
	uint64_t rx_bad;              /* malformed: truncated, bad checksum, bad length */
	uint64_t rx_unknown;          /* well formed but not ours (no flow, other proto) */
	uint64_t rx_arp, tx_arp;      /* ARP handled on the worker */
	uint64_t rx_icmp, tx_icmp;    /* ICMP echo answered on the worker */
	uint64_t punt, punt_drop;     /* frames passed up to control / dropped, ring full */
	uint64_t mbuf_fail;           /* mbuf allocation failures */
	/* ICMP errors about frames flowgen sent (flowgen(8), ICMP ERRORS):
	 * counted where they arrive, a malformed quote as rx_bad */
	uint64_t rx_icmp_unreach;     /* destination unreachable, fragmentation needed aside */
	uint64_t rx_icmp_frag_needed; /* fragmentation needed, ICMPv6 packet too big */
	/* ... and what they did, counted by the worker that owns the flow named */
	uint64_t icmp_err_unmatched;  /* named no flow of the run (no flows run, another
					 protocol, no such flow) */
	uint64_t icmp_err_invalid;    /* named a flow, but not a frame of its window
					 (RFC 5927 §4.1): ignored */
	uint64_t icmp_err_kept;       /* named a flow that goes on unchanged: a soft error in a
					 synchronized TCP state, a UDP flow's too big, an MTU
					 that lowers nothing */
	uint64_t icmp_mss_lowered;    /* lowered a TCP flow's MSS */
};

/*
 * Stateful flows, client role (initiator). Every flow started ends
 * completed or failed, or is still active, or was aborted (a run halted
 * before it drained: flowgen(8), STATISTICS): started = completed +
 * failed + aborted + active. A failed flow counts in failed and in
 * exactly one fail[] reason (enum fg_fail, fail-t.h).
 */
struct ctr_client {
	uint64_t started, established, completed, failed;
	uint64_t fail[FG_FAIL_N];     /* failed, by reason */
	uint64_t aborted;             /* still open when the run was halted undrained */
	uint64_t tx_pkts, rx_pkts, tx_bytes, rx_bytes;
	uint64_t retx;                /* TCP segments retransmitted */
	uint64_t late;                /* new flows the pacer dropped: the worker fell behind */
	uint64_t foreign_server;      /* flows whose server is not flowgen: payloads not
					 checked (-t payload_check auto, flowpay.h) */
};

/* Stateful flows, server role (responder): accepted = completed + failed
 * + aborted + active, as for the client. */
struct ctr_server {
	uint64_t accepted, completed, failed;
	uint64_t fail[FG_FAIL_N];
	uint64_t aborted;
	uint64_t tx_pkts, rx_pkts, tx_bytes, rx_bytes;
	uint64_t translated, untranslated;
	uint64_t retx;
};

/*
 * The flows of one template (flowgen-profile(5), `templates`), both roles.
 * client.late stays 0 here: the pacer's late flows were never opened, so
 * they have no template (struct ctr_worker.late). The two gauges are the
 * template's flows in the worker's table now (not baselined).
 */
struct ctr_tpl {
	struct ctr_client client;
	struct ctr_server server;
	uint64_t active_client, active_server;
} __rte_cache_aligned;

/* Worker traffic state, published in the gauge block for `wait`. */
enum ctr_state {
	CTR_IDLE = 0,       /* no traffic */
	CTR_RUNNING = 1,    /* generating */
	CTR_PAUSED = 2,     /* holding */
	CTR_DRAINING = 3,   /* no new work; flows in flight finish or time out */
};
#define CTR_STATE_COUNT (CTR_DRAINING + 1)

/* A worker's loop turn that begins this long after the one before is a
 * stall (struct ctr_worker): 1 ms, a quarter of a scheduler tick at the
 * kernel's usual 250 Hz, and a thousand times a busy turn. */
#define FG_STALL_US 1000

struct ctr_gauge {
	uint64_t active_client;       /* flows in the client table now */
	uint64_t active_server;
	uint64_t state;               /* enum ctr_state */
	uint64_t run_id;              /* the START it last acted on */
	uint64_t warmup;              /* 1 while its measured traffic has not begun (a
					 streams run's learning phase): no offer is
					 tracked against it (offer.h); each START
					 clears it, and a drained run is not
					 RUNNING, so a stop need not */
};

struct ctr_worker {
	struct ctr_port port[FG_MAX_PORTS];
	struct ctr_tpl tpl[FG_PROF_MAX_TEMPLATES]; /* stateful flows, by template id */
	uint64_t late; /* flows the pacer dropped: client.late of the totals */
	/* CPU utilisation, time-weighted: TSC cycles of the loop since the
	 * worker started, and of the loop turns that did work (RX, TX, a
	 * message). busy_tsc / loop_tsc over an interval is the share. */
	uint64_t loop_tsc, busy_tsc;
	/* Stalls: loop turns that began more than FG_STALL_US after the one
	 * before (the worker was off its CPU, or a turn ran that long): how
	 * many, their cycles summed, the part of each beyond the pacers'
	 * backlog bound summed (PACE_BOUND_MS, src/core/pace.h: what fell due
	 * then is late), and the longest since the worker's last START (not a
	 * counter: `clear` leaves it). */
	uint64_t stalls, stall_tsc, stall_late_tsc, stall_max_tsc;
	/* The TSC just before the burst that handed the run's first test
	 * frame to the NIC (learning frames are not test frames); 0 until
	 * then. Each START clears it; not a counter either. */
	uint64_t first_tx_tsc;
	uint64_t tsc;                 /* rte_rdtsc() at the last publish */
	uint64_t redirected;          /* test frames this worker received for a flow
					 another worker owns, and handed over */
	struct ctr_gauge gauge;
	/* its last failed flows (`stats --failed`): written by this worker
	 * only, read by control without a lock (src/core/fails.h) */
	struct fail_ring fails;
	/* start --at: the planned start on the TSC, as the worker last took
	 * it from the system clock (worker_hold: within a hold step of it),
	 * the pair control turns the run's TSC counts into times with; 0: no
	 * planned start, or not held yet. Each START clears it. Last, so that
	 * the fields the loop writes keep the places they had before it
	 * (README, the A/B figures of start --at). */
	uint64_t at_tsc;
	/* start --at: how the worker held the last stretch before the
	 * planned start (worker.c, worker_rt): 0 no hold yet this run, 1 at
	 * real-time priority, 2 under its own policy (no privilege). Each
	 * START clears it. */
	uint64_t at_rt;
} __rte_cache_aligned;

#endif
