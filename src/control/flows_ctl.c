/*
 * flows_ctl.c — the control half of the stateful flows engine (profile
 * `mode: flows`). On `start` flows_load tells the load model (load.h)
 * what each port sends at -m 1, both directions of every template's
 * program; run.c applies -m. flows_prepare then builds one struct flows_state per
 * worker (its flow table in hugepages, its share of client ports, its
 * share of the rate) and hands the workers the engine's ops; after the run
 * it frees the states. While the run goes, the statistics sampler reads
 * the NAT report (distinct translated sources) out of the workers' states.
 * Nothing here runs on a worker: the worker half is
 * src/dataplane/flows.c, the shared definitions are in
 * src/dataplane/flows.h. run.c reaches all of this through flows_engine
 * (flows_ctl.h), no one else.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memory.h>

#include "flows_ctl.h"
#include "run.h"
#include "fgen.h"
#include "fgen_mem.h"
#include "flowpay.h"
#include "flowplan.h"
#include "flows.h"
#include "flowtab.h"
#include "flowtab_mem.h"
#include "lat.h"
#include "own.h"
#include "port.h"
#include "prof_plan.h"
#include "start_opts.h"
#include "tunables.h"
#include "units.h"
#include "worker.h"

#define FLOWS_HDR_L1 (14 + 20 + 4 + 20) /* eth + ip + fcs + preamble/IFG */

/* The states of the current run, for flows_nat_report(). */
static struct flows_state *flows_cur[FG_MAX_WORKERS];

/*
 * The tables' plans (flowplan.h): the one being prepared, and the current
 * run's (its tables' bytes are free for the next run once it stops; update
 * -m is checked against its tables), with what each worker's was counted
 * from. The console's thread only.
 */
static struct flowplan flows_plan, flows_run_plan;
static struct flowplan_in flows_plan_in[FG_MAX_WORKERS], flows_run_in[FG_MAX_WORKERS];
/* the config's flows_max the plans were bounded by; 0: none given */
static uint32_t flows_plan_bound, flows_run_bound;

/* The program of a template's side (FLOWTAB_CLIENT or FLOWTAB_SERVER). */
static const struct prof_program *flows_tpl_prog(const struct prof_template *t, int side)
{
	return side == FLOWTAB_SERVER ? &t->server : &t->client;
}

/*
 * Does template t's server answer a request as it comes, taking no entry
 * (flows.h, srv_once: a UDP server whose program is one recv and sends,
 * without bytes on either side)? *need: the recv's bytes, which the
 * first datagram must bring for that. *no_entry (NULL: not asked): whether
 * every datagram of the client's brings them, so that the server side
 * never takes an entry (the plan counts none, flowplan_tpl.srv_free).
 */
static bool flows_srv_once(const struct prof_template *t, uint32_t *need, bool *no_entry)
{
	const struct prof_program *c = flows_tpl_prog(t, FLOWTAB_CLIENT);
	const struct prof_program *s = flows_tpl_prog(t, FLOWTAB_SERVER);
	bool once = t->proto == PROF_UDP && !s->until && !c->bytes && prof_prog_once(s, need);

	if (no_entry)
		*no_entry = once && prof_prog_min_send(c) >= *need;
	return once;
}

/*
 * Does template t's TCP server keep no state (flows.h, tcp_once)? Its
 * program is one recv and then sends, its client's one send of as many
 * bytes with delays before it and recvs and delays after it, neither
 * with bytes: the client sends nothing the server's answer has not
 * acknowledged. *need: the recv's bytes; *resp: the sends', at most a
 * segment's worth (65,535).
 */
static bool flows_tcp_once(const struct prof_template *t, uint32_t *need, uint32_t *resp)
{
	const struct prof_program *c = flows_tpl_prog(t, FLOWTAB_CLIENT);
	const struct prof_program *s = flows_tpl_prog(t, FLOWTAB_SERVER);
	uint64_t sum = 0;
	unsigned sends = 0;

	if (t->proto != PROF_TCP || s->until || s->bytes || c->until || c->bytes ||
	    !prof_prog_once(s, need) || *need == 0)
		return false;
	for (size_t i = 0; i < c->n; i++) {
		const struct prof_step *st = &c->steps[i];

		if (st->op == PROF_OP_SEND) {
			if (sends++ || st->arg != *need)
				return false;
		} else if (st->op != PROF_OP_DELAY && (st->op != PROF_OP_RECV || !sends)) {
			return false;
		}
	}
	if (sends != 1)
		return false;
	for (size_t i = 1; i < s->n; i++)
		sum += s->steps[i].arg;
	*resp = (uint32_t)sum;
	return sum > 0 && sum <= UINT16_MAX;
}

/*
 * A template's programs, and what programs with bytes need (flows.h):
 * which side sends bytes, which receives through flows_rx_bytes(), and
 * the flow's timeout, the profile's plus the delays of the longer program.
 */
static void flows_tpl_progs(struct flows_tpl *ft, const struct prof *p,
			    const struct prof_template *t, uint64_t hz)
{
	ft->prog[FLOWTAB_CLIENT] = flows_tpl_prog(t, FLOWTAB_CLIENT);
	ft->prog[FLOWTAB_SERVER] = flows_tpl_prog(t, FLOWTAB_SERVER);
	ft->timeout = (uint64_t)(prof_tpl_timeout(p, t) * (double)hz);
	for (int side = 0; side < 2; side++) {
		ft->txb[side] = ft->prog[side]->bytes;
		ft->rxb[side] = ft->prog[side]->until || ft->prog[!side]->bytes;
	}
	ft->srv_once = flows_srv_once(t, &ft->srv_need, NULL);
	if (!ft->srv_once)
		ft->tcp_once = flows_tcp_once(t, &ft->srv_need, &ft->srv_resp);
}

/* L1 bits one flow puts on the wire in one direction (side's sends);
 * v6: IPv6 frames, 20 bytes more header and a 20 bytes smaller MSS. */
static double flows_bits(const struct prof_template *t, int side, bool v6, double *frames)
{
	const struct prof_program *pg = flows_tpl_prog(t, side);
	double bits = 0, n = 0, ip = v6 ? 20 : 0, mss = v6 ? FLOWS_TCP_MSS6 : FLOWS_TCP_MSS;

	for (size_t i = 0; i < pg->n; i++) {
		uint32_t b = pg->steps[i].arg;

		if (pg->steps[i].op != PROF_OP_SEND)
			continue;
		if (t->proto == PROF_UDP) {
			b = FG_MAX(b, (uint32_t)LAT_SIG_LEN);
			bits += (b + 8 + FLOWS_HDR_L1 + ip) * 8.0;
			n++;
		} else {
			double segs = ceil(b / mss);

			bits += (b + segs * (20 + FLOWS_HDR_L1 + ip)) * 8.0;
			n += segs;
		}
	}
	if (t->proto == PROF_TCP) { /* SYN, ACKs, FIN: about four bare segments */
		bits += 4 * (20 + FLOWS_HDR_L1 + ip + 6) * 8.0;
		n += 4;
	}
	*frames = n;
	return bits;
}

static void flows_free_state(struct flows_state *s)
{
	if (!s)
		return;
	for (int i = 0; i < 2; i++)
		rte_pktmbuf_free_bulk(s->stash[i].m, s->stash[i].n);
	flowtab_destroy(s->ft);
	if (s->tcbs.map_len)
		munmap(s->tcbs.slot, s->tcbs.map_len);
	for (unsigned i = 0; i < s->ncpa; i++)
		fgen_cpa_destroy(&s->cpa[i]);
	fgen_addrs_destroy(&s->cli);
	fgen_addrs_destroy(&s->srv);
	free(s);
}

/* Free the states of a finished run (the workers no longer use them). */
static void flows_release(void **states)
{
	bool cur = false;

	for (int i = 0; i < FG_MAX_WORKERS; i++) {
		if (flows_cur[i] == states[i] && states[i]) {
			flows_cur[i] = NULL;
			cur = true;
		}
		flows_free_state(states[i]);
		states[i] = NULL;
	}
	if (cur)
		memset(&flows_run_plan, 0, sizeof(flows_run_plan));
}

/* True when rp's port mask lets the pair of client port pt run. */
static bool flows_pair_used(const struct run_params *rp, int pt)
{
	uint32_t m = rp->port_mask;

	return m == 0 || m == UINT32_MAX || ((m >> pt & 1) && (m >> (pt + 1) & 1));
}

/* The engine's load (struct engine, run.h): both directions of every template. */
static int flows_load(const struct run_params *rp, struct load *l, char *err, size_t errlen)
{
	const struct prof *p = rp->prof;
	double frames[2] = {0, 0}, bits[2] = {0, 0};

	if (p->mode != PROF_FLOWS || p->n_templates == 0 ||
	    p->n_templates > FG_PROF_MAX_TEMPLATES) {
		snprintf(err, errlen, "a flows profile needs 1..%d templates", FG_PROF_MAX_TEMPLATES);
		return -EINVAL;
	}
	/* per second at -m 1: each template opens `cps` flows */
	for (size_t i = 0; i < p->n_templates; i++)
		for (int side = 0; side < 2; side++) {
			bool v6 = side ? p->ip_gen.server.v6 : p->ip_gen.client.v6;
			double f, b = flows_bits(&p->templates[i], side, v6, &f);

			bits[side] += b * p->templates[i].cps;
			frames[side] += f * p->templates[i].cps;
		}
	l->scope = LOAD_SHARED;
	l->nports = fg_nports;
	l->cps = prof_total_cps(p);
	l->ref = -1;
	for (int pt = 0; pt + 1 < fg_nports; pt += 2) {
		if (!flows_pair_used(rp, pt))
			continue;
		for (int side = 0; side < 2; side++)
			l->tx[pt + side] = (struct load_port){
			    .pps = frames[side],
			    .bps_l1 = bits[side],
			    .bps_l2 = bits[side] - frames[side] * FG_UNITS_L1_OVERHEAD * 8,
			};
		if (l->ref < 0)
			l->ref = pt;
		l->npairs++;
	}
	return 0;
}

/*
 * The flow table in hugepages when there are enough: its index and
 * entries are hundreds of MiB read at random, and with 4 KiB pages nearly
 * every lookup would also miss the TLB. Without hugepages (or when they
 * run short) it falls back to the heap.
 */
static void *flows_ft_alloc(size_t size, size_t align, void *arg)
{
	void *p = rte_malloc_socket("flowtab", size, align, (int)(intptr_t)arg);

	return p ? p : aligned_alloc(align, RTE_ALIGN_CEIL(size, align));
}

static void flows_ft_release(void *p, void *arg)
{
	(void)arg;
	if (p && rte_mem_virt2memseg_list(p))
		rte_free(p);
	else
		free(p);
}

/*
 * The fixed first 96 bits of each IPv6 side (flows6.c): the client sends
 * from its range's /96 to the server range's, or to nat64_prefix when the
 * servers are IPv4 (RFC 6052: the server's IPv4 address is the low 32
 * bits of a /96); the server answers from its /96 to the client's.
 */
static void flows_build_v6(struct flows_state *s, const struct prof_ip_gen *g)
{
	s->v6[FLOWTAB_CLIENT] = g->client.v6;
	s->v6[FLOWTAB_SERVER] = g->server.v6;
	s->mss[FLOWTAB_CLIENT] = g->client.v6 ? FLOWS_TCP_MSS6 : FLOWS_TCP_MSS;
	s->mss[FLOWTAB_SERVER] = g->server.v6 ? FLOWS_TCP_MSS6 : FLOWS_TCP_MSS;
	memcpy(s->own_hi[FLOWTAB_CLIENT], g->client.hi96, 12);
	memcpy(s->peer_hi[FLOWTAB_CLIENT], g->has_nat64 ? g->nat64_prefix : g->server.hi96, 12);
	memcpy(s->own_hi[FLOWTAB_SERVER], g->server.hi96, 12);
	memcpy(s->peer_hi[FLOWTAB_SERVER], g->client.hi96, 12);
}

/*
 * The flows engine's tunables (-t, tunables.h): payload_check=0|1|auto,
 * how the client checks what its replies carry (flowpay.h): auto (the
 * default) checks a flowgen server's replies strictly and counts a server
 * that is not flowgen in client.foreign_server, its flows judged by byte
 * counts; 1 wants every server to be flowgen; 0 checks nothing.
 */
struct flows_tun {
	int payload_check; /* enum flowpay_mode */
};

static const struct tun_word flows_check_words[] = {
    {"0", FLOWPAY_OFF}, {"1", FLOWPAY_STRICT}, {"auto", FLOWPAY_AUTO}};

static const struct tun_key flows_tun_keys[] = {
    {.name = "payload_check",
     .type = TUN_WORD,
     .words = flows_check_words,
     .nwords = FG_ARRAY_SIZE(flows_check_words),
     .off = offsetof(struct flows_tun, payload_check)},
};

static const struct tun_table flows_tun_table = {
    .engine = "flows", .keys = flows_tun_keys, .nkeys = FG_ARRAY_SIZE(flows_tun_keys)};

/*
 * The caps of a run on worker s, the gi-th of the ngen workers that
 * generate (flows.h): its exact shares of --active and of each template's
 * limit and climit (start_share()). Whether its table holds them is the
 * plan's (flows_plan_tables()).
 */
static void flows_caps(const struct run_params *rp, struct flows_state *s, unsigned gi,
		       unsigned ngen)
{
	const struct prof *p = rp->prof;

	s->active_max = UINT64_MAX;
	s->capped = s->gen && rp->active;
	if (s->gen && rp->active)
		s->active_max = start_share(rp->active, ngen, gi);
	for (size_t i = 0; i < p->n_templates; i++) {
		const struct prof_template *t = &p->templates[i];

		s->tpl[i].left = t->limit ? start_share(t->limit, ngen, gi) : UINT64_MAX;
		s->tpl[i].cmax = t->climit ? start_share(t->climit, ngen, gi) : UINT64_MAX;
		s->capped |= s->gen && (t->limit || t->climit);
	}
}

/* Bytes of free memory and free hugepages (/proc/meminfo); 0, 0 when unread. */
static void flows_meminfo(uint64_t *avail, uint64_t *huge_free)
{
	char buf[8192];
	FILE *f = fopen("/proc/meminfo", "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = 0;
	if (flowplan_meminfo(buf, avail, huge_free) != 0)
		*avail = *huge_free = 0;
	/* DPDK takes hugepages only when it runs on them (not --no-huge) */
	if (!rte_eal_has_hugepages())
		*huge_free = 0;
}

/* Does a template of the run speak TCP? */
static bool flows_has_tcp(const struct prof *p)
{
	for (size_t i = 0; i < p->n_templates; i++)
		if (p->templates[i].proto == PROF_TCP)
			return true;
	return false;
}

/*
 * The pool of whole tcbs (flows.h): a slot for every entry of the table,
 * in an anonymous mapping whose pages become resident as slots are used.
 */
static int flows_build_tcbs(struct flows_state *s, uint32_t entries, uint64_t hz, char *err,
			    size_t errlen)
{
	size_t len = (size_t)entries * sizeof(struct flows_tcb);
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);

	if (m == MAP_FAILED) {
		snprintf(err, errlen, "TCP pool of %u connections: %s", entries, strerror(errno));
		return -ENOMEM;
	}
	s->tcbs = (struct flows_tcbs){
	    .slot = m,
	    .cap = entries,
	    .free = FLOWS_TCB_FREE,
	    .park_after = (uint32_t)((hz * FLOWS_PARK_MS / 1000) >> FLOWS_TCB_SHIFT) + 1,
	    .every = FG_MAX(hz * FLOWS_SWEEP_MS / 1000, 1),
	    .map_len = len,
	};
	return 0;
}

/*
 * What worker w's table is counted from (flowplan.h): its share of each
 * template's rate (the pair's rate over the pair's workers, by the
 * templates' cps), each template's program time (its delays) and
 * lifetime, its shares of the caps.
 */
static void flows_count_in(const struct run_params *rp, const struct worker *w, bool gen,
			  unsigned gi, unsigned ngen, struct flowplan_in *in)
{
	const struct prof *p = rp->prof;
	double total = prof_total_cps(p);
	double cps = rp->load.cps * rp->factor[w->port[0]] / FG_MAX(w->nq, 1);

	memset(in, 0, sizeof(*in));
	in->gen = gen;
	in->unpaced = rp->mult.kind == UNITS_MAX;
	in->duration_s = rp->duration_s;
	in->active = gen && rp->active ? start_share(rp->active, ngen, gi) : 0;
	in->deflt = rp->flows_max ? rp->flows_max : FLOWPLAN_UNPACED_DEFAULT;
	in->state = sizeof(struct flows_ent);
	in->pool = flows_has_tcp(p) ? sizeof(struct flows_tcb) : 0;
	in->ntpl = (unsigned)p->n_templates;
	for (unsigned i = 0; i < in->ntpl; i++) {
		const struct prof_template *t = &p->templates[i];
		uint32_t need;

		in->tpl[i].cps = total > 0 ? cps * t->cps / total : 0;
		in->tpl[i].prog_s =
		    (double)FG_MAX(t->client.delay_ms, t->server.delay_ms) / 1000.0;
		in->tpl[i].life_s = prof_tpl_timeout(p, t);
		in->tpl[i].climit = t->climit ? start_share(t->climit, ngen, gi) : 0;
		in->tpl[i].limit = t->limit ? start_share(t->limit, ngen, gi) : 0;
		flows_srv_once(t, &need, &in->tpl[i].srv_free);
	}
}

/*
 * The plan of the run's tables (flows_plan): each worker's need, want and
 * the table taken, its bytes, hugepages or heap, and the refusal of a run
 * whose need cannot be had, before anything is allocated. 0 or -ERANGE /
 * -ENOMEM (err set).
 */
static int flows_plan_tables(const struct run_params *rp, unsigned ngen, char *err,
			     size_t errlen)
{
	struct flowplan_mem m = {0};
	unsigned gi = 0;
	char e[FG_ERRLEN];
	int rc;

	memset(&flows_plan, 0, sizeof(flows_plan));
	flows_plan.nw = (unsigned)fg_nworkers;
	flows_plan_bound = rp->flows_max;
	for (int i = 0; i < fg_nworkers; i++) {
		bool gen = flows_pair_used(rp, fg_worker[i].port[0]);

		flows_count_in(rp, &fg_worker[i], gen, gi, ngen, &flows_plan_in[i]);
		gi += gen;
		rc = flowplan_worker(&flows_plan_in[i], 1.0, rp->flows_max,
				     rp->flows_max ? "flows_max" : "the most a table holds",
				     &flows_plan.w[i], e, sizeof(e));
		if (rc) {
			snprintf(err, errlen, "%s%s", e,
				 rp->flows_max ? "; raise flows_max or add workers (-c)"
					       : "; add workers (-c)");
			return rc;
		}
	}
	flows_meminfo(&m.avail, &m.huge_free);
	m.held_heap = flows_run_plan.heap;
	m.held_huge = flows_run_plan.huge;
	rc = flowplan_place(&flows_plan, &m, err, errlen);
	return rc;
}

/*
 * The address sets of worker w: ip_gen's client side (plus offset x the
 * pair's index) and server side, ranges or lists, each walked from a seed
 * of the worker's own.
 */
static int flows_build_addrs(struct flows_state *s, const struct prof *p, const struct worker *w,
			     char *err, size_t errlen)
{
	const struct prof_ip_gen *g = &p->ip_gen;
	const struct prof_ip_dist *d[2] = {&g->client, &g->server};
	struct fgen_addrs *a[2] = {&s->cli, &s->srv};
	uint32_t add[2] = {g->offset * (uint32_t)w->pair, 0};
	int rc = 0;

	for (int i = 0; i < 2 && !rc; i++) {
		enum fgen_mode m = d[i]->dist == PROF_DIST_RAND ? FGEN_RAND : FGEN_INC;
		uint64_t seed = fgen_subseed(p->seed, (uint32_t)w->id, (uint32_t)i + 1);

		if (d[i]->list)
			rc = fgen_addrs_list(a[i], m, d[i]->list, (uint32_t)d[i]->n_list, add[i],
					     seed);
		else
			rc = fgen_addrs_range(a[i], m, d[i]->range.lo + add[i],
					      d[i]->range.hi + add[i], seed);
	}
	if (rc)
		snprintf(err, errlen, "ip_gen: %s",
			 rc == -ENOMEM ? "out of memory" : "no usable address in a range");
	return rc;
}

/*
 * The client port allocators of worker w, after its templates, each over
 * the worker's share of a range, the ports p with p mod nq == q (own.h):
 * one for ip_gen's client_ports, which the templates without their own
 * share (bench's trial window stands for it, and for every template's),
 * and one per protocol, server port and range of the templates with
 * client_ports of their own: their flows take no port from the others,
 * so a client and a server carry a range of concurrent flows per
 * template. Templates of one protocol and port use one range, or ranges
 * apart (prof.c). Then the pair's ownership map over all the ranges.
 */
static int flows_build_cpa(struct flows_state *s, const struct run_params *rp,
			   const struct worker *w, char *err, size_t errlen)
{
	const struct prof *p = rp->prof;
	struct yamlu_range r[FG_PROF_MAX_TEMPLATES];
	uint32_t key[FG_PROF_MAX_TEMPLATES], lo = 65535, hi = 0;

	if (w->nq > OWN_MAX_WORKERS) {
		snprintf(err, errlen, "%u workers per pair: at most %u", w->nq, OWN_MAX_WORKERS);
		return -EINVAL;
	}
	for (unsigned i = 0; i < s->ntpl; i++) {
		const struct prof_template *pt = &p->templates[i];
		struct yamlu_range t = prof_client_ports(p, pt);
		uint32_t first, k = pt->has_client_ports ? (uint32_t)pt->proto << 16 | pt->port
							 : UINT32_MAX; /* ip_gen's */
		unsigned c = 0;
		int rc;

		if (rp->cport_lo || rp->cport_hi) { /* bench: ports no earlier trial used */
			t = (struct yamlu_range){rp->cport_lo, rp->cport_hi};
			k = UINT32_MAX;
		}
		while (c < s->ncpa && (r[c].lo != t.lo || r[c].hi != t.hi || key[c] != k))
			c++;
		s->tpl[i].cpa = (uint8_t)c;
		if (c < s->ncpa)
			continue;
		/* the first port >= lo with port mod nq == q */
		first = t.lo + (w->q + w->nq - t.lo % w->nq) % w->nq;
		if (first > t.hi) {
			snprintf(err, errlen,
				 "template '%s': client ports %u-%u: too few for %u workers",
				 p->templates[i].name, t.lo, t.hi, w->nq);
			return -EINVAL;
		}
		rc = fgen_cpa_init(&s->cpa[c], &s->cli, (uint16_t)first, (uint16_t)t.hi,
				   (uint16_t)w->nq);
		if (rc) {
			snprintf(err, errlen, "client ports: %s", strerror(-rc));
			return rc;
		}
		if ((rp->cport_order ? rp->cport_order : p->ip_gen.client_ports_order) ==
		    PROF_DIST_RAND) {
			/* a key of its own per worker and range, never 0 */
			uint64_t sk = fgen_subseed(p->seed, (uint32_t)w->id, 16 + c);

			fgen_cpa_shuffle(&s->cpa[c], (uint32_t)sk | 1);
		}
		key[s->ncpa] = k;
		r[s->ncpa++] = t;
		lo = FG_MIN(lo, t.lo);
		hi = FG_MAX(hi, t.hi);
	}
	s->own = (struct own_map){.nq = w->nq, .port_lo = (uint16_t)lo, .port_hi = (uint16_t)hi};
	return 0;
}

static int flows_build(const struct run_params *rp, const struct worker *w, double cps,
		       bool unpaced, const struct flowplan_worker *pw, struct flows_state **out,
		       char *err, size_t errlen)
{
	const struct prof *p = rp->prof;
	const struct prof_ip_gen *g = &p->ip_gen;
	/* the plan's size and place: hugepages through DPDK, else the
	 * table's own anonymous mapping (transparent huge pages where the
	 * kernel has them) */
	struct flowtab_params fp = {
	    .max_flows = (uint32_t)pw->entries,
	    .entry_size = sizeof(struct flows_ent),
	    .tick_tsc = FG_MAX(rp->hz / 1000, 2),
	    .wheel_slots = pw->wheel,
	    .alloc = pw->huge ? flows_ft_alloc : NULL,
	    .release = pw->huge ? flows_ft_release : NULL,
	    .alloc_arg = (void *)(intptr_t)rte_lcore_to_socket_id(w->lcore),
	    /* the top bits of a flow's wire id name its worker (own.h) */
	    .id_bits = OWN_ID_SHIFT,
	};
	double total = prof_total_cps(p);
	struct flows_state *s;
	int rc;

	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* the RSS of an IPv4 tuple: an IPv6 client hands replies over instead */
	if (fg_port[w->port[0]].rss.reta_size && !g->client.v6)
		s->rss = &fg_port[w->port[0]].rss;
	flows_build_v6(s, g);
	s->ft = flowtab_create(&fp);
	if (!s->ft) {
		rc = -errno;
		snprintf(err, errlen, "flow table of %u flows: %s", fp.max_flows, strerror(errno));
		goto err_free;
	}
	s->rx_idx = FLOWTAB_NIL;
	if (flows_has_tcp(p) &&
	    (rc = flows_build_tcbs(s, fp.max_flows, rp->hz, err, errlen)) != 0)
		goto err_free;
	if ((rc = flows_build_addrs(s, p, w, err, errlen)) != 0)
		goto err_free;
	/* Spread the workers of a pair over the sequence. */
	for (unsigned i = 0; i < w->q; i++)
		(void)fgen_addrs_next(&s->cli);
	flowpay_udp_rest(s->udp_rest, sizeof(s->udp_rest));
	s->ntpl = (unsigned)p->n_templates;
	for (unsigned i = 0; i < s->ntpl; i++) {
		const struct prof_template *t = &p->templates[i];

		s->tpl[i].proto = t->proto;
		s->tpl[i].port = (uint16_t)t->port;
		s->tpl[i].weight = t->cps / total;
		flows_tpl_progs(&s->tpl[i], p, t, rp->hz);
	}
	if ((rc = flows_build_cpa(s, rp, w, err, errlen)) != 0)
		goto err_free;
	s->gen = flows_pair_used(rp, w->port[0]);
	s->unpaced = unpaced;
	s->rate = cps / w->nq;
	s->duration_s = rp->duration_s;
	s->timeout = (uint64_t)(p->timeout * (double)rp->hz);
	flows_clock_init(s, rp->hz);
	s->rng = fgen_subseed(p->seed, (uint32_t)w->id, 3);
	/* one secret for the run: a connection's segments may reach
	 * another worker of the pair than its SYN did */
	s->cookie_key = fgen_subseed(p->seed, UINT32_MAX, 0);
	for (unsigned i = 0; i < s->ntpl; i++)
		s->tcp_once |= s->tpl[i].tcp_once;
	s->cli_off = g->offset;
	s->npairs = (fg_nports + 1) / 2;
	s->pair = w->pair;
	if (s->gen && !unpaced && s->rate >= (double)rp->hz) {
		snprintf(err, errlen, "%.0f connections/s per worker is beyond the TSC pacer",
			 s->rate);
		rc = -ERANGE;
		goto err_free;
	}
	*out = s;
	return 0;

err_free:
	flows_free_state(s);
	return rc;
}

/* The per-worker states of a run (struct engine, run.h). */
static int flows_prepare(const struct run_params *rp, void **states, char *err, size_t errlen)
{
	bool unpaced = rp->mult.kind == UNITS_MAX;
	struct flows_tun tun = {.payload_check = FLOWPAY_AUTO};
	unsigned ngen = 0, gi = 0;
	int rc;

	if (rp->prof->n_templates == 0 || rp->prof->n_templates > FG_PROF_MAX_TEMPLATES) {
		snprintf(err, errlen, "a flows profile needs 1..%d templates", FG_PROF_MAX_TEMPLATES);
		return -EINVAL;
	}
	rc = tun_parse(&flows_tun_table, rp->tunables, &tun, err, errlen);
	if (rc)
		return rc;
	for (int i = 0; i < fg_nworkers; i++)
		ngen += flows_pair_used(rp, fg_worker[i].port[0]);
	rc = flows_plan_tables(rp, ngen, err, errlen);
	if (rc)
		return rc;
	for (int i = 0; i < fg_nworkers; i++) {
		struct flows_state *s = NULL;
		/* the pair's connections/s: the load model's factor of its client port */
		double cps = rp->load.cps * rp->factor[fg_worker[i].port[0]];

		rc = flows_build(rp, &fg_worker[i], cps, unpaced, &flows_plan.w[i], &s, err,
				 errlen);
		if (rc) {
			flows_release(states);
			return rc;
		}
		flows_caps(rp, s, gi, ngen);
		s->check = (uint8_t)tun.payload_check;
		gi += s->gen;
		states[i] = s;
	}
	return 0;
}

/*
 * Once the previous run has stopped (struct engine's activate): the new
 * states and their plan become the current run's.
 */
static int flows_activate(void **states, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	for (int i = 0; i < fg_nworkers; i++)
		flows_cur[i] = states[i];
	flows_run_plan = flows_plan;
	memcpy(flows_run_in, flows_plan_in, sizeof(flows_run_in));
	flows_run_bound = flows_plan_bound;
	return 0;
}

/* The current run's tables (struct engine's tables): NULL without a flows run. */
static const struct flowplan *flows_tables(void)
{
	return flows_run_plan.nw ? &flows_run_plan : NULL;
}

/*
 * update -m (struct engine's fits): the need of the current run at
 * `scale` of its start rate (flowplan.h) fits the tables it has. 0, or
 * -ERANGE with err naming both figures.
 */
static int flows_fits(double scale, char *err, size_t errlen)
{
	for (unsigned i = 0; i < flows_run_plan.nw; i++) {
		int rc = flowplan_update(&flows_run_in[i], scale, flows_run_bound,
					 flows_run_plan.w[i].entries, i, err, errlen);

		if (rc)
			return rc;
	}
	return 0;
}

static int flows_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The distinct client (address, port) pairs the current (or last) run
 * used, summed over its workers; read once the run is idle. */
static uint64_t flows_fresh_tuples(void)
{
	uint64_t n = 0;

	for (int i = 0; i < FG_MAX_WORKERS; i++)
		if (flows_cur[i])
			for (unsigned c = 0; c < flows_cur[i]->ncpa; c++)
				n += flows_cur[i]->cpa[c].fresh;
	return n;
}

/* stats hook: the server-side NAT report (distinct translated sources). */
static void flows_nat_report(uint64_t *distinct_addrs, uint64_t *distinct_ports)
{
	static uint32_t all[FG_MAX_WORKERS * FLOWS_NAT_ADDRS];
	uint64_t ports[65536 / 64] = {0};
	size_t n = 0;

	*distinct_addrs = *distinct_ports = 0;
	for (int i = 0; i < FG_MAX_WORKERS; i++) {
		struct flows_state *s = flows_cur[i];

		if (!s)
			continue;
		for (unsigned j = 0; j < FLOWS_NAT_ADDRS; j++) {
			uint32_t a = __atomic_load_n(&s->nat_addr[j], __ATOMIC_RELAXED);

			if (a)
				all[n++] = a;
		}
		for (unsigned j = 0; j < 65536 / 64; j++)
			ports[j] |= __atomic_load_n(&s->nat_port[j], __ATOMIC_RELAXED);
	}
	qsort(all, n, sizeof(all[0]), flows_cmp_u32);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || all[i] != all[i - 1])
			(*distinct_addrs)++;
	for (unsigned j = 0; j < 65536 / 64; j++)
		*distinct_ports += (uint64_t)__builtin_popcountll(ports[j]);
}

/*
 * The memory of a worker's flow table with flows_max entries (TCP's
 * entries, the larger): the default size of an unpaced run's table, for
 * the start-up plan (a run's own tables are its plan's, flowplan.h).
 */
static uint64_t flows_worker_mem(uint32_t flows_max)
{
	struct flowtab_params fp = {
	    .max_flows = flows_max ? flows_max : FLOWPLAN_UNPACED_DEFAULT,
	    .entry_size = sizeof(struct flows_ent),
	    .tick_tsc = 2,
	};

	return flowtab_mem_size(&fp);
}

const struct engine flows_engine = {
    .name = "flows",
    .mode = PROF_FLOWS,
    .worker = &flows_worker_ops,
    .load = flows_load,
    .prepare = flows_prepare,
    .release = flows_release,
    .activate = flows_activate,
    .worker_mem = flows_worker_mem,
    .tables = flows_tables,
    .fits = flows_fits,
    .nat_report = flows_nat_report,
    .fresh_tuples = flows_fresh_tuples,
};
