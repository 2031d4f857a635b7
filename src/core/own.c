/*
 * own.c — the ownership rule of a received test frame and the RSS queue of
 * a tuple (own.h). Pure: no EAL; rte_softrss() is an inline of rte_thash.h.
 */
#include <rte_thash.h>

#include "own.h"

unsigned own_worker(const struct own_map *m, int side, const struct own_frame *f, unsigned self)
{
	if (m->nq <= 1)
		return 0;
	if (side == OWN_CLIENT) {
		if (f->dport < m->port_lo || f->dport > m->port_hi)
			return self;
		return f->dport % m->nq;
	}
	if (f->sig) {
		unsigned q = own_id_worker(f->sig_id);

		return q < m->nq ? q : self;
	}
	return self;
}

void own_rss_sym_key(uint8_t *key, unsigned len)
{
	for (unsigned i = 0; i < len; i++)
		key[i] = (i & 1) ? 0x5a : 0x6d;
}

void own_rss_reta_fill(struct own_rss *r, unsigned nq)
{
	for (unsigned i = 0; i < r->reta_size && i < OWN_RSS_RETA_MAX; i++)
		r->reta[i] = (uint16_t)(nq ? i % nq : 0);
}

unsigned own_rss_queue(const struct own_rss *r, uint32_t sip, uint32_t dip, uint16_t sport,
		       uint16_t dport)
{
	uint32_t t[RTE_THASH_V4_L4_LEN] = {sip, dip, (uint32_t)sport << 16 | dport};
	uint32_t h;

	if (r->reta_size == 0)
		return 0;
	h = rte_softrss(t, RTE_THASH_V4_L4_LEN, r->key);
	return r->reta[h & (r->reta_size - 1u)];
}
