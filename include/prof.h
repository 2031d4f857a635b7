/*
 * prof.h — traffic profiles (flowgen-profile(5)): one YAML format for stateful flows
 * (`mode: flows`, the TRex ASTF equivalent) and stateless streams
 * (`mode: streams`, the STL equivalent), parsed through the yamlu tables
 * into an immutable plan. Nothing here touches DPDK: packet templates and
 * pacing are built from the plan by other modules.
 *
 * Context: prof_load and prof_free are *control*; the name tables and
 * prof_stream_imix are *pure*.
 */
#ifndef FG_PROF_H
#define FG_PROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "units.h"
#include "yamlu.h"

#define FG_PROF_MAX_TEMPLATES 64
#define FG_PROF_MAX_STREAMS 256
#define FG_PROF_MAX_STEPS 64	     /* steps per program */
#define FG_PROF_MAX_IMIX 16	     /* rows of an imix table */
#define FG_PROF_MAX_BYTES (1u << 20) /* send/recv N: 1..1M bytes */
#define FG_PROF_MAX_DELAY_MS 60000u
#define FG_PROF_FRAME_MIN 64
/* The smallest IPv6 stream frame: Ethernet 14, IPv6 40, UDP 8, the 18-byte
 * signature (lat.h) and the FCS 4. */
#define FG_PROF_FRAME_MIN6 84
#define FG_PROF_FRAME_MAX 9000
/* Largest UDP payload that fits a FG_PROF_FRAME_MAX frame (eth 14, ip 20, udp 8, fcs 4). */
#define FG_PROF_UDP_MAX (FG_PROF_FRAME_MAX - 46)
#define FG_PROF_TIMEOUT_DEFAULT 3.0
#define FG_PROF_SEED_DEFAULT 1u
#define FG_PROF_SPORT_DEFAULT 1024u
#define FG_PROF_DPORT_DEFAULT 4321u

enum prof_mode {
	PROF_FLOWS = 1,
	PROF_STREAMS,
};
#define PROF_MODE_COUNT (PROF_STREAMS + 1)
extern const char *const prof_mode_names[PROF_MODE_COUNT];

enum prof_dist {
	PROF_DIST_SEQ = 1,
	PROF_DIST_RAND,
};
#define PROF_DIST_COUNT (PROF_DIST_RAND + 1)
extern const char *const prof_dist_names[PROF_DIST_COUNT];

enum prof_proto {
	PROF_UDP = 1,
	PROF_TCP,
};
#define PROF_PROTO_COUNT (PROF_TCP + 1)
extern const char *const prof_proto_names[PROF_PROTO_COUNT];

enum prof_op {
	PROF_OP_SEND = 1, /* arg: bytes (one UDP datagram, or a TCP write) */
	PROF_OP_RECV,	  /* arg: bytes to wait for */
	PROF_OP_DELAY,	  /* arg: milliseconds */
};
#define PROF_OP_COUNT (PROF_OP_DELAY + 1)
extern const char *const prof_op_names[PROF_OP_COUNT];

/* How a stream field walks its range from one frame to the next. */
enum prof_var {
	PROF_VAR_FIXED = 1, /* always lo */
	PROF_VAR_INC,
	PROF_VAR_DEC,
	PROF_VAR_RAND, /* uniform in lo..hi, from the profile's seed */
};
#define PROF_VAR_COUNT (PROF_VAR_RAND + 1)
extern const char *const prof_var_names[PROF_VAR_COUNT];

struct prof_step {
	enum prof_op op;
	uint32_t arg;
};

/* A client or server program: what one side does, step by step. */
struct prof_program {
	struct prof_step *steps;
	size_t n;
};

/*
 * One side's addresses. IPv6 ranges lie within one /96: range holds the
 * low 32 bits of their first and last address (host order) and hi96 the
 * 12 bytes before them, the same for every address of the range.
 */
struct prof_ip_dist {
	struct yamlu_range range; /* host byte order */
	int dist;		  /* enum prof_dist */
	bool v6;
	uint8_t hi96[12];	  /* v6: the range's first 96 bits, as on the wire */
};

struct prof_ip_gen {
	struct prof_ip_dist client, server;
	uint32_t offset;		 /* added per extra port pair (an address-looking value) */
	struct yamlu_range client_ports; /* default 1024..65535 */
	/* NAT64 (IPv6 clients, IPv4 servers): the RFC 6052 prefix the client
	 * sends to; the server's IPv4 address is its low 32 bits (/96) */
	bool has_nat64;
	uint8_t nat64_prefix[16];
	unsigned nat64_len;
};

struct prof_template {
	char *name;
	int proto;     /* enum prof_proto */
	uint32_t port; /* server port */
	double cps;    /* connections per second before -m; > 0 */
	struct prof_program client, server;
};

/* An address or port of a stream: one value (FIXED, lo == hi) or a range. */
struct prof_field {
	uint32_t lo, hi;
	int mode; /* enum prof_var */
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
	uint32_t frame;		/* bytes incl. FCS; 0 when imix */
	bool imix;		/* frame: imix (the profile's table) */
	struct units_rate rate; /* pps, bps or % (scaled by -m) */
	struct prof_field src, dst, sport, dport;
	bool latency;
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

/*
 * control: loads and validates a profile. 0, or a negative errno with err set
 * to "FILE:LINE:COL: what is wrong". On failure *p holds nothing to free;
 * on success call prof_free(). The plan is not modified afterwards.
 */
int prof_load(const char *path, struct prof *p, char *err, size_t errlen);

/* control: the same from memory (tests, fuzzing). */
int prof_load_buf(const char *name, const void *buf, size_t len, struct prof *p, char *err,
		  size_t errlen);

/* control: frees everything; safe on a zeroed struct. */
void prof_free(struct prof *p);

/* pure: the largest L2 frame (bytes incl. FCS) the profile may send. */
uint32_t prof_max_frame(const struct prof *p);

/* pure: the average L2 frame size of a stream (its frame, or the imix average). */
double prof_stream_avg_frame(const struct prof *p, const struct prof_stream *s);

/* pure: the sum of the templates' cps (the flows rate at -m 1). */
double prof_total_cps(const struct prof *p);

/* The address families a port sends (prof_port_families). */
#define PROF_FAM_V4 1u
#define PROF_FAM_V6 2u

/* pure: the families of the frames the profile sends from port p
 * (PROF_FAM_*; a flows profile: the family of its ip_gen side). */
unsigned prof_port_families(const struct prof *p, int port);

#endif
