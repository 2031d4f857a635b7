/*
 * cfg.c — the platform config of SPEC §3 as yamlu tables, plus the checks
 * that span keys: ports come in pairs, no more than FG_MAX_PORTS of them,
 * port_info no longer than interfaces, `loop` not mixed with real ports,
 * host ranges on existing ports. TRex files carry many keys flowgen has no
 * use for; they become warnings so that an unchanged trex_cfg.yaml loads.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "yamlu.h"

const char *const cfg_if_kind_names[CFG_IF_KIND_COUNT] = {
    [CFG_IF_PCI] = "pci",
    [CFG_IF_VDEV] = "vdev",
    [CFG_IF_LOOP] = "loop",
};

const char *cfg_if_kind_name(enum cfg_if_kind k)
{
	if (k < CFG_IF_PCI || k > CFG_IF_LOOP)
		return "?";
	return cfg_if_kind_names[k];
}

const struct cfg_port_info *cfg_port_info(const struct cfg *c, unsigned port)
{
	if (port >= c->n_port_info)
		return NULL;
	return &c->port_info[port];
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
    {0},
};
static const struct yamlu_schema port_info_schema = {"a port_info entry", port_info_fields};

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
     .help = "mbufs per port"},
    {.key = "flows_max",
     .type = YAMLU_UINT32,
     .off = offsetof(struct cfg, flows_max),
     .min = FG_CFG_FLOWS_MIN,
     .max = FG_CFG_FLOWS_MAX,
     .help = "flow entries per worker"},
    {.key = "hosts",
     .type = YAMLU_LIST_MAP,
     .off = offsetof(struct cfg, hosts),
     .cnt_off = offsetof(struct cfg, n_hosts),
     .elem_size = sizeof(struct cfg_host_range),
     .sub = &cfg_host_schema,
     .max_n = 256,
     .help = "emulated hosts per port"},
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

static int parse_ifaces(struct yamlu_ctx *y, yaml_node_t *list, struct cfg *c)
{
	size_t i, nloop = 0;

	for (i = 0; i < c->n_interfaces; i++) {
		const char *s = c->interfaces[i];
		struct cfg_iface *ifc = &c->ifs[i];
		yaml_node_t *n = yamlu_item(y, list, i);

		if (!strcmp(s, "loop")) {
			ifc->kind = CFG_IF_LOOP;
			nloop++;
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
		if (nloop && nloop != i + 1)
			return yamlu_errf(y, n, "'loop' cannot be mixed with other interfaces");
	}
	if (c->n_interfaces % 2)
		return yamlu_errf(y, list, "'interfaces' has %zu entries: ports come in pairs",
				  c->n_interfaces);
	return 0;
}

static int cfg_check(struct yamlu_ctx *y, yaml_node_t *map, void *obj)
{
	struct cfg *c = obj;
	yaml_node_t *n;
	size_t i;
	int rc;

	rc = parse_ifaces(y, yamlu_get(y, map, "interfaces"), c);
	if (rc)
		return rc;
	if (c->n_port_info > c->n_interfaces)
		return yamlu_errf(y, yamlu_get(y, map, "port_info"),
				  "'port_info' has %zu entries for %zu interfaces", c->n_port_info,
				  c->n_interfaces);
	n = yamlu_get(y, map, "hosts");
	for (i = 0; i < c->n_hosts; i++) {
		if (c->hosts[i].port >= c->n_interfaces)
			return yamlu_errf(y, yamlu_get(y, yamlu_item(y, n, i), "port"),
					  "hosts port %u does not exist (%zu interfaces)",
					  c->hosts[i].port, c->n_interfaces);
	}
	n = yamlu_get(y, map, "platform");
	if (n && c->platform.n_dual_if > c->n_interfaces / 2)
		return yamlu_errf(y, yamlu_get(y, n, "dual_if"),
				  "'dual_if' has %zu entries for %zu port pairs",
				  c->platform.n_dual_if, c->n_interfaces / 2);
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
