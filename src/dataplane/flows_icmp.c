/*
 * flows_icmp.c — which flow an ICMP error names (icmperr.h; flowgen(8),
 * ICMP ERRORS): the entry whose frame the error quotes, and whether a
 * UDP flow's quote is the flow's own. What the error then does to the
 * flow is flows.c's (flows_icmp_err()).
 *
 * Context: worker (the lcore that owns the flows state); nothing here
 * allocates, locks, prints or makes a system call.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "flows.h"
#include "flows_int.h"
#include "flowtab.h"
#include "icmperr.h"
#include "lat.h"
#include "own.h"
#include "worker.h"

/*
 * Do the quote's addresses fit side: its family, and on an IPv6 side the
 * fixed 96 bits the key leaves out (flows_family_ok()), ours at own (the
 * quote's source, or the outer destination), the peer's the quote's
 * destination?
 */
static bool flows_icmp_family(const struct flows_state *s, int side, const uint8_t *f,
			      const struct icmperr *ie, const uint8_t *own)
{
	if (ie->v6 != s->v6[side])
		return false;
	if (!ie->v6)
		return true;
	if (memcmp(own, s->own_hi[side], 12))
		return false;
	return (side == FLOWTAB_SERVER && !s->peer6_learned) ||
	       !memcmp(f + ie->q3 + 24, s->peer_hi[side], 12);
}

/*
 * The entry of the flow whose frame the error quotes, or FLOWTAB_NIL. The
 * quote is the frame as the flow sent it: a NAT on the way translates an
 * error's quote back along with its outer header (RFC 5508 REQ-3; a DUT
 * that drops the frame before its own translation quotes it untouched).
 * On the client side, a quote whose source the NAT left translated is
 * looked up again with the outer destination as the client's address:
 * the flow is found where the NAT kept the client's port.
 */
uint32_t flows_icmp_find(const struct flows_state *s, int side, const uint8_t *f,
			 const struct icmperr *ie)
{
	struct flowtab_key k;
	uint32_t idx = FLOWTAB_NIL;

	if (flows_icmp_family(s, side, f, ie, f + ie->q3 + 8)) {
		icmperr_key(ie, ie->sip, side, &k);
		idx = flowtab_lookup(s->ft, &k);
	}
	if (idx == FLOWTAB_NIL && side == FLOWTAB_CLIENT && ie->odip != ie->sip &&
	    flows_icmp_family(s, side, f, ie, f + ie->o3 + 24)) {
		icmperr_key(ie, ie->odip, side, &k);
		idx = flowtab_lookup(s->ft, &k);
	}
	return idx;
}

/*
 * A UDP flow's error: where the flow's datagrams carry a signature and the
 * quote holds one, it must be the flow's own (the client's id; a server's
 * reply names its client's), as a reply must (flowpay.h). A quote cut
 * before the signature names the flow by its tuple alone.
 */
bool flows_icmp_udp_ok(const struct worker *w, const struct flows_state *s, uint32_t idx,
		       const struct flows_ent *e, int side, const uint8_t *f,
		       const struct icmperr *ie)
{
	uint32_t id, seq;
	uint64_t tsc;
	uint8_t fl;

	if (s->tpl[e->tpl].txb[side] || ie->qpaylen < LAT_SIG_LEN)
		return true;
	if (!lat_sig_read(f + ie->qpay, ie->qpaylen, &id, &seq, &tsc, &fl))
		return false;
	return id == (side ? e->udp.peer_id : own_id(flowtab_id(s->ft, idx), w->q)) &&
	       (fl & LAT_SIG_F_REPLY) == (side ? LAT_SIG_F_REPLY : 0);
}
