/*
 * prof_plan.h — the plan a traffic profile is loaded into (struct prof and
 * its parts, as prof_load leaves them) and the questions asked of a loaded
 * plan (prof_plan.c): its largest frame, a stream's average frame, the
 * flows' total rate, the families a port sends. Loading and freeing a
 * plan are in prof.h; the limits, enums and the parts of a plan a worker
 * reads (programs, stream fields) are types only, in include/prof-t.h.
 *
 * Context: pure (every function reads only the plan it is given).
 *
 * Included by: config, control and console.
 */
#ifndef FG_PROF_PLAN_H
#define FG_PROF_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prof-t.h"
#include "units.h"
#include "yamlu.h"

/*
 * One side's addresses: a range, or a list in the order given. IPv6 ones
 * lie within one /96: range and list hold the low 32 bits of the
 * addresses (host order) and hi96 the 12 bytes before them, the same for
 * every address of the side. With a list, range is its lowest and highest
 * address.
 */
struct prof_ip_dist {
	struct yamlu_range range; /* host byte order */
	uint32_t *list;		  /* `list:`, NULL for a range */
	size_t n_list;
	int dist; /* enum prof_dist */
	bool v6;
	uint8_t hi96[12]; /* v6: the first 96 bits, as on the wire */
};

struct prof_ip_gen {
	struct prof_ip_dist client, server;
	uint32_t offset;		 /* added per extra port pair (an address-looking value) */
	struct yamlu_range client_ports; /* default 1024..65535 */
	int client_ports_order;		 /* enum prof_dist: the order each client
					    address takes its ports in; 0: not
					    given (seq, but rand for bench's flows
					    tests: RFC 9693 §4.4) */
	/* NAT64 (IPv6 clients, IPv4 servers): the RFC 6052 prefix the client
	 * sends to; the server's IPv4 address is its low 32 bits (/96) */
	bool has_nat64;
	uint8_t nat64_prefix[16];
	unsigned nat64_len;
};

struct prof_template {
	char *name;
	char *group;   /* statistics group (TRex's tg_name); NULL: the template's own */
	int proto;     /* enum prof_proto */
	uint32_t port; /* server port */
	double cps;    /* connections per second before -m; > 0 */
	uint32_t limit;	 /* flows of the template in the run at most; 0: no limit */
	uint32_t climit; /* concurrent flows of the template at most; 0: no limit */
	/* the template's own client source ports; has_client_ports false:
	 * ip_gen's client_ports */
	struct yamlu_range client_ports;
	bool has_client_ports;
	struct prof_program client, server;
};

struct prof_stream {
	char *name;
	uint32_t port; /* `port: N` */
	bool has_port;
	uint32_t *ports; /* `ports: [0, 1]` */
	size_t n_ports;
	/*
	 * Resolved: bit p set = the stream is sent from port p to its pair p ^ 1.
	 * From an odd (server-side) port, src/dst and sport/dport swap roles, so
	 * `ports: [0, 1]` is the same stream in both directions.
	 */
	uint32_t tx_mask;
	uint32_t frame; /* bytes incl. FCS; 0 when imix or a range */
	bool imix;	/* frame: imix (the profile's table) */
	/*
	 * `frame: {range: [lo, hi], mode: inc|dec|rand, step: S}`: the sizes
	 * (incl. FCS) walk lo..hi by step (inc, dec) or are drawn uniformly
	 * from the profile's seed (rand); mode 0 when frame is one size or imix.
	 */
	struct prof_field frames;
	uint32_t frame_step;
	uint32_t count;		/* `count: N` frames from each port it is sent from; 0: no end */
	struct units_rate rate; /* pps, bps or % (scaled by -m) */
	struct prof_field src, dst, sport, dport;
	bool latency;
	/*
	 * `proto:` udp (default), tcp or icmp (enum prof_l4). TCP: the
	 * header's fixed fields from `tcp:`; ICMP: `icmp:`'s type and code,
	 * and its echo identifier and sequence number in sport and dport
	 * (`icmp: {id, seq}`; the stream's own sport/dport are refused).
	 */
	int proto;
	struct prof_tcp {
		uint8_t flags; /* RFC 9293 §3.1 control bits, FIN = 0x01 ... CWR = 0x80 */
		uint32_t seq, ack;
		uint32_t window;
	} tcp;
	struct prof_icmp {
		uint32_t type, code;
		struct prof_field id, seq;
		bool has_type;
	} icmp;
	/*
	 * IPv6 (both src and dst are IPv6 addresses): src6/dst6 hold the
	 * first address of each, network order; only its last 32 bits vary,
	 * as src/dst lo..hi (a range lies within one /96).
	 */
	bool v6;
	bool src_v6, dst_v6; /* as parsed; stream_check makes them agree */
	uint8_t src6[16], dst6[16];
};

/*
 * An emulated host range of a profile (`hosts`): IPv4 (lo..hi, host
 * order) or IPv6 (a6 the first address; lo..hi its last 32 bits, one /96).
 */
struct prof_host {
	uint32_t port;
	uint32_t lo, hi;
	bool v6;
	uint8_t a6[16];
};

struct prof {
	char *file;
	int mode; /* enum prof_mode */
	double timeout;
	uint32_t seed;
	/* mode flows */
	struct prof_ip_gen ip_gen;
	bool has_ip_gen;
	struct prof_template *templates;
	size_t n_templates;
	/* mode streams */
	struct prof_stream *streams;
	size_t n_streams;
	struct units_imix_entry *imix; /* always set in streams mode (default 7:4:1) */
	size_t n_imix;
	/* both */
	struct prof_host *hosts;
	size_t n_hosts;
	char **warnings;
	size_t n_warnings;
};

/* pure: the largest L2 frame (bytes incl. FCS) the profile may send. */
uint32_t prof_max_frame(const struct prof *p);

/*
 * pure: true when the profile is a streams profile whose every stream has
 * a `count`: its run ends once each has sent it.
 */
bool prof_streams_counted(const struct prof *p);

/* pure: the average L2 frame size of a stream (its frame, the imix
 * average, or its range's: rand's expected average). */
double prof_stream_avg_frame(const struct prof *p, const struct prof_stream *s);

/* pure: the sum of the templates' cps (the flows rate at -m 1). */
double prof_total_cps(const struct prof *p);

/*
 * pure: the seconds within which a flow of template t must end: the
 * profile's timeout plus the delays of the longer of its programs
 * (flowgen-profile(5), timeout); prof_flow_time: the longest of them.
 */
double prof_tpl_timeout(const struct prof *p, const struct prof_template *t);
double prof_flow_time(const struct prof *p);

/*
 * pure: is program pg one recv and then sends only (a request and its
 * answer)? *need is then the recv's bytes: a UDP server's flow that
 * receives them in its first datagram starts and ends with it.
 */
bool prof_prog_once(const struct prof_program *pg, uint32_t *need);

/* pure: the bytes of pg's smallest send (a UDP datagram); 0 when it sends nothing. */
uint32_t prof_prog_min_send(const struct prof_program *pg);

/* pure: the statistics group template t belongs to: its `group`, or its name. */
const char *prof_tpl_group(const struct prof_template *t);

/*
 * pure: the groups of p's templates (flowgen-profile(5), `group`):
 * group_of[i] is template i's group, numbered in the order of each
 * group's first template; returns the number of groups (0 for a streams
 * profile). Templates are in the same group when prof_tpl_group() names
 * them the same.
 */
size_t prof_groups(const struct prof *p, uint8_t group_of[FG_PROF_MAX_TEMPLATES]);

/* The address families a port sends (prof_port_families). */
#define PROF_FAM_V4 1u
#define PROF_FAM_V6 2u

/* pure: the families of the frames the profile sends from port p
 * (PROF_FAM_*; a flows profile: the family of its ip_gen side). */
unsigned prof_port_families(const struct prof *p, int port);

/* pure: the client source ports template t opens flows from: its own, or ip_gen's. */
struct yamlu_range prof_client_ports(const struct prof *p, const struct prof_template *t);

#endif
