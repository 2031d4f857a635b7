/*
 * test_flowpay.c — the payload of a flow's datagrams: the pattern after
 * the signature is tcp.h's stream from offset 0, the prebuilt checksum
 * sums it as the frame holds it, and the check accepts exactly a reply of
 * the right flow with the pattern intact. Then whose server answers
 * (flowpay.h, "Whose server?"): flowgen's replies, intact or with one
 * corrupt byte, are flowgen's (and the corrupt ones fail the check); a
 * UDP echo of our request, a Linux server's bytes and short payloads are
 * not, except where the bytes they have are flowgen's.
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

/* UDP, whose reply: ours intact, ours with one corrupt byte anywhere. */
static void test_udp_ours(void **st)
{
	uint8_t p[600];

	(void)st;
	datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY);
	assert_true(flowpay_udp_ours(p, sizeof(p)));
	assert_true(flowpay_udp_check(p, sizeof(p), 42, LAT_SIG_F_REPLY));
	/* with the latency flag too, and a signature alone */
	datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY | LAT_SIG_F_LATENCY);
	assert_true(flowpay_udp_ours(p, sizeof(p)));
	assert_true(flowpay_udp_ours(p, LAT_SIG_LEN));
	/* a corrupt pattern byte: still ours, and the check fails it */
	datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY);
	p[LAT_SIG_LEN + 5] ^= 0x80;
	assert_true(flowpay_udp_ours(p, sizeof(p)));
	assert_false(flowpay_udp_check(p, sizeof(p), 42, LAT_SIG_F_REPLY));
	/* a corrupt id: ours, fails */
	datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY);
	p[offsetof(struct lat_sig, id)] ^= 1;
	assert_true(flowpay_udp_ours(p, sizeof(p)));
	assert_false(flowpay_udp_check(p, sizeof(p), 42, LAT_SIG_F_REPLY));
	/* one corrupt magic byte, each of the four: ours, fails */
	for (unsigned i = 0; i < 4; i++) {
		datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY);
		p[i] ^= 0x55;
		assert_true(flowpay_udp_ours(p, sizeof(p)));
		assert_false(flowpay_udp_check(p, sizeof(p), 42, LAT_SIG_F_REPLY));
	}
	/* two corrupt magic bytes: no longer a signature */
	for (unsigned i = 0; i < 4; i++) {
		datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY);
		p[i] ^= 0x55;
		p[(i + 1) % 4] ^= 0x55;
		assert_false(flowpay_udp_ours(p, sizeof(p)));
	}
}

/* UDP, whose reply: an echo of our request, a server's own bytes. */
static void test_udp_foreign(void **st)
{
	uint8_t p[600];
	static const char text[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";

	(void)st;
	/* a UDP echo server reflects the request: the signature without the reply flag */
	datagram(p, sizeof(p), 42, 0);
	assert_false(flowpay_udp_ours(p, sizeof(p)));
	assert_false(flowpay_udp_ours(p, 100));
	datagram(p, sizeof(p), 42, LAT_SIG_F_LATENCY);
	assert_false(flowpay_udp_ours(p, sizeof(p)));
	/* an echo whose magic lost a byte is still an echo */
	datagram(p, sizeof(p), 42, 0);
	p[2] ^= 0x10;
	assert_false(flowpay_udp_ours(p, sizeof(p)));
	/* zeros, text, the pattern without a signature, all bytes 0xff */
	memset(p, 0, sizeof(p));
	assert_false(flowpay_udp_ours(p, sizeof(p)));
	memcpy(p, text, sizeof(text));
	assert_false(flowpay_udp_ours(p, sizeof(text) - 1));
	flowpay_udp_rest(p, sizeof(p));
	assert_false(flowpay_udp_ours(p, sizeof(p)));
	memset(p, 0xff, sizeof(p));
	assert_false(flowpay_udp_ours(p, sizeof(p)));
	/* pseudo-random bytes, seeded: none reads as a signature */
	for (uint32_t seed = 1, n = 0; n < 1000; n++) {
		for (unsigned i = 0; i < LAT_SIG_LEN; i++) {
			seed = seed * 1103515245u + 12345u;
			p[i] = (uint8_t)(seed >> 16);
		}
		assert_false(flowpay_udp_ours(p, LAT_SIG_LEN));
	}
}

/*
 * UDP, shorter than a signature: nothing to go by below the magic's 4
 * bytes (foreign); from 4 bytes, a magic that is there is a flowgen reply
 * cut short, and the check fails it.
 */
static void test_udp_short(void **st)
{
	uint8_t p[64];

	(void)st;
	datagram(p, sizeof(p), 42, LAT_SIG_F_REPLY);
	for (uint32_t len = 0; len < 4; len++)
		assert_false(flowpay_udp_ours(p, len));
	for (uint32_t len = 4; len < LAT_SIG_LEN; len++) {
		assert_true(flowpay_udp_ours(p, len));
		assert_false(flowpay_udp_check(p, len, 42, LAT_SIG_F_REPLY));
	}
	p[0] ^= 1; /* one magic byte wrong: still ours */
	assert_true(flowpay_udp_ours(p, 4));
	p[1] ^= 1; /* two: foreign */
	assert_false(flowpay_udp_ours(p, 4));
	assert_false(flowpay_udp_ours(p, LAT_SIG_LEN - 1));
	memset(p, 'a', sizeof(p));
	for (uint32_t len = 0; len <= LAT_SIG_LEN; len++)
		assert_false(flowpay_udp_ours(p, len));
}

/* TCP, whose stream: flowgen's from offset 0, intact or with corrupt bytes. */
static void test_tcp_ours(void **st)
{
	uint8_t d[512];

	(void)st;
	tcp_payload_fill(d, 0, sizeof(d));
	assert_true(flowpay_tcp_ours(d, 0, sizeof(d)));
	/* one or two wrong bytes among the first 8, anywhere: ours, and the check fails it */
	for (unsigned i = 0; i < FLOWPAY_TCP_PROBE; i++) {
		tcp_payload_fill(d, 0, sizeof(d));
		d[i] ^= 0x40;
		assert_true(flowpay_tcp_ours(d, 0, sizeof(d)));
		assert_false(tcp_payload_check(d, 0, sizeof(d)));
		d[(i + 3) % FLOWPAY_TCP_PROBE] ^= 0x01;
		assert_true(flowpay_tcp_ours(d, 0, sizeof(d)));
	}
	/* three wrong: not the pattern any more */
	tcp_payload_fill(d, 0, sizeof(d));
	d[0] = d[3] = d[7] = 0xee;
	assert_false(flowpay_tcp_ours(d, 0, sizeof(d)));
	/* a corrupt byte after the first 8 does not change whose it is */
	tcp_payload_fill(d, 0, sizeof(d));
	d[100] ^= 1;
	assert_true(flowpay_tcp_ours(d, 0, sizeof(d)));
	assert_false(tcp_payload_check(d, 0, sizeof(d)));
	/* at any stream offset, across a block edge and the 32-bit wrap */
	static const uint32_t offs[] = {1, 250, 255, 256, 300, 65535, 65536, 0xfffffffcu,
					0xffffff00u};
	for (unsigned k = 0; k < sizeof(offs) / sizeof(offs[0]); k++) {
		tcp_payload_fill(d, offs[k], 64);
		assert_true(flowpay_tcp_ours(d, offs[k], 64));
		/* the stream one byte off is not ours */
		assert_false(flowpay_tcp_ours(d, offs[k] + 1, 64));
		assert_false(flowpay_tcp_ours(d, offs[k] - 1, 64));
	}
	/* the pattern repeats every 65536 bytes: offset 65536 reads as 0 */
	tcp_payload_fill(d, 65536, 64);
	assert_true(flowpay_tcp_ours(d, 0, 64));
}

/* TCP, whose stream: a Linux server's bytes, and first segments shorter than 8 bytes. */
static void test_tcp_foreign_short(void **st)
{
	uint8_t d[512];
	static const char text[] = "HTTP/1.1 200 OK\r\n";

	(void)st;
	/* test/data/flows_tcp_srv.py answers 512 zero bytes: the first matches, not 6 of 8 */
	memset(d, 0, sizeof(d));
	assert_false(flowpay_tcp_ours(d, 0, sizeof(d)));
	memcpy(d, text, sizeof(text) - 1);
	assert_false(flowpay_tcp_ours(d, 0, sizeof(text) - 1));
	memset(d, 0xff, sizeof(d));
	assert_false(flowpay_tcp_ours(d, 0, sizeof(d)));
	/* nothing to go by */
	assert_false(flowpay_tcp_ours(d, 0, 0));
	/* shorter than 8: below 4 bytes every one must match, 4 to 7 all but one */
	tcp_payload_fill(d, 0, 8);
	for (uint32_t len = 1; len < FLOWPAY_TCP_PROBE; len++)
		assert_true(flowpay_tcp_ours(d, 0, len));
	for (uint32_t len = 1; len < FLOWPAY_TCP_PROBE; len++) {
		tcp_payload_fill(d, 0, 8);
		d[len - 1] ^= 0x20;
		assert_int_equal(flowpay_tcp_ours(d, 0, len), len >= 4);
		if (len >= 2) {
			d[len - 2] ^= 0x20; /* and a second one */
			assert_false(flowpay_tcp_ours(d, 0, len));
		}
	}
	/* a single zero byte is the pattern's first byte; a single 'H' is not */
	d[0] = 0;
	assert_true(flowpay_tcp_ours(d, 0, 1));
	assert_true(tcp_payload_check(d, 0, 1));
	d[0] = 'H';
	assert_false(flowpay_tcp_ours(d, 0, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pattern),
	    cmocka_unit_test(test_check),
	    cmocka_unit_test(test_udp_ours),
	    cmocka_unit_test(test_udp_foreign),
	    cmocka_unit_test(test_udp_short),
	    cmocka_unit_test(test_tcp_ours),
	    cmocka_unit_test(test_tcp_foreign_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
