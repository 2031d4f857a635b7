/*
 * test_boot.c — the memory plan and the reading of DPDK's start-up log
 * (boot_plan.h), with log lines as DPDK 22.11 prints them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot_plan.h"

static void test_plan_sizes(void **state)
{
	struct boot_mem m;

	(void)state;
	/* 2 ports x 4096 mbufs of 2,368 bytes: 18.5 MiB + the base (no page
	 * size: the bytes as they are) */
	boot_mem_plan(2, 0, 4096, 2368, 0, 1, 1000, &m);
	assert_int_equal(m.pools, 2ull * 4096 * 2368);
	assert_int_equal(m.base, (uint64_t)BOOT_BASE_MB << 20);
	assert_int_equal(m.need, m.pools + m.base);
	assert_int_equal(m.flowtab, 1000);
	/* 66.5 MiB rounds up to 67, then to the 2 MiB page: 68 */
	assert_int_equal(m.need_mb, 68);
	assert_true((uint64_t)m.need_mb << 20 >= m.need);
}

static void test_plan_round(void **state)
{
	struct boot_mem m;

	(void)state;
	/* exactly a whole even number of MiB stays as it is */
	boot_mem_plan(2, 0, 1024, 1024, 0, 2, 5, &m);
	assert_int_equal(m.need_mb, 2 + BOOT_BASE_MB);
	assert_int_equal(m.flowtab, 10);
	/* one byte more takes the next page */
	boot_mem_plan(1, 0, 1, (1u << 21) + 1, 0, 1, 0, &m);
	assert_int_equal(m.need_mb, BOOT_BASE_MB + 4);
}

static void test_plan_pages(void **state)
{
	struct boot_mem m;

	(void)state;
	/* 4 KiB pages: one 2,368-byte mbuf a page, 16 MiB for 4096 */
	boot_mem_plan(1, 0, 4096, 2368, 4096, 1, 0, &m);
	assert_int_equal(m.pools, 4096ull * 4096);
	/* 2 MiB pages: 885 a page, 5 pages for 4096 */
	boot_mem_plan(1, 0, 4096, 2368, 2u << 20, 1, 0, &m);
	assert_int_equal(m.pools, 5ull << 21);
	/* an object larger than a page: its bytes */
	boot_mem_plan(1, 0, 10, 5000, 4096, 1, 0, &m);
	assert_int_equal(m.pools, 50000);
	/* small objects share pages: 4 of 1,024 bytes a page */
	boot_mem_plan(2, 0, 9, 1024, 4096, 1, 0, &m);
	assert_int_equal(m.pools, 2ull * 3 * 4096);
	/* packed pools: the objects' bytes on any page size; the others
	 * still a page an mbuf */
	boot_mem_plan(2, 2, 4096, 2368, 4096, 1, 0, &m);
	assert_int_equal(m.pools, 2ull * 4096 * 2368);
	boot_mem_plan(3, 1, 4096, 2368, 4096, 1, 0, &m);
	assert_int_equal(m.pools, 4096ull * 2368 + 2ull * 4096 * 4096);
	/* no more packed pools than ports */
	boot_mem_plan(1, 5, 4096, 2368, 4096, 1, 0, &m);
	assert_int_equal(m.pools, 4096ull * 2368);
}

static const char lock_log[] =
    "EAL: Detected CPU lcores: 2\n"
    "EAL: Detected NUMA nodes: 1\n"
    "EAL: Cannot create lock on '/var/run/dpdk/fgtest7/config'. Is another primary "
    "process running?\n"
    "EAL: FATAL: Cannot init config\n"
    "EAL: Cannot init config\n";

static void test_diag_lock(void **state)
{
	char reason[256], hint[512];

	(void)state;
	assert_int_equal(boot_diagnose(lock_log, reason, sizeof(reason), hint, sizeof(hint)),
			 BOOT_LOCKED);
	assert_non_null(strstr(reason, "Cannot create lock on '/var/run/dpdk/fgtest7/config'"));
	assert_non_null(strstr(hint, "file prefix 'fgtest7'"));
	assert_non_null(strstr(hint, "--file-prefix"));
}

static void test_diag_nomem(void **state)
{
	static const char log[] = "EAL: Detected CPU lcores: 2\n"
				  "EAL: Not enough memory available! Requested: 100000000MB, "
				  "available: 2048MB\n"
				  "EAL: FATAL: Cannot init memory\n"
				  "EAL: Cannot init memory\n";
	char reason[256], hint[512];

	(void)state;
	assert_int_equal(boot_diagnose(log, reason, sizeof(reason), hint, sizeof(hint)),
			 BOOT_NOMEM);
	assert_non_null(strstr(reason, "Requested: 100000000MB"));
	assert_non_null(strstr(hint, "nr_hugepages"));
}

static void test_diag_pool(void **state)
{
	/* flowgen's own line after the log: a pool the memory did not hold */
	static const char log[] = "\nport loop: cannot allocate 4096 mbufs (Cannot allocate memory)";
	char reason[256], hint[512];

	(void)state;
	assert_int_equal(boot_diagnose(log, reason, sizeof(reason), hint, sizeof(hint)),
			 BOOT_NOMEM);
	assert_string_equal(reason, "port loop: cannot allocate 4096 mbufs (Cannot allocate memory)");
}

static void test_diag_busy_perm(void **state)
{
	char reason[256], hint[512];

	(void)state;
	assert_int_equal(boot_diagnose("EAL: Cannot open /dev/vfio/12: Device or resource busy\n",
				       reason, sizeof(reason), hint, sizeof(hint)),
			 BOOT_BUSY);
	assert_non_null(strstr(hint, "in use by another process"));
	assert_int_equal(boot_diagnose("EAL: Cannot open /dev/hugepages: Permission denied\n",
				       reason, sizeof(reason), hint, sizeof(hint)),
			 BOOT_NOPERM);
	assert_non_null(strstr(hint, "root"));
	/* flowgen's own line: a device with one queue pair */
	assert_int_equal(boot_diagnose("\nport net_af_xdp0,iface=fx0: 2 queues wanted, driver "
				       "net_af_xdp has 1",
				       reason, sizeof(reason), hint, sizeof(hint)),
			 BOOT_QUEUES);
	assert_non_null(strstr(hint, "-c"));
}

static void test_diag_xdp(void **state)
{
	char reason[256], hint[512];

	(void)state;
	/* the driver's lines when the UMEM or the socket cannot be had */
	assert_int_equal(boot_diagnose("xdp_umem_configure(): Failed to create umem\n"
				       "xsk_configure(): Failed to configure xdp socket\n",
				       reason, sizeof(reason), hint, sizeof(hint)),
			 BOOT_XDP);
	assert_string_equal(reason, "xdp_umem_configure(): Failed to create umem");
	assert_non_null(strstr(hint, "ulimit -l"));
	/* flowgen's own line: fill rings larger than the pool */
	assert_int_equal(boot_diagnose("\nport net_af_xdp0,iface=fg0: mbufs 2048 is too few for "
				       "net_af_xdp, which keeps 2048 of them",
				       reason, sizeof(reason), hint, sizeof(hint)),
			 BOOT_MBUFS);
	assert_non_null(strstr(hint, "mbufs"));
}

static void test_diag_unknown(void **state)
{
	char reason[256], hint[512];

	(void)state;
	/* the last line that says why, not DPDK giving up */
	assert_int_equal(boot_diagnose("EAL: something odd happened\nEAL: FATAL: Cannot init "
				       "config\nEAL: Error - exiting with code: 1\n",
				       reason, sizeof(reason), hint, sizeof(hint)),
			 BOOT_UNKNOWN);
	assert_string_equal(reason, "EAL: something odd happened");
	assert_non_null(strstr(hint, "-v"));
	/* nothing logged: no reason, still a hint */
	assert_int_equal(boot_diagnose("", reason, sizeof(reason), hint, sizeof(hint)),
			 BOOT_UNKNOWN);
	assert_string_equal(reason, "");
	assert_true(strlen(hint) > 0);
	assert_int_equal(boot_diagnose(NULL, reason, sizeof(reason), hint, sizeof(hint)),
			 BOOT_UNKNOWN);
}

static void test_diag_truncates(void **state)
{
	char reason[16], hint[8];

	(void)state;
	assert_int_equal(boot_diagnose(lock_log, reason, sizeof(reason), hint, sizeof(hint)),
			 BOOT_LOCKED);
	assert_int_equal(strlen(reason), sizeof(reason) - 1);
	assert_int_equal(strlen(hint), sizeof(hint) - 1);
	/* a lock line without a path still names the cause */
	assert_int_equal(boot_diagnose("EAL: Is another primary process running?\n", reason,
				       sizeof(reason), hint, sizeof(hint)),
			 BOOT_LOCKED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plan_sizes),	   cmocka_unit_test(test_plan_round),
	    cmocka_unit_test(test_plan_pages),
	    cmocka_unit_test(test_diag_lock),	   cmocka_unit_test(test_diag_nomem),
	    cmocka_unit_test(test_diag_pool),	   cmocka_unit_test(test_diag_busy_perm),
	    cmocka_unit_test(test_diag_xdp),
	    cmocka_unit_test(test_diag_unknown),   cmocka_unit_test(test_diag_truncates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
