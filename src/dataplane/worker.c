/*
 * worker.c — the lcore packet loop. Everything here runs on a worker: no
 * locks, no prints, no system calls (but the drivers' own, an idle
 * turn's pause on a shared CPU, and a hold's sleeps, readings of the
 * system clock, the vDSO's where the clock source has one, and changes of
 * its scheduling policy), no
 * allocation but mbufs. Control reaches the worker only through its
 * mailbox ring; frames for control
 * (ARP replies, ICMP echo replies, anything unknown in service mode) go up
 * through the punt ring. Control sends its own frames on its own TX queue
 * (where a port has none, net_af_xdp, worker 0 sends them on its queue);
 * where a port also has an RX queue there (net_af_packet, whose fan-out
 * feeds it like any other), worker 0 of the pair polls it every turn. With
 * several workers a test frame runs on the worker that owns its flow
 * (own.h, worker.h); so does an ICMP error about a frame of that flow,
 * counted on its port first (icmperr.h). A run planned for a time of day
 * (start --at) holds its engine until then (worker_hold); the loop
 * records the TSC of each run's first test frame (ctr.h, first_tx_tsc).
 */
#include <pthread.h>
#include <sched.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#include "capture_tap.h"
#include "icmperr.h"
#include "lat.h"
#include "pace.h"
#include "pkt6.h"
#include "port_addr.h"
#include "wallclock.h"
#include "worker.h"

/*
 * A hold (start --at, worker_hold) sleeps in steps of at most
 * WORKER_HOLD_STEP_US between two polls of the ports and the mailbox, and
 * stops sleeping WORKER_HOLD_SPIN_US before its end, to spin on the TSC.
 * A sleep ends late by the thread's timer slack (50 us by default) and
 * its wake-up, tens of microseconds on an idle CPU; the margin leaves
 * room for a busy one (README, "Design in one page", start --at).
 */
#define WORKER_HOLD_STEP_US 1000
#define WORKER_HOLD_SPIN_US 500
/*
 * After a hold, an idle loop turn gives the CPU up for a moment until the
 * worker's first test frame has gone and WORKER_HOLD_YIELD_US have
 * passed: the workers of other processes on the same CPU, whose holds end
 * at the same instant, need it for their own first frames, which a
 * worker polling without a pause would keep from them for a scheduler
 * slice (milliseconds: one of three instances on two CPUs started 3.6 ms
 * late when each stopped yielding at its own first frame).
 */
#define WORKER_HOLD_YIELD_US 2000
/* the last stretch of a hold that runs at real-time priority (worker_rt) */
#define WORKER_HOLD_RT_US 50000

/*
 * start --at: the last WORKER_HOLD_RT_US of a hold and the turns up to the
 * run's first test frame run at real-time priority (SCHED_FIFO, the lowest
 * level), then the worker goes back to the policy it had. Under the
 * kernel's ordinary policy a worker that wakes from a step of its hold, or
 * spins, can wait for its CPU behind any other runnable thread there
 * (another process's busy-polling worker, a capture, a build, the kernel's
 * own threads) for a scheduler slice or more: first frames left 1.6 to
 * 5.2 ms late in some runs of make test and of 15_at.sh alone, and up to
 * 6.8 ms late with two busy shells beside 15_at.sh; with the priority for
 * the last step only, up to 6.4 ms late there (the wake-up into that step
 * is the ordinary policy's). A real-time
 * thread preempts those at its wake-up and keeps the CPU until it sleeps
 * or gives the priority up. Two workers sharing a CPU take turns at the
 * instant: the second runs as soon as the first has sent and gone back.
 * The hold sleeps through nearly all of those 50 ms and spins 0.5 ms;
 * then at most the yield window (2 ms) until the first frame: well inside
 * the kernel's real-time budget (sched_rt_runtime_us, 95 % of a second).
 * Without the privilege (CAP_SYS_NICE, RLIMIT_RTPRIO) the worker holds as
 * before, under its own policy.
 */
static __rte_noinline __rte_cold void worker_rt(struct worker *w, bool on)
{
	struct sched_param sp = {.sched_priority = on ? 1 : w->rt_prio};

	if (on == w->rt_on || w->rt_refused)
		return;
	if (on) {
		struct sched_param cur;

		if (pthread_getschedparam(pthread_self(), &w->rt_policy, &cur) != 0 ||
		    w->rt_policy == SCHED_FIFO || w->rt_policy == SCHED_RR) {
			w->rt_refused = true; /* real-time already: the user's */
			return;
		}
		w->rt_prio = cur.sched_priority;
		if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) != 0) {
			w->rt_refused = true;
			return;
		}
	} else {
		(void)pthread_setschedparam(pthread_self(), w->rt_policy, &sp);
	}
	w->rt_on = on;
}

struct worker fg_worker[FG_MAX_WORKERS];
struct ctr_worker fg_ctr[FG_MAX_WORKERS];
int fg_nworkers;

/*
 * 802.1Q (port_info `vlan`): the tag goes on here, once, for every frame
 * the port sends (engines, answers); a frame that cannot take it (shared,
 * no headroom) is dropped as a full queue would drop it. Returns the
 * frames left in m.
 */
static uint16_t tx_tag(struct worker *w, int side, const struct port_view *p, struct rte_mbuf **m,
		       uint16_t n)
{
	uint16_t k = 0;

	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *f = m[i];

		f->vlan_tci = p->vlan;
		if (rte_vlan_insert(&f) != 0) {
			FG_CTR_INC(w->ctr->port[w->port[side]].tx_queue_full);
			rte_pktmbuf_free(f);
			continue;
		}
		m[k++] = f;
	}
	return k;
}

uint16_t worker_send(struct worker *w, int side, struct rte_mbuf **m, uint16_t n)
{
	uint64_t bytes = 0;

	/* Lengths are read before the burst: a sent mbuf is the driver's. */
	for (uint16_t i = 0; i < n; i++)
		bytes += rte_pktmbuf_pkt_len(m[i]);
	return worker_send_bytes(w, side, m, n, bytes);
}

uint16_t worker_send_bytes(struct worker *w, int side, struct rte_mbuf **m, uint16_t n,
			   uint64_t bytes)
{
	const struct port_view *p = w->pv[side];
	struct ctr_port *c = &w->ctr->port[w->port[side]];
	uint16_t sent;

	if (p->vlan) {
		/* a tag adds 4 bytes, and a frame that takes none is dropped */
		n = tx_tag(w, side, p, m, n);
		bytes = 0;
		for (uint16_t i = 0; i < n; i++)
			bytes += rte_pktmbuf_pkt_len(m[i]);
	}
	capture_tx(w, side, m, n);
	if (unlikely(w->first_armed) && !w->first_burst_tsc)
		w->first_burst_tsc = rte_rdtsc(); /* the first frame's time (worker_main) */
	sent = rte_eth_tx_burst(p->id, w->q, m, n);
	if (sent < n) {
		FG_CTR_ADD(c->tx_queue_full, n - sent);
		for (uint16_t i = sent; i < n; i++)
			bytes -= rte_pktmbuf_pkt_len(m[i]);
		rte_pktmbuf_free_bulk(&m[sent], n - sent);
	}
	FG_CTR_ADD(c->tx_pkts, sent);
	FG_CTR_ADD(c->tx_bytes, bytes);
	return sent;
}

void worker_flush(struct worker *w, int side)
{
	if (!w->ntx[side])
		return;
	worker_send(w, side, w->txb[side], w->ntx[side]);
	w->ntx[side] = 0;
}

static void punt(struct worker *w, int side, struct rte_mbuf *m)
{
	struct ctr_port *c = &w->ctr->port[w->port[side]];

	m->port = side;
	if (rte_ring_enqueue(w->punt, m) != 0) {
		FG_CTR_INC(c->punt_drop);
		rte_pktmbuf_free(m);
		return;
	}
	FG_CTR_INC(c->punt);
}

/*
 * start --at: the planned start (w->at_ns) on the TSC through a reading
 * of both clocks now, moving the hold (if any) with it; the engines count
 * from w->at_tsc once the hold is over. START takes it, and each step of
 * the hold again: the system clock (chrony's or PTP's) and the TSC can
 * run apart over the lead. On a clock 0.5 % fast of the TSC (adjtimex(2)'s
 * tick at 10050) three instances started 10 to 15 ms late after a 2 s
 * lead when only the start command's reading was used; with a reading at
 * most a step (1 ms) before the end, that rate costs at most 5 us.
 */
static void worker_at_take(struct worker *w)
{
	struct wc_pair p;
	uint64_t t;

	w->rt_pair(&p);
	t = wc_tsc_of(&p, w->at_ns);
	if (!t)
		t = 1; /* 0 is none: a time before the TSC's 0 has passed */
	if (w->hold_tsc)
		w->hold_tsc += t - w->at_tsc;
	w->at_tsc = t;
	FG_CTR_SET(w->ctr->at_tsc, t);
}

/*
 * 802.1Q on receive: a port with a `vlan` takes only frames with its id,
 * whose tag comes off here, before the parse (a driver may have taken it
 * off already, into the mbuf); a port without takes no tagged frame.
 * True: the frame is not the port's, count it as unknown.
 */
static inline bool rx_vlan_drop(const struct port_view *p, struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	uint16_t tci;

	if (m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED)
		return !p->vlan || PKT_VLAN_ID(m->vlan_tci) != p->vlan;
	if (m->data_len < RTE_ETHER_HDR_LEN + 4 ||
	    eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN))
		return p->vlan != 0 && m->data_len >= RTE_ETHER_HDR_LEN;
	tci = rte_be_to_cpu_16(((const struct rte_vlan_hdr *)(eth + 1))->vlan_tci);
	if (!p->vlan || PKT_VLAN_ID(tci) != p->vlan)
		return true;
	rte_vlan_strip(m);
	return false;
}

static void rx_side(struct worker *w, int side, uint16_t q, uint64_t now, bool *busy);
static void rx_side_steer(struct worker *w, int side, uint16_t q, uint64_t now, bool *busy);

static void handle_mbox(struct worker *w, uint64_t now, bool *quit)
{
	struct wmsg m;

	while (rte_ring_dequeue_elem(w->mbox, &m, sizeof(m)) == 0) {
		switch (m.op) {
		case WMSG_QUIT:
			*quit = true;
			break;
		case WMSG_SERVICE:
			w->service = m.val != 0;
			break;
		case WMSG_GWMAC:
			if (m.port < 2) {
				w->dst_known[m.port] = (m.val & PORT_MAC_KNOWN) != 0;
				port_word_mac(m.val, &w->dst[m.port]);
				w->dst_gen[m.port]++;
			}
			break;
		case WMSG_GW6MAC:
			if (m.port < 2) {
				w->dst6_known[m.port] = (m.val & PORT_MAC_KNOWN) != 0;
				port_word_mac(m.val, &w->dst6[m.port]);
			}
			break;
		case WMSG_START: {
			const struct worker_ops *e = m.ptr;

			w->eng = e;
			w->state = m.arg;
			w->at_ns = m.ns;
			w->at_tsc = 0;
			w->hold_tsc = 0;
			FG_CTR_SET(w->ctr->at_tsc, 0);
			FG_CTR_SET(w->ctr->at_rt, 0);
			if (m.ns)
				worker_at_take(w);
			/* the engine arms it when its measured traffic begins */
			w->first_armed = false;
			w->first_burst_tsc = 0; /* a tick that arms it may send at once */
			w->hold_yield = false;
			FG_CTR_SET(w->ctr->first_tx_tsc, 0);
			/* the ownership rule only where there is someone to
			 * hand frames to, and an engine with flow owners */
			w->rx = rx_side;
			if (w->nq > 1 && e->own && e->own(w, &w->own))
				w->rx = rx_side_steer;
			w->run_id = m.val;
			w->stall_max = 0;
			FG_CTR_SET(w->ctr->gauge.warmup, 0); /* the engine sets it */
			FG_CTR_SET(w->ctr->gauge.state, CTR_RUNNING);
			/* last, with release: whoever reads this run_id (ctl_start,
			 * then the recorder through ctl_run_id) reads RUNNING or
			 * what came after it, never the idle state before START */
			__atomic_store_n(&w->ctr->gauge.run_id, m.val, __ATOMIC_RELEASE);
			break;
		}
		case WMSG_STOP:
			w->hold_tsc = 0; /* a run stopped before its start */
			if (w->eng) {
				w->eng->stop(w, now);
				FG_CTR_SET(w->ctr->gauge.state, CTR_DRAINING);
			}
			break;
		case WMSG_PAUSE:
		case WMSG_RESUME:
			if (w->eng && FG_CTR_GET(w->ctr->gauge.state) != CTR_DRAINING) {
				w->eng->pause(w, m.op == WMSG_PAUSE, now);
				FG_CTR_SET(w->ctr->gauge.state,
					   m.op == WMSG_PAUSE ? CTR_PAUSED : CTR_RUNNING);
			}
			break;
		case WMSG_RATE:
			if (w->eng)
				w->eng->rate(w, m.val, now);
			break;
		case WMSG_CAPTURE:
			capture_attach(w, m.ptr, m.val);
			break;
		}
	}
}

/*
 * ICMPv6: Neighbour Solicitations for the port's IPv6 address are answered
 * at all times (counted with ARP), echo requests in service mode; NA and
 * echo replies go up to control (`arp`, `ping`).
 */
static void handle_icmp6(struct worker *w, int side, struct rte_mbuf *m, const struct pkt_info *pi)
{
	const struct port_view *p = w->pv[side];
	struct ctr_port *c = &w->ctr->port[w->port[side]];
	uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *), target[16];
	uint8_t nd = pkt6_nd_target(f, pi, target);
	uint16_t len;

	if (nd) {
		FG_CTR_INC(c->rx_arp);
		if (nd == PKT6_NS && port_owns_ip6(p, target) &&
		    (len = pkt6_answer_ns(f, m->data_len, m->data_len + rte_pktmbuf_tailroom(m),
					  pi, &p->mac)) != 0) {
			m->data_len = m->pkt_len = len;
			FG_CTR_INC(c->tx_arp);
			worker_tx(w, side, m);
			return;
		}
		punt(w, side, m);
		return;
	}
	FG_CTR_INC(c->rx_icmp);
	if (w->service && port_owns_ip6(p, pkt6_dst(f, pi)) && pkt6_answer_echo(f, m->data_len, pi)) {
		FG_CTR_INC(c->tx_icmp);
		worker_tx(w, side, m);
		return;
	}
	if (w->service || pi->icmp_type == PKT6_ECHO_REPLY) {
		punt(w, side, m);
		return;
	}
	FG_CTR_INC(c->rx_unknown);
	rte_pktmbuf_free(m);
}

/* ARP and ICMP are answered here, in place, at all times. */
static void handle_local(struct worker *w, int side, struct rte_mbuf *m, const struct pkt_info *pi)
{
	const struct port_view *p = w->pv[side];
	struct ctr_port *c = &w->ctr->port[w->port[side]];
	uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);

	if (pi->kind == PKT_ARP) {
		FG_CTR_INC(c->rx_arp);
		if (port_owns_ip(p, pi->dip) && pkt_answer_arp(f, m->data_len, &p->mac)) {
			FG_CTR_INC(c->tx_arp);
			worker_tx(w, side, m);
			return;
		}
		/* a reply, or a request for someone else: control learns from it */
		punt(w, side, m);
		return;
	}
	/* ICMP */
	FG_CTR_INC(c->rx_icmp);
	if (port_owns_ip(p, pi->dip) && (w->service || pi->dip != p->ip) &&
	    pkt_answer_echo(f, m->data_len, pi)) {
		FG_CTR_INC(c->tx_icmp);
		worker_tx(w, side, m);
		return;
	}
	if (w->service || f[pi->l4] == RTE_IP_ICMP_ECHO_REPLY) {
		punt(w, side, m);
		return;
	}
	FG_CTR_INC(c->rx_unknown);
	rte_pktmbuf_free(m);
}

/*
 * An ICMP error the owner of the flow it names has in hand: the engine's,
 * if it reads errors (worker_ops.icmp_err), else unmatched; or up to
 * control in service mode with no engine (`bench nat` reads ICMP errors
 * there).
 */
static void icmp_err_run(struct worker *w, int side, struct rte_mbuf *m, const struct icmperr *e,
			 uint64_t now)
{
	if (w->eng && w->eng->icmp_err) {
		w->eng->icmp_err(w, side, rte_pktmbuf_mtod(m, const uint8_t *), e, now);
	} else if (w->service) {
		punt(w, side, m);
		return;
	} else {
		FG_CTR_INC(w->ctr->port[w->port[side]].icmp_err_unmatched);
	}
	rte_pktmbuf_free(m);
}

/*
 * An ICMPv4 destination unreachable or an ICMPv6 destination unreachable
 * or packet too big (icmperr.h; flowgen(8), ICMP ERRORS), off the ICMP
 * branch of the loop: a test frame never comes here. Counted on the port
 * where it arrived (a quote that cannot be read as rx_bad), then, with
 * several workers, handed to the worker that owns the flow the quote
 * names, as a reply of that flow would be (own.h: the quoted source port
 * on the client port, a quoted datagram's signature on the server port),
 * and run there. Out of line and cold: the loop's code for test frames
 * stays as it was.
 */
static __rte_noinline __rte_cold void rx_icmp_err(struct worker *w, int side, struct rte_mbuf *m,
						  const struct pkt_info *pi, bool steer,
						  uint64_t now)
{
	struct ctr_port *c = &w->ctr->port[w->port[side]];
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	struct icmperr e;
	enum icmperr_res r = icmperr_parse(f, pi, &e);

	FG_CTR_INC(c->rx_icmp);
	if (r == ICMPERR_BAD) {
		FG_CTR_INC(c->rx_bad);
		if (w->service && !w->eng) {
			punt(w, side, m);
			return;
		}
		rte_pktmbuf_free(m);
		return;
	}
	FG_CTR_INC(*(e.kind == ICMPERR_TOO_BIG ? &c->rx_icmp_frag_needed : &c->rx_icmp_unreach));
	if (r == ICMPERR_FOREIGN) {
		/* no datagram of ours: no flow to look for */
		if (w->service && !w->eng) {
			punt(w, side, m);
			return;
		}
		FG_CTR_INC(c->icmp_err_unmatched);
		rte_pktmbuf_free(m);
		return;
	}
	if (steer) {
		struct own_frame of = {.dport = e.sport};
		unsigned o;

		if (side == OWN_SERVER && e.proto == IPPROTO_UDP) {
			uint32_t seq;
			uint64_t tsc;
			uint8_t fl;

			of.sig = lat_sig_read(f + e.qpay, e.qpaylen, &of.sig_id, &seq, &tsc, &fl);
		}
		o = own_worker(&w->own, side, &of, w->q);
		if (o != w->q) {
			m->port = (uint16_t)side;
			if (rte_ring_sp_enqueue(w->hand_out[o], m) != 0) {
				FG_CTR_INC(c->rx_unknown);
				rte_pktmbuf_free(m);
				return;
			}
			FG_CTR_INC(w->ctr->redirected);
			return;
		}
	}
	icmp_err_run(w, side, m, &e, now);
}

/* An ICMP echo message that is an engine's test frame (worker_ops.icmp_sig:
 * a stream of `proto: icmp`): it carries a signature. */
static inline bool rx_icmp_test(const struct worker *w, struct rte_mbuf *m,
				const struct pkt_info *pi)
{
	uint32_t id, seq;
	uint64_t tsc;
	uint8_t fl;

	return w->eng && w->eng->icmp_sig &&
	       lat_sig_read(rte_pktmbuf_mtod(m, uint8_t *) + pi->payload, pi->paylen, &id, &seq,
			    &tsc, &fl);
}

/* The engine takes a burst's test frames of one side at once. */
static inline void rx_engine(struct worker *w, int side, struct rte_mbuf **tm,
			     struct pkt_info *tpi, unsigned nt, uint64_t now)
{
	if (!nt)
		return;
	if (w->eng->rx_burst) {
		w->eng->rx_burst(w, side, tm, tpi, nt, now);
	} else {
		for (unsigned i = 0; i < nt; i++)
			w->eng->rx(w, side, tm[i], &tpi[i], now);
	}
}

/*
 * A test frame another worker owns (own.h): hand it over through the SPSC
 * ring to that worker, with its side in m->port. The ring is sized so it
 * does not fill while the owner runs; if it does (the owner stalled), the
 * frame is dropped and counted as unknown.
 */
static inline bool rx_steer(struct worker *w, int side, struct rte_mbuf *m,
			    const struct pkt_info *pi)
{
	struct own_frame of = {.dport = pi->dport};
	unsigned o;

	if (side == OWN_SERVER && pi->proto == IPPROTO_UDP) {
		uint32_t seq;
		uint64_t tsc;
		uint8_t fl;

		of.sig = lat_sig_read(rte_pktmbuf_mtod(m, uint8_t *) + pi->payload, pi->paylen,
				      &of.sig_id, &seq, &tsc, &fl);
	}
	o = own_worker(&w->own, side, &of, w->q);
	if (o == w->q)
		return false;
	m->port = (uint16_t)side;
	if (rte_ring_sp_enqueue(w->hand_out[o], m) != 0) {
		FG_CTR_INC(w->ctr->port[w->port[side]].rx_unknown);
		rte_pktmbuf_free(m);
		return true;
	}
	FG_CTR_INC(w->ctr->redirected);
	return true;
}

static inline __attribute__((always_inline)) void
rx_side_do(struct worker *w, int side, uint16_t q, uint64_t now, bool *busy, const bool steer)
{
	struct rte_mbuf *pk[FG_BURST], *tm[FG_BURST];
	struct pkt_info tpi[FG_BURST];
	unsigned nt = 0;
	const struct port_view *p = w->pv[side];
	struct ctr_port *c = &w->ctr->port[w->port[side]];
	uint64_t bytes = 0, bad = 0, unknown = 0;
	/* only frames the engine takes can keep a checksum to finish (a
	 * frame handed to its owner is parsed again there, in full) */
	const bool later = w->eng && w->eng->sum_later;
	uint16_t n = rte_eth_rx_burst(p->id, q, pk, FG_BURST);

	if (!n)
		return;
	if (n == FG_BURST && q == w->q)
		w->rx_backlog = true;
	/* The receive time of this burst: the loop's `now` may be older than
	 * frames that arrived while this thread was not running. */
	now = rte_rdtsc();
	*busy = true;
	capture_rx(w, side, q, pk, n, now);
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pk[i];
		/* parsed in place for the engine: no copy of the info */
		struct pkt_info *pi = &tpi[nt];

		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pk[i + 1], void *));
		bytes += rte_pktmbuf_pkt_len(m);
		/* Frames longer than one segment are not ours: the tester
		 * never sends jumbo frames chained. */
		if (m->nb_segs != 1) {
			bad++;
			rte_pktmbuf_free(m);
			continue;
		}
		if (rx_vlan_drop(p, m)) {
			unknown++;
			rte_pktmbuf_free(m);
			continue;
		}
		const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);

		switch (later ? pkt_parse_defer(f, m->data_len, pi) : pkt_parse(f, m->data_len, pi)) {
		case PKT_UDP:
		case PKT_TCP:
		case PKT_UDP6:
		case PKT_TCP6:
			/* steered even when this worker's run has drained: the
			 * owner may still be running its flows */
			if (steer && rx_steer(w, side, m, pi))
				continue;
			if (w->eng) {
				/* the engine takes them after the parse */
				tm[nt++] = m;
				continue;
			}
			/* no traffic running: like any other frame */
			/* fall through */
		case PKT_OTHER:
			if (w->service) {
				punt(w, side, m);
				continue;
			}
			unknown++;
			rte_pktmbuf_free(m);
			break;
		case PKT_ICMP:
		case PKT_ICMP6:
			if (rx_icmp_test(w, m, pi)) {
				tm[nt++] = m;
				continue;
			}
			if (unlikely(icmperr_kind_of(f, pi) != ICMPERR_NONE)) {
				rx_icmp_err(w, side, m, pi, steer, now);
				break;
			}
			(pi->kind == PKT_ICMP ? handle_local : handle_icmp6)(w, side, m, pi);
			break;
		case PKT_ARP:
			handle_local(w, side, m, pi);
			break;
		case PKT_BAD:
			bad++;
			rte_pktmbuf_free(m);
			break;
		}
	}
	rx_engine(w, side, tm, tpi, nt, now);
	FG_CTR_ADD(c->rx_pkts, n);
	FG_CTR_ADD(c->rx_bytes, bytes);
	if (bad)
		FG_CTR_ADD(c->rx_bad, bad);
	if (unknown)
		FG_CTR_ADD(c->rx_unknown, unknown);
}

/* One worker, or an engine without owners: every frame stays here. */
static void rx_side(struct worker *w, int side, uint16_t q, uint64_t now, bool *busy)
{
	rx_side_do(w, side, q, now, busy, false);
}

/* Several workers: each test frame goes to its owner (own.h). */
static void rx_side_steer(struct worker *w, int side, uint16_t q, uint64_t now, bool *busy)
{
	rx_side_do(w, side, q, now, busy, true);
}

/*
 * The frames the other workers of the pair handed over: parsed again (the
 * parse is cheap and the info would not fit the ring) and run as received
 * on their side. The ports counted them where they arrived.
 */
static void rx_handed(struct worker *w, uint64_t now, bool *busy)
{
	for (uint16_t j = 0; j < w->nq; j++) {
		struct rte_mbuf *pk[FG_BURST], *tm[2][FG_BURST];
		struct pkt_info tpi[2][FG_BURST];
		unsigned nt[2] = {0, 0}, n;

		if (!w->hand_in[j])
			continue;
		n = rte_ring_sc_dequeue_burst(w->hand_in[j], (void **)pk, FG_BURST, NULL);
		if (!n)
			continue;
		*busy = true;
		if (n == FG_BURST)
			w->rx_backlog = true;
		now = rte_rdtsc();
		for (unsigned i = 0; i < n; i++) {
			struct rte_mbuf *m = pk[i];
			int side = m->port & 1;
			struct pkt_info *pi = &tpi[side][nt[side]];
			enum pkt_kind k = pkt_parse(rte_pktmbuf_mtod(m, uint8_t *), m->data_len, pi);

			if (w->eng && (k == PKT_UDP || k == PKT_TCP || k == PKT_UDP6 || k == PKT_TCP6)) {
				tm[side][nt[side]++] = m;
				continue;
			}
			if (k == PKT_ICMP || k == PKT_ICMP6) {
				/* an ICMP error whose flow is this worker's (rx_icmp_err) */
				struct icmperr e;

				if (icmperr_parse(rte_pktmbuf_mtod(m, uint8_t *), pi, &e) == ICMPERR_OK) {
					icmp_err_run(w, side, m, &e, now);
					continue;
				}
			}
			/* the run ended here before the frame came */
			if (w->service) {
				punt(w, side, m);
				continue;
			}
			FG_CTR_INC(w->ctr->port[w->port[side]].rx_unknown);
			rte_pktmbuf_free(m);
		}
		if (w->eng) {
			rx_engine(w, 0, tm[0], tpi[0], nt[0], now);
			rx_engine(w, 1, tm[1], tpi[1], nt[1], now);
		}
	}
}

/*
 * Control's frames for a port without a control queue (net_af_xdp,
 * port.h): worker 0 of the pair sends them on its own queue, tagged
 * already, with the mailbox's pace. What the queue refuses is dropped, as
 * control's own queue would drop it.
 */
static void ctl_tx_drain(struct worker *w, int side)
{
	struct rte_mbuf *m[32];
	unsigned n = rte_ring_sc_dequeue_burst(w->pv[side]->ctl_tx, (void **)m, 32, NULL);
	uint16_t k = n ? rte_eth_tx_burst(w->pv[side]->id, w->q, m, (uint16_t)n) : 0;

	if (k < n)
		rte_pktmbuf_free_bulk(m + k, n - k);
}

/*
 * The run's first test frame: this turn's tick queued it, and the turn's
 * first burst from the tick on handed it to the port (with whatever the
 * RX side had queued before it). The TSC is read just before that burst
 * (worker_send_bytes), not at the turn's start, now: a run's first tick
 * takes tens of microseconds more than the others (its first flows
 * touch their table's pages for the first time: udp_short's first tick
 * took 31-196 us with hugepages, 41-345 us without).
 */
static void worker_first_frame(struct worker *w, uint64_t now)
{
	w->first_armed = false;
	FG_CTR_SET(w->ctr->first_tx_tsc, w->first_burst_tsc ? w->first_burst_tsc : now);
	worker_rt(w, false);
}

/*
 * start --at: the engine asked to generate nothing before w->hold_tsc
 * (its run's planned start). Until then the worker serves its ports (ARP,
 * Neighbour Solicitations, test frames that arrive early) and its mailbox
 * (STOP and QUIT end the hold) once per step, and sleeps between two
 * steps rather than poll: with several busy-polling processes on fewer
 * CPUs (three instances on two), the one whose worker is off its CPU at
 * the instant would start late by a scheduler slice, milliseconds, while
 * a sleeping worker wakes with the CPU nearly free. The last
 * WORKER_HOLD_SPIN_US it spins on the TSC. The hold is no stall: the
 * caller's stall clock restarts after it. Its time counts as loop time
 * without work (cpu_util), and no offer is tracked against it (warmup).
 */
static void worker_hold(struct worker *w, bool *quit, uint64_t start)
{
	const uint64_t spin = w->hz * WORKER_HOLD_SPIN_US / 1000000,
		       step = w->hz * WORKER_HOLD_STEP_US / 1000000,
		       rt = w->hz * WORKER_HOLD_RT_US / 1000000;
	const bool ctl_rx = w->q == 0 && (w->pv[0]->ctl_rxq || w->pv[1]->ctl_rxq);

	FG_CTR_SET(w->ctr->gauge.warmup, 1);
	while (w->hold_tsc && !*quit) {
		uint64_t now, c;
		bool busy = false;
		int64_t left;

		if (w->at_ns)
			worker_at_take(w);
		now = rte_rdtsc();
		left = (int64_t)(w->hold_tsc - now);

		/* the last stretch at real-time priority (worker_rt) */
		if (left <= (int64_t)rt && !w->rt_on) {
			worker_rt(w, true);
			FG_CTR_SET(w->ctr->at_rt, w->rt_on ? 1 : 2);
		}
		if (left <= (int64_t)spin) {
			while ((int64_t)(w->hold_tsc - rte_rdtsc()) > 0)
				rte_pause();
			break;
		}
		handle_mbox(w, now, quit);
		if (w->q == 0 && w->pv[0]->ctl_tx)
			ctl_tx_drain(w, 0);
		if (w->q == 0 && w->pv[1]->ctl_tx)
			ctl_tx_drain(w, 1);
		w->rx(w, 0, w->q, now, &busy);
		w->rx(w, 1, w->q, now, &busy);
		if (ctl_rx && w->pv[0]->ctl_rxq)
			w->rx(w, 0, w->nq, now, &busy);
		if (ctl_rx && w->pv[1]->ctl_rxq)
			w->rx(w, 1, w->nq, now, &busy);
		if (w->nq > 1)
			rx_handed(w, now, &busy);
		worker_flush(w, 0);
		worker_flush(w, 1);
		FG_CTR_SET(w->ctr->loop_tsc, now - start);
		left = (int64_t)(w->hold_tsc - rte_rdtsc()) - (int64_t)spin;
		if (w->hold_tsc && left > 0) {
			c = FG_MIN((uint64_t)left, step);
			rte_delay_us_sleep((unsigned)(c * 1000000 / w->hz) + 1);
		}
	}
	w->yield_until = w->hold_tsc + w->hz * WORKER_HOLD_YIELD_US / 1000000;
	w->hold_tsc = 0;
	w->hold_yield = !*quit;
	if (*quit)
		worker_rt(w, false);
	FG_CTR_SET(w->ctr->gauge.warmup, 0);
}

/* An idle turn after a hold: true while it should give the CPU up (the
 * first test frame not sent yet, or WORKER_HOLD_YIELD_US not over). */
static bool worker_hold_yield(struct worker *w, uint64_t now)
{
	if (w->first_armed || (int64_t)(now - w->yield_until) < 0)
		return true;
	w->hold_yield = false;
	return false;
}

/*
 * A gap of gap cycles between two turns, over FG_STALL_US: the gap the
 * engines' pacers see (pace.h), counted as a stall only while a run's
 * traffic is paced, not before its start, in its drain or between runs,
 * where no pacer owes anything (the state read is the one the previous
 * turn left).
 */
static void worker_stall(struct worker *w, uint64_t gap, uint64_t bound, uint64_t *stalls,
			 uint64_t *stall_tsc, uint64_t *stall_late_tsc)
{
	if (!w->eng || FG_CTR_GET(w->ctr->gauge.state) != CTR_RUNNING)
		return;
	(*stalls)++;
	*stall_tsc += gap;
	if (gap > bound)
		*stall_late_tsc += gap - bound;
	if (gap > w->stall_max)
		w->stall_max = gap;
}

int worker_main(void *arg)
{
	struct worker *w = arg;
	bool quit = false, was_busy = false;
	uint64_t polls = 0, start = rte_rdtsc(), prev = start, busy_tsc = 0;
	uint64_t stalls = 0, stall_tsc = 0, stall_late_tsc = 0;
	const uint64_t stall_at = w->hz * FG_STALL_US / 1000000, bound = w->hz * PACE_BOUND_MS / 1000;

	bool ctl_rx = w->q == 0 && (w->pv[0]->ctl_rxq || w->pv[1]->ctl_rxq);

	w->rx = rx_side;
	while (!quit) {
		uint64_t now = rte_rdtsc();
		bool busy = false, sent = false;

		/* CPU use is time-weighted: the turn that just ended counts
		 * with its cycles when it did work (a saturated worker spends
		 * nearly all of them in long, busy turns) */
		if (was_busy)
			busy_tsc += now - prev;
		if (unlikely(now - prev > stall_at))
			worker_stall(w, now - prev, bound, &stalls, &stall_tsc, &stall_late_tsc);
		prev = now;

		/* control's messages can wait a few turns: the mailbox is
		 * polled with the control queue, not on every turn */
		if ((polls & 7) == 0) {
			handle_mbox(w, now, &quit);
			if (w->q == 0 && w->pv[0]->ctl_tx)
				ctl_tx_drain(w, 0);
			if (w->q == 0 && w->pv[1]->ctl_tx)
				ctl_tx_drain(w, 1);
		}
		w->rx_backlog = false;
		w->rx(w, 0, w->q, now, &busy);
		w->rx(w, 1, w->q, now, &busy);
		if (ctl_rx) {
			/* the control queue's RX side, where the port has one
			 * (net_af_packet fans test frames over it too): every
			 * turn, its test frames going to their owners */
			if (w->pv[0]->ctl_rxq)
				w->rx(w, 0, w->nq, now, &busy);
			if (w->pv[1]->ctl_rxq)
				w->rx(w, 1, w->nq, now, &busy);
		}
		if (w->nq > 1)
			rx_handed(w, now, &busy);
		if (w->eng) {
			uint64_t tx0 = w->ctr->port[w->port[0]].tx_pkts + w->ntx[0] +
				       w->ctr->port[w->port[1]].tx_pkts + w->ntx[1];

			if (unlikely(w->first_armed))
				w->first_burst_tsc = 0;
			w->eng->tick(w, now);
			sent = w->ctr->port[w->port[0]].tx_pkts + w->ntx[0] +
				       w->ctr->port[w->port[1]].tx_pkts + w->ntx[1] !=
			       tx0;
			busy |= sent;
			if (unlikely(w->hold_tsc)) {
				worker_hold(w, &quit, start);
				prev = rte_rdtsc(); /* the hold is no stall */
				busy = true;	    /* the next turn at once, no pause */
			}
			if (FG_CTR_GET(w->ctr->gauge.state) == CTR_DRAINING && w->eng->idle(w)) {
				w->eng = NULL;
				w->state = NULL;
				/* release pairs with ctl_state()'s acquire: the
				 * engine state is not touched after this store */
				__atomic_store_n(&w->ctr->gauge.state, CTR_IDLE, __ATOMIC_RELEASE);
			}
		}
		worker_flush(w, 0);
		worker_flush(w, 1);
		if (unlikely(w->first_armed) && sent)
			worker_first_frame(w, now);
		/*
		 * On a CPU shared with another lcore (more lcores than CPUs,
		 * -c), a turn with nothing to do gives the CPU up for a moment
		 * (a sleep: the one the loop takes). Busy-polled without a
		 * pause, the CPU was this worker's alone for as long as it
		 * ran: the kernel's threads bound to that CPU starved (its RCU
		 * grace-period thread for 40 s and more, the kernel reporting
		 * "rcu_preempt kthread starved"), and a control
		 * thread's system call that waits for a grace period (an
		 * open() growing the file table, an af_packet socket's close)
		 * blocked until this worker stopped, which needs that thread:
		 * flowgen hung with -c 3 on 2 CPUs.
		 *
		 * After a hold (start --at), until its first test frame and
		 * for WORKER_HOLD_YIELD_US, the worker gives its CPU up the
		 * same way: the workers of other processes that share it,
		 * their holds over at the same instant, send their first
		 * frames then too, not a scheduler slice later.
		 */
		if (!busy && (w->cpu_shared || (w->hold_yield && worker_hold_yield(w, now))))
			rte_delay_us_sleep(1);
		polls++;
		was_busy = busy;
		if ((polls & 63) == 0) {
			/* a run whose first frame never came (stopped, nothing
			 * due, a server-only worker): the priority goes with the
			 * yield window */
			if (unlikely(w->rt_on) && (int64_t)(now - w->yield_until) >= 0)
				worker_rt(w, false);
			FG_CTR_SET(w->ctr->loop_tsc, now - start);
			FG_CTR_SET(w->ctr->busy_tsc, busy_tsc);
			FG_CTR_SET(w->ctr->stalls, stalls);
			FG_CTR_SET(w->ctr->stall_tsc, stall_tsc);
			FG_CTR_SET(w->ctr->stall_late_tsc, stall_late_tsc);
			FG_CTR_SET(w->ctr->stall_max_tsc, w->stall_max);
			FG_CTR_SET(w->ctr->tsc, now);
		}
	}
	FG_CTR_SET(w->ctr->gauge.state, CTR_IDLE);
	return 0;
}
