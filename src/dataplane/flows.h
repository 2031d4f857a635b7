/*
 * flows.h — shared by the two halves of the stateful flows engine
 * (profile `mode: flows`) and included by nothing else: the state of one
 * worker and the engine's worker half as control sees them. The control half,
 * src/control/flows_ctl.c, turns a run into one struct flows_state per
 * worker (flows_prepare), frees them (flows_release) and reads the NAT
 * report out of them while they run; the worker half, src/dataplane/flows.c,
 * drives the flows of its own state through flows_worker_ops and is the only
 * writer of that state from START on. Control reaches the engine through
 * flows_engine (src/control/flows_ctl.h).
 *
 * Context: control (flows_clock_init; control hands flows_worker_ops to the
 * workers with START and never calls its functions). What the worker half's
 * files share among themselves, all of it run on the owning worker only
 * (no allocation, lock, print or system call), is flows_int.h. Control
 * writes a state only before START and after the run; while the worker
 * runs, control only reads nat_addr[] and nat_port[], with relaxed loads.
 *
 * Included by: dataplane and control.
 */
#ifndef FG_FLOWS_H
#define FG_FLOWS_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>

#include "fg.h"
#include "fgen.h"
#include "flowtab.h"
#include "own.h"
#include "pace.h"
#include "pkt.h"
#include "prof-t.h"
#include "tcp.h"
#include "worker-t.h"

struct rte_mbuf;
struct worker_ops;

#define FLOWS_NAT_ADDRS 4096u	   /* distinct translated addresses remembered */
#define FLOWS_TCP_MSS 1460	   /* the MSS both roles announce and send */
#define FLOWS_TCP_MSS6 1440	   /* the same over IPv6: 1500 - 40 - 20 */
#define FLOWS_ACCEPT_GRACE_MS 1000 /* server accepts after a stop: frames in flight */
#define FLOWS_STASH (2 * FG_BURST) /* spare mbufs kept per side */
#define FLOWS_UDP_REST 2048u	   /* a datagram's payload after the signature, at most */

/*
 * How the engine works. Every worker owns one flow table (flowtab.h)
 * holding both roles of the flows of its port pair: client and server of a
 * flow are driven by the same worker (same queue index of the pair). A
 * client entry is keyed by the reply tuple as the client port will receive
 * it; a server entry is keyed by the tuple of the first frame the server
 * port received for it, whatever addresses the DUT produced, and the server
 * answers that tuple. That is how the tester stays transparent to a NAT it
 * cannot predict (the Responder's state table of RFC 9693 §4.2 and §4.7;
 * flowgen-profile(5), "STATEFUL PROFILES").
 *
 * Each template has a client and a server program (send N, recv N, delay
 * MS). A UDP `send` is one datagram whose payload starts with the 18-byte
 * signature of lat.h carrying the client entry's flowtab_id(): the server
 * side finds the client flow through it in O(1) even after the NAT
 * rewrote the tuple, and marks it "server done" when its own program ends.
 * A TCP `send` queues bytes on the pure endpoint of tcp.h; the payload
 * content is tcp_payload_fill() by stream offset; a `recv` waits for that
 * many more bytes. A side that finished its program closes its direction
 * (TCP FIN).
 *
 * The client checks what its server sends (flowpay.h, -t payload_check).
 * By default it decides per flow, on the first reply or the first new
 * in-order data, whether the server is flowgen (FLOWS_F_PAY_OURS: every
 * reply checked, a bad one fails the flow as payload_mismatch) or not
 * (FLOWS_F_PAY_FOREIGN, counted once in client.foreign_server: only byte
 * counts matter). A UDP flow of a foreign server has no "server done" to
 * wait for: it completes when the client's program ends.
 *
 * Programs with bytes (flowgen-profile(5): send data, recv until,
 * until_close, close, repeat) are unrolled by the loader: a flow keeps only
 * its program counter (and, while a recv until runs, how much of the
 * delimiter it matched). A side whose sends carry bytes fills each
 * segment from the program at its stream offset (progb.h), so
 * retransmissions stay right; a UDP send with bytes is one datagram of
 * exactly those bytes, without a signature. A side that waits for a
 * delimiter, or whose peer sends bytes, receives through
 * flows_rx_bytes() (flows_bytes.c): one branch on the template marks the
 * way, size-only programs keep the plain path. Where the peer's program
 * has bytes the receiver checks them (progb_check()); in auto mode the
 * first new data decides whether the peer is flowgen (progb_ours()).
 *
 * A TCP server that answers a whole request with one segment and closes
 * keeps no state (flows_tpl.tcp_once, flows_tcp_once() in flows_once.c; man
 * flowgen(8), FLOW TABLES): the template's server program is one recv of
 * N bytes and then sends, its client's one send of those N bytes between
 * delays before it and recvs and delays after it, without bytes on either
 * side. Its SYN-ACK carries a
 * SYN cookie (tcp_cookie(), RFC 4987 §3.6) and no entry is made; a
 * segment whose acknowledgement is that cookie + 1 and that holds the
 * N bytes gets the whole answer and our FIN in one segment (accepted and
 * completed are counted then); the client's FIN that acknowledges it
 * gets its ACK. A lost answer comes again when the client sends its
 * request again. A request that comes in pieces, an answer larger than
 * the peer's MSS or window, and anything else a cookie acknowledges
 * makes the entry the SYN would have made (tcp_init_cookie()), and the
 * table's path goes on from there.
 *
 * Each entry has one flowtab timer armed at the earliest of: the
 * template's timeout for the whole flow (the profile's, plus the delays
 * of the longer of its two programs), the end of a `delay` step and the TCP
 * retransmission deadline. A flow not complete at its timeout fails as
 * no_reply if the peer was never heard (a TCP server: the handshake never
 * completed), as timeout otherwise; a TCP connection also fails on RST
 * (reset), on the endpoint's retry limit (retransmits_exhausted) and
 * when the peer's FIN closed it before the program ended (peer_closed).
 * Each failure counts under one reason on the side that failed
 * (flows_fail(), include/fail-t.h) and goes into the worker's ring of
 * failed flows (`stats --failed`, fails.h).
 *
 * An ICMP error that quotes a flow's frame (icmperr.h) reaches the
 * flow's worker as a reply would (own.h) and flows_icmp_err(): a
 * destination unreachable fails a UDP flow at once, and a TCP connection
 * as tcp_icmp_unreach() decides (reason icmp_unreachable); a too big lowers a
 * TCP connection's MSS and sends what is in flight again.
 *
 * New flows are paced by TSC (pace.h); each worker opens its share (the
 * pair's rate / workers of the pair). With caps (`start --active N`, a
 * template's limit and climit) the pacer stays the upper bound and each
 * generating worker holds its exact share of each figure (start_share(),
 * start_opts.h): a due flow opens only while the worker's client flows
 * are fewer than its share of N, and only if the template whose turn it
 * is (each keeps its own rate) has flows of its limit share left and
 * fewer active than its climit share; a due flow that finds no room is
 * not owed (the pacer's credit for it is spent, not counted late). Client addresses come from
 * ip_gen.client (+ offset x pair index), client ports from a per-worker
 * allocator (fgen_cpa) per client_ports range (the template's own or
 * ip_gen's) over the worker's share of it (the ports p with p mod nq ==
 * its index q in the pair), so no two workers of a pair ever use the same
 * tuple and a port is never reused while its flow lives (and recycled at
 * once: no TIME_WAIT). The share is also how a reply finds its owner
 * (own.h): the packet loop hands a reply received by another worker to
 * the one whose share holds its port, and a
 * datagram on the server port to the worker named in its signature's id,
 * so both sides of a UDP flow stay on one worker. Where the client port's
 * RSS can be predicted (src/control/port.h), the client picks ports whose replies
 * hash to its own queue, and nothing needs handing over.
 */

/* Entry flags (struct flows_ent.flags). */
enum flows_flag {
	FLOWS_F_DONE = 1 << 0,	   /* this side's program ended */
	FLOWS_F_SRV_DONE = 1 << 1, /* client entry: the server's program ended */
	FLOWS_F_EST = 1 << 2,	   /* established was counted */
	FLOWS_F_CLOSED = 1 << 3,   /* TCP: tcp_app_close() was called */
	/* client entry, -t payload_check auto: whose server answers, decided
	 * on its first reply or data (flowpay.h); neither bit = not yet */
	FLOWS_F_PAY_OURS = 1 << 4,    /* flowgen's: every reply checked */
	FLOWS_F_PAY_FOREIGN = 1 << 5, /* not flowgen: byte counts only */
	/* TCP: tcp.slot names the connection's whole tcb in the worker's
	 * pool; without it the connection is parked in tcp.idle */
	FLOWS_F_TCB = 1 << 6,
};

/*
 * The caller state of one flowtab entry: 24 bytes, a UDP flow's or a TCP
 * one's (its connection in place of the UDP fields), so an entry takes 52
 * bytes and a flow 6 to 12 more
 * with its index slots (flowtab.h). The addresses and ports are the
 * entry's key, as a frame of the peer's carries them (flows_key()): our
 * address and port are its destination, the peer's its source. The timer
 * that fires first of the flow's deadlines (timeout, delay step, TCP
 * retransmission) is the table's own (flowtab_timer_arm_min()). What a
 * UDP flow's completed recv steps consumed is the program's, not the
 * entry's: a UDP program has no until step, so it is the recv bytes of
 * the steps before the current one (prof_step.rcvd_before).
 *
 * A TCP connection has two forms. While it has something to do (a
 * handshake, data in flight or queued, a FIN, a timer of its own, a
 * recv until half matched, received bytes its program has not consumed),
 * its whole tcb is a 64-byte slot of the
 * worker's pool (struct flows_tcb), which tcp.slot names (FLOWS_F_TCB).
 * Once it has been quiet for FLOWS_PARK_MS, flows_tcb_sweep() parks it
 * in the entry itself (tcp.idle, tcp_park(): 12 bytes) and frees the
 * slot; its next segment or timer takes a slot again (flows_tcb_get()).
 * A connection held idle costs its entry and nothing else; the pool is
 * an anonymous mapping whose pages become resident only as slots are
 * used, the most recently freed reused first.
 */
struct flows_ent {
	uint32_t expire; /* flows_t32(), FLOWS_EXPIRE_SHIFT: the flow's timeout */
	uint32_t delay;	 /* flows_t32(), FLOWS_DELAY_SHIFT: end of the running
			  * delay step, 0 = none */
	uint8_t tpl, flags;
	uint16_t step; /* the program counter (programs are unrolled, prof-t.h) */
	union {
		struct {
			uint32_t seq;	  /* datagrams sent */
			uint32_t peer_id; /* server entry: the client's flowtab_id */
			uint32_t rcvd;	  /* payload bytes received */
		} udp;
		union { /* a table of UDP flows leaves it out */
			struct tcp_idle idle; /* parked: !FLOWS_F_TCB */
			uint32_t slot;	      /* FLOWS_F_TCB: in the pool */
		} tcp;
	};
};

_Static_assert(sizeof(struct flows_ent) == 24,
	       "a flow's state: 24 bytes, UDP or TCP, as flowtab.h counts them");

/*
 * A busy connection's slot of the pool: its tcb, the bytes its completed
 * recv steps consumed, the delimiter bytes a running recv until matched,
 * its entry's index and when it was last used (the TSC >>
 * FLOWS_TCB_SHIFT). A free slot has idx FLOWS_TCB_FREE and umatch the
 * next free slot. A connection parks only when its program consumed all
 * it received (need == tcp_rcvd()), so that a parked one keeps neither.
 */
struct flows_tcb {
	struct tcp_tcb tcb;
	uint32_t need;
	uint32_t umatch;
	uint32_t idx;
	uint32_t used;
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct flows_tcb) == 64, "a tcb slot is one line");

#define FLOWS_TCB_FREE UINT32_MAX
#define FLOWS_TCB_SHIFT 16 /* flows_tcb.used's unit: 2^16 TSC cycles */
#define FLOWS_PARK_MS 2	   /* quiet this long, a connection parks */
#define FLOWS_SWEEP_MS 1   /* the sweep's period */

/* The worker's pool of tcbs (flows_ctl.c maps it, cap = the table's flows). */
struct flows_tcbs {
	struct flows_tcb *slot;
	uint32_t cap;	    /* slots mapped */
	uint32_t hwm;	    /* slots below were handed out at least once */
	uint32_t free;	    /* freed slots, the most recent first; FLOWS_TCB_FREE: none */
	uint32_t hand;	    /* the sweep's next slot */
	uint32_t park_after; /* FLOWS_PARK_MS in flows_tcb.used's unit */
	uint64_t every;	    /* FLOWS_SWEEP_MS in TSC cycles */
	uint64_t next;	    /* the sweep's next turn (TSC) */
	size_t map_len;
};

/* Spare mbufs for one side (flows_alloc()); control frees what is left. */
struct flows_stash {
	struct rte_mbuf *m[FLOWS_STASH];
	unsigned n;
};

/* A template's prebuilt UDP headers on one side (flows_udp_hdr()). */
struct flows_udp_hdr {
	struct pkt_udp_fast f;
	uint32_t gen; /* built for the next hop of worker.dst_gen gen - 1; 0 = not built */
	uint16_t pay; /* payload bytes they were built for */
};

/* The prebuilt TCP headers of one side (flows_tcp_hdr()). */
struct flows_tcp_hdr {
	struct pkt_tcp_fast f;
	uint32_t gen; /* built for the next hop of worker.dst_gen gen - 1; 0 = not built */
};

struct flows_tpl {
	int proto; /* enum prof_proto */
	uint16_t port;
	double weight, credit; /* smooth weighted round robin by cps */
	const struct prof_program *prog[2]; /* [FLOWTAB_CLIENT], [FLOWTAB_SERVER] */
	uint64_t timeout; /* TSC: the profile's timeout and the longer program's delays */
	/* per side: its sends carry bytes of the program (flows_bytes.c);
	 * what it receives goes through flows_rx_bytes() (its program waits
	 * for a delimiter or the close, or the peer's sends carry bytes) */
	bool txb[2], rxb[2];
	/* a UDP server program of one recv and then sends only: a datagram
	 * with srv_need bytes or more starts and ends its flow
	 * (flows_srv_once()) */
	bool srv_once;
	uint32_t srv_need;
	/* a TCP server that keeps no state (above): srv_need is its recv's
	 * bytes, srv_resp its sends' */
	bool tcp_once;
	uint32_t srv_resp;
	/* this worker's share of the template's limit and climit
	 * (flowgen-profile(5)); UINT64_MAX: none. left counts down. */
	uint64_t left, cmax;
	uint8_t cpa; /* its client port allocator: flows_state.cpa[cpa] */
};

/* One worker's flows: built by control, then owned by the worker. */
struct flows_state {
	struct flowtab *ft;
	struct flows_tcbs tcbs; /* TCP templates only: cap 0 without */
	struct flows_stash stash[2];
	/* one per distinct client_ports range of the templates */
	struct fgen_cpa cpa[FG_PROF_MAX_TEMPLATES];
	unsigned ncpa;
	struct fgen_addrs cli, srv; /* cli: this pair's (ip_gen offset added) */
	struct pace pace;
	struct flows_tpl tpl[FG_PROF_MAX_TEMPLATES];
	struct flows_udp_hdr udp[FG_PROF_MAX_TEMPLATES][2];
	struct flows_tcp_hdr tcp[2];
	unsigned ntpl;
	double rate;	     /* new flows/s of this worker at scale 1 */
	bool unpaced, gen;   /* -m max; this worker generates */
	/* start --active, a template's limit or climit is in force: new flows
	 * take the capped path (flows_pick_capped()); active_max is this
	 * worker's share of --active, UINT64_MAX for none */
	bool capped;
	uint64_t active_max;
	uint8_t check;	     /* enum flowpay_mode: -t payload_check (flowpay.h) */
	bool started, stopping, paused;
	uint64_t accept_until; /* stopping: new server flows until then (TSC) */
	double scale;	       /* the last rate message's scale; 0 = none yet (1) */
	double duration_s;
	uint64_t deadline;   /* TSC: -d end, 0 = none */
	uint64_t timeout;    /* TSC cycles */
	uint64_t us_mult;    /* TSC -> us: (tsc * us_mult) >> 32 */
	uint64_t tsc_mult;   /* us -> TSC: (us * tsc_mult) >> 32, rounded up */
	uint64_t rng;
	uint64_t cookie_key; /* the run's secret of tcp_cookie() */
	bool tcp_once;	     /* a template's TCP server keeps no state */
	uint32_t cli_off; /* ip_gen offset: pair p's clients are pair 0's + p x cli_off */
	int npairs, pair; /* port pairs of the run; this worker's */
	/*
	 * IPv6 (flows6.c): a side whose frames are IPv6 keys its flows on the
	 * low 32 bits of the addresses (own_ip, peer_ip); the first 96 bits
	 * are fixed for the run, ours and the peer's as that side sees them
	 * (the client's peer: the server range's, or nat64_prefix's).
	 */
	bool v6[2];
	bool peer6_learned; /* the server side's peer_hi came from a frame */
	uint8_t own_hi[2][12], peer_hi[2][12];
	uint16_t mss[2];	      /* TCP MSS per side: FLOWS_TCP_MSS or _MSS6 */
	struct own_map own;	      /* who owns which frame of the pair (own.h) */
	const struct own_rss *rss;    /* client port's RSS to pick ports by, or NULL */
	uint64_t active[2];
	uint64_t accepts;    /* the server flows learned in the burst running, a bit
				each: their hashes' top 6 bits (flows_rx_burst()) */
	/* the entry the frame in hand belongs to and its key's hash, from
	 * flows_rx_burst()'s lookup: flows_del() hands the hash to
	 * flowtab_del_h() rather than hashing the key again */
	uint32_t rx_idx;
	uint64_t rx_h;
	uint64_t late_seen;  /* pace.dropped already counted in client.late */
	/* the new in-order bytes of the segment flows_rx_bytes() runs the
	 * program for (a recv until's search looks at them); rx_len 0: none */
	const uint8_t *rx;
	uint32_t rx_off, rx_len;
	/* the last stream-pattern sum (tcp_payload_sum() of off, len; len 0:
	 * none) of each side's sends and of the client's receives
	 * (flows_pattern_sum()): a template's segments repeat theirs in
	 * every connection, and the closed form costs more than this lookup */
	struct {
		uint32_t off, len;
		uint16_t sum;
	} psum[3];
	/* what follows the signature in every datagram (flowpay.h), filled by control */
	uint8_t udp_rest[FLOWS_UDP_REST];
	/* server side: distinct translated sources (read by control, relaxed) */
	uint32_t nat_addr[FLOWS_NAT_ADDRS]; /* open addressing, 0 = empty */
	uint64_t nat_port[65536 / 64];
};

/* worker: the engine's worker half (flows.c), which control's flows_engine
 * (src/control/flows_ctl.h) points to and START hands to the workers. */
extern const struct worker_ops flows_worker_ops;

/* control: the multipliers of flows_us() and flows_tsc_of_us() for a TSC of hz. */
static inline void flows_clock_init(struct flows_state *s, uint64_t hz)
{
	s->us_mult = (uint64_t)((1e6 * 4294967296.0) / (double)hz);
	s->tsc_mult = (uint64_t)ceil((double)hz * 4294967296.0 / 1e6);
}

#endif
