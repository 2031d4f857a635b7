/*
 * natb_icmp.c — the ICMP query question of `bench nat` (natb.c): echo
 * requests from one internal host towards two servers, then the servers'
 * replies back to what came out. RFC 5508 REQ-1 asks that both pass;
 * REQ-1a (RFC 5508 §3.1) that the query identifier be mapped the same
 * whatever the external host. What comes out with its internal source
 * says there is no NAT on this path for ICMP.
 *
 * Context: control (the console's thread, as natb.c).
 */
#include <netinet/in.h>

#include "natb_int.h"

/* echo requests towards two servers, then their replies back */
bool natb_icmp_echo(struct natb_ctx *c, struct natb_icmp *ic)
{
	const uint32_t I = c->in[NATB_IN_MAP];
	const uint16_t id = natb_port(c);
	uint32_t t[2] = {natb_tag(c), natb_tag(c)}, tr[2] = {natb_tag(c), natb_tag(c)};
	struct natb_obs o[2] = {0};
	bool back = false;

	natb_say(c, "icmp: echo identifier towards two servers, and the replies");
	natb_log_clear(c);
	for (int k = 0; k < 2; k++)
		natb_tx_echo(c, NATB_SIDE_IN, I, c->out[k], id, false, t[k]);
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	for (int k = 0; k < 2; k++) {
		const struct natb_rx *r = natb_find(c, NATB_SIDE_OUT, IPPROTO_ICMP, t[k]);

		o[k] = (struct natb_obs){{I, id}, {0, 0}, {c->out[k], 0}};
		if (r)
			o[k].ext = (struct natb_ep){r->sip, r->sport};
	}
	natb_log_clear(c);
	for (int k = 0; k < 2; k++)
		if (o[k].ext.ip)
			natb_tx_echo(c, NATB_SIDE_OUT, c->out[k], o[k].ext.ip, o[k].ext.port, true,
				     tr[k]);
	if (!natb_pump(c, NATB_WAIT_MS))
		return false;
	for (int k = 0; k < 2; k++) {
		const struct natb_rx *r = natb_find(c, NATB_SIDE_IN, IPPROTO_ICMP, tr[k]);

		back |= r && r->dip == I && r->dport == id;
	}
	ic->translated = natb_translated(o, 2);
	if (ic->translated == NATB_NO)
		natb_say(c, "icmp: echo requests left the NAT with their internal source: no NAT "
			    "on this path");
	ic->echo = o[0].ext.ip || o[1].ext.ip ? (back ? NATB_YES : NATB_NO) : NATB_NO;
	if (o[0].ext.ip && o[1].ext.ip)
		ic->id_ei = o[0].ext.port == o[1].ext.port && o[0].ext.ip == o[1].ext.ip ? NATB_YES
											 : NATB_NO;
	natb_say(c, "icmp: echo %s, identifier %s", ic->echo == NATB_YES ? "passes" : "fails",
		 ic->id_ei == NATB_YES	? "one towards two hosts"
		 : ic->id_ei == NATB_NO ? "differs by host"
					: "not seen twice");
	return true;
}
