/*
 * test_cfg.c — the platform config: a trex_cfg.yaml as TRex's
 * dpdk_setup_ports.py writes it loads unchanged, flowgen's extensions and
 * defaults, TRex's keys read as the table of TRex keys in flowgen(8) says
 * (port_limit, repeated keys, prefix, limit_memory, c, memory, mbuf_factor,
 * ext_dpdk_opt, keys without effect), unknown-key warnings, and every bad
 * file of test/data/cfg_*.yaml fails with exactly the FILE:LINE:COL message
 * written on its first line ("# error: " followed by what comes after the
 * file name).
 */
#include <errno.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cfg.h"

#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

static const char *data_dir(void)
{
	const char *d = getenv("FG_TEST_DATA");

	return d ? d : "test/data";
}

static void test_trex_cfg(void **state)
{
	static const uint8_t mac0[6] = {0x52, 0x54, 0x00, 0x51, 0xbd, 0x1e};
	char path[512], err[FG_ERRLEN] = "";
	const struct cfg_port_info *pi;
	struct cfg c;
	size_t i;

	(void)state;
	snprintf(path, sizeof(path), "%s/trex_cfg.yaml", data_dir());
	assert_int_equal(cfg_load(path, &c, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_string_equal(c.file, path);
	assert_int_equal(c.version, 2);
	assert_int_equal(c.n_interfaces, 2);
	assert_int_equal(c.ifs[0].kind, CFG_IF_PCI);
	assert_string_equal(c.ifs[0].spec, "07:00.0");
	assert_string_equal(c.ifs[1].spec, "08:00.0");
	pi = cfg_port_info(&c, 0);
	assert_non_null(pi);
	assert_true(pi->has_ip && pi->has_default_gw && pi->has_dest_mac && !pi->has_src_mac);
	assert_int_equal(pi->ip, IP(198, 18, 1, 2));
	assert_int_equal(pi->default_gw, IP(198, 18, 1, 1));
	assert_memory_equal(pi->dest_mac, mac0, 6);
	assert_int_equal(cfg_port_info(&c, 1)->ip, IP(198, 19, 1, 2));
	assert_null(cfg_port_info(&c, 2));
	assert_int_equal(c.platform.master_thread_id, 0);
	assert_int_equal(c.platform.latency_thread_id, 1);
	assert_int_equal(c.platform.n_dual_if, 1);
	assert_int_equal(c.platform.dual_if[0].socket, 0);
	assert_int_equal(c.platform.dual_if[0].n_threads, 30);
	for (i = 0; i < 30; i++)
		assert_int_equal(c.platform.dual_if[0].threads[i], (int)i + 2);
	assert_int_equal(c.mbufs, FG_CFG_MBUFS_DEFAULT);
	assert_int_equal(c.flows_max, FG_CFG_FLOWS_DEFAULT);
	assert_string_equal(c.mbufs_from, "default");
	assert_string_equal(c.flows_from, "default");
	assert_int_equal(c.port_limit, 2);
	assert_int_equal(c.n_listed, 2);
	assert_int_equal(c.workers, 0);
	assert_null(c.prefix);
	assert_int_equal(c.limit_memory.n, 0);
	assert_int_equal(c.n_warnings, 0); /* port_limit is TRex's, no longer unknown */
	cfg_free(&c);
	assert_null(c.file);
}

static void test_plain_map_extensions(void **state)
{
	static const char yaml[] =
	    "# a plain map, vdev ports, every flowgen extension\n"
	    "version: 2\n"
	    "interfaces: ['--vdev=net_af_packet0,iface=fg0', '--vdev=net_af_packet1,iface=fg1',\n"
	    "             '0000:3b:00.0', '3b:00.1']\n"
	    "port_info:\n"
	    "  - src_mac: [0x00,0x0c,0x29,0x2a,0x99,0xb2]\n"
	    "    dest_mac: 0A-0B-0C-0D-0E-0F\n"
	    "  - ip: 198.19.1.2\n"
	    "eal: ['--in-memory', '--no-pci']\n"
	    "mbufs: 16384\n"
	    "flows_max: 4096\n"
	    "hosts:\n"
	    "  - {port: 0, range: [198.18.0.1, 198.18.9.196]}\n"
	    "  - port: 3\n"
	    "    range: [198.19.0.1, 198.19.0.1]\n";
	static const uint8_t src[6] = {0x00, 0x0c, 0x29, 0x2a, 0x99, 0xb2};
	static const uint8_t dst[6] = {0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
	char err[FG_ERRLEN];
	struct cfg c;

	(void)state;
	assert_int_equal(cfg_load_buf("mem.yaml", yaml, strlen(yaml), &c, err, sizeof(err)), 0);
	assert_int_equal(c.n_interfaces, 4);
	assert_int_equal(c.ifs[0].kind, CFG_IF_VDEV);
	assert_string_equal(c.ifs[0].spec, "net_af_packet0,iface=fg0");
	assert_string_equal(cfg_if_kind_name(c.ifs[1].kind), "vdev");
	assert_int_equal(c.ifs[2].kind, CFG_IF_PCI);
	assert_string_equal(c.ifs[2].spec, "0000:3b:00.0");
	assert_int_equal(c.n_port_info, 2);
	assert_true(c.port_info[0].has_src_mac && c.port_info[0].has_dest_mac);
	assert_false(c.port_info[0].has_ip);
	assert_memory_equal(c.port_info[0].src_mac, src, 6);
	assert_memory_equal(c.port_info[0].dest_mac, dst, 6);
	assert_true(c.port_info[1].has_ip && !c.port_info[1].has_default_gw);
	assert_null(cfg_port_info(&c, 3)); /* no port_info entry: allowed */
	assert_int_equal(c.n_eal, 2);
	assert_string_equal(c.eal[1], "--no-pci");
	assert_int_equal(c.mbufs, 16384);
	assert_int_equal(c.flows_max, 4096);
	assert_int_equal(c.n_hosts, 2);
	assert_int_equal(c.hosts[0].lo, IP(198, 18, 0, 1));
	assert_int_equal(c.hosts[0].hi - c.hosts[0].lo + 1, 2500);
	assert_int_equal(c.hosts[1].port, 3);
	assert_int_equal(c.hosts[1].lo, c.hosts[1].hi);
	assert_int_equal(c.platform.master_thread_id, -1);
	assert_int_equal(c.platform.latency_thread_id, -1);
	assert_int_equal(c.n_warnings, 0);
	cfg_free(&c);
}

static void test_loop_and_trex_keys(void **state)
{
	static const char yaml[] = "- port_limit: 2\n"
				   "  version: 2\n"
				   "  interfaces: [loop, loop]\n"
				   "  c: 4\n"
				   "  low_end: true\n"
				   "  prefix: trex1\n"
				   "  limit_memory: 1024\n"
				   "  port_bandwidth_gb: 10\n"
				   "  rx_desc: 1024\n"
				   "  tx_desc: 1024\n"
				   "  memory:\n"
				   "    mbuf_64: 16380\n"
				   "  platform:\n"
				   "    master_thread_id: 0\n"
				   "    zmq: 1\n";
	char err[FG_ERRLEN];
	struct cfg c;

	(void)state;
	assert_int_equal(cfg_load_buf("t.yaml", yaml, strlen(yaml), &c, err, sizeof(err)), 0);
	assert_int_equal(c.ifs[0].kind, CFG_IF_LOOP);
	assert_int_equal(c.ifs[1].kind, CFG_IF_LOOP);
	assert_int_equal(c.port_limit, 2);
	assert_int_equal(c.workers, 4);
	assert_string_equal(c.prefix, "trex1");
	assert_int_equal(c.limit_memory.n, 1);
	assert_int_equal(c.limit_memory.mb[0], 1024);
	assert_int_equal(c.mbufs, 8190); /* TRex's pools are per port pair */
	assert_string_equal(c.mbufs_from, "memory");
	/* Only a key that is not TRex's warns. */
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0], "t.yaml:15: warning: unknown key 'zmq' ignored");
	assert_int_equal(c.platform.master_thread_id, 0);
	cfg_free(&c);
}

/* Loads `yaml`, expecting success; the warnings are checked by the caller. */
static void load_ok(const char *yaml, struct cfg *c)
{
	char err[FG_ERRLEN] = "";

	if (cfg_load_buf("t.yaml", yaml, strlen(yaml), c, err, sizeof(err)))
		fail_msg("%s", err);
}

static void load_err(const char *yaml, const char *want)
{
	char err[FG_ERRLEN] = "";
	struct cfg c;

	assert_int_equal(cfg_load_buf("t.yaml", yaml, strlen(yaml), &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, want);
	assert_null(c.interfaces);
}

/* port_limit keeps the first N interfaces; longer port_info and dual_if are noted. */
static void test_port_limit(void **state)
{
	static const char yaml[] = "- port_limit: 2\n"
				   "  version: 2\n"
				   "  interfaces: ['03:00.0', '03:00.1', '13:00.1', '13:00.0']\n"
				   "  port_info:\n"
				   "    - ip: 198.18.1.2\n"
				   "    - ip: 198.19.1.2\n"
				   "    - ip: 198.20.1.2\n"
				   "    - ip: 198.21.1.2\n"
				   "  platform:\n"
				   "    master_thread_id: 0\n"
				   "    dual_if:\n"
				   "      - socket: 0\n"
				   "        threads: [1, 2]\n"
				   "      - socket: 1\n"
				   "        threads: [3, 4]\n"
				   "  hosts:\n"
				   "    - {port: 1, range: [198.19.0.1, 198.19.0.9]}\n";
	struct cfg c;

	(void)state;
	load_ok(yaml, &c);
	assert_int_equal(c.n_listed, 4);
	assert_int_equal(c.n_interfaces, 2);
	assert_string_equal(c.interfaces[1], "03:00.1");
	assert_string_equal(c.ifs[1].spec, "03:00.1");
	assert_int_equal(c.n_port_info, 2);
	assert_int_equal(c.port_info[1].ip, IP(198, 19, 1, 2));
	assert_null(cfg_port_info(&c, 2));
	assert_int_equal(c.platform.n_dual_if, 1);
	assert_int_equal(c.platform.dual_if[0].n_threads, 2);
	assert_int_equal(c.n_warnings, 2);
	assert_string_equal(c.warnings[0],
			    "t.yaml:4: note: 'port_info' has 4 entries for 2 ports: entries 3..4 "
			    "are ignored");
	assert_string_equal(c.warnings[1],
			    "t.yaml:11: note: 'dual_if' has 2 entries for 1 port pair: entry 2 is "
			    "ignored");
	cfg_free(&c);

	/* Without port_limit, port_info may still be longer than the ports. */
	load_ok("interfaces: [loop, loop]\n"
		"port_info: [{ip: 198.18.1.2}, {ip: 198.19.1.2}, {ip: 198.20.1.2}]\n",
		&c);
	assert_int_equal(c.n_interfaces, 2);
	assert_int_equal(c.port_limit, 0);
	assert_int_equal(c.n_port_info, 2);
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0], "t.yaml:2: note: 'port_info' has 3 entries for 2 ports: "
					   "entry 3 is ignored");
	cfg_free(&c);

	/* The rules of pairs apply to the ports used; the rest need only be well formed. */
	load_ok("port_limit: 2\ninterfaces: [loop, loop, '03:00.0']\n", &c);
	assert_int_equal(c.n_interfaces, 2);
	assert_int_equal(c.n_listed, 3);
	cfg_free(&c);
	load_err(
	    "port_limit: 2\ninterfaces: [loop, loop, 'eth0']\n",
	    "t.yaml:2:26: interface 'eth0' is not a PCI address (07:00.0), --vdev=NAME,ARGS or "
	    "loop");
	load_err("port_limit: 2\ninterfaces: [loop, loop, loop, loop]\n"
		 "hosts: [{port: 2, range: [198.18.0.1, 198.18.0.1]}]\n",
		 "t.yaml:3:16: hosts port 2 does not exist (2 ports)");
}

/* A repeated key: the last value counts, a warning names both lines. */
static void test_repeated_keys(void **state)
{
	static const char yaml[] = "- version: 2\n"
				   "  interfaces: [loop, loop]\n"
				   "  port_info:\n"
				   "  mbufs: 4096\n"
				   "  port_info:\n"
				   "    - ip: 198.18.1.2\n"
				   "      ip: 198.18.1.3\n"
				   "    - ip: 198.19.1.2\n"
				   "  mbufs: 8192\n"
				   "  mbufs: 2048\n";
	struct cfg c;

	(void)state;
	load_ok(yaml, &c);
	assert_int_equal(c.n_port_info, 2);
	assert_int_equal(c.port_info[0].ip, IP(198, 18, 1, 3));
	assert_int_equal(c.mbufs, 2048);
	assert_string_equal(c.mbufs_from, "mbufs");
	assert_int_equal(c.n_warnings, 4);
	assert_string_equal(c.warnings[0],
			    "t.yaml:5: warning: duplicate key 'port_info' (also at line 3): the "
			    "last one counts");
	assert_string_equal(c.warnings[1],
			    "t.yaml:7: warning: duplicate key 'ip' (also at line 6): the last one "
			    "counts");
	assert_string_equal(
	    c.warnings[2],
	    "t.yaml:9: warning: duplicate key 'mbufs' (also at line 4): the last one "
	    "counts");
	assert_string_equal(c.warnings[3],
			    "t.yaml:10: warning: duplicate key 'mbufs' (also at line 9): the last "
			    "one counts");
	cfg_free(&c);

	/* An earlier value is not read: a wrong one there is no error ... */
	load_ok("interfaces: [loop, loop]\nflows_max: 1\nflows_max: 4096\n", &c);
	assert_int_equal(c.flows_max, 4096);
	cfg_free(&c);
	/* ... but a wrong last one is, and other YAML errors stay errors. */
	load_err("interfaces: [loop, loop]\nflows_max: 4096\nflows_max: 1\n",
		 "t.yaml:3:12: 'flows_max' 1 is out of range 16..67108864");
	load_err("interfaces: [loop, loop]\nport_info: [\n",
		 "t.yaml:3:1: did not find expected node content while parsing a flow node");
}

/* prefix, limit_memory and ext_dpdk_opt: what reaches the EAL. */
static void test_eal_keys(void **state)
{
	struct cfg c;

	(void)state;
	load_ok("- interfaces: [loop, loop]\n"
		"  prefix: setup-1.a_b\n"
		"  limit_memory: '1024,2048'\n"
		"  eal: ['--in-memory']\n"
		"  ext_dpdk_opt: ['--no-telemetry', '--log-level=3']\n",
		&c);
	assert_string_equal(c.prefix, "setup-1.a_b");
	assert_int_equal(c.limit_memory.n, 2);
	assert_int_equal(c.limit_memory.mb[0], 1024);
	assert_int_equal(c.limit_memory.mb[1], 2048);
	assert_int_equal(c.n_eal, 3);
	assert_string_equal(c.eal[0], "--in-memory");
	assert_string_equal(c.eal[1], "--no-telemetry");
	assert_string_equal(c.eal[2], "--log-level=3");
	assert_null(c.ext_dpdk_opt);
	assert_int_equal(c.n_warnings, 0);
	cfg_free(&c);

	load_ok("interfaces: [loop, loop]\nlimit_memory: 512\next_dpdk_opt: ['--no-pci']\n", &c);
	assert_int_equal(c.limit_memory.n, 1);
	assert_int_equal(c.limit_memory.mb[0], 512);
	assert_int_equal(c.n_eal, 1);
	assert_string_equal(c.eal[0], "--no-pci");
	cfg_free(&c);

	load_err(
	    "interfaces: [loop, loop]\nlimit_memory: [1024]\n",
	    "t.yaml:2:15: 'limit_memory' must be MB, a number or a list N,N,... per NUMA node");
	load_err(
	    "interfaces: [loop, loop]\nlimit_memory: '1024,'\n",
	    "t.yaml:2:15: 'limit_memory' must be MB, a number or a list N,N,... per NUMA node, "
	    "got '1024,'");
	load_err("interfaces: [loop, loop]\nlimit_memory: 1,2,3,4,5,6,7,8,9\n",
		 "t.yaml:2:15: 'limit_memory' 1,2,3,4,5,6,7,8,9: at most 8 NUMA nodes");
	load_err("interfaces: [loop, loop]\nprefix: a/b\n",
		 "t.yaml:2:9: 'prefix' 'a/b' may hold only letters, digits, '_', '-' and '.'");
	load_err("interfaces: [loop, loop]\nprefix: ''\n", "t.yaml:2:9: 'prefix' is empty");
}

/* c, memory.dp_flows, memory.mbuf_*, mbuf_factor, and flowgen's own keys first. */
static void test_sizes(void **state)
{
	struct cfg c;

	(void)state;
	load_ok("interfaces: [loop, loop]\n"
		"c: 3\n"
		"memory:\n"
		"  mbuf_64: 4096\n"
		"  mbuf_2048: 2048\n"
		"  traffic_mbuf_128: 1000\n"
		"  traffic_mbuf_1024: 1000\n"
		"  mbuf_4096: 128\n"
		"  mbuf_9k: 512\n"
		"  traffic_mbuf_9k: 512\n"
		"  dp_flows: 524288\n"
		"  global_flows: 10240\n",
		&c);
	assert_int_equal(c.workers, 3);
	assert_int_equal(c.flows_max, 524288);
	assert_string_equal(c.flows_from, "memory.dp_flows");
	assert_int_equal(c.mbufs, (4096 + 2048 + 1000 + 1000) / 2);
	assert_int_equal(c.n_warnings, 0);
	cfg_free(&c);

	/* mbuf_factor scales the mbufs of the memory section, or the default. */
	load_ok("interfaces: [loop, loop]\nmemory: {mbuf_64: 8192}\nmbuf_factor: 1.5\n", &c);
	assert_int_equal(c.mbufs, 6144);
	assert_string_equal(c.mbufs_from, "memory, mbuf_factor");
	cfg_free(&c);
	load_ok("interfaces: [loop, loop]\nmbuf_factor: 0.25\n", &c);
	assert_int_equal(c.mbufs, FG_CFG_MBUFS_DEFAULT / 4);
	assert_string_equal(c.mbufs_from, "default, mbuf_factor");
	cfg_free(&c);

	/* Out of flowgen's range: the nearest bound, with a note. */
	load_ok("interfaces: [loop, loop]\nmemory: {mbuf_64: 100}\n", &c);
	assert_int_equal(c.mbufs, FG_CFG_MBUFS_MIN);
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(
	    c.warnings[0], "t.yaml:2: note: 50 mbufs per port is out of range 1024..16777216: 1024 "
			   "used");
	cfg_free(&c);

	/* flowgen's mbufs and flows_max win over TRex's memory section. */
	load_ok("interfaces: [loop, loop]\n"
		"mbufs: 4096\n"
		"flows_max: 1024\n"
		"mbuf_factor: 2\n"
		"memory:\n"
		"  mbuf_64: 16380\n"
		"  dp_flows: 65536\n",
		&c);
	assert_int_equal(c.mbufs, 4096);
	assert_int_equal(c.flows_max, 1024);
	assert_string_equal(c.mbufs_from, "mbufs");
	assert_string_equal(c.flows_from, "flows_max");
	assert_int_equal(c.n_warnings, 3);
	assert_string_equal(c.warnings[0],
			    "t.yaml:7: note: 'dp_flows' ignored: flows_max is given");
	assert_string_equal(
	    c.warnings[1],
	    "t.yaml:5: note: the mbuf sizes of 'memory' are ignored: mbufs is given");
	assert_string_equal(c.warnings[2], "t.yaml:4: note: 'mbuf_factor' ignored: mbufs is given");
	cfg_free(&c);

	load_err("interfaces: [loop, loop]\nc: 0\n", "t.yaml:2:4: 'c' 0 is out of range 1..32");
	load_err("interfaces: [loop, loop]\nmbuf_factor: 0\n",
		 "t.yaml:2:14: 'mbuf_factor' must be > 0, got '0'");
	load_err("interfaces: [loop, loop]\nmemory: {mbuf_64: -1}\n",
		 "t.yaml:2:19: 'mbuf_64' -1 is out of range 0..4294967295");
}

/* port_info ipv6, default_gw6 and vlan (flowgen(8), PLATFORM CONFIG). */
static void test_ipv6_vlan(void **state)
{
	static const char yaml[] = "interfaces: [loop, loop]\n"
				   "port_info:\n"
				   "  - {ip: 198.18.1.2, ipv6: '2001:2::2', default_gw6: 2001:2::1, vlan: 100}\n"
				   "  - {ipv6: 2001:2:0:1::2, vlan: 4094}\n";
	const uint8_t gw[16] = {0x20, 0x01, 0, 2, [15] = 1};
	const uint8_t ip1[16] = {0x20, 0x01, 0, 2, 0, 0, 0, 1, [15] = 2};
	struct cfg c;

	(void)state;
	load_ok(yaml, &c);
	assert_true(c.port_info[0].has_ipv6);
	assert_true(c.port_info[0].has_default_gw6);
	assert_memory_equal(c.port_info[0].default_gw6, gw, 16);
	assert_int_equal(c.port_info[0].ipv6[15], 2);
	assert_int_equal(c.port_info[0].vlan, 100);
	assert_memory_equal(c.port_info[1].ipv6, ip1, 16);
	assert_false(c.port_info[1].has_default_gw6);
	assert_int_equal(c.port_info[1].vlan, 4094);
	assert_int_equal(c.n_warnings, 0);
	cfg_free(&c);
	load_err("interfaces: [loop, loop]\nport_info:\n  - {vlan: 4095}\n",
		 "t.yaml:3:12: 'vlan' 4095 is out of range 1..4094");
	load_err("interfaces: [loop, loop]\nport_info:\n  - {vlan: 0}\n",
		 "t.yaml:3:12: 'vlan' 0 is out of range 1..4094");
	load_err("interfaces: [loop, loop]\nport_info:\n  - {vlan: ten}\n",
		 "t.yaml:3:12: 'vlan' must be an integer, got 'ten'");
	load_err("interfaces: [loop, loop]\nport_info:\n  - {ipv6: 2001:zz::1}\n",
		 "t.yaml:3:12: 'ipv6' '2001:zz::1' is not an IPv6 address");
	load_err("interfaces: [loop, loop]\nport_info:\n  - {ipv6: 198.18.1.2}\n",
		 "t.yaml:3:12: 'ipv6' '198.18.1.2' is not an IPv6 address");
	load_err("interfaces: [loop, loop]\nport_info:\n  - {ipv6: 'ff02::1'}\n",
		 "t.yaml:3:12: 'ipv6' ff02::1 is not a unicast address");
	load_err("interfaces: [loop, loop]\nport_info:\n  - {ipv6: [1]}\n",
		 "t.yaml:3:12: 'ipv6' must be an IPv6 address");
	load_err("interfaces: [loop, loop]\nport_info:\n  - {default_gw6: 2001:2::1}\n",
		 "t.yaml:3:19: 'default_gw6' needs the port's own 'ipv6' (the source of Neighbour "
		 "Solicitations)");
	load_err("interfaces: [loop, loop]\nport_info:\n  - {ipv6: 2001:2::1, default_gw6: 2001:2::1}\n",
		 "t.yaml:3:36: 'default_gw6' is the port's own 'ipv6'");
}

/* `neighbour`: Linux's defaults, each key read as written, errors at the node. */
static void test_neighbour(void **state)
{
	static const char yaml[] = "interfaces: [loop, loop]\n"
				   "neighbour:\n"
				   "  reachable_time: 500ms\n"
				   "  delay_first_probe_time: 0\n"
				   "  retrans_time: 0.2\n"
				   "  ucast_solicit: 0\n"
				   "  mcast_solicit: 10\n";
	struct cfg c;

	(void)state;
	load_ok("interfaces: [loop, loop]\n", &c);
	assert_int_equal(c.neigh.reachable_ms, 30000);
	assert_int_equal(c.neigh.delay_ms, 5000);
	assert_int_equal(c.neigh.retrans_ms, 1000);
	assert_int_equal(c.neigh.ucast, 3);
	assert_int_equal(c.neigh.mcast, 3);
	cfg_free(&c);
	load_ok(yaml, &c);
	assert_int_equal(c.neigh.reachable_ms, 500);
	assert_int_equal(c.neigh.delay_ms, 0);
	assert_int_equal(c.neigh.retrans_ms, 200);
	assert_int_equal(c.neigh.ucast, 0);
	assert_int_equal(c.neigh.mcast, 10);
	assert_int_equal(c.n_warnings, 0);
	cfg_free(&c);
	/* one key alone keeps the others' defaults */
	load_ok("interfaces: [loop, loop]\nneighbour: {reachable_time: 1h}\n", &c);
	assert_int_equal(c.neigh.reachable_ms, 3600000);
	assert_int_equal(c.neigh.delay_ms, 5000);
	cfg_free(&c);
	load_err("interfaces: [loop, loop]\nneighbour: {reachable_time: 5ms}\n",
		 "t.yaml:2:29: 'reachable_time' 5ms: it must be 10 ms to 3600 s");
	load_err("interfaces: [loop, loop]\nneighbour: {reachable_time: 2h}\n",
		 "t.yaml:2:29: 'reachable_time' 2h: it must be 10 ms to 3600 s");
	load_err("interfaces: [loop, loop]\nneighbour:\n  reachable_time: soon\n",
		 "t.yaml:3:19: 'reachable_time' must be a time such as 30s or 500ms, got 'soon'");
	load_err("interfaces: [loop, loop]\nneighbour:\n  reachable_time: -1s\n",
		 "t.yaml:3:19: 'reachable_time' must be a time such as 30s or 500ms, got '-1s'");
	load_err("interfaces: [loop, loop]\nneighbour:\n  delay_first_probe_time: 61s\n",
		 "t.yaml:3:27: 'delay_first_probe_time' 61s: it must be 0 ms to 60 s");
	load_err("interfaces: [loop, loop]\nneighbour:\n  retrans_time: 1ms\n",
		 "t.yaml:3:17: 'retrans_time' 1ms: it must be 10 ms to 60 s");
	load_err("interfaces: [loop, loop]\nneighbour:\n  ucast_solicit: 11\n",
		 "t.yaml:3:18: 'ucast_solicit' 11 is out of range 0..10");
	load_err("interfaces: [loop, loop]\nneighbour:\n  mcast_solicit: many\n",
		 "t.yaml:3:18: 'mcast_solicit' must be an integer, got 'many'");
	load_err("interfaces: [loop, loop]\nneighbour: 30s\n",
		 "t.yaml:2:12: neighbour must be a mapping, not a scalar");
	/* a key of neither flowgen nor Linux is warned about, as elsewhere */
	load_ok("interfaces: [loop, loop]\nneighbour: {gc_stale_time: 60}\n", &c);
	assert_int_equal(c.n_warnings, 1);
	cfg_free(&c);
}

/* TRex's keys without effect load silently, save those that change the traffic. */
static void test_trex_keys_without_effect(void **state)
{
	static const char yaml[] = "- version: 2\n"
				   "  interfaces: [loop, loop]\n"
				   "  port_bandwidth_gb: 10\n"
				   "  enable_zmq_pub: true\n"
				   "  zmq_pub_port: 4500\n"
				   "  zmq_rpc_port: 4501\n"
				   "  telnet_port: 4502\n"
				   "  stack: linux_based\n"
				   "  rx_desc: 4096\n"
				   "  tx_desc: 4096\n"
				   "  new_memory: true\n"
				   "  low_end: false\n"
				   "  low_end_core: 0\n"
				   "  interfaces_vdevs: []\n"
				   "  scan_only_1g: true\n"
				   "  tw: {buckets: 1024, levels: 3, bucket_time_usec: 20.0}\n"
				   "  interface_mask: ['0000:11:00.00']\n"
				   "  port_info:\n"
				   "    - ip: 198.18.1.2\n"
				   "      mask: 255.255.255.0\n"
				   "      vlan: 100\n"
				   "      ipv6: 2001:db8::2\n"
				   "  platform:\n"
				   "    rx_thread_id: 5\n"
				   "  fg_not_trex: 1\n";
	struct cfg c;

	(void)state;
	load_ok(yaml, &c);
	assert_int_equal(c.platform.latency_thread_id, 5);
	/* vlan and ipv6 take effect (a tagged port, its IPv6 address) */
	assert_int_equal(c.port_info[0].vlan, 100);
	assert_true(c.port_info[0].has_ipv6);
	assert_int_equal(c.n_warnings, 2);
	assert_string_equal(c.warnings[0], "t.yaml:17: warning: 'interface_mask' has no effect: "
					   "TRex itself no longer uses it");
	assert_string_equal(c.warnings[1], "t.yaml:25: warning: unknown key 'fg_not_trex' ignored");
	cfg_free(&c);
}

/* The TRex-shaped files of test/data that the e2e scenario 14_trex_cfg.sh runs. */
static void test_trex_files(void **state)
{
	static const struct {
		const char *name;
		size_t listed, port_info, warnings;
		int workers;
		uint32_t flows_max, mbufs;
	} f[] = {
	    {"trex_limit2_info4.yaml", 2, 2, 1, 0, FG_CFG_FLOWS_DEFAULT, FG_CFG_MBUFS_DEFAULT},
	    {"trex_limit2_info8.yaml", 2, 2, 2, 0, FG_CFG_FLOWS_DEFAULT, FG_CFG_MBUFS_DEFAULT},
	    {"trex_if4_limit2.yaml", 4, 2, 2, 0, FG_CFG_FLOWS_DEFAULT, FG_CFG_MBUFS_DEFAULT},
	    {"trex_dup_port_info.yaml", 2, 2, 1, 0, FG_CFG_FLOWS_DEFAULT, FG_CFG_MBUFS_DEFAULT},
	    {"trex_prefix.yaml", 2, 2, 0, 0, FG_CFG_FLOWS_DEFAULT, FG_CFG_MBUFS_DEFAULT},
	    {"trex_c_memory.yaml", 2, 2, 0, 2, 65536, 7168},
	};
	char path[512], err[FG_ERRLEN];
	struct cfg c;

	(void)state;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", data_dir(), f[i].name);
		if (cfg_load(path, &c, err, sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(c.n_interfaces, 2);
		assert_int_equal(c.ifs[0].kind, CFG_IF_LOOP);
		assert_int_equal(c.n_listed, f[i].listed);
		assert_int_equal(c.n_port_info, f[i].port_info);
		if (c.n_warnings != f[i].warnings)
			fail_msg("%s: %zu warnings, first: %s", f[i].name, c.n_warnings,
				 c.n_warnings ? c.warnings[0] : "-");
		assert_int_equal(c.workers, f[i].workers);
		assert_int_equal(c.flows_max, f[i].flows_max);
		assert_int_equal(c.mbufs, f[i].mbufs);
		cfg_free(&c);
	}
	snprintf(path, sizeof(path), "%s/trex_dup_port_info.yaml", data_dir());
	assert_int_equal(cfg_load(path, &c, err, sizeof(err)), 0);
	assert_true(c.port_info[0].has_dest_mac && c.port_info[1].has_src_mac);
	assert_string_equal(c.prefix, "fg14dup");
	assert_int_equal(c.limit_memory.mb[0], 640);
	cfg_free(&c);
}

static void test_missing_file(void **state)
{
	char err[FG_ERRLEN];
	struct cfg c;

	(void)state;
	assert_int_equal(cfg_load("test/data/no-such-file.yaml", &c, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "test/data/no-such-file.yaml: No such file or directory");
	cfg_free(&c); /* harmless after a failure */
	assert_int_equal(cfg_load(data_dir(), &c, err, sizeof(err)), -EISDIR);
}

/* Every test/data/cfg_*.yaml names its own expected error on line 1. */
static void test_bad_files(void **state)
{
	char pattern[512], want[FG_ERRLEN + 600], err[FG_ERRLEN], line[FG_ERRLEN];
	glob_t g;
	size_t i;

	(void)state;
	snprintf(pattern, sizeof(pattern), "%s/cfg_*.yaml", data_dir());
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 25);
	for (i = 0; i < g.gl_pathc; i++) {
		const char *path = g.gl_pathv[i];
		FILE *f = fopen(path, "r");
		struct cfg c;
		int rc;

		assert_non_null(f);
		assert_non_null(fgets(line, sizeof(line), f));
		fclose(f);
		line[strcspn(line, "\n")] = '\0';
		assert_true(strncmp(line, "# error: ", 9) == 0);
		snprintf(want, sizeof(want), "%s%s", path, line + 9);
		rc = cfg_load(path, &c, err, sizeof(err));
		if (rc != -EINVAL || strcmp(err, want))
			fail_msg("%s: rc %d\n  want: %s\n  got:  %s", path, rc, want, err);
		assert_null(c.interfaces); /* nothing left allocated */
	}
	globfree(&g);
}

static void test_short_errbuf(void **state)
{
	static const char yaml[] = "interfaces: [loop]\n";
	char err[12];
	struct cfg c;

	(void)state;
	assert_int_equal(
	    cfg_load_buf("a-long-file-name.yaml", yaml, strlen(yaml), &c, err, sizeof(err)),
	    -EINVAL);
	assert_int_equal(strlen(err), sizeof(err) - 1);
	assert_int_equal(cfg_load_buf("x", yaml, strlen(yaml), &c, NULL, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_trex_cfg),
	    cmocka_unit_test(test_plain_map_extensions),
	    cmocka_unit_test(test_loop_and_trex_keys),
	    cmocka_unit_test(test_port_limit),
	    cmocka_unit_test(test_repeated_keys),
	    cmocka_unit_test(test_eal_keys),
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_trex_keys_without_effect),
	    cmocka_unit_test(test_ipv6_vlan),
	    cmocka_unit_test(test_trex_files),
	    cmocka_unit_test(test_missing_file),
	    cmocka_unit_test(test_bad_files),
	    cmocka_unit_test(test_short_errbuf),
	    cmocka_unit_test(test_neighbour),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
