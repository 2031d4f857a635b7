/*
 * flows_pick.c — the stateful flows engine's choice of a new client flow
 * (worker context, flows_int.h): its template by smooth weighted round
 * robin over the templates' cps, its addresses, and a client port from
 * the worker's share of the template's client ports, chosen by the
 * client port's RSS where it is known so that the reply arrives on the
 * flow's owner (own.h). Under caps (start --active, limit, climit;
 * flows.h) a turn of a template the caps hold back opens no flow.
 */
#include <errno.h>
#include <string.h>

#include <netinet/in.h>

#include "fgen.h"
#include "flows.h"
#include "flows_int.h"
#include "flowtab.h"
#include "own.h"

static inline __attribute__((always_inline)) unsigned flows_pick_tpl(struct flows_state *s)
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
static inline __attribute__((always_inline)) void flows_pick_rss(struct flows_state *s,
								 struct fgen_cpa *cpa,
								 struct flows_new *nf,
								 uint16_t sport, unsigned q)
{
	for (unsigned i = 0; i < 8u * s->own.nq; i++) {
		uint16_t p;

		if (own_rss_fits(s->rss, nf->cip, nf->cport, nf->sip, sport, q))
			return;
		if (fgen_cpa_get(cpa, nf->cip, &p) != 0)
			return;
		fgen_cpa_put(cpa, nf->cip, nf->cport);
		nf->cport = p;
	}
}

/* The tuple of a new flow of template ti; false when no port is free. */
static inline __attribute__((always_inline)) bool
flows_pick_tuple(struct flows_state *s, struct flows_new *nf, unsigned ti, unsigned w_q)
{
	const struct flows_tpl *t = &s->tpl[ti];
	struct fgen_cpa *cpa = &s->cpa[t->cpa];
	int rc = -ENOSPC;

	nf->sip = fgen_addrs_next(&s->srv);
	for (int tries = 0; tries < 4 && rc; tries++) {
		nf->cip = fgen_addrs_next(&s->cli);
		rc = fgen_cpa_get(cpa, nf->cip, &nf->cport);
	}
	if (rc)
		return false; /* every port of these addresses is busy: skip this slot */
	if (s->rss)
		flows_pick_rss(s, cpa, nf, t->port, w_q);
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
 * The template of the next slot, by flows_pick_tpl()'s round robin over
 * all templates (each keeps its own rate), if it may open a flow now:
 * flows of its limit left and fewer client flows than its climit,
 * counting those in the table (act: the worker's gauges by template,
 * ctr.h) and those picked in this burst (pend). -1 when it may not: the
 * slot is skipped, not given to another template.
 */
static int flows_pick_tpl_capped(struct flows_state *s, const struct ctr_tpl *act,
				 const uint32_t *pend)
{
	unsigned ti = flows_pick_tpl(s);
	const struct flows_tpl *t = &s->tpl[ti];

	if (!t->left || act[ti].active_client + pend[ti] >= t->cmax)
		return -1;
	return (int)ti;
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

		/* a template at a cap, or no port free: this slot is skipped */
		if (ti < 0 || !flows_pick_tuple(s, &nf[nn], (unsigned)ti, w_q))
			continue;
		s->tpl[ti].left--;
		pend[ti]++;
		nn++;
	}
	return nn;
}
