/*
 * cfg_data.h — the platform config as cfg_load leaves it (struct cfg and
 * its parts, the limits of its keys) and the look-ups on a loaded config
 * (cfg_data.c). Loading and freeing a config are in cfg.h.
 *
 * Context: pure (plain data; each function reads only the config it is
 * given).
 *
 * Included by: config, control and console.
 */
#ifndef FG_CFG_DATA_H
#define FG_CFG_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fg.h"
#include "nud.h"

#define FG_CFG_MBUFS_DEFAULT 65536u
#define FG_CFG_MBUFS_MIN 1024u
#define FG_CFG_MBUFS_MAX (16u << 20)
#define FG_CFG_FLOWS_DEFAULT 1048576u
#define FG_CFG_FLOWS_MIN 16u
#define FG_CFG_FLOWS_MAX (64u << 20)
/* Most addresses one `hosts` entry may emulate. */
#define FG_CFG_HOSTS_MAX_PER_RANGE (1u << 20)
/* Longest interface spec ("net_af_packet0,iface=fg0", "0000:07:00.0"). */
#define FG_CFG_IF_SPEC_LEN 256
/* Longest TRex `prefix` (DPDK file prefix). */
#define FG_CFG_PREFIX_LEN 64
/* Most NUMA nodes a `limit_memory` list may name. */
#define FG_CFG_MEM_NODES 8
/* Largest `limit_memory` value, MB per node. */
#define FG_CFG_MEM_MAX_MB (1u << 22)
/* TRex's memory pools that flowgen's 2 KB buffers stand for: 64 .. 2048. */
#define FG_CFG_TREX_MBUF_SIZES 6

enum cfg_if_kind {
	CFG_IF_PCI = 1, /* "07:00.0" or "0000:07:00.0" */
	CFG_IF_VDEV,	/* "--vdev=net_af_packet0,iface=fg0"; spec drops "--vdev=" */
	CFG_IF_LOOP,	/* "loop": in-memory back-to-back pair */
};
#define CFG_IF_KIND_COUNT (CFG_IF_LOOP + 1)
extern const char *const cfg_if_kind_names[CFG_IF_KIND_COUNT];

struct cfg_iface {
	enum cfg_if_kind kind;
	char spec[FG_CFG_IF_SPEC_LEN];
};

struct cfg_port_info {
	uint32_t ip, default_gw; /* host byte order */
	bool has_ip, has_default_gw;
	uint8_t dest_mac[6], src_mac[6];
	bool has_dest_mac, has_src_mac;
	uint8_t ipv6[16], default_gw6[16]; /* network order, as on the wire */
	bool has_ipv6, has_default_gw6;
	int vlan;			   /* 802.1Q id 1-4094; 0 = untagged */
};

struct cfg_dual_if {
	int socket;
	int *threads;
	size_t n_threads;
};

struct cfg_platform {
	int master_thread_id;  /* -1: unset */
	int latency_thread_id; /* -1: unset */
	struct cfg_dual_if *dual_if;
	size_t n_dual_if;
};

/* Emulated hosts (flowgen(8), `hosts`): port answers ARP/ICMP for every address in lo..hi. */
struct cfg_host_range {
	uint32_t port;
	uint32_t lo, hi; /* host byte order, lo <= hi */
};

/* TRex's `memory:` section (its pool sizes are per port pair). */
struct cfg_trex_memory {
	uint32_t mbuf[FG_CFG_TREX_MBUF_SIZES];	       /* mbuf_64 .. mbuf_2048 */
	uint32_t traffic_mbuf[FG_CFG_TREX_MBUF_SIZES]; /* traffic_mbuf_64 .. _2048 */
	uint32_t dp_flows;			       /* flow objects per data-plane core */
	bool has_dp_flows;
};

/* TRex's `limit_memory`: MB for every NUMA node (n == 1) or one per node. */
struct cfg_mem_limit {
	uint32_t mb[FG_CFG_MEM_NODES];
	size_t n; /* 0: not given */
};

struct cfg {
	char *file; /* the path it was loaded from */
	int version;
	char **interfaces;		    /* raw strings as written, the ports used only */
	size_t n_interfaces;		    /* ports used: port_limit, else all listed */
	size_t n_listed;		    /* interfaces listed in the file */
	uint32_t port_limit;		    /* TRex port_limit; 0: not given */
	struct cfg_iface ifs[FG_MAX_PORTS]; /* parsed, n_interfaces of them */
	struct cfg_port_info *port_info;    /* may be shorter than interfaces */
	size_t n_port_info;
	struct cfg_platform platform;
	char **eal; /* extra EAL arguments (eal, then TRex's ext_dpdk_opt) */
	size_t n_eal;
	char **ext_dpdk_opt; /* moved into eal once loaded */
	size_t n_ext_dpdk_opt;
	uint32_t mbufs;	    /* per port */
	uint32_t flows_max; /* flow-table entries per worker */
	bool has_mbufs, has_flows_max;
	const char *mbufs_from, *flows_from; /* the key each came from, or "default" */
	int workers;			     /* TRex `c`: workers per port pair; 0: not given */
	char *prefix;			     /* TRex `prefix`: EAL --file-prefix; NULL: none */
	struct cfg_mem_limit limit_memory;   /* TRex `limit_memory` */
	struct cfg_trex_memory memory;	     /* TRex `memory:` */
	double mbuf_factor;		     /* TRex `mbuf_factor`; 0: not given */
	struct cfg_host_range *hosts;
	size_t n_hosts;
	/* `neighbour`: the next hops' unreachability detection (nud.h),
	 * Linux's defaults where a key is not given */
	struct nud_params neigh;
	char **warnings; /* "FILE:LINE: warning: ..." and "FILE:LINE: note: ..." */
	size_t n_warnings;
};

/* pure: the port_info of `port`, or NULL when the file gives none. */
const struct cfg_port_info *cfg_port_info(const struct cfg *c, unsigned port);

/* pure: "pci", "vdev", "loop" or "?". */
const char *cfg_if_kind_name(enum cfg_if_kind k);

#endif
