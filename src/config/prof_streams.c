/*
 * prof_streams.c — the streams part of traffic profiles (flowgen-profile(5),
 * STATELESS PROFILES): the yamlu tables of a stream and of the imix table,
 * and the custom parsers of a stream's fields: an address that is IPv4 or
 * IPv6, one value or a `{range, mode}` map (an IPv6 range varies the last
 * 32 bits only), `frame: 64`, `frame: imix` or a range of sizes, a rate
 * with units. The
 * checks refuse a stream whose src and dst differ in family and an IPv6
 * frame too small to carry the signature. Run by the console's thread
 * (prof_load); prof.c walks the profile with these tables.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "addr6.h"
#include "cfg.h"
#include "fg.h"
#include "prof_plan.h"
#include "prof_int.h"

struct field_map {
	struct yamlu_range range;
	int mode;
};

/* A stream address as parsed: IPv4 (host order) or IPv6 (network order). */
struct stream_addr {
	bool v6;
	uint32_t v4;
	uint8_t a6[16];
};

/* `src: {range: [lo, hi], mode: M}`, each end IPv4 or IPv6. */
struct addr_map {
	struct stream_addr lo, hi;
	int mode;
};

/* One stream address, IPv4 or IPv6 (addr6_parse). */
static int parse_stream_addr(struct yamlu_ctx *y, const char *key, yaml_node_t *n,
			     struct stream_addr *a)
{
	struct yamlu_field ef = {.key = key, .type = YAMLU_IPV4};
	const char *v = yamlu_str(n);

	memset(a, 0, sizeof(*a));
	if (v && strchr(v, ':')) {
		if (!addr6_parse(v, a->a6))
			return yamlu_errf(y, n, "'%s': '%s' is not an IPv6 address", key, v);
		a->v6 = true;
		return 0;
	}
	return yamlu_scalar(y, &ef, n, &a->v4);
}

static int parse_addr_range(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n,
			    void *dst)
{
	struct addr_map *m = dst;
	char a[16], b[16];
	int rc;

	if (n->type != YAML_SEQUENCE_NODE || yamlu_len(n) != 2)
		return yamlu_errf(y, n, "'%s' must be a list [first, last]", f->key);
	rc = parse_stream_addr(y, f->key, yamlu_item(y, n, 0), &m->lo)
		 ?: parse_stream_addr(y, f->key, yamlu_item(y, n, 1), &m->hi);
	if (!rc && !m->lo.v6 && !m->hi.v6 && m->lo.v4 > m->hi.v4)
		return yamlu_errf(y, n, "'%s' is empty: %s is above %s", f->key,
				  yamlu_fmt_ipv4(m->lo.v4, a, sizeof(a)),
				  yamlu_fmt_ipv4(m->hi.v4, b, sizeof(b)));
	return rc;
}

static const struct yamlu_field ip_field_fields[] = {
    {.key = "range",
     .type = YAMLU_CUSTOM,
     .off = 0,
     .parse = parse_addr_range,
     .flags = YAMLU_F_REQUIRED},
    {.key = "mode",
     .type = YAMLU_ENUM,
     .off = offsetof(struct addr_map, mode),
     .names = prof_var_names,
     .min = PROF_VAR_FIXED,
     .max = PROF_VAR_RAND},
    {0},
};
static const struct yamlu_schema ip_field_schema = {"an address range", ip_field_fields};

static const struct yamlu_field port_field_fields[] = {
    {.key = "range",
     .type = YAMLU_U32_RANGE,
     .off = offsetof(struct field_map, range),
     .min = 0,
     .max = 65535,
     .flags = YAMLU_F_REQUIRED},
    {.key = "mode",
     .type = YAMLU_ENUM,
     .off = offsetof(struct field_map, mode),
     .names = prof_var_names,
     .min = PROF_VAR_FIXED,
     .max = PROF_VAR_RAND},
    {0},
};
static const struct yamlu_schema port_field_schema = {"a port range", port_field_fields};

/* `sport: 1024` or `sport: {range: [lo, hi], mode: inc}`. */
static int parse_port(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst)
{
	struct prof_field *pf = dst;
	struct field_map m = {.mode = PROF_VAR_INC};
	struct yamlu_field ef = {.key = f->key, .type = YAMLU_UINT32, .min = 0, .max = 65535};
	uint32_t v;
	int rc;

	if (n->type == YAML_MAPPING_NODE) {
		rc = yamlu_walk(y, n, &port_field_schema, &m);
		if (rc)
			return rc;
		if (m.mode == PROF_VAR_RAND && m.range.lo == m.range.hi)
			return yamlu_errf(
			    y, n, "'%s': mode rand needs a range of two or more values", f->key);
		pf->lo = m.range.lo;
		pf->hi = m.mode == PROF_VAR_FIXED ? m.range.lo : m.range.hi;
		pf->mode = m.mode;
		return 0;
	}
	rc = yamlu_scalar(y, &ef, n, &v);
	if (rc)
		return rc;
	pf->lo = pf->hi = v;
	pf->mode = PROF_VAR_FIXED;
	return 0;
}

/* The last 32 bits of an IPv6 address, host order. */
static uint32_t addr6_low32(const uint8_t *a)
{
	return (uint32_t)a[12] << 24 | (uint32_t)a[13] << 16 | (uint32_t)a[14] << 8 | a[15];
}

/*
 * `src: 198.18.0.1`, `src: 2001:2::1` or `src: {range: [lo, hi], mode:
 * inc}` (the row's off is 0: the whole stream, since an IPv6 address
 * sets src6/dst6 and the family beside the field). An IPv6 range varies
 * only the last 32 bits: both ends lie within one /96.
 */
static int parse_addr(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst)
{
	struct prof_stream *s = dst;
	bool is_src = !strcmp(f->key, "src");
	struct prof_field *pf = is_src ? &s->src : &s->dst;
	uint8_t *a6 = is_src ? s->src6 : s->dst6;
	struct addr_map m = {.mode = PROF_VAR_INC};
	uint32_t lo, hi;
	char b1[ADDR6_STRLEN], b2[ADDR6_STRLEN];
	int rc;

	if (n->type == YAML_MAPPING_NODE) {
		rc = yamlu_walk(y, n, &ip_field_schema, &m);
		if (rc)
			return rc;
	} else {
		rc = parse_stream_addr(y, f->key, n, &m.lo);
		if (rc)
			return rc;
		m.hi = m.lo;
		m.mode = PROF_VAR_FIXED;
	}
	if (m.lo.v6 != m.hi.v6)
		return yamlu_errf(y, n, "'%s': a range is IPv4 or IPv6, not both", f->key);
	if (m.lo.v6) {
		if (memcmp(m.lo.a6, m.hi.a6, 12) != 0)
			return yamlu_errf(y, n,
					  "'%s': %s and %s are not in one /96 (an IPv6 range "
					  "varies only the last 32 bits)",
					  f->key, addr6_str(m.lo.a6, b1), addr6_str(m.hi.a6, b2));
		lo = addr6_low32(m.lo.a6);
		hi = addr6_low32(m.hi.a6);
		if (lo > hi)
			return yamlu_errf(y, n, "'%s' is empty: %s is above %s", f->key,
					  addr6_str(m.lo.a6, b1), addr6_str(m.hi.a6, b2));
		memcpy(a6, m.lo.a6, 16);
	} else {
		lo = m.lo.v4;
		hi = m.hi.v4; /* lo <= hi: parse_addr_range */
	}
	if (m.mode == PROF_VAR_RAND && lo == hi)
		return yamlu_errf(y, n, "'%s': mode rand needs a range of two or more values",
				  f->key);
	if (is_src)
		s->src_v6 = m.lo.v6;
	else
		s->dst_v6 = m.lo.v6;
	pf->lo = lo;
	pf->hi = m.mode == PROF_VAR_FIXED ? lo : hi;
	pf->mode = m.mode;
	return 0;
}

/* `frame: {range: [lo, hi], mode: inc|dec|rand, step: S}` */
struct frame_map {
	struct yamlu_range range;
	int mode;
	uint32_t step;
};

static const struct yamlu_field frame_range_fields[] = {
    {.key = "range",
     .type = YAMLU_U32_RANGE,
     .off = offsetof(struct frame_map, range),
     .min = FG_PROF_FRAME_MIN,
     .max = FG_PROF_FRAME_MAX,
     .flags = YAMLU_F_REQUIRED},
    {.key = "mode",
     .type = YAMLU_ENUM,
     .off = offsetof(struct frame_map, mode),
     .names = prof_var_names,
     .min = PROF_VAR_INC,
     .max = PROF_VAR_RAND},
    {.key = "step",
     .type = YAMLU_UINT32,
     .off = offsetof(struct frame_map, step),
     .min = 1,
     .max = FG_PROF_FRAME_MAX - FG_PROF_FRAME_MIN},
    {0},
};
static const struct yamlu_schema frame_range_schema = {"a frame size range", frame_range_fields};

/* `frame: 64`, `frame: imix` or `frame: {range: [64, 1518], mode: inc}`. */
static int parse_frame(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst)
{
	struct yamlu_field ef = {.key = f->key,
				 .type = YAMLU_UINT32,
				 .min = FG_PROF_FRAME_MIN,
				 .max = FG_PROF_FRAME_MAX};
	struct prof_stream *s = dst; /* the row's off is 0: the whole stream */
	struct frame_map m = {.mode = PROF_VAR_INC, .step = 1};
	const char *v = yamlu_str(n);
	int rc;

	if (v && !strcmp(v, "imix")) {
		s->imix = true;
		s->frame = 0;
		return 0;
	}
	if (n->type != YAML_MAPPING_NODE)
		return yamlu_scalar(y, &ef, n, &s->frame);
	rc = yamlu_walk(y, n, &frame_range_schema, &m);
	if (rc)
		return rc;
	if (m.range.lo == m.range.hi)
		return yamlu_errf(y, n,
				  "'%s': a range of sizes needs two or more sizes (or give "
				  "one size: frame: %u)",
				  f->key, m.range.lo);
	if (m.step != 1 && m.mode == PROF_VAR_RAND)
		return yamlu_errf(y, yamlu_get(y, n, "step"),
				  "'%s': step is for mode inc or dec, not rand", f->key);
	s->frames = (struct prof_field){m.range.lo, m.range.hi, m.mode};
	s->frame_step = m.step;
	s->frame = 0;
	return 0;
}

static int parse_rate(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst)
{
	const char *v = yamlu_str(n);
	char msg[256];

	if (!v || yamlu_is_null(n))
		return yamlu_errf(y, n, "'%s' must be a rate such as 10kpps, 500mbps or 10%%",
				  f->key);
	if (units_parse_rate(v, dst, msg, sizeof(msg)))
		return yamlu_errf(y, n, "'%s': %s", f->key, msg);
	return 0;
}

static const char *const l4_names[PROF_L4_COUNT] = {
    [PROF_L4_UDP] = "udp",
    [PROF_L4_TCP] = "tcp",
    [PROF_L4_ICMP] = "icmp",
};

/* `flags: SA` (the letters of the control bits, as scapy writes them:
 * F S R P A U E C, RFC 9293 §3.1 and RFC 3168 §23.2) or a number 0..255. */
static int parse_tcp_flags(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n,
			   void *dst)
{
	static const char bits[] = "FSRPAUEC";
	struct yamlu_field ef = {.key = f->key, .type = YAMLU_UINT32, .min = 0, .max = 255};
	const char *v = yamlu_str(n);
	uint8_t *fl = dst;
	uint32_t x = 0;

	if (v && *v && !(*v >= '0' && *v <= '9')) {
		for (const char *c = v; *c; c++) {
			const char *b = strchr(bits, *c);

			if (!b)
				return yamlu_errf(y, n,
						  "'%s': '%c' is not a TCP flag (F S R P A U E C, "
						  "or a number)",
						  f->key, *c);
			x |= 1u << (b - bits);
		}
		*fl = (uint8_t)x;
		return 0;
	}
	if (yamlu_scalar(y, &ef, n, &x))
		return -EINVAL;
	*fl = (uint8_t)x;
	return 0;
}

static const struct yamlu_field tcp_fields[] = {
    {.key = "flags",
     .type = YAMLU_CUSTOM,
     .off = offsetof(struct prof_tcp, flags),
     .parse = parse_tcp_flags,
     .help = "control bits: letters F S R P A U E C, or a number (default S)"},
    {.key = "seq",
     .type = YAMLU_UINT32,
     .off = offsetof(struct prof_tcp, seq),
     .min = 0,
     .max = UINT32_MAX,
     .help = "sequence number (default 0)"},
    {.key = "ack",
     .type = YAMLU_UINT32,
     .off = offsetof(struct prof_tcp, ack),
     .min = 0,
     .max = UINT32_MAX,
     .help = "acknowledgment number (default 0)"},
    {.key = "window",
     .type = YAMLU_UINT32,
     .off = offsetof(struct prof_tcp, window),
     .min = 0,
     .max = 65535,
     .help = "window (default 8192)"},
    {0},
};
static const struct yamlu_schema tcp_schema = {"a stream's tcp header", tcp_fields};

static const struct yamlu_field icmp_fields[] = {
    {.key = "type",
     .type = YAMLU_UINT32,
     .off = offsetof(struct prof_icmp, type),
     .min = 0,
     .max = 255,
     .has = YAMLU_HAS(struct prof_icmp, has_type),
     .help = "echo request (8; ICMPv6 128, the default) or reply (0; 129)"},
    {.key = "code",
     .type = YAMLU_UINT32,
     .off = offsetof(struct prof_icmp, code),
     .min = 0,
     .max = 255,
     .help = "code (default 0)"},
    {.key = "id",
     .type = YAMLU_CUSTOM,
     .off = offsetof(struct prof_icmp, id),
     .parse = parse_port,
     .help = "echo identifier(s), as a port (default 0)"},
    {.key = "seq",
     .type = YAMLU_CUSTOM,
     .off = offsetof(struct prof_icmp, seq),
     .parse = parse_port,
     .help = "echo sequence number(s), as a port (default 0)"},
    {0},
};
static const struct yamlu_schema icmp_schema = {"a stream's icmp header", icmp_fields};

/*
 * `proto:`, `tcp:` and `icmp:` agree; an ICMP stream's echo identifier
 * and sequence number become its sport and dport (what the engine
 * varies), so sport and dport of its own are refused; its type is an
 * echo request or reply of its family (RFC 792, RFC 4443 §4.1).
 */
static int stream_check_l4(struct yamlu_ctx *y, yaml_node_t *map, struct prof_stream *s)
{
	static const char *const keys[] = {"sport", "dport"};
	yaml_node_t *n;

	if (s->proto != PROF_L4_TCP && (n = yamlu_get(y, map, "tcp")) != NULL)
		return yamlu_errf(y, n, "stream '%s': 'tcp' is for a stream of proto tcp", s->name);
	if (s->proto != PROF_L4_ICMP) {
		if ((n = yamlu_get(y, map, "icmp")) != NULL)
			return yamlu_errf(y, n, "stream '%s': 'icmp' is for a stream of proto icmp",
					  s->name);
		return 0;
	}
	for (size_t i = 0; i < FG_ARRAY_SIZE(keys); i++)
		if ((n = yamlu_get(y, map, keys[i])) != NULL)
			return yamlu_errf(y, n,
					  "stream '%s': an icmp stream has no ports: its "
					  "echo identifier and sequence number are icmp's id "
					  "and seq",
					  s->name);
	if (!s->icmp.has_type)
		s->icmp.type = s->v6 ? 128 : 8;
	if (s->v6 ? s->icmp.type != 128 && s->icmp.type != 129
		  : s->icmp.type != 8 && s->icmp.type != 0)
		return yamlu_errf(y, yamlu_get(y, yamlu_get(y, map, "icmp"), "type"),
				  "stream '%s': icmp type %u: flowgen sends echo requests (%d) "
				  "and replies (%d) only",
				  s->name, s->icmp.type, s->v6 ? 128 : 8, s->v6 ? 129 : 0);
	s->sport = s->icmp.id;
	s->dport = s->icmp.seq;
	return 0;
}

static void stream_init(void *obj)
{
	struct prof_stream *s = obj;
	const struct prof_field zero = {0, 0, PROF_VAR_FIXED};

	s->sport =
	    (struct prof_field){FG_PROF_SPORT_DEFAULT, FG_PROF_SPORT_DEFAULT, PROF_VAR_FIXED};
	s->dport =
	    (struct prof_field){FG_PROF_DPORT_DEFAULT, FG_PROF_DPORT_DEFAULT, PROF_VAR_FIXED};
	s->proto = PROF_L4_UDP;
	s->tcp.flags = 0x02; /* SYN, as scapy's TCP() */
	s->tcp.window = 8192;
	s->icmp.id = s->icmp.seq = zero;
}

static int stream_check(struct yamlu_ctx *y, yaml_node_t *map, void *obj)
{
	struct prof_stream *s = obj;
	yaml_node_t *pn = yamlu_get(y, map, "ports");
	size_t i;

	if (s->has_port && s->n_ports)
		return yamlu_errf(y, pn, "stream '%s': give either 'port' or 'ports', not both",
				  s->name);
	if (s->has_port) {
		s->tx_mask = 1u << s->port;
	} else if (s->n_ports) {
		for (i = 0; i < s->n_ports; i++) {
			if (s->tx_mask & (1u << s->ports[i]))
				return yamlu_errf(y, yamlu_item(y, pn, i),
						  "stream '%s': port %u is listed twice", s->name,
						  s->ports[i]);
			s->tx_mask |= 1u << s->ports[i];
		}
	} else {
		return yamlu_errf(y, map, "stream '%s': missing key 'port' (or 'ports')", s->name);
	}
	if (!s->frame && !s->imix && !s->frames.mode)
		return yamlu_errf(y, map, "stream '%s': missing key 'frame'", s->name);
	if (s->src_v6 != s->dst_v6)
		return yamlu_errf(y, yamlu_get(y, map, "dst"),
				  "stream '%s': src is %s but dst is %s (a stream is IPv4 or IPv6)",
				  s->name, s->src_v6 ? "IPv6" : "IPv4",
				  s->dst_v6 ? "IPv6" : "IPv4");
	s->v6 = s->src_v6;
	if (!s->imix &&
	    (s->frames.mode ? s->frames.lo : s->frame) < FG_PROF_FRAME_MIN_OF(s->proto, s->v6))
		return yamlu_errf(
		    y, yamlu_get(y, map, "frame"),
		    "stream '%s': a%s frame of %u bytes cannot carry the "
		    "signature: the smallest is %u (Ethernet 14, %s, %s, "
		    "signature 18, FCS 4)",
		    s->name, s->v6 ? "n IPv6" : "", s->frames.mode ? s->frames.lo : s->frame,
		    FG_PROF_FRAME_MIN_OF(s->proto, s->v6), s->v6 ? "IPv6 40" : "IPv4 20",
		    s->proto == PROF_L4_TCP    ? "TCP 20"
		    : s->proto == PROF_L4_ICMP ? "ICMP 8"
					       : "UDP 8");
	return stream_check_l4(y, map, s);
}

static const struct yamlu_field stream_fields[] = {
    {.key = "name",
     .type = YAMLU_STRING,
     .off = offsetof(struct prof_stream, name),
     .max = 64,
     .flags = YAMLU_F_REQUIRED,
     .help = "shown in statistics"},
    {.key = "port",
     .type = YAMLU_UINT32,
     .off = offsetof(struct prof_stream, port),
     .min = 0,
     .max = FG_MAX_PORTS - 1,
     .has = YAMLU_HAS(struct prof_stream, has_port),
     .help = "send from this port to its pair"},
    {.key = "ports",
     .type = YAMLU_LIST,
     .elem = YAMLU_UINT32,
     .off = offsetof(struct prof_stream, ports),
     .cnt_off = offsetof(struct prof_stream, n_ports),
     .min = 0,
     .max = FG_MAX_PORTS - 1,
     .min_n = 1,
     .max_n = FG_MAX_PORTS,
     .help = "send from each of these ports"},
    {.key = "frame",
     .type = YAMLU_CUSTOM,
     .off = 0,
     .parse = parse_frame,
     .help = "L2 size incl. FCS (64..9000), imix, or {range, mode, step}"},
    {.key = "count",
     .type = YAMLU_UINT32,
     .off = offsetof(struct prof_stream, count),
     .min = 1,
     .max = UINT32_MAX,
     .help = "frames from each port, then the stream stops"},
    {.key = "rate",
     .type = YAMLU_CUSTOM,
     .off = offsetof(struct prof_stream, rate),
     .parse = parse_rate,
     .flags = YAMLU_F_REQUIRED,
     .help = "pps, bps or % of line rate"},
    {.key = "src",
     .type = YAMLU_CUSTOM,
     .off = 0,
     .parse = parse_addr,
     .flags = YAMLU_F_REQUIRED,
     .help = "source address(es), IPv4 or IPv6"},
    {.key = "dst",
     .type = YAMLU_CUSTOM,
     .off = 0,
     .parse = parse_addr,
     .flags = YAMLU_F_REQUIRED,
     .help = "destination address(es)"},
    {.key = "sport",
     .type = YAMLU_CUSTOM,
     .off = offsetof(struct prof_stream, sport),
     .parse = parse_port,
     .help = "UDP source port(s)"},
    {.key = "dport",
     .type = YAMLU_CUSTOM,
     .off = offsetof(struct prof_stream, dport),
     .parse = parse_port,
     .help = "UDP destination port(s)"},
    {.key = "latency",
     .type = YAMLU_BOOL,
     .off = offsetof(struct prof_stream, latency),
     .help = "stamp frames for latency"},
    {.key = "proto",
     .type = YAMLU_ENUM,
     .off = offsetof(struct prof_stream, proto),
     .names = l4_names,
     .min = PROF_L4_UDP,
     .max = PROF_L4_ICMP,
     .help = "udp (default), tcp or icmp (ICMPv6 on IPv6)"},
    {.key = "tcp",
     .type = YAMLU_MAP,
     .off = offsetof(struct prof_stream, tcp),
     .sub = &tcp_schema,
     .help = "proto tcp: flags, seq, ack, window"},
    {.key = "icmp",
     .type = YAMLU_MAP,
     .off = offsetof(struct prof_stream, icmp),
     .sub = &icmp_schema,
     .help = "proto icmp: type, code, id, seq"},
    {0},
};
const struct yamlu_schema prof_stream_schema = {"a stream", stream_fields, stream_init,
						stream_check};

static const struct yamlu_field imix_fields[] = {
    {.key = "size",
     .type = YAMLU_UINT32,
     .off = offsetof(struct units_imix_entry, size),
     .min = FG_PROF_FRAME_MIN,
     .max = FG_PROF_FRAME_MAX,
     .flags = YAMLU_F_REQUIRED},
    {.key = "weight",
     .type = YAMLU_UINT32,
     .off = offsetof(struct units_imix_entry, weight),
     .min = 1,
     .max = 1000000,
     .flags = YAMLU_F_REQUIRED},
    {0},
};
const struct yamlu_schema prof_imix_schema = {"an imix entry", imix_fields};

/* `range: [first, last]` of a hosts entry: IPv4, or IPv6 within one /96. */
static int parse_host_range(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n,
			    void *dst)
{
	struct prof_host *h = dst;
	struct addr_map m = {0};
	char b1[ADDR6_STRLEN], b2[ADDR6_STRLEN];
	int rc = parse_addr_range(y, f, n, &m);

	if (rc)
		return rc;
	if (m.lo.v6 != m.hi.v6)
		return yamlu_errf(y, n, "'%s': a range is IPv4 or IPv6, not both", f->key);
	h->v6 = m.lo.v6;
	if (!h->v6) {
		h->lo = m.lo.v4;
		h->hi = m.hi.v4;
	} else {
		if (memcmp(m.lo.a6, m.hi.a6, 12) != 0)
			return yamlu_errf(y, n,
					  "'%s': %s and %s are not in one /96 (an IPv6 range "
					  "varies only the last 32 bits)",
					  f->key, addr6_str(m.lo.a6, b1), addr6_str(m.hi.a6, b2));
		h->lo = addr6_low32(m.lo.a6);
		h->hi = addr6_low32(m.hi.a6);
		if (h->lo > h->hi)
			return yamlu_errf(y, n, "'%s' is empty: %s is above %s", f->key,
					  addr6_str(m.lo.a6, b1), addr6_str(m.hi.a6, b2));
		memcpy(h->a6, m.lo.a6, 16);
	}
	if ((uint64_t)h->hi - h->lo + 1 > FG_CFG_HOSTS_MAX_PER_RANGE)
		return yamlu_errf(y, n, "'%s' has %llu addresses, more than %u", f->key,
				  (unsigned long long)h->hi - h->lo + 1,
				  FG_CFG_HOSTS_MAX_PER_RANGE);
	return 0;
}

static const struct yamlu_field host_fields[] = {
    {.key = "port",
     .type = YAMLU_UINT32,
     .off = offsetof(struct prof_host, port),
     .min = 0,
     .max = FG_MAX_PORTS - 1,
     .flags = YAMLU_F_REQUIRED,
     .help = "port answering for the range"},
    {.key = "range",
     .type = YAMLU_CUSTOM,
     .off = 0,
     .parse = parse_host_range,
     .flags = YAMLU_F_REQUIRED,
     .help = "[first, last] address, IPv4 or IPv6"},
    {0},
};
/* The platform config's `hosts` (cfg_host_schema) with IPv6 ranges too. */
const struct yamlu_schema prof_host_schema = {"a hosts entry", host_fields};

int prof_streams_check_imix(struct yamlu_ctx *y, yaml_node_t *map, const struct prof *p)
{
	for (size_t i = 0; i < p->n_streams; i++) {
		const struct prof_stream *s = &p->streams[i];

		for (size_t k = 0; s->imix && k < p->n_imix; k++)
			if (p->imix[k].size < FG_PROF_FRAME_MIN_OF(s->proto, s->v6))
				return yamlu_errf(
				    y,
				    yamlu_get(y, yamlu_item(y, yamlu_get(y, map, "streams"), i),
					      "frame"),
				    "stream '%s': the imix table has %u-byte frames, but its "
				    "frames carry the signature from %u bytes on",
				    s->name, p->imix[k].size,
				    FG_PROF_FRAME_MIN_OF(s->proto, s->v6));
	}
	return 0;
}
