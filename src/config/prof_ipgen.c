/*
 * prof_ipgen.c — the `ip_gen` section of a flows profile (flowgen-profile(5)):
 * the client and server address ranges, IPv4 or IPv6, and the NAT64
 * prefix, walked by prof.c through prof_ip_gen_schema. IPv6 ranges lie
 * within one /96 and a NAT64 prefix is a /96 (RFC 6052), because the flows
 * engine keys IPv6 flows on the low 32 bits of their addresses
 * (src/dataplane/flows6.c). Errors carry FILE:LINE:COL from yamlu.
 *
 * Context: control (profile loading).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "addr6.h"
#include "prof_plan.h"
#include "prof_int.h"

/*
 * `range: [first, last]`, both IPv4 or both IPv6. The flows engine keys
 * an IPv6 flow on the low 32 bits of its addresses, so an IPv6 range must
 * lie within one /96 (its first 96 bits fixed for the run).
 */
static int parse_ip_range(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n,
			  void *dst)
{
	struct prof_ip_dist *d = dst; /* the row's off is 0: the whole side */
	struct yamlu_field ef = {.key = f->key, .type = YAMLU_IPV4_RANGE};
	uint8_t a[2][16];
	bool six[2];

	if (n->type != YAML_SEQUENCE_NODE || yamlu_len(n) != 2)
		return yamlu_scalar(y, &ef, n, &d->range);
	for (int i = 0; i < 2; i++) {
		const char *v = yamlu_str(yamlu_item(y, n, (size_t)i));

		six[i] = v && strchr(v, ':');
		if (six[i] && !addr6_parse(v, a[i]))
			return yamlu_errf(y, yamlu_item(y, n, (size_t)i),
					  "'%s': '%s' is no IPv6 address", f->key, v);
	}
	if (six[0] != six[1])
		return yamlu_errf(y, n, "'%s': one IPv4 and one IPv6 address; a range is of one family",
				  f->key);
	if (!six[0])
		return yamlu_scalar(y, &ef, n, &d->range);
	if (memcmp(a[0], a[1], 12))
		return yamlu_errf(y, n,
				  "'%s': an IPv6 range must lie within one /96 (its first 96 bits "
				  "the same)",
				  f->key);
	d->range.lo = (uint32_t)a[0][12] << 24 | (uint32_t)a[0][13] << 16 | a[0][14] << 8 | a[0][15];
	d->range.hi = (uint32_t)a[1][12] << 24 | (uint32_t)a[1][13] << 16 | a[1][14] << 8 | a[1][15];
	if (d->range.lo > d->range.hi)
		return yamlu_errf(y, n, "'%s': the first address is above the last", f->key);
	d->v6 = true;
	memcpy(d->hi96, a[0], 12);
	return 0;
}

static const struct yamlu_field ip_dist_fields[] = {
    {.key = "range",
     .type = YAMLU_CUSTOM,
     .off = 0,
     .parse = parse_ip_range,
     .flags = YAMLU_F_REQUIRED,
     .help = "[first, last] address, IPv4 or IPv6 (within one /96)"},
    {.key = "distribution",
     .type = YAMLU_ENUM,
     .off = offsetof(struct prof_ip_dist, dist),
     .names = prof_dist_names,
     .min = PROF_DIST_SEQ,
     .max = PROF_DIST_RAND,
     .help = "seq | rand"},
    {0},
};
static const struct yamlu_schema ip_dist_schema = {"an ip_gen side", ip_dist_fields};

/*
 * `nat64_prefix: "2001:db8:64::/96"`: an RFC 6052 prefix. The flows engine
 * keys a flow on the low 32 bits of the server's address, which only a
 * /96 fills with the IPv4 address: other lengths are refused here.
 */
static int parse_nat64_prefix(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n,
			      void *dst)
{
	struct prof_ip_gen *g = dst;
	const char *v = yamlu_str(n);
	char e[128];

	if (!v)
		return yamlu_errf(y, n, "'%s' must be a prefix such as \"2001:db8:64::/96\"", f->key);
	if (addr6_parse_prefix(v, g->nat64_prefix, &g->nat64_len, e, sizeof(e)))
		return yamlu_errf(y, n, "'%s': %s", f->key, e);
	if (g->nat64_len != 96)
		return yamlu_errf(y, n,
				  "'%s': /%u: flows need a /96 (the IPv4 address in the last 32 "
				  "bits)",
				  f->key, g->nat64_len);
	return 0;
}

static const struct yamlu_field ip_gen_fields[] = {
    {.key = "client",
     .type = YAMLU_MAP,
     .off = offsetof(struct prof_ip_gen, client),
     .sub = &ip_dist_schema,
     .flags = YAMLU_F_REQUIRED,
     .help = "client (inside) addresses"},
    {.key = "server",
     .type = YAMLU_MAP,
     .off = offsetof(struct prof_ip_gen, server),
     .sub = &ip_dist_schema,
     .flags = YAMLU_F_REQUIRED,
     .help = "server (outside) addresses"},
    {.key = "offset",
     .type = YAMLU_IPV4,
     .off = offsetof(struct prof_ip_gen, offset),
     .help = "added per extra port pair, e.g. 0.1.0.0"},
    {.key = "client_ports",
     .type = YAMLU_U32_RANGE,
     .off = offsetof(struct prof_ip_gen, client_ports),
     .min = 1,
     .max = 65535,
     .help = "[first, last] client source port"},
    {.key = "nat64_prefix",
     .type = YAMLU_CUSTOM,
     .off = 0,
     .parse = parse_nat64_prefix,
     .has = YAMLU_HAS(struct prof_ip_gen, has_nat64),
     .help = "NAT64: the RFC 6052 /96 IPv6 clients reach IPv4 servers through"},
    {0},
};

/* The families of the two sides: the same, or NAT64's IPv6 to IPv4. */
static int ip_gen_check(struct yamlu_ctx *y, yaml_node_t *map, void *obj)
{
	const struct prof_ip_gen *g = obj;
	bool c6 = g->client.v6, s6 = g->server.v6;

	if (!c6 && s6)
		return yamlu_errf(y, yamlu_get(y, map, "server"),
				  "IPv4 clients cannot reach IPv6 servers (NAT64 is IPv6 clients, "
				  "IPv4 servers)");
	if (c6 && !s6 && !g->has_nat64)
		return yamlu_errf(y, yamlu_get(y, map, "server"),
				  "IPv6 clients with IPv4 servers need 'nat64_prefix' (the "
				  "translator's RFC 6052 prefix)");
	if (g->has_nat64 && !(c6 && !s6))
		return yamlu_errf(y, yamlu_get(y, map, "nat64_prefix"),
				  "'nat64_prefix' is for IPv6 clients with IPv4 servers");
	return 0;
}

const struct yamlu_schema prof_ip_gen_schema = {"ip_gen", ip_gen_fields, .check = ip_gen_check};
