/*
 * prof_prog.c — the programs of a `mode: flows` template
 * (flowgen-profile(5), "STATEFUL PROFILES"): a list of steps {send: N},
 * {send: {data|hex|file: ...}}, {recv: N}, {recv: {until: "..."}},
 * {recv: {until_close: true}}, {delay: MS}, {close: true} and
 * {repeat: {times: N, steps: [...]}}, parsed into the flat, unrolled
 * form of prof-t.h: a worker's program counter is all a flow keeps, the
 * bytes are the plan's.
 *
 * Context: control (the loader, on the console's thread).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <netinet/in.h>

#include "fg.h"
#include "prof_int.h"
#include "readf.h"
#include "prof_pcap.h"
#include "progb.h"
#include "yamlu_text.h"

/* One program being parsed. */
struct prog_parse {
	struct yamlu_ctx *y;
	const char *key; /* "client" or "server" */
	struct prof_program *pg;
	size_t cap;
	bool closed;
};

static int prog_push(struct prog_parse *pp, yaml_node_t *n, const struct prof_step *st)
{
	struct prof_program *pg = pp->pg;

	if (pg->n >= FG_PROF_MAX_PROGRAM)
		return yamlu_errf(pp->y, n, "'%s' unrolls to more than %d steps", pp->key,
				  FG_PROF_MAX_PROGRAM);
	if (pg->n == pp->cap) {
		size_t cap = pp->cap ? 2 * pp->cap : 16;
		struct prof_step *s = realloc(pg->steps, cap * sizeof(*s));

		if (!s)
			return yamlu_errf(pp->y, n, "out of memory");
		pg->steps = s;
		pp->cap = cap;
	}
	pg->steps[pg->n++] = *st;
	return 0;
}

/* Keep buf (malloc'd) with the program; freed with it. */
static int prog_own(struct prog_parse *pp, yaml_node_t *n, uint8_t *buf)
{
	struct prof_program *pg = pp->pg;
	uint8_t **o = realloc(pg->owned, (pg->n_owned + 1) * sizeof(*o));

	if (!o) {
		free(buf);
		return yamlu_errf(pp->y, n, "out of memory");
	}
	pg->owned = o;
	pg->owned[pg->n_owned++] = buf;
	return 0;
}

/* `hex: "47 45 54"`: pairs of hex digits, blanks between pairs allowed. */
static int parse_hex(struct prog_parse *pp, yaml_node_t *v, uint8_t *out, uint32_t *len)
{
	const char *s = (const char *)v->data.scalar.value;
	size_t i, n = v->data.scalar.length;
	uint32_t k = 0;

	for (i = 0; i < n;) {
		int hi, lo;

		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == ':') {
			i++;
			continue;
		}
		hi = yamlu_hexval((unsigned char)s[i]);
		lo = i + 1 < n ? yamlu_hexval((unsigned char)s[i + 1]) : -2;
		if (hi < 0 || lo == -1)
			return yamlu_errf(pp->y, v,
					  "'hex': '%c' at character %zu is not a hex digit",
					  hi < 0 ? s[i] : s[i + 1], hi < 0 ? i + 1 : i + 2);
		if (lo == -2)
			return yamlu_errf(pp->y, v, "'hex': an odd number of hex digits");
		out[k++] = (uint8_t)(hi << 4 | lo);
		i += 2;
	}
	*len = k;
	return 0;
}

/* The path of a file the profile names: relative to its directory. */
static void prof_path(const struct yamlu_ctx *y, const char *name, char *path, size_t len)
{
	const char *slash = strrchr(y->file, '/');

	if (name[0] == '/' || !slash)
		snprintf(path, len, "%s", name);
	else
		snprintf(path, len, "%.*s/%s", (int)(slash - y->file), y->file, name);
}

/* `file: req.bin`, relative to the profile's directory (messages name
 * it as written). */
static int parse_file(struct prog_parse *pp, yaml_node_t *v, uint8_t **out, uint32_t *len)
{
	const char *name = yamlu_str(v);
	char path[4096], *buf;
	size_t n;
	int rc;

	if (!name || !name[0])
		return yamlu_errf(pp->y, v, "'file' is empty");
	prof_path(pp->y, name, path, sizeof(path));
	/* a regular file only: a FIFO or a device would block or never end */
	rc = readf(path, FG_PROF_MAX_BYTES, READF_REGULAR, &buf, &n);
	if (rc == -EINVAL)
		return yamlu_errf(pp->y, v, "'file': %s: not a regular file", name);
	if (rc == -ENOMEM)
		return yamlu_errf(pp->y, v, "out of memory");
	if (rc == -EFBIG)
		return yamlu_errf(pp->y, v, "'file': %s: too large (1 to %u bytes)", name,
				  FG_PROF_MAX_BYTES);
	if (rc == 0 && n == 0) {
		free(buf);
		return yamlu_errf(pp->y, v, "'file': %s: empty (1 to %u bytes)", name,
				  FG_PROF_MAX_BYTES);
	}
	if (rc)
		return yamlu_errf(pp->y, v, "'file': %s: %s", name, strerror(-rc));
	*out = (uint8_t *)buf;
	*len = (uint32_t)n;
	return 0;
}

/* The one key of a one-pair mapping, its value in *v; NULL when m is not one. */
static const char *one_pair(struct prog_parse *pp, yaml_node_t *m, yaml_node_t **k, yaml_node_t **v)
{
	if (m->type != YAML_MAPPING_NODE ||
	    m->data.mapping.pairs.top - m->data.mapping.pairs.start != 1)
		return NULL;
	*k = yaml_document_get_node(&pp->y->doc, m->data.mapping.pairs.start[0].key);
	*v = yaml_document_get_node(&pp->y->doc, m->data.mapping.pairs.start[0].value);
	return yamlu_str(*k);
}

/* {send: {data: "..."}}, {send: {hex: "..."}}, {send: {file: F}}. */
static int parse_send_bytes(struct prog_parse *pp, yaml_node_t *m, struct prof_step *st)
{
	yaml_node_t *k, *v;
	const char *key = one_pair(pp, m, &k, &v);
	uint8_t *buf = NULL;
	uint32_t len = 0;
	int rc;

	if (!key || (strcmp(key, "data") && strcmp(key, "hex") && strcmp(key, "file")))
		return yamlu_errf(pp->y, key ? k : m,
				  "'send' takes a size or one of {data: \"...\"}, {hex: \"...\"}, "
				  "{file: F}");
	if (v->type != YAML_SCALAR_NODE)
		return yamlu_errf(pp->y, v, "'%s' must be a string", key);
	if (!strcmp(key, "file")) {
		rc = parse_file(pp, v, &buf, &len);
	} else {
		size_t n = v->data.scalar.length;

		if (n == 0)
			return yamlu_errf(pp->y, v, "'%s' is empty", key);
		if (n > (key[0] == 'h' ? 3 * (size_t)FG_PROF_MAX_BYTES : FG_PROF_MAX_BYTES))
			return yamlu_errf(pp->y, v, "'%s' holds more than %u bytes", key,
					  FG_PROF_MAX_BYTES);
		buf = malloc(n);
		if (!buf)
			return yamlu_errf(pp->y, v, "out of memory");
		if (key[0] == 'h') {
			rc = parse_hex(pp, v, buf, &len);
			if (!rc && len == 0)
				rc = yamlu_errf(pp->y, v, "'hex' is empty");
			if (!rc && len > FG_PROF_MAX_BYTES)
				rc = yamlu_errf(pp->y, v, "'hex' holds more than %u bytes",
						FG_PROF_MAX_BYTES);
		} else {
			memcpy(buf, v->data.scalar.value, n);
			len = (uint32_t)n;
			rc = 0;
		}
	}
	if (rc) {
		free(buf);
		return rc;
	}
	rc = prog_own(pp, v, buf);
	if (rc)
		return rc; /* buf is freed */
	st->data = buf;
	st->arg = len;
	return 0;
}

/* {recv: {until: "..."}} or {recv: {until_close: true}}. */
static int parse_recv_until(struct prog_parse *pp, yaml_node_t *m, struct prof_step *st)
{
	yaml_node_t *k, *v;
	const char *key = one_pair(pp, m, &k, &v);
	uint8_t *buf;
	size_t n;

	if (key && !strcmp(key, "until_close")) {
		const char *s = yamlu_str(v);

		if (!s || (strcmp(s, "true") && strcmp(s, "yes")))
			return yamlu_errf(pp->y, v, "'until_close' must be true");
		st->op = PROF_OP_UNTIL_CLOSE;
		pp->pg->until = true;
		return 0;
	}
	if (!key || strcmp(key, "until"))
		return yamlu_errf(pp->y, key ? k : m,
				  "'recv' takes a size or one of {until: \"...\"}, "
				  "{until_close: true}");
	if (v->type != YAML_SCALAR_NODE)
		return yamlu_errf(pp->y, v, "'until' must be a string");
	n = v->data.scalar.length;
	if (n == 0 || n > FG_PROF_MAX_UNTIL)
		return yamlu_errf(pp->y, v, "'until' must hold 1 to %u bytes, not %zu",
				  FG_PROF_MAX_UNTIL, n);
	buf = malloc(2 * n);
	if (!buf)
		return yamlu_errf(pp->y, v, "out of memory");
	memcpy(buf, v->data.scalar.value, n);
	progb_kmp(buf, (uint32_t)n, buf + n);
	st->op = PROF_OP_UNTIL;
	st->arg = (uint32_t)n;
	st->data = buf;
	pp->pg->until = true;
	return prog_own(pp, v, buf);
}

static int parse_steps(struct prog_parse *pp, yaml_node_t *seq, unsigned depth);

/* {repeat: {times: N, steps: [...]}}: the steps, then times - 1 copies. */
static int parse_repeat(struct prog_parse *pp, yaml_node_t *m, unsigned depth)
{
	struct yamlu_field tf = {
	    .key = "times", .type = YAMLU_UINT32, .min = 1, .max = FG_PROF_MAX_TIMES};
	yaml_node_t *times = NULL, *steps = NULL;
	yaml_node_pair_t *pr;
	uint32_t n = 0;
	size_t from, len;
	bool closed = pp->closed;
	int rc;

	if (m->type != YAML_MAPPING_NODE)
		return yamlu_errf(pp->y, m, "'repeat' must be {times: N, steps: [...]}");
	if (depth >= FG_PROF_MAX_NEST)
		return yamlu_errf(pp->y, m, "repeats nest at most %d deep", FG_PROF_MAX_NEST);
	for (pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(&pp->y->doc, pr->key);
		const char *key = yamlu_str(k);

		if (key && !strcmp(key, "times"))
			times = yaml_document_get_node(&pp->y->doc, pr->value);
		else if (key && !strcmp(key, "steps"))
			steps = yaml_document_get_node(&pp->y->doc, pr->value);
		else
			return yamlu_errf(pp->y, k, "unknown key '%s' in 'repeat' (times, steps)",
					  key ? key : "?");
	}
	if (!times)
		return yamlu_errf(pp->y, m, "'repeat' needs 'times'");
	if (!steps)
		return yamlu_errf(pp->y, m, "'repeat' needs 'steps'");
	rc = yamlu_scalar(pp->y, &tf, times, &n);
	if (rc)
		return rc;
	from = pp->pg->n;
	rc = parse_steps(pp, steps, depth + 1);
	if (rc)
		return rc;
	len = pp->pg->n - from;
	if (n > 1 && pp->closed && !closed)
		return yamlu_errf(pp->y, m, "a repeat of %u times cannot close: close after it", n);
	for (uint32_t i = 1; i < n; i++)
		for (size_t j = 0; j < len; j++) {
			struct prof_step st = pp->pg->steps[from + j];

			rc = prog_push(pp, m, &st);
			if (rc)
				return rc;
		}
	return 0;
}

/* One step of a list: its key and value, appended (unrolled) to the program. */
static int parse_step(struct prog_parse *pp, yaml_node_t *it, unsigned depth)
{
	static const char *const keys[] = {"send", "recv", "delay", "close", "repeat"};
	struct yamlu_field ef = {.type = YAMLU_UINT32, .min = 1, .max = FG_PROF_MAX_BYTES};
	struct prof_step st = {0};
	yaml_node_t *k, *v;
	const char *key = one_pair(pp, it, &k, &v);
	size_t op;
	int rc;

	if (!key && it->type != YAML_MAPPING_NODE)
		return yamlu_errf(pp->y, it,
				  "a '%s' step must be one of {send: N}, {recv: N}, {delay: MS}, "
				  "{close: true}, {repeat: {...}}",
				  pp->key);
	if (!key && it->data.mapping.pairs.top - it->data.mapping.pairs.start != 1)
		return yamlu_errf(pp->y, it,
				  "a '%s' step has one key (send, recv, delay, close "
				  "or repeat)",
				  pp->key);
	for (op = 0; op < FG_ARRAY_SIZE(keys); op++)
		if (key && !strcmp(key, keys[op]))
			break;
	if (op == FG_ARRAY_SIZE(keys))
		return yamlu_errf(pp->y, k,
				  "unknown step '%s' (send, recv, delay, close or repeat)",
				  key ? key : "?");
	if (op == 4)
		return parse_repeat(pp, v, depth);
	if (op == 3) {
		const char *s = yamlu_str(v);

		if (!s || (strcmp(s, "true") && strcmp(s, "yes")))
			return yamlu_errf(pp->y, v, "'close' must be true");
		if (pp->closed)
			return yamlu_errf(pp->y, k, "the program already closed");
		pp->closed = true;
		pp->pg->closes = true;
		st.op = PROF_OP_CLOSE;
		if (!pp->pg->tcp_node)
			pp->pg->tcp_node = (int)(k - pp->y->doc.nodes.start) + 1;
		return prog_push(pp, k, &st);
	}
	st.op = op == 0 ? PROF_OP_SEND : op == 1 ? PROF_OP_RECV : PROF_OP_DELAY;
	ef.key = key;
	if (op == 0 && pp->closed)
		return yamlu_errf(pp->y, k, "'send' after 'close'");
	if (op == 2) {
		ef.min = 0;
		ef.max = FG_PROF_MAX_DELAY_MS;
	}
	if (v->type == YAML_MAPPING_NODE && op == 0)
		rc = parse_send_bytes(pp, v, &st);
	else if (v->type == YAML_MAPPING_NODE && op == 1)
		rc = parse_recv_until(pp, v, &st);
	else
		rc = yamlu_scalar(pp->y, &ef, v, &st.arg);
	if (rc)
		return rc;
	if (st.op == PROF_OP_SEND && st.arg > pp->pg->max_send) {
		pp->pg->max_send = st.arg;
		pp->pg->max_send_node = (int)(it - pp->y->doc.nodes.start) + 1;
	}
	if ((st.op == PROF_OP_UNTIL || st.op == PROF_OP_UNTIL_CLOSE) && !pp->pg->tcp_node)
		pp->pg->tcp_node = (int)(k - pp->y->doc.nodes.start) + 1;
	if (st.data && st.op == PROF_OP_SEND)
		pp->pg->bytes = true;
	return prog_push(pp, v, &st);
}

static int parse_steps(struct prog_parse *pp, yaml_node_t *seq, unsigned depth)
{
	size_t i, len = yamlu_len(seq);

	if (seq->type != YAML_SEQUENCE_NODE)
		return yamlu_errf(pp->y, seq,
				  "'%s' must be a list of {send: N}, {recv: N}, {delay: MS}, ...",
				  depth ? "steps" : pp->key);
	if (len == 0)
		return yamlu_errf(pp->y, seq, "'%s' is empty", depth ? "steps" : pp->key);
	if (len > FG_PROF_MAX_STEPS)
		return yamlu_errf(pp->y, seq, "'%s' has %zu steps, at most %d allowed",
				  depth ? "steps" : pp->key, len, FG_PROF_MAX_STEPS);
	for (i = 0; i < len; i++) {
		int rc = parse_step(pp, yamlu_item(pp->y, seq, i), depth);

		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The stream offsets of the unrolled steps, the bytes each step's recvs
 * before it wait for, the bytes sent and the delays.
 */
static void prog_offsets(struct prof_program *pg)
{
	uint64_t off = 0;
	uint32_t rcvd = 0;
	size_t i;

	for (i = 0; i < pg->n; i++) {
		struct prof_step *st = &pg->steps[i];

		st->rcvd_before = rcvd;
		if (st->op == PROF_OP_SEND) {
			st->off = (uint32_t)off;
			off += st->arg;
		} else if (st->op == PROF_OP_RECV) {
			rcvd += st->arg;
		} else if (st->op == PROF_OP_DELAY) {
			pg->delay_ms += st->arg;
		}
	}
	pg->sent = off;
	/* the steps between sends carry the next send's offset */
	for (i = pg->n; i-- > 0;)
		if (pg->steps[i].op != PROF_OP_SEND)
			pg->steps[i].off = (uint32_t)off;
		else
			off = pg->steps[i].off;
}

/*
 * One side's steps from a capture's session (prof_pcap.h): that side's
 * messages are sends of their bytes, the peer's are recvs of their sizes
 * (a message over FG_PROF_MAX_BYTES in several); with keep_gaps, the time
 * before each of its messages is a delay (whole milliseconds).
 */
static int pcap_steps(struct prog_parse *pp, yaml_node_t *m, const struct prof_pcap_sess *s,
		      bool client, bool keep_gaps)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct prof_pcap_msg *g = &s->msgs[i];
		bool mine = g->from_client == client;
		uint8_t *buf = NULL;
		int rc;

		if (s->proto == IPPROTO_UDP && g->len > FG_PROF_UDP_MAX)
			return yamlu_errf(pp->y, m,
					  "'pcap': datagram %zu has %u bytes: a UDP datagram fits "
					  "a %d-byte frame with at most %d",
					  i + 1, g->len, FG_PROF_FRAME_MAX, FG_PROF_UDP_MAX);
		for (uint64_t ms = mine && keep_gaps ? g->gap_us / 1000 : 0; ms;) {
			uint32_t d =
			    ms > FG_PROF_MAX_DELAY_MS ? FG_PROF_MAX_DELAY_MS : (uint32_t)ms;
			struct prof_step st = {.op = PROF_OP_DELAY, .arg = d};

			if ((rc = prog_push(pp, m, &st)) != 0)
				return rc;
			ms -= d;
		}
		if (mine) {
			buf = malloc(g->len);
			if (!buf)
				return yamlu_errf(pp->y, m, "out of memory");
			memcpy(buf, g->data, g->len);
			if ((rc = prog_own(pp, m, buf)) != 0)
				return rc;
			pp->pg->bytes = true;
		}
		for (uint32_t at = 0; at < g->len;) {
			uint32_t n =
			    g->len - at > FG_PROF_MAX_BYTES ? FG_PROF_MAX_BYTES : g->len - at;
			struct prof_step st = {.op = mine ? PROF_OP_SEND : PROF_OP_RECV,
					       .arg = n,
					       .data = mine ? buf + at : NULL};

			if (mine && n > pp->pg->max_send)
				pp->pg->max_send = n;
			if ((rc = prog_push(pp, m, &st)) != 0)
				return rc;
			at += n;
		}
	}
	return 0;
}

int prof_program_pcap(struct yamlu_ctx *y, yaml_node_t *m, bool client, struct prof_program *pg,
		      int *proto, uint32_t *port)
{
	static const char *const keys[] = {"pcap", "keep_gaps"};
	struct prog_parse pp = {.y = y, .key = client ? "client" : "server", .pg = pg};
	struct yamlu_field bf = {.key = "keep_gaps", .type = YAMLU_BOOL};
	yaml_node_t *fn = yamlu_get(y, m, "pcap"), *gn = yamlu_get(y, m, "keep_gaps");
	const char *name = fn ? yamlu_str(fn) : NULL;
	char path[4096], err[FG_ERRLEN];
	struct prof_pcap_sess s;
	bool keep_gaps = false;
	struct stat sb;
	int rc;

	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *k = yaml_document_get_node(&y->doc, pr->key);
		const char *ks = k ? yamlu_str(k) : NULL;

		if (!ks || (strcmp(ks, keys[0]) && strcmp(ks, keys[1])))
			return yamlu_errf(y, k ? k : m,
					  "'%s': unknown key '%s' (a program is a list of steps, "
					  "or {pcap: FILE, keep_gaps: BOOL})",
					  pp.key, ks ? ks : "?");
	}
	if (!name || !name[0])
		return yamlu_errf(y, fn ? fn : m, "'%s': 'pcap' names the capture file", pp.key);
	if (gn && yamlu_scalar(y, &bf, gn, &keep_gaps))
		return -EINVAL;
	prof_path(y, name, path, sizeof(path));
	/* a regular file only: libpcap would block on a FIFO */
	if (stat(path, &sb) != 0)
		return yamlu_errf(y, fn, "'pcap': %s: %s", name, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return yamlu_errf(y, fn, "'pcap': %s: not a regular file", name);
	rc = prof_pcap_read(path, &s, err, sizeof(err));
	if (!rc && pg) {
		rc = pcap_steps(&pp, fn, &s, client, keep_gaps);
		if (!rc)
			prog_offsets(pg);
	} else if (rc) {
		size_t pl = strlen(path);
		/* the file as the profile names it, not as resolved */
		const char *why =
		    !strncmp(err, path, pl) && !strncmp(err + pl, ": ", 2) ? err + pl + 2 : err;

		rc = yamlu_errf(y, fn, "'pcap': %s: %s", name, why);
	}
	if (!rc && proto)
		*proto = s.proto == IPPROTO_TCP ? PROF_TCP : PROF_UDP;
	if (!rc && port)
		*port = s.sport;
	prof_pcap_free(&s);
	return rc;
}

int prof_parse_program(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst)
{
	struct prog_parse pp = {.y = y, .key = f->key, .pg = dst};
	int rc;

	if (n->type == YAML_MAPPING_NODE)
		return prof_program_pcap(y, n, !strcmp(f->key, "client"), dst, NULL, NULL);
	rc = parse_steps(&pp, n, 0);

	if (!rc)
		prog_offsets(pp.pg);
	return rc;
}

void prof_release_program(void *dst)
{
	struct prof_program *pg = dst;

	for (size_t i = 0; i < pg->n_owned; i++)
		free(pg->owned[i]);
	free(pg->owned);
	free(pg->steps);
	memset(pg, 0, sizeof(*pg));
}

uint64_t prof_program_bytes(const struct prof_program *pg, enum prof_op op)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < pg->n; i++)
		if (pg->steps[i].op == op)
			sum += pg->steps[i].arg;
	return sum;
}
