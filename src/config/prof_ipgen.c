/*
 * prof_ipgen.c — the `ip_gen` section of a flows profile (flowgen-profile(5)):
 * the client and server addresses (a range or a list, IPv4 or IPv6) and
 * the NAT64 prefix, walked by prof.c through prof_ip_gen_schema. IPv6
 * sides lie within one /96 and a NAT64 prefix is a /96 (RFC 6052), because the flows
 * engine keys IPv6 flows on the low 32 bits of their addresses
 * (src/dataplane/flows6.c). Errors carry FILE:LINE:COL from yamlu.
 *
 * Context: control (profile loading).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "addr6.h"
#include "fgen_mem.h"
#include "prof_int.h"
#include "prof_plan.h"

/* The low 32 bits of an IPv6 address, host order. */
static uint32_t low32(const uint8_t *a)
{
	return (uint32_t)a[12] << 24 | (uint32_t)a[13] << 16 | (uint32_t)a[14] << 8 | a[15];
}

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
	d->range.lo = low32(a[0]);
	d->range.hi = low32(a[1]);
	if (d->range.lo > d->range.hi)
		return yamlu_errf(y, n, "'%s': the first address is above the last", f->key);
	d->v6 = true;
	memcpy(d->hi96, a[0], 12);
	return 0;
}

/* Error at the second of two equal addresses of d's list, if any. */
static int list_unique(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n,
		       const struct prof_ip_dist *d)
{
	uint64_t *s = malloc(d->n_list * sizeof(*s));
	uint32_t dup;

	if (!s)
		return yamlu_errf(y, n, "out of memory");
	dup = fgen_sort_tagged(s, d->list, (uint32_t)d->n_list);
	free(s);
	if (dup)
		return yamlu_errf(y, yamlu_item(y, n, dup), "'%s': '%s' is in the list twice",
				  f->key, yamlu_str(yamlu_item(y, n, dup)));
	return 0;
}

/*
 * `list: [a, b, ...]`: addresses one by one, all IPv4 or all IPv6 within
 * one /96 (as a range), none twice, none with low 32 bits 0. The walk
 * follows the order given; range becomes the lowest and highest.
 */
static int parse_ip_list(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n,
			 void *dst)
{
	struct prof_ip_dist *d = dst;
	struct yamlu_field ef = {.key = f->key, .type = YAMLU_IPV4};
	size_t len = n->type == YAML_SEQUENCE_NODE ? yamlu_len(n) : 0;
	uint8_t a[16];
	int rc;

	if (!len)
		return yamlu_errf(y, n,
				  "'%s' must be a list of addresses, such as [198.18.0.10, "
				  "198.18.4.7]",
				  f->key);
	if (len > FG_PROF_MAX_LIST)
		return yamlu_errf(y, n, "'%s': %zu addresses, at most %d (a range holds more)",
				  f->key, len, FG_PROF_MAX_LIST);
	d->list = calloc(len, sizeof(*d->list));
	if (!d->list)
		return yamlu_errf(y, n, "out of memory");
	d->n_list = len;
	for (size_t i = 0; i < len; i++) {
		yaml_node_t *it = yamlu_item(y, n, i);
		const char *v = yamlu_str(it);
		bool six = v && strchr(v, ':');

		if (i == 0)
			d->v6 = six;
		else if (six != d->v6)
			return yamlu_errf(y, it,
					  "'%s': IPv4 and IPv6 addresses in one list; a side is of "
					  "one family",
					  f->key);
		if (!six) {
			if ((rc = yamlu_scalar(y, &ef, it, &d->list[i])) != 0)
				return rc;
		} else if (!addr6_parse(v, a)) {
			return yamlu_errf(y, it, "'%s': '%s' is no IPv6 address", f->key, v);
		} else {
			if (i == 0)
				memcpy(d->hi96, a, 12);
			else if (memcmp(a, d->hi96, 12))
				return yamlu_errf(
				    y, it,
				    "'%s': '%s' is not in the /96 of the list's first "
				    "address (an IPv6 side lies within one /96)",
				    f->key, v);
			d->list[i] = low32(a);
		}
		if (d->list[i] == 0)
			return yamlu_errf(y, it, "'%s': '%s' is no host address", f->key, v);
		if (i == 0 || d->list[i] < d->range.lo)
			d->range.lo = d->list[i];
		if (i == 0 || d->list[i] > d->range.hi)
			d->range.hi = d->list[i];
	}
	return list_unique(y, f, n, d);
}

static void release_ip_list(void *dst)
{
	struct prof_ip_dist *d = dst;

	free(d->list);
	d->list = NULL;
	d->n_list = 0;
}

/* A side is a range or a list, one of the two. */
static int ip_dist_check(struct yamlu_ctx *y, yaml_node_t *map, void *obj)
{
	yaml_node_t *r = yamlu_get(y, map, "range"), *l = yamlu_get(y, map, "list");

	(void)obj;
	if (r && l)
		return yamlu_errf(y, l, "'range' and 'list' together: give one of them");
	if (!r && !l)
		return yamlu_errf(y, map, "an ip_gen side needs 'range' or 'list'");
	return 0;
}

static const struct yamlu_field ip_dist_fields[] = {
    {.key = "range",
     .type = YAMLU_CUSTOM,
     .off = 0,
     .parse = parse_ip_range,
     .help = "[first, last] address, IPv4 or IPv6 (within one /96)"},
    {.key = "list",
     .type = YAMLU_CUSTOM,
     .off = 0,
     .parse = parse_ip_list,
     .release = release_ip_list,
     .help = "[address, ...] in the order used, IPv4 or IPv6 (within one /96)"},
    {.key = "distribution",
     .type = YAMLU_ENUM,
     .off = offsetof(struct prof_ip_dist, dist),
     .names = prof_dist_names,
     .min = PROF_DIST_SEQ,
     .max = PROF_DIST_RAND,
     .help = "seq | rand"},
    {0},
};
static const struct yamlu_schema ip_dist_schema = {"an ip_gen side", ip_dist_fields, NULL,
						   ip_dist_check};

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
    {.key = "client_ports_order",
     .type = YAMLU_ENUM,
     .off = offsetof(struct prof_ip_gen, client_ports_order),
     .names = prof_dist_names,
     .min = PROF_DIST_SEQ,
     .max = PROF_DIST_RAND,
     .help = "seq | rand: each client address's source ports in increasing or "
	     "pseudorandom order"},
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
