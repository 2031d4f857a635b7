/*
 * yamlu_text.c — the pure helpers of the YAML reader (yamlu_text.h): the
 * text, length and null-ness of a node of a loaded document, the strict
 * parsers of dotted quads and MAC addresses behind yamlu_scalar.c's
 * values, and the address formatter of range messages. Each reads only
 * what it is given.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "yamlu_text.h"

/* ---- node helpers ---- */

const char *yamlu_str(const yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE)
		return NULL;
	return (const char *)n->data.scalar.value;
}

bool yamlu_is_null(const yaml_node_t *n)
{
	const char *s = yamlu_str(n);

	if (!s || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return !*s || !strcmp(s, "~") || !strcasecmp(s, "null");
}

size_t yamlu_len(const yaml_node_t *seq)
{
	if (!seq || seq->type != YAML_SEQUENCE_NODE)
		return 0;
	return seq->data.sequence.items.top - seq->data.sequence.items.start;
}

/* ---- strict string parsers, the address formatter ---- */

bool yamlu_parse_ipv4(const char *s, uint32_t *out)
{
	struct in_addr a;

	if (!s || inet_pton(AF_INET, s, &a) != 1)
		return false;
	*out = ntohl(a.s_addr);
	return true;
}

const char *yamlu_fmt_ipv4(uint32_t a, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff);
	return buf;
}

int yamlu_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

bool yamlu_parse_mac(const char *s, uint8_t mac[6])
{
	uint8_t m[6];
	char sep = 0;
	int i;

	if (!s || strlen(s) != 17)
		return false;
	for (i = 0; i < 6; i++) {
		int hi = yamlu_hexval((unsigned char)s[i * 3]),
		    lo = yamlu_hexval((unsigned char)s[i * 3 + 1]);

		if (hi < 0 || lo < 0)
			return false;
		m[i] = (uint8_t)(hi << 4 | lo);
		if (i < 5) {
			char c = s[i * 3 + 2];

			if (c != ':' && c != '-')
				return false;
			if (sep && c != sep)
				return false;
			sep = c;
		}
	}
	memcpy(mac, m, 6);
	return true;
}
