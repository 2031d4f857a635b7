/*
 * cfg.h — the platform config (SPEC §3), compatible with TRex's
 * /etc/trex_cfg.yaml: either the one-element list TRex writes or a plain
 * map. Keys flowgen does not use (port_limit, prefix, memory, ...) produce
 * warnings, never errors. The result is plain data: no DPDK calls here.
 *
 * Context: cfg_load and cfg_free are *control* (they read a file and
 * allocate); cfg_port_info and cfg_if_kind_name are *pure*.
 */
#ifndef FG_CFG_H
#define FG_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fg.h"

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

/* Emulated hosts (SPEC §5.4): port answers ARP/ICMP for every address in lo..hi. */
struct cfg_host_range {
	uint32_t port;
	uint32_t lo, hi; /* host byte order, lo <= hi */
};

struct cfg {
	char *file; /* the path it was loaded from */
	int version;
	char **interfaces; /* raw strings as written */
	size_t n_interfaces;
	struct cfg_iface ifs[FG_MAX_PORTS]; /* parsed, n_interfaces of them */
	struct cfg_port_info *port_info;    /* may be shorter than interfaces */
	size_t n_port_info;
	struct cfg_platform platform;
	char **eal; /* extra EAL arguments */
	size_t n_eal;
	uint32_t mbufs;	    /* per port */
	uint32_t flows_max; /* flow-table entries per worker */
	struct cfg_host_range *hosts;
	size_t n_hosts;
	char **warnings; /* "FILE:LINE: warning: ..." */
	size_t n_warnings;
};

/* The yamlu table of one `hosts:` entry, shared with profiles (prof.c). */
struct yamlu_schema;
extern const struct yamlu_schema cfg_host_schema;

/*
 * control: loads and validates `path`. 0, or a negative errno with err set to
 * "FILE:LINE:COL: what is wrong" (or "FILE: reason" if it cannot be read).
 * On failure *c holds nothing to free; on success call cfg_free().
 */
int cfg_load(const char *path, struct cfg *c, char *err, size_t errlen);

/* control: the same from memory (tests, fuzzing); name is used in messages. */
int cfg_load_buf(const char *name, const void *buf, size_t len, struct cfg *c, char *err,
		 size_t errlen);

/* control: frees everything cfg_load allocated; safe on a zeroed struct. */
void cfg_free(struct cfg *c);

/* pure: the port_info of `port`, or NULL when the file gives none. */
const struct cfg_port_info *cfg_port_info(const struct cfg *c, unsigned port);

/* pure: "pci", "vdev", "loop" or "?". */
const char *cfg_if_kind_name(enum cfg_if_kind k);

#endif
