/*
 * prof.c — traffic profiles (flowgen-profile(5)) as yamlu tables.
 *
 * The tables convert and range-check every key; the custom parsers below
 * cover the shapes a table row cannot express (a program step `{send: 18}`);
 * the streams part (a stream's fields, IPv4 or IPv6, `frame: 64` or
 * `frame: imix`, a rate with units) is in prof_streams.c. The check callbacks then verify
 * what spans keys: the mode's required sections, client and server programs
 * that agree on how many bytes flow each way, unique names, port choices.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fg.h"
#include "prof.h"
#include "prof_int.h"

const char *const prof_mode_names[PROF_MODE_COUNT] = {
    [PROF_FLOWS] = "flows",
    [PROF_STREAMS] = "streams",
};
const char *const prof_dist_names[PROF_DIST_COUNT] = {
    [PROF_DIST_SEQ] = "seq",
    [PROF_DIST_RAND] = "rand",
};
const char *const prof_proto_names[PROF_PROTO_COUNT] = {
    [PROF_UDP] = "udp",
    [PROF_TCP] = "tcp",
};
const char *const prof_op_names[PROF_OP_COUNT] = {
    [PROF_OP_SEND] = "send",
    [PROF_OP_RECV] = "recv",
    [PROF_OP_DELAY] = "delay",
    [PROF_OP_UNTIL] = "until",
    [PROF_OP_UNTIL_CLOSE] = "until_close",
    [PROF_OP_CLOSE] = "close",
};
const char *const prof_var_names[PROF_VAR_COUNT] = {
    [PROF_VAR_FIXED] = "fixed",
    [PROF_VAR_INC] = "inc",
    [PROF_VAR_DEC] = "dec",
    [PROF_VAR_RAND] = "rand",
};

/* ---- programs: prof_prog.c ---- */

/* ---- flows: ip_gen and templates ---- */
/* ip_gen: prof_ipgen.c (prof_ip_gen_schema) */

static void template_init(void *obj)
{
	struct prof_template *t = obj;

	t->proto = PROF_UDP;
	t->cps = 1;
}

/* Error at the yaml node of id `node` (prof_program's), or at map. */
static yaml_node_t *node_of(struct yamlu_ctx *y, yaml_node_t *map, int node)
{
	return node ? yaml_document_get_node(&y->doc, node) : map;
}

/*
 * The bytes one way: what `from` sends, `to` receives. A receiver that
 * waits for a delimiter or the close (until, until_close) takes what comes.
 */
static int template_balance(struct yamlu_ctx *y, yaml_node_t *map, const struct prof_template *t,
			    const struct prof_program *from, const struct prof_program *to,
			    const char *fn, const char *tn)
{
	uint64_t s = prof_program_bytes(from, PROF_OP_SEND),
		 r = prof_program_bytes(to, PROF_OP_RECV);

	if (from->sent > UINT32_MAX)
		return yamlu_errf(y, map, "template '%s': the %s sends %llu bytes, at most %u",
				  t->name, fn, (unsigned long long)from->sent, UINT32_MAX);
	if (s != r && !to->until)
		return yamlu_errf(y, map,
				  "template '%s': the %s sends %llu bytes but the %s "
				  "receives %llu",
				  t->name, fn, (unsigned long long)s, tn, (unsigned long long)r);
	return 0;
}

/*
 * A template whose client is a capture (`client: {pcap: FILE}`): the
 * session's protocol and server port where the template gives none (or
 * the same), and the server's program from the same session unless it
 * has one of its own. Without a capture, port and server are required.
 */
static int template_pcap(struct yamlu_ctx *y, yaml_node_t *map, struct prof_template *t)
{
	static const char *const pname[] = {[PROF_UDP] = "UDP", [PROF_TCP] = "TCP"};
	yaml_node_t *cn = yamlu_get(y, map, "client"), *pn = yamlu_get(y, map, "proto");
	bool has_server = yamlu_get(y, map, "server") != NULL;
	uint32_t port;
	int proto, rc;

	if (!cn || cn->type != YAML_MAPPING_NODE) {
		if (!yamlu_get(y, map, "port"))
			return yamlu_errf(y, map, "a template: missing key 'port'");
		if (!has_server)
			return yamlu_errf(y, map, "a template: missing key 'server'");
		return 0;
	}
	rc = prof_program_pcap(y, cn, false, has_server ? NULL : &t->server, &proto, &port);
	if (rc)
		return rc;
	if (pn && t->proto != proto)
		return yamlu_errf(y, pn, "template '%s': proto %s, but the capture's session is %s",
				  t->name, prof_proto_names[t->proto], pname[proto]);
	t->proto = proto;
	if (!yamlu_get(y, map, "port"))
		t->port = port;
	return 0;
}

static int template_check(struct yamlu_ctx *y, yaml_node_t *map, void *obj)
{
	struct prof_template *t = obj;
	const struct prof_program *pg[2] = {&t->client, &t->server};
	size_t i;
	int rc;

	if ((rc = template_pcap(y, map, t)) != 0)
		return rc;

	if (t->group && !t->group[0])
		return yamlu_errf(y, yamlu_get(y, map, "group"),
				  "template '%s': 'group' is empty (leave it out for a group "
				  "of its own)",
				  t->name);
	rc = template_balance(y, map, t, &t->client, &t->server, "client", "server");
	if (!rc)
		rc = template_balance(y, map, t, &t->server, &t->client, "server", "client");
	if (rc)
		return rc;
	if (t->client.sent + t->server.sent == 0)
		return yamlu_errf(y, map, "template '%s' sends no data", t->name);
	if (t->proto != PROF_UDP)
		return 0;
	for (i = 0; i < 2; i++) {
		if (pg[i]->tcp_node)
			return yamlu_errf(y, node_of(y, map, pg[i]->tcp_node),
					  "template '%s': recv until, until_close and close are "
					  "for TCP templates",
					  t->name);
		if (pg[i]->max_send > FG_PROF_UDP_MAX)
			return yamlu_errf(y, node_of(y, map, pg[i]->max_send_node),
					  "a UDP datagram of %u bytes does not fit a %d-byte frame "
					  "(at most %d)",
					  pg[i]->max_send, FG_PROF_FRAME_MAX, FG_PROF_UDP_MAX);
	}
	return 0;
}

static const struct yamlu_field template_fields[] = {
    {.key = "name",
     .type = YAMLU_STRING,
     .off = offsetof(struct prof_template, name),
     .max = 64,
     .flags = YAMLU_F_REQUIRED,
     .help = "shown in statistics"},
    {.key = "group",
     .type = YAMLU_STRING,
     .off = offsetof(struct prof_template, group),
     .max = 64,
     .help = "statistics group (TRex tg_name); default: the template's name"},
    {.key = "proto",
     .type = YAMLU_ENUM,
     .off = offsetof(struct prof_template, proto),
     .names = prof_proto_names,
     .min = PROF_UDP,
     .max = PROF_TCP,
     .help = "udp | tcp"},
    {.key = "port",
     .type = YAMLU_UINT32,
     .off = offsetof(struct prof_template, port),
     .min = 1,
     .max = 65535,
     .help = "server port (required unless the client is a capture)"},
    {.key = "cps",
     .type = YAMLU_DOUBLE,
     .off = offsetof(struct prof_template, cps),
     .flags = YAMLU_F_GT0,
     .dmax = 1e9,
     .help = "connections per second before -m"},
    {.key = "limit",
     .type = YAMLU_UINT32,
     .off = offsetof(struct prof_template, limit),
     .min = 1,
     .max = UINT32_MAX,
     .help = "flows of the template in the run at most (TRex limit)"},
    {.key = "climit",
     .type = YAMLU_UINT32,
     .off = offsetof(struct prof_template, climit),
     .min = 1,
     .max = UINT32_MAX,
     .help = "concurrent flows of the template at most"},
    {.key = "client_ports",
     .type = YAMLU_U32_RANGE,
     .off = offsetof(struct prof_template, client_ports),
     .min = 1,
     .max = 65535,
     .has = YAMLU_HAS(struct prof_template, has_client_ports),
     .help = "[first, last] client source port of this template (default: ip_gen's)"},
    {.key = "client",
     .type = YAMLU_CUSTOM,
     .off = offsetof(struct prof_template, client),
     .parse = prof_parse_program,
     .release = prof_release_program,
     .flags = YAMLU_F_REQUIRED,
     .help = "client program: steps, or {pcap: FILE, keep_gaps: BOOL}"},
    {.key = "server",
     .type = YAMLU_CUSTOM,
     .off = offsetof(struct prof_template, server),
     .parse = prof_parse_program,
     .release = prof_release_program,
     .help = "server program (implied by a client capture)"},
    {0},
};
static const struct yamlu_schema template_schema = {"a template", template_fields, template_init,
						    template_check};

/* ---- the profile ---- */

/* Error at `key` in map: a section that does not belong to the mode. */
static int misplaced(struct yamlu_ctx *y, yaml_node_t *map, const char *key, int mode)
{
	yaml_node_pair_t *pr;
	yaml_node_t *k = map;

	for (pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(&y->doc, pr->key);

		if (yamlu_str(kn) && !strcmp(yamlu_str(kn), key))
			k = kn;
	}
	return yamlu_errf(y, k, "'%s' does not belong in a 'mode: %s' profile", key,
			  prof_mode_names[mode]);
}

static int unique_names(struct yamlu_ctx *y, yaml_node_t *list, const char *what, size_t n,
			const char *(*name)(const struct prof *, size_t), const struct prof *p)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(name(p, i), name(p, j)))
				return yamlu_errf(y, yamlu_item(y, list, i),
						  "duplicate %s name '%s'", what, name(p, i));
	return 0;
}

static const char *template_name(const struct prof *p, size_t i) { return p->templates[i].name; }

static const char *stream_name(const struct prof *p, size_t i) { return p->streams[i].name; }

/*
 * Templates that share a protocol and server port share the tuples of a
 * client and a server: their client ports are one range (ip_gen's for
 * both, or the same client_ports of their own) or ranges apart, or two of
 * their flows could take the same tuple (a template's own range has an
 * allocator of its own, src/control/flows_ctl.c).
 */
static int template_ports_check(struct yamlu_ctx *y, yaml_node_t *list, const struct prof *p)
{
	for (size_t i = 1; i < p->n_templates; i++) {
		const struct prof_template *a = &p->templates[i];
		struct yamlu_range ra = prof_client_ports(p, a);

		for (size_t j = 0; j < i; j++) {
			const struct prof_template *b = &p->templates[j];
			struct yamlu_range rb = prof_client_ports(p, b);

			if (a->proto != b->proto || a->port != b->port || ra.hi < rb.lo ||
			    rb.hi < ra.lo)
				continue;
			if (ra.lo == rb.lo && ra.hi == rb.hi &&
			    a->has_client_ports == b->has_client_ports)
				continue;
			return yamlu_errf(
			    y, yamlu_item(y, list, i),
			    "templates '%s' and '%s' (both %s port %u): client ports "
			    "%u-%u and %u-%u overlap; give both the same client_ports "
			    "(or neither), or ranges apart",
			    b->name, a->name, prof_proto_names[a->proto], a->port, rb.lo, rb.hi,
			    ra.lo, ra.hi);
		}
	}
	return 0;
}

static int prof_check(struct yamlu_ctx *y, yaml_node_t *map, void *obj)
{
	struct prof *p = obj;
	size_t i;
	int rc;

	if (p->mode == PROF_FLOWS) {
		if (yamlu_get(y, map, "streams"))
			return misplaced(y, map, "streams", p->mode);
		if (yamlu_get(y, map, "imix"))
			return misplaced(y, map, "imix", p->mode);
		if (!p->has_ip_gen)
			return yamlu_errf(y, map, "a 'mode: flows' profile needs 'ip_gen'");
		if (!p->n_templates)
			return yamlu_errf(y, map, "a 'mode: flows' profile needs 'templates'");
		rc = unique_names(y, yamlu_get(y, map, "templates"), "template", p->n_templates,
				  template_name, p);
		return rc ? rc : template_ports_check(y, yamlu_get(y, map, "templates"), p);
	}
	if (yamlu_get(y, map, "templates"))
		return misplaced(y, map, "templates", p->mode);
	if (yamlu_get(y, map, "ip_gen"))
		return misplaced(y, map, "ip_gen", p->mode);
	if (!p->n_streams)
		return yamlu_errf(y, map, "a 'mode: streams' profile needs 'streams'");
	if (!p->n_imix) {
		p->imix = malloc(sizeof(units_imix_default));
		if (!p->imix)
			return yamlu_errf(y, map, "out of memory");
		memcpy(p->imix, units_imix_default, sizeof(units_imix_default));
		p->n_imix = FG_ARRAY_SIZE(units_imix_default);
	}
	for (i = 0; i < p->n_streams; i++)
		if (p->streams[i].imix && p->n_imix == 0)
			return yamlu_errf(y, map, "internal error: no imix table");
	rc = prof_streams_check_imix(y, map, p);
	if (rc)
		return rc;
	return unique_names(y, yamlu_get(y, map, "streams"), "stream", p->n_streams, stream_name,
			    p);
}

static const struct yamlu_field prof_fields[] = {
    {.key = "mode",
     .type = YAMLU_ENUM,
     .off = offsetof(struct prof, mode),
     .names = prof_mode_names,
     .min = PROF_FLOWS,
     .max = PROF_STREAMS,
     .flags = YAMLU_F_REQUIRED,
     .help = "flows | streams"},
    {.key = "timeout",
     .type = YAMLU_DOUBLE,
     .off = offsetof(struct prof, timeout),
     .flags = YAMLU_F_GT0,
     .dmax = 3600,
     .help = "seconds before a flow counts as failed"},
    {.key = "seed",
     .type = YAMLU_UINT32,
     .off = offsetof(struct prof, seed),
     .min = 0,
     .max = UINT32_MAX,
     .help = "seed of every rand sequence"},
    {.key = "ip_gen",
     .type = YAMLU_MAP,
     .off = offsetof(struct prof, ip_gen),
     .sub = &prof_ip_gen_schema,
     .has = YAMLU_HAS(struct prof, has_ip_gen),
     .help = "flows: client/server addresses"},
    {.key = "templates",
     .type = YAMLU_LIST_MAP,
     .off = offsetof(struct prof, templates),
     .cnt_off = offsetof(struct prof, n_templates),
     .elem_size = sizeof(struct prof_template),
     .sub = &template_schema,
     .min_n = 1,
     .max_n = FG_PROF_MAX_TEMPLATES,
     .help = "flows: what each flow does"},
    {.key = "streams",
     .type = YAMLU_LIST_MAP,
     .off = offsetof(struct prof, streams),
     .cnt_off = offsetof(struct prof, n_streams),
     .elem_size = sizeof(struct prof_stream),
     .sub = &prof_stream_schema,
     .min_n = 1,
     .max_n = FG_PROF_MAX_STREAMS,
     .help = "streams: the stateless streams"},
    {.key = "imix",
     .type = YAMLU_LIST_MAP,
     .off = offsetof(struct prof, imix),
     .cnt_off = offsetof(struct prof, n_imix),
     .elem_size = sizeof(struct units_imix_entry),
     .sub = &prof_imix_schema,
     .min_n = 1,
     .max_n = FG_PROF_MAX_IMIX,
     .help = "streams: the imix table"},
    {.key = "hosts",
     .type = YAMLU_LIST_MAP,
     .off = offsetof(struct prof, hosts),
     .cnt_off = offsetof(struct prof, n_hosts),
     .elem_size = sizeof(struct prof_host),
     .sub = &prof_host_schema,
     .max_n = 256,
     .help = "emulated hosts per port"},
    {0},
};
static const struct yamlu_schema prof_schema = {"the profile", prof_fields, NULL, prof_check};

void prof_free(struct prof *p)
{
	size_t i;

	yamlu_free(&prof_schema, p);
	for (i = 0; i < p->n_warnings; i++)
		free(p->warnings[i]);
	free(p->warnings);
	free(p->file);
	memset(p, 0, sizeof(*p));
}

static void prof_defaults(struct prof *p)
{
	memset(p, 0, sizeof(*p));
	p->timeout = FG_PROF_TIMEOUT_DEFAULT;
	p->seed = FG_PROF_SEED_DEFAULT;
	p->ip_gen.client.dist = PROF_DIST_SEQ;
	p->ip_gen.server.dist = PROF_DIST_SEQ;
	p->ip_gen.client_ports = (struct yamlu_range){1024, 65535};
}

static int prof_walk(struct yamlu_ctx *y, struct prof *p)
{
	yaml_node_t *root = yamlu_root(y);

	if (!root)
		return yamlu_errf(y, NULL, "empty profile");
	return yamlu_walk(y, root, &prof_schema, p);
}

static int prof_finish(struct yamlu_ctx *y, int rc, const char *name, struct prof *p)
{
	if (!rc) {
		p->file = strdup(name);
		if (!p->file)
			rc = yamlu_errf(y, NULL, "out of memory");
	}
	if (rc) {
		yamlu_close(y);
		prof_free(p);
		return rc;
	}
	yamlu_take_warnings(y, &p->warnings, &p->n_warnings);
	yamlu_close(y);
	return 0;
}

int prof_load(const char *path, struct prof *p, char *err, size_t errlen)
{
	struct yamlu_ctx y;
	int rc;

	prof_defaults(p);
	rc = yamlu_load(&y, path, err, errlen);
	if (!rc)
		rc = prof_walk(&y, p);
	return prof_finish(&y, rc, path, p);
}

int prof_load_buf(const char *name, const void *buf, size_t len, struct prof *p, char *err,
		  size_t errlen)
{
	struct yamlu_ctx y;
	int rc;

	prof_defaults(p);
	rc = yamlu_load_buf(&y, name, buf, len, err, errlen);
	if (!rc)
		rc = prof_walk(&y, p);
	return prof_finish(&y, rc, name, p);
}
