/*
 * cfg.c — the platform config (flowgen(8), PLATFORM CONFIG) as yamlu tables,
 * plus the checks that span keys: ports come in pairs, no more than
 * FG_MAX_PORTS of them, `loop` not mixed with real ports, host ranges on
 * existing ports. A trex_cfg.yaml loads unchanged, read the way TRex reads
 * it: port_limit keeps the first N interfaces (port_info and dual_if entries
 * beyond them are dropped with a note), a repeated key keeps its last value,
 * and TRex's keys either map onto flowgen's settings (c, prefix,
 * limit_memory, memory, mbuf_factor, ext_dpdk_opt) or are accepted without
 * effect; flowgen(8) has the table of them.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr6.h"
#include "cfg.h"
#include "units.h"
#include "yamlu.h"

/*
 * A TRex key flowgen accepts without effect: any value, nothing stored
 * (flowgen(8) says why, key by key).
 */
static int trex_quiet(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst)
{
	(void)y, (void)f, (void)n, (void)dst;
	return 0;
}

/* The same for a key whose absence changes the traffic: say so. */
static int trex_warn(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst)
{
	(void)dst;
	yamlu_warnf(y, n, "'%s' has no effect: %s", f->key, f->help);
	return 0;
}

/*
 * port_info `ipv6`, `default_gw6`: one unicast IPv6 address (not ::, not
 * multicast), stored as on the wire.
 */
static int parse_ipv6(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst)
{
	static const uint8_t any[16];
	const char *s = yamlu_str(n);
	uint8_t a[16];

	if (!s || yamlu_is_null(n))
		return yamlu_errf(y, n, "'%s' must be an IPv6 address", f->key);
	if (!addr6_parse(s, a))
		return yamlu_errf(y, n, "'%s' '%s' is not an IPv6 address", f->key, s);
	if (!memcmp(a, any, 16) || a[0] == 0xff)
		return yamlu_errf(y, n, "'%s' %s is not a unicast address", f->key, s);
	memcpy(dst, a, 16);
	return 0;
}

/* Neighbour Solicitations for default_gw6 leave from the port's ipv6. */
static int check_port_info(struct yamlu_ctx *y, yaml_node_t *map, void *obj)
{
	const struct cfg_port_info *pi = obj;

	if (pi->has_default_gw6 && !pi->has_ipv6)
		return yamlu_errf(y, yamlu_get(y, map, "default_gw6"),
				  "'default_gw6' needs the port's own 'ipv6' (the source of Neighbour "
				  "Solicitations)");
	if (pi->has_default_gw6 && !memcmp(pi->ipv6, pi->default_gw6, 16))
		return yamlu_errf(y, yamlu_get(y, map, "default_gw6"),
				  "'default_gw6' is the port's own 'ipv6'");
	return 0;
}

static const struct yamlu_field port_info_fields[] = {
    {.key = "ip",
     .type = YAMLU_IPV4,
     .off = offsetof(struct cfg_port_info, ip),
     .has = YAMLU_HAS(struct cfg_port_info, has_ip),
     .help = "this port's own address"},
    {.key = "default_gw",
     .type = YAMLU_IPV4,
     .off = offsetof(struct cfg_port_info, default_gw),
     .has = YAMLU_HAS(struct cfg_port_info, has_default_gw),
     .help = "next hop, resolved by arp"},
    {.key = "dest_mac",
     .type = YAMLU_MAC,
     .off = offsetof(struct cfg_port_info, dest_mac),
     .has = YAMLU_HAS(struct cfg_port_info, has_dest_mac),
     .help = "static next-hop MAC"},
    {.key = "src_mac",
     .type = YAMLU_MAC,
     .off = offsetof(struct cfg_port_info, src_mac),
     .has = YAMLU_HAS(struct cfg_port_info, has_src_mac),
     .help = "source MAC (default: port's)"},
    {.key = "ipv6",
     .type = YAMLU_CUSTOM,
     .parse = parse_ipv6,
     .off = offsetof(struct cfg_port_info, ipv6),
     .has = YAMLU_HAS(struct cfg_port_info, has_ipv6),
     .help = "this port's own IPv6 address (answers Neighbour Solicitations)"},
    {.key = "default_gw6",
     .type = YAMLU_CUSTOM,
     .parse = parse_ipv6,
     .off = offsetof(struct cfg_port_info, default_gw6),
     .has = YAMLU_HAS(struct cfg_port_info, has_default_gw6),
     .help = "IPv6 next hop, resolved by Neighbour Discovery in arp"},
    {.key = "vlan",
     .type = YAMLU_INT,
     .off = offsetof(struct cfg_port_info, vlan),
     .min = 1,
     .max = 4094,
     .help = "802.1Q id: every frame sent is tagged"},
    {.key = "mask", .type = YAMLU_CUSTOM, .parse = trex_quiet, .help = "no subnet is used"},
    {0},
};
static const struct yamlu_schema port_info_schema = {"a port_info entry", port_info_fields,
						     .check = check_port_info};

static const struct yamlu_field dual_if_fields[] = {
    {.key = "socket",
     .type = YAMLU_INT,
     .off = offsetof(struct cfg_dual_if, socket),
     .min = 0,
     .max = 63,
     .help = "NUMA socket of the port pair"},
    {.key = "threads",
     .type = YAMLU_LIST,
     .elem = YAMLU_INT,
     .off = offsetof(struct cfg_dual_if, threads),
     .cnt_off = offsetof(struct cfg_dual_if, n_threads),
     .min = 0,
     .max = 1023,
     .max_n = 1024,
     .help = "lcores serving the pair"},
    {0},
};
static const struct yamlu_schema dual_if_schema = {"a dual_if entry", dual_if_fields};

static const struct yamlu_field platform_fields[] = {
    {.key = "master_thread_id",
     .type = YAMLU_INT,
     .off = offsetof(struct cfg_platform, master_thread_id),
     .min = 0,
     .max = 1023,
     .help = "main lcore"},
    {.key = "latency_thread_id",
     .type = YAMLU_INT,
     .off = offsetof(struct cfg_platform, latency_thread_id),
     .min = 0,
     .max = 1023,
     .help = "lcore for latency/service work"},
    {.key = "rx_thread_id", /* TRex's later name for latency_thread_id */
     .type = YAMLU_INT,
     .off = offsetof(struct cfg_platform, latency_thread_id),
     .min = 0,
     .max = 1023,
     .help = "lcore for latency/service work"},
    {.key = "dual_if",
     .type = YAMLU_LIST_MAP,
     .off = offsetof(struct cfg_platform, dual_if),
     .cnt_off = offsetof(struct cfg_platform, n_dual_if),
     .elem_size = sizeof(struct cfg_dual_if),
     .sub = &dual_if_schema,
     .max_n = FG_MAX_PORTS / 2,
     .help = "lcores per port pair"},
    {0},
};
static const struct yamlu_schema platform_schema = {"platform", platform_fields};

static const struct yamlu_field host_fields[] = {
    {.key = "port",
     .type = YAMLU_UINT32,
     .off = offsetof(struct cfg_host_range, port),
     .min = 0,
     .max = FG_MAX_PORTS - 1,
     .flags = YAMLU_F_REQUIRED,
     .help = "port answering for the range"},
    {.key = "range",
     .type = YAMLU_IPV4_RANGE,
     .off = offsetof(struct cfg_host_range, lo),
     .max = FG_CFG_HOSTS_MAX_PER_RANGE,
     .flags = YAMLU_F_REQUIRED,
     .help = "[first, last] address"},
    {0},
};
/* Shared with prof.c: `hosts:` has the same shape in a profile. */
const struct yamlu_schema cfg_host_schema = {"a hosts entry", host_fields};

#define TREX_MBUF(name, arr, i)                                                                    \
	{                                                                                          \
		.key = name, .type = YAMLU_UINT32,                                                 \
		.off = offsetof(struct cfg_trex_memory, arr[i]),                                   \
		.help = "packet buffers of TRex's pool of this size"                               \
	}
static const struct yamlu_field memory_fields[] = {
    TREX_MBUF("mbuf_64", mbuf, 0),
    TREX_MBUF("mbuf_128", mbuf, 1),
    TREX_MBUF("mbuf_256", mbuf, 2),
    TREX_MBUF("mbuf_512", mbuf, 3),
    TREX_MBUF("mbuf_1024", mbuf, 4),
    TREX_MBUF("mbuf_2048", mbuf, 5),
    TREX_MBUF("traffic_mbuf_64", traffic_mbuf, 0),
    TREX_MBUF("traffic_mbuf_128", traffic_mbuf, 1),
    TREX_MBUF("traffic_mbuf_256", traffic_mbuf, 2),
    TREX_MBUF("traffic_mbuf_512", traffic_mbuf, 3),
    TREX_MBUF("traffic_mbuf_1024", traffic_mbuf, 4),
    TREX_MBUF("traffic_mbuf_2048", traffic_mbuf, 5),
    {.key = "mbuf_4096", .type = YAMLU_CUSTOM, .parse = trex_quiet, .help = "no jumbo buffers"},
    {.key = "mbuf_9k", .type = YAMLU_CUSTOM, .parse = trex_quiet, .help = "no jumbo buffers"},
    {.key = "traffic_mbuf_4096",
     .type = YAMLU_CUSTOM,
     .parse = trex_quiet,
     .help = "no jumbo buffers"},
    {.key = "traffic_mbuf_9k",
     .type = YAMLU_CUSTOM,
     .parse = trex_quiet,
     .help = "no jumbo buffers"},
    {.key = "dp_flows",
     .type = YAMLU_UINT32,
     .off = offsetof(struct cfg_trex_memory, dp_flows),
     .min = FG_CFG_FLOWS_MIN,
     .max = FG_CFG_FLOWS_MAX,
     .has = YAMLU_HAS(struct cfg_trex_memory, has_dp_flows),
     .help = "flow entries per worker (flows_max)"},
    {.key = "global_flows",
     .type = YAMLU_CUSTOM,
     .parse = trex_quiet,
     .help = "no shared flow table"},
    {0},
};
#undef TREX_MBUF
static const struct yamlu_schema memory_schema = {"memory", memory_fields};

/* TRex's prefix becomes a DPDK file prefix: a plain name, no path. */
static int parse_prefix(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst)
{
	const struct yamlu_field sf = {
	    .key = f->key, .type = YAMLU_STRING, .max = FG_CFG_PREFIX_LEN};
	char **p = dst;
	int rc = yamlu_scalar(y, &sf, n, dst);

	if (rc)
		return rc;
	if (!**p)
		return yamlu_errf(y, n, "'prefix' is empty");
	for (const char *c = *p; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-' && *c != '.')
			return yamlu_errf(y, n,
					  "'prefix' '%s' may hold only letters, digits, '_', '-' "
					  "and '.'",
					  *p);
	return 0;
}

static void release_string(void *dst)
{
	free(*(char **)dst);
	*(char **)dst = NULL;
}

/* limit_memory: MB, one number (every NUMA node) or "N,N,..." (one per node). */
static int parse_limit_memory(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n,
			      void *dst)
{
	struct cfg_mem_limit *m = dst, v = {0};
	const char *s = yamlu_str(n), *p;

	if (!s || yamlu_is_null(n))
		return yamlu_errf(y, n, "'%s' must be MB, a number or a list N,N,... per NUMA node",
				  f->key);
	for (p = s;;) {
		char *end;
		unsigned long mb;

		if (!isdigit((unsigned char)*p))
			break;
		mb = strtoul(p, &end, 10);
		if (mb < 1 || mb > FG_CFG_MEM_MAX_MB)
			return yamlu_errf(y, n, "'%s' %s: each value must be 1..%u MB", f->key, s,
					  FG_CFG_MEM_MAX_MB);
		if (v.n == FG_CFG_MEM_NODES)
			return yamlu_errf(y, n, "'%s' %s: at most %d NUMA nodes", f->key, s,
					  FG_CFG_MEM_NODES);
		v.mb[v.n++] = (uint32_t)mb;
		p = end;
		if (!*p) {
			*m = v;
			return 0;
		}
		if (*p++ != ',')
			break;
	}
	return yamlu_errf(
	    y, n, "'%s' must be MB, a number or a list N,N,... per NUMA node, got '%s'", f->key, s);
}

/*
 * A time of `neighbour` as whole milliseconds (a uint32_t) within the
 * row's min..max ms: "30s", "500ms", "1.5s"; a plain number is seconds,
 * as everywhere durations are written (units.h).
 */
static int parse_ms(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst)
{
	const char *s = yamlu_str(n);
	char e[128];
	double sec, ms;

	if (!s || yamlu_is_null(n) || units_parse_duration(s, &sec, e, sizeof(e)) != 0)
		return yamlu_errf(y, n, "'%s' must be a time such as 30s or 500ms, got '%s'", f->key,
				  s ? s : "");
	ms = round(sec * 1000);
	if (ms < (double)f->min || ms > (double)f->max)
		return yamlu_errf(y, n, "'%s' %s: it must be %" PRId64 " ms to %" PRId64 " s",
				  f->key, s, f->min, f->max / 1000);
	*(uint32_t *)dst = (uint32_t)ms;
	return 0;
}

/* `neighbour`: Linux's neighbour settings of the same names (nud.h). */
static const struct yamlu_field neigh_fields[] = {
    {.key = "reachable_time",
     .type = YAMLU_CUSTOM,
     .parse = parse_ms,
     .off = offsetof(struct nud_params, reachable_ms),
     .min = NUD_REACHABLE_MS_MIN,
     .max = NUD_REACHABLE_MS_MAX,
     .help = "a next hop is reachable this long after a confirmation (30s)"},
    {.key = "delay_first_probe_time",
     .type = YAMLU_CUSTOM,
     .parse = parse_ms,
     .off = offsetof(struct nud_params, delay_ms),
     .min = 0,
     .max = NUD_DELAY_MS_MAX,
     .help = "then, once sent to, probed this much later (5s)"},
    {.key = "retrans_time",
     .type = YAMLU_CUSTOM,
     .parse = parse_ms,
     .off = offsetof(struct nud_params, retrans_ms),
     .min = NUD_RETRANS_MS_MIN,
     .max = NUD_RETRANS_MS_MAX,
     .help = "between two probes (1s)"},
    {.key = "ucast_solicit",
     .type = YAMLU_UINT32,
     .off = offsetof(struct nud_params, ucast),
     .min = 0,
     .max = NUD_SOLICIT_MAX,
     .help = "unicast probes to the cached MAC (3)"},
    {.key = "mcast_solicit",
     .type = YAMLU_UINT32,
     .off = offsetof(struct nud_params, mcast),
     .min = 0,
     .max = NUD_SOLICIT_MAX,
     .help = "then broadcast / multicast ones (3)"},
    {0},
};
static const struct yamlu_schema neigh_schema = {"neighbour", neigh_fields};

static const struct yamlu_field cfg_fields[] = {
    {.key = "version",
     .type = YAMLU_INT,
     .off = offsetof(struct cfg, version),
     .min = 1,
     .max = 2,
     .help = "TRex config version (2)"},
    {.key = "interfaces",
     .type = YAMLU_LIST,
     .elem = YAMLU_STRING,
     .off = offsetof(struct cfg, interfaces),
     .cnt_off = offsetof(struct cfg, n_interfaces),
     .max = FG_CFG_IF_SPEC_LEN - 1,
     .max_n = FG_MAX_PORTS,
     .min_n = 1,
     .flags = YAMLU_F_REQUIRED,
     .help = "PCI addresses, --vdev=... or loop"},
    {.key = "port_info",
     .type = YAMLU_LIST_MAP,
     .off = offsetof(struct cfg, port_info),
     .cnt_off = offsetof(struct cfg, n_port_info),
     .elem_size = sizeof(struct cfg_port_info),
     .sub = &port_info_schema,
     .max_n = FG_MAX_PORTS,
     .help = "per-port addresses"},
    {.key = "platform",
     .type = YAMLU_MAP,
     .off = offsetof(struct cfg, platform),
     .sub = &platform_schema,
     .help = "lcore placement"},
    {.key = "eal",
     .type = YAMLU_LIST,
     .elem = YAMLU_STRING,
     .off = offsetof(struct cfg, eal),
     .cnt_off = offsetof(struct cfg, n_eal),
     .max_n = 64,
     .help = "extra EAL arguments"},
    {.key = "mbufs",
     .type = YAMLU_UINT32,
     .off = offsetof(struct cfg, mbufs),
     .min = FG_CFG_MBUFS_MIN,
     .max = FG_CFG_MBUFS_MAX,
     .has = YAMLU_HAS(struct cfg, has_mbufs),
     .help = "mbufs per port"},
    {.key = "flows_max",
     .type = YAMLU_UINT32,
     .off = offsetof(struct cfg, flows_max),
     .min = FG_CFG_FLOWS_MIN,
     .max = FG_CFG_FLOWS_MAX,
     .has = YAMLU_HAS(struct cfg, has_flows_max),
     .help = "flow entries per worker"},
    {.key = "hosts",
     .type = YAMLU_LIST_MAP,
     .off = offsetof(struct cfg, hosts),
     .cnt_off = offsetof(struct cfg, n_hosts),
     .elem_size = sizeof(struct cfg_host_range),
     .sub = &cfg_host_schema,
     .max_n = 256,
     .help = "emulated hosts per port"},
    {.key = "neighbour",
     .type = YAMLU_MAP,
     .off = offsetof(struct cfg, neigh),
     .sub = &neigh_schema,
     .help = "the next hops' unreachability detection"},
    /* TRex's keys that mean something here (flowgen(8), TRex keys) */
    {.key = "port_limit",
     .type = YAMLU_UINT32,
     .off = offsetof(struct cfg, port_limit),
     .min = 1,
     .max = FG_MAX_PORTS,
     .help = "use the first N interfaces"},
    {.key = "c",
     .type = YAMLU_INT,
     .off = offsetof(struct cfg, workers),
     .min = 1,
     .max = FG_MAX_WORKERS,
     .help = "workers per port pair unless -c"},
    {.key = "prefix",
     .type = YAMLU_CUSTOM,
     .off = offsetof(struct cfg, prefix),
     .parse = parse_prefix,
     .release = release_string,
     .help = "EAL --file-prefix"},
    {.key = "limit_memory",
     .type = YAMLU_CUSTOM,
     .off = offsetof(struct cfg, limit_memory),
     .parse = parse_limit_memory,
     .help = "EAL memory limit, MB"},
    {.key = "memory",
     .type = YAMLU_MAP,
     .off = offsetof(struct cfg, memory),
     .sub = &memory_schema,
     .help = "mbufs and flows_max"},
    {.key = "mbuf_factor",
     .type = YAMLU_DOUBLE,
     .off = offsetof(struct cfg, mbuf_factor),
     .flags = YAMLU_F_GT0,
     .dmax = 1000,
     .help = "scales the mbufs"},
    {.key = "ext_dpdk_opt",
     .type = YAMLU_LIST,
     .elem = YAMLU_STRING,
     .off = offsetof(struct cfg, ext_dpdk_opt),
     .cnt_off = offsetof(struct cfg, n_ext_dpdk_opt),
     .max_n = 64,
     .help = "extra EAL arguments, after eal"},
    /* TRex's keys without effect here; flowgen(8) says why for each */
    {.key = "port_bandwidth_gb", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "enable_zmq_pub", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "zmq_pub_port", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "zmq_rpc_port", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "telnet_port", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "stack", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "rx_desc", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "tx_desc", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "new_memory", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "low_end", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "low_end_core", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "interfaces_vdevs", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "tw", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "scan_only_1g", .type = YAMLU_CUSTOM, .parse = trex_quiet},
    {.key = "interface_mask",
     .type = YAMLU_CUSTOM,
     .parse = trex_warn,
     .help = "TRex itself no longer uses it"},
    {0},
};

/* "07:00.0" or "0000:07:00.0" (hex digits). */
static bool is_pci(const char *s)
{
	static const char pat[] = "xx:xx.x";
	size_t i, len = strlen(s);

	if (len == 12) {
		for (i = 0; i < 4; i++)
			if (!isxdigit((unsigned char)s[i]))
				return false;
		if (s[4] != ':')
			return false;
		s += 5;
		len -= 5;
	}
	if (len != 7)
		return false;
	for (i = 0; i < 7; i++) {
		if (pat[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != pat[i])
			return false;
	}
	return true;
}

/*
 * Every listed interface must be well formed; the pairing rules apply to
 * the `used` first ones, the ports flowgen opens.
 */
static int parse_ifaces(struct yamlu_ctx *y, yaml_node_t *list, struct cfg *c, size_t used)
{
	size_t i, nloop = 0;

	for (i = 0; i < c->n_interfaces; i++) {
		const char *s = c->interfaces[i];
		struct cfg_iface *ifc = &c->ifs[i];
		yaml_node_t *n = yamlu_item(y, list, i);

		if (!strcmp(s, "loop")) {
			ifc->kind = CFG_IF_LOOP;
			nloop += i < used;
		} else if (!strncmp(s, "--vdev=", 7) && s[7]) {
			ifc->kind = CFG_IF_VDEV;
			s += 7;
		} else if (is_pci(s)) {
			ifc->kind = CFG_IF_PCI;
		} else {
			return yamlu_errf(y, n,
					  "interface '%s' is not a PCI address (07:00.0), "
					  "--vdev=NAME,ARGS or loop",
					  s);
		}
		strcpy(ifc->spec, s); /* length checked by the table (max) */
		if (i < used && nloop && nloop != i + 1)
			return yamlu_errf(y, n, "'loop' cannot be mixed with other interfaces");
	}
	if (used % 2)
		return yamlu_errf(y, list, "'interfaces' has %zu entries: ports come in pairs",
				  used);
	return 0;
}

/* port_limit: only the first N interfaces are ports; the rest are dropped. */
static int apply_port_limit(struct yamlu_ctx *y, yaml_node_t *map, struct cfg *c, size_t *used)
{
	yaml_node_t *n = yamlu_get(y, map, "port_limit");

	c->n_listed = c->n_interfaces;
	*used = c->n_interfaces;
	if (!c->port_limit)
		return 0;
	if (c->port_limit > c->n_listed)
		return yamlu_errf(y, n, "'port_limit' %u is more than the %zu interfaces listed",
				  c->port_limit, c->n_listed);
	if (c->port_limit % 2)
		return yamlu_errf(y, n, "'port_limit' %u: ports come in pairs", c->port_limit);
	*used = c->port_limit;
	return 0;
}

static void drop_interfaces(struct cfg *c, size_t used)
{
	for (size_t i = used; i < c->n_interfaces; i++) {
		free(c->interfaces[i]);
		c->interfaces[i] = NULL;
		memset(&c->ifs[i], 0, sizeof(c->ifs[i]));
	}
	c->n_interfaces = used;
}

/* The note for list `key` at node n: entries first..total are not used. */
static void note_unused(struct yamlu_ctx *y, yaml_node_t *n, const char *key, size_t total,
			size_t used, const char *what)
{
	char which[64]; /* "entries " and two 20-digit numbers */

	if (total == used + 1)
		snprintf(which, sizeof(which), "entry %zu is", total);
	else
		snprintf(which, sizeof(which), "entries %zu..%zu are", used + 1, total);
	yamlu_notef(y, n, "'%s' has %zu entries for %zu %s%s: %s ignored", key, total, used, what,
		    used == 1 ? "" : "s", which);
}

/* port_info and dual_if entries beyond the ports used: dropped, with a note. */
static void drop_extra_entries(struct yamlu_ctx *y, yaml_node_t *map, struct cfg *c)
{
	size_t used = c->n_interfaces, i;
	yaml_node_t *plat = yamlu_get(y, map, "platform");

	if (c->n_port_info > used) {
		note_unused(y, yamlu_get_key(y, map, "port_info"), "port_info", c->n_port_info,
			    used, "port");
		c->n_port_info = used;
	}
	if (c->platform.n_dual_if > used / 2) {
		note_unused(y, yamlu_get_key(y, plat, "dual_if"), "dual_if", c->platform.n_dual_if,
			    used / 2, "port pair");
		for (i = used / 2; i < c->platform.n_dual_if; i++) {
			free(c->platform.dual_if[i].threads);
			c->platform.dual_if[i].threads = NULL;
			c->platform.dual_if[i].n_threads = 0;
		}
		c->platform.n_dual_if = used / 2;
	}
}

/* ext_dpdk_opt goes after eal: one list of extra EAL arguments. */
static int merge_ext_dpdk_opt(struct yamlu_ctx *y, yaml_node_t *map, struct cfg *c)
{
	char **e;

	if (!c->n_ext_dpdk_opt)
		return 0;
	e = realloc(c->eal, (c->n_eal + c->n_ext_dpdk_opt) * sizeof(*e));
	if (!e)
		return yamlu_errf(y, yamlu_get(y, map, "ext_dpdk_opt"), "out of memory");
	memcpy(e + c->n_eal, c->ext_dpdk_opt, c->n_ext_dpdk_opt * sizeof(*e));
	c->eal = e;
	c->n_eal += c->n_ext_dpdk_opt;
	free(c->ext_dpdk_opt);
	c->ext_dpdk_opt = NULL;
	c->n_ext_dpdk_opt = 0;
	return 0;
}

/*
 * flows_max and mbufs from TRex's memory section (and mbuf_factor) unless
 * flowgen's own keys give them. TRex sizes one pool per buffer size and per
 * port pair; flowgen has one pool of 2 KB buffers per port, which holds what
 * TRex's pools of 64 to 2048 bytes hold: their sum, halved.
 */
static void derive_sizes(struct yamlu_ctx *y, yaml_node_t *map, struct cfg *c)
{
	yaml_node_t *mem = yamlu_get(y, map, "memory");
	uint64_t sum = 0;
	double m;
	int i;

	c->flows_from = c->has_flows_max ? "flows_max" : "default";
	if (c->memory.has_dp_flows) {
		if (c->has_flows_max) {
			yamlu_notef(y, yamlu_get_key(y, mem, "dp_flows"),
				    "'dp_flows' ignored: flows_max is given");
		} else {
			c->flows_max = c->memory.dp_flows;
			c->flows_from = "memory.dp_flows";
		}
	}
	c->mbufs_from = c->has_mbufs ? "mbufs" : "default";
	for (i = 0; i < FG_CFG_TREX_MBUF_SIZES; i++)
		sum += (uint64_t)c->memory.mbuf[i] + c->memory.traffic_mbuf[i];
	if (c->has_mbufs) {
		if (sum)
			yamlu_notef(y, yamlu_get_key(y, map, "memory"),
				    "the mbuf sizes of 'memory' are ignored: mbufs is given");
		if (c->mbuf_factor > 0)
			yamlu_notef(y, yamlu_get_key(y, map, "mbuf_factor"),
				    "'mbuf_factor' ignored: mbufs is given");
		return;
	}
	m = sum ? (double)sum / 2 : c->mbufs;
	if (sum)
		c->mbufs_from = "memory";
	if (c->mbuf_factor > 0) {
		m *= c->mbuf_factor;
		c->mbufs_from = sum ? "memory, mbuf_factor" : "default, mbuf_factor";
	}
	m = ceil(m);
	if (m < FG_CFG_MBUFS_MIN || m > FG_CFG_MBUFS_MAX) {
		uint32_t v = m < FG_CFG_MBUFS_MIN ? FG_CFG_MBUFS_MIN : FG_CFG_MBUFS_MAX;

		yamlu_notef(y, yamlu_get_key(y, map, sum ? "memory" : "mbuf_factor"),
			    "%.0f mbufs per port is out of range %u..%u: %u used", m,
			    FG_CFG_MBUFS_MIN, FG_CFG_MBUFS_MAX, v);
		m = v;
	}
	c->mbufs = (uint32_t)m;
}

static int cfg_check(struct yamlu_ctx *y, yaml_node_t *map, void *obj)
{
	struct cfg *c = obj;
	yaml_node_t *n;
	size_t i, used;
	int rc;

	rc = apply_port_limit(y, map, c, &used);
	if (!rc)
		rc = parse_ifaces(y, yamlu_get(y, map, "interfaces"), c, used);
	if (rc)
		return rc;
	drop_interfaces(c, used);
	drop_extra_entries(y, map, c);
	n = yamlu_get(y, map, "hosts");
	for (i = 0; i < c->n_hosts; i++) {
		if (c->hosts[i].port >= c->n_interfaces)
			return yamlu_errf(y, yamlu_get(y, yamlu_item(y, n, i), "port"),
					  "hosts port %u does not exist (%zu ports)",
					  c->hosts[i].port, c->n_interfaces);
	}
	rc = merge_ext_dpdk_opt(y, map, c);
	if (rc)
		return rc;
	derive_sizes(y, map, c);
	return 0;
}

static const struct yamlu_schema cfg_schema = {"the config", cfg_fields, NULL, cfg_check};

void cfg_free(struct cfg *c)
{
	size_t i;

	yamlu_free(&cfg_schema, c);
	for (i = 0; i < c->n_warnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	free(c->file);
	memset(c, 0, sizeof(*c));
}

static void cfg_defaults(struct cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->version = 2;
	c->platform.master_thread_id = -1;
	c->platform.latency_thread_id = -1;
	c->mbufs = FG_CFG_MBUFS_DEFAULT;
	c->flows_max = FG_CFG_FLOWS_DEFAULT;
	nud_params_default(&c->neigh);
}

/* The TRex shape is a list holding one map; a plain map is accepted too. */
static int cfg_walk(struct yamlu_ctx *y, struct cfg *c)
{
	yaml_node_t *root = yamlu_root(y);

	if (!root)
		return yamlu_errf(y, NULL, "empty config");
	if (root->type == YAML_SEQUENCE_NODE) {
		if (yamlu_len(root) != 1)
			return yamlu_errf(y, root,
					  "expected one config map (a list of %zu entries given)",
					  yamlu_len(root));
		root = yamlu_item(y, root, 0);
	}
	y->dup_last = true; /* as TRex reads its config: the last value counts */
	return yamlu_walk(y, root, &cfg_schema, c);
}

static int cfg_finish(struct yamlu_ctx *y, int rc, const char *name, struct cfg *c)
{
	if (!rc) {
		c->file = strdup(name);
		if (!c->file)
			rc = yamlu_errf(y, NULL, "out of memory");
	}
	if (rc) {
		yamlu_close(y);
		cfg_free(c);
		return rc;
	}
	yamlu_take_warnings(y, &c->warnings, &c->n_warnings);
	yamlu_close(y);
	return 0;
}

int cfg_load(const char *path, struct cfg *c, char *err, size_t errlen)
{
	struct yamlu_ctx y;
	int rc;

	cfg_defaults(c);
	rc = yamlu_load(&y, path, err, errlen);
	if (!rc)
		rc = cfg_walk(&y, c);
	return cfg_finish(&y, rc, path, c);
}

int cfg_load_buf(const char *name, const void *buf, size_t len, struct cfg *c, char *err,
		 size_t errlen)
{
	struct yamlu_ctx y;
	int rc;

	cfg_defaults(c);
	rc = yamlu_load_buf(&y, name, buf, len, err, errlen);
	if (!rc)
		rc = cfg_walk(&y, c);
	return cfg_finish(&y, rc, name, c);
}
