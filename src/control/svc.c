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
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "capture.h"
#include "pkt6.h"
#include "ctl.h"
#include "port.h"
#include "svc.h"
#include "clock.h"
#include "worker.h"

#define SVC_NEIGH 256

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
} svc = {.mu = PTHREAD_MUTEX_INITIALIZER};

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
 * option); an echo reply may complete the ping.
 */
static void handle_icmp6(int port, const uint8_t *f, const struct pkt_info *pi, uint64_t now)
{
	const struct rte_icmp_hdr *ic = (const struct rte_icmp_hdr *)(f + pi->l4);
	struct rte_ether_addr mac;
	uint8_t target[16];

	switch (pkt6_nd_target(f, pi, target)) {
	case PKT6_NA:
		if (!pkt6_nd_lladdr(f, pi, 2, &mac))
			rte_ether_addr_copy(&((const struct rte_ether_hdr *)f)->src_addr, &mac);
		learn_any(port, true, 0, target, &mac);
		return;
	case PKT6_NS:
		if (pkt6_nd_lladdr(f, pi, 1, &mac))
			learn_any(port, true, 0, pkt6_src(f, pi), &mac);
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

static void handle(struct worker *w, struct rte_mbuf *m, uint64_t now)
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
		handle_icmp6(port, f, &pi, now);
		break;
	default:
		svc.other++;
		break;
	}
	rte_pktmbuf_free(m);
}

static void *svc_main(void *arg)
{
	(void)arg;
	while (__atomic_load_n(&svc.running, __ATOMIC_ACQUIRE)) {
		bool any = false;

		for (int i = 0; i < fg_nworkers; i++) {
			struct rte_mbuf *pk[FG_BURST];
			unsigned n = rte_ring_dequeue_burst(fg_worker[i].punt, (void **)pk, FG_BURST,
							    NULL);
			uint64_t now = rte_rdtsc();

			for (unsigned j = 0; j < n; j++)
				handle(&fg_worker[i], pk[j], now);
			any |= n > 0;
		}
		if (!any)
			usleep(100);
	}
	return NULL;
}

int svc_start(void)
{
	int rc;

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

void svc_set_gw(int p, uint64_t mac, bool is_static)
{
	struct wmsg m = {.op = WMSG_GWMAC, .port = p & 1, .val = mac | PORT_MAC_KNOWN};

	fg_port[p].gw_mac = m.val;
	fg_port[p].static_gw_mac = is_static;
	ctl_post(&m, p / 2);
	/* a static dest_mac is the IPv6 next hop too */
	svc_post_gw6(p);
}

static int send_frame(int p, const uint8_t *f, uint16_t len)
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

static bool lookup(int p, bool v6, uint32_t ip, const uint8_t *ip6, uint64_t *mac)
{
	bool found = false;

	pthread_mutex_lock(&svc.mu);
	for (int i = 0; i < svc.nneigh; i++)
		if (neigh_is(&svc.neigh[i], p, v6, ip, ip6)) {
			*mac = svc.neigh[i].mac;
			found = true;
		}
	pthread_mutex_unlock(&svc.mu);
	return found;
}

/* Send the request f (ARP or NS) every 300 ms until the answer is learned. */
static int resolve(int p, bool v6, uint32_t ip, const uint8_t *ip6, const uint8_t *f, uint16_t len,
		   uint64_t *mac, unsigned timeout_ms)
{
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
	for (unsigned t = 0; t < timeout_ms; t += 10) {
		if (t % 300 == 0) {
			int rc = send_frame(p, f, len);

			if (rc)
				return rc;
		}
		usleep(10 * 1000);
		if (lookup(p, v6, ip, ip6, mac))
			return 0;
		if (ctl_cancelled())
			return -EINTR;
	}
	return -ETIMEDOUT;
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
	fg_port[p].gw6_mac = mac | PORT_MAC_KNOWN;
	svc_post_gw6(p);
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
