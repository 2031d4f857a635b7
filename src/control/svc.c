/*
 * svc.c — the control plane. A control thread (not an lcore) empties the
 * workers' punt rings every few hundred microseconds: ARP frames and
 * Neighbour Advertisements (and the link-layer address of Solicitations)
 * fill the neighbour table that `arp` reads; ICMP and ICMPv6 echo replies
 * complete the outstanding `ping`. Frames control sends (ARP requests,
 * Neighbour Solicitations, echo requests) leave on the port's control TX
 * queue (queue nqueues), which only the console thread uses, or through
 * worker 0 where the port has no control queue (net_af_xdp, port.h),
 * tagged when the port has a vlan. The neighbour table holds one slot per (port,
 * family, address); resolving an address again reuses its slot. One tap
 * (svc_set_tap) may look at every punted frame first and keep it: `bench
 * nat` receives its probes that way.
 *
 * The same thread follows the next hops (nud.h): every ARP message and
 * Neighbour Advertisement from a port's gateway goes through the state
 * machine, so a gratuitous ARP or an unsolicited NA with a new MAC moves
 * the port's next hop at once; and every SVC_NUD_TICK_MS it runs the
 * machines' timers (Neighbour Unreachability Detection, RFC 4861 §7.3),
 * sending the probes they ask for. What confirms a next hop is forward
 * progress read from the workers' counters, which they keep anyway: over
 * 100 ms the other port of the pair received test frames (rx_pkts less
 * the frames that are not: bad, unknown, ARP and ND, ICMP), at least half
 * as many as this port sent, which the next hop's forwarding of this
 * port's frames puts there. A frame received
 * from the next hop itself would not do: it shows the way from the
 * neighbour, not to it (RFC 4861 §7.3.1), and a pair's other direction
 * comes from the other port's next hop. The workers do nothing more for
 * it than read the MAC word they are sent when it changes (WMSG_GWMAC,
 * WMSG_GW6MAC). A static next hop (dest_mac, a loop pair) is never
 * followed. Control's TX queue is shared by the console's thread and this
 * one (tx_mu); their posts to the workers' mailboxes go through ctl_post,
 * and the next hops' words with their posts are changed under nh_mu.
 *
 * It also reads the ports' link state every SVC_LINK_MS and announces a
 * port's own addresses when its link comes back (announce.h), so that a
 * DUT holding an incomplete neighbour entry for the port sends at once.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "addr6.h"
#include "announce.h"
#include "capture.h"
#include "pkt6.h"
#include "ctl.h"
#include "log.h"
#include "nud.h"
#include "port.h"
#include "stats_snap.h"
#include "svc.h"
#include "clock.h"
#include "worker.h"

#define SVC_NEIGH 256
/* the next hops' timers run this often: the bound of a reachable time's
 * end, a probe's time and a confirmation's, on top of them */
#define SVC_NUD_TICK_MS 10
/* forward progress is judged over this many ticks (100 ms) */
#define SVC_NUD_WINDOW 10
#define MS_NS 1000000ull
#define SVC_LINK_MS 100 /* the ports' link state read every 100 ms */

/* A port's next hop of one family, followed (nud.h); under nh_mu. */
struct nh {
	struct nud n;
	struct nud base;    /* the counters at the last `clear` */
	int64_t changed_ns; /* system clock of the last MAC change; 0: none */
};

/* An address of either family: IPv4 in the first 4 bytes (host order). */
struct neigh {
	int port;
	bool v6;
	uint32_t ip;
	uint8_t ip6[16];
	uint64_t mac;
};

static bool neigh_is(const struct neigh *n, int port, bool v6, uint32_t ip, const uint8_t *ip6)
{
	return n->port == port && n->v6 == v6 && (v6 ? !memcmp(n->ip6, ip6, 16) : n->ip == ip);
}

static struct {
	pthread_t thr;
	bool running;
	pthread_mutex_t mu;
	pthread_cond_t learned; /* broadcast under mu when a neighbour is learned */
	struct neigh neigh[SVC_NEIGH];
	int nneigh;
	unsigned evict; /* the slot a full table gives up next */
	/* the one outstanding echo request */
	int ping_port;
	uint16_t ping_id, ping_seq;
	bool ping_v6;
	uint64_t ping_rx_tsc, ping_tx_tsc;
	bool ping_done;
	uint64_t other;
	bool service;
	svc_tap_fn *tap; /* set and cleared by control; read by svc_main */
	void *tap_arg;
	/* control's TX queue (or ctl_tx ring): the console's thread and
	 * this one send on it */
	pthread_mutex_t tx_mu;
	/* the next hops: [port][0] IPv4's (gw), [1] IPv6's (gw6); the
	 * ports' gw_mac, gw6_mac and their posts are written under it too */
	pthread_mutex_t nh_mu;
	struct nh nh[FG_MAX_PORTS][2];
	struct nud_params nud_p;
	/* the families each port's frames of the current run take
	 * (SVC_FAM_*), which its counters speak for */
	unsigned fam[FG_MAX_PORTS];
	/* the service thread's own: the highest frames-to-next-hop and
	 * test-frames-received figures seen per port (nud_tick_all) */
	int64_t tx_seen[FG_MAX_PORTS], rx_seen[FG_MAX_PORTS];
	/* ... and their growth over the current window of ticks */
	uint64_t win_tx[FG_MAX_PORTS], win_rx[FG_MAX_PORTS];
	unsigned win_ticks;
	/* the service thread's own: the ports' links as last read */
	struct announce ann[FG_MAX_PORTS];
} svc = {
    .mu = PTHREAD_MUTEX_INITIALIZER,
    .learned = PTHREAD_COND_INITIALIZER,
    .tx_mu = PTHREAD_MUTEX_INITIALIZER,
    .nh_mu = PTHREAD_MUTEX_INITIALIZER,
    .nud_p = {NUD_REACHABLE_MS_DEFAULT, NUD_DELAY_MS_DEFAULT, NUD_RETRANS_MS_DEFAULT,
	      NUD_UCAST_DEFAULT, NUD_MCAST_DEFAULT},
};

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int64_t real_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (int64_t)t.tv_sec * 1000000000ll + t.tv_nsec;
}

/* port p's next hop of family fam (0 IPv4, 1 IPv6) as text */
static const char *nh_ip(int p, int fam, char *b)
{
	uint32_t a = fg_port[p].gw;

	if (fam)
		return addr6_str(fg_port[p].gw6, b);
	snprintf(b, ADDR6_STRLEN, "%u.%u.%u.%u", a >> 24, a >> 16 & 255, a >> 8 & 255, a & 255);
	return b;
}

static int send_frame(int p, const uint8_t *f, uint16_t len);
static void svc_post_gw6(int p);

/*
 * The next hop's MAC has changed in its machine (from old): the port's
 * word and the workers' follow, and the change is said once. nh_mu held.
 */
static void nh_apply(int p, int fam, uint64_t old, const char *why)
{
	struct nh *h = &svc.nh[p][fam];
	uint64_t w = h->n.mac | PORT_MAC_KNOWN;
	char a[ADDR6_STRLEN], o[PORT_MAC_TEXT], n[PORT_MAC_TEXT];

	h->changed_ns = real_ns();
	if (fam) {
		__atomic_store_n(&fg_port[p].gw6_mac, w, __ATOMIC_RELAXED);
		svc_post_gw6(p);
	} else {
		struct wmsg m = {.op = WMSG_GWMAC, .port = p & 1, .val = w};

		__atomic_store_n(&fg_port[p].gw_mac, w, __ATOMIC_RELAXED);
		ctl_post(&m, p / 2);
	}
	fg_info("port %d: next hop %s moved from MAC %s to %s (%s)", p, nh_ip(p, fam, a),
		port_mac_text(old, o), port_mac_text(h->n.mac, n), why);
}

/*
 * An ARP message or an NA from port p's next hop of family fam (what:
 * how it is said); nud_rx's rules, and the change applied.
 */
static void nh_rx(int p, int fam, bool has_mac, uint64_t mac, bool solicited, bool override,
		  uint64_t now, const char *what)
{
	struct nh *h = &svc.nh[p][fam];

	pthread_mutex_lock(&svc.nh_mu);
	{
		uint64_t old = h->n.mac, rr = h->n.reresolved;
		uint32_t probes = h->n.probes;
		char why[96];

		if (nud_rx(&h->n, has_mac, mac, solicited, override, now) == NUD_RX_CHANGED) {
			if (h->n.reresolved != rr)
				snprintf(why, sizeof(why), "re-resolved: %s after %" PRIu32 " probes",
					 what, probes);
			else
				snprintf(why, sizeof(why), "%s", what);
			nh_apply(p, fam, old, why);
		}
	}
	pthread_mutex_unlock(&svc.nh_mu);
}

/*
 * An ARP frame on port p from its gateway (sender address gw). A reply to
 * the port's own address while the next hop is being probed (PROBE, or
 * FAILED after it) answers the probe (solicited), and a gratuitous
 * request or reply (RFC 5227 §3's announcement: sender == target) is
 * the gateway's own word: both replace the MAC, as an NA with its
 * Override flag does (RFC 4861 §7.2.5, §7.2.6). Anything else (a reply
 * to another address, the gateway asking for someone else) is taken as
 * an NA without Override: a different MAC only makes the next hop STALE,
 * to be probed at the MAC it has, so that replies nobody asked for that
 * claim the gateway's address (ARP poisoning) do not move it. Requests
 * for the port's own addresses are answered on the workers and not seen
 * here.
 */
static void nud_arp(int p, const struct rte_arp_hdr *a, const struct pkt_info *pi, uint64_t now)
{
	const struct port *pt = &fg_port[p];
	bool reply = a->arp_opcode == rte_cpu_to_be_16(RTE_ARP_OP_REPLY);
	bool ann = pi->dip == pi->sip, asked, sol;

	if (!pt->gw || pi->sip != pt->gw)
		return;
	/* a reply is an answer only while the machine has a question out */
	pthread_mutex_lock(&svc.nh_mu);
	asked = svc.nh[p][0].n.state == NUD_PROBE || svc.nh[p][0].n.state == NUD_FAILED;
	pthread_mutex_unlock(&svc.nh_mu);
	sol = reply && asked && pt->v.ip && pi->dip == pt->v.ip;
	nh_rx(p, 0, true, port_mac_word(&a->arp_data.arp_sha), sol, sol || ann, now,
	      sol		  ? "ARP reply"
	      : pi->dip == pi->sip ? (reply ? "gratuitous ARP reply" : "gratuitous ARP")
				   : (reply ? "ARP reply to another" : "ARP request"));
}

static void learn_any(int port, bool v6, uint32_t ip, const uint8_t *ip6,
		      const struct rte_ether_addr *m)
{
	struct neigh n = {.port = port, .v6 = v6, .ip = ip, .mac = port_mac_word(m)};
	int i;

	if (v6)
		memcpy(n.ip6, ip6, 16);
	pthread_mutex_lock(&svc.mu);
	for (i = 0; i < svc.nneigh; i++)
		if (neigh_is(&svc.neigh[i], port, v6, ip, ip6))
			break;
	if (i == svc.nneigh) {
		/* a new neighbour; a full table gives up its slots in turn */
		if (svc.nneigh < SVC_NEIGH)
			svc.nneigh++;
		else
			i = (int)(svc.evict++ % SVC_NEIGH);
	}
	svc.neigh[i] = n;
	pthread_cond_broadcast(&svc.learned);
	pthread_mutex_unlock(&svc.mu);
}

static void learn(int port, uint32_t ip, const struct rte_ether_addr *m)
{
	learn_any(port, false, ip, NULL, m);
}

/* An echo reply: does it complete the outstanding ping? */
static void echo_reply(int port, bool v6, uint16_t id, uint16_t seq, uint64_t now)
{
	pthread_mutex_lock(&svc.mu);
	if (port == svc.ping_port && v6 == svc.ping_v6 && id == svc.ping_id &&
	    seq == svc.ping_seq && !svc.ping_done) {
		svc.ping_rx_tsc = now;
		svc.ping_done = true;
	}
	pthread_mutex_unlock(&svc.mu);
}

/*
 * ICMPv6: an NA teaches its target's MAC (its target link-layer option,
 * else the frame's source), an NS its sender's (source link-layer
 * option), and from the next hop they go through its machine (mono: the
 * monotonic time); an echo reply may complete the ping.
 */
static void handle_icmp6(int port, const uint8_t *f, const struct pkt_info *pi, uint64_t now,
			 uint64_t mono)
{
	const struct rte_icmp_hdr *ic = (const struct rte_icmp_hdr *)(f + pi->l4);
	struct rte_ether_addr mac;
	uint8_t target[16];

	switch (pkt6_nd_target(f, pi, target)) {
	case PKT6_NA: {
		bool has = pkt6_nd_lladdr(f, pi, 2, &mac);
		uint64_t w = has ? port_mac_word(&mac) : 0;
		uint8_t fl = pkt6_na_flags(f, pi);

		if (!has)
			rte_ether_addr_copy(&((const struct rte_ether_hdr *)f)->src_addr, &mac);
		learn_any(port, true, 0, target, &mac);
		/* from the next hop: §7.2.5 (S set) and §7.2.6 (unsolicited) */
		if (fg_port[port].has_gw6 && !memcmp(target, fg_port[port].gw6, 16))
			nh_rx(port, 1, has, w, fl & PKT6_NA_S, fl & PKT6_NA_O, mono,
			      fl & PKT6_NA_S ? "Neighbour Advertisement"
					     : "unsolicited Neighbour Advertisement");
		return;
	}
	case PKT6_NS:
		if (pkt6_nd_lladdr(f, pi, 1, &mac)) {
			learn_any(port, true, 0, pkt6_src(f, pi), &mac);
			/* §7.2.3: its source link-layer option replaces ours */
			if (fg_port[port].has_gw6 && !memcmp(pkt6_src(f, pi), fg_port[port].gw6, 16))
				nh_rx(port, 1, true, port_mac_word(&mac), false, true, mono,
				      "Neighbour Solicitation");
		}
		return;
	default:
		break;
	}
	if (pi->icmp_type == PKT6_ECHO_REPLY)
		echo_reply(port, true, rte_be_to_cpu_16(ic->icmp_ident),
			   rte_be_to_cpu_16(ic->icmp_seq_nb), now);
	else
		svc.other++;
}

static void handle(struct worker *w, struct rte_mbuf *m, uint64_t now, uint64_t mono)
{
	int port = w->port[m->port & 1];
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	struct pkt_info pi;
	/* acquire pairs with svc_set_tap's release: tap_arg is in place */
	svc_tap_fn *tap = __atomic_load_n(&svc.tap, __ATOMIC_ACQUIRE);

	if (tap && tap(port, f, m->data_len, now, svc.tap_arg)) {
		rte_pktmbuf_free(m);
		return;
	}
	switch (pkt_parse(f, m->data_len, &pi)) {
	case PKT_ARP: {
		const struct rte_arp_hdr *a = (const struct rte_arp_hdr *)(f + pi.l3);

		if (pi.sip)
			learn(port, pi.sip, &a->arp_data.arp_sha);
		nud_arp(port, a, &pi, mono);
		break;
	}
	case PKT_ICMP: {
		const struct rte_icmp_hdr *ic = (const struct rte_icmp_hdr *)(f + pi.l4);

		if (ic->icmp_type == RTE_IP_ICMP_ECHO_REPLY)
			echo_reply(port, false, rte_be_to_cpu_16(ic->icmp_ident),
				   rte_be_to_cpu_16(ic->icmp_seq_nb), now);
		break;
	}
	case PKT_ICMP6:
		handle_icmp6(port, f, &pi, now, mono);
		break;
	default:
		svc.other++;
		break;
	}
	rte_pktmbuf_free(m);
}

/*
 * Port p's frames sent to its next hops (tx less the ARP, ND and echo
 * answers) and test frames received (rx less the bad, unknown, ARP and
 * ND, ICMP frames), summed over the workers of its pair. The counters are
 * each a worker's relaxed stores, so a sum may lag one counter behind
 * another for a moment: the caller takes only a figure above the highest
 * seen as growth.
 */
static void port_frames(int p, int64_t *tx, int64_t *rx)
{
	int64_t t = 0, r = 0;

	for (int i = 0; i < fg_nworkers; i++) {
		const struct ctr_port *c = &fg_ctr[i].port[p];

		if (fg_worker[i].pair != p / 2)
			continue;
		t += (int64_t)(FG_CTR_GET(c->tx_pkts) - FG_CTR_GET(c->tx_arp) - FG_CTR_GET(c->tx_icmp));
		r += (int64_t)(FG_CTR_GET(c->rx_pkts) - FG_CTR_GET(c->rx_bad) -
			       FG_CTR_GET(c->rx_unknown) - FG_CTR_GET(c->rx_arp) -
			       FG_CTR_GET(c->rx_icmp));
	}
	*tx = t;
	*rx = r;
}

/* One probe of port p's next hop of family fam, at its cached MAC (UCAST)
 * or to everyone (MCAST: broadcast ARP, the solicited-node group). */
static void nud_probe(int p, int fam, enum nud_probe k, uint64_t cached)
{
	const struct port *pt = &fg_port[p];
	uint8_t f[96] = {0};
	struct rte_ether_addr d, zero = {{0}};
	uint16_t len;

	port_word_mac(cached, &d);
	if (fam) {
		if (!pt->v.has_ip6)
			return;
		len = k == NUD_PROBE_UCAST
			  ? pkt6_build_ns_unicast(f, &pt->v.mac, pt->v.ip6, pt->gw6, &d)
			  : pkt6_build_ns(f, &pt->v.mac, pt->v.ip6, pt->gw6);
	} else {
		len = pkt_build_arp(f, RTE_ARP_OP_REQUEST, &pt->v.mac, pt->v.ip, &zero, pt->gw);
		/* RFC 1122 §2.3.2.1: the unicast poll of a cached entry */
		if (k == NUD_PROBE_UCAST)
			rte_ether_addr_copy(&d, &((struct rte_ether_hdr *)f)->dst_addr);
	}
	(void)send_frame(p, f, len); /* a probe the queue refuses is the next one's to do */
}

/*
 * The next hops' timers, every SVC_NUD_TICK_MS: a port sent when its
 * frames to next hops grew since the last tick. Its next hops forwarded
 * when, over the last SVC_NUD_WINDOW ticks, the other port of its pair
 * received test frames, at least half as many as this port sent: a port
 * also sends frames that do not go to its next hop (a TCP answer to a
 * segment goes back to the MAC it came from), and a few of those getting
 * through must not pass for the next hop's forwarding. Both figures are
 * the port's, not a family's: they speak for a family only when the run
 * sends it on the port (svc_set_families), and forward progress confirms
 * only when the port's frames go to one MAC (IPv4's and IPv6's next hop
 * the same, or one family); two next hops of different MACs are each
 * confirmed by their probes' answers.
 */
static void nud_tick_all(uint64_t now)
{
	bool sent[FG_MAX_PORTS], fwd[FG_MAX_PORTS] = {false};
	bool window = ++svc.win_ticks >= SVC_NUD_WINDOW;

	for (int p = 0; p < fg_nports; p++) {
		int64_t tx, rx;

		port_frames(p, &tx, &rx);
		sent[p] = tx > svc.tx_seen[p];
		if (sent[p]) {
			svc.win_tx[p] += (uint64_t)(tx - svc.tx_seen[p]);
			svc.tx_seen[p] = tx;
		}
		if (rx > svc.rx_seen[p]) {
			svc.win_rx[p] += (uint64_t)(rx - svc.rx_seen[p]);
			svc.rx_seen[p] = rx;
		}
	}
	if (window) {
		for (int p = 0; p < fg_nports; p++) {
			uint64_t got = (p ^ 1) < fg_nports ? svc.win_rx[p ^ 1] : 0;

			fwd[p] = got && 2 * got >= svc.win_tx[p];
		}
		memset(svc.win_tx, 0, sizeof(svc.win_tx));
		memset(svc.win_rx, 0, sizeof(svc.win_rx));
		svc.win_ticks = 0;
	}
	pthread_mutex_lock(&svc.nh_mu);
	for (int p = 0; p < fg_nports; p++) {
		const struct nud *n4 = &svc.nh[p][0].n, *n6 = &svc.nh[p][1].n;
		unsigned fam = svc.fam[p];
		bool one = fam != SVC_FAM_ALL || n4->state == NUD_NONE || n6->state == NUD_NONE ||
			   n4->mac == n6->mac;

		for (int f = 0; f < 2; f++) {
			struct nh *h = &svc.nh[p][f];
			bool use = fam & (1u << f), failed;
			enum nud_probe k = nud_tick(&h->n, &svc.nud_p, now, use && sent[p],
						    use && one && fwd[p], &failed);
			char a[ADDR6_STRLEN], m[PORT_MAC_TEXT];

			if (failed)
				fg_warn("port %d: next hop %s does not answer at MAC %s (%" PRIu32
					" probes); the MAC is kept and the next hop looked for "
					"again every %u ms",
					p, nh_ip(p, f, a), port_mac_text(h->n.mac, m),
					svc.nud_p.ucast + svc.nud_p.mcast, svc.nud_p.retrans_ms);
			if (k != NUD_PROBE_NONE)
				nud_probe(p, f, k, h->n.mac);
		}
	}
	pthread_mutex_unlock(&svc.nh_mu);
}

/*
 * Port p's link came back: an ARP Announcement of its address (RFC 5227
 * section 2.3: an ARP request whose sender and target are that address)
 * and, with an ipv6, an unsolicited Neighbour Advertisement of it to
 * all-nodes, Override set (RFC 4861 section 7.2.6).
 */
static void announce_port(int p)
{
	static const struct rte_ether_addr zero = {{0}};
	static const struct rte_ether_addr all_nodes_mac = {{0x33, 0x33, 0, 0, 0, 1}};
	static const uint8_t all_nodes[16] = {0xff, 0x02, [15] = 1};
	const struct port_view *v = &fg_port[p].v;
	uint8_t f[PKT6_ND_LEN > 64 ? PKT6_ND_LEN : 64] = {0};

	if (v->ip)
		(void)send_frame(p, f,
				 pkt_build_arp(f, RTE_ARP_OP_REQUEST, &v->mac, v->ip, &zero, v->ip));
	if (v->has_ip6)
		(void)send_frame(p, f, pkt6_build_na(f, &v->mac, &all_nodes_mac, v->ip6, all_nodes,
						     false));
}

/* Every SVC_LINK_MS (now_ms): each port's link, and the announcements it
 * calls for. */
static void watch_links(uint64_t now_ms)
{
	for (int p = 0; p < fg_nports && p < FG_MAX_PORTS; p++)
		for (unsigned n = announce_step(&svc.ann[p], port_link(p, NULL), now_ms); n; n--)
			announce_port(p);
}

static void *svc_main(void *arg)
{
	uint64_t last = 0, last_link = 0;

	(void)arg;
	while (__atomic_load_n(&svc.running, __ATOMIC_ACQUIRE)) {
		bool any = false;
		uint64_t mono = mono_ns();

		for (int i = 0; i < fg_nworkers; i++) {
			struct rte_mbuf *pk[FG_BURST];
			unsigned n = rte_ring_dequeue_burst(fg_worker[i].punt, (void **)pk, FG_BURST,
							    NULL);
			uint64_t now = rte_rdtsc();

			for (unsigned j = 0; j < n; j++)
				handle(&fg_worker[i], pk[j], now, mono);
			any |= n > 0;
		}
		if (mono - last >= SVC_NUD_TICK_MS * MS_NS) {
			last = mono;
			nud_tick_all(mono);
		}
		if (mono - last_link >= SVC_LINK_MS * MS_NS) {
			last_link = mono;
			watch_links(mono / MS_NS);
		}
		if (!any)
			usleep(100);
	}
	return NULL;
}

void svc_set_nud(const struct nud_params *p)
{
	pthread_mutex_lock(&svc.nh_mu);
	svc.nud_p = *p;
	pthread_mutex_unlock(&svc.nh_mu);
}

void svc_set_families(int p, unsigned fam)
{
	pthread_mutex_lock(&svc.nh_mu);
	if (p >= 0 && p < FG_MAX_PORTS)
		svc.fam[p] = fam & SVC_FAM_ALL;
	pthread_mutex_unlock(&svc.nh_mu);
}

int svc_start(void)
{
	int rc;

	/* until a run says which, a port's frames may be of either family */
	for (int p = 0; p < FG_MAX_PORTS; p++)
		svc.fam[p] = SVC_FAM_ALL;
	svc.running = true;
	rc = rte_ctrl_thread_create(&svc.thr, "fg-svc", NULL, svc_main, NULL);
	if (rc)
		svc.running = false;
	return -rc;
}

void svc_stop(void)
{
	if (!svc.running)
		return;
	/* release pairs with the acquire load in svc_main's loop test */
	__atomic_store_n(&svc.running, false, __ATOMIC_RELEASE);
	pthread_join(svc.thr, NULL);
}

void svc_set_service(bool on)
{
	struct wmsg m = {.op = WMSG_SERVICE, .val = on};

	ctl_post(&m, -1);
	svc.service = on;
}

bool svc_service(void)
{
	return svc.service;
}

/* Tell port p's workers its IPv6 next hop (port_gw6_word). */
static void svc_post_gw6(int p)
{
	struct wmsg m = {.op = WMSG_GW6MAC, .port = p & 1, .val = port_gw6_word(&fg_port[p])};

	ctl_post(&m, p / 2);
}

/* The user resolved port p's next hop of family fam (`arp`): REACHABLE
 * with mac, a change said. nh_mu held. */
static void nh_learn(int p, int fam, uint64_t mac)
{
	struct nh *h = &svc.nh[p][fam];
	uint64_t old = h->n.mac;

	if (nud_learn(&h->n, mac, mono_ns()))
		nh_apply(p, fam, old, fam ? "Neighbour Discovery of arp" : "ARP of arp");
}

void svc_set_gw(int p, uint64_t mac, bool is_static)
{
	struct wmsg m = {.op = WMSG_GWMAC, .port = p & 1, .val = mac | PORT_MAC_KNOWN};

	pthread_mutex_lock(&svc.nh_mu);
	__atomic_store_n(&fg_port[p].gw_mac, m.val, __ATOMIC_RELAXED);
	fg_port[p].static_gw_mac = is_static;
	ctl_post(&m, p / 2);
	/* a static dest_mac is the IPv6 next hop too */
	svc_post_gw6(p);
	if (is_static) {
		/* never followed */
		nud_forget(&svc.nh[p][0].n);
		nud_forget(&svc.nh[p][1].n);
	} else {
		nh_learn(p, 0, mac);
	}
	pthread_mutex_unlock(&svc.nh_mu);
}

static int send_frame_locked(int p, const uint8_t *f, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(fg_port[p].v.pool);

	if (!m)
		return -ENOMEM;
	if (len < 60) /* pad to the Ethernet minimum */
		len = 60;
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), f, len);
	/* the port's 802.1Q tag, as the workers put it on theirs */
	if (fg_port[p].v.vlan)
		len = pkt_vlan_push(rte_pktmbuf_mtod(m, uint8_t *), len, fg_port[p].v.vlan);
	m->data_len = m->pkt_len = len;
	capture_ctl_tx(p, m);
	if (fg_port[p].v.ctl_tx) {
		/* no control queue: worker 0 of the pair sends it (port.h) */
		if (rte_ring_enqueue(fg_port[p].v.ctl_tx, m) != 0) {
			rte_pktmbuf_free(m);
			return -ENOBUFS;
		}
	} else if (rte_eth_tx_burst(fg_port[p].v.id, fg_port[p].nqueues, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return -ENOBUFS;
	}
	return 0;
}

/* Control's frames leave from the console's thread and the service
 * thread (NUD's probes): one at a time on the port's control queue. */
static int send_frame(int p, const uint8_t *f, uint16_t len)
{
	int rc;

	pthread_mutex_lock(&svc.tx_mu);
	rc = send_frame_locked(p, f, len);
	pthread_mutex_unlock(&svc.tx_mu);
	return rc;
}

int svc_send(int p, const uint8_t *f, uint16_t len)
{
	return send_frame(p, f, len);
}

void svc_set_tap(svc_tap_fn *fn, void *arg)
{
	if (fn)
		svc.tap_arg = arg;
	/* release pairs with handle()'s acquire load of the tap */
	__atomic_store_n(&svc.tap, fn, __ATOMIC_RELEASE);
	/* a frame being handled may still use the old tap: let it finish */
	if (!fn && svc.running)
		usleep(2000);
}

/* svc.mu held: the MAC learned for the address, if any */
static bool lookup_locked(int p, bool v6, uint32_t ip, const uint8_t *ip6, uint64_t *mac)
{
	bool found = false;

	for (int i = 0; i < svc.nneigh; i++)
		if (neigh_is(&svc.neigh[i], p, v6, ip, ip6)) {
			*mac = svc.neigh[i].mac;
			found = true;
		}
	return found;
}

/*
 * Send the request f (ARP or NS) every 300 ms until the answer is learned:
 * woken by the service thread as it learns a neighbour (svc.learned), so
 * that an answer counts when it comes, not at the next look; every 10 ms
 * at most, a cancel (Ctrl-C) is seen.
 */
static int resolve(int p, bool v6, uint32_t ip, const uint8_t *ip6, const uint8_t *f, uint16_t len,
		   uint64_t *mac, unsigned timeout_ms)
{
	uint64_t t0 = mono_ns(), next_ms = 0;

	/* forget what we knew: a stale answer must not pass for a fresh one;
	 * the slot is freed (the last one moves into it), so resolving again
	 * and again does not fill the table */
	pthread_mutex_lock(&svc.mu);
	for (int i = 0; i < svc.nneigh; i++)
		if (neigh_is(&svc.neigh[i], p, v6, ip, ip6)) {
			svc.neigh[i] = svc.neigh[--svc.nneigh];
			i--;
		}
	pthread_mutex_unlock(&svc.mu);
	for (;;) {
		uint64_t ms = (mono_ns() - t0) / 1000000;
		struct timespec until;
		bool found;

		if (ms >= timeout_ms)
			return -ETIMEDOUT;
		if (ms >= next_ms) {
			int rc = send_frame(p, f, len);

			if (rc)
				return rc;
			next_ms += 300;
		}
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 10 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_mutex_lock(&svc.mu);
		found = lookup_locked(p, v6, ip, ip6, mac);
		if (!found) {
			pthread_cond_timedwait(&svc.learned, &svc.mu, &until);
			found = lookup_locked(p, v6, ip, ip6, mac);
		}
		pthread_mutex_unlock(&svc.mu);
		if (found)
			return 0;
		if (ctl_cancelled())
			return -EINTR;
	}
}

int svc_resolve(int p, uint32_t ip, uint64_t *mac, unsigned timeout_ms)
{
	uint8_t f[64] = {0};
	struct rte_ether_addr zero = {{0}};
	uint16_t len = pkt_build_arp(f, RTE_ARP_OP_REQUEST, &fg_port[p].v.mac, fg_port[p].v.ip, &zero, ip);

	return resolve(p, false, ip, NULL, f, len, mac, timeout_ms);
}

int svc_resolve6(int p, const uint8_t *ip6, uint64_t *mac, unsigned timeout_ms)
{
	uint8_t f[PKT6_ND_LEN];
	uint16_t len;

	if (!fg_port[p].v.has_ip6)
		return -EADDRNOTAVAIL;
	len = pkt6_build_ns(f, &fg_port[p].v.mac, fg_port[p].v.ip6, ip6);
	return resolve(p, true, 0, ip6, f, len, mac, timeout_ms);
}

void svc_set_gw6(int p, uint64_t mac)
{
	pthread_mutex_lock(&svc.nh_mu);
	__atomic_store_n(&fg_port[p].gw6_mac, mac | PORT_MAC_KNOWN, __ATOMIC_RELAXED);
	svc_post_gw6(p);
	if (!fg_port[p].static_gw_mac)
		nh_learn(p, 1, mac);
	pthread_mutex_unlock(&svc.nh_mu);
}

void svc_next_hops(int p, struct stats_next_hop *nh)
{
	const struct port *pt = &fg_port[p];

	if (p < 0 || p >= fg_nports)
		return;
	pthread_mutex_lock(&svc.nh_mu);
	for (int f = 0; f < 2; f++) {
		struct stats_next_hop *o = &nh[f];
		const struct nh *h = &svc.nh[p][f];
		uint64_t w = f ? port_gw6_word(pt) : pt->gw_mac;

		memset(o, 0, sizeof(*o));
		o->present = f ? pt->has_gw6 : pt->gw || pt->static_gw_mac;
		if (!o->present)
			continue;
		o->known = (w & PORT_MAC_KNOWN) != 0;
		o->mac = w & (PORT_MAC_KNOWN - 1);
		o->is_static = pt->static_gw_mac;
		if (f || pt->gw)
			nh_ip(p, f, o->ip);
		o->state = h->n.state;
		o->mac_changes = h->n.changes - h->base.changes;
		o->announced = h->n.announced - h->base.announced;
		o->reresolved = h->n.reresolved - h->base.reresolved;
		o->probes_ucast = h->n.probes_ucast - h->base.probes_ucast;
		o->probes_mcast = h->n.probes_mcast - h->base.probes_mcast;
		o->failures = h->n.failures - h->base.failures;
		o->changed_ns = h->changed_ns;
	}
	pthread_mutex_unlock(&svc.nh_mu);
}

void svc_stats_clear(void)
{
	pthread_mutex_lock(&svc.nh_mu);
	for (int p = 0; p < FG_MAX_PORTS; p++)
		for (int f = 0; f < 2; f++)
			svc.nh[p][f].base = svc.nh[p][f].n;
	pthread_mutex_unlock(&svc.nh_mu);
}

/* The one outstanding echo request: the service thread completes it. */
static void echo_arm(int p, bool v6, uint16_t seq)
{
	pthread_mutex_lock(&svc.mu);
	svc.ping_port = p;
	svc.ping_v6 = v6;
	svc.ping_id = 0xf10e;
	svc.ping_seq = seq;
	svc.ping_done = false;
	pthread_mutex_unlock(&svc.mu);
}

/* Send the armed echo request f (stamped tx) and wait for its reply. */
static int echo_send_wait(int p, const uint8_t *f, uint16_t len, uint64_t tx, unsigned timeout_ms,
			  double *rtt_us)
{
	int rc = send_frame(p, f, len);

	if (rc)
		return rc;
	for (unsigned t = 0; t * 100 < timeout_ms * 1000; t++) {
		bool done;
		uint64_t rx;

		usleep(100);
		pthread_mutex_lock(&svc.mu);
		done = svc.ping_done;
		rx = svc.ping_rx_tsc;
		pthread_mutex_unlock(&svc.mu);
		if (done) {
			*rtt_us = (double)(rx - tx) * 1e6 / (double)fg_tsc_hz;
			return 0;
		}
		if (ctl_cancelled())
			return -EINTR;
	}
	return -ETIMEDOUT;
}

int svc_ping_one(int p, uint32_t dip, uint64_t dmac, uint16_t seq, uint16_t size, unsigned timeout_ms,
		 double *rtt_us)
{
	uint8_t f[RTE_ETHER_MAX_LEN];
	struct rte_ether_addr d;
	uint64_t tx;
	uint16_t len;

	if (size > RTE_ETHER_MAX_LEN - RTE_ETHER_HDR_LEN - 20 - 8 - 4)
		size = RTE_ETHER_MAX_LEN - RTE_ETHER_HDR_LEN - 20 - 8 - 4;
	port_word_mac(dmac, &d);
	echo_arm(p, false, seq);
	tx = rte_rdtsc();
	len = pkt_build_echo(f, &fg_port[p].v.mac, &d, fg_port[p].v.ip, dip, 0xf10e, seq, size, tx);
	return echo_send_wait(p, f, len, tx, timeout_ms, rtt_us);
}

int svc_ping6_one(int p, const uint8_t *dip6, uint64_t dmac, uint16_t seq, uint16_t size,
		  unsigned timeout_ms, double *rtt_us)
{
	uint8_t f[RTE_ETHER_MAX_LEN];
	struct rte_ether_addr d;
	uint64_t tx;
	uint16_t len;

	if (!fg_port[p].v.has_ip6)
		return -EADDRNOTAVAIL;
	if (size > RTE_ETHER_MAX_LEN - PKT6_L4_OFF - 8 - 4)
		size = RTE_ETHER_MAX_LEN - PKT6_L4_OFF - 8 - 4;
	port_word_mac(dmac, &d);
	echo_arm(p, true, seq);
	tx = rte_rdtsc();
	len = pkt6_build_echo(f, &fg_port[p].v.mac, &d, fg_port[p].v.ip6, dip6, 0xf10e, seq, size, tx);
	return echo_send_wait(p, f, len, tx, timeout_ms, rtt_us);
}

uint64_t svc_other_frames(void)
{
	return svc.other;
}
