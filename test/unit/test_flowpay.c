/*
 * test_flowpay.c — the payload of a flow's datagrams: the pattern after
 * the signature is tcp.h's stream from offset 0, the prebuilt checksum
 * sums it as the frame holds it, and the check accepts exactly a reply of
 * the right flow with the pattern intact.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "flowpay.h"
#include "lat.h"
#include "pkt.h"
#include "tcp.h"

/* A datagram payload of len bytes: signature of flow id, then the pattern. */
static void datagram(uint8_t *p, uint32_t len, uint32_t id, uint8_t flags)
{
	lat_sig_write(p, id, 7, 0x123456789aull, flags);
	flowpay_udp_rest(p + LAT_SIG_LEN, len - LAT_SIG_LEN);
}

static void test_pattern(void **st)
{
	uint8_t a[1500], b[1500];

	(void)st;
	flowpay_udp_rest(a, sizeof(a));
	tcp_payload_fill(b, 0, sizeof(b));
	assert_memory_equal(a, b, sizeof(a));
	/* not constant: a zeroed or repeated buffer does not pass */
	assert_true(a[0] != a[1] && a[255] != a[256 + 255]);
	/* the sum the prebuilt headers add is the sum of the bytes */
	assert_int_equal(pkt_raw_sum(a, 1000), tcp_payload_sum(0, 1000));
}

static void test_check(void **st)
{
	uint8_t p[600];

	(void)st;
	datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY);
	assert_true(flowpay_udp_check(p, sizeof(p), 42, LAT_SIG_F_REPLY));
	/* a signature alone (an 18-byte reply) */
	assert_true(flowpay_udp_check(p, LAT_SIG_LEN, 42, LAT_SIG_F_REPLY));
	/* another flow's id, or not a reply */
	assert_false(flowpay_udp_check(p, sizeof(p), 43, LAT_SIG_F_REPLY));
	datagram(p, sizeof(p), 42, 0);
	assert_false(flowpay_udp_check(p, sizeof(p), 42, LAT_SIG_F_REPLY));
	/* one byte of the pattern changed, anywhere */
	datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY);
	p[LAT_SIG_LEN + 300] ^= 0x20;
	assert_false(flowpay_udp_check(p, sizeof(p), 42, LAT_SIG_F_REPLY));
	datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY);
	p[sizeof(p) - 1]++;
	assert_false(flowpay_udp_check(p, sizeof(p), 42, LAT_SIG_F_REPLY));
	/* zeros after a good signature (a forged or mangled payload) */
	datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY);
	memset(p + LAT_SIG_LEN, 0, sizeof(p) - LAT_SIG_LEN);
	assert_false(flowpay_udp_check(p, sizeof(p), 42, LAT_SIG_F_REPLY));
	/* no signature: bad magic, or too short */
	datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY);
	p[0] ^= 1;
	assert_false(flowpay_udp_check(p, sizeof(p), 42, LAT_SIG_F_REPLY));
	datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY);
	assert_false(flowpay_udp_check(p, LAT_SIG_LEN - 1, 42, LAT_SIG_F_REPLY));
	assert_false(flowpay_udp_check(p, 0, 42, LAT_SIG_F_REPLY));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pattern),
	    cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
