/*
 * capture.c — the control half of `capture` (capture.h, flowgen(8)
 * capture). On the console's thread: compile the BPF filter with libpcap
 * (pcap_open_dead + pcap_compile) and turn it into an rte_bpf
 * (rte_bpf_convert + rte_bpf_load) the workers run; create the copy pool
 * and one SPSC ring per worker (once, kept for later captures); open a
 * pcapng file in memory (rte_pcapng_fdopen on a memfd, which writes one
 * interface block per DPDK port); attach every worker through its mailbox
 * and detach it again on stop, waiting for its acknowledgement before the
 * filter is freed. A drain thread (fg-cap, a control thread) empties the
 * workers' rings and control's own ring into the file with
 * rte_pcapng_write_packets and enforces the frame limit; `save` copies the
 * file to the user's path (capture_save), to a descriptor the caller has
 * open (capture_save_fd) or into memory (capture_save_mem: the OTG
 * model's capture replies, no file between).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <pcap/pcap.h>
#include <rte_bpf.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "capture.h"
#include "ctl.h"
#include "port.h"
#include "clock.h"
#include "worker.h"
#include "log.h"

#define CAP_POOL_SLACK 1024 /* copies in flight beyond the rings' room */
#define CAP_ACK_MS 2000	    /* how long a worker may take to detach */

static struct {
	bool running, have;
	int fd;				 /* the memfd behind pc */
	rte_pcapng_t *pc;
	struct rte_mempool *pool;
	unsigned ring_size;		 /* of the rings below */
	struct rte_ring *ring[FG_MAX_WORKERS];
	struct rte_ring *ctl_ring;	 /* control's own TX copies (MP/SC) */
	struct cap_worker cw[FG_MAX_WORKERS];
	struct cap_worker clock;	 /* control's tap: only the clock is used */
	struct rte_bpf *bpf;
	struct cap_opts o;
	char filter[256];
	uint64_t gen;
	pthread_t thr;
	bool thr_run;			 /* drain thread: keep going (release/acquire) */
	/* written by the drain thread, read by the console (relaxed) */
	uint64_t written, over_limit, write_dropped;
	bool limit_reached;
	/* control's tap (console thread) */
	uint64_t ctl_dropped;
	uint64_t t0, t1;		 /* TSC at start and stop */
} cap = {.fd = -1};

static int cap_err(char *err, size_t errlen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int cap_err(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return rc;
}

/* libpcap's compiler, then DPDK's converter: cBPF for DLT_EN10MB -> rte_bpf. */
static int cap_compile(const char *expr, struct rte_bpf **out, char *err, size_t errlen)
{
	struct bpf_program prog;
	struct rte_bpf_prm *prm;
	pcap_t *p = pcap_open_dead(DLT_EN10MB, CAP_SNAPLEN);
	int rc = 0;

	if (!p)
		return cap_err(err, errlen, -ENOMEM, "%s", "pcap_open_dead failed");
	if (pcap_compile(p, &prog, expr, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		snprintf(err, errlen, "filter \"%s\": %s", expr, pcap_geterr(p));
		rc = -EINVAL;
		goto err_close;
	}
	prm = rte_bpf_convert(&prog);
	if (!prm) {
		rc = cap_err(err, errlen, -EINVAL, "rte_bpf_convert: %s", rte_strerror(rte_errno));
		goto err_free_code;
	}
	*out = rte_bpf_load(prm);
	if (!*out) {
		rc = cap_err(err, errlen, -EINVAL, "rte_bpf_load: %s", rte_strerror(rte_errno));
	}
	rte_free(prm);
err_free_code:
	pcap_freecode(&prog);
err_close:
	pcap_close(p);
	return rc;
}

/* The pool and rings: made once, remade only for another ring size. */
static int cap_resources(unsigned ring_size, char *err, size_t errlen)
{
	char name[RTE_RING_NAMESIZE];

	if (cap.pool && cap.ring_size == ring_size)
		return 0;
	for (int i = 0; i < FG_MAX_WORKERS; i++) {
		rte_ring_free(cap.ring[i]);
		cap.ring[i] = NULL;
	}
	rte_ring_free(cap.ctl_ring);
	cap.ctl_ring = NULL;
	rte_mempool_free(cap.pool);
	cap.pool = NULL;
	cap.ring_size = 0;

	unsigned n = (unsigned)(fg_nworkers + 1) * ring_size + CAP_POOL_SLACK;

	/* data room: the headroom (the packet block's header is prepended
	 * there) and what rte_pcapng_mbuf_size counts, so every copy with its
	 * padding and options stays one segment */
	cap.pool = rte_pktmbuf_pool_create("fg_cap", n, 0, 0,
					   (uint16_t)(rte_pcapng_mbuf_size(CAP_SNAPLEN) + RTE_PKTMBUF_HEADROOM),
					   SOCKET_ID_ANY);
	if (!cap.pool)
		return cap_err(err, errlen, -ENOMEM, "no memory for the capture pool: %s",
			       rte_strerror(rte_errno));
	for (int i = 0; i < fg_nworkers; i++) {
		snprintf(name, sizeof(name), "fg_cap%d", i);
		cap.ring[i] = rte_ring_create(name, ring_size, SOCKET_ID_ANY,
					      RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (!cap.ring[i])
			return cap_err(err, errlen, -ENOMEM, "capture ring: %s",
				       rte_strerror(rte_errno));
	}
	cap.ctl_ring = rte_ring_create("fg_cap_ctl", 256, SOCKET_ID_ANY, RING_F_SC_DEQ);
	if (!cap.ctl_ring)
		return cap_err(err, errlen, -ENOMEM, "capture ring: %s", rte_strerror(rte_errno));
	cap.ring_size = ring_size;
	return 0;
}

/* drain thread: one ring's copies into the file; the limit counts here. */
static unsigned cap_drain_ring(struct rte_ring *r)
{
	struct rte_mbuf *pk[FG_BURST];
	unsigned n = rte_ring_sc_dequeue_burst(r, (void **)pk, FG_BURST, NULL), k = n;

	if (!n)
		return 0;
	if (cap.o.limit) {
		uint64_t left = cap.o.limit - FG_MIN(cap.written, cap.o.limit);

		if (k > left) {
			k = (unsigned)left;
			FG_CTR_ADD(cap.over_limit, n - k);
			__atomic_store_n(&cap.limit_reached, true, __ATOMIC_RELAXED);
		}
	}
	/* a refused burst (the memfd full, or a copy rte_pcapng would not
	 * take) is lost whole: it counts as dropped */
	if (k && rte_pcapng_write_packets(cap.pc, pk, (uint16_t)k) < 0)
		FG_CTR_ADD(cap.write_dropped, k);
	else
		FG_CTR_ADD(cap.written, k);
	if (cap.o.limit && cap.written >= cap.o.limit)
		__atomic_store_n(&cap.limit_reached, true, __ATOMIC_RELAXED);
	rte_pktmbuf_free_bulk(pk, n);
	return n;
}

static unsigned cap_drain_all(void)
{
	unsigned n = cap_drain_ring(cap.ctl_ring);

	for (int i = 0; i < fg_nworkers; i++)
		n += cap_drain_ring(cap.ring[i]);
	return n;
}

/*
 * The drain thread: every millisecond (or more, when the machine is busy)
 * at most a ring's worth from each ring, so a ring of N copies carries at
 * most N frames per millisecond per worker (about a million frames/s with
 * the default ring); beyond that the workers drop and count. At the end,
 * everything left.
 */
static void *cap_main(void *arg)
{
	(void)arg;
	/* acquire pairs with capture_stop()'s release of thr_run */
	while (__atomic_load_n(&cap.thr_run, __ATOMIC_ACQUIRE)) {
		for (unsigned i = 0; i < cap.ring_size / FG_BURST; i++)
			if (!cap_drain_all())
				break;
		usleep(1000);
	}
	while (cap_drain_all())
		;
	return NULL;
}

static void cap_close_file(void)
{
	if (cap.pc)
		rte_pcapng_close(cap.pc); /* closes the fd too */
	else if (cap.fd >= 0)
		close(cap.fd);
	cap.pc = NULL;
	cap.fd = -1;
	cap.have = false;
}

/* Post WMSG_CAPTURE to every worker and wait for each to apply it. */
static int cap_post_all(bool attach)
{
	uint64_t gen = ++cap.gen, t0 = rte_get_timer_cycles();

	for (int i = 0; i < fg_nworkers; i++) {
		struct wmsg m = {.op = WMSG_CAPTURE, .ptr = attach ? &cap.cw[i] : NULL, .val = gen};

		while (!worker_post(&fg_worker[i], &m))
			usleep(100);
	}
	for (int i = 0; i < fg_nworkers; i++)
		/* acquire pairs with capture_attach()'s release */
		while (__atomic_load_n(&fg_cap_ack[i], __ATOMIC_ACQUIRE) != gen) {
			if (rte_get_timer_cycles() - t0 > rte_get_timer_hz() * CAP_ACK_MS / 1000)
				return -ETIMEDOUT;
			usleep(100);
		}
	return 0;
}

int capture_start(const struct cap_opts *o, char *err, size_t errlen)
{
	struct rte_bpf *bpf = NULL;
	int rc;

	if (cap.running)
		return cap_err(err, errlen, -EBUSY, "%s",
			       "a capture is running: `capture stop` first");
	if (o->filter && *o->filter) {
		rc = cap_compile(o->filter, &bpf, err, errlen);
		if (rc)
			return rc;
	}
	rc = cap_resources(o->ring, err, errlen);
	if (rc)
		goto err_bpf;
	cap_close_file(); /* an unsaved earlier capture goes */
	cap.fd = memfd_create("flowgen-capture", MFD_CLOEXEC);
	if (cap.fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "memfd_create: %s", strerror(errno));
		goto err_bpf;
	}
	snprintf(cap.filter, sizeof(cap.filter), "%s", o->filter ? o->filter : "");
	cap.pc = rte_pcapng_fdopen(cap.fd, NULL, NULL, "flowgen " FG_VERSION,
				   cap.filter[0] ? cap.filter : NULL);
	if (!cap.pc) {
		rc = -rte_errno;
		snprintf(err, errlen, "rte_pcapng_fdopen: %s", rte_strerror(rte_errno));
		goto err_file;
	}
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	cap.clock = (struct cap_worker){.tsc0 = rte_rdtsc(),
					.ns0 = (uint64_t)ts.tv_sec * 1000000000ULL +
					       (uint64_t)ts.tv_nsec,
					.ns_per_tsc = 1e9 / (double)fg_tsc_hz};
	cap.o = *o;
	cap.o.filter = cap.filter;
	cap.bpf = bpf;
	cap.written = cap.over_limit = cap.ctl_dropped = cap.write_dropped = 0;
	cap.limit_reached = false;
	for (int i = 0; i < fg_nworkers; i++) {
		struct worker *w = &fg_worker[i];
		uint64_t pair = (1ULL << w->port[0]) | (1ULL << w->port[1]);

		cap.cw[i] = (struct cap_worker){.ring = cap.ring[i],
						.pool = cap.pool,
						.bpf = bpf,
						.rx_ports = o->rx_ports & pair,
						.tx_ports = o->tx_ports & pair,
						.limit = o->limit,
						.tsc0 = cap.clock.tsc0,
						.ns0 = cap.clock.ns0,
						.ns_per_tsc = cap.clock.ns_per_tsc};
	}
	__atomic_store_n(&cap.thr_run, true, __ATOMIC_RELEASE);
	rc = rte_ctrl_thread_create(&cap.thr, "fg-cap", NULL, cap_main, NULL);
	if (rc) {
		rc = -rc;
		snprintf(err, errlen, "capture thread: %s", strerror(-rc));
		goto err_file;
	}
	cap.have = true;
	cap.t0 = rte_rdtsc();
	/* control's tap reads `running` (same thread); the workers get theirs now */
	cap.running = true;
	if (cap_post_all(true)) {
		capture_stop();
		return cap_err(err, errlen, -ETIMEDOUT, "%s", "a worker did not take the capture");
	}
	return 0;

err_file:
	cap_close_file();
err_bpf:
	if (bpf)
		rte_bpf_destroy(bpf);
	cap.bpf = NULL;
	return rc;
}

int capture_stop(void)
{
	if (!cap.running)
		return -ENOENT;
	cap.running = false;
	cap.t1 = rte_rdtsc();
	if (cap_post_all(false)) {
		/* a worker that does not answer may still read the filter:
		 * keep it (and the rings) rather than free it under it */
		fg_warn("capture: a worker did not detach; its filter is kept");
		cap.bpf = NULL;
	}
	/* release pairs with cap_main's acquire; it drains what is left */
	__atomic_store_n(&cap.thr_run, false, __ATOMIC_RELEASE);
	pthread_join(cap.thr, NULL);
	if (cap.bpf)
		rte_bpf_destroy(cap.bpf);
	cap.bpf = NULL;
	return 0;
}

/* A save: something captured, the capture stopped. 0 or -ENOENT (err set). */
static int cap_save_ready(char *err, size_t errlen)
{
	if (!cap.have)
		return cap_err(err, errlen, -ENOENT, "%s", "nothing captured: `capture start` first");
	if (cap.running)
		capture_stop();
	return 0;
}

/* The capture's bytes copied to out. 0 or -errno. */
static int cap_copy_to(int out)
{
	char buf[65536];
	off_t off = 0;
	ssize_t n;

	while ((n = pread(cap.fd, buf, sizeof(buf), off)) > 0) {
		for (ssize_t d = 0; d < n;) {
			ssize_t w = write(out, buf + d, (size_t)(n - d));

			if (w < 0)
				return -errno;
			d += w;
		}
		off += n;
	}
	return n < 0 ? -errno : 0;
}

int64_t capture_save(const char *path, char *err, size_t errlen)
{
	int out, rc = cap_save_ready(err, errlen);

	if (rc)
		return rc;
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	rc = cap_copy_to(out);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		close(out);
		return rc;
	}
	if (close(out) != 0) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	return (int64_t)cap.written;
}

int64_t capture_save_mem(uint8_t **buf, size_t *len, char *err, size_t errlen)
{
	struct stat sb;
	size_t got = 0;
	int rc = cap_save_ready(err, errlen);

	*buf = NULL;
	*len = 0;
	if (rc)
		return rc;
	if (fstat(cap.fd, &sb) != 0 || sb.st_size < 0)
		return cap_err(err, errlen, -EIO, "the capture's size: %s", strerror(errno));
	*buf = malloc(sb.st_size ? (size_t)sb.st_size : 1);
	if (!*buf)
		return cap_err(err, errlen, -ENOMEM, "%s", "out of memory");
	while (got < (size_t)sb.st_size) {
		ssize_t n = pread(cap.fd, *buf + got, (size_t)sb.st_size - got, (off_t)got);

		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			free(*buf);
			*buf = NULL;
			return cap_err(err, errlen, rc, "reading the capture: %s", strerror(-rc));
		}
		got += (size_t)n;
	}
	*len = got;
	return (int64_t)cap.written;
}

void capture_status(struct cap_status *st)
{
	uint64_t end = cap.running ? rte_rdtsc() : cap.t1;

	memset(st, 0, sizeof(*st));
	st->running = cap.running;
	st->have = cap.have;
	if (!cap.have)
		return;
	st->rx_ports = cap.o.rx_ports;
	st->tx_ports = cap.o.tx_ports;
	st->limit = cap.o.limit;
	snprintf(st->filter, sizeof(st->filter), "%s", cap.filter);
	st->written = FG_CTR_GET(cap.written);
	st->over_limit = FG_CTR_GET(cap.over_limit);
	st->limit_reached = __atomic_load_n(&cap.limit_reached, __ATOMIC_RELAXED);
	st->dropped = cap.ctl_dropped + FG_CTR_GET(cap.write_dropped);
	for (int i = 0; i < fg_nworkers; i++)
		st->dropped += FG_CTR_GET(cap.cw[i].dropped);
	st->secs = (double)(end - cap.t0) / (double)rte_get_tsc_hz();
}

void capture_ctl_tx(int port, struct rte_mbuf *m)
{
	struct rte_mbuf *mc;
	uint64_t c;

	if (!cap.running || !((cap.o.tx_ports >> port) & 1))
		return;
	if (cap.bpf && !rte_bpf_exec(cap.bpf, m))
		return;
	if (cap.o.limit && FG_CTR_GET(cap.written) >= cap.o.limit)
		return;
	c = rte_rdtsc();
	mc = rte_pcapng_copy(fg_port[port].v.id, fg_port[port].nqueues, m, cap.pool, CAP_SNAPLEN, c,
			     RTE_PCAPNG_DIRECTION_OUT);
	if (mc)
		capture_stamp(&cap.clock, mc, c);
	if (!mc || rte_ring_mp_enqueue(cap.ctl_ring, mc) != 0) {
		rte_pktmbuf_free(mc);
		cap.ctl_dropped++;
	}
}

void capture_fini(void)
{
	capture_stop();
	cap_close_file();
}
