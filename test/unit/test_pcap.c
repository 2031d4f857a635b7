/*
 * test_pcap.c — a capture file's first TCP or UDP session as each side's
 * messages (src/config/prof_pcap.h): files written here with libpcap
 * from frames of pkt.c's builders. TCP bytes come back in order whatever
 * the order of the segments (early ones wait, repeats count once), the
 * client is the SYN's sender, the gaps between messages are kept; UDP
 * datagrams are messages of their own; IPv6 and Linux cooked captures
 * read alike; a lost segment, a file with no payload and a file that is
 * not a capture fail with the file's name.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <pcap/pcap.h>

#include "fg.h"
#include "pkt.h"
#include "pkt6.h"
#include "prof_pcap.h"

#define CLI 0xc6120001u /* 198.18.0.1 */
#define SRV 0xc6130001u /* 198.19.0.1 */

static const struct rte_ether_addr mac_c = {{2, 0, 0, 0, 0, 1}}, mac_s = {{2, 0, 0, 0, 0, 2}};
static const uint8_t ip6_c[16] = {0x20, 0x01, 0, 2, [15] = 1};
static const uint8_t ip6_s[16] = {0x20, 0x01, 0, 2, 0, 0, 0, 1, [15] = 1};

struct cap {
	char path[64];
	pcap_t *pd;
	pcap_dumper_t *dump;
	int dlt;
	uint64_t us;
};

static void cap_open(struct cap *c, int dlt)
{
	int fd;

	snprintf(c->path, sizeof(c->path), "/tmp/fg-test-pcap.XXXXXX");
	fd = mkstemp(c->path);
	assert_true(fd >= 0);
	close(fd);
	c->dlt = dlt;
	c->pd = pcap_open_dead(dlt, 65535);
	assert_non_null(c->pd);
	c->dump = pcap_dump_open(c->pd, c->path);
	assert_non_null(c->dump);
	c->us = 1000000;
}

static void cap_close(struct cap *c)
{
	pcap_dump_close(c->dump);
	pcap_close(c->pd);
}

/* One Ethernet frame f of len bytes, dt_us after the one before it; a
 * Linux cooked capture gets its 16-byte header instead of Ethernet's. */
static void cap_put(struct cap *c, const uint8_t *f, uint16_t len, uint64_t dt_us)
{
	uint8_t b[2048];
	struct pcap_pkthdr h = {0};

	c->us += dt_us;
	h.ts.tv_sec = (time_t)(c->us / 1000000);
	h.ts.tv_usec = (suseconds_t)(c->us % 1000000);
	if (c->dlt == DLT_LINUX_SLL) {
		memset(b, 0, 16);
		memcpy(b + 14, f + 12, 2); /* the protocol: the ethertype */
		memcpy(b + 16, f + 14, len - 14u);
		len = (uint16_t)(len + 2);
		f = b;
	}
	h.caplen = h.len = len;
	pcap_dump((u_char *)c->dump, &h, f);
}

/* A TCP segment from the client (cli) or the server, payload text. */
static void tcp(struct cap *c, bool cli, bool v6, uint32_t seq, uint32_t ack, uint8_t flags,
		const char *text, uint64_t dt_us)
{
	uint8_t f[2048];
	uint16_t n = text ? (uint16_t)strlen(text) : 0, len;
	uint16_t off = v6 ? PKT6_TCP_HDR_OFF + 20 : PKT_TCP_HDR_OFF + 20;

	memcpy(f + off, text ? text : "", n);
	if (v6)
		len = pkt6_build_tcp(f, cli ? &mac_c : &mac_s, cli ? &mac_s : &mac_c,
				     cli ? ip6_c : ip6_s, cli ? ip6_s : ip6_c, cli ? 40000 : 80,
				     cli ? 80 : 40000, seq, ack, flags, 65535, 0, n);
	else
		len = pkt_build_tcp(f, cli ? &mac_c : &mac_s, cli ? &mac_s : &mac_c,
				    cli ? CLI : SRV, cli ? SRV : CLI, cli ? 40000 : 80,
				    cli ? 80 : 40000, seq, ack, flags, 65535, 0, n);
	cap_put(c, f, len, dt_us);
}

static void udp(struct cap *c, bool cli, uint16_t sport, const char *text, uint64_t dt_us)
{
	uint8_t f[2048];
	uint16_t n = (uint16_t)strlen(text);

	memcpy(f + PKT_UDP_PAY_OFF, text, n);
	cap_put(c, f,
		pkt_build_udp(f, cli ? &mac_c : &mac_s, cli ? &mac_s : &mac_c, cli ? CLI : SRV,
			      cli ? SRV : CLI, cli ? sport : 53, cli ? 53 : sport, n),
		dt_us);
}

static void expect_msg(const struct prof_pcap_sess *s, size_t i, bool from_client, const char *text)
{
	assert_true(i < s->n);
	assert_int_equal(s->msgs[i].from_client, from_client);
	assert_int_equal(s->msgs[i].len, strlen(text));
	assert_memory_equal(s->msgs[i].data, text, strlen(text));
}

/* An HTTP exchange: the request in two segments, the response's second
 * segment before its first, a repeated segment, a gap before a second
 * request; over IPv4 Ethernet, IPv6, and a Linux cooked capture. */
static void http_session(int dlt, bool v6)
{
	struct cap c;
	struct prof_pcap_sess s;
	char err[FG_ERRLEN];
	const uint8_t F = 0x01, S = 0x02, P = 0x08, A = 0x10;

	cap_open(&c, dlt);
	/* an unrelated UDP datagram with no payload first: not a session */
	udp(&c, true, 5000, "", 0);
	tcp(&c, true, v6, 999, 0, S, NULL, 10);
	tcp(&c, false, v6, 4999, 1000, S | A, NULL, 10);
	tcp(&c, true, v6, 1000, 5000, A, NULL, 10);
	tcp(&c, true, v6, 1000, 5000, P | A, "GET / HTTP/1.1\r\n", 10);
	tcp(&c, true, v6, 1016, 5000, P | A, "Host: a\r\n\r\n", 10);
	tcp(&c, false, v6, 5012, 1027, P | A, "hello", 500);	   /* early */
	tcp(&c, false, v6, 5000, 1027, P | A, "HTTP/1.1 200", 10); /* fills the gap */
	tcp(&c, false, v6, 5000, 1027, P | A, "HTTP/1.1 200", 10); /* again */
	tcp(&c, true, v6, 1027, 5017, P | A, "GET /b\r\n\r\n", 250000);
	tcp(&c, false, v6, 5017, 1037, P | A | F, "bye", 10);
	tcp(&c, true, v6, 1037, 5021, F | A, NULL, 10);
	cap_close(&c);

	assert_int_equal(prof_pcap_read(c.path, &s, err, sizeof(err)), 0);
	assert_int_equal(s.proto, IPPROTO_TCP);
	assert_int_equal(s.v6, v6);
	assert_int_equal(s.cport, 40000);
	assert_int_equal(s.sport, 80);
	assert_int_equal(s.n, 4);
	expect_msg(&s, 0, true, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
	expect_msg(&s, 1, false, "HTTP/1.1 200hello");
	expect_msg(&s, 2, true, "GET /b\r\n\r\n");
	expect_msg(&s, 3, false, "bye");
	assert_int_equal(s.msgs[0].gap_us, 0);
	/* from the response's last packet (the repeat) to the next request */
	assert_int_equal(s.msgs[2].gap_us, 250000);
	prof_pcap_free(&s);
	unlink(c.path);
}

static void test_tcp(void **state)
{
	(void)state;
	http_session(DLT_EN10MB, false);
	http_session(DLT_EN10MB, true);
	http_session(DLT_LINUX_SLL, false);
}

/* UDP: every datagram a message, two from one side stay two; the server
 * writes first in the file but the client is the first datagram's sender. */
static void test_udp(void **state)
{
	struct cap c;
	struct prof_pcap_sess s;
	char err[FG_ERRLEN];

	(void)state;
	cap_open(&c, DLT_EN10MB);
	udp(&c, true, 3333, "query-1", 0);
	udp(&c, true, 3333, "query-2", 20);
	udp(&c, false, 3333, "answer", 30);
	udp(&c, true, 4444, "another flow", 30);
	cap_close(&c);
	assert_int_equal(prof_pcap_read(c.path, &s, err, sizeof(err)), 0);
	assert_int_equal(s.proto, IPPROTO_UDP);
	assert_int_equal(s.cport, 3333);
	assert_int_equal(s.sport, 53);
	assert_int_equal(s.n, 3);
	expect_msg(&s, 0, true, "query-1");
	expect_msg(&s, 1, true, "query-2");
	expect_msg(&s, 2, false, "answer");
	assert_int_equal(s.msgs[1].gap_us, 20);
	prof_pcap_free(&s);
	unlink(c.path);
}

static void test_errors(void **state)
{
	struct cap c;
	struct prof_pcap_sess s;
	char err[FG_ERRLEN], want[128];
	FILE *f;

	(void)state;
	/* the client's second segment is missing */
	cap_open(&c, DLT_EN10MB);
	tcp(&c, true, false, 1000, 1, 0x18, "abc", 0);
	tcp(&c, true, false, 1006, 1, 0x18, "ghi", 0);
	cap_close(&c);
	assert_int_equal(prof_pcap_read(c.path, &s, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: a segment of the client's bytes is missing after byte 3",
		 c.path);
	assert_true(strncmp(err, want, strlen(want)) == 0);
	prof_pcap_free(&s);
	unlink(c.path);

	/* no payload anywhere */
	cap_open(&c, DLT_EN10MB);
	tcp(&c, true, false, 1000, 0, 0x02, NULL, 0);
	cap_close(&c);
	assert_int_equal(prof_pcap_read(c.path, &s, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: no TCP or UDP packet with a payload", c.path);
	assert_string_equal(err, want);
	prof_pcap_free(&s);

	/* not a capture, and no file */
	f = fopen(c.path, "w");
	assert_non_null(f);
	fputs("mode: flows\n", f);
	fclose(f);
	assert_int_equal(prof_pcap_read(c.path, &s, err, sizeof(err)), -EINVAL);
	assert_true(strncmp(err, c.path, strlen(c.path)) == 0);
	prof_pcap_free(&s);
	unlink(c.path);
	assert_int_equal(prof_pcap_read(c.path, &s, err, sizeof(err)), -EINVAL);
	assert_true(strncmp(err, c.path, strlen(c.path)) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tcp),
	    cmocka_unit_test(test_udp),
	    cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
