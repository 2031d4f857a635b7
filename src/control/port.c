/*
 * port.c — bring-up of the tester's ports. Interfaces come from the
 * platform config: PCI addresses (allow-listed to EAL), `--vdev=` strings
 * (net_af_packet on a veth for the lab, net_af_xdp where the kernel keeps
 * the NIC, net_null for generator-only speed) and `loop` entries, which
 * become pairs of ring-backed ethdevs wired back to back: what port 2k
 * sends on queue q, port 2k+1 receives on queue q.
 *
 * Every port gets one RX/TX queue pair per worker of its pair and one more
 * TX queue for control (net_af_packet: one more queue pair; net_af_xdp:
 * none, control's frames go through worker 0's queue, port.h), a
 * mempool sized from `mbufs`, its addressing from `port_info`, and where
 * the driver allows it RSS with a symmetric key over the worker queues.
 */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_ring.h>

#include "cfg_data.h"
#include "log.h"
#include "port.h"
#include "stats_snap.h"

struct port fg_port[FG_MAX_PORTS];
int fg_nports;

#define PORT_RX_DESC 1024
#define PORT_TX_DESC 1024
#define PORT_LOOP_RING 4096
#define PORT_CTL_TX_RING 256
/* the mbufs net_af_xdp gives each queue's fill ring at set-up and keeps
 * there (its ETH_AF_XDP_DFLT_NUM_DESCS, libxdp's default ring size) */
#define PORT_XDP_FILL 2048

/* The value of `key=` in a vdev argument string, or "" when absent. */
static void vdev_arg(const char *spec, const char *key, char *out, size_t outlen)
{
	size_t kl = strlen(key);
	const char *s = spec;

	out[0] = '\0';
	while ((s = strchr(s, ',')) != NULL) {
		s++;
		if (strncmp(s, key, kl) == 0 && s[kl] == '=') {
			size_t n = strcspn(s + kl + 1, ",");

			if (n >= outlen)
				n = outlen - 1;
			memcpy(out, s + kl + 1, n);
			out[n] = '\0';
			return;
		}
	}
}

static int eal_push(char **argv, int *argc, int max, const char *s)
{
	if (*argc >= max)
		return -E2BIG;
	argv[(*argc)++] = strdup(s);
	return argv[*argc - 1] ? 0 : -ENOMEM;
}

static bool is_af_packet(const char *spec) { return strncmp(spec, "net_af_packet", 13) == 0; }

static bool is_af_xdp(const char *spec) { return strncmp(spec, "net_af_xdp", 10) == 0; }

bool port_pool_packed(const struct cfg_iface *f)
{
	return f->kind == CFG_IF_LOOP ||
	       (f->kind == CFG_IF_VDEV &&
		(is_af_packet(f->spec) || strncmp(f->spec, "net_null", 8) == 0));
}

/*
 * af_packet and af_xdp need their queue count in the vdev string; the
 * user's string cannot know the worker count, so we hot-plug our own copy:
 * af_packet a queue pair per worker and control's, af_xdp one per worker
 * (control sends through worker 0's, port.h).
 */
static int vdev_with_queues(const char *spec, uint16_t nq, char *out, size_t outlen)
{
	char q[16] = "";
	int n;

	if (is_af_packet(spec))
		vdev_arg(spec, "qpairs", q, sizeof(q));
	else if (is_af_xdp(spec))
		vdev_arg(spec, "queue_count", q, sizeof(q));
	if (is_af_packet(spec) && !q[0])
		n = snprintf(out, outlen, "%s,qpairs=%u", spec, nq + 1);
	else if (is_af_xdp(spec) && !q[0])
		n = snprintf(out, outlen, "%s,queue_count=%u", spec, nq);
	else
		n = snprintf(out, outlen, "%s", spec);
	return n >= (int)outlen ? -E2BIG : 0;
}

/*
 * The queues an AF_XDP socket can bind to, as net_af_xdp counts them: the
 * combined channels of `ethtool -l` (ethtool(8)), or 1 where the driver
 * reports none (a veth reports separate RX and TX counts only).
 */
static int xdp_channels(const char *iface)
{
	struct ethtool_channels ch = {.cmd = ETHTOOL_GCHANNELS};
	struct ifreq ifr = {0};
	int fd = socket(AF_INET, SOCK_DGRAM, 0), rc;

	if (fd < 0)
		return 1;
	memcpy(ifr.ifr_name, iface, strnlen(iface, sizeof(ifr.ifr_name) - 1));
	ifr.ifr_data = (void *)&ch;
	rc = ioctl(fd, SIOCETHTOOL, &ifr);
	close(fd);
	return rc == 0 && ch.max_combined ? (int)ch.combined_count : 1;
}

/*
 * A net_af_xdp port's queues, checked before DPDK is started so that a
 * worker count the interface cannot carry is refused with the reason:
 * the driver would refuse it with "Specified queue count ... is larger
 * than combined queue count" and no hint.
 */
static int xdp_check(const struct cfg *c, size_t i, const char *iface, uint16_t nq, char *err,
		     size_t errlen)
{
	char q[16], s[16];
	long want = nq, start;
	int have = xdp_channels(iface);

	vdev_arg(c->ifs[i].spec, "queue_count", q, sizeof(q));
	vdev_arg(c->ifs[i].spec, "start_queue", s, sizeof(s));
	if (q[0])
		want = strtol(q, NULL, 10);
	start = s[0] ? strtol(s, NULL, 10) : 0;
	if (want < nq) {
		snprintf(err, errlen,
			 "%s: interface %zu: net_af_xdp on %s has queue_count=%ld, and %u "
			 "workers per port pair need a queue each: drop queue_count or run "
			 "fewer workers (-c)",
			 c->file, i, iface, want, nq);
		return -EINVAL;
	}
	if (want > have) {
		snprintf(err, errlen,
			 "%s: interface %zu: net_af_xdp on %s needs queues %ld..%ld (one per "
			 "worker: %u), the interface has %d (combined channels, ethtool -l %s; "
			 "a veth reports none and has one): run one worker per port pair "
			 "(-c 1), give the interface more channels (ethtool -L %s combined N), "
			 "or use net_af_packet",
			 c->file, i, iface, start, start + want - 1, nq, have, iface, iface);
		return -EINVAL;
	}
	if (start == 0 && want < have)
		fg_warn("%s: interface %zu: net_af_xdp on %s takes queues 0..%ld of its %d: what "
			"the NIC steers to the others goes to the kernel, not to flowgen (ethtool "
			"-L %s combined %ld)",
			c->file, i, iface, want - 1, have, iface, want);
	return 0;
}

int port_eal_args(const struct cfg *c, uint16_t nq, char **argv, int *argc, int max, char *err,
		  size_t errlen)
{
	bool pci = false, xdp = false;
	char buf[FG_CFG_IF_SPEC_LEN + 32];
	int rc = 0;

	for (size_t i = 0; i < c->n_interfaces && rc == 0; i++) {
		const struct cfg_iface *f = &c->ifs[i];

		switch (f->kind) {
		case CFG_IF_PCI: {
			char path[sizeof("/sys/bus/pci/devices/0000:") + FG_CFG_IF_SPEC_LEN];
			const char *dom = strlen(f->spec) <= 7 ? "0000:" : "";

			snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s%s", dom, f->spec);
			if (access(path, F_OK) != 0) {
				snprintf(err, errlen, "%s: interface %zu: no PCI device %s%s", c->file, i,
					 dom, f->spec);
				return -ENODEV;
			}
			rc = eal_push(argv, argc, max, "-a");
			if (rc == 0)
				rc = eal_push(argv, argc, max, f->spec);
			pci = true;
			break;
		}
		case CFG_IF_VDEV: {
			char iface[IF_NAMESIZE + 8];

			vdev_arg(f->spec, "iface", iface, sizeof(iface));
			if (is_af_packet(f->spec) || is_af_xdp(f->spec)) {
				if (!iface[0] || if_nametoindex(iface) == 0) {
					snprintf(err, errlen,
						 "%s: interface %zu: no network interface '%s' here "
						 "(is the lab up, and flowgen in its namespace?)",
						 c->file, i, iface);
					return -ENODEV;
				}
			}
			if (is_af_xdp(f->spec)) {
				rc = xdp_check(c, i, iface, nq, err, errlen);
				if (rc)
					return rc;
				xdp = true;
			}
			strcpy(buf, "--vdev=");
			rc = vdev_with_queues(f->spec, nq, buf + 7, sizeof(buf) - 7);
			if (rc == 0)
				rc = eal_push(argv, argc, max, buf);
			break;
		}
		case CFG_IF_LOOP:
			break;
		}
	}
	if (xdp) {
		/* the UMEM of every XDP socket is locked memory: root may lift
		 * the limit (setrlimit(2)); where it cannot, the driver's error
		 * gets its hint (boot_plan.c) */
		struct rlimit rl = {RLIM_INFINITY, RLIM_INFINITY};

		(void)setrlimit(RLIMIT_MEMLOCK, &rl);
	}
	if (rc == 0 && !pci)
		rc = eal_push(argv, argc, max, "--no-pci");
	if (rc)
		snprintf(err, errlen, "too many EAL arguments");
	return rc;
}

/*
 * Two ring ethdevs back to back: what one sends on TX queue q the other
 * receives on RX queue q. Each has nq RX queues (the workers') and nq + 1
 * TX queues: control's queue nq shares the ring of queue 0, which is
 * therefore multi-producer, so control's frames reach the peer's worker 0.
 */
static int loop_pair(int a, uint16_t nq, uint16_t *ida, uint16_t *idb)
{
	struct rte_ring *ab[FG_MAX_WORKERS + 1], *ba[FG_MAX_WORKERS + 1];
	char name[RTE_RING_NAMESIZE];
	int rc;

	for (uint16_t q = 0; q < nq; q++) {
		unsigned fl = q == 0 ? RING_F_SC_DEQ : RING_F_SP_ENQ | RING_F_SC_DEQ;

		snprintf(name, sizeof(name), "loop%d_%u_ab", a, q);
		ab[q] = rte_ring_create(name, PORT_LOOP_RING, SOCKET_ID_ANY, fl);
		snprintf(name, sizeof(name), "loop%d_%u_ba", a, q);
		ba[q] = rte_ring_create(name, PORT_LOOP_RING, SOCKET_ID_ANY, fl);
		if (!ab[q] || !ba[q])
			return -rte_errno;
	}
	ab[nq] = ab[0];
	ba[nq] = ba[0];
	snprintf(name, sizeof(name), "loop%d", a);
	rc = rte_eth_from_rings(name, ba, nq, ab, nq + 1, SOCKET_ID_ANY);
	if (rc < 0)
		return -rte_errno;
	*ida = rc;
	snprintf(name, sizeof(name), "loop%d", a + 1);
	rc = rte_eth_from_rings(name, ab, nq, ba, nq + 1, SOCKET_ID_ANY);
	if (rc < 0)
		return -rte_errno;
	*idb = rc;
	return 0;
}

/*
 * RSS over IPv4 addresses and TCP/UDP ports with a symmetric key, so both
 * directions of a flow hash alike, where the driver hashes them (the
 * key's length is the driver's, 40 bytes when it does not say).
 */
static void rss_conf(struct port *p, const struct rte_eth_dev_info *info, uint16_t nq,
		     struct rte_eth_conf *conf)
{
	uint64_t hf = (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP) &
		      info->flow_type_rss_offloads;
	unsigned kl = info->hash_key_size ? info->hash_key_size : 40;

	memset(&p->rss, 0, sizeof(p->rss));
	if (!(hf & RTE_ETH_RSS_IP) || nq < 2)
		return;
	conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf->rx_adv_conf.rss_conf.rss_hf = hf;
	if (kl <= OWN_RSS_KEY_MAX) {
		own_rss_sym_key(p->rss.key, kl);
		p->rss.key_len = (uint8_t)kl;
		conf->rx_adv_conf.rss_conf.rss_key = p->rss.key;
		conf->rx_adv_conf.rss_conf.rss_key_len = (uint8_t)kl;
	}
}

/*
 * After start: the RETA over the worker queues, entry i to queue i mod nq,
 * written explicitly so the client side knows it (own_rss_fits()). Only
 * for a driver that hashes TCP and UDP ports with our key: otherwise the
 * reply's queue cannot be chosen and hand-off alone steers.
 */
static void rss_reta(struct port *p, const struct rte_eth_dev_info *info, uint16_t nq)
{
	struct rte_eth_rss_reta_entry64 rc[OWN_RSS_RETA_MAX / RTE_ETH_RETA_GROUP_SIZE];
	uint16_t n = info->reta_size;
	uint64_t l4 = RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV4_UDP;

	if (!p->rss.key_len || n == 0 || n > OWN_RSS_RETA_MAX || (n & (n - 1)) ||
	    (info->flow_type_rss_offloads & l4) != l4)
		return;
	p->rss.reta_size = n;
	own_rss_reta_fill(&p->rss, nq);
	memset(rc, 0, sizeof(rc));
	for (uint16_t i = 0; i < n; i++) {
		rc[i / RTE_ETH_RETA_GROUP_SIZE].mask |= 1ULL << (i % RTE_ETH_RETA_GROUP_SIZE);
		rc[i / RTE_ETH_RETA_GROUP_SIZE].reta[i % RTE_ETH_RETA_GROUP_SIZE] = p->rss.reta[i];
	}
	if (rte_eth_dev_rss_reta_update(p->v.id, rc, n) != 0)
		p->rss.reta_size = 0;
}

/*
 * net_af_xdp: an XDP socket per queue pair, and no queue to spare, so
 * control sends through worker 0's (port.h); and enough mbufs for the
 * fill rings, with as much again to receive and send with (with fewer,
 * the lab's ARP went unanswered).
 */
static int xdp_setup(struct port *p, uint32_t mbufs, uint16_t nq, char *err, size_t errlen)
{
	char name[RTE_RING_NAMESIZE];

	if (mbufs < (uint32_t)(nq + 2) * PORT_XDP_FILL) {
		snprintf(err, errlen,
			 "port %s: mbufs %u is too few for net_af_xdp, which keeps %u of "
			 "them in the kernel's fill ring per queue: %u queue(s) need "
			 "mbufs >= %u",
			 p->name, mbufs, PORT_XDP_FILL, nq, (nq + 2) * PORT_XDP_FILL);
		return -ENOMEM;
	}
	snprintf(name, sizeof(name), "ctltx%u", p->v.id);
	p->v.ctl_tx = rte_ring_create(name, PORT_CTL_TX_RING, rte_socket_id(), RING_F_SC_DEQ);
	if (!p->v.ctl_tx) {
		snprintf(err, errlen, "port %s: no control ring (%s)", p->name,
			 rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}

struct pool_span {
	uintptr_t lo, hi;
	size_t len;
	bool first_lowest;
};

static void pool_chunk(struct rte_mempool *mp, void *arg, struct rte_mempool_memhdr *h,
		       unsigned idx)
{
	struct pool_span *s = arg;
	uintptr_t a = (uintptr_t)h->addr;

	if (idx == 0 || a < s->lo)
		s->lo = a;
	if (idx == 0 || a + h->len > s->hi)
		s->hi = a + h->len;
	if (idx == 0)
		s->first_lowest = true;
	else if (a < (uintptr_t)STAILQ_FIRST(&mp->mem_list)->addr)
		s->first_lowest = false;
	s->len += h->len;
}

/*
 * net_af_xdp registers a pool as its UMEM from the pool's first piece of
 * memory on, as one run of addresses: true when the pieces make one.
 */
static bool pool_in_one_piece(struct rte_mempool *mp)
{
	struct pool_span s = {0};

	rte_mempool_mem_iter(mp, pool_chunk, &s);
	return s.first_lowest && s.hi - s.lo == s.len;
}

/*
 * A port's pool of n mbufs. Without hugepages the heap is 4 KiB pages,
 * and DPDK keeps each mbuf within one: a 2.3 KiB mbuf takes a whole page,
 * and a start-up touches every one of them (on a virtual machine each
 * first touch of a page is dear: 0.55 s of the default config's 1 s
 * start). A packed pool (port_pool_packed) lets the mbufs follow each
 * other across pages: 40 % less memory and fewer pages to touch. Its
 * mbufs have no IOVA-contiguous buffer, which its drivers never ask for.
 */
static struct rte_mempool *port_pool(const char *name, uint32_t n, bool packed, int socket)
{
	struct rte_pktmbuf_pool_private priv = {
	    .mbuf_data_room_size = RTE_MBUF_DEFAULT_BUF_SIZE,
	};
	struct rte_mempool *mp;
	int rc;

	if (!packed || rte_eal_has_hugepages())
		return rte_pktmbuf_pool_create(name, n, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, socket);
	/* rte_pktmbuf_pool_create()'s steps, with the flag it does not take */
	mp = rte_mempool_create_empty(name, n, sizeof(struct rte_mbuf) + RTE_MBUF_DEFAULT_BUF_SIZE,
				      256, sizeof(priv), socket, RTE_MEMPOOL_F_NO_IOVA_CONTIG);
	if (!mp)
		return NULL;
	rc = rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), NULL);
	if (rc == 0) {
		rte_pktmbuf_pool_init(mp, &priv);
		rc = rte_mempool_populate_default(mp);
	}
	if (rc < 0) {
		rte_mempool_free(mp);
		rte_errno = -rc; /* the caller's message reads it */
		return NULL;
	}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
}

/* nq worker queues; control's TX queue nq, and RX queue nq when ctl_rxq. */
static int port_setup(struct port *p, uint32_t mbufs, bool packed, uint16_t nq, char *err,
		      size_t errlen)
{
	uint16_t nrxq, ntxq = nq + 1;
	struct rte_eth_conf conf = {0};
	struct rte_eth_dev_info info;
	char name[RTE_MEMPOOL_NAMESIZE];
	int rc;

	rc = rte_eth_dev_info_get(p->v.id, &info);
	if (rc) {
		snprintf(err, errlen, "port %s: no device info (%s)", p->name, strerror(-rc));
		return rc;
	}
	snprintf(p->driver, sizeof(p->driver), "%s", info.driver_name);
	/* net_af_packet fans received frames over every socket it has, one
	 * per queue pair: the control queue pair's RX side receives too */
	p->v.ctl_rxq = strcmp(info.driver_name, "net_af_packet") == 0;
	nrxq = p->v.ctl_rxq ? nq + 1 : nq;
	if (strcmp(info.driver_name, "net_af_xdp") == 0) {
		rc = xdp_setup(p, mbufs, nq, err, errlen);
		if (rc)
			return rc;
		ntxq = nq;
	}
	if (nrxq > info.max_rx_queues || ntxq > info.max_tx_queues) {
		snprintf(err, errlen, "port %s: %u queues wanted, driver %s has %u", p->name, ntxq,
			 info.driver_name, FG_MIN(info.max_rx_queues, info.max_tx_queues));
		return -EINVAL;
	}
	rss_conf(p, &info, nq, &conf);
	snprintf(name, sizeof(name), "pool%u", p->v.id);
	p->v.pool = port_pool(name, mbufs, packed, rte_eth_dev_socket_id(p->v.id));
	if (!p->v.pool) {
		snprintf(err, errlen, "port %s: cannot allocate %u mbufs (%s)", p->name, mbufs,
			 rte_strerror(rte_errno));
		return -ENOMEM;
	}
	if (p->v.ctl_tx && !pool_in_one_piece(p->v.pool)) {
		snprintf(err, errlen,
			 "port %s: cannot allocate the mbuf pool in one piece of memory, which "
			 "net_af_xdp takes for its UMEM (it lies in %u): fewer mbufs, or --no-huge",
			 p->name, p->v.pool->nb_mem_chunks);
		return -ENOMEM;
	}
	rc = rte_eth_dev_configure(p->v.id, nrxq, ntxq, &conf);
	if (rc && conf.rx_adv_conf.rss_conf.rss_key) {
		/* a driver that refuses our key: its own, and no port choice */
		conf.rx_adv_conf.rss_conf.rss_key = NULL;
		conf.rx_adv_conf.rss_conf.rss_key_len = 0;
		p->rss.key_len = 0;
		rc = rte_eth_dev_configure(p->v.id, nrxq, ntxq, &conf);
	}
	if (rc) {
		snprintf(err, errlen, "port %s: configure failed (%s)", p->name, strerror(-rc));
		return rc;
	}
	uint16_t nrx = PORT_RX_DESC, ntx = PORT_TX_DESC;

	rte_eth_dev_adjust_nb_rx_tx_desc(p->v.id, &nrx, &ntx);
	for (uint16_t q = 0; q < ntxq && rc == 0; q++) {
		if (q < nrxq)
			rc = rte_eth_rx_queue_setup(p->v.id, q, nrx, rte_eth_dev_socket_id(p->v.id),
						    NULL, p->v.pool);
		if (rc == 0)
			rc = rte_eth_tx_queue_setup(p->v.id, q, ntx, rte_eth_dev_socket_id(p->v.id),
						    NULL);
	}
	if (rc) {
		snprintf(err, errlen, "port %s: queue setup failed (%s)", p->name, strerror(-rc));
		return rc;
	}
	rte_eth_promiscuous_enable(p->v.id);
	rc = rte_eth_dev_start(p->v.id);
	if (rc) {
		snprintf(err, errlen, "port %s: start failed (%s)", p->name, strerror(-rc));
		return rc;
	}
	rss_reta(p, &info, nq);
	/* Ring ports have no address: give them a locally administered one. */
	if (rte_eth_macaddr_get(p->v.id, &p->v.mac) != 0 || rte_is_zero_ether_addr(&p->v.mac)) {
		p->v.mac = (struct rte_ether_addr){{0x02, 0x46, 0x47, 0x00, 0x00, p->v.id + 1}};
		rte_eth_dev_default_mac_addr_set(p->v.id, &p->v.mac);
	}
	return 0;
}

int port_init_all(const struct cfg *c, uint16_t nq, char *err, size_t errlen)
{
	uint16_t ids[FG_MAX_PORTS];
	size_t n = c->n_interfaces;
	int rc;

	/* Map config interfaces to DPDK port ids, in config order. */
	for (size_t i = 0; i < n; i++) {
		const struct cfg_iface *f = &c->ifs[i];
		if (f->kind == CFG_IF_LOOP) {
			if (i % 2 == 0) {
				rc = loop_pair(i, nq, &ids[i], &ids[i + 1]);
				if (rc) {
					snprintf(err, errlen, "loop ports %zu/%zu: %s", i, i + 1,
						 rte_strerror(-rc));
					return rc;
				}
			}
			continue;
		}
		if (f->kind == CFG_IF_VDEV) {
			char dev[64];
			size_t l = strcspn(f->spec, ",");

			snprintf(dev, sizeof(dev), "%.*s", (int)l, f->spec);
			if (rte_eth_dev_get_port_by_name(dev, &ids[i]) != 0) {
				snprintf(err, errlen, "interface %zu (%s): no such DPDK port", i,
					 f->spec);
				return -ENODEV;
			}
		} else {
			if (rte_eth_dev_get_port_by_name(f->spec, &ids[i]) != 0) {
				char full[sizeof("0000:") + FG_CFG_IF_SPEC_LEN];

				snprintf(full, sizeof(full), "0000:%s", f->spec);
				if (rte_eth_dev_get_port_by_name(full, &ids[i]) != 0) {
					snprintf(err, errlen,
						 "interface %zu (%s): no DPDK port (is it bound to "
						 "vfio-pci?)",
						 i, f->spec);
					return -ENODEV;
				}
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct port *p = &fg_port[i];
		const struct cfg_port_info *pi = cfg_port_info(c, i);

		memset(p, 0, sizeof(*p));
		p->v.id = ids[i];
		/* a longer spec shows cut (p was zeroed: the name ends there) */
		memcpy(p->name, c->ifs[i].spec, strnlen(c->ifs[i].spec, sizeof(p->name) - 1));
		if (c->ifs[i].kind == CFG_IF_VDEV &&
		    (is_af_packet(c->ifs[i].spec) || is_af_xdp(c->ifs[i].spec)))
			vdev_arg(c->ifs[i].spec, "iface", p->kiface, sizeof(p->kiface));
		rc = port_setup(p, c->mbufs, port_pool_packed(&c->ifs[i]), nq, err, errlen);
		if (rc)
			return rc;
		p->nqueues = nq;
		fg_nports = i + 1;
		if (pi) {
			p->v.ip = pi->has_ip ? pi->ip : 0;
			p->gw = pi->has_default_gw ? pi->default_gw : 0;
			p->v.has_ip6 = pi->has_ipv6;
			memcpy(p->v.ip6, pi->ipv6, 16);
			p->has_gw6 = pi->has_default_gw6;
			memcpy(p->gw6, pi->default_gw6, 16);
			p->v.vlan = pi->vlan;
			if (pi->has_src_mac)
				memcpy(p->v.mac.addr_bytes, pi->src_mac, 6);
			if (pi->has_dest_mac) {
				struct rte_ether_addr m;

				memcpy(m.addr_bytes, pi->dest_mac, 6);
				p->gw_mac = port_mac_word(&m) | PORT_MAC_KNOWN;
				p->static_gw_mac = true;
			}
		}
		p->v.nhosts = 0;
		for (size_t h = 0; h < c->n_hosts; h++)
			if (c->hosts[h].port == i && p->v.nhosts < PORT_MAX_HOSTS) {
				p->v.hosts[p->v.nhosts].lo = c->hosts[h].lo;
				p->v.hosts[p->v.nhosts].hi = c->hosts[h].hi;
				p->v.nhosts++;
			}
		p->ncfg_hosts = p->v.nhosts;
	}
	/* Wait up to 3 s for every link. */
	uint64_t end = rte_get_timer_cycles() + 3 * rte_get_timer_hz();

	for (;;) {
		bool all = true;

		for (int i = 0; i < fg_nports; i++)
			all &= port_link(i, NULL);
		if (all || rte_get_timer_cycles() > end)
			break;
		rte_delay_ms(50);
	}
	return 0;
}

void port_close_all(void)
{
	for (int i = 0; i < fg_nports; i++) {
		rte_eth_dev_stop(fg_port[i].v.id);
		rte_eth_dev_close(fg_port[i].v.id);
		rte_ring_free(fg_port[i].v.ctl_tx);
		fg_port[i].v.ctl_tx = NULL;
	}
	fg_nports = 0;
}

uint32_t port_frame_max(void)
{
	/* the pools' data room (RTE_MBUF_DEFAULT_BUF_SIZE less the headroom
	 * a VLAN tag is pushed into) plus the FCS the NIC adds */
	return RTE_MBUF_DEFAULT_DATAROOM + 4;
}

int port_dpdk_id(int p)
{
	if (p < 0 || p >= fg_nports || !rte_eth_dev_is_valid_port(fg_port[p].v.id))
		return -1;
	return fg_port[p].v.id;
}

int port_nic_stats(int p, struct rte_eth_stats *es)
{
	int id = port_dpdk_id(p);

	return id < 0 ? -ENODEV : rte_eth_stats_get((uint16_t)id, es);
}

/* net_af_packet and net_af_xdp report their link as always up: ask the kernel. */
static bool kernel_carrier(const char *iface)
{
	char path[96], c = '0';
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", iface);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fread(&c, 1, 1, f) != 1)
		c = '0';
	fclose(f);
	return c == '1';
}

bool port_link(int p, uint32_t *speed_mbps)
{
	struct rte_eth_link l;

	if (rte_eth_link_get_nowait(fg_port[p].v.id, &l) != 0)
		return false;
	if (fg_port[p].kiface[0] && !kernel_carrier(fg_port[p].kiface))
		l.link_status = RTE_ETH_LINK_DOWN;
	if (speed_mbps)
		*speed_mbps = l.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ? 0 : l.link_speed;
	return l.link_status == RTE_ETH_LINK_UP;
}

bool port_mempool(int p, struct stats_pool *m)
{
	const struct rte_mempool *mp = p >= 0 && p < fg_nports ? fg_port[p].v.pool : NULL;
	uint64_t cached = 0;

	memset(m, 0, sizeof(*m));
	if (!mp)
		return false;
	snprintf(m->name, sizeof(m->name), "%s", mp->name);
	m->cache_size = mp->cache_size;
	m->size = mp->size;
	/* one reading: in use is size - available, as
	 * rte_mempool_in_use_count computes it, so the two add up */
	m->avail = rte_mempool_avail_count(mp);
	m->in_use = m->size - m->avail;
	if (mp->cache_size)
		for (unsigned l = 0; l < RTE_MAX_LCORE; l++)
			cached += __atomic_load_n(&mp->local_cache[l].len, __ATOMIC_RELAXED);
	m->cached = FG_MIN(cached, m->avail);
	m->ok = true;
	return true;
}

int port_set_hosts6(int pi, const struct port_host6_range *r, size_t n)
{
	struct port *p = &fg_port[pi];

	if (n > PORT_MAX_HOSTS)
		return -ENOSPC;
	/* shrink first, so no worker reads a range while it is rewritten */
	__atomic_store_n(&p->v.nhosts6, 0, __ATOMIC_RELEASE);
	for (size_t i = 0; i < n; i++)
		p->v.hosts6[i] = r[i];
	__atomic_store_n(&p->v.nhosts6, (uint32_t)n, __ATOMIC_RELEASE);
	return 0;
}

int port_set_hosts(int pi, const struct port_host_range *extra, size_t n)
{
	struct port *p = &fg_port[pi];

	if (p->ncfg_hosts + n > PORT_MAX_HOSTS)
		return -ENOSPC;
	/* shrink first, so no worker reads a range while it is rewritten */
	__atomic_store_n(&p->v.nhosts, p->ncfg_hosts, __ATOMIC_RELEASE);
	for (size_t i = 0; i < n; i++)
		p->v.hosts[p->ncfg_hosts + i] = extra[i];
	__atomic_store_n(&p->v.nhosts, p->ncfg_hosts + (uint32_t)n, __ATOMIC_RELEASE);
	return 0;
}
