/*
 * svc.c — the control plane. A control thread (not an lcore) empties the
 * workers' punt rings every few hundred microseconds: ARP frames fill the
 * neighbour table that `arp` reads; ICMP echo replies complete the
 * outstanding `ping`. Frames control sends (ARP requests, echo requests)
 * leave on the port's control TX queue (queue nqueues), which only the
 * console thread uses. The neighbour table holds one slot per (port,
 * address); resolving an address again reuses its slot.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "capture.h"
#include "cli.h"
#include "pkt.h"
#include "ctl.h"
#include "port.h"
#include "svc.h"
#include "worker.h"

#define SVC_NEIGH 256

struct neigh {
	int port;
	uint32_t ip;
	uint64_t mac;
};

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
	uint64_t ping_rx_tsc, ping_tx_tsc;
	bool ping_done;
	uint64_t other;
	bool service;
} svc = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void learn(int port, uint32_t ip, const struct rte_ether_addr *m)
{
	uint64_t w = port_mac_word(m);
	int i;

	pthread_mutex_lock(&svc.mu);
	for (i = 0; i < svc.nneigh; i++)
		if (svc.neigh[i].port == port && svc.neigh[i].ip == ip)
			break;
	if (i == svc.nneigh) {
		/* a new neighbour; a full table gives up its slots in turn */
		if (svc.nneigh < SVC_NEIGH)
			svc.nneigh++;
		else
			i = (int)(svc.evict++ % SVC_NEIGH);
	}
	svc.neigh[i] = (struct neigh){port, ip, w};
	pthread_mutex_unlock(&svc.mu);
}

static void handle(struct worker *w, struct rte_mbuf *m, uint64_t now)
{
	int port = w->port[m->port & 1];
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	struct pkt_info pi;

	switch (pkt_parse(f, m->data_len, &pi)) {
	case PKT_ARP: {
		const struct rte_arp_hdr *a = (const struct rte_arp_hdr *)(f + pi.l3);

		if (pi.sip)
			learn(port, pi.sip, &a->arp_data.arp_sha);
		break;
	}
	case PKT_ICMP: {
		const struct rte_icmp_hdr *ic = (const struct rte_icmp_hdr *)(f + pi.l4);

		pthread_mutex_lock(&svc.mu);
		if (ic->icmp_type == RTE_IP_ICMP_ECHO_REPLY && port == svc.ping_port &&
		    rte_be_to_cpu_16(ic->icmp_ident) == svc.ping_id &&
		    rte_be_to_cpu_16(ic->icmp_seq_nb) == svc.ping_seq && !svc.ping_done) {
			svc.ping_rx_tsc = now;
			svc.ping_done = true;
		}
		pthread_mutex_unlock(&svc.mu);
		break;
	}
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

void svc_set_gw(int p, uint64_t mac, bool is_static)
{
	struct wmsg m = {.op = WMSG_GWMAC, .port = p & 1, .val = mac | PORT_MAC_KNOWN};

	fg_port[p].gw_mac = m.val;
	fg_port[p].static_gw_mac = is_static;
	ctl_post(&m, p / 2);
}

static int send_frame(int p, const uint8_t *f, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(fg_port[p].pool);

	if (!m)
		return -ENOMEM;
	if (len < 60) /* pad to the Ethernet minimum */
		len = 60;
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), f, len);
	m->data_len = m->pkt_len = len;
	capture_ctl_tx(p, m);
	if (rte_eth_tx_burst(fg_port[p].id, fg_port[p].nqueues, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return -ENOBUFS;
	}
	return 0;
}

static bool lookup(int p, uint32_t ip, uint64_t *mac)
{
	bool found = false;

	pthread_mutex_lock(&svc.mu);
	for (int i = 0; i < svc.nneigh; i++)
		if (svc.neigh[i].port == p && svc.neigh[i].ip == ip) {
			*mac = svc.neigh[i].mac;
			found = true;
		}
	pthread_mutex_unlock(&svc.mu);
	return found;
}

int svc_resolve(int p, uint32_t ip, uint64_t *mac, unsigned timeout_ms)
{
	uint8_t f[64] = {0};
	struct rte_ether_addr zero = {{0}};
	uint16_t len = pkt_build_arp(f, RTE_ARP_OP_REQUEST, &fg_port[p].mac, fg_port[p].ip, &zero, ip);

	/* forget what we knew: a stale answer must not pass for a fresh one;
	 * the slot is freed (the last one moves into it), so resolving again
	 * and again does not fill the table */
	pthread_mutex_lock(&svc.mu);
	for (int i = 0; i < svc.nneigh; i++)
		if (svc.neigh[i].port == p && svc.neigh[i].ip == ip) {
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
		if (lookup(p, ip, mac))
			return 0;
		if (cli_interrupted())
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
	int rc;

	if (size > RTE_ETHER_MAX_LEN - RTE_ETHER_HDR_LEN - 20 - 8 - 4)
		size = RTE_ETHER_MAX_LEN - RTE_ETHER_HDR_LEN - 20 - 8 - 4;
	port_word_mac(dmac, &d);
	pthread_mutex_lock(&svc.mu);
	svc.ping_port = p;
	svc.ping_id = 0xf10e;
	svc.ping_seq = seq;
	svc.ping_done = false;
	pthread_mutex_unlock(&svc.mu);
	tx = rte_rdtsc();
	len = pkt_build_echo(f, &fg_port[p].mac, &d, fg_port[p].ip, dip, 0xf10e, seq, size, tx);
	rc = send_frame(p, f, len);
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
			*rtt_us = (double)(rx - tx) * 1e6 / rte_get_tsc_hz();
			return 0;
		}
		if (cli_interrupted())
			return -EINTR;
	}
	return -ETIMEDOUT;
}

uint64_t svc_other_frames(void)
{
	return svc.other;
}
