/*
 * test_addr6.c — RFC 6052 IPv4-embedded IPv6 addresses: synthesis and
 * extraction for every prefix length against the table of RFC 6052
 * section 2.4, and prefix parsing with its errors.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "addr6.h"

/* RFC 6052 section 2.4: 192.0.2.33 under each prefix. */
static const struct {
	const char *pfx, *addr;
	unsigned plen;
} rfc[] = {
	{"2001:db8::", "2001:db8:c000:221::", 32},
	{"2001:db8:100::", "2001:db8:1c0:2:21::", 40},
	{"2001:db8:122::", "2001:db8:122:c000:2:2100::", 48},
	{"2001:db8:122:300::", "2001:db8:122:3c0:0:221::", 56},
	{"2001:db8:122:344::", "2001:db8:122:344:c0:2:2100:0", 64},
	{"2001:db8:122:344::", "2001:db8:122:344::192.0.2.33", 96},
	{"64:ff9b::", "64:ff9b::192.0.2.33", 96},
};

#define V4 0xc0000221u /* 192.0.2.33 */

static void test_rfc6052_table(void **st)
{
	(void)st;
	for (size_t i = 0; i < sizeof(rfc) / sizeof(rfc[0]); i++) {
		uint8_t pfx[16], want[16], got[16];
		uint32_t v4 = 0;

		assert_true(addr6_parse(rfc[i].pfx, pfx));
		assert_true(addr6_parse(rfc[i].addr, want));
		assert_int_equal(addr6_synth(pfx, rfc[i].plen, V4, got), 0);
		assert_memory_equal(got, want, 16);
		assert_int_equal(addr6_extract(want, rfc[i].plen, &v4), 0);
		assert_int_equal(v4, V4);
		assert_true(addr6_in_prefix(got, pfx, rfc[i].plen));
	}
}

static void test_roundtrip_and_u_octet(void **st)
{
	static const unsigned lens[] = {32, 40, 48, 56, 64, 96};
	uint8_t pfx[16], a[16];
	uint32_t v4;

	(void)st;
	assert_true(addr6_parse("2001:db8:64::", pfx));
	srand(52);
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++)
		for (int i = 0; i < 1000; i++) {
			uint32_t x = (uint32_t)rand() * 2654435761u;

			assert_int_equal(addr6_synth(pfx, lens[k], x, a), 0);
			/* bits 64-71 are never used */
			assert_int_equal(a[8], 0);
			assert_int_equal(addr6_extract(a, lens[k], &v4), 0);
			assert_int_equal(v4, x);
		}
	/* an address with bits 64-71 set is not RFC 6052's */
	a[8] = 1;
	assert_int_equal(addr6_extract(a, 96, &v4), -EINVAL);
	assert_int_equal(addr6_synth(pfx, 80, 1, a), -EINVAL);
	assert_int_equal(addr6_extract(a, 33, &v4), -EINVAL);
}

static void test_prefix_parse(void **st)
{
	uint8_t pfx[16], want[16];
	unsigned plen = 0;
	char err[128];

	(void)st;
	assert_int_equal(addr6_parse_prefix("2001:db8:64::/96", pfx, &plen, err, sizeof(err)), 0);
	assert_int_equal(plen, 96);
	assert_true(addr6_parse("2001:db8:64::", want));
	assert_memory_equal(pfx, want, 16);
	assert_int_equal(addr6_parse_prefix("2001:db8:64::/97", pfx, &plen, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "RFC 6052"));
	assert_int_equal(addr6_parse_prefix("2001:db8:64::", pfx, &plen, err, sizeof(err)), -EINVAL);
	assert_int_equal(addr6_parse_prefix("2001:zz8::/96", pfx, &plen, err, sizeof(err)), -EINVAL);
	assert_int_equal(addr6_parse_prefix("2001:db8::/", pfx, &plen, err, sizeof(err)), -EINVAL);
	/* host bits past the length */
	assert_int_equal(addr6_parse_prefix("2001:db8::1/96", pfx, &plen, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "past /96"));
	/* the u octet (bits 64-71) */
	assert_int_equal(addr6_parse_prefix("2001:db8:0:0:100::/96", pfx, &plen, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "64-71"));
	assert_int_equal(addr6_parse_prefix(NULL, pfx, &plen, err, sizeof(err)), -EINVAL);
}

static void test_str(void **st)
{
	uint8_t a[16];
	char buf[ADDR6_STRLEN];

	(void)st;
	assert_true(addr6_parse("2001:0002:0000::00ab", a));
	assert_string_equal(addr6_str(a, buf), "2001:2::ab");
	assert_false(addr6_parse("198.18.0.1", a));
	assert_false(addr6_parse("", a));
}

/* IPv4 in host order, printed most significant byte first, at full width */
static void test_str4(void **st)
{
	char buf[ADDR4_STRLEN];

	(void)st;
	assert_string_equal(addr4_str(0xc6120001u, buf), "198.18.0.1");
	assert_string_equal(addr4_str(0xffffffffu, buf), "255.255.255.255");
	assert_string_equal(addr4_str(0, buf), "0.0.0.0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc6052_table),
		cmocka_unit_test(test_roundtrip_and_u_octet),
		cmocka_unit_test(test_prefix_parse),
		cmocka_unit_test(test_str),
		cmocka_unit_test(test_str4),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
