/*
 * flows_pick.c — the stateful flows engine's choice of a new client flow
 * (worker context, flows_int.h): its template by smooth weighted round
 * robin over the templates' cps, its addresses, and a client port from
 * the worker's slice, chosen by the client port's RSS where it is known
 * so that the reply arrives on the flow's owner (own.h). Under caps
 * (start --active, limit, climit; flows.h) the template is chosen among
 * those the caps let open a flow.
 */
#include <errno.h>
#include <string.h>

#include <netinet/in.h>

#include "fgen.h"
#include "flows.h"
#include "flows_int.h"
#include "flowtab.h"
#include "own.h"

static unsigned flows_pick_tpl(struct flows_state *s)
{
	unsigned best = 0;

	if (s->ntpl == 1)
		return 0;
	for (unsigned i = 0; i < s->ntpl; i++) {
		s->tpl[i].credit += s->tpl[i].weight;
		if (s->tpl[i].credit > s->tpl[best].credit)
			best = i;
	}
	s->tpl[best].credit -= 1.0;
	return best;
}

/*
 * The client port's RSS is known (src/control/port.h): trade the port for one whose
 * reply hashes to this worker's queue, so the reply needs no hand-off. The
 * allocator hands ports out in rotating order, so a port given back is
 * not offered again at once; about one port in nq fits. A flow whose
 * search fails keeps its port (the reply is handed over). Inlined in both
 * pick paths: the uncapped one pays no call for it.
 */
static inline __attribute__((always_inline)) void
flows_pick_rss(struct flows_state *s, struct flows_new *nf, uint16_t sport, unsigned q)
{
	for (unsigned i = 0; i < 8u * s->own.nq; i++) {
		uint16_t p;

		if (own_rss_fits(s->rss, nf->cip, nf->cport, nf->sip, sport, q))
			return;
		if (fgen_cpa_get(&s->cpa, nf->cip, &p) != 0)
			return;
		fgen_cpa_put(&s->cpa, nf->cip, nf->cport);
		nf->cport = p;
	}
}

/* The tuple of a new flow of template ti; false when no port is free. */
static inline __attribute__((always_inline)) bool
flows_pick_tuple(struct flows_state *s, struct flows_new *nf, unsigned ti, unsigned w_q)
{
	const struct flows_tpl *t = &s->tpl[ti];
	int rc = -ENOSPC;

	nf->sip = fgen_next(&s->srv);
	for (int tries = 0; tries < 4 && rc; tries++) {
		nf->cip = fgen_next(&s->cli);
		rc = fgen_cpa_get(&s->cpa, nf->cip, &nf->cport);
	}
	if (rc)
		return false; /* every port of these addresses is busy: skip this slot */
	if (s->rss)
		flows_pick_rss(s, nf, t->port, w_q);
	nf->tpl = (uint8_t)ti;
	flowtab_key(&nf->k, nf->sip, nf->cip, t->port, nf->cport,
		    t->proto == PROF_TCP ? IPPROTO_TCP : IPPROTO_UDP, FLOWTAB_CLIENT);
	return true;
}

/* Choose the next flow's template and tuple; false when no port is free. */
bool flows_pick(struct flows_state *s, struct flows_new *nf, unsigned w_q)
{
	return flows_pick_tuple(s, nf, flows_pick_tpl(s), w_q);
}

/*
 * The smooth weighted round robin of flows_pick_tpl() over the templates
 * that may open a flow now: flows of their limit left and fewer client
 * flows than their climit, counting those in the table (act: the
 * worker's gauges by template, ctr.h) and those picked in this burst
 * (pend). -1 when none may.
 */
static int flows_pick_tpl_capped(struct flows_state *s, const struct ctr_tpl *act,
				 const uint32_t *pend)
{
	double sum = 0;
	int best = -1;

	for (unsigned i = 0; i < s->ntpl; i++) {
		struct flows_tpl *t = &s->tpl[i];

		if (!t->left || act[i].active_client + pend[i] >= t->cmax)
			continue;
		t->credit += t->weight;
		sum += t->weight;
		if (best < 0 || t->credit > s->tpl[best].credit)
			best = (int)i;
	}
	if (best >= 0)
		s->tpl[best].credit -= sum;
	return best;
}

uint32_t flows_pick_capped(struct flows_state *s, const struct ctr_tpl *act, struct flows_new *nf,
			   uint32_t n, unsigned w_q)
{
	uint32_t pend[FG_PROF_MAX_TEMPLATES], nn = 0;
	uint64_t open = s->active[FLOWTAB_CLIENT];

	if (open >= s->active_max)
		return 0;
	if (n > s->active_max - open)
		n = (uint32_t)(s->active_max - open);
	memset(pend, 0, s->ntpl * sizeof(pend[0]));
	while (n--) {
		int ti = flows_pick_tpl_capped(s, act, pend);

		if (ti < 0)
			break;
		if (!flows_pick_tuple(s, &nf[nn], (unsigned)ti, w_q))
			continue; /* no port free: this slot is skipped, as uncapped */
		s->tpl[ti].left--;
		pend[ti]++;
		nn++;
	}
	return nn;
}
