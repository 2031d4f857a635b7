/*
 * prof-t.h — types only: the limits of a traffic profile, its enums, and
 * the parts of a loaded plan a worker reads (a template's programs, a
 * stream's fields). The rest of the plan is src/config/prof_plan.h, the
 * parser src/config/prof.h.
 *
 * Included by: every folder (no prototypes, no data).
 */
#ifndef FG_PROF_T_H
#define FG_PROF_T_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FG_PROF_MAX_TEMPLATES 64
#define FG_PROF_MAX_STREAMS 256
#define FG_PROF_MAX_LIST 65536 /* addresses in an ip_gen side's list */
#define FG_PROF_MAX_STEPS 64 /* steps per program (or per repeat's list), as written */
/* steps of a program once its repeats are unrolled (flowgen-profile(5), repeat) */
#define FG_PROF_MAX_PROGRAM 16384
#define FG_PROF_MAX_NEST 4	     /* repeats inside repeats, at most */
#define FG_PROF_MAX_TIMES 65535u     /* repeat: times */
#define FG_PROF_MAX_UNTIL 255u	     /* recv until: delimiter bytes */
#define FG_PROF_MAX_IMIX 16	     /* rows of an imix table */
#define FG_PROF_MAX_BYTES (1u << 20) /* send/recv N: 1..1M bytes */
#define FG_PROF_MAX_DELAY_MS 60000u
#define FG_PROF_FRAME_MIN 64
/* The smallest IPv6 stream frame: Ethernet 14, IPv6 40, UDP 8, the 18-byte
 * signature (lat.h) and the FCS 4. */
#define FG_PROF_FRAME_MIN6 84
#define FG_PROF_FRAME_MAX 9000
/* The smallest frame of a stream of layer 4 l4 (enum prof_l4): its
 * headers, the signature and the FCS; a TCP header is 12 bytes longer
 * than a UDP or ICMP one. */
#define FG_PROF_FRAME_MIN_OF(l4, v6)                                                               \
	((uint32_t)((v6) ? FG_PROF_FRAME_MIN6 : FG_PROF_FRAME_MIN) +                               \
	 ((l4) == PROF_L4_TCP ? 12u : 0u))
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

enum prof_dist {
	PROF_DIST_SEQ = 1,
	PROF_DIST_RAND,
};
#define PROF_DIST_COUNT (PROF_DIST_RAND + 1)

/* The layer 4 of a stream's frames (`proto:` of a stream). */
enum prof_l4 {
	PROF_L4_UDP = 1,
	PROF_L4_TCP,
	PROF_L4_ICMP, /* echo messages; ICMPv6 on an IPv6 stream */
};
#define PROF_L4_COUNT (PROF_L4_ICMP + 1)

enum prof_proto {
	PROF_UDP = 1,
	PROF_TCP,
};
#define PROF_PROTO_COUNT (PROF_TCP + 1)

enum prof_op {
	PROF_OP_SEND = 1,    /* arg: bytes (one UDP datagram, or a TCP write) */
	PROF_OP_RECV,	     /* arg: bytes to wait for */
	PROF_OP_DELAY,	     /* arg: milliseconds */
	PROF_OP_UNTIL,	     /* TCP: wait for data (arg bytes) in the stream */
	PROF_OP_UNTIL_CLOSE, /* TCP: wait for the peer's FIN */
	PROF_OP_CLOSE,	     /* TCP: close our direction (FIN) */
};
#define PROF_OP_COUNT (PROF_OP_CLOSE + 1)

/* How a stream field walks its range from one frame to the next. */
enum prof_var {
	PROF_VAR_FIXED = 1, /* always lo */
	PROF_VAR_INC,
	PROF_VAR_DEC,
	PROF_VAR_RAND, /* uniform in lo..hi, from the profile's seed */
};
#define PROF_VAR_COUNT (PROF_VAR_RAND + 1)

/*
 * One step of a program whose repeats are unrolled. A send's bytes are
 * data (its own bytes, `data`/`hex`/`file`) or, data NULL, the stream
 * pattern of tcp.h at their offset; off is the stream offset of the
 * step's first byte (the side's sends before it, modulo 2^32). An until
 * step's data is its delimiter (arg bytes) followed by its KMP failure
 * table (arg bytes, progb.h). Every step's off is that of the next send,
 * so the offsets never decrease. rcvd_before is the bytes the recv N steps
 * before it wait for, modulo 2^32: what a UDP flow at that step has
 * consumed of what it received (UDP programs have no until step, so the
 * flow keeps no count of its own, flows.h); a TCP flow counts its own.
 */
struct prof_step {
	enum prof_op op;
	uint32_t arg;
	uint32_t off;
	uint32_t rcvd_before;
	const uint8_t *data;
};
_Static_assert(sizeof(struct prof_step) == 16 + sizeof(void *),
	       "rcvd_before fills the padding before data");

/*
 * A client or server program: what one side does, step by step, repeats
 * unrolled. bytes: some send of it has data (the stream is not the
 * pattern alone); until: it has a recv until or until_close; closes: it
 * has a close step (the peer's FIN does not close our direction before
 * it, flows.h); delay_ms: the sum of its delays; sent: the bytes its
 * sends make. The buffers the steps point into are owned[].
 */
struct prof_program {
	struct prof_step *steps;
	size_t n;
	bool bytes, until, closes;
	uint64_t delay_ms, sent;
	uint8_t **owned;
	size_t n_owned;
	/* for the loader's checks: the largest send, the yaml node ids of
	 * it and of the first step only TCP has (until, until_close, close) */
	uint32_t max_send;
	int max_send_node, tcp_node;
};

/* An address or port of a stream: one value (FIXED, lo == hi) or a range. */
struct prof_field {
	uint32_t lo, hi;
	int mode; /* enum prof_var */
};

#endif
