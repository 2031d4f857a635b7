/*
 * svc_cmd.h — the console's service-mode commands (svc_cmd.c, flowgen(8),
 * service, arp, ping) over src/control/svc.h.
 *
 * Included by: cmd.
 */
#ifndef FG_SVC_CMD_H
#define FG_SVC_CMD_H

struct cmd_ctx;
struct cli_optspec;

/* The options of the command table's rows `service`, `arp` and `ping`. */
extern const struct cli_optspec svc_service_spec;
extern const struct cli_optspec svc_arp_spec;
extern const struct cli_optspec svc_ping_spec;

/* `service [--off]`: service mode on or off. 0, or -1 (error in x). */
int svc_service_cmd(struct cmd_ctx *x, int argc, char **argv);

/*
 * `arp [-p PORTS]`: each port's default_gw by ARP and default_gw6 by
 * Neighbour Discovery. Every port asked for is tried; fails with the
 * last failure. 0, or -1 (error in x).
 */
int svc_arp_cmd(struct cmd_ctx *x, int argc, char **argv);

/* `ping -p PORT -d IP|IPV6 [-n COUNT] [-s SIZE]`. 0, or -1 (error in x). */
int svc_ping_cmd(struct cmd_ctx *x, int argc, char **argv);

#endif
