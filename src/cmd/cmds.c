/*
 * cmds.c — the command table: one row per command with its usage, help
 * and options (getopt's tables, struct cli_optspec) beside the handler,
 * so dispatch, parsing, `help` and TAB completion all come from the same
 * place. Handlers are thin: parse arguments, call the module that does
 * the work, and give back the result in their ctx (cli.h: text, value,
 * error value) for whichever front end runs them.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "addr6.h"
#include "bench_cmd.h"
#include "bench_search.h"
#include "capture.h"
#include "capture_cmd.h"
#include "cfg_data.h"
#include "cli.h"
#include "cli_tok.h"
#include "clock.h"
#include "cmds.h"
#include "ctl.h"
#include "errval.h"
#include "flowplan.h"
#include "json.h"
#include "log.h"
#include "plot.h"
#include "port.h"
#include "port_addr.h"
#include "prof.h"
#include "record.h"
#include "record_cmd.h"
#include "record_fmt.h"
#include "run.h"
#include "start_opts.h"
#include "stats.h"
#include "svc.h"
#include "svc_cmd.h"
#include "units.h"

static struct {
	bool verbose; /* flowgen -v */
} cmds;

void cmds_set_verbose(bool on) { cmds.verbose = on; }

/* A next hop's MAC as portattr shows it: "unknown" until learnt. */
static const char *gw_mac_text(uint64_t w, char *buf)
{
	return w & PORT_MAC_KNOWN ? port_mac_text(w, buf) : strcpy(buf, "unknown");
}

/*
 * The commands' options (cli.h, struct cli_optspec): each handler parses
 * with its row's spec, and TAB completion and test_cmdtab read the same.
 */
static const struct cli_optspec o_p = {.shorts = "p:"};
static const struct cli_optspec o_start = {.shorts = START_OPTS_SHORTS, .longs = start_opts_longs};
static const struct cli_optspec o_update = {.shorts = "m:"};
static const struct option lo_stats[] = {{"json", no_argument, NULL, 'j'},
					 {"plot", required_argument, NULL, 'P'},
					 {"pairs", no_argument, NULL, 'H'},
					 {"from", required_argument, NULL, 'F'},
					 {"seq", required_argument, NULL, 'S'},
					 {"failed", required_argument, NULL, 'f'},
					 {NULL, 0, NULL, 0}};
static const struct cli_optspec o_stats = {.shorts = "gpalwt", .longs = lo_stats};

/*
 * portattr's result value (the API asks for it: x->value): the ports of
 * mask with what the text shows, a figure unknown as null, and both TSC
 * rates.
 */
static int portattr_value(struct cmd_ctx *x, int64_t mask)
{
	struct jw j;

	cmd_json_begin(x, &j, false);
	jw_obj(&j, NULL);
	jw_arr(&j, "ports");
	for (int p = 0; p < fg_nports; p++) {
		const struct port *pt = &fg_port[p];
		char mac[PORT_MAC_TEXT], gm[PORT_MAC_TEXT];
		char a[ADDR6_STRLEN];
		uint32_t speed = 0;
		bool up;

		if (!(mask & (1LL << p)))
			continue;
		up = port_link(p, &speed);
		port_mac_text(port_mac_word(&pt->v.mac), mac);
		jw_obj(&j, NULL);
		jw_i64(&j, "port", p);
		jw_bool(&j, "link", up);
		if (speed)
			jw_u64(&j, "speed_mbps", speed);
		else
			jw_null(&j, "speed_mbps");
		jw_str(&j, "mac", mac);
		jw_str(&j, "ip", pt->v.ip ? addr4_str(pt->v.ip, a) : NULL);
		jw_str(&j, "gw", pt->gw ? addr4_str(pt->gw, a) : NULL);
		jw_str(&j, "gw_mac",
		       pt->gw_mac & PORT_MAC_KNOWN ? port_mac_text(pt->gw_mac, gm) : NULL);
		jw_str(&j, "driver", pt->driver);
		if (pt->v.has_ip6)
			addr6_str(pt->v.ip6, a);
		jw_str(&j, "ipv6", pt->v.has_ip6 ? a : NULL);
		if (pt->has_gw6)
			addr6_str(pt->gw6, a);
		jw_str(&j, "gw6", pt->has_gw6 ? a : NULL);
		jw_str(&j, "gw6_mac",
		       pt->gw6_mac & PORT_MAC_KNOWN ? port_mac_text(pt->gw6_mac, gm) : NULL);
		if (pt->v.vlan)
			jw_u64(&j, "vlan", pt->v.vlan);
		else
			jw_null(&j, "vlan");
		jw_obj_end(&j);
	}
	jw_arr_end(&j);
	jw_u64(&j, "tsc_hz", fg_tsc_hz);
	jw_u64(&j, "dpdk_tsc_hz", rte_get_tsc_hz());
	jw_obj_end(&j);
	return cmd_json_end(x, &j);
}

static int cmd_portattr(struct cmd_ctx *x, int argc, char **argv)
{
	int64_t mask = -1;
	int c;

	cli_getopt_reset();
	while ((c = cli_getopt(argc, argv, &o_p)) != -1)
		if (c != 'p' || (mask = cmd_parse_ports(optarg, fg_nports)) < 0)
			return cmd_bad_usage(x, argv);
	if (optind != argc)
		return cmd_bad_usage(x, argv);
	fprintf(x->out, "%-4s %-5s %-8s %-17s %-15s %-15s %-17s %s\n", "port", "link", "speed", "MAC",
		"IP", "gw", "gw MAC", "driver");
	for (int p = 0; p < fg_nports; p++) {
		struct port *pt = &fg_port[p];
		char mac[PORT_MAC_TEXT], gm[PORT_MAC_TEXT];
		char a[ADDR4_STRLEN] = "-", g[ADDR4_STRLEN] = "-", sp[16];
		uint32_t speed = 0;
		bool up;

		if (!(mask & (1LL << p)))
			continue;
		up = port_link(p, &speed);
		port_mac_text(port_mac_word(&pt->v.mac), mac);
		if (pt->v.ip)
			addr4_str(pt->v.ip, a);
		if (pt->gw)
			addr4_str(pt->gw, g);
		snprintf(sp, sizeof(sp), speed ? "%uM" : "-", speed);
		fprintf(x->out, "%-4d %-5s %-8s %-17s %-15s %-15s %-17s %s\n", p,
			up ? "up" : "down", sp, mac, a, g, gw_mac_text(pt->gw_mac, gm), pt->driver);
		if (pt->v.has_ip6 || pt->v.vlan) {
			/* the port's IPv6 side and tag, on a line of its own */
			char a6[ADDR6_STRLEN] = "-", g6[ADDR6_STRLEN] = "-", vl[8] = "-";

			if (pt->v.has_ip6)
				addr6_str(pt->v.ip6, a6);
			if (pt->has_gw6)
				addr6_str(pt->gw6, g6);
			if (pt->v.vlan)
				snprintf(vl, sizeof(vl), "%u", pt->v.vlan);
			fprintf(x->out, "%-4s ipv6 %s gw6 %s gw6 MAC %s vlan %s\n", "", a6, g6,
				gw_mac_text(pt->gw6_mac, gm), vl);
		}
	}
	fprintf(x->out, "TSC %.6f GHz (measured against CLOCK_MONOTONIC_RAW; DPDK's figure %.6f GHz)\n",
		(double)fg_tsc_hz / 1e9, (double)rte_get_tsc_hz() / 1e9);
	return x->value && portattr_value(x, mask) < 0 ? -1 : 0;
}

/* --seq N: a whole number */
static bool seq_arg(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

/*
 * stats --failed N: the last N failed flows of the current (or last) run
 * (flowgen(8), STATISTICS, "failed flows"), alone: with no section, no
 * record (a record keeps no failed flows) and no plot.
 */
static int stats_failed(struct cmd_ctx *x, unsigned sections, bool other, bool json, size_t n)
{
	uint32_t run = (uint32_t)ctl_run_id();

	if (sections || other)
		return cmd_fail(x, FG_E_USAGE, "--failed", NULL,
				"stats --failed lists failed flows alone: no section flag, --from, "
				"--plot or --pairs with it");
	if (json) {
		struct jw j;
		int rc;

		cmd_json_begin(x, &j, false);
		jw_obj(&j, NULL);
		rc = stats_failed_json(&j, "failed_flows", run, n);
		jw_obj_end(&j);
		return cmd_json_end(x, &j) < 0 || rc < 0 ? -1 : 0;
	}
	return stats_failed_print(x->out, run, n) < 0 ? -1 : 0;
}

static int cmd_stats(struct cmd_ctx *x, int argc, char **argv)
{
	const char *plot = NULL, *from = NULL;
	struct record_sel sel = {0};
	unsigned sections = 0;
	bool json = cmd_json(), failed = false;
	uint64_t nfailed = 0;
	int c;

	cli_getopt_reset();
	while ((c = cli_getopt(argc, argv, &o_stats)) != -1) {
		switch (c) {
		case 'g':
			sections |= STATS_G;
			break;
		case 'p':
			sections |= STATS_P;
			break;
		case 'a':
			sections |= STATS_A;
			break;
		case 'l':
			sections |= STATS_L;
			break;
		case 'w':
			sections |= STATS_W;
			break;
		case 't':
			sections |= STATS_T;
			break;
		case 'j':
			json = true;
			break;
		case 'P':
			plot = optarg;
			break;
		case 'H':
			sections |= STATS_H;
			break;
		case 'F':
			from = optarg;
			break;
		case 'S':
			if (!seq_arg(optarg, &sel.seq))
				return cmd_bad_usage(x, argv);
			sel.by_seq = true;
			break;
		case 'f':
			if (!seq_arg(optarg, &nfailed) || !nfailed || nfailed > STATS_FAILED_MAX)
				return cmd_fail(x, FG_E_USAGE, "--failed", NULL,
						"stats --failed N: N from 1 to %u", STATS_FAILED_MAX);
			failed = true;
			break;
		default:
			return cmd_bad_usage(x, argv);
		}
	}
	if (optind != argc)
		return cmd_bad_usage(x, argv);
	if (failed)
		return stats_failed(x, sections, from || plot, json, (size_t)nfailed);
	if (sel.by_seq && !from)
		return cmd_fail(x, FG_E_USAGE, "--seq", NULL, "stats: --seq picks a line of --from FILE");
	if (from && (plot || (sections & STATS_H)))
		return cmd_fail(x, FG_E_USAGE, plot ? "--plot" : "--pairs", "record plot FILE OUT.svg",
				"stats --from: a record keeps neither the latency histograms of "
				"--plot nor the host pairs of --pairs");
	/* no section flag: all of them (--pairs adds the host pairs; -t alone
	 * is the groups only) */
	if (!(sections & (STATS_ALL | STATS_T)))
		sections |= STATS_ALL;
	if (from)
		return record_stats_from(x, from, &sel, sections, json);
	if (plot && plot_stats(plot) != 0)
		return -1;
	if (json) {
		struct jw j;
		int rc;

		cmd_json_begin(x, &j, false);
		rc = stats_emit(&j, sections);
		return cmd_json_end(x, &j) < 0 || rc < 0 ? -1 : 0;
	}
	return stats_print(x->out, sections, false) < 0 ? -1 : 0;
}

static int cmd_clear(struct cmd_ctx *x, int argc, char **argv)
{
	if (argc != 1)
		return cmd_bad_usage(x, argv);
	stats_clear();
	return 0;
}

/*
 * The flow tables' plan (flowplan.h) of the run just started: a line per
 * worker on errout when asked (start -v, flowgen -v), and the value's
 * `tables`: per worker, the flows it needs (the DUT answering) and wants
 * (the DUT answering nothing) and their entries, the table taken, its
 * bytes and where it is.
 */
static void start_tables(struct cmd_ctx *x, const struct flowplan *t, bool print, struct jw *v)
{
	char line[256];

	if (!t)
		return;
	for (unsigned i = 0; print && i < t->nw; i++) {
		flowplan_line(t, i, line, sizeof(line));
		fprintf(x->errout, "tables: %s\n", line);
	}
	if (print)
		fprintf(x->errout,
			"tables: need %" PRIu64 " concurrent flows, want %" PRIu64 ", %" PRIu64
			" entries, %.1f MiB (%.1f MiB in hugepages, %.1f MiB on the heap)\n",
			t->need, t->want, t->entries, (double)t->bytes / 1048576.0,
			(double)t->huge / 1048576.0, (double)t->heap / 1048576.0);
	fflush(x->errout);
	if (!v)
		return;
	jw_obj(v, "tables");
	jw_u64(v, "need", t->need);
	jw_u64(v, "want", t->want);
	jw_u64(v, "entries", t->entries);
	jw_u64(v, "bytes", t->bytes);
	jw_u64(v, "huge_bytes", t->huge);
	jw_u64(v, "heap_bytes", t->heap);
	jw_bool(v, "cut", t->cut);
	jw_arr(v, "workers");
	for (unsigned i = 0; i < t->nw; i++) {
		jw_obj(v, NULL);
		jw_u64(v, "need", t->w[i].need);
		jw_u64(v, "want", t->w[i].want);
		jw_u64(v, "need_entries", t->w[i].need_entries);
		jw_u64(v, "want_entries", t->w[i].want_entries);
		jw_u64(v, "entries", t->w[i].entries);
		jw_u64(v, "bytes", t->w[i].bytes);
		jw_str(v, "where", t->w[i].huge ? "hugepages" : "heap");
		jw_obj_end(v);
	}
	jw_arr_end(v);
	jw_obj_end(v);
}

/*
 * What a start started (run_info): the profile's warnings (and service
 * mode's) on errout, the "started" line on out, and as the value: the
 * run's number, profile, engine, -m, seed, duration, how it ends, its
 * planned start (`at`: --at's time, or the start's own), the warnings and
 * the flow tables' plan.
 */
static int start_result(struct cmd_ctx *x, const char *who, bool verbose)
{
	struct run_info ri;
	struct jw j, *v;
	const char *ends;
	char at[WC_TEXT_MAX];

	if (run_info(&ri) != 0)
		return cmd_fail(x, FG_E_INTERNAL, NULL, NULL, "%s: no run after the start", who);
	ends = ri.duration_s > 0 ? "duration" : ri.counted ? "count" : "stop";
	if (ri.service)
		fprintf(x->errout, "warning: %s: service mode is on; traffic starts anyway\n", who);
	for (size_t i = 0; i < ri.n_warnings; i++)
		fprintf(x->errout, "warning: %s\n", ri.warnings[i]);
	fflush(x->errout);
	wc_fmt(ri.at_ns, at, sizeof(at));
	fprintf(x->out, "started %s (%s, -m %s, seed %u)%s%s%s\n", ri.file, ri.engine, ri.mult,
		ri.seed,
		!strcmp(ends, "duration") ? ""
		: !strcmp(ends, "count")  ? "; ends when every stream has sent its count"
					  : "; runs until stop",
		ri.planned ? "; traffic begins at " : "", ri.planned ? at : "");
	v = cmd_value_begin(x, &j);
	if (!v)
		start_tables(x, ri.tables, verbose || cmds.verbose, NULL);
	if (v) {
		jw_obj(v, NULL);
		jw_u64(v, "run_id", ri.run_id);
		jw_str(v, "profile", ri.file);
		jw_str(v, "engine", ri.engine);
		jw_str(v, "mult", ri.mult);
		jw_u64(v, "seed", ri.seed);
		if (ri.duration_s > 0)
			jw_num(v, "duration_s", ri.duration_s, 3);
		else
			jw_null(v, "duration_s");
		jw_str(v, "ends", ends);
		jw_str(v, "at", at[0] ? at : NULL);
		jw_bool(v, "planned", ri.planned);
		jw_bool(v, "service", ri.service);
		jw_arr(v, "warnings");
		if (ri.service)
			jw_str(v, NULL, "service mode is on; traffic starts anyway");
		for (size_t i = 0; i < ri.n_warnings; i++)
			jw_str(v, NULL, ri.warnings[i]);
		jw_arr_end(v);
		start_tables(x, ri.tables, verbose || cmds.verbose, v);
		jw_obj_end(v);
	}
	return cmd_value_end(x, v, 0);
}

static int cmd_start(struct cmd_ctx *x, int argc, char **argv)
{
	struct start_opts o;
	struct run_params rp = {0};
	char err[FG_ERRLEN];
	unsigned flags = 0;
	int64_t mask = -1;

	if (start_opts_parse(argc, argv, &o, err, sizeof(err)) != 0) {
		if (strcmp(err, "usage") == 0)
			return cmd_bad_usage(x, argv);
		return cmd_fail(x, FG_E_USAGE, strncmp(err, "--at", 4) == 0 ? "--at" : NULL, NULL,
				"start: %s", err);
	}
	if (o.ports && (mask = cmd_parse_ports(o.ports, fg_nports)) < 0)
		return cmd_fail(x, FG_E_USAGE, "-p", NULL, "start: -p '%s': no such ports (0..%d)",
				o.ports, fg_nports - 1);
	rp.mult = o.mult;
	rp.duration_s = o.duration_s;
	rp.tunables = o.tunables;
	rp.active = o.active;
	rp.at = o.at;
	flags |= o.force ? RUN_FORCE : 0;
	flags |= o.keep ? RUN_KEEP_COUNTERS : 0;
	rp.port_mask = (uint32_t)mask;
	/* control's refusal is the command's error value, word for word */
	if (run_start_file(o.file, &rp, flags, "start", &x->err) < 0) {
		x->err_shown = false;
		return -1;
	}
	return start_result(x, "start", o.verbose);
}

/* The value of stop, pause and resume: the traffic's state after them. */
static int state_value(struct cmd_ctx *x, const char *key, bool on, const char *state)
{
	struct jw j, *v = cmd_value_begin(x, &j);

	if (v) {
		jw_obj(v, NULL);
		jw_bool(v, key, on);
		jw_str(v, "state", state);
		jw_obj_end(v);
	}
	return cmd_value_end(x, v, 0);
}

static int cmd_stop(struct cmd_ctx *x, int argc, char **argv)
{
	int rc;

	if (argc != 1)
		return cmd_bad_usage(x, argv);
	/* the API's requests run while the traffic drains, as in `wait` */
	rc = run_stop_serving(true, cli_poll_now);
	if (rc < 0)
		return -1; /* control logged why */
	fprintf(x->out, "%s\n", rc > 0 ? "no traffic running" : "stopped");
	return state_value(x, "stopped", rc == 0, "idle");
}

static int cmd_pause(struct cmd_ctx *x, int argc, char **argv)
{
	bool on = strcmp(argv[0], "pause") == 0;

	if (argc != 1)
		return cmd_bad_usage(x, argv);
	if (run_pause(on) != 0)
		return cmd_fail(x, FG_E_REFUSED, NULL, "start traffic first", "%s: no traffic running",
				argv[0]);
	return state_value(x, "paused", on, on ? "paused" : "running");
}

static int cmd_update(struct cmd_ctx *x, int argc, char **argv)
{
	struct units_rate r;
	struct jw j, *v;
	char err[FG_ERRLEN];
	const char *m = NULL;
	int c, rc;

	cli_getopt_reset();
	while ((c = cli_getopt(argc, argv, &o_update)) != -1) {
		if (c != 'm')
			return cmd_bad_usage(x, argv);
		m = optarg;
	}
	if (!m || optind != argc)
		return cmd_bad_usage(x, argv);
	if (units_parse_mult(m, &r, err, sizeof(err)) != 0)
		return cmd_fail(x, FG_E_USAGE, "-m", NULL, "update: -m %s", err);
	rc = run_update(&r, err, sizeof(err));
	if (rc != 0)
		return cmd_fail(x, FG_E_REFUSED, NULL, NULL, "update: %s", err); /* nothing changed */
	fprintf(x->out, "rate x%.3f of the start rate\n", run_scale());
	if ((v = cmd_value_begin(x, &j))) {
		jw_obj(v, NULL);
		jw_num(v, "scale", run_scale(), 6);
		jw_obj_end(v);
	}
	return cmd_value_end(x, v, 0);
}

static int cmd_wait(struct cmd_ctx *x, int argc, char **argv)
{
	struct jw j, *v;
	double secs = -1;
	char err[FG_ERRLEN];

	if (argc > 2)
		return cmd_bad_usage(x, argv);
	if (argc == 2 && units_parse_duration(argv[1], &secs, err, sizeof(err)) != 0)
		return cmd_fail(x, FG_E_USAGE, argv[1], NULL, "wait: %s", err);
	/* in steps of 50 ms, between which the API's requests run (cli.h) */
	uint64_t hz = rte_get_timer_hz(), t0 = rte_get_timer_cycles(),
		 end = t0 + (uint64_t)(secs * hz);
	bool idle = false;

	for (;;) {
		double step = 0.05;

		if (secs >= 0) {
			uint64_t now = rte_get_timer_cycles();

			if (now >= end)
				break;
			step = FG_MIN(step, (double)(end - now) / hz);
		}
		if ((idle = run_wait_idle(step, true)) || ctl_cancelled())
			break;
		cli_poll_now();
	}
	if ((v = cmd_value_begin(x, &j))) {
		jw_obj(v, NULL);
		jw_bool(v, "idle", idle || !run_busy());
		jw_num(v, "waited_s", (double)(rte_get_timer_cycles() - t0) / (double)hz, 3);
		jw_obj_end(v);
	}
	return cmd_value_end(x, v, 0);
}

static int cmd_record(struct cmd_ctx *x, int argc, char **argv)
{
	return record_cmd(x, argc, argv, cmd_json());
}

static const struct cli_cmd table[] = {
    {"service", svc_service_cmd, "service [--off]",
     "enter/leave service mode (ports answer ICMP; non-test frames go to control)",
     &svc_service_spec, 0},
    {"arp", svc_arp_cmd, "arp [-p PORTS]",
     "resolve each port's default_gw by ARP and default_gw6 by Neighbour Discovery", &svc_arp_spec,
     0},
    {"ping", svc_ping_cmd, "ping -p PORT -d IP|IPV6 [-n COUNT] [-s SIZE]",
     "ICMP or ICMPv6 echo from a port", &svc_ping_spec, 0},
    {"start", cmd_start,
     "start -f PROFILE [-m MULT] [-d SECONDS] [-p PORTS] [-t KEY=VAL,...] [--active N] "
     "[--at TIME] [--force] [--nc] [-v]",
     "load a profile and start traffic", &o_start, CLI_F_FILEARG},
    {"stop", cmd_stop, "stop", "stop all traffic (flows in flight drain)", NULL, 0},
    {"pause", cmd_pause, "pause", "hold traffic", NULL, 0},
    {"resume", cmd_pause, "resume", "continue held traffic", NULL, 0},
    {"update", cmd_update, "update -m MULT", "change the rate of running traffic", &o_update, 0},
    {"wait", cmd_wait, "wait [SECONDS]", "block until traffic ends (or SECONDS pass)", NULL, 0},
    {"stats", cmd_stats,
     "stats [-g] [-p] [-a] [-l] [-w] [-t] [--pairs] [--json] [--plot FILE.svg] [--from FILE "
     "[--seq N]] | stats --failed N [--json]",
     "global / port / flows / latency / worker statistics (of now, or of a record); the last "
     "N failed flows",
     &o_stats, CLI_F_FILEARG},
    {"clear", cmd_clear, "clear", "zero the statistics shown (a baseline)", NULL, 0},
    {"portattr", cmd_portattr, "portattr [-p PORTS]", "link, speed, MAC, IP, gw, gw MAC, driver",
     &o_p, 0},
    {"bench", bench_cmd, bench_usage,
     "automated measurements: RFC 2544 throughput, RFC 8219 latency, RFC 9693 CPS, tear-down and "
     "capacity; NAT behaviour (RFC 4787, 5382, 5508, 7857)",
     &bench_spec, CLI_F_FILEARG},
    {"capture", capture_cmd, capture_usage,
     "record the ports' frames as pcapng (BPF filter, frame limit)", &capture_spec, CLI_F_PATHARG},
    {"record", cmd_record,
     "record start FILE [-i|--interval SECONDS] | record stop | record status [--json] | "
     "record plot FILE OUT.svg",
     "write the figures to FILE as they go (JSON Lines), or plot a record", &record_spec,
     CLI_F_PATHARG},
};

static void on_sigint(void)
{
	if (ctl_busy()) {
		ctl_stop();
		fg_info("stopping traffic");
	}
}

void cmds_install(void) { cli_init(table, FG_ARRAY_SIZE(table)); }

void cmds_init_files(bool json)
{
	cmd_set_json(json);
	cmds_install();
}

bool cmds_files_only(const char *line)
{
	char *argv[CLI_MAX_ARGS], *buf = strdup(line);
	int argc = buf ? cli_tokenize(line, argv, CLI_MAX_ARGS, buf, strlen(line) + 1) : -1;
	bool yes = argc == 0;

	if (argc > 0 && (!strcmp(argv[0], "help") || !strcmp(argv[0], "echo")))
		yes = true;
	else if (argc > 2 && !strcmp(argv[0], "record") && !strcmp(argv[1], "plot"))
		yes = true;
	else if (argc > 0 && !strcmp(argv[0], "stats"))
		for (int i = 1; i < argc && !yes; i++)
			yes = !strcmp(argv[i], "--from") || !strncmp(argv[i], "--from=", 7);
	free(buf);
	return yes;
}

void cmds_init(const struct cfg *c, bool json)
{
	cmd_set_json(json);
	/* flows_max caps a table only when the config gives it (flowplan.h) */
	run_init(strcmp(c->flows_from, "default") != 0 ? c->flows_max : 0);
	/* A loop pair's next hop is its peer: there is no gateway to resolve. */
	for (size_t i = 0; i + 1 < c->n_interfaces; i += 2)
		if (c->ifs[i].kind == CFG_IF_LOOP)
			for (int s = 0; s < 2; s++) {
				struct port *p = &fg_port[i + s];

				if (!p->static_gw_mac) {
					svc_set_gw(i + s, port_mac_word(&fg_port[i + !s].v.mac),
						   true);
				}
			}
	cmds_install();
	cli_set_sigint_hook(on_sigint);
	cli_set_cancel_hook(ctl_set_cancel);
}

void cmds_fini(void)
{
	capture_fini();
	run_halt();    /* the traffic stops: the run's figures are its last */
	record_fini(); /* the record's last lines, of those figures */
	run_fini();
}
