/*
 * ctl.c — the workers' life cycle as seen from control. Each worker gets
 * two rings: its mailbox (control → worker messages, multi-producer: the
 * console's thread and the service thread post to it) and its punt
 * ring (worker → control frames, SPSC); control sends frames on its own TX
 * queue. Every message to a worker goes through its mailbox; what a
 * worker tells control it publishes in its counter block. The workers of
 * a pair hand each other the test frames whose flow the other owns
 * (own.h) through one SPSC ring per ordered pair of workers.
 */
#define _GNU_SOURCE /* CPU_ISSET, for rte_cpuset_t */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "clock.h"
#include "cpushare.h"
#include "ctl.h"
#include "port.h"
#include "worker.h"

#define CTL_HAND_RING 4096

/* ctl_set_cancel: a plain flag, relaxed atomics suffice (no data is
 * published through it); a signal handler stores it. */
static int ctl_cancel_flag;
/* the run_id of the last start (ctl_run_id): the console's thread writes
 * it, the recorder's thread reads it */
static uint64_t ctl_last_run;

void ctl_set_cancel(bool on) { __atomic_store_n(&ctl_cancel_flag, on ? 1 : 0, __ATOMIC_RELAXED); }

bool ctl_cancelled(void) { return __atomic_load_n(&ctl_cancel_flag, __ATOMIC_RELAXED) != 0; }

bool worker_post(struct worker *w, const struct wmsg *m)
{
	/* Multi-producer (the console's thread, and the service thread with
	 * a next hop's new MAC), one consumer; the worker's dequeue pairs
	 * with this enqueue's release of the producer tail. */
	struct wmsg copy = *m;

	return rte_ring_enqueue_elem(w->mbox, &copy, sizeof(copy)) == 0;
}

static struct rte_ring *mkring(const char *what, int id, unsigned size, unsigned esize,
			       unsigned flags)
{
	char name[RTE_RING_NAMESIZE];

	snprintf(name, sizeof(name), "%s%d", what, id);
	return rte_ring_create_elem(name, esize, size, SOCKET_ID_ANY, flags);
}

/*
 * Which of the n workers share a CPU with another lcore, the main lcore
 * included (worker.cpu_shared): more lcores than CPUs map several onto
 * one (flowgen(8), -c).
 */
static void mark_shared_cpus(int n)
{
	static uint64_t sets[(FG_MAX_WORKERS + 1) * CPUSHARE_WORDS];

	memset(sets, 0, sizeof(sets));
	for (int i = 0; i <= n; i++) {
		rte_cpuset_t cs =
		    rte_lcore_cpuset(i ? fg_worker[i - 1].lcore : rte_get_main_lcore());

		for (unsigned c = 0; c < CPUSHARE_WORDS * 64 && c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &cs))
				sets[(size_t)i * CPUSHARE_WORDS + c / 64] |= 1ull << (c % 64);
	}
	for (int i = 0; i < n; i++)
		fg_worker[i].cpu_shared =
		    cpushare_shared(sets, CPUSHARE_WORDS, (unsigned)n + 1, (unsigned)i + 1);
}

int ctl_launch(int per_pair, char *err, size_t errlen)
{
	unsigned lcore;
	int n = 0;

	RTE_LCORE_FOREACH_WORKER(lcore)
	{
		struct worker *w;

		if (n >= per_pair * (fg_nports / 2) || n >= FG_MAX_WORKERS)
			break;
		w = &fg_worker[n];
		w->id = n;
		w->lcore = lcore;
		w->pair = n / per_pair;
		w->q = n % per_pair;
		w->nq = per_pair;
		w->port[0] = 2 * w->pair;
		w->port[1] = 2 * w->pair + 1;
		w->pv[0] = &fg_port[w->port[0]].v;
		w->pv[1] = &fg_port[w->port[1]].v;
		w->hz = fg_tsc_hz; /* measured at start-up (clock.h) */
		w->rt_pair = clock_rt_pair;
		w->ctr = &fg_ctr[n];
		/* the mailbox has two control threads as producers (worker_post) */
		w->mbox = mkring("mbox", n, 256, sizeof(struct wmsg), RING_F_SC_DEQ);
		w->punt = mkring("punt", n, 1024, sizeof(void *), RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (!w->mbox || !w->punt) {
			snprintf(err, errlen, "worker %d: cannot create rings (%s)", n,
				 rte_strerror(rte_errno));
			return -ENOMEM;
		}
		for (int s = 0; s < 2; s++) {
			uint64_t g = fg_port[w->port[s]].gw_mac;

			w->dst_known[s] = (g & PORT_MAC_KNOWN) != 0;
			port_word_mac(g, &w->dst[s]);
			w->dst_gen[s]++;
			g = port_gw6_word(&fg_port[w->port[s]]);
			w->dst6_known[s] = (g & PORT_MAC_KNOWN) != 0;
			port_word_mac(g, &w->dst6[s]);
		}
		n++;
	}
	if (n < per_pair * (fg_nports / 2)) {
		snprintf(err, errlen, "%d worker lcores needed (%d per port pair), %d available", per_pair * (fg_nports / 2), per_pair, n);
		return -EINVAL;
	}
	fg_nworkers = n;
	mark_shared_cpus(n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			struct worker *a = &fg_worker[i], *b = &fg_worker[j];
			char name[RTE_RING_NAMESIZE];
			struct rte_ring *r;

			if (i == j || a->pair != b->pair)
				continue;
			/* the owner drains it every loop turn; the depth
			 * covers an owner that is not scheduled for a while
			 * (more workers than CPUs) */
			snprintf(name, sizeof(name), "hand%d_%d", i, j);
			r = rte_ring_create(name, CTL_HAND_RING, SOCKET_ID_ANY,
					    RING_F_SP_ENQ | RING_F_SC_DEQ);
			if (!r) {
				snprintf(err, errlen, "workers %d, %d: cannot create a ring (%s)",
					 i, j, rte_strerror(rte_errno));
				return -ENOMEM;
			}
			a->hand_out[b->q] = r;
			b->hand_in[a->q] = r;
		}
	for (int i = 0; i < n; i++)
		rte_eal_remote_launch(worker_main, &fg_worker[i], fg_worker[i].lcore);
	return 0;
}

void ctl_post(const struct wmsg *m, int pair)
{
	for (int i = 0; i < fg_nworkers; i++)
		if (pair < 0 || fg_worker[i].pair == pair)
			/* a full mailbox empties within a few loop turns */
			while (!worker_post(&fg_worker[i], m))
				usleep(10);
}

static void post_all(const struct wmsg *m)
{
	ctl_post(m, -1);
}

void ctl_shutdown(void)
{
	struct wmsg m = {.op = WMSG_QUIT};

	if (!fg_nworkers)
		return;
	post_all(&m);
	/*
	 * Wait for every worker to leave its loop here, asleep between looks:
	 * rte_eal_mp_wait_lcore() spins (rte_pause) until the lcores are
	 * done, and this thread runs on the main lcore's CPU, which a worker
	 * shares when there are more lcores than CPUs (-c): the spin would
	 * keep that worker from the CPU it needs to read its QUIT. Once
	 * every lcore is back in WAIT, the call below returns at once.
	 */
	for (int i = 0; i < fg_nworkers; i++)
		while (rte_eal_get_lcore_state(fg_worker[i].lcore) == RUNNING)
			usleep(100);
	rte_eal_mp_wait_lcore();
	fg_nworkers = 0;
}

int ctl_start(const struct worker_ops *e, void **states, uint64_t run_id, int64_t at_ns)
{
	for (int i = 0; i < fg_nworkers; i++) {
		/* The state travels in START: the worker's dequeue pairs with
		 * the release of this enqueue, so it sees the state complete. */
		struct wmsg m = {.op = WMSG_START,
				 .val = run_id,
				 .ptr = (void *)(uintptr_t)e,
				 .arg = states[i],
				 .ns = at_ns};

		while (!worker_post(&fg_worker[i], &m))
			usleep(10);
	}
	/* wait until every worker has taken it, so `wait` sees the run */
	for (int i = 0; i < fg_nworkers; i++)
		while (__atomic_load_n(&fg_ctr[i].gauge.run_id, __ATOMIC_ACQUIRE) != run_id)
			usleep(50);
	/* published once the workers have it: a reader that sees this run_id
	 * and idle workers (ctl_busy, acquire) sees the run over */
	__atomic_store_n(&ctl_last_run, run_id, __ATOMIC_RELEASE);
	return 0;
}

uint64_t ctl_run_id(void) { return __atomic_load_n(&ctl_last_run, __ATOMIC_ACQUIRE); }

void ctl_stop(void)
{
	struct wmsg m = {.op = WMSG_STOP};

	post_all(&m);
}

void ctl_pause(bool on)
{
	struct wmsg m = {.op = on ? WMSG_PAUSE : WMSG_RESUME};

	post_all(&m);
}

void ctl_rate(double scale)
{
	struct wmsg m = {.op = WMSG_RATE, .val = (uint64_t)(scale * 1e6)};

	post_all(&m);
}

int ctl_state(void)
{
	int best = CTR_IDLE;

	for (int i = 0; i < fg_nworkers; i++) {
		/* acquire pairs with the worker's release store of CTR_IDLE:
		 * once it reads idle, the worker no longer touches the run's
		 * state, which control may then free */
		int s = (int)__atomic_load_n(&fg_ctr[i].gauge.state, __ATOMIC_ACQUIRE);

		if (s == CTR_RUNNING || (s != CTR_IDLE && best == CTR_IDLE))
			best = s;
	}
	return best;
}

bool ctl_busy(void)
{
	return ctl_state() != CTR_IDLE;
}
