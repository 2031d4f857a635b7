/*
 * nud.c — the state machine of Neighbour Unreachability Detection (nud.h,
 * RFC 4861 §7.3) for one next hop: its timers, the probes it asks for, and
 * what an ARP message or a Neighbour Advertisement does to it (RFC 4861
 * §7.2.5, §7.2.6; RFC 826's merge for ARP). Pure: control drives it.
 *
 * The reachable time is the configured one exactly, without RFC 4861
 * §6.3.2's random factor (0.5 to 1.5 of it): the factor keeps many hosts
 * of one link from probing in step, and a tester has one next hop per
 * port, whose recovery bound (reachable + delay + probes, flowgen(8))
 * should be a figure rather than a range.
 */
#include <errno.h>
#include <stdio.h>

#include "nud.h"

#define MS_NS 1000000ull

void nud_params_default(struct nud_params *p)
{
	p->reachable_ms = NUD_REACHABLE_MS_DEFAULT;
	p->delay_ms = NUD_DELAY_MS_DEFAULT;
	p->retrans_ms = NUD_RETRANS_MS_DEFAULT;
	p->ucast = NUD_UCAST_DEFAULT;
	p->mcast = NUD_MCAST_DEFAULT;
}

int nud_params_check(const struct nud_params *p, char *err, size_t errlen)
{
	if (p->reachable_ms < NUD_REACHABLE_MS_MIN || p->reachable_ms > NUD_REACHABLE_MS_MAX)
		snprintf(err, errlen, "reachable_time %u ms: it must be %u ms to %u s", p->reachable_ms,
			 NUD_REACHABLE_MS_MIN, NUD_REACHABLE_MS_MAX / 1000);
	else if (p->delay_ms > NUD_DELAY_MS_MAX)
		snprintf(err, errlen, "delay_first_probe_time %u ms: it must be 0 to %u s",
			 p->delay_ms, NUD_DELAY_MS_MAX / 1000);
	else if (p->retrans_ms < NUD_RETRANS_MS_MIN || p->retrans_ms > NUD_RETRANS_MS_MAX)
		snprintf(err, errlen, "retrans_time %u ms: it must be %u ms to %u s", p->retrans_ms,
			 NUD_RETRANS_MS_MIN, NUD_RETRANS_MS_MAX / 1000);
	else if (p->ucast > NUD_SOLICIT_MAX)
		snprintf(err, errlen, "ucast_solicit %u: it must be 0 to %u", p->ucast,
			 NUD_SOLICIT_MAX);
	else if (p->mcast > NUD_SOLICIT_MAX)
		snprintf(err, errlen, "mcast_solicit %u: it must be 0 to %u", p->mcast,
			 NUD_SOLICIT_MAX);
	else
		return 0;
	return -EINVAL;
}

const char *nud_state_name(enum nud_state s)
{
	static const char *const names[NUD_STATE_COUNT] = {"none",  "reachable", "stale",
							    "delay", "probe",	  "failed"};

	return (unsigned)s < NUD_STATE_COUNT ? names[s] : "?";
}

static void reachable(struct nud *e, uint64_t now)
{
	e->state = NUD_REACHABLE;
	e->confirmed_ns = now;
	e->probes = 0;
}

bool nud_learn(struct nud *e, uint64_t mac, uint64_t now)
{
	bool changed = e->state != NUD_NONE && e->mac != mac;

	if (changed)
		e->changes++;
	e->mac = mac;
	reachable(e, now);
	return changed;
}

void nud_forget(struct nud *e)
{
	e->state = NUD_NONE;
	e->mac = 0;
	e->probes = 0;
}

/* PROBE: the next probe once retrans_time has passed since the last one
 * (the first at once); FAILED when all have gone unanswered. */
static enum nud_probe probe_step(struct nud *e, const struct nud_params *p, uint64_t now,
				 bool sent, bool *failed)
{
	if (e->probes && now - e->probe_ns < p->retrans_ms * MS_NS)
		return NUD_PROBE_NONE;
	if (e->probes < p->ucast + p->mcast) {
		bool uni = e->probes < p->ucast;

		e->probes++;
		e->probe_ns = now;
		if (uni) {
			e->probes_ucast++;
			return NUD_PROBE_UCAST;
		}
		e->probes_mcast++;
		return NUD_PROBE_MCAST;
	}
	/* the last probe's retrans_time has passed without an answer */
	e->state = NUD_FAILED;
	e->failures++;
	*failed = true;
	if (!sent)
		return NUD_PROBE_NONE;
	e->probe_ns = now;
	e->probes_mcast++;
	return NUD_PROBE_MCAST;
}

enum nud_probe nud_tick(struct nud *e, const struct nud_params *p, uint64_t now, bool sent,
			bool confirmed, bool *failed)
{
	*failed = false;
	if (e->state == NUD_NONE)
		return NUD_PROBE_NONE;
	/* forward progress confirms the next hop (RFC 4861 §7.3.3: a
	 * reachability confirmation makes it REACHABLE), but in PROBE: a
	 * probe asks the neighbour itself, which answers within retrans_time
	 * when it is there, and the caller's evidence is the port's, not the
	 * neighbour's (nud.h) */
	if (confirmed && e->state != NUD_PROBE) {
		reachable(e, now);
		return NUD_PROBE_NONE;
	}
	switch (e->state) {
	case NUD_REACHABLE:
		if (now - e->confirmed_ns < p->reachable_ms * (uint64_t)MS_NS)
			return NUD_PROBE_NONE;
		e->state = NUD_STALE;
		e->since_ns = now;
		/* a STALE next hop that is sent to */
		/* fall through */
	case NUD_STALE:
		if (!sent)
			return NUD_PROBE_NONE;
		e->state = NUD_DELAY;
		e->since_ns = now;
		/* fall through */
	case NUD_DELAY:
		if (now - e->since_ns < p->delay_ms * MS_NS)
			return NUD_PROBE_NONE;
		e->state = NUD_PROBE;
		e->probes = 0;
		/* fall through */
	case NUD_PROBE:
		return probe_step(e, p, now, sent, failed);
	case NUD_FAILED:
		/* the port still sends to it: look for it again, one broadcast
		 * every retrans_time, until it answers */
		if (!sent || now - e->probe_ns < p->retrans_ms * MS_NS)
			return NUD_PROBE_NONE;
		e->probe_ns = now;
		e->probes_mcast++;
		return NUD_PROBE_MCAST;
	case NUD_NONE:
		break;
	}
	return NUD_PROBE_NONE;
}

enum nud_rx_result nud_rx(struct nud *e, bool has_mac, uint64_t mac, bool solicited,
			  bool override, uint64_t now)
{
	bool probing;

	if (e->state == NUD_NONE)
		return NUD_RX_IGNORED;
	if (!has_mac || mac == e->mac) {
		/* only an answer confirms: an unsolicited message shows the
		 * way from the neighbour to us, not ours to it (§7.3.1) */
		if (!solicited)
			return NUD_RX_IGNORED;
		reachable(e, now);
		return NUD_RX_CONFIRMED;
	}
	if (!override) {
		/* §7.2.5: another MAC without the Override flag is not taken;
		 * a REACHABLE entry becomes STALE (it will be probed) */
		if (e->state == NUD_REACHABLE) {
			e->state = NUD_STALE;
			e->since_ns = now;
		}
		return NUD_RX_IGNORED;
	}
	probing = e->state == NUD_PROBE || e->state == NUD_FAILED;
	e->mac = mac;
	e->changes++;
	if (solicited) {
		/* the answer to a probe of ours, or an answer we did not ask
		 * for now (an earlier `arp`, `ping`): REACHABLE (§7.2.5) */
		if (probing)
			e->reresolved++;
		else
			e->announced++;
		reachable(e, now);
	} else {
		/* an announcement: the new MAC at once, STALE (§7.2.6) */
		e->announced++;
		e->state = NUD_STALE;
		e->since_ns = now;
		e->probes = 0;
	}
	return NUD_RX_CHANGED;
}
