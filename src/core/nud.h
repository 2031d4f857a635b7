/*
 * nud.h — Neighbour Unreachability Detection of a port's next hop, as a
 * host does it (RFC 4861 §7.3 for IPv6; Linux runs its ARP cache on the
 * same states): a next hop is REACHABLE for a reachable time after a
 * confirmation, then STALE; the first frame sent to a STALE next hop
 * makes it DELAY, and if nothing confirms it within the delay it is
 * probed (PROBE): unicast solicitations to the cached MAC first
 * (ucast_solicit of them, retrans_time apart), then broadcast ARP or
 * multicast Neighbour Solicitations (mcast_solicit of them, RFC 7048 §3;
 * Linux's mcast_resolicit). An answer confirms it, and an answer with a
 * new MAC replaces the MAC. When none comes the next hop is FAILED: its
 * MAC is kept (the traffic goes on to it, lost and counted) and, while
 * the port sends, one broadcast solicitation goes out every
 * retrans_time until it answers. An announcement (a gratuitous ARP, an
 * unsolicited Neighbour Advertisement with the Override flag, RFC 4861
 * §7.2.6) with a new MAC replaces the MAC at once and leaves the entry
 * STALE.
 *
 * The machine knows nothing of frames or clocks: control (src/control/
 * svc.c, the service thread) calls nud_tick every few milliseconds with
 * the time and what the port's counters showed since the last call, sends
 * the probe the tick asks for, and hands in every ARP or Neighbour
 * Discovery message of the next hop (nud_rx). A static next hop (dest_mac,
 * a loop pair) never has an entry here: it stays NUD_NONE and nothing
 * moves it.
 *
 * Context: pure (no globals, no I/O; unit-tested in test/unit/test_nud.c).
 *
 * Included by: every folder.
 */
#ifndef FG_NUD_H
#define FG_NUD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Defaults: Linux's (net.ipv4.neigh.default.*, net.ipv6.neigh.default.*),
 * which are RFC 4861 §10's REACHABLE_TIME, DELAY_FIRST_PROBE_TIME,
 * RETRANS_TIMER, MAX_UNICAST_SOLICIT and MAX_MULTICAST_SOLICIT. */
#define NUD_REACHABLE_MS_DEFAULT 30000u
#define NUD_DELAY_MS_DEFAULT 5000u
#define NUD_RETRANS_MS_DEFAULT 1000u
#define NUD_UCAST_DEFAULT 3u
#define NUD_MCAST_DEFAULT 3u
/* The ranges the config accepts (flowgen(8), PLATFORM CONFIG, neighbour). */
#define NUD_REACHABLE_MS_MIN 10u
#define NUD_REACHABLE_MS_MAX 3600000u
#define NUD_DELAY_MS_MAX 60000u
#define NUD_RETRANS_MS_MIN 10u
#define NUD_RETRANS_MS_MAX 60000u
#define NUD_SOLICIT_MAX 10u

struct nud_params {
	uint32_t reachable_ms; /* REACHABLE after a confirmation (base_reachable_time) */
	uint32_t delay_ms;     /* DELAY before the first probe (delay_first_probe_time) */
	uint32_t retrans_ms;   /* between two probes (retrans_time) */
	uint32_t ucast;	       /* unicast probes to the cached MAC (ucast_solicit) */
	uint32_t mcast;	       /* then broadcast / multicast ones (mcast_solicit) */
};

enum nud_state {
	NUD_NONE = 0, /* no learned MAC (unknown, or static): nothing runs */
	NUD_REACHABLE,
	NUD_STALE,
	NUD_DELAY,
	NUD_PROBE,
	NUD_FAILED,
};
#define NUD_STATE_COUNT (NUD_FAILED + 1)

/* What a tick asks control to send now. */
enum nud_probe {
	NUD_PROBE_NONE = 0,
	NUD_PROBE_UCAST, /* a unicast ARP request / NS to the cached MAC */
	NUD_PROBE_MCAST, /* a broadcast ARP request / an NS to the solicited-node group */
};

/* What nud_rx made of a message. */
enum nud_rx_result {
	NUD_RX_IGNORED = 0,
	NUD_RX_CONFIRMED, /* same MAC, a solicited answer: REACHABLE again */
	NUD_RX_CHANGED,	  /* the MAC was replaced (nud.mac is the new one) */
};

/*
 * One next hop. Times are nanoseconds on any monotonic clock; the counters
 * only grow (control keeps the baseline of `clear`).
 */
struct nud {
	enum nud_state state;
	uint64_t mac;	       /* the MAC word (port_addr.h), bit 48 clear */
	uint64_t confirmed_ns; /* the last confirmation */
	uint64_t since_ns;     /* entered the state (STALE, DELAY) */
	uint64_t probe_ns;     /* the last probe */
	uint32_t probes;       /* probes of this PROBE phase */
	/* counters */
	uint64_t changes;      /* MAC replaced, by any means but the first learning */
	uint64_t announced;    /* ... by an announcement (unsolicited, Override) */
	uint64_t reresolved;   /* ... by the answer to a probe of PROBE or FAILED */
	uint64_t probes_ucast, probes_mcast;
	uint64_t failures;     /* PROBE phases that ended FAILED */
};

/* pure: Linux's defaults (above). */
void nud_params_default(struct nud_params *p);

/* pure: 0, or -EINVAL with err naming the value out of its range. */
int nud_params_check(const struct nud_params *p, char *err, size_t errlen);

/* pure: "none", "reachable", "stale", "delay", "probe", "failed". */
const char *nud_state_name(enum nud_state s);

/*
 * pure: the next hop's MAC was learned now by a resolution the user asked
 * for (`arp`): REACHABLE with mac. A change of a known MAC counts in
 * changes; true when the MAC changed.
 */
bool nud_learn(struct nud *e, uint64_t mac, uint64_t now);

/* pure: forget the MAC (a static next hop, or none): NUD_NONE, counters kept. */
void nud_forget(struct nud *e);

/*
 * pure: one step of the timers at now. sent: the port sent frames to this
 * next hop since the last tick; confirmed: forward progress through it
 * since then (frames it forwarded arrived), which makes it REACHABLE in
 * every state but PROBE, where only the answer to a probe does (nud_rx):
 * the neighbour is being asked itself, and the caller's evidence is the
 * port's counters, which a frame sent elsewhere may move. Returns the
 * probe to send now (its count is taken); *failed is set when the entry
 * has just become FAILED (to be said once).
 */
enum nud_probe nud_tick(struct nud *e, const struct nud_params *p, uint64_t now, bool sent,
			bool confirmed, bool *failed);

/*
 * pure: an ARP message or a Neighbour Advertisement from the next hop's
 * address, carrying mac (has_mac false: an NA without a target link-layer
 * option). solicited: an answer to us (an ARP reply to the port's
 * address, an NA with the S flag); override: the message may replace the
 * cached MAC (every ARP message, RFC 826's merge; an NA with the O flag;
 * an NS's source link-layer option, RFC 4861 §7.2.3). The rules of RFC
 * 4861 §7.2.5 and §7.2.6. An entry in NUD_NONE ignores everything.
 */
enum nud_rx_result nud_rx(struct nud *e, bool has_mac, uint64_t mac, bool solicited,
			  bool override, uint64_t now);

#endif
