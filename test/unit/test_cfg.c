/*
 * test_cfg.c — the platform config: a trex_cfg.yaml as TRex's
 * dpdk_setup_ports.py writes it loads unchanged, flowgen's extensions and
 * defaults, unknown-key warnings, and every bad file of test/data/cfg_*.yaml
 * fails with exactly the FILE:LINE:COL message written on its first line
 * ("# error: " followed by what comes after the file name).
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
	assert_int_equal(c.n_warnings, 1);
	snprintf(path, sizeof(path),
		 "%s/trex_cfg.yaml:3: warning: unknown key 'port_limit' ignored", data_dir());
	assert_string_equal(c.warnings[0], path);
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
	assert_int_equal(c.n_warnings, 10);
	assert_string_equal(c.warnings[0], "t.yaml:1: warning: unknown key 'port_limit' ignored");
	assert_string_equal(c.warnings[8], "t.yaml:11: warning: unknown key 'memory' ignored");
	assert_string_equal(c.warnings[9], "t.yaml:15: warning: unknown key 'zmq' ignored");
	assert_int_equal(c.platform.master_thread_id, 0);
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
	assert_true(g.gl_pathc >= 15);
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
	    cmocka_unit_test(test_trex_cfg),	       cmocka_unit_test(test_plain_map_extensions),
	    cmocka_unit_test(test_loop_and_trex_keys), cmocka_unit_test(test_missing_file),
	    cmocka_unit_test(test_bad_files),	       cmocka_unit_test(test_short_errbuf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
