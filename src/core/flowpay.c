/*
 * flowpay.c — the payload pattern of a stateful flow's datagrams and its
 * check (flowpay.h). Control fills the pattern once per run into the flows
 * state; the workers copy it behind each signature and check the replies
 * they receive.
 *
 * Context: pure.
 */
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
