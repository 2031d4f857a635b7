/*
 * port_addr.h — pure helpers of a port's addresses (port_addr.c): the MAC
 * word of gw_mac and of the WMSG_GWMAC messages, and a port's own
 * addresses, read through the worker's view (port-t.h).
 *
 * Included by: every folder.
 */
#ifndef FG_PORT_ADDR_H
#define FG_PORT_ADDR_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "port-t.h"

/* pure: MAC <-> the 48-bit word used in gw_mac (PORT_MAC_KNOWN: bit 48). */
uint64_t port_mac_word(const struct rte_ether_addr *m);
void port_word_mac(uint64_t w, struct rte_ether_addr *m);

/* pure: a MAC word as text, "aa:bb:cc:dd:ee:ff" (as `arp` prints it);
 * buf holds PORT_MAC_TEXT bytes. Returns buf. */
#define PORT_MAC_TEXT 18
const char *port_mac_text(uint64_t w, char *buf);

/* pure: is ip one of the port's own addresses (its IP or an emulated host)? */
bool port_owns_ip(const struct port_view *p, uint32_t ip);

/* pure: is the IPv6 address a (16 bytes) the port's own (its ipv6 or an
 * emulated host)? */
bool port_owns_ip6(const struct port_view *p, const uint8_t *a);

#endif
