/*
 * streams_ctl.c — the control half of the stateless streams engine
 * (`mode: streams`, flowgen-profile(5), STATELESS PROFILES), run on the
 * console's thread (reports: the statistics thread, through run.c); the workers run src/dataplane/streams.c. At
 * `start`, streams_load tells the load model (load.h) what each port
 * sends at -m 1; run.c applies -m and refuses what a link cannot carry.
 * (run.c checks the next hops.) streams_prepare then builds, at the factor
 * of each port, one state per worker: for every worker of a port pair, a
 * sender per stream and port it is sent from, at the stream's rate over
 * the pair's workers (streams.h: several senders per stream), with its
 * pacer, field generators (from an odd port src/dst and sport/dport swap
 * roles), frame sizes (one size, the IMIX sequence, or the stream's range
 * of sizes) and headers prebuilt per size, and its share of the stream's
 * count (`count:`; a run whose every stream has one ends by itself); for every worker, its receive
 * counters and snapshot buffers. streams_activate, which run.c calls once the previous run has
 * stopped, adds the profile's emulated hosts to the ports (the old run
 * keeps its own until then) and makes the new run the one `stats` shows.
 * During and after the run, `stats` and `bench` read the counts through
 * streams_latency_rows and streams_totals, which take the workers' newest
 * snapshots (the triple buffer of streams.h) and merge them.
 * streams_release frees the run once the workers are done with it. run.c
 * reaches all of these through streams_engine (streams_ctl.h), no one else.
 *
 * One mutex guards the current run and control's side of the snapshot
 * buffers; the workers never take it.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>

#include "run.h"
#include "streams_ctl.h"
#include "fg.h"
#include "fgen.h"
#include "lat.h"
#include "pace.h"
#include "pkt.h"
#include "pkt6.h"
#include "port.h"
#include "prof_plan.h"
#include "stats_snap.h"
#include "streams_opts.h"
#include "streams6.h"
#include "streams_frames.h"
#include "streams.h"
#include "streams_pairs.h"
#include "units.h"
#include "worker.h"

#define STREAMS_IMIX_SEQ_MAX 4096
#define STREAMS_LEARN_WAIT_S 1.5
#define STREAMS_DRAIN_MAX_S 1.0
#define STREAMS_PAIR_TAB_MAX (1u << 20) /* address pairs precomputed per sender */

_Static_assert(FG_PROF_FRAME_MIN6 == PKT6_UDP_PAY_OFF + LAT_SIG_LEN + 4,
	       "the smallest IPv6 frame ends with the signature");

static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t streams_tag; /* the last run's tag (streams_sig_id); control only */
static struct streams_run *streams_cur; /* the run whose rows `stats` shows */

/* The field generator mode of a profile field's mode. */
static int streams_fgen_mode(int var)
{
	switch (var) {
	case PROF_VAR_INC:
		return FGEN_INC;
	case PROF_VAR_DEC:
		return FGEN_DEC;
	case PROF_VAR_RAND:
		return FGEN_RAND;
	default:
		return FGEN_FIXED;
	}
}

/* Free a worker's state and everything it points to (NULL is fine). */
static void streams_state_free(struct streams_state *s)
{
	if (!s)
		return;
	for (int i = 0; i < STREAMS_NSNAP; i++) {
		free(s->snaps[i].tx); /* and tx_dropped, late */
		free(s->snaps[i].stale);
		free(s->snaps[i].hist);
		free(s->snaps[i].seq);
	}
	streams_pairs_free_state(s);
	free(s->stale);
	free(s->rx);
	free(s->seq);
	for (uint32_t i = 0; s->snd && i < s->nsnd; i++) {
		free(s->snd[i].fast);
		free(s->snd[i].fixed);
		free(s->snd[i].fast6);
		free(s->snd[i].fixed6);
		free(s->snd[i].l4t);
		free(s->snd[i].pair_tab);
	}
	free(s->snd);
	free(s);
}

/* Free a run and the states of its workers (NULL is fine). */
static void streams_run_free(struct streams_run *r)
{
	if (!r)
		return;
	for (int w = 0; w < FG_MAX_WORKERS; w++)
		streams_state_free(r->st[w]);
	free(r->hosts);
	free(r->hosts6);
	free(r->names);
	free(r->tx_mask);
	free(r->latency);
	free(r->imix);
	for (uint32_t i = 0; r->sizes && i < r->nstreams; i++)
		free(r->sizes[i].seq);
	free(r->sizes);
	free(r->pairs);
	free(r);
}

/* The pps of stream s sent from port p at -m 1 (before an absolute -m). */
static int streams_base_pps(const struct run_params *rp, const struct prof_stream *s, int p,
			    double *pps, char *err, size_t errlen)
{
	return units_rate_to_pps(&s->rate, rp->link_bps[p], prof_stream_avg_frame(rp->prof, s),
				 pps, err, errlen);
}

static bool streams_port_ok(const struct run_params *rp, int p)
{
	return p < fg_nports && (p ^ 1) < fg_nports && (!rp->port_mask || (rp->port_mask >> p & 1));
}

/* The engine's load (struct engine, run.h); e.g. a `rate:` in % of a link of unknown speed fails. */
static int streams_load(const struct run_params *rp, struct load *l, char *err, size_t errlen)
{
	const struct prof *pf = rp->prof;

	if (pf->mode != PROF_STREAMS || !pf->n_streams) {
		snprintf(err, errlen, "not a streams profile");
		return -EINVAL;
	}
	l->scope = LOAD_PER_PORT;
	l->nports = fg_nports;
	l->ref = -1;
	for (int p = 0; p < fg_nports; p++) {
		struct load_port *t = &l->tx[p];

		if (!streams_port_ok(rp, p))
			continue;
		for (size_t i = 0; i < pf->n_streams; i++) {
			const struct prof_stream *s = &pf->streams[i];
			double r, avg = prof_stream_avg_frame(pf, s);

			if (!(s->tx_mask >> p & 1))
				continue;
			if (s->rate.kind == UNITS_PCT && !rp->link_bps[p]) {
				snprintf(err, errlen,
					 "stream %s: rate %g%% of port %d, whose link speed is unknown",
					 s->name, s->rate.value, p);
				return -EINVAL;
			}
			if (streams_base_pps(rp, s, p, &r, err, errlen) != 0)
				return -EINVAL;
			t->pps += r;
			t->bps_l2 += r * avg * 8;
			t->bps_l1 += r * (avg + FG_UNITS_L1_OVERHEAD) * 8;
		}
	}
	return 0;
}

/*
 * Sender of stream sid from port p on the worker of queue q of a pair of
 * nq workers: its share of the rate is 1 / nq, and only queue 0 sends the
 * learning frames (one per destination is enough).
 */
static int streams_init_sender(const struct run_params *rp, struct streams_run *run,
			       struct streams_sender *sd, uint32_t sid, int p, double factor,
			       unsigned q, unsigned nq, uint16_t *fixed_size, char *err,
			       size_t errlen)
{
	const struct prof *pf = rp->prof;
	const struct prof_stream *s = &pf->streams[sid];
	bool rev = p & 1;
	const struct prof_field *src = rev ? &s->dst : &s->src, *dst = rev ? &s->src : &s->dst;
	/* an ICMP stream's "ports" are its echo identifier and sequence
	 * number: the same both ways */
	bool swap = rev && s->proto != PROF_L4_ICMP;
	const struct prof_field *sp = swap ? &s->dport : &s->sport;
	const struct prof_field *dp = swap ? &s->sport : &s->dport;
	/* IPv6: the generators walk the addresses' last 32 bits */
	bool v4 = !s->v6;
	uint32_t dir = (uint32_t)p;
	/* the random draws of each sender of a stream differ (queue 0's are
	 * those of a single worker): the pair's workers do not send the same
	 * random fields in step */
	uint32_t key = ((uint32_t)q * FG_PROF_MAX_STREAMS + sid) * FG_MAX_PORTS + dir;
	double pps;
	int rc;

	sd->sid = sid;
	sd->sig_id = streams_sig_id(run->tag, q, sid);
	sd->txport = p;
	sd->latency = s->latency;
	sd->v6 = s->v6;
	memcpy(sd->src6, rev ? s->dst6 : s->src6, 16);
	memcpy(sd->dst6, rev ? s->src6 : s->dst6, 16);
	if ((rc = streams_base_pps(rp, s, p, &pps, err, errlen)) != 0)
		return rc;
	sd->base_pps = factor > 0 ? pps * factor / (nq ? nq : 1) : 0;
	/* the backlog after a stall is pace.h's bound (PACE_BOUND_MS at the
	 * rate, at least one burst): a worker that was descheduled sends
	 * what fell due meanwhile, burst by burst, when it runs again, and
	 * counts what fell due beyond the bound as late (pace.dropped); it
	 * never sends a long stall's worth back to back (which a DUT would
	 * see as a burst far above the rate asked for) */
	rc = pace_init(&sd->pace, rp->hz, FG_BURST, 0, 0);
	if (!rc && sd->base_pps > 0)
		rc = pace_set_rate(&sd->pace, sd->base_pps, 0);
	if (rc) {
		snprintf(err, errlen, "stream %s: rate %.3g pps cannot be paced", s->name,
			 sd->base_pps);
		return rc;
	}
	pace_set_max(&sd->pace, sd->base_pps == 0);
	/* count: queue q's share, the first count % nq queues one more */
	sd->limit = s->count ? s->count / nq + (q < s->count % nq) : UINT64_MAX;
	sd->paired = streams_paired(src, dst);
	if (sd->paired)
		rc = fgen_pair_init(&sd->pair, (enum fgen_mode)streams_fgen_mode(src->mode),
				    src->lo, src->hi, dst->lo, dst->hi, v4,
				    fgen_subseed(pf->seed, key, 0));
	else
		rc = fgen_init(&sd->src, (enum fgen_mode)streams_fgen_mode(src->mode), src->lo,
			       src->hi, v4, fgen_subseed(pf->seed, key, 0))
			 ?: fgen_init(&sd->dst, (enum fgen_mode)streams_fgen_mode(dst->mode),
				      dst->lo, dst->hi, v4,
				      fgen_subseed(pf->seed, key, 1));
	rc = rc
		 ?: fgen_init(&sd->sport, (enum fgen_mode)streams_fgen_mode(sp->mode), sp->lo,
			      sp->hi, false, fgen_subseed(pf->seed, key, 2));
	rc = rc
		 ?: fgen_init(&sd->dport, (enum fgen_mode)streams_fgen_mode(dp->mode), dp->lo,
			      dp->hi, false, fgen_subseed(pf->seed, key, 3));
	if (rc) {
		snprintf(err, errlen, "stream %s: an address range holds no usable address",
			 s->name);
		return rc;
	}
	sd->nlearn = sd->paired ? fgen_count(&sd->pair.a) : fgen_count(&sd->dst);
	if (run->sizes[sid].seq) {
		sd->sizes = run->sizes[sid].seq;
		sd->nsizes = run->sizes[sid].n;
	} else if (s->imix) {
		sd->sizes = run->imix;
		sd->nsizes = run->nimix;
	} else {
		*fixed_size = (uint16_t)(s->frame - 4);
		sd->sizes = fixed_size;
		sd->nsizes = 1;
	}
	/* a burst of frames this short fills in a few hundred nanoseconds:
	 * stamped as the fill begins (streams.c, TX) */
	sd->stamp_early = true;
	for (uint32_t i = 0; i < sd->nsizes; i++)
		if (sd->sizes[i] > STREAMS_STAMP_EARLY_MAX)
			sd->stamp_early = false;
	/* Mapping an index to an address skips .0 and .255 with a division:
	 * precompute the pairs once instead of twice per frame. */
	if (sd->paired && sd->nlearn <= STREAMS_PAIR_TAB_MAX) {
		sd->pair_tab = malloc(sizeof(*sd->pair_tab) * sd->nlearn);
		if (!sd->pair_tab) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		for (uint32_t i = 0; i < sd->nlearn; i++) {
			struct streams_pair *pr = &sd->pair_tab[i];

			pr->sa = rte_cpu_to_be_32(fgen_at(&sd->pair.a, i));
			pr->da = rte_cpu_to_be_32(fgen_at(&sd->pair.b, i));
			pr->sum = pkt_sum32(pr->sa) + pkt_sum32(pr->da);
		}
	}
	sd->all_fixed = !sd->paired && src->mode == PROF_VAR_FIXED && dst->mode == PROF_VAR_FIXED &&
			sp->mode == PROF_VAR_FIXED && dp->mode == PROF_VAR_FIXED;
	if (sd->all_fixed) {
		sd->fix_sip = fgen_next(&sd->src);
		sd->fix_dip = fgen_next(&sd->dst);
		sd->fix_sp = (uint16_t)fgen_next(&sd->sport);
		sd->fix_dp = (uint16_t)fgen_next(&sd->dport);
	}
	if ((rc = streams_sender_templates(sd, p, s, err, errlen)) != 0)
		return rc;
	if (q > 0)
		sd->learned = sd->nlearn; /* queue 0's learning frames do */
	return 0;
}

static int streams_nomem(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory preparing the streams");
	return -ENOMEM;
}

/* The run's rows: stream names, the ports each is sent from, latency on or
 * off, the IMIX sequence and each stream's range of sizes; 0, or -errno
 * with err set. */
static int streams_prep_rows(const struct run_params *rp, struct streams_run *run, char *err,
			     size_t errlen)
{
	const struct prof *pf = rp->prof;
	int rc;

	run->names = calloc(pf->n_streams, sizeof(*run->names));
	run->tx_mask = calloc(pf->n_streams, sizeof(*run->tx_mask));
	run->latency = calloc(pf->n_streams, sizeof(*run->latency));
	run->imix = calloc(STREAMS_IMIX_SEQ_MAX, sizeof(uint16_t));
	run->sizes = calloc(pf->n_streams, sizeof(*run->sizes));
	if (!run->names || !run->tx_mask || !run->latency || !run->imix || !run->sizes)
		return streams_nomem(err, errlen);
	run->counted = prof_streams_counted(pf);
	rc = streams_imix_seq(pf->imix, pf->n_imix, run->imix, STREAMS_IMIX_SEQ_MAX);
	if (rc < 0) {
		snprintf(err, errlen, "bad imix table");
		return rc;
	}
	run->nimix = (uint32_t)rc;
	for (size_t i = 0; i < pf->n_streams; i++) {
		if ((rc = streams_prep_sizes(pf, (uint32_t)i, &run->sizes[i], err, errlen)) != 0)
			return rc;
		snprintf(run->names[i], sizeof(run->names[i]), "%s", pf->streams[i].name);
		run->latency[i] = pf->streams[i].latency;
		for (int p = 0; p < fg_nports; p++)
			if ((pf->streams[i].tx_mask >> p & 1) && streams_port_ok(rp, p))
				run->tx_mask[i] |= 1u << p;
	}
	return 0;
}

/* Worker wi's state (run->st[wi] as soon as it exists, for
 * streams_run_free): its senders, receive counters and snapshot buffers. */
static int streams_prep_worker(const struct run_params *rp, struct streams_run *run, int wi,
			       char *err, size_t errlen)
{
	const struct prof *pf = rp->prof;
	const double *factor = rp->factor;
	struct worker *w = &fg_worker[wi];
	struct streams_state *s;
	uint16_t *fixed;
	int rc;
	uint32_t n = 0, nrx, nseq;

	s = aligned_alloc(RTE_CACHE_LINE_SIZE,
			  RTE_ALIGN_CEIL(sizeof(*s), RTE_CACHE_LINE_SIZE));
	if (!s)
		return streams_nomem(err, errlen);
	memset(s, 0, sizeof(*s));
	run->st[wi] = s;
	s->run = run;
	s->w = w;
	s->nstreams = run->nstreams;
	s->ns_mult = lat_ns_mult(rp->hz);
	s->nsenders = run->nsenders;
	s->tag = run->tag;
	nrx = run->nstreams * 2;
	nseq = nrx * run->nsenders;
	for (size_t i = 0; i < pf->n_streams; i++)
		for (int side = 0; side < 2; side++)
			n += run->tx_mask[i] >> w->port[side] & 1;
	s->snd = calloc(1, (sizeof(*s->snd) + sizeof(uint16_t)) * (n ? n : 1));
	s->rx = calloc(nrx, sizeof(*s->rx));
	/* cache-aligned: each tracker's counts in one line (lat.h) */
	s->seq = aligned_alloc(RTE_CACHE_LINE_SIZE, nseq * sizeof(*s->seq));
	s->stale = calloc(nrx, sizeof(*s->stale));
	if (!s->snd || !s->rx || !s->seq || !s->stale)
		return streams_nomem(err, errlen);
	fixed = (uint16_t *)(s->snd + (n ? n : 1));
	for (uint32_t i = 0; i < nrx; i++)
		lat_init(&s->rx[i].hist);
	for (uint32_t i = 0; i < nseq; i++)
		lat_seq_init(&s->seq[i]);
	for (size_t i = 0; i < pf->n_streams; i++)
		for (int side = 0; side < 2; side++) {
			int p = w->port[side];
			struct streams_sender *sd = &s->snd[s->nsnd];

			if (!(run->tx_mask[i] >> p & 1))
				continue;
			sd->side = side;
			sd->rearm = streams_rearm(w->pv[side]->id);
			rc = streams_init_sender(rp, run, sd, (uint32_t)i, p, factor[p], w->q,
						 w->nq, &fixed[s->nsnd], err, errlen);
			if (rc)
				return rc;
			s->nsnd++;
		}
	for (int b = 0; b < STREAMS_NSNAP; b++) {
		struct streams_snap *sn = &s->snaps[b];
		size_t ntx = (size_t)run->nstreams * FG_MAX_PORTS;

		/* tx, tx_dropped, late and tx_bytes in one block */
		sn->tx = calloc(4 * ntx, sizeof(uint64_t));
		sn->stale = calloc(nrx, sizeof(uint64_t));
		sn->hist = malloc(nrx * sizeof(struct lat_hist));
		sn->seq = calloc(nseq, sizeof(struct streams_seqc));
		if (!sn->tx || !sn->stale || !sn->hist || !sn->seq)
			return streams_nomem(err, errlen);
		sn->tx_dropped = sn->tx + ntx;
		sn->late = sn->tx + 2 * ntx;
		sn->tx_bytes = sn->tx + 3 * ntx;
		for (uint32_t i = 0; i < nrx; i++)
			lat_init(&s->snaps[b].hist[i]);
	}
	if (streams_pairs_alloc(run, s) != 0)
		return streams_nomem(err, errlen);
	s->back = 0;
	s->mid = 1;
	s->front = 2;
	return 0;
}

/* The per-worker states of a run (struct engine, run.h). */
static int streams_prepare(const struct run_params *rp, void **states, char *err, size_t errlen)
{
	const struct prof *pf = rp->prof;
	struct streams_tun tun = {.learn = true, .learn_wait = STREAMS_LEARN_WAIT_S};
	struct streams_run *run;
	int rc;

	if (pf->mode != PROF_STREAMS || !pf->n_streams) {
		snprintf(err, errlen, "not a streams profile");
		return -EINVAL;
	}
	run = calloc(1, sizeof(*run));
	if (!run)
		goto nomem;
	run->nstreams = (uint32_t)pf->n_streams;
	run->hz = rp->hz;
	/* every run a tag of its own, so frames of the run before (still in
	 * a DUT's queue or a delaying link) are told apart; the first from
	 * the clock, so a new flowgen does not take the old one's for its own */
	if (!streams_tag) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		streams_tag = (uint32_t)ts.tv_nsec ^ (uint32_t)ts.tv_sec * 2654435761u;
	}
	streams_tag = (streams_tag + 1) & STREAMS_ID_RUN_MASK;
	run->tag = streams_tag;
	run->hosts = calloc(FG_MAX_PORTS, sizeof(*run->hosts));
	run->hosts6 = calloc(FG_MAX_PORTS, sizeof(*run->hosts6));
	if (!run->hosts || !run->hosts6)
		goto nomem;
	run->duration_s = rp->duration_s;
	tun.drain = rp->drain_s > 0 ? rp->drain_s : FG_MIN(pf->timeout, STREAMS_DRAIN_MAX_S);
	if ((rc = tun_parse(&streams_tun_table, rp->tunables, &tun, err, errlen)) != 0)
		goto fail;
	run->learn = tun.learn;
	run->learn_wait_s = tun.learn_wait;
	run->drain_s = tun.drain;
	/* start --at: the learning frames go out at once, and the measured
	 * traffic waits for the planned start, which must leave the learning
	 * phase its pause (streams.c, streams_wait) */
	if (rp->at_lead_s > 0 && run->learn && rp->at_lead_s < run->learn_wait_s) {
		snprintf(err, errlen,
			 "--at is %.3f s ahead: the learning phase before measured traffic "
			 "takes %.3f s (-t learn_wait); plan the start later, or -t learn=0",
			 rp->at_lead_s, run->learn_wait_s);
		rc = -EINVAL;
		goto fail;
	}
	/* emulated hosts of the profile, appended to the config's */
	if ((rc = streams_hosts_layout(run, pf, err, errlen)) != 0)
		goto fail;
	if ((rc = streams_prep_rows(rp, run, err, errlen)) != 0)
		goto fail;
	if (streams_pairs_layout(run, pf) != 0)
		goto nomem;
	/* senders per stream and port: the workers of the largest pair */
	run->nsenders = 1;
	for (int wi = 0; wi < fg_nworkers; wi++)
		run->nsenders = FG_MAX(run->nsenders, (uint32_t)fg_worker[wi].nq);
	for (int wi = 0; wi < fg_nworkers; wi++) {
		if ((rc = streams_prep_worker(rp, run, wi, err, errlen)) != 0)
			goto fail;
		states[wi] = run->st[wi];
		run->senders_left += run->st[wi]->nsnd;
	}
	/* the hosts and the rows of `stats` change in streams_activate,
	 * once the previous run has stopped */
	return 0;
nomem:
	rc = streams_nomem(err, errlen);
fail:
	for (int wi = 0; wi < fg_nworkers; wi++)
		states[wi] = NULL;
	streams_run_free(run);
	return rc;
}

/* Once the previous run has stopped: the profile's emulated hosts on the
 * ports, and the run whose rows `stats` shows; on failure nothing changed. */
static int streams_activate(void **states, char *err, size_t errlen)
{
	static struct port_host_range old[FG_MAX_PORTS][PORT_MAX_HOSTS];
	size_t nold[FG_MAX_PORTS] = {0};
	struct streams_state *s = NULL;
	struct streams_run *run;
	int rc = 0, p;

	for (int w = 0; w < fg_nworkers && !s; w++)
		s = states[w];
	if (!s)
		return 0;
	run = s->run;
	/* the hosts the ports have beyond the config's, to restore on failure */
	for (p = 0; p < fg_nports; p++) {
		const struct port *pt = &fg_port[p];

		for (uint32_t i = pt->ncfg_hosts; i < pt->v.nhosts && nold[p] < PORT_MAX_HOSTS; i++)
			old[p][nold[p]++] = pt->v.hosts[i];
	}
	for (p = 0; p < fg_nports; p++)
		if ((rc = port_set_hosts(p, run->hosts[p], run->nhosts[p])) != 0)
			break;
	if (rc) {
		snprintf(err, errlen, "port %d: the profile's hosts do not fit", p);
		while (p-- > 0)
			port_set_hosts(p, old[p], nold[p]);
		return rc;
	}
	/* IPv6 hosts come from profiles only: the new run's replace the old's
	 * (nhosts6 fits PORT_MAX_HOSTS: streams_prepare checked) */
	for (p = 0; p < fg_nports; p++)
		port_set_hosts6(p, run->hosts6[p], run->nhosts6[p]);
	pthread_mutex_lock(&streams_lock);
	streams_cur = run;
	pthread_mutex_unlock(&streams_lock);
	return 0;
}

static void streams_release(void **states)
{
	struct streams_state *s = NULL;

	for (int w = 0; w < fg_nworkers && !s; w++)
		s = states[w];
	if (!s)
		return;
	pthread_mutex_lock(&streams_lock);
	if (streams_cur == s->run)
		streams_cur = NULL;
	pthread_mutex_unlock(&streams_lock);
	streams_run_free(s->run);
	for (int w = 0; w < fg_nworkers; w++)
		states[w] = NULL;
}

/*
 * Take the newest snapshot of every worker, give older ones back
 * (streams.h: the triple buffer). streams_lock held.
 */
static void streams_take_snaps(struct streams_run *run)
{
	for (int wi = 0; wi < fg_nworkers; wi++) {
		struct streams_state *s = run->st[wi];

		if (!s)
			continue;
		/* acquire: pairs with the worker's release in streams_publish */
		if (__atomic_load_n(&s->mid, __ATOMIC_ACQUIRE) & STREAMS_FRESH) {
			s->front = __atomic_exchange_n(&s->mid, s->front, __ATOMIC_ACQ_REL) &
				   STREAMS_SNAP_IDX;
			s->have_front = true;
		}
	}
}

/* Add the counts of stream i's trackers on one side, every sender's. */
static void streams_seq_add(struct lat_seq *q, const struct streams_snap *b,
			    const struct streams_run *run, uint32_t i, int side)
{
	for (uint32_t k = 0; k < run->nsenders; k++) {
		const struct streams_seqc *c = &b->seq[(k * run->nstreams + i) * 2 + side];

		q->rx += c->rx;
		q->bytes += c->bytes;
		q->dup += c->dup;
		q->ooo += c->ooo;
		q->late += c->late;
	}
}

/* The test frames of every stream and port merged (only those with latency
 * on when stamped_only), -ENOENT without a streams run (run.h, run_totals). */
static int streams_totals(bool stamped_only, struct lat_hist *h, struct lat_seq *q, uint64_t *tx,
		   double *span_s)
{
	struct streams_run *run;
	uint64_t span = 0;
	int rc = 0;

	if (h)
		lat_init(h);
	lat_seq_init(q);
	*tx = 0;
	pthread_mutex_lock(&streams_lock);
	run = streams_cur;
	if (!run) {
		rc = -ENOENT;
		goto out;
	}
	streams_take_snaps(run);
	for (int wi = 0; wi < fg_nworkers; wi++) {
		const struct streams_state *s = run->st[wi];
		const struct streams_snap *b;

		if (!s || !s->have_front)
			continue;
		b = &s->snaps[s->front];
		span = FG_MAX(span, b->span);
		for (uint32_t i = 0; i < run->nstreams; i++) {
			if (stamped_only && !run->latency[i])
				continue;
			for (int p = 0; p < fg_nports; p++)
				*tx += b->tx[i * FG_MAX_PORTS + p];
			for (int side = 0; side < 2; side++) {
				if (h)
					lat_merge(h, &b->hist[i * 2 + side]);
				streams_seq_add(q, b, run, i, side);
			}
		}
	}
	if (span_s)
		*span_s = run->hz ? (double)span / (double)run->hz : 0;
out:
	pthread_mutex_unlock(&streams_lock);
	return rc;
}

/* stats hook: the per-stream latency rows of the current run (and
 * their delays cut at powers of two into pow2[], when not NULL). */
static int streams_latency_rows(struct stats_lat_row *rows, struct lat_pow2 *pow2, int max)
{
	struct streams_run *run;
	struct lat_hist *h = NULL;
	struct lat_seq *q = NULL;
	int n = 0;

	pthread_mutex_lock(&streams_lock);
	run = streams_cur;
	if (!run)
		goto out;
	h = malloc(sizeof(*h));
	q = malloc(sizeof(*q));
	if (!h || !q) {
		n = -ENOMEM;
		goto out;
	}
	streams_take_snaps(run);
	for (uint32_t i = 0; i < run->nstreams && n < max; i++) {
		for (int p = 0; p < fg_nports && n < max; p++) {
			struct stats_lat_row *r;
			uint64_t tx = 0, tx_bytes = 0, tx_dropped = 0, late = 0, stale = 0;

			if (!(run->tx_mask[i] >> (p ^ 1) & 1))
				continue;
			lat_init(h);
			lat_seq_init(q);
			for (int wi = 0; wi < fg_nworkers; wi++) {
				struct streams_state *s = run->st[wi];
				struct worker *w = &fg_worker[wi];
				const struct streams_snap *b;

				if (!s || !s->have_front)
					continue;
				b = &s->snaps[s->front];
				tx += b->tx[i * FG_MAX_PORTS + (p ^ 1)];
				tx_bytes += b->tx_bytes[i * FG_MAX_PORTS + (p ^ 1)];
				tx_dropped += b->tx_dropped[i * FG_MAX_PORTS + (p ^ 1)];
				late += b->late[i * FG_MAX_PORTS + (p ^ 1)];
				for (int side = 0; side < 2; side++) {
					if (w->port[side] != p)
						continue;
					stale += b->stale[i * 2 + side];
					lat_merge(h, &b->hist[i * 2 + side]);
					streams_seq_add(q, b, run, i, side);
				}
			}
			r = &rows[n++];
			memset(r, 0, sizeof(*r));
			snprintf(r->stream, sizeof(r->stream), "%s", run->names[i]);
			r->port = p;
			r->tx = tx;
			r->tx_bytes = tx_bytes;
			r->tx_dropped = tx_dropped;
			r->late = late;
			r->stale = stale;
			r->rx = q->rx;
			r->rx_bytes = q->bytes;
			r->dup = q->dup;
			r->ooo = q->ooo;
			r->lost = lat_seq_lost(q, tx);
			/* NAN for what was not measured (no stamped frame) */
			stats_lat_figures(r, h);
			if (pow2)
				lat_pow2(h, &pow2[n - 1]);
		}
	}
out:
	pthread_mutex_unlock(&streams_lock);
	free(h);
	free(q);
	return n;
}

/* The host pairs of the current run (stats --pairs): rows malloc'ed into *rows. */
static int streams_pair_rows(struct stats_pair_row **rows, uint64_t *unmatched)
{
	int n = 0;

	*rows = NULL;
	*unmatched = 0;
	pthread_mutex_lock(&streams_lock);
	if (streams_cur && streams_cur->pairs) {
		streams_take_snaps(streams_cur);
		n = streams_pairs_merge(streams_cur, rows, unmatched);
	}
	pthread_mutex_unlock(&streams_lock);
	return n;
}

/* The delays behind latency row `row` (the rows' order of
 * streams_latency_rows): stream i received on port p, every worker's. */
static int streams_latency_hist(int row, struct lat_hist *h)
{
	struct streams_run *run;
	int n = 0, rc = -ENOENT;

	lat_init(h);
	pthread_mutex_lock(&streams_lock);
	run = streams_cur;
	if (!run)
		goto out;
	streams_take_snaps(run);
	for (uint32_t i = 0; i < run->nstreams && rc; i++)
		for (int p = 0; p < fg_nports && rc; p++) {
			if (!(run->tx_mask[i] >> (p ^ 1) & 1) || n++ != row)
				continue;
			for (int wi = 0; wi < fg_nworkers; wi++) {
				const struct streams_state *s = run->st[wi];

				if (!s || !s->have_front)
					continue;
				for (int side = 0; side < 2; side++)
					if (fg_worker[wi].port[side] == p)
						lat_merge(h, &s->snaps[s->front].hist[i * 2 + side]);
			}
			rc = 0;
		}
out:
	pthread_mutex_unlock(&streams_lock);
	return rc;
}

const struct engine streams_engine = {
    .name = "streams",
    .mode = PROF_STREAMS,
    .worker = &streams_worker_ops,
    .load = streams_load,
    .prepare = streams_prepare,
    .activate = streams_activate,
    .release = streams_release,
    .latency_rows = streams_latency_rows,
    .pair_rows = streams_pair_rows,
    .latency_hist = streams_latency_hist,
    .totals = streams_totals,
};
