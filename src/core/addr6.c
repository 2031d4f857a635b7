/*
 * addr6.c — IPv6 address helpers, pure: RFC 6052 synthesis and extraction
 * of IPv4-embedded IPv6 addresses for every prefix length the RFC allows,
 * prefix parsing, text forms. The config parser, the console and (for
 * NAT64) control preparing a run use them; nothing here runs
 * per packet.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr6.h"

bool addr6_rfc6052_len(unsigned plen)
{
	return plen == 32 || plen == 40 || plen == 48 || plen == 56 || plen == 64 || plen == 96;
}

/*
 * RFC 6052 section 2.2: the IPv4 address fills the bytes after the prefix
 * but skips byte 8 (bits 64-71, "u"), which is always zero. The byte
 * positions of the four IPv4 bytes, by prefix length.
 */
static const uint8_t *v4_slots(unsigned plen)
{
	static const uint8_t s32[4] = {4, 5, 6, 7}, s40[4] = {5, 6, 7, 9}, s48[4] = {6, 7, 9, 10},
			     s56[4] = {7, 9, 10, 11}, s64[4] = {9, 10, 11, 12},
			     s96[4] = {12, 13, 14, 15};

	switch (plen) {
	case 32:
		return s32;
	case 40:
		return s40;
	case 48:
		return s48;
	case 56:
		return s56;
	case 64:
		return s64;
	case 96:
		return s96;
	default:
		return NULL;
	}
}

int addr6_synth(const uint8_t *pfx, unsigned plen, uint32_t v4, uint8_t *out)
{
	const uint8_t *slot = v4_slots(plen);

	if (!slot)
		return -EINVAL;
	memset(out, 0, 16);
	memcpy(out, pfx, plen / 8);
	for (int i = 0; i < 4; i++)
		out[slot[i]] = (uint8_t)(v4 >> (24 - 8 * i));
	return 0;
}

int addr6_extract(const uint8_t *a, unsigned plen, uint32_t *v4)
{
	const uint8_t *slot = v4_slots(plen);
	uint32_t v = 0;

	if (!slot || a[8] != 0)
		return -EINVAL;
	for (int i = 0; i < 4; i++)
		v = v << 8 | a[slot[i]];
	*v4 = v;
	return 0;
}

bool addr6_in_prefix(const uint8_t *a, const uint8_t *pfx, unsigned plen)
{
	unsigned full = plen / 8, rest = plen % 8;

	if (plen > 128 || memcmp(a, pfx, full))
		return false;
	if (!rest)
		return true;
	return ((a[full] ^ pfx[full]) & (uint8_t)(0xff << (8 - rest))) == 0;
}

bool addr6_parse(const char *s, uint8_t *a)
{
	return s && inet_pton(AF_INET6, s, a) == 1;
}

const char *addr6_str(const uint8_t *a, char *buf)
{
	if (!inet_ntop(AF_INET6, a, buf, ADDR6_STRLEN))
		snprintf(buf, ADDR6_STRLEN, "?");
	return buf;
}

const char *addr4_str(uint32_t ip, char *buf)
{
	struct in_addr n = {.s_addr = htonl(ip)};

	return inet_ntop(AF_INET, &n, buf, ADDR4_STRLEN);
}

int addr6_parse_prefix(const char *s, uint8_t *pfx, unsigned *plen, char *err, size_t errlen)
{
	char buf[64];
	const char *slash = s ? strchr(s, '/') : NULL;
	char *end;
	unsigned long n;

	if (!slash || (size_t)(slash - s) >= sizeof(buf)) {
		snprintf(err, errlen, "'%s' is not an IPv6 prefix (ADDR/LEN)", s ? s : "");
		return -EINVAL;
	}
	memcpy(buf, s, (size_t)(slash - s));
	buf[slash - s] = 0;
	if (!addr6_parse(buf, pfx)) {
		snprintf(err, errlen, "'%s' is not an IPv6 address", buf);
		return -EINVAL;
	}
	errno = 0;
	n = strtoul(slash + 1, &end, 10);
	if (errno || end == slash + 1 || *end || !addr6_rfc6052_len((unsigned)n)) {
		snprintf(err, errlen,
			 "prefix length '%s': RFC 6052 allows 32, 40, 48, 56, 64 or 96",
			 slash + 1);
		return -EINVAL;
	}
	for (unsigned b = (unsigned)n; b < 128; b++)
		if (pfx[b / 8] & (0x80 >> (b % 8))) {
			snprintf(err, errlen, "'%s' has bits set past /%lu", s, n);
			return -EINVAL;
		}
	if (pfx[8]) {
		snprintf(err, errlen, "'%s': bits 64-71 must be zero (RFC 6052 section 2.2)", s);
		return -EINVAL;
	}
	*plen = (unsigned)n;
	return 0;
}
