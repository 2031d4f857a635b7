/*
 * flowpay.h — what the payload of a stateful flow's datagrams carries, so
 * that the receiver can tell a reply that is ours and intact from one that
 * is not (flowgen(8), STATISTICS, "rx_payload_bad").
 *
 * A UDP datagram of a flow starts with the 18-byte signature of lat.h
 * (magic, the client flow's id, a sequence number, a time stamp, the reply
 * flag); the bytes after it are the stream pattern of tcp.h from offset 0
 * (tcp_payload_fill()), the same pattern TCP data carries at its stream
 * offset. The client checks every reply: the signature must name its own
 * flow and say "reply", and the bytes after it must be the pattern; TCP
 * data is checked at its stream offset (tcp_payload_check()).
 *
 * Context: pure (no globals, no I/O; unit-tested in test/unit/test_flowpay.c).
 * The workers call the check per received datagram.
 */
#ifndef FG_FLOWPAY_H
#define FG_FLOWPAY_H

#include <stdbool.h>
#include <stdint.h>

/* pure: the len bytes that follow the signature in a flow's datagram. */
void flowpay_udp_rest(uint8_t *dst, uint32_t len);

/*
 * pure: is the payload pay (len bytes) a datagram of flow `id` whose
 * signature flags include `flags` (LAT_SIG_F_REPLY for a reply), followed
 * by the pattern?
 */
bool flowpay_udp_check(const uint8_t *pay, uint32_t len, uint32_t id, uint8_t flags);

#endif
