/*
 * natb_int.h — inside `bench nat`'s control half: the frames it sends on
 * the ports' control queues and the frames it gets back through the
 * service thread's tap (src/control/natb_io.c), shared by the behaviour
 * probes (natb.c) and the timeout searches (natb_timer.c).
 *
 * Context: control. The tap runs on the service thread and hands records
 * over under a mutex; everything else runs on the console's thread.
 *
 * Included by: control and console.
 */
#ifndef FG_NATB_INT_H
#define FG_NATB_INT_H

#include "natb.h"

#define NATB_NADDR 16 /* internal and external addresses used */

/* What each internal address is for: no probe shares its address with
 * another question, so that one question's mappings (a quota reached, a
 * mapping ended by an ICMP error) cannot change another's answer. */
enum {
	NATB_IN_MAP = 0,      /* mapping, port allocation, filtering, ICMP errors */
	NATB_IN_A = 1,	      /* contention: takes the port first ... */
	NATB_IN_B = 2,	      /* ... then this one asks for it */
	NATB_IN_POOL = 0,     /* pooling: in[0..3], fresh ports */
	NATB_IN_FRAG = 4,     /* out-of-order fragments */
	NATB_IN_QUOTA = 5,    /* the subscriber that asks for many mappings */
	NATB_IN_OTHER = 6,    /* another subscriber, afterwards */
	NATB_IN_TIMER = 7,    /* the timeout searches: in[7..12], one each */
	NATB_IN_REFRESH = 13, /* the refresh test */
	NATB_IN_HAIR = 14,    /* the hairpinning sender */
	NATB_IN_ALLOC2 = 15,  /* port allocation under contention: MAP's ports again */
};
#define NATB_SPORT 3478 /* the servers' first port */
#define NATB_SIDE_IN 0
#define NATB_SIDE_OUT 1

/* One frame received for one of our addresses. */
struct natb_rx {
	uint64_t tsc;
	uint8_t side;	    /* NATB_SIDE_IN (client port) or NATB_SIDE_OUT */
	uint8_t proto;	    /* IPPROTO_UDP / TCP / ICMP */
	uint8_t flags;	    /* TCP flags */
	uint8_t type, code; /* ICMP */
	uint32_t sip, dip;
	uint16_t sport, dport; /* ICMP echo: both the identifier */
	uint32_t tag;	       /* UDP/ICMP echo: first payload word; TCP: seq */
	uint32_t ack;	       /* TCP */
	/* IPv4 fragments: offset in bytes, more-fragments, identification */
	bool frag, mf;
	uint16_t frag_off, ipid;
	/* ICMP errors: the embedded packet */
	uint8_t iproto;
	uint32_t isip, idip;
	uint16_t isport, idport;
	uint32_t itag;
};

/* What the probes work with: addresses, ports, what has arrived. */
struct natb_ctx {
	const struct natb_opts *o;
	int port[2];		  /* config port index of each side */
	uint32_t in[NATB_NADDR];  /* internal addresses */
	uint32_t out[NATB_NADDR]; /* external (server) addresses */
	uint16_t next_port;	  /* internal ports, fresh for every mapping */
	uint32_t next_tag;
	uint64_t hz;
	struct natb_rx *log; /* what arrived since natb_log_clear */
	size_t nlog, caplog;
};

/* control: install the tap for c's addresses / remove it. */
int natb_io_open(struct natb_ctx *c);
void natb_io_close(struct natb_ctx *c);

/* control: a fresh internal port / probe tag. */
/* how long a question waits for its answers */
#define NATB_WAIT_MS 300

uint16_t natb_port(struct natb_ctx *c);
uint32_t natb_tag(struct natb_ctx *c);

/* control: frames from side `side` (NATB_SIDE_IN/OUT); 0 or -errno. */
int natb_tx_udp(struct natb_ctx *c, int side, uint32_t sip, uint16_t sp, uint32_t dip, uint16_t dp,
		uint32_t tag);
int natb_tx_tcp(struct natb_ctx *c, int side, uint32_t sip, uint16_t sp, uint32_t dip, uint16_t dp,
		uint32_t seq, uint32_t ack, uint8_t flags, uint16_t paylen);
int natb_tx_echo(struct natb_ctx *c, int side, uint32_t sip, uint32_t dip, uint16_t id, bool reply,
		 uint32_t tag);
/* an ICMP port unreachable from sip to dip about the UDP or TCP packet
 * (isip:isp -> idip:idp; itag its first payload word, or its TCP
 * sequence number) it says could not be delivered */
int natb_tx_unreach(struct natb_ctx *c, int side, uint8_t iproto, uint32_t sip, uint32_t dip,
		    uint32_t isip, uint16_t isp, uint32_t idip, uint16_t idp, uint32_t itag);
/* a 72-byte UDP datagram (tag first) in two IPv4 fragments, the second
 * one sent first */
int natb_tx_frags(struct natb_ctx *c, int side, uint32_t sip, uint16_t sp, uint32_t dip,
		  uint16_t dp, uint32_t tag, uint16_t ipid);

/* control: the ICMP echo question (natb_icmp.c); false on ^C or an error. */
bool natb_icmp_echo(struct natb_ctx *c, struct natb_icmp *ic);

/* control: the frames the tap's queue had no room for since natb_io_open. */
uint64_t natb_io_qdrop(void);

/* control: empty the log. */
void natb_log_clear(struct natb_ctx *c);
/* control: take what arrived into the log and answer ARP for our
 * addresses for ms milliseconds (0: once). false when ^C was pressed. */
bool natb_pump(struct natb_ctx *c, unsigned ms);
/* control: the first logged frame of `side` and `proto` carrying `tag`
 * (TCP: seq; 0 matches any tag), or NULL. */
const struct natb_rx *natb_find(const struct natb_ctx *c, int side, uint8_t proto, uint32_t tag);

/* control: elapsed seconds since tsc0. */
double natb_secs(const struct natb_ctx *c, uint64_t tsc0);

/* control: say what is happening on the progress stream (stderr). */
void natb_say(const struct natb_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* control: the timeout searches and the refresh test of the protocols asked. */
int natb_timeouts(struct natb_ctx *c, struct natb_result *r);

#endif
