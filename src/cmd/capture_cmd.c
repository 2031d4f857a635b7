/*
 * capture_cmd.c — the `capture` console command (flowgen(8), capture), run
 * on the console's thread: `capture start [-p PORTS] [--rx|--tx|--both]
 * [--filter BPF] [--limit N] [--ring N]`, `capture stop`, `capture save
 * FILE.pcapng` and `capture status [--json]`. It parses the words and
 * prints the outcome; the work is in src/control/capture.c.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "capture_cmd.h"
#include "cli.h"
#include "json.h"
#include "port.h"

const char capture_usage[] =
    "capture start [-p PORTS] [--rx|--tx|--both] [--filter BPF] [--limit N] [--ring N] | "
    "capture stop | capture save FILE.pcapng | capture status [--json]";

static int cap_bad(struct cmd_ctx *x, const char *what)
{
	return cmd_fail(x, FG_E_USAGE, NULL, NULL, "capture: %s; usage: %s", what, capture_usage);
}

/* A whole number in [lo, hi]; false otherwise. */
static bool cap_num(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static void cap_ports_str(uint64_t mask, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (int p = 0; p < fg_nports && o < len; p++)
		if ((mask >> p) & 1)
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", p);
	if (!o)
		snprintf(buf, len, "none");
}

/* capture status's one option (parsed by hand: it is the only one) */
static const struct option cap_status_longs[] = {{"json", no_argument, NULL, 'j'},
						 {NULL, 0, NULL, 0}};
static const struct cli_optspec cap_status_spec = {.longs = cap_status_longs};

static const struct option cap_start_longs[] = {{"rx", no_argument, NULL, 'r'},
						{"tx", no_argument, NULL, 'T'},
						{"both", no_argument, NULL, 'b'},
						{"filter", required_argument, NULL, 'f'},
						{"limit", required_argument, NULL, 'l'},
						{"ring", required_argument, NULL, 'R'},
						{NULL, 0, NULL, 0}};
static const char *const cap_words[] = {"start", "stop", "save", "status", NULL};

const struct cli_optspec capture_spec = {
    .shorts = "p:", .longs = cap_start_longs, .words = cap_words, .next = &cap_status_spec};

/*
 * The capture's state as a value (capture status --json's "capture"
 * object, and the value of stop): with key NULL the object itself.
 */
static void cap_status_json(struct jw *j, const char *key, const struct cap_status *st)
{
	char rs[64], ts[64];

	cap_ports_str(st->rx_ports, rs, sizeof(rs));
	cap_ports_str(st->tx_ports, ts, sizeof(ts));
	jw_obj(j, key);
	jw_bool(j, "running", st->running);
	jw_bool(j, "have", st->have);
	jw_str(j, "rx_ports", rs);
	jw_str(j, "tx_ports", ts);
	jw_u64(j, "frames", st->written);
	jw_u64(j, "dropped", st->dropped);
	jw_u64(j, "over_limit", st->over_limit);
	jw_u64(j, "limit", st->limit);
	jw_bool(j, "limit_reached", st->limit_reached);
	jw_num(j, "seconds", st->secs, 3);
	jw_obj_end(j);
}

/* The current capture's state as the command's value, when one is asked for. */
static int cap_value(struct cmd_ctx *x, int rc)
{
	struct cap_status st;
	struct jw j, *v = cmd_value_begin(x, &j);

	if (!v)
		return rc;
	capture_status(&st);
	jw_obj(v, NULL);
	cap_status_json(v, "capture", &st);
	jw_obj_end(v);
	return cmd_value_end(x, v, rc);
}

static int cap_start(struct cmd_ctx *x, int argc, char **argv)
{
	struct cap_opts o = {.ring = CAP_RING_DEFAULT};
	int64_t ports = (int64_t)((1ULL << fg_nports) - 1);
	bool rx = true, tx = true;
	char err[FG_ERRLEN], ps[64];
	uint64_t v;
	int c;

	cli_getopt_reset();
	while ((c = cli_getopt(argc, argv, &capture_spec)) != -1) {
		switch (c) {
		case 'p':
			if ((ports = cmd_parse_ports(optarg, fg_nports)) <= 0) {
				snprintf(err, sizeof(err), "-p '%s': no such ports (0..%d)", optarg,
					 fg_nports - 1);
				return cap_bad(x, err);
			}
			break;
		case 'r':
			rx = true, tx = false;
			break;
		case 'T':
			rx = false, tx = true;
			break;
		case 'b':
			rx = tx = true;
			break;
		case 'f':
			o.filter = optarg;
			break;
		case 'l':
			if (!cap_num(optarg, 1, UINT32_MAX, &o.limit))
				return cap_bad(x, "--limit takes a number of frames, 1 or more");
			break;
		case 'R':
			if (!cap_num(optarg, 64, 65536, &v) || (v & (v - 1)))
				return cap_bad(x, "--ring takes a power of two from 64 to 65536");
			o.ring = (unsigned)v;
			break;
		default:
			return cap_bad(x, "unknown option");
		}
	}
	if (optind != argc)
		return cap_bad(x, "unexpected words after the options (quote a filter)");
	o.rx_ports = rx ? (uint64_t)ports : 0;
	o.tx_ports = tx ? (uint64_t)ports : 0;
	if (capture_start(&o, err, sizeof(err)) != 0)
		return cmd_fail(x, FG_E_REFUSED, NULL, NULL, "capture: %s", err);
	cap_ports_str((uint64_t)ports, ps, sizeof(ps));
	fprintf(x->out, "capturing on ports %s, %s%s%s%s\n", ps,
		rx && tx ? "rx and tx" : rx ? "rx" : "tx", o.filter ? ", filter \"" : "",
		o.filter ? o.filter : "", o.filter ? "\"" : "");
	return cap_value(x, 0);
}

static int cap_print_status(struct cmd_ctx *x, bool json)
{
	struct cap_status st;
	char rs[64], ts[64];

	capture_status(&st);
	if (json || x->value) {
		struct jw j;

		cmd_json_begin(x, &j, true);
		jw_obj(&j, NULL);
		cap_status_json(&j, "capture", &st);
		jw_obj_end(&j);
		if (cmd_json_end(x, &j) < 0)
			return -1;
		if (json)
			return 0;
	}
	cap_ports_str(st.rx_ports, rs, sizeof(rs));
	cap_ports_str(st.tx_ports, ts, sizeof(ts));
	if (!st.have) {
		fprintf(x->out, "capture: none\n");
		return 0;
	}
	fprintf(x->out, "capture: %s%s, %.1f s, rx ports %s, tx ports %s, filter %s%s%s\n",
	       st.running ? "running" : "stopped", st.limit_reached ? " (limit reached)" : "",
	       st.secs, rs, ts, st.filter[0] ? "\"" : "", st.filter[0] ? st.filter : "none",
	       st.filter[0] ? "\"" : "");
	fprintf(x->out, "  frames %" PRIu64 "%s, dropped %" PRIu64 " (ring full or no buffer)\n",
		st.written, st.limit ? " (limit set)" : "", st.dropped);
	return 0;
}

int capture_cmd(struct cmd_ctx *x, int argc, char **argv)
{
	char err[FG_ERRLEN];

	if (argc < 2)
		return cap_bad(x, "start, stop, save or status?");
	if (strcmp(argv[1], "start") == 0)
		return cap_start(x, argc - 1, argv + 1);
	if (strcmp(argv[1], "stop") == 0) {
		struct cap_status st;

		if (argc != 2)
			return cap_bad(x, "stop takes no arguments");
		if (capture_stop() != 0)
			return cmd_fail(x, FG_E_REFUSED, NULL, NULL, "capture: no capture is running");
		capture_status(&st);
		fprintf(x->out, "capture stopped: %" PRIu64 " frames, %" PRIu64 " dropped\n",
			st.written, st.dropped);
		return cap_value(x, 0);
	}
	if (strcmp(argv[1], "save") == 0) {
		struct jw j;
		int64_t n;

		if (argc != 3)
			return cap_bad(x, "save takes one file name");
		n = capture_save(argv[2], err, sizeof(err));
		if (n < 0)
			return cmd_fail(x, FG_E_FAILED, argv[2], NULL, "capture: %s", err);
		fprintf(x->out, "saved %" PRId64 " frames to %s (pcapng interface N is DPDK port N)\n",
			n, argv[2]);
		if (!x->value)
			return 0;
		cmd_json_begin(x, &j, false);
		jw_obj(&j, NULL);
		jw_str(&j, "file", argv[2]);
		jw_i64(&j, "frames", n);
		jw_obj_end(&j);
		return cmd_json_end(x, &j) < 0 ? -1 : 0;
	}
	if (strcmp(argv[1], "status") == 0) {
		bool json = cmd_json();

		if (argc == 3 && strcmp(argv[2], "--json") == 0)
			json = true;
		else if (argc != 2)
			return cap_bad(x, "status takes only --json");
		return cap_print_status(x, json) < 0 ? -1 : 0;
	}
	return cap_bad(x, "start, stop, save or status?");
}
