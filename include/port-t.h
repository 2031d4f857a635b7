/*
 * port-t.h — types only: what a worker reads of a port (struct port_view)
 * and the emulated host ranges. Control owns the storage (the `v` of each
 * struct port, src/control/port.h) and hands every worker a pointer to the
 * views of its pair's two ports (struct worker, worker-t.h); no worker
 * reads fg_port[].
 *
 * Included by: every folder (no prototypes, no data).
 */
#ifndef FG_PORT_T_H
#define FG_PORT_T_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#define PORT_MAX_HOSTS 64 /* emulated host ranges per port */

/* bit 48 of a next-hop MAC word (port_addr.h): the MAC is known */
#define PORT_MAC_KNOWN (1ULL << 48)

struct rte_mempool;
struct rte_ring;

struct port_host_range {
	uint32_t lo, hi; /* host order, lo <= hi */
};

/* IPv6 emulated hosts: pfx + (lo .. hi) as the last 32 bits (one /96). */
struct port_host6_range {
	uint8_t pfx[12];
	uint32_t lo, hi; /* host order, lo <= hi */
};

/*
 * The worker's view of a port: set by control at bring-up; only the
 * emulated hosts change later, while no traffic runs (port_set_hosts).
 */
struct port_view {
	uint16_t id;			/* DPDK port id */
	struct rte_ether_addr mac;	/* source MAC of every frame we send */
	uint32_t ip;			/* host order; 0 = none */
	/* IPv6 (port_info `ipv6`): the port's address, which it answers
	 * Neighbour Solicitations for */
	uint8_t ip6[16];
	bool has_ip6;
	/* 802.1Q id (port_info `vlan`), 0 = none: every frame sent is tagged
	 * with it, and only frames with it are received (worker.c). */
	uint16_t vlan;
	/*
	 * Emulated hosts (flowgen(8), PLATFORM CONFIG `hosts`): the port answers ARP and ICMP echo for
	 * every address of hosts[0 .. nhosts-1]. The first ncfg_hosts ranges
	 * (struct port) come from the config; a streams profile appends its
	 * own while no traffic runs (port_set_hosts). Workers read nhosts with
	 * acquire ordering; the writer publishes it with release after the
	 * ranges.
	 */
	struct port_host_range hosts[PORT_MAX_HOSTS];
	uint32_t nhosts;
	/* IPv6 ones (a streams profile's `hosts`): Neighbour Solicitations
	 * answered for them; published as nhosts is (port_set_hosts6). */
	struct port_host6_range hosts6[PORT_MAX_HOSTS];
	uint32_t nhosts6;
	struct rte_mempool *pool;
	bool ctl_rxq;			/* RX queue nqueues exists and receives test frames */
	/* no control queue (net_af_xdp): control's frames, which worker 0
	 * of the pair sends on its queue; NULL where control has a queue */
	struct rte_ring *ctl_tx;
};

#endif
