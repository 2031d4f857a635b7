/*
 * announce.h — when a port announces its own addresses: on each link-up
 * edge the service thread sees (src/control/svc.c), an ARP Announcement
 * (RFC 5227 section 2.3: ANNOUNCE_NUM of them, ANNOUNCE_INTERVAL apart) and
 * an unsolicited Neighbour Advertisement (RFC 4861 section 7.2.6). A DUT
 * that kept trying to resolve the port while its link was down holds an
 * INCOMPLETE or FAILED neighbour entry for it, and would retry only on its
 * own timer (a second, Linux's retrans_time); an announcement updates such
 * an entry at once (RFC 826's merge, RFC 4861 section 7.2.5), so traffic
 * through the DUT is back as soon as the link is (flowgen(8), arp).
 *
 * The first announcement goes out ANNOUNCE_SETTLE_MS after the edge, and
 * twice: a kernel packet socket bound to an interface that went down
 * fails its next send once with that error (ENETDOWN, kept since the
 * down event; the kernel's sock_error()), and DPDK's af_packet driver
 * keeps the frame of that send in its TX ring until the next send, which
 * would be the second announcement, ANNOUNCE_INTERVAL_MS later; the copy
 * right behind takes both out (seen with strace: the first send after
 * `ip link set up` refused, the frame on the wire 2 s later). A DUT takes
 * the two copies as one. The first reading of a port's link, at
 * start-up, is no edge: the DUT has no entry for the port then that
 * could be stale. A link that goes down cancels what was still due.
 *
 * Context: pure (unit-tested in test/unit/test_announce.c).
 *
 * Included by: control.
 */
#ifndef FG_ANNOUNCE_H
#define FG_ANNOUNCE_H

#include <stdbool.h>
#include <stdint.h>

#define ANNOUNCE_NUM 2		  /* RFC 5227 section 1.1, ANNOUNCE_NUM */
#define ANNOUNCE_INTERVAL_MS 2000 /* RFC 5227 section 1.1, ANNOUNCE_INTERVAL */
#define ANNOUNCE_SETTLE_MS 100	  /* up this long before the first */
#define ANNOUNCE_FIRST_COPIES 2	  /* copies of the first, sent at once */

/* One port's link as the service thread last read it; zeroed: never read. */
struct announce {
	bool seen;	  /* a reading was taken */
	bool up;	  /* the last reading */
	unsigned left;	  /* announcements still due */
	uint64_t next_ms; /* when the next one is due */
};

/*
 * pure: the port's link read `up` at now_ms (milliseconds of a monotonic
 * clock); how many copies of the announcement go out now: 0 most of the
 * time. An up edge makes the first due ANNOUNCE_SETTLE_MS after it
 * (ANNOUNCE_FIRST_COPIES copies) and the others (one copy each)
 * ANNOUNCE_INTERVAL_MS apart.
 */
unsigned announce_step(struct announce *a, bool up, uint64_t now_ms);

#endif
