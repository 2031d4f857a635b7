/*
 * fail-t.h — types only: why a stateful flow failed (enum fg_fail: the
 * reasons of flowgen(8), STATISTICS, "fail_reasons", each failed flow
 * counted under exactly one of them, client and server side alike) and a
 * worker's ring of its last failed flows (struct fail_ring, what `stats
 * --failed N` lists). The ring sits in the worker's counter block (ctr.h):
 * only that worker writes it, control reads it without a lock, entry by
 * entry, seqlock style. The names, the writer and the reader are
 * src/core/fails.h.
 *
 * Included by: every folder (types only: no prototypes, no data).
 */
#ifndef FG_FAIL_T_H
#define FG_FAIL_T_H

#include <stdint.h>

#include <rte_common.h>

/*
 * The reasons, in the order every writer lists them (fails.h names them).
 * When each is counted, and on which side, is flowgen(8)'s table under
 * STATISTICS, "fail_reasons".
 */
enum fg_fail {
	FG_FAIL_NO_REPLY = 0,	  /* the timeout came and the peer was never heard */
	FG_FAIL_TIMEOUT,	  /* the peer was heard, the program did not end in time */
	FG_FAIL_RESET,		  /* TCP: an acceptable RST from the peer */
	FG_FAIL_RETX,		  /* TCP: the retransmission limit was reached */
	FG_FAIL_ICMP_UNREACH,	  /* an ICMP destination unreachable for the flow */
	FG_FAIL_TABLE_FULL,	  /* the flow table had no room for the flow */
	FG_FAIL_PAYLOAD,	  /* received bytes that were not the peer's program's */
	FG_FAIL_PEER_CLOSED,	  /* TCP: the peer closed before the program ended */
	FG_FAIL_N,
};

/* Entries of a worker's ring of failed flows: a power of two. */
#define FG_FAIL_RING 256u

/*
 * One failed flow, 64 bytes: one cache line. seq is the entry's
 * sequence: 2n + 1 while the worker writes the ring's n-th failure into
 * it, 2n + 2 once written (0: never written); the rest is read only
 * between two equal, even loads of it. Addresses and ports are the
 * flow's as the side that failed saw them, from the initiator's point
 * of view: src the client (the translated address on the server side),
 * dst the server; IPv4 in the first 4 bytes of a 16-byte field, network
 * order. Ports in host order.
 */
struct fail_rec {
	uint64_t seq;
	uint64_t tsc;	   /* rte_rdtsc() when the flow failed */
	uint32_t run;	   /* the run's id, low 32 bits (ctl_run_id()) */
	uint8_t side;	   /* 0 client, 1 server */
	uint8_t reason;	   /* enum fg_fail */
	uint8_t tpl;	   /* template id of the run */
	uint8_t proto;	   /* IPPROTO_TCP or IPPROTO_UDP */
	uint16_t step;	   /* the program counter: the step the program was at */
	uint8_t state;	   /* TCP: enum tcp_state (src/core/tcp.h); UDP: 0 */
	uint8_t v6;	   /* 1: the addresses are IPv6 */
	uint16_t sport, dport;
	uint8_t src[16], dst[16];
};

/*
 * A worker's ring: head counts the failures written (the n-th goes into
 * rec[n % FG_FAIL_RING]), stored with release once its entry is complete.
 */
struct fail_ring {
	uint64_t head;
	uint64_t pad[7];
	struct fail_rec rec[FG_FAIL_RING];
} __rte_cache_aligned;

_Static_assert(sizeof(struct fail_rec) == 64, "a failed flow's entry is one cache line");
_Static_assert((FG_FAIL_RING & (FG_FAIL_RING - 1)) == 0, "FG_FAIL_RING is a power of two");

#endif
