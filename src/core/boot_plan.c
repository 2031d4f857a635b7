/*
 * boot_plan.c — the memory plan of a run and the reading of DPDK's
 * start-up log (boot_plan.h). main() asks for the plan to choose between
 * hugepages and --no-huge and to size the latter's heap; when rte_eal_init
 * or a port's set-up fails, it asks what DPDK's log (kept by boot.c) says
 * the cause was, and prints DPDK's reason with a remedy.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "boot_plan.h"
#include "fg.h"

#define MIB (1024ull * 1024ull)

/* one pool of mbufs objects of obj_bytes on pages of page_bytes (0: packed) */
static uint64_t pool_bytes(uint32_t mbufs, size_t obj_bytes, size_t page_bytes)
{
	uint64_t per_page, pages;

	if (!page_bytes || obj_bytes > page_bytes) /* objects span pages: bytes as they are */
		return (uint64_t)mbufs * obj_bytes;
	per_page = page_bytes / obj_bytes;
	pages = ((uint64_t)mbufs + per_page - 1) / per_page;
	return pages * page_bytes;
}

void boot_mem_plan(unsigned nports, unsigned npacked, uint32_t mbufs, size_t obj_bytes,
		   size_t page_bytes, unsigned workers, uint64_t flowtab_bytes, struct boot_mem *m)
{
	uint64_t mb;

	if (npacked > nports)
		npacked = nports;
	m->pools = npacked * pool_bytes(mbufs, obj_bytes, 0) +
		   (nports - npacked) * pool_bytes(mbufs, obj_bytes, page_bytes);
	m->base = (uint64_t)BOOT_BASE_MB * MIB;
	m->need = m->pools + m->base;
	m->flowtab = (uint64_t)workers * flowtab_bytes;
	mb = (m->need + MIB - 1) / MIB;
	m->need_mb = (uint32_t)((mb + 1) & ~1ull);
}

/* ---- reading the log ---- */

struct boot_pat {
	const char *text; /* found anywhere in a line, case-insensitive */
	enum boot_cause cause;
};

/* The first line with one of these names the cause; earlier rows win. */
static const struct boot_pat boot_pats[] = {
    {"Cannot create lock on", BOOT_LOCKED},
    {"Is another primary process running", BOOT_LOCKED},
    {"too few for net_af_xdp", BOOT_MBUFS},
    {"Failed to create umem", BOOT_XDP},
    {"Failed to create xsk socket", BOOT_XDP},
    {"Failed to configure xdp socket", BOOT_XDP},
    {"Not enough memory available", BOOT_NOMEM},
    {"Cannot get hugepage information", BOOT_NOMEM},
    {"Cannot allocate memory", BOOT_NOMEM},
    {"Cannot init memory", BOOT_NOMEM},
    {"cannot allocate", BOOT_NOMEM},
    {"Device or resource busy", BOOT_BUSY},
    {"already in use", BOOT_BUSY},
    {"is in use", BOOT_BUSY},
    {"queues wanted", BOOT_QUEUES},
    {"Permission denied", BOOT_NOPERM},
    {"Operation not permitted", BOOT_NOPERM},
};

/* Lines that say that DPDK gave up, not why: never the reason. */
static bool boot_line_generic(const char *l, size_t n)
{
	static const char *const gen[] = {"FATAL:", "Cannot init config", "Error - exiting",
					  "Cannot init telemetry"};

	for (size_t i = 0; i < FG_ARRAY_SIZE(gen); i++)
		if (memmem(l, n, gen[i], strlen(gen[i])))
			return true;
	return false;
}

static bool line_has(const char *l, size_t n, const char *text)
{
	size_t k = strlen(text);

	for (size_t i = 0; i + k <= n; i++)
		if (strncasecmp(l + i, text, k) == 0)
			return true;
	return false;
}

static void copy_line(char *dst, size_t len, const char *l, size_t n)
{
	if (!len)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(dst, l, n);
	dst[n] = '\0';
}

/*
 * The file prefix of a lock line's path, /var/run/dpdk/PREFIX/config (or
 * $XDG_RUNTIME_DIR/dpdk/PREFIX/config): the directory above "config".
 */
static void lock_prefix(const char *l, size_t n, char *out, size_t len)
{
	const char *q = memchr(l, '\'', n), *end, *slash;

	snprintf(out, len, "?");
	if (!q)
		return;
	end = memchr(q + 1, '\'', n - (size_t)(q + 1 - l));
	if (!end)
		return;
	/* the last slash before end is the one before "config" */
	slash = NULL;
	for (const char *p = q + 1; p < end; p++)
		if (*p == '/')
			slash = p;
	if (!slash)
		return;
	const char *beg = slash;

	while (beg > q + 1 && beg[-1] != '/')
		beg--;
	if (beg < slash)
		copy_line(out, len, beg, (size_t)(slash - beg));
}

enum boot_cause boot_diagnose(const char *log, char *reason, size_t rlen, char *hint, size_t hlen)
{
	enum boot_cause cause = BOOT_UNKNOWN;
	const char *l = log ? log : "", *hit = NULL, *last = NULL;
	size_t hitn = 0, lastn = 0;
	size_t best = FG_ARRAY_SIZE(boot_pats);
	char prefix[64];

	/* every line: the best known cause, and the last line that is not
	 * only DPDK giving up */
	while (*l) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);

		for (size_t i = 0; i < best; i++)
			if (line_has(l, n, boot_pats[i].text)) {
				best = i;
				hit = l;
				hitn = n;
				break;
			}
		if (n && !boot_line_generic(l, n)) {
			last = l;
			lastn = n;
		}
		l += n + (nl ? 1 : 0);
	}
	if (hit) {
		cause = boot_pats[best].cause;
		copy_line(reason, rlen, hit, hitn);
	} else if (last) {
		copy_line(reason, rlen, last, lastn);
	} else if (rlen) {
		reason[0] = '\0';
	}
	switch (cause) {
	case BOOT_LOCKED:
		lock_prefix(hit, hitn, prefix, sizeof(prefix));
		snprintf(hint, hlen,
			 "DPDK's runtime directory for the file prefix '%s' is locked by another "
			 "DPDK process: give this flowgen a prefix of its own (the config's "
			 "`prefix`, or -- --file-prefix=NAME), or stop the other process",
			 prefix);
		break;
	case BOOT_NOMEM:
		snprintf(hint, hlen,
			 "not enough memory for DPDK: reserve hugepages (echo 1024 > "
			 "/proc/sys/vm/nr_hugepages), ask for less (`mbufs`, `limit_memory`, -m), "
			 "or leave the choice to flowgen (without free hugepages it runs with "
			 "--no-huge on a heap of the size the run needs)");
		break;
	case BOOT_BUSY:
		snprintf(hint, hlen,
			 "a port's device is in use by another process (another flowgen, "
			 "testpmd, or a program the kernel runs on it): stop that process or "
			 "give flowgen another device");
		break;
	case BOOT_NOPERM:
		snprintf(hint, hlen,
			 "DPDK was not allowed to: run flowgen as root (hugepages, raw sockets "
			 "and device access need it)");
		break;
	case BOOT_QUEUES:
		snprintf(hint, hlen,
			 "each port needs a queue pair per worker and one for the control plane: "
			 "fewer workers (-c), or a device with more queues (net_af_xdp: a "
			 "queue per worker and no control queue, as many combined channels "
			 "on the interface: ethtool -L IFACE combined N)");
		break;
	case BOOT_XDP:
		/* the kernel's Documentation/networking/af_xdp.rst */
		snprintf(hint, hlen,
			 "net_af_xdp could not open its XDP socket: run flowgen as root (the "
			 "UMEM is locked memory: CAP_IPC_LOCK, or ulimit -l unlimited), on a "
			 "kernel with AF_XDP (CONFIG_XDP_SOCKETS), on an interface that carries "
			 "no other XDP program (ip link set dev IFACE xdp off) and has the "
			 "queues asked for (start_queue, queue_count)");
		break;
	case BOOT_MBUFS:
		snprintf(hint, hlen,
			 "raise `mbufs` in the platform config to the figure above, or run "
			 "fewer workers (-c)");
		break;
	default:
		snprintf(hint, hlen,
			 "DPDK refused to start: its lines above say why; flowgen -v prints the "
			 "arguments flowgen gave it");
		break;
	}
	return cause;
}
