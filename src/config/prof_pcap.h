/*
 * prof_pcap.h — the first TCP or UDP session of a capture file, as the
 * messages each side sent, in order: what a template built from a pcap
 * replays (flowgen-profile(5), templates, `client: {pcap: FILE}`, TRex
 * ASTF's cap_info). libpcap reads the file (pcap or pcapng; Ethernet with
 * or without 802.1Q tags, Linux cooked v1 and v2, raw IP).
 *
 * The session is the first flow of the file (its 5-tuple, either way)
 * that carries a payload; its client is the side that sent the SYN (TCP)
 * or the first datagram (UDP). TCP: each direction's bytes are put back
 * in order by sequence number (a retransmission or an overlap counts
 * once, a segment that came early waits for the gap before it to fill),
 * and the bytes one side sends before the other sends any make one
 * message; a gap never filled (the capture lost a segment) is an error.
 * UDP: each datagram is a message. IPv4 fragments and IPv6 extension
 * headers are not read (such packets are skipped).
 *
 * Context: control (the profile loader).
 *
 * Included by: config.
 */
#ifndef FG_PROF_PCAP_H
#define FG_PROF_PCAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROF_PCAP_MAX_BYTES (16u << 20) /* a session's payload, both ways */
#define PROF_PCAP_MAX_MSGS 8192u	/* messages of a session */

struct prof_pcap_msg {
	bool from_client;
	uint32_t len;
	uint8_t *data;
	/* microseconds from the previous message's last packet to this
	 * message's first (0 for the first message) */
	uint64_t gap_us;
};

struct prof_pcap_sess {
	int proto; /* IPPROTO_TCP or IPPROTO_UDP */
	bool v6;
	uint16_t cport, sport; /* the client's and the server's port */
	struct prof_pcap_msg *msgs;
	size_t n;
};

/*
 * The first session of file into *s; 0, or -errno with err set ("FILE:
 * what is wrong": unreadable, no TCP or UDP session with a payload, a
 * segment missing, too large). prof_pcap_free() frees it either way.
 */
int prof_pcap_read(const char *file, struct prof_pcap_sess *s, char *err, size_t errlen);
void prof_pcap_free(struct prof_pcap_sess *s);

#endif
