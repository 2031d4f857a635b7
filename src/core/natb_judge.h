/*
 * natb_judge.h — the pure half of `bench nat`: what a NAT does, measured with flowgen on both
 * sides of it (RFC 4787 for UDP, RFC 5382 for TCP, RFC 5508 for ICMP and
 * RFC 7857's updates to them, RFC 6888 for what of a carrier-grade NAT shows
 * from outside).
 *
 * The pure half (src/core/natb_judge.c) turns observations into
 * behaviours (mapping, filtering, pooling, port allocation), plans and
 * reads the timeout searches, and builds the table of checks. The control
 * half (src/control/natb.c, natb_timer.c) sends the probes on the ports'
 * control queues and reads what the workers punt; the console half
 * (src/console/natb_cmd.c) parses the command and prints the table, JSON
 * and CSV. The control half's entry point is src/control/natb.h, the
 * command's src/console/natb_cmd.h.
 *
 * Included by: every folder.
 */
#ifndef FG_NATB_JUDGE_H
#define FG_NATB_JUDGE_H

#include <stdio.h>

#include "fg.h"

/* Mapping and filtering behaviours (RFC 4787 §4.1, §5). */
enum natb_dep {
	NATB_DEP_UNKNOWN = 0,
	NATB_DEP_EI = 1,  /* endpoint-independent */
	NATB_DEP_AD = 2,  /* address-dependent */
	NATB_DEP_APD = 3, /* address-and-port-dependent */
};
extern const char *const natb_dep_names[NATB_DEP_APD + 1];

/* IP address pooling (RFC 4787 §4.1). */
enum natb_pool {
	NATB_POOL_UNKNOWN = 0,
	NATB_POOL_SINGLE = 1,	 /* one external address seen */
	NATB_POOL_PAIRED = 2,	 /* each internal address keeps one external address */
	NATB_POOL_ARBITRARY = 3, /* an internal address gets several */
};
extern const char *const natb_pool_names[NATB_POOL_ARBITRARY + 1];

/* How external ports are chosen (RFC 6056, RFC 4787 §4.2). */
enum natb_alloc {
	NATB_ALLOC_UNKNOWN = 0,
	NATB_ALLOC_PRESERVED = 1,  /* the internal port is kept */
	NATB_ALLOC_SEQUENTIAL = 2, /* predictable: small steps */
	NATB_ALLOC_RANDOM = 3,	   /* spread over the range */
};
extern const char *const natb_alloc_names[NATB_ALLOC_RANDOM + 1];

/* A yes/no observation that may not have been made. */
enum natb_tri {
	NATB_UNSEEN = 0,
	NATB_NO = 1,
	NATB_YES = 2,
};

/*
 * A row's verdict. Only a row whose requirement is a MUST, SHOULD or
 * RECOMMENDED (RFC 2119) passes or fails, and only on a measurement of
 * what its text asks; a MAY, or a behaviour the RFCs only describe, is
 * info. Inconclusive: what was needed was not measured (a probe lost, a
 * probe that could not be set up); not applicable: the requirement does
 * not arise (no NAT on the path, no limit reached), with the reason.
 */
enum natb_verdict {
	NATB_NA = 0,
	NATB_PASS = 1,
	NATB_FAIL = 2,
	NATB_INCONCLUSIVE = 3,
	NATB_INFO = 4,
};
#define NATB_NVERDICTS 5
extern const char *const natb_verdict_names[NATB_NVERDICTS];

/* The strength of a row's requirement (RFC 2119; RECOMMENDED is SHOULD). */
enum natb_level {
	NATB_LVL_NONE = 0, /* measured, no requirement of its own */
	NATB_LVL_MAY = 1,
	NATB_LVL_SHOULD = 2,
	NATB_LVL_MUST = 3,
};
extern const char *const natb_level_names[NATB_LVL_MUST + 1];

/*
 * The contention probe (RFC 4787 §4.1, RFC 5382 §4.1): what became of it.
 * Only SEEN has a contended mapping; the others say why there is none.
 */
enum natb_cont {
	NATB_CONT_NONE = 0,	  /* not probed */
	NATB_CONT_SEEN = 1,	  /* B asked for A's external port: mapping_contended */
	NATB_CONT_LOST = 2,	  /* a probe of either order did not come out */
	NATB_CONT_UNSHARED = 3,	  /* B never left by A's external address */
	NATB_CONT_IMPOSSIBLE = 4, /* every internal address has an external one of its own */
};
extern const char *const natb_cont_names[NATB_CONT_IMPOSSIBLE + 1];

/* One timeout search: found between lo and hi, or above the bound. */
enum natb_tmo_state {
	NATB_TMO_NONE = 0,  /* not measured */
	NATB_TMO_FOUND = 1, /* s = (lo + hi) / 2 */
	NATB_TMO_ABOVE = 2, /* alive at lo, the last probe made */
	NATB_TMO_BELOW = 3, /* gone at the first probe, hi */
	NATB_TMO_FAILED = 4 /* no mapping could be made */
};

struct natb_tmo {
	enum natb_tmo_state st;
	double s, lo, hi;
	unsigned planned, made; /* mappings of the plan, and those the NAT made */
};

/* An endpoint as the far side saw it: ip 0 = nothing arrived. */
struct natb_ep {
	uint32_t ip;
	uint16_t port;
};

/* One mapping seen from both sides: the internal endpoint that sent, the
 * external endpoint it left with, the server it went to. */
struct natb_obs {
	struct natb_ep in, ext, srv;
};

/* RFC 6888 REQ-4 and REQ-11: one internal address (a subscriber) asks for
 * `tried` mappings towards one server and gets `got`; when it got fewer
 * (a limit), whether its earlier mapping still works, whether another
 * subscriber still gets a new one, and whether an ICMP error told it. */
struct natb_quota {
	unsigned tried, got;
	enum natb_tri kept, others, icmp;
};

struct natb_udp {
	bool on;
	enum natb_tri translated;	 /* left the NAT with another source address */
	enum natb_dep mapping;		 /* uncontended: fresh ports that collide with nothing */
	enum natb_dep mapping_contended; /* a second internal address took the port first */
	enum natb_cont contention;	 /* what became of that probe */
	enum natb_dep filtering;
	enum natb_tri preserve, parity, hairpin, hairpin_ext, refresh_out, refresh_in;
	enum natb_tri
	    overloading;	/* two internal endpoints on one external one towards one server */
	enum natb_tri in_range; /* external ports in the internal ports' range (1024-65535) */
	enum natb_tri icmp_keeps; /* the mapping works after an ICMP error about it */
	enum natb_tri frags;	  /* out-of-order inbound fragments got through */
	struct natb_quota quota;
	enum natb_pool pooling;
	unsigned ext_addrs; /* external addresses seen */
	enum natb_alloc alloc;
	unsigned alloc_n;	   /* mappings judged, each towards a destination of its own */
	unsigned alloc_step;	   /* the median distance between consecutive external ports */
	unsigned contiguity_pct;   /* of consecutive internal ports mapped to consecutive ones */
	/* the same internal ports from another internal address towards the
	 * same destinations: the ports the NAT had to choose (RFC 7857 §10) */
	enum natb_alloc alloc_contended;
	unsigned alloc_forced;	       /* ports it had to change */
	unsigned alloc_contended_step; /* their median step */
	struct natb_tmo timeout;   /* a mapping used both ways for more than 2 s */
	struct natb_tmo unreplied; /* a mapping that only sent */
};

struct natb_tcp {
	bool on;
	enum natb_tri translated;
	enum natb_dep mapping, mapping_contended, filtering;
	enum natb_cont contention;
	enum natb_tri preserve, hairpin, hairpin_ext, overloading;
	enum natb_tri err_xlate; /* an inbound ICMP error about a connection translated */
	struct natb_tmo established, transitory, closing;
};

struct natb_icmp {
	bool on;
	enum natb_tri translated;
	enum natb_tri echo;  /* an echo request out and its reply back in */
	enum natb_tri id_ei; /* query identifier mapped alike towards two hosts */
	enum natb_tri err_xlate;
	struct natb_tmo query;
};

struct natb_result {
	double tmax;
	uint64_t qdrop; /* frames the probes' receive queue had no room for */
	struct natb_udp udp;
	struct natb_tcp tcp;
	struct natb_icmp icmp;
	bool interrupted;
};

/* One row of the table: requirement, its gist, its strength, what was
 * seen, verdict. */
struct natb_check {
	const char *id;
	const char *text;
	enum natb_level level;
	char measured[112];
	enum natb_verdict v;
};
#define NATB_MAX_CHECKS 48

/*
 * mapping behaviour from the external endpoints one internal endpoint got
 * towards 2 addresses x 2 ports (m[address][port]; ip 0 = not seen).
 */
enum natb_dep natb_mapping(const struct natb_ep m[2][2]);
/* the less endpoint-independent of two behaviours; unknown when both are */
enum natb_dep natb_dep_worse(enum natb_dep a, enum natb_dep b);
/*
 * One order of the contention probe: A's external endpoint towards the
 * taken destination, and B's (from the same internal port) towards
 * b[address][port], b[0][0] being the taken one (ip 0 = not seen).
 */
struct natb_cont_probe {
	struct natb_ep a, b[2][2];
};
/*
 * the contended mapping from both orders (free destinations first, the
 * taken one first): SEEN with *dep the worse of the orders where B left by
 * A's external address (a mapping that is not endpoint-independent in one
 * order is SEEN whatever became of the other; endpoint-independent needs
 * both); else LOST when a probe of either order did not come out; else
 * IMPOSSIBLE when B never left by A's external address and `own` says
 * every internal address has an external address of its own
 * (natb_own_addrs), UNSHARED when it does not. *dep is unknown but for
 * SEEN.
 */
enum natb_cont natb_contention(const struct natb_cont_probe p[2], enum natb_tri own,
			       enum natb_dep *dep);
/*
 * one external address per internal address, over every mapping seen:
 * YES when at least 3 internal addresses were seen, each left by one
 * external address and none by another's; NO when one left by two, or two
 * by one; UNSEEN when fewer than 3 were seen.
 */
enum natb_tri natb_own_addrs(const struct natb_obs *o, size_t n);
/* filtering behaviour from whether unsolicited packets got in: from
 * another port of the contacted address, and from another address. */
enum natb_dep natb_filtering(bool other_port_in, bool other_addr_in);
/* pooling from ext[i][j]: the external address internal address i got
 * towards destination j (0 = not seen); *naddr = distinct addresses. */
enum natb_pool natb_pooling(const uint32_t *ext, size_t ni, size_t nj, unsigned *naddr);
/*
 * port allocation from n (internal, external) port pairs in the order the
 * mappings were made, internal ports consecutive, each mapping towards a
 * destination (address and port) of its own: preserved when 9 in 10 keep
 * their port; else sequential when the median distance between the
 * external ports of consecutive mappings (*step) is NATB_SEQ_STEP or
 * less, random otherwise. *contig_pct = share of consecutive internal
 * ports whose external ports are consecutive too.
 */
#define NATB_SEQ_STEP 16
enum natb_alloc natb_alloc_of(const uint16_t *in, const uint16_t *ext, size_t n,
			      unsigned *contig_pct, unsigned *step);
/*
 * port allocation under contention (RFC 7857 §10, RFC 6056 §4): first[k]
 * the external endpoints one internal address got from consecutive
 * internal ports in[k], each towards a destination of its own; second[k]
 * what another internal address got from the same internal port towards
 * the same destination. The ports the NAT had to choose are those of
 * second[k] on first[k]'s external address with another port (*forced of
 * them); their allocation by natb_alloc_of's rule, unknown when fewer
 * than 4 (*step their median step).
 */
enum natb_alloc natb_alloc_contended(const uint16_t *in, const struct natb_ep *first,
				     const struct natb_ep *second, size_t n, unsigned *forced,
				     unsigned *step);
/* port overloading (RFC 4787 REQ-3, RFC 5382 REQ-7): two internal
 * endpoints given one external endpoint towards one server endpoint.
 * NATB_UNSEEN when no two mappings of different internal endpoints
 * towards one server endpoint were seen. */
enum natb_tri natb_overloading(const struct natb_obs *o, size_t n);
/* RFC 4787 REQ-3a: every external port in its internal port's range
 * (0-1023 or 1024-65535); NATB_UNSEEN for n = 0 */
enum natb_tri natb_port_range(const struct natb_obs *o, size_t n);
/* whether the mappings left with another source address: NATB_NO when
 * every one kept its internal address, NATB_UNSEEN for n = 0 */
enum natb_tri natb_translated(const struct natb_obs *o, size_t n);
/* RFC 4787 REQ-9a / RFC 5382 REQ-8a: a hairpinned packet arrived from
 * `from` (ip 0: nothing arrived); the sender is internal endpoint `in`,
 * whose mapping towards a server was `ext`. YES when it came from that
 * external endpoint; NO from the internal endpoint or, for an
 * endpoint-independent `mapping`, from any other; UNSEEN when it cannot
 * be told (another port of the external address, the mapping depending
 * on the destination). */
enum natb_tri natb_hairpin_src(struct natb_ep from, struct natb_ep ext, struct natb_ep in,
			       enum natb_dep mapping);

/* timeout search: probe times from `first` growing by `ratio` up to `max`
 * (the last one is max); returns how many (at most cap). */
size_t natb_plan(double first, double ratio, double max, double *t, size_t cap);
/*
 * timeout search: alive[k] the answer of the mapping probed at t[k]
 * (NATB_UNSEEN = not yet probed); the search ends at the first two dead
 * mappings in a row (one lost probe does not end it) or at the last
 * probe. Returns true when it has ended and fills *r (not its counts).
 */
bool natb_estimate(const double *t, const enum natb_tri *alive, size_t n, struct natb_tmo *r);

/* the checks of r, in table order; returns how many (at most cap). */
size_t natb_checks(const struct natb_result *r, struct natb_check *c, size_t cap);

#endif
