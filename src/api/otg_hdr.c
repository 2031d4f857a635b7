/*
 * otg_hdr.c — the packet headers of an OTG flow (`flows[i].packet`)
 * translated onto a stream of the streams engine: ethernet, an optional
 * vlan (the port's own 802.1Q tag), ipv4 or ipv6, then udp, tcp, icmp
 * (after ipv4) or icmpv6 (after ipv6) echo. The fields the engine varies
 * (addresses, ports, ICMP's echo identifier and sequence number) become
 * prof_fields; TCP's sequence and acknowledgment numbers, control bits
 * and window, and ICMP's type and code, one value each; every other
 * field must ask for what flowgen sends (TTL 64, no options, a 20-byte
 * TCP header, good checksums ...), or the request fails naming the
 * field.
 * Pure: no DPDK, no globals (otg_int.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "otg_int.h"

#define P_ALL4                                                                                     \
	(OTG_CH(OTG_CH_VALUE) | OTG_CH(OTG_CH_VALUES) | OTG_CH(OTG_CH_INC) | OTG_CH(OTG_CH_DEC))
#define P_AUTO (P_ALL4 | OTG_CH(OTG_CH_AUTO))
#define P_RAND (P_ALL4 | OTG_CH(OTG_CH_RANDOM))
#define P_CKSUM (OTG_CH(OTG_CH_GENERATED) | OTG_CH(OTG_CH_CUSTOM))

#define UINT_SPEC(mx, ch, d)                                                                       \
	{                                                                                          \
		.kind = OTG_PAT_UINT, .max = (mx), .choices = (ch), .def = (d)                     \
	}

static const struct otg_pat_spec spec_mac = {OTG_PAT_MAC, 0, P_ALL4, OTG_CH_VALUE};
static const struct otg_pat_spec spec_mac_auto = {OTG_PAT_MAC, 0, P_AUTO, OTG_CH_AUTO};
static const struct otg_pat_spec spec_ip4 = {OTG_PAT_IPV4, 0, P_AUTO | OTG_CH(OTG_CH_RANDOM),
					     OTG_CH_VALUE};
static const struct otg_pat_spec spec_ip6 = {OTG_PAT_IPV6, 0, P_AUTO, OTG_CH_VALUE};
static const struct otg_pat_spec spec_l4port = UINT_SPEC(65535, P_RAND, OTG_CH_VALUE);
static const struct otg_pat_spec spec_cksum = {OTG_PAT_UINT, 65535, P_CKSUM, OTG_CH_GENERATED};

/* A field the engine sends as one value: what the model may ask of it and
 * what flowgen puts there (want); `auto` and the model's default pass. */
struct fixed_field {
	const char *key;
	struct otg_pat_spec spec;
	uint64_t def;  /* the model's default */
	uint64_t want; /* what flowgen sends */
	const char *what;
};

static const struct fixed_field eth_fixed[] = {
    {"pfc_queue", UINT_SPEC(7, P_ALL4, OTG_CH_VALUE), 0, 0, "no PFC queue"},
    {NULL},
};
static const struct fixed_field vlan_fixed[] = {
    {"priority", UINT_SPEC(7, P_ALL4, OTG_CH_VALUE), 0, 0, "priority 0"},
    {"cfi", UINT_SPEC(1, P_ALL4, OTG_CH_VALUE), 0, 0, "CFI 0"},
    {"tpid", UINT_SPEC(65535, P_AUTO, OTG_CH_AUTO), 0x8100, 0x8100, "TPID 0x8100"},
    {NULL},
};
static const struct fixed_field ip4_fixed[] = {
    {"version", UINT_SPEC(15, P_ALL4, OTG_CH_VALUE), 4, 4, "version 4"},
    {"header_length", UINT_SPEC(15, P_AUTO, OTG_CH_AUTO), 5, 5, "a 20-byte header"},
    {"total_length", UINT_SPEC(65535, P_AUTO, OTG_CH_AUTO), 0, 0, "the length of the frame"},
    {"identification", UINT_SPEC(65535, P_ALL4, OTG_CH_VALUE), 0, 0, "identification 0"},
    {"reserved", UINT_SPEC(1, P_ALL4, OTG_CH_VALUE), 0, 0, "reserved 0"},
    {"more_fragments", UINT_SPEC(1, P_ALL4, OTG_CH_VALUE), 0, 0, "unfragmented frames"},
    {"fragment_offset", UINT_SPEC(31, P_ALL4, OTG_CH_VALUE), 0, 0, "unfragmented frames"},
    {"time_to_live", UINT_SPEC(255, P_ALL4, OTG_CH_VALUE), 64, 64, "TTL 64"},
    {NULL},
};
static const struct fixed_field ip6_fixed[] = {
    {"version", UINT_SPEC(15, P_ALL4, OTG_CH_VALUE), 6, 6, "version 6"},
    {"traffic_class", UINT_SPEC(255, P_ALL4, OTG_CH_VALUE), 0, 0, "traffic class 0"},
    {"flow_label", UINT_SPEC(0xfffff, P_RAND, OTG_CH_VALUE), 0, 0, "flow label 0"},
    {"payload_length", UINT_SPEC(65535, P_AUTO, OTG_CH_AUTO), 0, 0, "the length of the frame"},
    {"hop_limit", UINT_SPEC(255, P_ALL4, OTG_CH_VALUE), 64, 64, "hop limit 64"},
    {NULL},
};
static const struct fixed_field udp_fixed[] = {
    {"length", UINT_SPEC(65535, P_AUTO, OTG_CH_AUTO), 0, 0, "the length of the frame"},
    {NULL},
};

static const struct fixed_field tcp_fixed[] = {
    {"data_offset", UINT_SPEC(15, P_ALL4, OTG_CH_VALUE), 0, 5, "a 20-byte header (5)"},
    {"ecn_ns", UINT_SPEC(1, P_ALL4, OTG_CH_VALUE), 0, 0, "NS 0"},
    {NULL},
};

/* The random fields of a profile share one seed: the first one given. */
static void otg_hdr_seed(struct otg_hdr_ctx *c, const char *path, const char *key, uint32_t seed)
{
	if (!c->pl->has_seed) {
		c->pl->seed = seed;
		c->pl->has_seed = true;
	} else if (c->pl->seed != seed) {
		otg_plan_warn(c->pl,
			      "%s.%s.random.seed: ignored: every random field of a run "
			      "draws from one seed (%u)",
			      path, key, c->pl->seed);
	}
}

/* A fixed field: auto, or one value equal to what flowgen sends. */
static int fixed_one(struct otg_err *e, const char *path, const json_t *h,
		     const struct fixed_field *f)
{
	struct otg_pat p;

	if (otg_pattern(e, path, h, f->key, &f->spec, f->def, NULL, &p))
		return -EINVAL;
	if (p.choice == OTG_CH_AUTO || !p.given)
		return 0;
	/* the model's default stands for what flowgen sends (a TCP data
	 * offset of 0 is "computed") */
	if (p.f.mode != PROF_VAR_FIXED || (p.value != f->want && p.value != f->def))
		return otg_fail(e, path, "%s: not supported: flowgen sends %s", f->key, f->what);
	return 0;
}

static int fixed_all(struct otg_err *e, const char *path, const json_t *h,
		     const struct fixed_field *t)
{
	for (; t->key; t++)
		if (fixed_one(e, path, h, t))
			return -EINVAL;
	return 0;
}

static int cksum_good(struct otg_err *e, const char *path, const json_t *h, const char *key)
{
	struct otg_pat p;

	if (otg_pattern(e, path, h, key, &spec_cksum, 0, NULL, &p))
		return -EINVAL;
	if (p.bad_cksum)
		return otg_fail(e, path, "%s: not supported: flowgen sends good checksums only",
				key);
	return 0;
}

static int hdr_ethernet(struct otg_hdr_ctx *c, const char *path, const json_t *h)
{
	static const char *const keys[] = {"dst", "src", "ether_type", "pfc_queue", NULL};
	static const struct otg_pat_spec et = UINT_SPEC(65535, P_AUTO, OTG_CH_AUTO);
	struct otg_pat p;

	if (otg_keys(c->e, path, h, keys) || fixed_all(c->e, path, h, eth_fixed))
		return -EINVAL;
	if (otg_pattern(c->e, path, h, "dst", &spec_mac_auto, 0, NULL, &p))
		return -EINVAL;
	if (p.choice != OTG_CH_AUTO && p.f.mode != PROF_VAR_FIXED)
		return otg_fail(c->e, path, "dst: not supported: one destination MAC per port");
	if (p.choice != OTG_CH_AUTO)
		otg_plan_warn(c->pl,
			      "%s.dst: ignored: frames go to the port's next hop (arp, or "
			      "dest_mac in the config)",
			      path);
	if (otg_pattern(c->e, path, h, "src", &spec_mac, 0, NULL, &p))
		return -EINVAL;
	if (p.given && p.f.mode != PROF_VAR_FIXED)
		return otg_fail(c->e, path, "src: not supported: frames carry the port's MAC");
	if (p.given)
		otg_plan_warn(c->pl, "%s.src: ignored: frames carry the port's MAC", path);
	if (otg_pattern(c->e, path, h, "ether_type", &et, 0xffff, NULL, &p))
		return -EINVAL;
	if (p.choice != OTG_CH_AUTO &&
	    (p.f.mode != PROF_VAR_FIXED ||
	     (p.value != 0x0800 && p.value != 0x86dd && p.value != 0x8100)))
		return otg_fail(c->e, path,
				"ether_type: not supported: flowgen sets it from the "
				"next header");
	return 0;
}

static int hdr_vlan(struct otg_hdr_ctx *c, const char *path, const json_t *h)
{
	static const char *const keys[] = {"priority", "cfi", "id", "tpid", NULL};
	static const struct otg_pat_spec id = UINT_SPEC(4095, P_ALL4, OTG_CH_VALUE);
	int tag = c->env->vlan[c->fl->tx];
	struct otg_pat p;

	if (otg_keys(c->e, path, h, keys) || fixed_all(c->e, path, h, vlan_fixed) ||
	    otg_pattern(c->e, path, h, "id", &id, 0, NULL, &p))
		return -EINVAL;
	if (!tag)
		return otg_fail(c->e, path,
				"not supported: port %d sends untagged frames (a "
				"port's 802.1Q tag is its `vlan` in the platform config)",
				c->fl->tx);
	if (p.f.mode != PROF_VAR_FIXED || p.value != (uint64_t)tag)
		return otg_fail(c->e, path,
				"id: not supported: port %d tags every frame with "
				"%d (its `vlan` in the platform config)",
				c->fl->tx, tag);
	c->vlan = true;
	return 0;
}

/* An address pattern of the stream: the engine's src or dst. */
static int hdr_addr(struct otg_hdr_ctx *c, const char *path, const json_t *h, const char *key,
		    bool v6, struct prof_field *f, uint8_t *a6)
{
	static const uint8_t zero6[16];
	struct otg_pat p;

	if (otg_pattern(c->e, path, h, key, v6 ? &spec_ip6 : &spec_ip4, 0, zero6, &p))
		return -EINVAL;
	if (p.choice == OTG_CH_AUTO)
		return otg_fail(c->e, path, "%s.auto: not supported: it needs emulated devices",
				key);
	if (p.has_seed)
		otg_hdr_seed(c, path, key, p.seed);
	*f = p.f;
	if (v6)
		memcpy(a6, p.a6, 16);
	else if (p.f.mode == PROF_VAR_INC || p.f.mode == PROF_VAR_DEC)
		for (uint32_t a = p.f.lo;; a++) {
			if ((a & 0xff) == 0 || (a & 0xff) == 0xff) {
				otg_plan_warn(c->pl,
					      "%s.%s: flowgen skips addresses ending in .0 "
					      "and .255 in a range",
					      path, key);
				break;
			}
			if (a == p.f.hi)
				break;
		}
	return 0;
}

static int ip4_priority(struct otg_hdr_ctx *c, const char *path, const json_t *h)
{
	static const char *const names[] = {"", "raw", "tos", "dscp", NULL};
	static const char *const keys[] = {"choice", "raw", "tos", "dscp", NULL};
	static const char *const sub[] = {"phb",      "ecn",	    "precedence",
					  "delay",    "throughput", "reliability",
					  "monetary", "unused",	    NULL};
	static const struct otg_pat_spec any = UINT_SPEC(255, P_ALL4, OTG_CH_VALUE);
	char fp[320];
	int bad, ch;
	const json_t *o = otg_get(c->e, path, h, "priority", JSON_OBJECT, &bad), *m;
	struct otg_pat p;

	if (bad || !o)
		return bad;
	otg_pathf(fp, sizeof(fp), "%s.priority", path);
	if (otg_keys(c->e, fp, o, keys) || otg_choice(c->e, fp, o, names, 3, &ch))
		return -EINVAL;
	if (ch == 1) {
		if (otg_pattern(c->e, fp, o, "raw", &any, 0, NULL, &p))
			return -EINVAL;
		if (p.f.mode != PROF_VAR_FIXED || p.value)
			return otg_fail(c->e, fp, "raw: not supported: flowgen sends TOS 0");
		return 0;
	}
	m = otg_get(c->e, fp, o, names[ch], JSON_OBJECT, &bad);
	if (bad || !m)
		return bad;
	otg_pathf(fp, sizeof(fp), "%s.priority.%s", path, names[ch]);
	if (otg_keys(c->e, fp, m, sub))
		return -EINVAL;
	for (int i = 0; sub[i]; i++) {
		if (otg_pattern(c->e, fp, m, sub[i], &any, 0, NULL, &p))
			return -EINVAL;
		if (p.f.mode != PROF_VAR_FIXED || p.value)
			return otg_fail(c->e, fp, "%s: not supported: flowgen sends TOS 0", sub[i]);
	}
	return 0;
}

/* ipv4.protocol or ipv6.next_header: auto, or the number of the header
 * that follows (checked in otg_hdr_packet). */
static int hdr_ipproto(struct otg_hdr_ctx *c, const char *path, const json_t *h, const char *key)
{
	static const struct otg_pat_spec spec = UINT_SPEC(255, P_AUTO, OTG_CH_AUTO);
	struct otg_pat p;

	c->ipproto = -1;
	if (otg_pattern(c->e, path, h, key, &spec, 0, NULL, &p))
		return -EINVAL;
	if (p.choice == OTG_CH_AUTO || !p.given)
		return 0;
	if (p.f.mode != PROF_VAR_FIXED)
		return otg_fail(c->e, path,
				"%s: not supported: flowgen sets it from the header "
				"that follows",
				key);
	c->ipproto = (int)p.value;
	otg_pathf(c->ipproto_path, sizeof(c->ipproto_path), "%s.%s", path, key);
	return 0;
}

static int hdr_ipv4(struct otg_hdr_ctx *c, const char *path, const json_t *h)
{
	static const char *const keys[] = {"version",
					   "header_length",
					   "priority",
					   "total_length",
					   "identification",
					   "reserved",
					   "dont_fragment",
					   "more_fragments",
					   "fragment_offset",
					   "time_to_live",
					   "protocol",
					   "header_checksum",
					   "src",
					   "dst",
					   "options",
					   NULL};
	static const struct otg_pat_spec df = UINT_SPEC(1, P_ALL4, OTG_CH_VALUE);
	struct otg_pat p;
	int bad;
	const json_t *opt;

	if (otg_keys(c->e, path, h, keys) || fixed_all(c->e, path, h, ip4_fixed) ||
	    ip4_priority(c, path, h) || cksum_good(c->e, path, h, "header_checksum") ||
	    hdr_ipproto(c, path, h, "protocol") ||
	    otg_pattern(c->e, path, h, "dont_fragment", &df, 0, NULL, &p))
		return -EINVAL;
	if (p.f.mode != PROF_VAR_FIXED)
		return otg_fail(c->e, path, "dont_fragment: not supported: flowgen sets DF");
	if (p.given && !p.value)
		otg_plan_warn(c->pl, "%s.dont_fragment: flowgen sets DF", path);
	opt = otg_get(c->e, path, h, "options", JSON_ARRAY, &bad);
	if (bad)
		return bad;
	if (json_array_size(opt))
		return otg_fail(c->e, path,
				"options: not supported: flowgen sends no IPv4 options");
	c->fl->v6 = false;
	return hdr_addr(c, path, h, "src", false, &c->fl->src, NULL) ||
		       hdr_addr(c, path, h, "dst", false, &c->fl->dst, NULL)
		   ? -EINVAL
		   : 0;
}

static int hdr_ipv6(struct otg_hdr_ctx *c, const char *path, const json_t *h)
{
	static const char *const keys[] = {
	    "version",	 "traffic_class", "flow_label", "payload_length", "next_header",
	    "hop_limit", "src",		  "dst",	"dst_usids",	  NULL};

	if (otg_keys(c->e, path, h, keys) || fixed_all(c->e, path, h, ip6_fixed) ||
	    hdr_ipproto(c, path, h, "next_header"))
		return -EINVAL;
	if (json_object_get(h, "dst_usids"))
		return otg_fail(c->e, path, "dst_usids: not supported");
	c->fl->v6 = true;
	return hdr_addr(c, path, h, "src", true, &c->fl->src, c->fl->src6) ||
		       hdr_addr(c, path, h, "dst", true, &c->fl->dst, c->fl->dst6)
		   ? -EINVAL
		   : 0;
}

static int hdr_port(struct otg_hdr_ctx *c, const char *path, const json_t *h, const char *key,
		    struct prof_field *f)
{
	struct otg_pat p;

	if (otg_pattern(c->e, path, h, key, &spec_l4port, 0, NULL, &p))
		return -EINVAL;
	if (p.has_seed)
		otg_hdr_seed(c, path, key, p.seed);
	*f = p.f;
	return 0;
}

static int hdr_udp(struct otg_hdr_ctx *c, const char *path, const json_t *h)
{
	static const char *const keys[] = {"src_port", "dst_port", "length", "checksum", NULL};

	if (otg_keys(c->e, path, h, keys) || fixed_all(c->e, path, h, udp_fixed) ||
	    cksum_good(c->e, path, h, "checksum"))
		return -EINVAL;
	c->fl->proto = PROF_L4_UDP;
	return hdr_port(c, path, h, "src_port", &c->fl->sport) ||
		       hdr_port(c, path, h, "dst_port", &c->fl->dport)
		   ? -EINVAL
		   : 0;
}

/* A field the engine sends as one value of the request's choosing. */
static int one_value(struct otg_err *e, const char *path, const json_t *h, const char *key,
		     uint64_t max, uint64_t def, uint64_t *out)
{
	const struct otg_pat_spec spec = UINT_SPEC(max, P_ALL4, OTG_CH_VALUE);
	struct otg_pat p;

	if (otg_pattern(e, path, h, key, &spec, def, NULL, &p))
		return -EINVAL;
	if (p.f.mode != PROF_VAR_FIXED)
		return otg_fail(e, path, "%s: not supported: flowgen sends one value", key);
	*out = p.value;
	return 0;
}

/* tcp: the ports vary; the control bits (RFC 9293 §3.1, RFC 3168 §23.2
 * for ECE and CWR) and numbers are one value each. */
static int hdr_tcp(struct otg_hdr_ctx *c, const char *path, const json_t *h)
{
	static const char *const keys[] = {
	    "src_port", "dst_port", "seq_num", "ack_num",  "data_offset", "ecn_ns",
	    "ecn_cwr",	"ecn_echo", "ctl_urg", "ctl_ack",  "ctl_psh",	  "ctl_rst",
	    "ctl_syn",	"ctl_fin",  "window",  "checksum", NULL};
	/* the control bits, FIN first: bit i of the header's flags byte */
	static const char *const bits[] = {"ctl_fin", "ctl_syn", "ctl_rst",  "ctl_psh",
					   "ctl_ack", "ctl_urg", "ecn_echo", "ecn_cwr"};
	struct otg_flow *fl = c->fl;
	uint64_t v = 0;

	if (otg_keys(c->e, path, h, keys) || fixed_all(c->e, path, h, tcp_fixed) ||
	    cksum_good(c->e, path, h, "checksum") || hdr_port(c, path, h, "src_port", &fl->sport) ||
	    hdr_port(c, path, h, "dst_port", &fl->dport))
		return -EINVAL;
	fl->tcp_flags = 0;
	for (int i = 0; i < 8; i++) {
		if (one_value(c->e, path, h, bits[i], 1, 0, &v))
			return -EINVAL;
		fl->tcp_flags |= (uint8_t)(v << i);
	}
	if (one_value(c->e, path, h, "seq_num", UINT32_MAX, 0, &v))
		return -EINVAL;
	fl->tcp_seq = (uint32_t)v;
	if (one_value(c->e, path, h, "ack_num", UINT32_MAX, 0, &v))
		return -EINVAL;
	fl->tcp_ack = (uint32_t)v;
	if (one_value(c->e, path, h, "window", 65535, 0, &v))
		return -EINVAL;
	fl->tcp_win = (uint16_t)v;
	fl->proto = PROF_L4_TCP;
	return 0;
}

/*
 * icmp / icmpv6: the echo choice (RFC 792, RFC 4443 §4.1), a request or
 * a reply; the identifier and sequence number vary as ports do (the
 * stream's sport and dport), without random (the model has none).
 */
static int hdr_icmp(struct otg_hdr_ctx *c, const char *path, const json_t *h, bool v6)
{
	static const char *const names[] = {"", "echo", NULL};
	static const char *const keys[] = {"choice", "echo", NULL};
	static const char *const ekeys[] = {"type",	"code", "identifier", "sequence_number",
					    "checksum", NULL};
	static const struct otg_pat_spec word = UINT_SPEC(65535, P_ALL4, OTG_CH_VALUE);
	unsigned req = v6 ? 128 : 8, rep = v6 ? 129 : 0;
	struct otg_flow *fl = c->fl;
	struct otg_pat p = {0};
	char fp[320];
	int ch, bad;
	uint64_t v = 0;
	const json_t *e;

	if (otg_keys(c->e, path, h, keys) || otg_choice(c->e, path, h, names, 1, &ch))
		return -EINVAL;
	e = otg_get(c->e, path, h, "echo", JSON_OBJECT, &bad);
	if (bad)
		return bad;
	otg_pathf(fp, sizeof(fp), "%s.echo", path);
	if (!e)
		e = json_object();
	else
		json_incref((json_t *)e);
	bad = otg_keys(c->e, fp, e, ekeys) || cksum_good(c->e, fp, e, "checksum") ||
	      one_value(c->e, fp, e, "type", 255, req, &v);
	if (!bad && v != req && v != rep)
		bad = otg_fail(c->e, fp,
			       "type: not supported: flowgen sends echo requests (%u) "
			       "and replies (%u)",
			       req, rep);
	fl->icmp_type = (uint8_t)v;
	if (!bad)
		bad = one_value(c->e, fp, e, "code", 255, 0, &v);
	fl->icmp_code = (uint8_t)v;
	if (!bad)
		bad = otg_pattern(c->e, fp, e, "identifier", &word, 0, NULL, &p);
	fl->sport = p.f;
	if (!bad)
		bad = otg_pattern(c->e, fp, e, "sequence_number", &word, 0, NULL, &p);
	fl->dport = p.f;
	json_decref((json_t *)e);
	fl->proto = PROF_L4_ICMP;
	return bad ? -EINVAL : 0;
}

/* The header kinds of the model, by `choice`. */
enum hdr_kind {
	H_ETHERNET = 1,
	H_VLAN,
	H_IPV4,
	H_IPV6,
	H_UDP,
	H_TCP,
	H_ICMP,
	H_ICMPV6,
	H_OTHER, /* every other header of the model: refused */
};

static const char *const hdr_names[] = {"",
					"ethernet",
					"vlan",
					"ipv4",
					"ipv6",
					"udp",
					"tcp",
					"icmp",
					"icmpv6",
					"arp",
					"cfm",
					"custom",
					"ethernetpause",
					"gre",
					"gtpv1",
					"gtpv2",
					"igmpv1",
					"ipv6_extension_header",
					"lacp",
					"macsec",
					"mpls",
					"pfcpause",
					"ppp",
					"rsvp",
					"snmpv2c",
					"vxlan",
					NULL};

static const char *const hdr_keys[] = {
    "choice",	     "ethernet", "vlan",   "ipv4",     "ipv6",	 "udp",
    "tcp",	     "icmp",	 "icmpv6", "arp",      "cfm",	 "custom",
    "ethernetpause", "gre",	 "gtpv1",  "gtpv2",    "igmpv1", "ipv6_extension_header",
    "lacp",	     "macsec",	 "mpls",   "pfcpause", "ppp",	 "rsvp",
    "snmpv2c",	     "vxlan",	 NULL};

/* What may come after a header of kind k: a bit per kind. */
static unsigned hdr_next(int k)
{
	switch (k) {
	case 0:
		return 1u << H_ETHERNET;
	case H_ETHERNET:
		return 1u << H_VLAN | 1u << H_IPV4 | 1u << H_IPV6;
	case H_VLAN:
		return 1u << H_IPV4 | 1u << H_IPV6;
	case H_IPV4:
		return 1u << H_UDP | 1u << H_TCP | 1u << H_ICMP;
	case H_IPV6:
		return 1u << H_UDP | 1u << H_TCP | 1u << H_ICMPV6;
	default:
		return 0;
	}
}

static int hdr_one(struct otg_hdr_ctx *c, const char *path, const json_t *h, int k)
{
	int bad;
	const json_t *body;
	char fp[320];

	otg_pathf(fp, sizeof(fp), "%s.%s", path, hdr_names[k]);
	body = otg_get(c->e, path, h, hdr_names[k], JSON_OBJECT, &bad);
	if (bad)
		return bad;
	if (!body)
		body = json_object(); /* every field at its default */
	else
		json_incref((json_t *)body);
	switch (k) {
	case H_ETHERNET:
		bad = hdr_ethernet(c, fp, body);
		break;
	case H_VLAN:
		bad = hdr_vlan(c, fp, body);
		break;
	case H_IPV4:
		bad = hdr_ipv4(c, fp, body);
		break;
	case H_IPV6:
		bad = hdr_ipv6(c, fp, body);
		break;
	case H_UDP:
		bad = hdr_udp(c, fp, body);
		break;
	case H_TCP:
		bad = hdr_tcp(c, fp, body);
		break;
	default: /* H_ICMP, H_ICMPV6 (hdr_next lets no other through) */
		bad = hdr_icmp(c, fp, body, k == H_ICMPV6);
	}
	json_decref((json_t *)body);
	return bad;
}

/* IP protocol numbers of H_UDP, H_TCP, H_ICMP and H_ICMPV6. */
static const int l4_numbers[] = {17, 6, 1, 58};

int otg_hdr_packet(struct otg_hdr_ctx *c, const char *path, const json_t *flow)
{
	char fp[320];
	int bad, prev = 0, k;
	const json_t *pk = otg_get(c->e, path, flow, "packet", JSON_ARRAY, &bad);

	if (bad)
		return bad;
	if (!json_array_size(pk))
		return otg_fail(c->e, path,
				"packet: required (ethernet, ipv4 or ipv6, udp, tcp or icmp)");
	c->vlan = false;
	c->ipproto = -1;
	for (size_t i = 0; i < json_array_size(pk); i++) {
		const json_t *h = json_array_get(pk, i);

		otg_pathf(fp, sizeof(fp), "%s.packet[%zu]", path, i);
		if (!json_is_object(h))
			return otg_fail(c->e, fp, "must be an object");
		if (otg_keys(c->e, fp, h, hdr_keys) ||
		    otg_choice(c->e, fp, h, hdr_names, H_ETHERNET, &k))
			return -EINVAL;
		if (k >= H_OTHER)
			return otg_fail(c->e, fp, "%s: not supported", hdr_names[k]);
		if (!(hdr_next(prev) >> k & 1))
			return otg_fail(c->e, fp,
					"%s: not supported here: flowgen sends "
					"ethernet, an optional vlan, ipv4 or ipv6, then udp, "
					"tcp, icmp (IPv4) or icmpv6 (IPv6)",
					hdr_names[k]);
		if (hdr_one(c, fp, h, k))
			return -EINVAL;
		prev = k;
	}
	if (prev < H_UDP)
		return otg_fail(c->e, path,
				"packet: not supported: flowgen's streams end in udp, tcp, "
				"icmp or icmpv6 (ethernet, ipv4 or ipv6, then one of them)");
	if (c->ipproto >= 0 && c->ipproto != l4_numbers[prev - H_UDP])
		return otg_fail(c->e, c->ipproto_path,
				"not supported: %d, but the header that follows is %s (%d)",
				c->ipproto, hdr_names[prev], l4_numbers[prev - H_UDP]);
	if (!c->vlan && c->env->vlan[c->fl->tx])
		otg_plan_warn(c->pl, "%s.packet: frames carry port %d's 802.1Q tag %d", path,
			      c->fl->tx, c->env->vlan[c->fl->tx]);
	return 0;
}
