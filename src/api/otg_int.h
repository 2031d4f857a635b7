/*
 * otg_int.h — private to the OTG model handlers (src/console/otg*.c): the
 * plan an OTG config translates to, the pure translation (otg_plan.c,
 * otg_pat.c), the streams profile written from a plan (otg_yaml.c), the
 * pcapng reader of the capture replies (otg_pcap.c), and the replies.
 *
 * Context: the translation, the profile writer and the pcapng filter are
 * *pure* (no DPDK, no globals: unit-tested and fuzzed); the rest runs on
 * the console's thread.
 *
 * Included by: api.
 */
#ifndef FG_OTG_INT_H
#define FG_OTG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "fg.h"
#include "prof-t.h"
#include "units.h"

#define OTG_NAME_MAX 128   /* longest port, flow or capture name, with its NUL */
#define OTG_LOC_MAX 256	   /* longest port location */
#define OTG_STREAM_NAME 32 /* a stream name that fits a latency row (stats.h) */
#define OTG_MAX_FLOWS FG_PROF_MAX_STREAMS
#define OTG_MAX_WARNINGS 64

/* What the translation knows of the tester: its ports as the config has
 * them (a location is a port number or its interface string). */
struct otg_env {
	int nports;
	char iface[FG_MAX_PORTS][OTG_LOC_MAX]; /* the interface spec */
	char kiface[FG_MAX_PORTS][32];	       /* kernel interface, "" for none */
	int vlan[FG_MAX_PORTS];		       /* the port's 802.1Q id, 0 = none */
};

struct otg_port {
	char name[OTG_NAME_MAX];
	char location[OTG_LOC_MAX];
	int index; /* flowgen port */
};

/* One OTG flow as a stream of the streams engine. */
struct otg_flow {
	char name[OTG_NAME_MAX];
	char stream[OTG_STREAM_NAME]; /* its stream's name in the profile */
	int tx, rx;		      /* flowgen ports; rx == tx ^ 1 */
	bool v6;
	struct prof_field src, dst, sport, dport; /* v6: src/dst on the last 32 bits */
	uint8_t src6[16], dst6[16];		  /* v6: first address, network order */
	uint32_t frame;				  /* bytes incl. FCS; 0 when imix or a range */
	bool imix;
	struct prof_field frames; /* size increment or random: the stream's frame range */
	uint32_t frame_step;
	struct units_rate rate; /* the stream's rate: pps, bps (L2) or percent of line rate */
	double pps;	  /* the rate when given in pps, else 0 */
	bool latency;	  /* metrics.latency.enable */
	bool metrics;	  /* metrics.enable */
	uint64_t packets; /* fixed_packets, or fixed_seconds at a pps rate: the stream's count */
	/* the last header: the stream's proto (enum prof_l4); ICMP's echo
	 * identifier and sequence number are sport and dport */
	int proto;
	uint8_t tcp_flags, icmp_type, icmp_code;
	uint32_t tcp_seq, tcp_ack;
	uint16_t tcp_win;
	double seconds;	  /* fixed_seconds at another rate: the run's duration; else 0 */
};

struct otg_capture {
	char name[OTG_NAME_MAX];
	uint32_t port_mask; /* bit p: flowgen port p */
	bool pcapng;	    /* format pcapng, else pcap */
};

struct otg_plan {
	struct otg_port *ports;
	size_t n_ports;
	struct otg_flow *flows;
	size_t n_flows;
	struct otg_capture *caps;
	size_t n_caps;
	struct units_imix_entry imix[FG_PROF_MAX_IMIX]; /* the imix flows' table */
	size_t n_imix;
	uint32_t seed; /* of the random fields */
	bool has_seed;
	double duration_s; /* the run's -d: 0 = continuous */
	char *warnings[OTG_MAX_WARNINGS];
	size_t n_warnings;
};

/*
 * pure: translate an OTG Config (cfg, a JSON object) for the ports of env
 * into *pl. 0, or -EINVAL with err set to "PATH: what is wrong" (the
 * first bad field, e.g. "flows[1].packet[2].ipv4.src.values: not
 * supported: ..."). On failure *pl holds nothing; else otg_plan_free it.
 */
int otg_plan_from_json(const json_t *cfg, const struct otg_env *env, struct otg_plan *pl, char *err,
		       size_t errlen);
/* pure: frees a plan; safe on a zeroed one. */
void otg_plan_free(struct otg_plan *pl);
/* pure: the flow named name, or -1. */
int otg_plan_flow(const struct otg_plan *pl, const char *name);
/* pure: the port named name (its index in pl->ports), or -1. */
int otg_plan_port(const struct otg_plan *pl, const char *name);
/* pure: a warning, kept in pl (at most OTG_MAX_WARNINGS). */
void otg_plan_warn(struct otg_plan *pl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * pure: the streams profile (flowgen-profile(5)) of the flows of pl whose
 * bit is set in pick (pick == NULL: every flow), malloc'd NUL-terminated
 * YAML; NULL when out of memory or no flow is picked.
 */
char *otg_plan_yaml(const struct otg_plan *pl, const bool *pick);

struct prof;
/*
 * control: the streams profile of the flows of pl picked (pick == NULL:
 * every flow) as loaded: otg_plan_yaml's text through prof_load_buf under
 * the name "otg-config", in memory, then each stream's rate set to its
 * flow's number as the config gave it (the text's is for people to read).
 * 0 (prof_free *p), -ENOENT when no flow is picked, or the loader's
 * -errno with err set ("otg-config:LINE:COL: what is wrong": a
 * translation bug).
 */
int otg_plan_prof(const struct otg_plan *pl, const bool *pick, struct prof *p, char *err,
		  size_t errlen);

/*
 * The JSON helpers of otg_pat.c (pure). A path is the OTG path of the
 * object, "flows[0].packet[1].ipv4"; on a failure err holds
 * "PATH.KEY: why" and the return is -EINVAL.
 */
struct otg_err {
	char *buf;
	size_t len;
};
/* a path into buf (vsnprintf: a path longer than buf is cut) */
void otg_pathf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int otg_fail(struct otg_err *e, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* every key of obj is one of keys (NULL-terminated); else the first other's path */
int otg_keys(struct otg_err *e, const char *path, const json_t *obj, const char *const *keys);
/* obj[key] as an object, array, string, integer, number or boolean: NULL when
 * absent; a value of another type fails (*bad set) */
const json_t *otg_get(struct otg_err *e, const char *path, const json_t *obj, const char *key,
		      json_type type, int *bad);
/* the integer obj[key] within lo..hi (def when absent) */
int otg_get_uint(struct otg_err *e, const char *path, const json_t *obj, const char *key,
		 uint64_t lo, uint64_t hi, uint64_t def, uint64_t *out);
/* a number (integer or real) obj[key] within lo..hi (def when absent) */
int otg_get_num(struct otg_err *e, const char *path, const json_t *obj, const char *key, double lo,
		double hi, double def, double *out);
/* a string obj[key] (def when absent), at most max-1 bytes */
int otg_get_str(struct otg_err *e, const char *path, const json_t *obj, const char *key,
		const char *def, char *out, size_t max);
/* the `choice` of obj: one of names (NULL-terminated); the index. When
 * absent: the only member of obj named like a choice, else def. */
int otg_choice(struct otg_err *e, const char *path, const json_t *obj, const char *const *names,
	       int def, int *out);

/* The kinds of value a pattern field holds. */
enum otg_pat_kind {
	OTG_PAT_UINT = 1, /* an integer 0..max */
	OTG_PAT_IPV4,
	OTG_PAT_IPV6,
	OTG_PAT_MAC,
};

/* The choices of a pattern, as bits of otg_pat_spec.choices. */
enum otg_pat_choice {
	OTG_CH_VALUE = 1,
	OTG_CH_VALUES,
	OTG_CH_INC,
	OTG_CH_DEC,
	OTG_CH_RANDOM,
	OTG_CH_AUTO,
	OTG_CH_GENERATED, /* checksums: generated good|bad or custom */
	OTG_CH_CUSTOM,
};
#define OTG_CH(c) (1u << (c))

struct otg_pat_spec {
	enum otg_pat_kind kind;
	uint64_t max;	  /* OTG_PAT_UINT */
	unsigned choices; /* OTG_CH() bits the model has for the field */
	int def;	  /* enum otg_pat_choice when no choice is given */
};

/* A pattern parsed: what the stream can send is a prof_field on a 32-bit
 * value (IPv6: the last 32 bits of hi96 + lo). */
struct otg_pat {
	int choice; /* enum otg_pat_choice */
	bool given; /* the field was in the request */
	struct prof_field f;
	uint8_t a6[16]; /* IPv6: the first address */
	uint64_t value; /* UINT/MAC/IPv4 value (lo when a range) */
	bool has_seed;
	uint32_t seed;
	bool bad_cksum; /* generated: bad, or custom */
};

/*
 * pure: parse the pattern obj[key] (absent: the default choice with the
 * model's default value def, def6 for IPv6) into *p as a field the streams
 * engine varies: value; values holding one value or consecutive ones
 * (ascending = inc, descending = dec); increment and decrement with step
 * 1; random min..max. Anything else fails with the path.
 */
int otg_pattern(struct otg_err *e, const char *path, const json_t *obj, const char *key,
		const struct otg_pat_spec *s, uint64_t def, const uint8_t *def6, struct otg_pat *p);

/* The translation of one flow's packet headers (otg_hdr.c). */
struct otg_hdr_ctx {
	struct otg_err *e;
	struct otg_plan *pl;
	const struct otg_env *env;
	struct otg_flow *fl; /* tx set; the headers fill src, dst, ports, v6, proto */
	bool vlan;
	/* ipv4 protocol / ipv6 next_header when given (not auto), with the
	 * header's path: it must name the header that follows */
	int ipproto;
	char ipproto_path[96];
};
/* pure: flow["packet"] at path ("flows[i]") into c->fl; 0 or -EINVAL. */
int otg_hdr_packet(struct otg_hdr_ctx *c, const char *path, const json_t *flow);

/*
 * pure: keep in out (malloc'd, *out_len bytes) the blocks of the pcapng
 * file buf that belong to interface `ifid` (the section and interface
 * blocks, and the enhanced and simple packet blocks of that interface),
 * or, when pcap is set, the same packets as a classic pcap file
 * (nanosecond timestamps). 0 or -EINVAL (not pcapng) / -ENOMEM.
 */
int otg_pcapng_port(const uint8_t *buf, size_t len, uint32_t ifid, bool pcap, uint8_t **out,
		    size_t *out_len);

/* console: the OTG metrics request body req (parsed), as a Metrics.Response;
 * 0, or -EINVAL with err set (status 400). */
int otg_metrics(const json_t *req, json_t **resp, char *err, size_t errlen);
/* console: the capture of a port (Capture.Request req): *reply malloc'd. */
int otg_capture_get(const json_t *req, uint8_t **reply, size_t *len, int *status, char *err,
		    size_t errlen);
/* console: port capture start/stop (State.Port.Capture, already checked). */
int otg_capture_state(bool start, uint32_t port_mask, char *err, size_t errlen);

/* console: the state the handlers share (otg.c). */
struct otg_state {
	json_t *config;	      /* the Config last set, as posted */
	struct otg_plan plan; /* its translation */
	bool have;
	bool running; /* flows started through flow_transmit */
	bool paused;
	bool picked[OTG_MAX_FLOWS]; /* the flows of the running profile */
};
struct otg_state *otg_state(void);

#endif
