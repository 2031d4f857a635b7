/*
 * boot_plan.h — what flowgen works out at start-up (boot_plan.c): the
 * memory a run needs (flowgen(8), "MEMORY AND SEVERAL INSTANCES") and
 * the cause of a start-up failure, read from what DPDK logged.
 *
 * The memory plan: a run needs its ports' mbuf pools and a fixed allowance
 * for DPDK's own structures, the rings and a capture pool; the flow tables
 * come on top but fall back to the ordinary heap when DPDK's memory runs
 * out, so they do not decide where flowgen runs. With enough free
 * hugepages a process takes only what it allocates (DPDK's dynamic memory
 * mode with --in-memory); without, it runs with --no-huge, a heap of the
 * planned size (-m) and a runtime of its own (--no-shconf), so any number
 * of instances run side by side in either state.
 *
 * The diagnosis: DPDK prints its reasons through its log stream and often
 * leaves rte_errno at 0; boot_diagnose turns the known causes in the tail
 * of that log (kept by src/control/boot.h) into one line that says what is
 * wrong and what to do.
 *
 * Context: pure (unit-tested in test/unit/test_boot.c).
 *
 * Included by: every folder.
 */
#ifndef FG_BOOT_PLAN_H
#define FG_BOOT_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* DPDK's own structures, the control rings and the default capture pool. */
#define BOOT_BASE_MB 48u

struct boot_mem {
	uint64_t pools;	  /* bytes of the ports' mbuf pools */
	uint64_t base;	  /* BOOT_BASE_MB in bytes */
	uint64_t need;	  /* pools + base: what must fit in DPDK's memory */
	uint64_t flowtab; /* bytes of all workers' flow tables at their largest */
	uint32_t need_mb; /* need in MiB, rounded up to a 2 MiB page */
};

/*
 * pure: the memory of a run with nports ports of mbufs mbufs each, one
 * mbuf taking obj_bytes in its pool (header, headroom, data room and the
 * pool's per-object header), on pages of page_bytes, and workers flow
 * tables of flowtab_bytes. An object does not straddle two pages (DPDK
 * keeps each IOVA-contiguous), so on 4 KiB pages (--no-huge) an mbuf of
 * 2.3 KiB takes a page of its own; except in the pools of npacked of the
 * ports (port.h, port_pool_packed), whose objects follow each other
 * across pages.
 */
void boot_mem_plan(unsigned nports, unsigned npacked, uint32_t mbufs, size_t obj_bytes,
		   size_t page_bytes, unsigned workers, uint64_t flowtab_bytes, struct boot_mem *m);

/*
 * pure: a start-up failure from what DPDK logged (log, NUL terminated; may
 * be empty): DPDK's reason, the line of the log that names the cause (or
 * its last line; "" when it logged nothing), into reason; what is wrong and
 * what to do, one line, into hint. Returns the cause found.
 */
enum boot_cause {
	BOOT_UNKNOWN = 0,
	BOOT_LOCKED,   /* the runtime directory's lock is another process's */
	BOOT_NOMEM,    /* not enough memory, hugepages or heap */
	BOOT_BUSY,     /* a device in use by another process */
	BOOT_NOPERM,   /* not allowed (not root) */
	BOOT_QUEUES,   /* a device with fewer queues than the workers need */
	BOOT_XDP,      /* net_af_xdp could not open its XDP socket or UMEM */
	BOOT_MBUFS,    /* too few mbufs for net_af_xdp's fill rings */
};

enum boot_cause boot_diagnose(const char *log, char *reason, size_t rlen, char *hint, size_t hlen);

#endif
