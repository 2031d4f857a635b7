/*
 * flowpay.h — what the payload of a stateful flow's datagrams carries, so
 * that the receiver can tell a reply that is ours and intact from one that
 * is not (flowgen(8), STATISTICS, "payload_mismatch"), and a server that is
 * flowgen from one that is not ("foreign_server").
 *
 * A UDP datagram of a flow starts with the 18-byte signature of lat.h
 * (magic, the client flow's id, a sequence number, a time stamp, the reply
 * flag); the bytes after it are the stream pattern of tcp.h from offset 0
 * (tcp_payload_fill()), the same pattern TCP data carries at its stream
 * offset. A strict check wants every reply to carry a signature that names
 * its own flow and says "reply", followed by the pattern; TCP data must be
 * the pattern at its stream offset (tcp_payload_check()).
 *
 * Whose server? By default (FLOWPAY_AUTO) the client decides once per
 * flow, on the first reply (UDP) or the first new in-order data (TCP),
 * whether the server is flowgen, and checks strictly only then; a server
 * that is not flowgen (a Linux listener, a UDP echo) sends bytes of its own
 * and its flow is judged by byte counts alone. The tests that decide are
 * tolerant of one corrupt byte, so that a flowgen answer damaged in the
 * very bytes that identify it is still taken as flowgen's and fails the
 * strict check, instead of passing as a foreign server's:
 *   UDP: flowgen's if at least 3 of the 4 magic bytes are right and the
 *        signature is marked as a reply (flowpay_udp_ours()); a datagram
 *        shorter than the signature whose magic is there is a truncated
 *        flowgen reply. Our own request reflected by an echo server has
 *        the magic but not the reply flag: foreign. A reply whose flags
 *        byte lost the reply bit cannot be told from such an echo.
 *   TCP: flowgen's if the first n bytes of the data (n = 8, or fewer in
 *        a shorter segment) are the pattern at their stream offset, with
 *        at most n/4 of them wrong: 2 of 8, 1 of 4 to 7, none of 1 to 3
 *        (flowpay_tcp_ours()). A first segment shorter than 4 bytes is
 *        flowgen's only if it is the pattern, and then passes the strict
 *        check anyway.
 *
 * Context: pure (no globals, no I/O; unit-tested in test/unit/test_flowpay.c).
 * The workers call the checks per received datagram or segment.
 *
 * Included by: every folder.
 */
#ifndef FG_FLOWPAY_H
#define FG_FLOWPAY_H

#include <stdbool.h>
#include <stdint.h>

/* How the client checks the payloads it receives (-t payload_check). */
enum flowpay_mode {
	FLOWPAY_OFF = 0, /* payload_check=0: no check, no foreign server counted */
	FLOWPAY_AUTO,	 /* default: strict towards flowgen, byte counts otherwise */
	FLOWPAY_STRICT,	 /* payload_check=1: every server must be flowgen */
};

#define FLOWPAY_TCP_PROBE 8u /* TCP: stream bytes flowpay_tcp_ours() looks at */

/* pure: the len bytes that follow the signature in a flow's datagram. */
void flowpay_udp_rest(uint8_t *dst, uint32_t len);

/*
 * pure: is the payload pay (len bytes) a datagram of flow `id` whose
 * signature flags include `flags` (LAT_SIG_F_REPLY for a reply), followed
 * by the pattern?
 */
bool flowpay_udp_check(const uint8_t *pay, uint32_t len, uint32_t id, uint8_t flags);

/*
 * pure: does the UDP reply pay (len bytes) come from a flowgen server (see
 * above: 3 of 4 magic bytes and the reply flag, or a truncated signature)?
 * Says nothing of its id or pattern: flowpay_udp_check() does.
 */
bool flowpay_udp_ours(const uint8_t *pay, uint32_t len);

/*
 * pure: does TCP data (len bytes at data, the first at stream offset off)
 * start as flowgen's stream does (see above)? Looks at its first
 * FLOWPAY_TCP_PROBE bytes at most; false when len is 0.
 */
bool flowpay_tcp_ours(const uint8_t *data, uint32_t off, uint32_t len);

#endif
