/*
 * svc.h — the control plane: the service thread that consumes the
 * workers' punt rings (ARP replies, Neighbour Advertisements, ICMP and
 * ICMPv6 echo replies, unknown frames in service mode), the neighbour
 * table it fills (both families), and the `service`, `arp` and `ping`
 * operations built on it; and the ports' next hops, followed after `arp`
 * learned them: an announcement of a new MAC (gratuitous ARP, unsolicited
 * NA) moves a next hop at once, and Neighbour Unreachability Detection
 * (nud.h) re-resolves one that stops answering.
 *
 * Context: control (the REPL thread and the service thread; they share
 * state under mutexes — workers never see it).
 *
 * Included by: control and console.
 */
#ifndef FG_SVC_H
#define FG_SVC_H

#include "fg.h"

int svc_start(void);
void svc_stop(void);

/* control: service mode on/off on every worker. */
void svc_set_service(bool on);
bool svc_service(void);

/* control: resolve `ip` on port p by ARP; 0 and *mac (word) or -ETIMEDOUT. */
int svc_resolve(int p, uint32_t ip, uint64_t *mac, unsigned timeout_ms);

/* control: resolve the IPv6 address ip6 (16 bytes) on port p by Neighbour
 * Discovery (an NS from the port's ipv6); 0 and *mac, or -ETIMEDOUT,
 * -EADDRNOTAVAIL (the port has no ipv6). */
int svc_resolve6(int p, const uint8_t *ip6, uint64_t *mac, unsigned timeout_ms);

/* control: port p's IPv6 next-hop MAC (a word of port_mac_word), learned
 * by ND; its pair's workers are told through their mailboxes (a static
 * dest_mac still wins: port_gw6_word). */
void svc_set_gw6(int p, uint64_t mac);

/* control: port p's next-hop MAC (a word of port_mac_word), learned or
 * static; its pair's workers are told through their mailboxes. A learned
 * one is followed from then on (REACHABLE now), a static one never. */
void svc_set_gw(int p, uint64_t mac, bool is_static);

/* control, before svc_start: the timers and probes of Neighbour
 * Unreachability Detection (the config's `neighbour`). */
struct nud_params;
void svc_set_nud(const struct nud_params *p);

/* The families of a run's frames on a port (svc_set_families). */
#define SVC_FAM_V4 1u
#define SVC_FAM_V6 2u
#define SVC_FAM_ALL 3u

/* control (run.c, at a start): the families port p's frames take in the
 * run (SVC_FAM_*; 0: it sends none), which its counters then speak for. */
void svc_set_families(int p, unsigned fam);

/* control (the statistics' hooks): port p's next hops into nh[0] (IPv4's)
 * and nh[1] (IPv6's), their counters less the baseline that
 * svc_stats_clear takes. */
struct stats_next_hop;
void svc_next_hops(int p, struct stats_next_hop *nh);
void svc_stats_clear(void);

/* control: one ICMP echo; 0 and *rtt_us, or -ETIMEDOUT / -EINTR. */
int svc_ping_one(int p, uint32_t dip, uint64_t dmac, uint16_t seq, uint16_t size, unsigned timeout_ms,
		 double *rtt_us);

/* control: one ICMPv6 echo to dip6 from the port's ipv6; as svc_ping_one. */
int svc_ping6_one(int p, const uint8_t *dip6, uint64_t dmac, uint16_t seq, uint16_t size,
		  unsigned timeout_ms, double *rtt_us);

/*
 * control: a tap sees every frame the workers punt (port, bytes, receive
 * TSC) on the service thread before ARP and ICMP handling; returning true
 * keeps it (it is freed, not handled further). NULL removes the tap.
 */
typedef bool svc_tap_fn(int port, const uint8_t *f, uint16_t len, uint64_t tsc, void *arg);
void svc_set_tap(svc_tap_fn *fn, void *arg);

/* control: send one frame on port p from control's TX queue (the
 * console's thread and the service thread take turns); 0, -ENOMEM or
 * -ENOBUFS. */
int svc_send(int p, const uint8_t *f, uint16_t len);

/* control: frames the service thread has seen that were not ARP/ICMP. */
uint64_t svc_other_frames(void);

#endif
