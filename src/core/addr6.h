/*
 * addr6.h — IPv6 address helpers: RFC 6052 IPv4-embedded IPv6 addresses
 * (the addresses a NAT64 translator maps IPv4 hosts to), prefix parsing
 * and the text form of addresses and prefixes (an IPv4 address's too).
 *
 * Context: pure.
 *
 * Included by: every folder.
 */
#ifndef FG_ADDR6_H
#define FG_ADDR6_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ADDR6_STRLEN 46 /* INET6_ADDRSTRLEN */
#define ADDR4_STRLEN 16 /* INET_ADDRSTRLEN */

/* pure: is plen one of RFC 6052's prefix lengths (32, 40, 48, 56, 64, 96)? */
bool addr6_rfc6052_len(unsigned plen);

/*
 * pure: the RFC 6052 section 2.2 address of IPv4 `v4` (host order) under
 * the prefix (pfx, plen): the IPv4 bytes around bits 64-71 (which stay
 * zero), the suffix zero. 0, or -EINVAL for another prefix length.
 */
int addr6_synth(const uint8_t *pfx, unsigned plen, uint32_t v4, uint8_t *out);

/*
 * pure: the IPv4 address (host order) embedded in `a` under a prefix of
 * length plen (RFC 6052 section 2.2). 0, or -EINVAL for another prefix
 * length or when bits 64-71 are not zero.
 */
int addr6_extract(const uint8_t *a, unsigned plen, uint32_t *v4);

/* pure: does `a` lie in (pfx, plen)? */
bool addr6_in_prefix(const uint8_t *a, const uint8_t *pfx, unsigned plen);

/*
 * pure: parse "ADDR/LEN" as an RFC 6052 prefix: LEN one of 32 .. 96 of
 * RFC 6052, no bit set past LEN, bits 64-71 zero. 0, or -EINVAL with a
 * message in err.
 */
int addr6_parse_prefix(const char *s, uint8_t *pfx, unsigned *plen, char *err, size_t errlen);

/* pure: parse one IPv6 address in text form; false when it is none. */
bool addr6_parse(const char *s, uint8_t *a);

/* pure: the text form of a (RFC 5952), in buf of ADDR6_STRLEN bytes. */
const char *addr6_str(const uint8_t *a, char *buf);

/* pure: the dotted form of IPv4 ip (host order), in buf of ADDR4_STRLEN bytes. */
const char *addr4_str(uint32_t ip, char *buf);

#endif
