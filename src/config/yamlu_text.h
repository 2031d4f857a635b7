/*
 * yamlu_text.h — the pure helpers of the YAML reader (yamlu_text.c): a
 * node's text, length and null-ness, the strict parsers of dotted quads and
 * MAC addresses, and the formatter of an IPv4 address. The walker, the
 * loading and the messages are yamlu.h.
 *
 * Context: pure (no globals; each reads only what it is given).
 *
 * Included by: config, control and console.
 */
#ifndef FG_YAMLU_TEXT_H
#define FG_YAMLU_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

/* pure: number of items of a sequence node (0 for anything else). */
size_t yamlu_len(const yaml_node_t *seq);
/* pure: the text of a scalar node, NULL if n is not a scalar. */
const char *yamlu_str(const yaml_node_t *n);
/* pure: true for an empty/null scalar (``, `~`, `null`). */
bool yamlu_is_null(const yaml_node_t *n);

/* pure: strict dotted quad to host order; false if malformed. */
bool yamlu_parse_ipv4(const char *s, uint32_t *out);
/* pure: "aa:bb:cc:dd:ee:ff" (also '-' separated); false if malformed. */
bool yamlu_parse_mac(const char *s, uint8_t mac[6]);

/* pure: the value of a hex digit (either case), or -1. */
int yamlu_hexval(int c);
/* pure: formats a host-order address. Returns buf (at least 16 bytes). */
const char *yamlu_fmt_ipv4(uint32_t a, char *buf, size_t len);

#endif
