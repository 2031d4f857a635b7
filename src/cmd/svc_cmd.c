/*
 * svc_cmd.c — the console's service-mode commands (flowgen(8), service,
 * arp, ping) over src/control/svc.h: service mode on and off, the next
 * hops' MACs by ARP and Neighbour Discovery, and ICMP and ICMPv6 echo
 * from a port. Each writes its lines as they come and, when its front
 * end asks for one, a result value (cli.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "addr6.h"
#include "cli.h"
#include "json.h"
#include "port.h"
#include "port_addr.h"
#include "svc.h"
#include "svc_cmd.h"

static const struct option lo_service[] = {{"off", no_argument, NULL, 'o'}, {NULL, 0, NULL, 0}};
const struct cli_optspec svc_service_spec = {.longs = lo_service};
const struct cli_optspec svc_arp_spec = {.shorts = "p:"};
const struct cli_optspec svc_ping_spec = {.shorts = "p:d:n:s:"};

int svc_service_cmd(struct cmd_ctx *x, int argc, char **argv)
{
	struct jw j, *v;
	bool off = false;
	int c;

	cli_getopt_reset();
	while ((c = cli_getopt(argc, argv, &svc_service_spec)) != -1) {
		if (c != 'o')
			return cmd_bad_usage(x, argv);
		off = true;
	}
	if (optind != argc)
		return cmd_bad_usage(x, argv);
	svc_set_service(!off);
	fprintf(x->out, "service mode %s\n", off ? "off" : "on");
	if ((v = cmd_value_begin(x, &j))) {
		jw_obj(v, NULL);
		jw_bool(v, "service", !off);
		jw_obj_end(v);
	}
	return cmd_value_end(x, v, 0);
}

/*
 * One next hop `arp` resolved (or tried): its line of text, and its row in
 * the value's "next_hops" (v: NULL when no value is asked for). source is
 * how the MAC was learnt ("arp", "nd", "static") or NULL when it was not.
 */
static void arp_row(struct cmd_ctx *x, struct jw *v, int p, const char *family, const char *ip,
		    const char *gw, const char *mac, const char *source)
{
	if (mac)
		fprintf(x->out, "port %d: %s gw %s MAC %s%s\n", p, ip, gw, mac,
			!strcmp(source, "static") ? " (static dest_mac)"
			: !strcmp(source, "nd")	  ? " (ND)"
						  : "");
	if (!v)
		return;
	jw_obj(v, NULL);
	jw_i64(v, "port", p);
	jw_str(v, "family", family);
	jw_str(v, "ip", ip);
	jw_str(v, "gw", gw);
	jw_str(v, "gw_mac", mac);
	jw_str(v, "source", source);
	jw_bool(v, "resolved", mac != NULL);
	jw_obj_end(v);
}

/* `arp` for a port's IPv6 next hop, by Neighbour Discovery; 0 or -1. */
static int arp6(struct cmd_ctx *x, struct jw *v, int p)
{
	struct port *pt = &fg_port[p];
	char a[ADDR6_STRLEN], g[ADDR6_STRLEN], m[PORT_MAC_TEXT];
	uint64_t mac;

	addr6_str(pt->v.ip6, a);
	addr6_str(pt->gw6, g);
	if (svc_resolve6(p, pt->gw6, &mac, 1000) != 0) {
		arp_row(x, v, p, "ipv6", a, g, NULL, NULL);
		return cmd_fail(x, FG_E_FAILED, NULL, NULL,
				"port %d: %s gw %s: no Neighbour Advertisement", p, a, g);
	}
	svc_set_gw6(p, mac);
	arp_row(x, v, p, "ipv6", a, g, port_mac_text(pt->gw6_mac, m), "nd");
	return 0;
}

/* `arp` for a port's IPv4 next hop; 0, -1 (no reply) or 1 (nothing to do). */
static int arp4(struct cmd_ctx *x, struct jw *v, int p)
{
	struct port *pt = &fg_port[p];
	char a[ADDR4_STRLEN], g[ADDR4_STRLEN], m[PORT_MAC_TEXT];
	uint64_t mac;

	if (pt->static_gw_mac) {
		arp_row(x, v, p, "ipv4", addr4_str(pt->v.ip, a), addr4_str(pt->gw, g),
			port_mac_text(pt->gw_mac, m), "static");
		return 0;
	}
	if (!pt->v.ip || !pt->gw)
		return 1;
	addr4_str(pt->v.ip, a);
	addr4_str(pt->gw, g);
	if (svc_resolve(p, pt->gw, &mac, 1000) != 0) {
		arp_row(x, v, p, "ipv4", a, g, NULL, NULL);
		return cmd_fail(x, FG_E_FAILED, NULL, NULL, "port %d: %s gw %s: no ARP reply", p, a,
				g);
	}
	svc_set_gw(p, mac, false);
	arp_row(x, v, p, "ipv4", a, g, port_mac_text(pt->gw_mac, m), "arp");
	return 0;
}

/*
 * A failure of one port does not stop the others: every port asked for is
 * tried, each failure is shown as it comes, and the command fails with
 * the last one.
 */
int svc_arp_cmd(struct cmd_ctx *x, int argc, char **argv)
{
	struct jw j, *v;
	int64_t mask = -1;
	int c, failed = 0;

	cli_getopt_reset();
	while ((c = cli_getopt(argc, argv, &svc_arp_spec)) != -1) {
		if (c != 'p' || (mask = cmd_parse_ports(optarg, fg_nports)) < 0)
			return cmd_bad_usage(x, argv);
	}
	if (optind != argc)
		return cmd_bad_usage(x, argv);
	if ((v = cmd_value_begin(x, &j))) {
		jw_obj(v, NULL);
		jw_arr(v, "next_hops");
	}
	for (int p = 0; p < fg_nports; p++) {
		int rc;

		if (!(mask & (1LL << p)))
			continue;
		/* both families: IPv4 by ARP, IPv6 by Neighbour Discovery */
		rc = arp4(x, v, p);
		if (rc < 0)
			failed++, cmd_show_error(x);
		if (fg_port[p].has_gw6) {
			if (arp6(x, v, p) != 0)
				failed++, cmd_show_error(x);
		} else if (rc == 1) {
			fprintf(x->out,
				"port %d: no ip/default_gw configured, nothing to resolve\n", p);
		}
	}
	if (v) {
		jw_arr_end(v);
		jw_obj_end(v);
	}
	return cmd_value_end(x, v, failed ? -1 : 0);
}

/*
 * The echo requests of `ping` and their summary, to dip (IPv4) or, when
 * dip6 is set, to dip6 (IPv6), through the next hop mac; name is the
 * destination as printed. Each reply's line is written as it comes; the
 * value (x->value) holds each request's round trip (null: no reply) and
 * the summary. Fails (FG_E_FAILED) when no request got a reply.
 */
static int ping_run(struct cmd_ctx *x, long port, uint32_t dip, const uint8_t *dip6, uint64_t mac,
		    const char *name, long count, long size)
{
	struct jw j, *v = cmd_value_begin(x, &j);
	long sent = 0;
	int got = 0;
	double min = 1e18, max = 0, sum = 0;

	fprintf(x->out, "PING %s from port %ld: %ld data bytes\n", name, port, size);
	fflush(x->out);
	if (v) {
		jw_obj(v, NULL);
		jw_i64(v, "port", port);
		jw_str(v, "dst", name);
		jw_i64(v, "size", size);
		jw_arr(v, "replies");
	}
	for (long i = 1; i <= count; i++) {
		double rtt;
		int rc = dip6 ? svc_ping6_one(port, dip6, mac, i, size, 1000, &rtt)
			      : svc_ping_one(port, dip, mac, i, size, 1000, &rtt);

		if (rc == -EINTR)
			break;
		sent++;
		if (v) {
			jw_obj(v, NULL);
			jw_i64(v, "seq", i);
		}
		if (rc == 0) {
			got++;
			sum += rtt;
			min = FG_MIN(min, rtt);
			max = FG_MAX(max, rtt);
			fprintf(x->out, "%ld bytes from %s: icmp_seq=%ld time=%.3f ms\n", size + 8,
				name, i, rtt / 1000.0);
			if (v)
				jw_num(v, "rtt_ms", rtt / 1000.0, 3);
		} else {
			fprintf(x->out, "no reply from %s: icmp_seq=%ld\n", name, i);
			if (v)
				jw_null(v, "rtt_ms");
		}
		fflush(x->out);
		if (v)
			jw_obj_end(v);
		if (i < count) {
			for (int t = 0; t < 200 && !cli_interrupted(); t++)
				usleep(1000);
		}
	}
	fprintf(x->out, "--- %s ping statistics ---\n", name);
	fprintf(x->out, "%ld packets transmitted, %d received, %.0f%% packet loss\n", sent, got,
		sent ? 100.0 * (sent - got) / sent : 0.0);
	if (got)
		fprintf(x->out, "rtt min/avg/max = %.3f/%.3f/%.3f ms\n", min / 1000,
			sum / got / 1000, max / 1000);
	if (v) {
		jw_arr_end(v);
		jw_i64(v, "transmitted", sent);
		jw_i64(v, "received", got);
		jw_num(v, "loss_pct", sent ? 100.0 * (sent - got) / sent : 0.0, 1);
		if (got) {
			jw_obj(v, "rtt_ms");
			jw_num(v, "min", min / 1000, 3);
			jw_num(v, "avg", sum / got / 1000, 3);
			jw_num(v, "max", max / 1000, 3);
			jw_obj_end(v);
		} else {
			jw_null(v, "rtt_ms");
		}
		jw_obj_end(v);
	}
	return cmd_value_end(
	    x, v, got ? 0 : cmd_fail(x, FG_E_FAILED, NULL, NULL, "ping: no reply from %s", name));
}

/*
 * The next hop of a ping from port to dip (IPv4) or, when dip6 is set, to
 * dip6, named name: a neighbour answers ARP or Neighbour Discovery for
 * itself; anything further goes via the port's gateway of that family.
 * 0 with *mac, or -1 (FG_E_FAILED) when neither is known.
 */
static int ping_hop(struct cmd_ctx *x, long port, uint32_t dip, const uint8_t *dip6,
		    const char *name, uint64_t *mac)
{
	const struct port *p = &fg_port[port];
	uint64_t gw;

	if ((dip6 ? svc_resolve6(port, dip6, mac, 600) : svc_resolve(port, dip, mac, 600)) == 0)
		return 0;
	gw = dip6 ? p->gw6_mac : p->gw_mac;
	if (!(gw & PORT_MAC_KNOWN))
		return cmd_fail(
		    x, FG_E_FAILED, "-d", "run arp",
		    "ping: %s does not answer %s and port %ld's %sgateway MAC is unknown", name,
		    dip6 ? "Neighbour Discovery" : "ARP", port, dip6 ? "IPv6 " : "");
	*mac = gw;
	return 0;
}

/*
 * `ping` to an IPv6 destination, from the port's ipv6: a neighbour answers
 * Neighbour Discovery for itself; anything further goes via default_gw6.
 */
static int ping6(struct cmd_ctx *x, long port, const uint8_t *dip6, long count, long size)
{
	uint64_t mac;
	char ipb[ADDR6_STRLEN];

	addr6_str(dip6, ipb);
	if (!fg_port[port].v.has_ip6)
		return cmd_fail(x, FG_E_REFUSED, "-p", NULL,
				"ping: port %ld has no ipv6 in the config", port);
	if (size > 1452)
		return cmd_fail(x, FG_E_USAGE, "-s", NULL,
				"ping: -s %ld: at most 1452 data bytes over IPv6", size);
	if (ping_hop(x, port, 0, dip6, ipb, &mac) != 0)
		return -1;
	return ping_run(x, port, 0, dip6, mac, ipb, count, size);
}

int svc_ping_cmd(struct cmd_ctx *x, int argc, char **argv)
{
	long port = -1, count = 5, size = 56;
	uint32_t dip = 0;
	uint8_t dip6[16];
	bool v6 = false;
	struct in_addr a;
	int c;
	uint64_t mac;
	char ipb[ADDR6_STRLEN];

	cli_getopt_reset();
	while ((c = cli_getopt(argc, argv, &svc_ping_spec)) != -1) {
		char *end = NULL;

		switch (c) {
		case 'p':
			port = strtol(optarg, &end, 10);
			break;
		case 'd':
			v6 = addr6_parse(optarg, dip6);
			if (!v6 && inet_pton(AF_INET, optarg, &a) != 1)
				return cmd_fail(x, FG_E_USAGE, "-d", NULL,
						"ping: '%s' is not an IPv4 or IPv6 address",
						optarg);
			dip = v6 ? 1 : ntohl(a.s_addr); /* nonzero: given */
			end = (char *)"";
			break;
		case 'n':
			count = strtol(optarg, &end, 10);
			break;
		case 's':
			size = strtol(optarg, &end, 10);
			break;
		default:
			return cmd_bad_usage(x, argv);
		}
		if (!end || *end)
			return cmd_bad_usage(x, argv);
	}
	if (port < 0 || port >= fg_nports || !dip || count < 1 || count > 100000 || size < 8 ||
	    size > 1472 || optind != argc)
		return cmd_bad_usage(x, argv);
	if (v6)
		return ping6(x, port, dip6, count, size);
	if (!fg_port[port].v.ip)
		return cmd_fail(x, FG_E_REFUSED, "-p", NULL,
				"ping: port %ld has no ip in the config", port);
	if (ping_hop(x, port, dip, NULL, addr4_str(dip, ipb), &mac) != 0)
		return -1;
	return ping_run(x, port, dip, NULL, mac, addr4_str(dip, ipb), count, size);
}
