/*
 * flowpay.c — the payload pattern of a stateful flow's datagrams, its
 * check, and the tests that tell a flowgen server's answer from another
 * server's (flowpay.h). Control fills the pattern once per run into the
 * flows state; the workers copy it behind each signature, decide once per
 * flow whose server answers, and check the replies of flowgen's.
 *
 * Context: pure.
 */
#include <stddef.h>

#include "flowpay.h"
#include "lat.h"
#include "tcp.h"

void flowpay_udp_rest(uint8_t *dst, uint32_t len) { tcp_payload_fill(dst, 0, len); }

bool flowpay_udp_check(const uint8_t *pay, uint32_t len, uint32_t id, uint8_t flags)
{
	uint32_t sid, seq;
	uint64_t tsc;
	uint8_t fl;

	if (!lat_sig_read(pay, len, &sid, &seq, &tsc, &fl))
		return false;
	if (sid != id || (fl & flags) != flags)
		return false;
	return tcp_payload_check(pay + LAT_SIG_LEN, 0, len - LAT_SIG_LEN);
}

bool flowpay_udp_ours(const uint8_t *pay, uint32_t len)
{
	/* the magic as it is on the wire (little-endian, lat.h) */
	static const uint8_t magic[4] = {
	    (uint8_t)LAT_SIG_MAGIC,
	    (uint8_t)(LAT_SIG_MAGIC >> 8),
	    (uint8_t)(LAT_SIG_MAGIC >> 16),
	    (uint8_t)(LAT_SIG_MAGIC >> 24),
	};
	unsigned right = 0;

	if (len < sizeof(magic))
		return false;
	for (unsigned i = 0; i < sizeof(magic); i++)
		right += pay[i] == magic[i];
	if (right < sizeof(magic) - 1)
		return false;
	/* a truncated signature: a flowgen reply cut short */
	if (len < LAT_SIG_LEN)
		return true;
	return (pay[offsetof(struct lat_sig, flags)] & LAT_SIG_F_REPLY) != 0;
}

bool flowpay_tcp_ours(const uint8_t *data, uint32_t off, uint32_t len)
{
	uint32_t n = len < FLOWPAY_TCP_PROBE ? len : FLOWPAY_TCP_PROBE, wrong = 0;

	/* byte o of the stream is (o + o / 256) mod 256 (tcp_payload_fill()) */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t o = off + i;

		wrong += data[i] != (uint8_t)(o + (o >> 8));
	}
	return n && wrong <= n >> 2;
}
