/*
 * port_addr.c — the pure address helpers of a port: the 48-bit word a
 * next-hop MAC travels in (a worker's mailbox, struct port's gw_mac), and
 * whether an IPv4 or IPv6 address is one of the port's own (its address
 * or an emulated host). Workers answer ARP, ICMP echo and Neighbour
 * Solicitations with them; control uses them too.
 */
#include <stdio.h>
#include <string.h>

#include "port_addr.h"

uint64_t port_mac_word(const struct rte_ether_addr *m)
{
	uint64_t w = 0;

	for (int i = 0; i < RTE_ETHER_ADDR_LEN; i++)
		w = (w << 8) | m->addr_bytes[i];
	return w;
}

void port_word_mac(uint64_t w, struct rte_ether_addr *m)
{
	for (int i = RTE_ETHER_ADDR_LEN - 1; i >= 0; i--) {
		m->addr_bytes[i] = w & 0xff;
		w >>= 8;
	}
}

const char *port_mac_text(uint64_t w, char *buf)
{
	struct rte_ether_addr m;

	port_word_mac(w, &m);
	snprintf(buf, PORT_MAC_TEXT, "%02x:%02x:%02x:%02x:%02x:%02x", m.addr_bytes[0],
		 m.addr_bytes[1], m.addr_bytes[2], m.addr_bytes[3], m.addr_bytes[4], m.addr_bytes[5]);
	return buf;
}

bool port_owns_ip(const struct port_view *p, uint32_t ip)
{
	/* acquire: pairs with the release store in port_set_hosts, so the
	 * ranges below nhosts are complete when we read them */
	uint32_t n = __atomic_load_n(&p->nhosts, __ATOMIC_ACQUIRE);

	if (p->ip && ip == p->ip)
		return true;
	for (uint32_t i = 0; i < n; i++)
		if (ip >= p->hosts[i].lo && ip <= p->hosts[i].hi)
			return true;
	return false;
}

bool port_owns_ip6(const struct port_view *p, const uint8_t *a)
{
	/* acquire: pairs with the release store in port_set_hosts6 */
	uint32_t n = __atomic_load_n(&p->nhosts6, __ATOMIC_ACQUIRE), lo;

	if (p->has_ip6 && memcmp(a, p->ip6, 16) == 0)
		return true;
	if (!n)
		return false;
	lo = (uint32_t)a[12] << 24 | (uint32_t)a[13] << 16 | (uint32_t)a[14] << 8 | a[15];
	for (uint32_t i = 0; i < n; i++)
		if (lo >= p->hosts6[i].lo && lo <= p->hosts6[i].hi &&
		    memcmp(a, p->hosts6[i].pfx, 12) == 0)
			return true;
	return false;
}
