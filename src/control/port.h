/*
 * port.h — the tester's ports: DPDK ethdev bring-up (PCI, vdev, and the
 * in-memory [loop, loop] pairs built on rte_rings), mempools, link state,
 * and the per-port addressing (own IP/MAC, gateway IP/MAC).
 *
 * Ports come in pairs: port 2k is the client ("inside") side, 2k+1 the
 * server ("outside") side. Each worker owns one RX and one TX queue on
 * both ports of its pair (queue = its index in the pair). The control
 * plane has a TX queue of its own, queue `nqueues`, which only
 * control sends on (ARP requests, pings). A port has RX queues for
 * the workers only, so no received frame waits for control, except
 * net_af_packet: it has one socket per queue pair and its fan-out spreads
 * received frames over all of them, so that port has an RX queue
 * `nqueues` too (ctl_rxq) and worker 0 of the pair polls it every turn,
 * handing test frames to their owners (own.h). net_af_xdp has an XDP
 * socket per queue pair and, on an interface with one queue (a veth), no
 * queue to spare: it has the worker queues only, and control's frames go
 * through a ring (ctl_tx) that worker 0 of the pair sends on its queue.
 * On the [loop, loop] pairs control's TX queue feeds the peer's RX queue 0.
 *
 * RSS: where the driver hashes IPv4 TCP/UDP and has a redirection table,
 * the port gets a symmetric key and a RETA over the worker queues only
 * (rss, own.h); the client side then picks source ports whose replies
 * hash to the flow's owner.
 *
 * Included by: control and console. Workers see a port through its view
 * (port-t.h) only.
 */
#ifndef FG_PORT_H
#define FG_PORT_H

#include <rte_ether.h>
#include <rte_mempool.h>

#include "fg.h"
#include "own.h"
#include "port-t.h"
#include "port_addr.h"

struct cfg;
struct cfg_iface;

/*
 * A port as control sees it: the worker's view first (port-t.h: what the
 * workers read, through their pointer to it), then what only control
 * reads or writes (next hops, configuration, ethdev details).
 */
struct port {
	struct port_view v;		/* id, mac, ip, ip6, vlan, hosts, pool, ctl_rxq */
	uint16_t nqueues;		/* worker queues = workers per pair; queue nqueues is control's */
	uint32_t gw;			/* host order; 0 = none */
	/*
	 * Next-hop MAC: bit 48 set = known. Written by control (`arp`,
	 * a static dest_mac); workers get it through their mailbox.
	 */
	uint64_t gw_mac;
	bool static_gw_mac;
	/*
	 * IPv6 (`default_gw6`): the next hop that `arp` resolves by
	 * Neighbour Discovery into gw6_mac (bit 48 = known).
	 */
	uint8_t gw6[16];
	bool has_gw6;
	uint64_t gw6_mac;
	uint32_t ncfg_hosts;		/* the first ranges of v.hosts: the config's */
	char name[64];			/* the interface spec as configured */
	char driver[32];
	char kiface[32];		/* kernel interface of af_packet or af_xdp, else "" */
	struct own_rss rss;		/* key and RETA as programmed; reta_size 0 = none */
};

extern struct port fg_port[FG_MAX_PORTS];
extern int fg_nports;

/*
 * pure: the next-hop MAC word of the port's IPv6 frames: a static
 * dest_mac (or a loop pair's peer) serves both families; otherwise what
 * Neighbour Discovery learned for default_gw6 (bit 48 clear: unknown).
 */
static inline uint64_t port_gw6_word(const struct port *p)
{
	return p->static_gw_mac ? p->gw_mac : p->gw6_mac;
}

/*
 * control, before rte_eal_init: checks that the interfaces exist (an
 * af_packet or af_xdp iface in this namespace; an af_xdp one with a queue
 * per worker) so a typo gives a clear one-line error instead of a DPDK
 * trace. Appends EAL args for the interfaces.
 */
int port_eal_args(const struct cfg *c, uint16_t nq, char **argv, int *argc, int max, char *err,
		  size_t errlen);

/*
 * pure: whether interface f's mbuf pool packs its objects when flowgen
 * runs without hugepages: loop ports, net_af_packet and net_null, whose
 * drivers copy frames in and out with the CPU, so that an mbuf may
 * straddle two 4 KiB pages (flowgen(8), MEMORY AND SEVERAL INSTANCES).
 * A PCI device's DMA, net_af_xdp's UMEM (a zero-copy XDP driver maps it
 * page by page) and other drivers keep DPDK's default: each mbuf within
 * one page.
 */
bool port_pool_packed(const struct cfg_iface *f);

/* control, after rte_eal_init: creates loop pairs, configures and starts
 * every port with `nq` worker queue pairs plus the control queue pair,
 * waits for link. 0 or -errno + err. */
int port_init_all(const struct cfg *c, uint16_t nq, char *err, size_t errlen);
void port_close_all(void);

/* control: the DPDK port id of config port index p, or -1: DPDK numbers
 * ports in probe order (PCI order), which need not be the config's. Use it
 * for every ethdev call made by index (rte_eth_stats_get, xstats). */
int port_dpdk_id(int p);

/* control: the largest L2 frame (bytes incl. FCS, which is not stored) an
 * mbuf of the ports' pools holds: frames above it are refused at start. */
uint32_t port_frame_max(void);

/* control: the ethdev counters of config port index p; 0 or -errno. */
struct rte_eth_stats;
int port_nic_stats(int p, struct rte_eth_stats *es);

/* control: link state now; for an af_packet or af_xdp port, the kernel
 * interface's carrier. */
bool port_link(int p, uint32_t *speed_mbps);

/*
 * control (never a worker: it reads every lcore's cache): the mbuf pool of
 * config port index p into *m (struct stats_pool, stats_snap.h: size,
 * in use, available and cached, as DPDK's rte_mempool_avail_count counts
 * them). False, with *m zeroed, when p has no pool.
 */
struct stats_pool;
bool port_mempool(int p, struct stats_pool *m);

/* control, while no traffic runs: the port's IPv6 emulated hosts become
 * r[0 .. n-1]. 0, or -ENOSPC when n > PORT_MAX_HOSTS. */
int port_set_hosts6(int p, const struct port_host6_range *r, size_t n);

/*
 * control, while no traffic runs: the port's emulated hosts become the
 * config's ranges plus `extra` (n of them). 0, or -ENOSPC when the ranges
 * do not fit PORT_MAX_HOSTS (nothing is changed then).
 */
int port_set_hosts(int p, const struct port_host_range *extra, size_t n);

#endif
