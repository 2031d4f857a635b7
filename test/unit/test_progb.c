/*
 * test_progb.c — the bytes of a stateful program (progb.h): the until
 * search across segment boundaries, the bytes at a stream offset (data,
 * pattern, past the sends), the receiver's check and the tolerant "is the
 * peer flowgen" test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "progb.h"
#include "tcp.h"

struct delim {
	uint8_t pat[FG_PROF_MAX_UNTIL], fail[FG_PROF_MAX_UNTIL];
	uint32_t n;
};

static void delim_init(struct delim *d, const char *s)
{
	d->n = (uint32_t)strlen(s);
	memcpy(d->pat, s, d->n);
	progb_kmp(d->pat, d->n, d->fail);
}

static uint32_t feed(const struct delim *d, uint32_t *st, const char *s)
{
	return progb_until(d->pat, d->fail, d->n, st, (const uint8_t *)s, (uint32_t)strlen(s));
}

static void test_until_one_segment(void **state)
{
	struct delim d;
	uint32_t st = 0;

	(void)state;
	delim_init(&d, "\r\n\r\n");
	/* the bytes up to and including the delimiter's end */
	assert_int_equal(feed(&d, &st, "HTTP/1.0 200 OK\r\nA: b\r\n\r\nbody"), 25);
	assert_int_equal(st, 0);
	assert_int_equal(feed(&d, &st, "no blank line\r\n"), 0);
	assert_int_equal(st, 2);
}

static void test_until_across_segments(void **state)
{
	static const char *const split[] = {"ab\r", "\n", "\r", "\nrest"};
	struct delim d;
	uint32_t st = 0;

	(void)state;
	delim_init(&d, "\r\n\r\n");
	assert_int_equal(feed(&d, &st, split[0]), 0);
	assert_int_equal(st, 1);
	assert_int_equal(feed(&d, &st, split[1]), 0);
	assert_int_equal(feed(&d, &st, split[2]), 0);
	assert_int_equal(st, 3);
	assert_int_equal(feed(&d, &st, split[3]), 1);
	/* a partial match that breaks restarts where the delimiter can */
	st = 0;
	assert_int_equal(feed(&d, &st, "x\r\n\r"), 0);
	assert_int_equal(feed(&d, &st, "\r\n\r\n"), 4);
	/* byte by byte, the match ends on the right byte */
	st = 0;
	for (const char *p = "GET /\r\n\r"; *p; p++)
		assert_int_equal(progb_until(d.pat, d.fail, d.n, &st, (const uint8_t *)p, 1), 0);
	assert_int_equal(progb_until(d.pat, d.fail, d.n, &st, (const uint8_t *)"\n", 1), 1);
}

/* Self-overlapping delimiters: the failure table, not a restart at 0. */
static void test_until_overlap(void **state)
{
	struct delim d;
	uint32_t st = 0;

	(void)state;
	delim_init(&d, "aab");
	assert_int_equal(feed(&d, &st, "aaab"), 4);
	st = 0;
	assert_int_equal(feed(&d, &st, "aa"), 0);
	assert_int_equal(feed(&d, &st, "a"), 0);
	assert_int_equal(st, 2);
	assert_int_equal(feed(&d, &st, "b"), 1);
	delim_init(&d, "abab");
	st = 0;
	assert_int_equal(feed(&d, &st, "abaabab"), 7);
	st = 0;
	assert_int_equal(feed(&d, &st, "ab"), 0);
	assert_int_equal(feed(&d, &st, "abab"), 2);
	delim_init(&d, "x");
	st = 0;
	assert_int_equal(feed(&d, &st, "yyx"), 3);
	assert_int_equal(feed(&d, &st, ""), 0);
}

/* A program sending "HEAD" (data), 300 pattern bytes, then "\r\n". */
static const uint8_t head[] = "HEAD", crlf[] = "\r\n";
static struct prof_step steps[] = {
    {PROF_OP_SEND, 4, 0, 0, head},    {PROF_OP_RECV, 10, 4, 0, NULL},
    {PROF_OP_SEND, 300, 4, 10, NULL}, {PROF_OP_DELAY, 5, 304, 10, NULL},
    {PROF_OP_SEND, 2, 304, 10, crlf}, {PROF_OP_UNTIL_CLOSE, 0, 306, 10, NULL},
};
static const struct prof_program pg = {.steps = steps, .n = 6, .bytes = true, .sent = 306};

static void test_find(void **state)
{
	(void)state;
	assert_int_equal(progb_find(&pg, 0), 0);
	assert_int_equal(progb_find(&pg, 3), 0);
	assert_int_equal(progb_find(&pg, 4), 2);
	assert_int_equal(progb_find(&pg, 303), 2);
	assert_int_equal(progb_find(&pg, 304), 4);
	assert_int_equal(progb_find(&pg, 305), 4);
	assert_int_equal(progb_find(&pg, 306), pg.n);
	assert_int_equal(progb_find(&pg, 100000), pg.n);
}

static void test_fill_and_check(void **state)
{
	uint8_t got[320], want[320];

	(void)state;
	memcpy(want, "HEAD", 4);
	tcp_payload_fill(want + 4, 4, 300);
	memcpy(want + 304, "\r\n", 2);
	tcp_payload_fill(want + 306, 306, 14);
	/* every window, as segments of a retransmission would cut it */
	for (uint32_t off = 0; off < 320; off += 7)
		for (uint32_t len = 1; off + len <= 320; len += 53) {
			memset(got, 0xee, sizeof(got));
			progb_fill(&pg, got, off, len);
			assert_memory_equal(got, want + off, len);
			assert_true(progb_check(&pg, want + off, off, len));
		}
	/* one byte changed, in the data, the pattern or the tail */
	for (uint32_t at = 0; at < 306; at += 101) {
		memcpy(got, want, sizeof(want));
		got[at] ^= 0x20;
		assert_false(progb_check(&pg, got, 0, 306));
		assert_true(progb_check(&pg, got + at + 1, at + 1, 306 - at - 1));
	}
	assert_false(progb_check(&pg, (const uint8_t *)"HEAd", 0, 4));
}

static void test_ours(void **state)
{
	uint8_t buf[64];

	(void)state;
	progb_fill(&pg, buf, 0, sizeof(buf));
	assert_true(progb_ours(&pg, buf, 0, 64));
	/* a quarter may be wrong, no more */
	for (int i = 0; i < 16; i++)
		buf[i * 4] ^= 1;
	assert_true(progb_ours(&pg, buf, 0, 64));
	buf[1] ^= 1;
	assert_false(progb_ours(&pg, buf, 0, 64));
	/* another server's answer to an HTTP request */
	assert_false(progb_ours(&pg, (const uint8_t *)"HTTP/1.0 200 OK", 0, 15));
	assert_false(progb_ours(&pg, buf, 0, 0));
	assert_true(progb_ours(&pg, (const uint8_t *)"HEAD", 0, 4));
	/* of 4 bytes, one may be wrong, not two */
	assert_true(progb_ours(&pg, (const uint8_t *)"HEAP", 0, 4));
	assert_false(progb_ours(&pg, (const uint8_t *)"HELP", 0, 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_until_one_segment), cmocka_unit_test(test_until_across_segments),
	    cmocka_unit_test(test_until_overlap),     cmocka_unit_test(test_find),
	    cmocka_unit_test(test_fill_and_check),    cmocka_unit_test(test_ours),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
