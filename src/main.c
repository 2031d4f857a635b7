/*
 * main.c — start-up and shut-down order of the one flowgen process:
 * command line, platform config, EAL arguments (interfaces, lcores,
 * hugepage fallback), ports, workers, the control-plane and statistics
 * threads (and with --record the recorder's), then the console
 * (interactive, batch or -x). Shut-down runs the same steps backwards; a
 * SIGTERM, or a SIGINT that ends batch or -x mode, ends the console and
 * takes the same path, so the record's last lines hold the figures of the
 * traffic as it stopped. After start-up nothing calls exit(): a failing
 * command prints an error and traffic keeps running.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_memory.h>
#include <rte_mempool.h>

#include "api.h"
#include "boot.h"
#include "cfg.h"
#include "cli.h"
#include "cli_tok.h"
#include "cmds.h"
#include "console.h"
#include "ctl.h"
#include "port.h"
#include "otg.h"
#include "prof.h"
#include "record.h"
#include "run.h"
#include "stats.h"
#include "svc.h"
#include "clock.h"
#include "units.h"
#include "worker.h"
#include "log.h"

#ifndef FG_VERSION
#define FG_VERSION "0.1"
#endif

static const char usage_text[] =
	"usage: flowgen [OPTIONS] [-- EAL-ARGS...]\n"
	"  -C, --config FILE   platform config (default ./flowgen.yaml, /etc/flowgen.yaml,\n"
	"                      /etc/trex_cfg.yaml)\n"
	"  -c, --cores N       worker lcores per port pair (default: the config's c, or 1)\n"
	"  -b, --batch         read commands from stdin, no prompt\n"
	"  -x, --exec CMDS     run the ';'-separated commands, then exit\n"
	"  -k, --keep-going    in batch mode, continue after a failing command\n"
	"      --json          `stats` and `bench` print JSON\n"
	"      --check [PROFILE...]  validate the config and profiles, open no port\n"
	"  -v, --verbose       at start-up, print the EAL arguments and the memory plan\n"
	"      --api [ADDR:]PORT  serve the HTTP API (default address 127.0.0.1)\n"
	"      --api-cert FILE, --api-key FILE  TLS for the API (PEM)\n"
	"      --api-token-file FILE  the API's bearer token (its first line)\n"
	"      --name NAME            the instance label of GET /metrics (host:port)\n"
	"      --record FILE   write the figures to FILE as they go (JSON Lines, appended)\n"
	"      --record-interval SECS  one line every SECS (default 1)\n"
	"  -h, --help          this text\n"
	"  -V, --version       print the version\n";

struct opts {
	const char *config;
	int cores; /* 0: not given (the config's `c`, else 1) */
	bool batch, keep_going, json, check, verbose;
	const char *exec;
	char **eal_extra;
	int n_eal_extra;
	char **check_files;
	int n_check;
	struct api_opts api;
	const char *record;	/* --record FILE */
	double record_interval; /* --record-interval; 0: not given */
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{"config", required_argument, NULL, 'C'}, {"cores", required_argument, NULL, 'c'},
		{"batch", no_argument, NULL, 'b'},	  {"exec", required_argument, NULL, 'x'},
		{"keep-going", no_argument, NULL, 'k'},	  {"json", no_argument, NULL, 'j'},
		{"check", no_argument, NULL, 'K'},	  {"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},	  {"verbose", no_argument, NULL, 'v'},
		{"api", required_argument, NULL, 'A'},	  {"api-cert", required_argument, NULL, 'E'},
		{"api-key", required_argument, NULL, 'Y'},
		{"api-token-file", required_argument, NULL, 'T'},
		{"name", required_argument, NULL, 'N'},
		{"record", required_argument, NULL, 'R'},
		{"record-interval", required_argument, NULL, 'I'},
		{NULL, 0, NULL, 0},
	};
	char err[FG_ERRLEN];
	int c, nopt = argc;

	/* Everything after the first "--" is for the EAL. */
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			nopt = i;
			o->eal_extra = &argv[i + 1];
			o->n_eal_extra = argc - i - 1;
			break;
		}
	while ((c = getopt_long(nopt, argv, "+C:c:bx:khVv", lo, NULL)) != -1) {
		switch (c) {
		case 'C':
			o->config = optarg;
			break;
		case 'c': {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || v < 1 || v > FG_MAX_WORKERS) {
				fprintf(stderr, "flowgen: -c takes 1..%d, not '%s'\n", FG_MAX_WORKERS,
					optarg);
				return -1;
			}
			o->cores = v;
			break;
		}
		case 'b':
			o->batch = true;
			break;
		case 'x':
			o->exec = optarg;
			break;
		case 'k':
			o->keep_going = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'K':
			o->check = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'A':
			o->api.listen = optarg;
			break;
		case 'E':
			o->api.cert = optarg;
			break;
		case 'Y':
			o->api.key = optarg;
			break;
		case 'T':
			o->api.token_file = optarg;
			break;
		case 'N':
			o->api.name = optarg;
			break;
		case 'R':
			o->record = optarg;
			break;
		case 'I':
			if (units_parse_duration(optarg, &o->record_interval, err, sizeof(err)) != 0 ||
			    o->record_interval < RECORD_INTERVAL_MIN ||
			    o->record_interval > RECORD_INTERVAL_MAX) {
				fprintf(stderr,
					"flowgen: --record-interval takes %g to %g seconds, not '%s'\n",
					RECORD_INTERVAL_MIN, RECORD_INTERVAL_MAX, optarg);
				return -1;
			}
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(FG_EXIT_OK);
		case 'V':
			printf("flowgen %s\n", FG_VERSION);
			exit(FG_EXIT_OK);
		default:
			fputs(usage_text, stderr);
			return -1;
		}
	}
	if (o->record_interval > 0 && !o->record) {
		fprintf(stderr, "flowgen: --record-interval needs --record FILE\n");
		return -1;
	}
	/* After --check, bare words are profiles. */
	for (int i = optind; i < nopt; i++) {
		if (!o->check) {
			fprintf(stderr, "flowgen: unexpected argument '%s'\n%s", argv[i], usage_text);
			return -1;
		}
		if (!o->check_files)
			o->check_files = &argv[i];
		o->n_check++;
	}
	return 0;
}

static const char *find_config(const char *given)
{
	static const char *const defaults[] = {"./flowgen.yaml", "/etc/flowgen.yaml",
					       "/etc/trex_cfg.yaml"};

	if (given)
		return given;
	for (size_t i = 0; i < FG_ARRAY_SIZE(defaults); i++)
		if (access(defaults[i], R_OK) == 0)
			return defaults[i];
	return NULL;
}

static int check_profiles(char **files, int n)
{
	int rc = FG_EXIT_OK;

	for (int i = 0; i < n; i++) {
		struct prof p = {0};
		char err[FG_ERRLEN];

		if (prof_load(files[i], &p, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s\n", err);
			rc = FG_EXIT_CONFIG;
			continue;
		}
		for (size_t w = 0; w < p.n_warnings; w++)
			fprintf(stderr, "%s\n", p.warnings[w]);
		printf("%s: ok\n", files[i]);
		prof_free(&p);
	}
	return rc;
}

/*
 * Free hugepages of the default size in bytes (/proc/meminfo); the size of
 * one into *page (2 MiB when the kernel does not say).
 */
static uint64_t hugepages_free(uint64_t *page)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long n = 0, kb = 0, v;

	*page = 2u << 20;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "HugePages_Free: %ld", &v) == 1)
			n = v;
		else if (sscanf(line, "Hugepagesize: %ld kB", &v) == 1)
			kb = v;
	fclose(f);
	if (kb > 0)
		*page = (uint64_t)kb * 1024;
	return n > 0 ? (uint64_t)n * *page : 0;
}

/*
 * The memory plan of this run (boot.h) on hugepages (m[0]) and on 4 KiB
 * pages (m[1], --no-huge): the ports' pools as port_init_all() creates
 * them (packed ones on 4 KiB pages only, port.h), and each worker's
 * engine state at the config's flows_max, the largest any engine asks
 * for (run.h, run_worker_mem: the flows' table).
 */
static void mem_plan(const struct cfg *c, int workers, struct boot_mem m[2])
{
	uint64_t page;
	struct rte_mempool_objsz sz;
	uint64_t per_worker = run_worker_mem(c->flows_max);
	size_t obj = rte_mempool_calc_obj_size(
	    sizeof(struct rte_mbuf) + RTE_MBUF_DEFAULT_BUF_SIZE, 0, &sz);
	unsigned packed = 0;

	for (size_t i = 0; i < c->n_interfaces; i++)
		packed += port_pool_packed(&c->ifs[i]);
	hugepages_free(&page);
	boot_mem_plan((unsigned)c->n_interfaces, 0, c->mbufs, obj, page, (unsigned)workers,
		      per_worker, &m[0]);
	boot_mem_plan((unsigned)c->n_interfaces, packed, c->mbufs, obj, 4096, (unsigned)workers,
		      per_worker, &m[1]);
}

static bool has_arg(char **argv, int argc, const char *prefix)
{
	for (int i = 0; i < argc; i++)
		if (strncmp(argv[i], prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

/* Worker i's CPU: the config's dual_if threads in order; a thread that
 * does not exist on this machine is mapped onto one that does, round the
 * CPUs (flowgen(8), -c). */
static int worker_cpu(const struct cfg *c, int i, long ncpu, int master)
{
	int t = -1, k = 0;

	for (size_t d = 0; d < c->platform.n_dual_if && t < 0; d++)
		for (size_t j = 0; j < c->platform.dual_if[d].n_threads; j++, k++)
			if (k == i) {
				t = c->platform.dual_if[d].threads[j];
				break;
			}
	if (t < 0)
		t = master + 1 + i;
	/* round the CPUs there are: an extra worker shares a CPU with the
	 * main lcore (which mostly waits) before it shares one with another
	 * worker */
	return (int)(t % ncpu);
}

/* An EAL argument of the config's `eal` or of the command line starts with prefix. */
static bool user_eal_has(const struct cfg *c, const struct opts *o, const char *prefix)
{
	return has_arg(c->eal, (int)c->n_eal, prefix) ||
	       has_arg(o->eal_extra, o->n_eal_extra, prefix);
}

/* NUMA nodes of this machine, for a limit_memory given as one number. */
static size_t numa_nodes(void)
{
	char path[64];
	size_t n = 0;

	while (n < FG_CFG_MEM_NODES) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%zu", n);
		if (access(path, F_OK) != 0)
			break;
		n++;
	}
	return n ? n : 1;
}

/*
 * The EAL arguments of TRex's keys (flowgen(8), TRex keys): prefix gives
 * --file-prefix; limit_memory gives --socket-limit, a cap per NUMA node on
 * DPDK's dynamic hugepage memory (in legacy memory mode, where what is
 * reserved at start is all there is, --socket-mem), or without hugepages
 * -m, the size of the heap. The same arguments in `eal` or after -- win.
 * Writes at most two malloc'd strings to out; returns how many.
 */
static int trex_eal_args(const struct cfg *c, const struct opts *o, bool nohuge, char **out)
{
	const struct cfg_mem_limit *m = &c->limit_memory;
	char buf[FG_CFG_MEM_NODES * 12 + 32];
	int n = 0;

	if (c->prefix && !user_eal_has(c, o, "--file-prefix")) {
		snprintf(buf, sizeof(buf), "--file-prefix=%s", c->prefix);
		out[n++] = strdup(buf);
	}
	if (m->n && !user_eal_has(c, o, "-m") && !user_eal_has(c, o, "--socket-mem") &&
	    !user_eal_has(c, o, "--socket-limit")) {
		if (nohuge) {
			uint64_t total = 0;

			for (size_t i = 0; i < m->n; i++)
				total += m->mb[i];
			snprintf(buf, sizeof(buf), "-m%" PRIu64, total);
		} else {
			size_t nodes = m->n > 1 ? m->n : numa_nodes();
			int k = snprintf(buf, sizeof(buf), "%s=",
					 user_eal_has(c, o, "--legacy-mem") ? "--socket-mem"
									    : "--socket-limit");

			for (size_t i = 0; i < nodes; i++)
				k += snprintf(buf + k, sizeof(buf) - k, "%s%u", i ? "," : "",
					      m->mb[m->n > 1 ? i : 0]);
		}
		out[n++] = strdup(buf);
	}
	return n;
}

/* No hugepages to run on: asked for, or fewer free than the run needs. */
static bool want_nohuge(const struct cfg *c, const struct opts *o, const struct boot_mem m[2])
{
	uint64_t page;

	return user_eal_has(c, o, "--no-huge") || hugepages_free(&page) < m[0].need;
}

static int build_eal(const struct cfg *c, const struct opts *o, const struct boot_mem mem[2],
		     bool *on_nohuge, char **argv, int max, char *err, size_t errlen)
{
	int argc = 0, nw = o->cores * (int)(c->n_interfaces / 2);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int master = c->platform.master_thread_id >= 0 ? c->platform.master_thread_id : 0;
	char buf[1024];
	int n;

	if (master >= ncpu)
		master = 0;
	argv[argc++] = strdup("flowgen");
	n = snprintf(buf, sizeof(buf), "--lcores=0@%d", master);
	for (int i = 0; i < nw && n < (int)sizeof(buf) - 16; i++)
		n += snprintf(buf + n, sizeof(buf) - n, ",%d@%d", i + 1, worker_cpu(c, i, ncpu, master));
	/* More lcores than CPUs: some share one, which halves what each can
	 * do; say which go where (the mapping is the --lcores list above). */
	if (nw + 1 > ncpu) {
		char map[512];
		int m = 0;

		for (int i = 0; i < nw && m < (int)sizeof(map) - 24; i++)
			m += snprintf(map + m, sizeof(map) - (size_t)m, "%s%d->%d", i ? ", " : "",
				      i + 1, worker_cpu(c, i, ncpu, master));
		fg_warn("%d worker lcore(s) and the main lcore on %ld CPU(s): lcores share CPUs "
			"(main lcore 0->%d, worker lcores %s)",
			nw, ncpu, master, map);
	}
	argv[argc++] = strdup(buf);
	argv[argc++] = strdup("--main-lcore=0");
	argv[argc++] = strdup("--log-level=4");
	if (port_eal_args(c, o->cores, argv, &argc, max - 8, err, errlen) != 0)
		return -1;
	/*
	 * Without hugepages DPDK runs from ordinary memory (--no-huge), on a
	 * heap of -m MiB, the run's plan unless the user gives one. --no-huge
	 * refuses --in-memory (which implies legacy memory): that option is
	 * dropped then, also from the config's `eal`. It still takes the
	 * lock on its runtime directory's config file (/var/run/dpdk/rte/
	 * config for the default prefix), which would keep a second flowgen
	 * from starting: --no-shconf keeps that file away, unless the user
	 * names a file prefix of their own (then the lock is theirs to mind).
	 */
	bool nohuge = user_eal_has(c, o, "--no-huge");
	uint64_t page, free_huge = hugepages_free(&page);

	if (!nohuge && free_huge < mem[0].need) {
		/*
		 * A start-up notice, like the port lines: standard error, so
		 * that standard output carries only what the commands print
		 * (with --json, their JSON objects and nothing else).
		 */
		if (free_huge)
			fprintf(stderr,
				"%" PRIu64 " MiB of free hugepages, this run needs %u MiB: running "
				"with --no-huge\n",
				free_huge >> 20, mem[0].need_mb);
		else
			fprintf(stderr, "no free hugepages: running with --no-huge\n");
		nohuge = true;
		argv[argc++] = strdup("--no-huge");
	}
	if (nohuge && !user_eal_has(c, o, "-m") && !c->limit_memory.n) {
		snprintf(buf, sizeof(buf), "-m%u", mem[1].need_mb);
		argv[argc++] = strdup(buf);
	}
	if (nohuge && !c->prefix && !user_eal_has(c, o, "--file-prefix") &&
	    !user_eal_has(c, o, "--no-shconf"))
		argv[argc++] = strdup("--no-shconf");
	argc += trex_eal_args(c, o, nohuge, argv + argc);
	for (size_t i = 0; i < c->n_eal && argc < max - 8; i++)
		if (!nohuge || strcmp(c->eal[i], "--in-memory") != 0)
			argv[argc++] = strdup(c->eal[i]);
	for (int i = 0; i < o->n_eal_extra && argc < max - 8; i++)
		if (!nohuge || strcmp(o->eal_extra[i], "--in-memory") != 0)
			argv[argc++] = strdup(o->eal_extra[i]);
	/*
	 * --in-memory unless the user asks for DPDK's files with a
	 * --file-prefix of their own. TRex's `prefix` keeps it: no hugepage
	 * files either way, and the prefix still gives each instance its own
	 * runtime directory (/var/run/dpdk/PREFIX, its telemetry socket).
	 */
	if (!nohuge && !has_arg(argv, argc, "--in-memory") && !user_eal_has(c, o, "--file-prefix"))
		argv[argc++] = strdup("--in-memory");
	argv[argc] = NULL;
	*on_nohuge = nohuge;
	return argc;
}

/* --check: what the config gives, the TRex keys' effect included. */
static void print_derived(const struct cfg *c, const struct opts *o, int workers)
{
	const char *from = "default";
	char *args[4];
	int n;

	printf("  ports: %zu of %zu interfaces listed", c->n_interfaces, c->n_listed);
	if (c->port_limit)
		printf(" (port_limit %u)", c->port_limit);
	if (o->cores)
		from = "-c";
	else if (c->workers)
		from = "c";
	printf("\n  workers per port pair: %d (%s)\n", workers, from);
	printf("  flows_max: %u (%s)\n", c->flows_max, c->flows_from);
	printf("  mbufs per port: %u (%s)\n", c->mbufs, c->mbufs_from);
	struct boot_mem mem[2];

	mem_plan(c, workers * (int)(c->n_interfaces / 2), mem);
	n = trex_eal_args(c, o, want_nohuge(c, o, mem), args);
	printf("  eal from the config:");
	for (int i = 0; i < n; i++) {
		printf(" %s", args[i]);
		free(args[i]);
	}
	for (size_t i = 0; i < c->n_eal; i++)
		printf(" %s", c->eal[i]);
	printf("%s\n", n || c->n_eal ? "" : " (none)");
}

/* rte_memseg_list_walk() callback: prefault one list's memory */
static int prefault_list(const struct rte_memseg_list *msl, void *arg)
{
	(void)arg;
	if (msl->base_va && msl->len)
		(void)madvise(msl->base_va, msl->len, MADV_POPULATE_WRITE);
	return 0;
}

/*
 * A --no-huge heap is shared memory in 4 KiB pages that the mbuf pools'
 * set-up then touches one page at a time, a page fault each (0.8 s of the
 * default config's 1.9 s start on a two-CPU virtual machine). Faulted in
 * by the kernel in one call instead, before the pools are made. A kernel
 * without MADV_POPULATE_WRITE (before 5.14) refuses it, and the pages
 * fault in as before.
 */
static void nohuge_prefault(void)
{
	rte_memseg_list_walk(prefault_list, NULL);
}

/* -v: what flowgen asks of DPDK, and the memory plan (boot.h). */
static void print_start(const struct boot_mem *m, bool nohuge, char **eal, int n)
{
	fprintf(stderr, "eal:");
	for (int i = 1; i < n; i++)
		fprintf(stderr, " %s", eal[i]);
	fprintf(stderr,
		"\nmemory: %u MiB for DPDK (mbuf pools %" PRIu64 " MiB, DPDK's own, rings and "
		"capture %u MiB) %s; flow tables sized to each flows run at its start (%s; "
		"each start prints its plan), %" PRIu64 " MiB for an unpaced run's\n",
		m->need_mb, m->pools >> 20, BOOT_BASE_MB,
		nohuge ? "on the heap (--no-huge)" : "from hugepages",
		nohuge ? "on the heap" : "hugepages while free, else the heap", m->flowtab >> 20);
}

/*
 * A start-up failure: what failed (what, or flowgen's own message err),
 * DPDK's reason from its log, and the remedy (boot_diagnose).
 */
static void start_failed(const char *what, const char *err)
{
	char reason[512], hint[512], log[4096 + FG_ERRLEN + 2];

	snprintf(log, sizeof(log), "%s\n%s", boot_log_tail(), err);
	boot_diagnose(log, reason, sizeof(reason), hint, sizeof(hint));
	boot_log_close();
	if (*what)
		fprintf(stderr, "flowgen: %s: %s\n", what, *reason ? reason : "DPDK gave no reason");
	else if (strcmp(reason, err) != 0)
		fprintf(stderr, "flowgen: %s\nflowgen: DPDK: %s\n", err, reason);
	else
		fprintf(stderr, "flowgen: %s\n", err);
	fprintf(stderr, "flowgen: hint: %s\n", hint);
}

/* Run this program again, as it was started, with --no-huge for the EAL. */
static void reexec_nohuge(int argc, char **argv)
{
	char **nargv = calloc((size_t)argc + 3, sizeof(*nargv));
	bool dashes = false;
	int n = 0;

	if (!nargv)
		return;
	for (int i = 0; i < argc; i++) {
		dashes |= strcmp(argv[i], "--") == 0;
		nargv[n++] = argv[i];
	}
	static char dd[] = "--", nohuge[] = "--no-huge";

	if (!dashes)
		nargv[n++] = dd;
	nargv[n++] = nohuge;
	nargv[n] = NULL;
	fflush(NULL);
	execv("/proc/self/exe", nargv);
	fprintf(stderr, "flowgen: cannot start again: %s\n", strerror(errno));
	free(nargv);
}

/*
 * A test hook (README, Tests; 13_instances.sh): with FLOWGEN_TEST_STOP_BEFORE_POOLS
 * set in the environment at start-up, a flowgen whose plan put it on
 * hugepages stops itself (SIGSTOP) once DPDK is up and before the ports'
 * pools are made, after a line on standard error saying so. A test then
 * takes the free hugepages from another process and lets it go on
 * (SIGCONT): the race of several instances started at once (the pages
 * free when flowgen planned, gone when its pools want them), made to
 * happen on purpose. Read nowhere else; a start on --no-huge (the restart
 * this race leads to included) ignores it.
 */
static void test_stop_before_pools(bool nohuge)
{
	if (nohuge || !getenv("FLOWGEN_TEST_STOP_BEFORE_POOLS"))
		return;
	fprintf(stderr, "flowgen: test hook: pid %d on hugepages, stopped before the pools "
			"(FLOWGEN_TEST_STOP_BEFORE_POOLS)\n", (int)getpid());
	fflush(stderr);
	raise(SIGSTOP);
}

static volatile sig_atomic_t term_signal;

static void on_term(int sig)
{
	term_signal = sig;
	/*
	 * Orderly exit: end the console's input (a blocking read returns end
	 * of file), and interrupt whatever command runs, as Ctrl-C does;
	 * the shut-down sequence in main() then runs as on `quit`.
	 */
	close(STDIN_FILENO);
	raise(SIGINT);
}

/* One line per port: its link state, speed and worker queues. */
static void report_links(void)
{
	for (int p = 0; p < fg_nports; p++) {
		uint32_t speed = 0;
		bool up = port_link(p, &speed);

		if (!up)
			fg_warn("port %d (%s): link down", p, fg_port[p].name);
		else
			fprintf(stderr, "port %d (%s): link up, %u Mbps, %u worker queue(s)\n", p,
				fg_port[p].name, speed, fg_port[p].nqueues);
	}
}

/* The console (the prompt, batch or -x), and beside it the API with --api. */
static int run_console(const struct opts *o)
{
	char err[FG_ERRLEN];
	int rc;

	/* the front ends' own rows, after the command layer's */
	(void)api_add_cmds();
	(void)console_add_cmds();
	if (api_start(err, sizeof(err)) != 0) {
		fprintf(stderr, "flowgen: %s\n", err);
		return FG_EXIT_SOFTWARE;
	}
	if (!o->exec && !o->batch && isatty(STDIN_FILENO)) {
		rc = cli_run_interactive();
	} else {
		rc = o->exec ? cli_run_exec(o->exec, o->keep_going)
			     : cli_run_batch(stdin, o->keep_going);
		/* with --api, the API is served on once the script has ended */
		cli_serve();
	}
	api_stop();
	otg_fini(); /* the OTG config (the API's and the `otg` command's) */
	return rc;
}

/*
 * Once the ports and workers are up: the control threads, the recorder
 * with --record (on rec_fd, record_open's), the console, and their
 * shut-down in reverse order (run_console stopped the API; the record's
 * last lines are written once the traffic has stopped, cmds_fini). The
 * exit status.
 */
static int serve(const struct opts *o, const struct cfg *c, int rec_fd)
{
	char err[FG_ERRLEN];
	int rc;

	report_links();
	svc_set_nud(&c->neigh);
	svc_start();
	stats_init(fg_ctr, fg_nworkers, fg_nports, fg_tsc_hz);
	for (int i = 0; i < fg_nworkers; i++)
		stats_set_worker(i, fg_worker[i].lcore,
				 1u << fg_worker[i].port[0] | 1u << fg_worker[i].port[1]);
	cmds_init(c, o->json);
	cmds_set_verbose(o->verbose);
	stats_start();

	signal(SIGTERM, on_term);
	signal(SIGPIPE, SIG_IGN);
	if (o->record && record_start_fd(rec_fd, o->record,
					 o->record_interval > 0 ? o->record_interval
								: RECORD_INTERVAL_DEFAULT,
					 err, sizeof(err)) != 0) {
		fprintf(stderr, "flowgen: --record %s: %s\n", o->record, err);
		rc = FG_EXIT_SOFTWARE;
	} else {
		rc = run_console(o);
	}

	cmds_fini();
	stats_stop();
	svc_stop();
	ctl_shutdown();
	port_close_all();
	rte_eal_cleanup();
	return rc;
}

/*
 * -x of commands that only read files (cmds_files_only: `stats --from`,
 * `record plot`): nothing of the config, DPDK or the ports is needed, so
 * none is set up (no --api, --record or --check with it).
 */
static bool files_only(const struct opts *o)
{
	const char *p = o->exec;

	if (!p || o->check || o->record || o->api.listen)
		return false;
	while (*p) {
		size_t len = cli_cmd_span(p);
		char *one = strndup(p, len);
		bool yes = one && cmds_files_only(one);

		free(one);
		if (!yes)
			return false;
		p += len;
		if (*p)
			p++; /* the ';' or newline */
	}
	return true;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	struct cfg c = {0};
	char err[FG_ERRLEN] = "";
	char *eal[128];
	const char *path;
	int eargc, rc, rec_fd = -1;

	if (parse_opts(argc, argv, &o) != 0)
		return FG_EXIT_USAGE;
	if (api_configure(&o.api, err, sizeof(err)) != 0) {
		fprintf(stderr, "flowgen: %s\n", err);
		return FG_EXIT_USAGE;
	}
	if (files_only(&o)) {
		cmds_init_files(o.json);
		return cli_run_exec(o.exec, o.keep_going);
	}
	path = find_config(o.config);
	if (!path) {
		fprintf(stderr, "flowgen: no config: give -C FILE (none of ./flowgen.yaml, "
				"/etc/flowgen.yaml, /etc/trex_cfg.yaml exists)\n");
		return FG_EXIT_CONFIG;
	}
	if (cfg_load(path, &c, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return FG_EXIT_CONFIG;
	}
	for (size_t i = 0; i < c.n_warnings; i++)
		fprintf(stderr, "%s\n", c.warnings[i]);
	if (o.check) {
		rc = check_profiles(o.check_files, o.n_check);
		if (rc == FG_EXIT_OK) {
			printf("%s: ok (%zu ports)\n", path, c.n_interfaces);
			print_derived(&c, &o, o.cores ? o.cores : c.workers ? c.workers : 1);
		}
		cfg_free(&c);
		return rc;
	}
	/* the record's file first: a path that cannot be written stops
	 * flowgen before DPDK starts (the recorder takes it once the
	 * statistics run) */
	if (o.record && (rec_fd = record_open(o.record, err, sizeof(err))) < 0) {
		fprintf(stderr, "flowgen: --record %s\n", err);
		cfg_free(&c);
		return FG_EXIT_USAGE;
	}
	/* -c, else the config's `c` (TRex's threads per port pair), else 1. */
	if (!o.cores)
		o.cores = c.workers ? c.workers : 1;
	if (c.n_interfaces < 2) {
		fprintf(stderr, "%s: no ports configured (interfaces: needs a pair)\n", path);
		cfg_free(&c);
		return FG_EXIT_CONFIG;
	}
	struct boot_mem mem[2];
	bool nohuge = false;

	mem_plan(&c, o.cores * (int)(c.n_interfaces / 2), mem);
	eargc = build_eal(&c, &o, mem, &nohuge, eal, (int)FG_ARRAY_SIZE(eal), err, sizeof(err));
	if (eargc < 0) {
		fprintf(stderr, "flowgen: %s\n", err);
		cfg_free(&c);
		return FG_EXIT_SOFTWARE;
	}
	if (o.verbose)
		print_start(&mem[nohuge], nohuge, eal, eargc);
	/* rte_eal_init permutes argv: free what we allocated, from a copy. */
	char *eal_alloc[FG_ARRAY_SIZE(eal)];

	memcpy(eal_alloc, eal, sizeof(eal));
	boot_log_open();
	/* the TSC's measurement window runs while DPDK initialises */
	tsc_calibrate_mark();
	if (rte_eal_init(eargc, eal) < 0) {
		start_failed("DPDK initialisation failed", "");
		cfg_free(&c);
		return FG_EXIT_SOFTWARE;
	}
	if (nohuge)
		nohuge_prefault();
	/* before any worker starts: every rate and time uses the measured TSC
	 * (its window began before rte_eal_init) */
	tsc_calibrate(rte_get_tsc_hz(), FG_TSC_WINDOW_NS);
	test_stop_before_pools(nohuge);
	rc = port_init_all(&c, o.cores, err, sizeof(err));
	if (rc == 0)
		rc = ctl_launch(o.cores, err, sizeof(err));
	if (rc) {
		ctl_shutdown();
		port_close_all();
		rte_eal_cleanup();
		/*
		 * The hugepages were free when flowgen looked, and another
		 * process took them since (several started at once): start
		 * again on --no-huge, which needs nothing from anybody.
		 */
		if (rc == -ENOMEM && !nohuge) {
			fprintf(stderr, "flowgen: %s: the hugepages ran out meanwhile; starting "
					"again with --no-huge\n", err);
			boot_log_close();
			cfg_free(&c);
			reexec_nohuge(argc, argv);
			/* only if exec failed */
		}
		start_failed("", err);
		cfg_free(&c);
		return FG_EXIT_SOFTWARE;
	}
	boot_log_close();
	rc = serve(&o, &c, rec_fd);
	cfg_free(&c);
	for (int i = 0; i < eargc; i++)
		free(eal_alloc[i]);
	return rc;
}
