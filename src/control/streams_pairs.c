/*
 * streams_pairs.c — host pairs, the L3 test's figures (flowgen(8), stats
 * --pairs; streams_pairs.h): frame loss and latency per pair of emulated
 * hosts and direction, as a SmartBits L3 test reports them. Run by
 * control: at `start` it lays out the run's pair slots and gives
 * each worker its counters and snapshot buffers; `stats --pairs`, `stats
 * --plot` and their JSON merge the workers' newest snapshots into rows.
 * The workers count (src/dataplane/streams.c).
 *
 * Which streams: in a run with emulated hosts (`hosts:` in the profile or
 * the platform config), every stream
 * whose source and destination both walk a range in the same mode (pair i
 * is source i with destination i), once per port it is sent from. A run
 * of more than STREAMS_PAIRS_MAX slots counts none, and says so.
 *
 * The emulated hosts of the profile, which the pairs are made of, are laid
 * out here too (streams_hosts_layout).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg.h"
#include "fgen.h"
#include "port.h"
#include "prof_plan.h"
#include "stats_snap.h"
#include "streams.h"
#include "streams_pairs.h"
#include "worker.h"
#include "log.h"

/* Whether the run has emulated hosts: the profile's, or the config's. */
static bool pairs_have_hosts(const struct prof *pf)
{
	if (pf->n_hosts)
		return true;
	for (int p = 0; p < fg_nports; p++)
		if (fg_port[p].ncfg_hosts)
			return true;
	return false;
}

int streams_pairs_layout(struct streams_run *run, const struct prof *pf)
{
	uint64_t slots = 0;

	run->pairs = NULL;
	run->npair_slots = 0;
	if (!pairs_have_hosts(pf))
		return 0;
	run->pairs = calloc((size_t)run->nstreams * FG_MAX_PORTS, sizeof(*run->pairs));
	if (!run->pairs)
		return -ENOMEM;
	for (uint32_t i = 0; i < run->nstreams; i++) {
		const struct prof_stream *st = &pf->streams[i];

		for (int p = 0; p < FG_MAX_PORTS; p++) {
			struct streams_pairs *pp = &run->pairs[i * FG_MAX_PORTS + (uint32_t)p];
			bool rev = p & 1;
			/* from an odd port src and dst swap roles (the senders') */
			const struct prof_field *src = rev ? &st->dst : &st->src;
			const struct prof_field *dst = rev ? &st->src : &st->dst;

			pp->base = STREAMS_NO_PAIRS;
			if (!(run->tx_mask[i] >> p & 1) || !streams_paired(src, dst))
				continue;
			if (fgen_pair_init(&pp->fp, FGEN_INC, src->lo, src->hi, dst->lo, dst->hi,
					   !st->v6, 0) != 0)
				continue;
			pp->v6 = st->v6;
			memcpy(pp->src6, rev ? st->dst6 : st->src6, 16);
			memcpy(pp->dst6, rev ? st->src6 : st->dst6, 16);
			pp->base = (uint32_t)slots;
			slots += fgen_count(&pp->fp.a) ? fgen_count(&pp->fp.a)
						       : STREAMS_PAIRS_MAX + 1ull;
		}
	}
	if (!slots || slots > STREAMS_PAIRS_MAX) {
		if (slots)
			fg_warn("host pairs: %llu pairs and directions, more than %u: "
				"stats --pairs counts none",
				(unsigned long long)slots, STREAMS_PAIRS_MAX);
		free(run->pairs);
		run->pairs = NULL;
		return 0;
	}
	run->npair_slots = (uint32_t)slots;
	return 0;
}

/* One set of n slots: TX counts, and receive counts with no delay yet. */
static int pairs_slots(size_t n, uint64_t **tx, struct streams_pair_rx **rx)
{
	*tx = calloc(n, sizeof(**tx));
	*rx = calloc(n, sizeof(**rx));
	if (!*tx || !*rx)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		(*rx)[i].lat_min = UINT32_MAX;
	return 0;
}

int streams_pairs_alloc(const struct streams_run *run, struct streams_state *s)
{
	size_t n = run->npair_slots;

	if (!n)
		return 0;
	if (pairs_slots(n, &s->pair_tx, &s->pair_rx) != 0)
		return -ENOMEM;
	for (int b = 0; b < STREAMS_NSNAP; b++)
		if (pairs_slots(n, &s->snaps[b].pair_tx, &s->snaps[b].pair_rx) != 0)
			return -ENOMEM;
	/* the senders that walk a pair table count into their slots */
	for (uint32_t i = 0; i < s->nsnd; i++) {
		struct streams_sender *sd = &s->snd[i];
		const struct streams_pairs *pp =
		    &run->pairs[sd->sid * FG_MAX_PORTS + (uint32_t)sd->txport];

		if (pp->base != STREAMS_NO_PAIRS && sd->pair_tab &&
		    sd->nlearn == fgen_count(&pp->fp.a))
			sd->pair_tx = s->pair_tx + pp->base;
	}
	return 0;
}

void streams_pairs_free_state(struct streams_state *s)
{
	for (int b = 0; b < STREAMS_NSNAP; b++) {
		free(s->snaps[b].pair_tx);
		free(s->snaps[b].pair_rx);
	}
	free(s->pair_tx);
	free(s->pair_rx);
}

/* Address i of generator g as text: IPv4, or IPv6 under the /96 of pfx. */
static void pair_addr(char *buf, size_t len, const struct fgen *g, uint32_t i, bool v6,
		      const uint8_t *pfx)
{
	uint32_t be = htonl(fgen_at(g, i));
	uint8_t a[16];

	if (!v6) {
		inet_ntop(AF_INET, &be, buf, (socklen_t)len);
		return;
	}
	memcpy(a, pfx, 12);
	memcpy(a + 12, &be, 4);
	inet_ntop(AF_INET6, a, buf, (socklen_t)len);
}

/* One row: pairs pp's pair k, received on port p, every worker's counts. */
static void pair_row(const struct streams_run *run, uint32_t sid, int p,
		     const struct streams_pairs *pp, uint32_t k, struct stats_pair_row *r)
{
	uint64_t lat_sum = 0;
	uint32_t lat_min = UINT32_MAX, lat_max = 0;

	memset(r, 0, sizeof(*r));
	snprintf(r->stream, sizeof(r->stream), "%s", run->names[sid]);
	r->port = p;
	r->pair = k;
	pair_addr(r->src, sizeof(r->src), &pp->fp.a, k, pp->v6, pp->src6);
	pair_addr(r->dst, sizeof(r->dst), &pp->fp.b, k, pp->v6, pp->dst6);
	for (int wi = 0; wi < fg_nworkers; wi++) {
		const struct streams_state *s = run->st[wi];
		const struct streams_snap *b;
		const struct streams_pair_rx *c;

		if (!s || !s->have_front)
			continue;
		b = &s->snaps[s->front];
		c = &b->pair_rx[pp->base + k];
		r->tx += b->pair_tx[pp->base + k];
		r->rx += c->rx;
		lat_sum += c->lat_sum;
		lat_min = FG_MIN(lat_min, c->lat_min);
		lat_max = FG_MAX(lat_max, c->lat_max);
	}
	r->lost = r->tx > r->rx ? r->tx - r->rx : 0;
	r->loss_pct = r->tx ? (double)r->lost * 100 / (double)r->tx : 0;
	r->min_us = r->avg_us = r->max_us = NAN;
	if (run->latency[sid] && r->rx && lat_min != UINT32_MAX) {
		r->min_us = lat_min / 1e3;
		r->avg_us = (double)lat_sum / (double)r->rx / 1e3;
		r->max_us = lat_max / 1e3;
	}
}

int streams_pairs_merge(const struct streams_run *run, struct stats_pair_row **rows,
			uint64_t *unmatched)
{
	struct stats_pair_row *out;
	int n = 0;

	*rows = NULL;
	*unmatched = 0;
	if (!run->npair_slots)
		return 0;
	out = calloc(run->npair_slots, sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (int wi = 0; wi < fg_nworkers; wi++)
		if (run->st[wi] && run->st[wi]->have_front)
			*unmatched += run->st[wi]->snaps[run->st[wi]->front].pair_miss;
	/* the order of the latency rows: stream, receiving port, then pair */
	for (uint32_t i = 0; i < run->nstreams; i++)
		for (int p = 0; p < fg_nports; p++) {
			const struct streams_pairs *pp =
			    &run->pairs[i * FG_MAX_PORTS + (uint32_t)(p ^ 1)];

			if (pp->base == STREAMS_NO_PAIRS)
				continue;
			for (uint32_t k = 0; k < fgen_count(&pp->fp.a); k++)
				pair_row(run, i, p, pp, k, &out[n++]);
		}
	*rows = out;
	return n;
}

/* The profile's emulated hosts, appended to the config's (streams_activate
 * puts them on the ports); 0, or -ENOSPC with err set. */
int streams_hosts_layout(struct streams_run *run, const struct prof *pf, char *err,
			 size_t errlen)
{
	struct port_host_range(*extra)[PORT_MAX_HOSTS] = run->hosts;
	size_t *nextra = run->nhosts;

	for (size_t i = 0; i < pf->n_hosts; i++) {
		uint32_t p = pf->hosts[i].port;

		if ((int)p >= fg_nports)
			continue;
		if (pf->hosts[i].v6) {
			struct port_host6_range *h6 = &run->hosts6[p][run->nhosts6[p]];

			if (run->nhosts6[p] >= PORT_MAX_HOSTS) {
				snprintf(err, errlen, "port %u: more than %d IPv6 host ranges", p,
					 PORT_MAX_HOSTS);
				return -ENOSPC;
			}
			memcpy(h6->pfx, pf->hosts[i].a6, 12);
			h6->lo = pf->hosts[i].lo;
			h6->hi = pf->hosts[i].hi;
			run->nhosts6[p]++;
			continue;
		}
		if (nextra[p] + fg_port[p].ncfg_hosts >= PORT_MAX_HOSTS) {
			snprintf(err, errlen, "port %u: more than %d host ranges", p,
				 PORT_MAX_HOSTS);
			return -ENOSPC;
		}
		extra[p][nextra[p]].lo = pf->hosts[i].lo;
		extra[p][nextra[p]].hi = pf->hosts[i].hi;
		nextra[p]++;
	}
	return 0;
}
