/*
 * yamlu.c — the schema-table walker behind cfg.c and prof.c.
 *
 * A YAML file is read whole (it is small), handed to libyaml's document
 * loader, and then each mapping is walked against a table of rows: the row
 * says what type the value has, where in the caller's struct it goes and
 * which range is legal. Converting, range checking, duplicate detection,
 * unknown-key warnings and every message with its FILE:LINE:COL prefix live
 * here, so the modules that describe a file format only write tables and a
 * few cross-field checks.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "yamlu.h"

const char *const yamlu_type_names[YAMLU_TYPE_COUNT] = {
    [YAMLU_INT] = "integer",	 [YAMLU_UINT32] = "integer", [YAMLU_DOUBLE] = "number",
    [YAMLU_BOOL] = "boolean",	 [YAMLU_STRING] = "string",  [YAMLU_IPV4] = "IPv4 address",
    [YAMLU_MAC] = "MAC address", [YAMLU_ENUM] = "word",	     [YAMLU_IPV4_RANGE] = "address range",
    [YAMLU_U32_RANGE] = "range", [YAMLU_LIST] = "list",	     [YAMLU_MAP] = "mapping",
    [YAMLU_LIST_MAP] = "list",	 [YAMLU_CUSTOM] = "value",
};

static const char *node_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	case YAML_NO_NODE:
		break;
	}
	return "nothing";
}

/* ---- messages: the one place a FILE:LINE:COL prefix is formed ---- */

static int vreport(struct yamlu_ctx *y, const yaml_mark_t *m, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

static int vreport(struct yamlu_ctx *y, const yaml_mark_t *m, const char *fmt, va_list ap)
{
	int n;

	if (y->failed || !y->err || !y->errlen) {
		y->failed = true;
		return -EINVAL;
	}
	y->failed = true;
	if (m)
		n = snprintf(y->err, y->errlen, "%s:%zu:%zu: ", y->file, m->line + 1,
			     m->column + 1);
	else
		n = snprintf(y->err, y->errlen, "%s: ", y->file);
	if (n >= 0 && (size_t)n < y->errlen)
		vsnprintf(y->err + n, y->errlen - n, fmt, ap);
	return -EINVAL;
}

static int report(struct yamlu_ctx *y, const yaml_mark_t *m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int report(struct yamlu_ctx *y, const yaml_mark_t *m, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vreport(y, m, fmt, ap);
	va_end(ap);
	return rc;
}

int yamlu_errf(struct yamlu_ctx *y, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vreport(y, n ? &n->start_mark : NULL, fmt, ap);
	va_end(ap);
	return rc;
}

static void vcollect(struct yamlu_ctx *y, const yaml_node_t *n, const char *kind, const char *fmt,
		     va_list ap) __attribute__((format(printf, 4, 0)));

static void vcollect(struct yamlu_ctx *y, const yaml_node_t *n, const char *kind, const char *fmt,
		     va_list ap)
{
	char buf[512], **w;
	int k;

	if (y->nwarns >= FG_YAMLU_MAX_WARN) {
		y->dropped++;
		return;
	}
	k = snprintf(buf, sizeof(buf), "%s:%zu: %s: ", y->file, n ? n->start_mark.line + 1 : 1,
		     kind);
	if (k < 0 || (size_t)k >= sizeof(buf))
		return;
	vsnprintf(buf + k, sizeof(buf) - k, fmt, ap);
	w = realloc(y->warns, (y->nwarns + 1) * sizeof(*w));
	if (!w)
		return;
	y->warns = w;
	w[y->nwarns] = strdup(buf);
	if (w[y->nwarns])
		y->nwarns++;
}

void yamlu_warnf(struct yamlu_ctx *y, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcollect(y, n, "warning", fmt, ap);
	va_end(ap);
}

void yamlu_notef(struct yamlu_ctx *y, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcollect(y, n, "note", fmt, ap);
	va_end(ap);
}

void yamlu_take_warnings(struct yamlu_ctx *y, char ***warns, size_t *n)
{
	*warns = y->warns;
	*n = y->nwarns;
	y->warns = NULL;
	y->nwarns = 0;
}

/* ---- loading ---- */

/* 1-based line and column of byte `off` of buf (for reader errors). */
static yaml_mark_t mark_at(const unsigned char *buf, size_t len, size_t off)
{
	yaml_mark_t m = {0};
	size_t i;

	for (i = 0; i < off && i < len; i++) {
		if (buf[i] == '\n') {
			m.line++;
			m.column = 0;
		} else {
			m.column++;
		}
	}
	m.index = off;
	return m;
}

int yamlu_load_buf(struct yamlu_ctx *y, const char *name, const void *buf, size_t len, char *err,
		   size_t errlen)
{
	yaml_parser_t parser;
	yaml_mark_t m;
	int rc = 0;

	memset(y, 0, sizeof(*y));
	y->file = name;
	y->err = err;
	y->errlen = errlen;
	if (err && errlen)
		err[0] = '\0';
	if (!yaml_parser_initialize(&parser))
		return report(y, NULL, "out of memory"), -ENOMEM;
	yaml_parser_set_input_string(&parser, buf, len);
	if (!yaml_parser_load(&parser, &y->doc)) {
		switch (parser.error) {
		case YAML_MEMORY_ERROR:
			report(y, NULL, "out of memory");
			rc = -ENOMEM;
			break;
		case YAML_READER_ERROR:
			m = mark_at(buf, len, parser.problem_offset);
			rc = report(y, &m, "%s", parser.problem ? parser.problem : "cannot read");
			break;
		default:
			if (parser.context)
				rc = report(y, &parser.problem_mark, "%s %s",
					    parser.problem ? parser.problem : "syntax error",
					    parser.context);
			else
				rc = report(y, &parser.problem_mark, "%s",
					    parser.problem ? parser.problem : "syntax error");
			break;
		}
		yaml_parser_delete(&parser);
		return rc;
	}
	y->loaded = true;
	yaml_parser_delete(&parser);
	return 0;
}

int yamlu_load(struct yamlu_ctx *y, const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *buf;
	size_t got;
	FILE *f;
	int rc;

	memset(y, 0, sizeof(*y));
	y->file = path;
	y->err = err;
	y->errlen = errlen;
	if (err && errlen)
		err[0] = '\0';
	f = fopen(path, "r");
	if (!f) {
		rc = -errno;
		report(y, NULL, "%s", strerror(-rc));
		return rc;
	}
	if (fstat(fileno(f), &st) < 0 || S_ISDIR(st.st_mode)) {
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -errno;
		fclose(f);
		report(y, NULL, "%s", strerror(-rc));
		return rc;
	}
	buf = malloc(FG_YAMLU_MAX_FILE + 1);
	if (!buf) {
		fclose(f);
		report(y, NULL, "out of memory");
		return -ENOMEM;
	}
	got = fread(buf, 1, FG_YAMLU_MAX_FILE + 1, f);
	if (ferror(f)) {
		rc = -EIO;
		report(y, NULL, "%s", strerror(EIO));
		goto err_free_buf;
	}
	if (got > FG_YAMLU_MAX_FILE) {
		rc = -EFBIG;
		report(y, NULL, "file larger than %u bytes", FG_YAMLU_MAX_FILE);
		goto err_free_buf;
	}
	fclose(f);
	f = NULL;
	rc = yamlu_load_buf(y, path, buf, got, err, errlen);
	free(buf);
	return rc;

err_free_buf:
	free(buf);
	fclose(f);
	return rc;
}

void yamlu_close(struct yamlu_ctx *y)
{
	size_t i;

	if (y->loaded)
		yaml_document_delete(&y->doc);
	y->loaded = false;
	for (i = 0; i < y->nwarns; i++)
		free(y->warns[i]);
	free(y->warns);
	y->warns = NULL;
	y->nwarns = 0;
}

yaml_node_t *yamlu_root(struct yamlu_ctx *y)
{
	yaml_node_t *n;

	if (!y->loaded)
		return NULL;
	n = yaml_document_get_root_node(&y->doc);
	if (n && n->type == YAML_SCALAR_NODE && yamlu_is_null(n))
		return NULL;
	return n;
}

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

yaml_node_t *yamlu_item(struct yamlu_ctx *y, yaml_node_t *seq, size_t i)
{
	if (i >= yamlu_len(seq))
		return NULL;
	return yaml_document_get_node(&y->doc, seq->data.sequence.items.start[i]);
}

yaml_node_t *yamlu_get_key(struct yamlu_ctx *y, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *p;

	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&y->doc, p->key);
		const char *s = yamlu_str(k);

		if (s && !strcmp(s, key))
			return k;
	}
	return NULL;
}

yaml_node_t *yamlu_get(struct yamlu_ctx *y, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *p;

	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = yamlu_str(yaml_document_get_node(&y->doc, p->key));

		if (k && !strcmp(k, key))
			return yaml_document_get_node(&y->doc, p->value);
	}
	return NULL;
}

/* ---- pure string parsers ---- */

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

static int hexval(int c)
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
		int hi = hexval((unsigned char)s[i * 3]), lo = hexval((unsigned char)s[i * 3 + 1]);

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

/* Strict integer: optional sign, decimal digits or 0x hex; no spaces. */
static bool parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;
	int base = 10;
	const char *p = s;

	if (*p == '+' || *p == '-')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16;
	if (!isxdigit((unsigned char)p[base == 16 ? 2 : 0]))
		return false;
	errno = 0;
	v = strtoll(s, &end, base);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* ---- conversion of one value ---- */

static int want_scalar(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n,
		       const char **s)
{
	*s = yamlu_str(n);
	if (!*s)
		return yamlu_errf(y, n, "'%s' must be %s %s, not %s", f->key,
				  f->type == YAMLU_IPV4 || f->type == YAMLU_INT ||
					  f->type == YAMLU_UINT32 || f->type == YAMLU_ENUM
				      ? "an"
				      : "a",
				  yamlu_type_names[f->type], node_kind(n));
	if (strlen(*s) != n->data.scalar.length)
		return yamlu_errf(y, n, "'%s' contains a NUL character", f->key);
	if (yamlu_is_null(n))
		return yamlu_errf(y, n, "'%s' has no value", f->key);
	return 0;
}

static int int_value(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, int64_t lo,
		     int64_t hi, int64_t *v)
{
	const char *s;
	int rc = want_scalar(y, f, n, &s);

	if (rc)
		return rc;
	if (!parse_i64(s, v))
		return yamlu_errf(y, n, "'%s' must be an integer, got '%s'", f->key, s);
	if (*v < lo || *v > hi)
		return yamlu_errf(y, n, "'%s' %s is out of range %" PRId64 "..%" PRId64, f->key, s,
				  lo, hi);
	return 0;
}

static void limits(const struct yamlu_field *f, int64_t *lo, int64_t *hi, int64_t dlo, int64_t dhi)
{
	*lo = f->min;
	*hi = f->max;
	if (*lo == 0 && *hi == 0) {
		*lo = dlo;
		*hi = dhi;
	}
	if (*lo < dlo)
		*lo = dlo;
	if (*hi > dhi)
		*hi = dhi;
}

static int mac_list(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, uint8_t *mac)
{
	static const struct yamlu_field byte = {.key = "MAC byte", .type = YAMLU_INT};
	int64_t v;
	size_t i;
	int rc;

	if (yamlu_len(n) != 6)
		return yamlu_errf(y, n, "'%s' is not a MAC address: a list needs 6 bytes", f->key);
	for (i = 0; i < 6; i++) {
		rc = int_value(y, &byte, yamlu_item(y, n, i), 0, 255, &v);
		if (rc)
			return rc;
		mac[i] = (uint8_t)v;
	}
	return 0;
}

static int range_value(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n,
		       struct yamlu_range *r)
{
	struct yamlu_field ef = *f;
	char a[16], b[16];
	uint32_t v[2];
	size_t i;
	int rc;

	if (n->type != YAML_SEQUENCE_NODE || yamlu_len(n) != 2)
		return yamlu_errf(y, n, "'%s' must be a list [first, last]", f->key);
	ef.type = f->type == YAMLU_IPV4_RANGE ? YAMLU_IPV4 : YAMLU_UINT32;
	if (f->type == YAMLU_IPV4_RANGE)
		ef.min = ef.max = 0;
	for (i = 0; i < 2; i++) {
		rc = yamlu_scalar(y, &ef, yamlu_item(y, n, i), &v[i]);
		if (rc)
			return rc;
	}
	if (v[0] > v[1]) {
		if (f->type == YAMLU_IPV4_RANGE)
			return yamlu_errf(y, n, "'%s' is empty: %s is above %s", f->key,
					  yamlu_fmt_ipv4(v[0], a, sizeof(a)),
					  yamlu_fmt_ipv4(v[1], b, sizeof(b)));
		return yamlu_errf(y, n, "'%s' is empty: %u is above %u", f->key, v[0], v[1]);
	}
	if (f->type == YAMLU_IPV4_RANGE && f->max > 0 &&
	    (uint64_t)v[1] - v[0] + 1 > (uint64_t)f->max)
		return yamlu_errf(y, n, "'%s' has %" PRIu64 " addresses, more than %" PRId64,
				  f->key, (uint64_t)v[1] - v[0] + 1, f->max);
	r->lo = v[0];
	r->hi = v[1];
	return 0;
}

int yamlu_scalar(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst)
{
	const char *s;
	int64_t v, lo, hi;
	char *end;
	double d;
	int rc, i;

	switch (f->type) {
	case YAMLU_INT:
		limits(f, &lo, &hi, INT_MIN, INT_MAX);
		rc = int_value(y, f, n, lo, hi, &v);
		if (!rc)
			*(int *)dst = (int)v;
		return rc;
	case YAMLU_UINT32:
		limits(f, &lo, &hi, 0, UINT32_MAX);
		rc = int_value(y, f, n, lo, hi, &v);
		if (!rc)
			*(uint32_t *)dst = (uint32_t)v;
		return rc;
	case YAMLU_DOUBLE:
		rc = want_scalar(y, f, n, &s);
		if (rc)
			return rc;
		errno = 0;
		d = strtod(s, &end);
		if (end == s || *end || errno || !isfinite(d) || isspace((unsigned char)*s))
			return yamlu_errf(y, n, "'%s' must be a number, got '%s'", f->key, s);
		if ((f->flags & YAMLU_F_GT0) && !(d > 0))
			return yamlu_errf(y, n, "'%s' must be > 0, got '%s'", f->key, s);
		if ((f->dmin != 0 || f->dmax != 0) && (d < f->dmin || d > f->dmax))
			return yamlu_errf(y, n, "'%s' %s is out of range %g..%g", f->key, s,
					  f->dmin, f->dmax);
		*(double *)dst = d;
		return 0;
	case YAMLU_BOOL:
		rc = want_scalar(y, f, n, &s);
		if (rc)
			return rc;
		if (!strcasecmp(s, "true") || !strcasecmp(s, "yes") || !strcasecmp(s, "on") ||
		    !strcmp(s, "1"))
			*(bool *)dst = true;
		else if (!strcasecmp(s, "false") || !strcasecmp(s, "no") || !strcasecmp(s, "off") ||
			 !strcmp(s, "0"))
			*(bool *)dst = false;
		else
			return yamlu_errf(y, n, "'%s' must be true or false, got '%s'", f->key, s);
		return 0;
	case YAMLU_STRING:
		rc = want_scalar(y, f, n, &s);
		if (rc)
			return rc;
		if (strlen(s) > (f->max > 0 ? (size_t)f->max : 4096))
			return yamlu_errf(y, n, "'%s' is longer than %zu characters", f->key,
					  f->max > 0 ? (size_t)f->max : (size_t)4096);
		free(*(char **)dst);
		*(char **)dst = strdup(s);
		if (!*(char **)dst)
			return yamlu_errf(y, n, "out of memory");
		return 0;
	case YAMLU_IPV4:
		rc = want_scalar(y, f, n, &s);
		if (rc)
			return rc;
		if (!yamlu_parse_ipv4(s, dst))
			return yamlu_errf(y, n, "'%s' is not an IPv4 address: '%s'", f->key, s);
		return 0;
	case YAMLU_MAC:
		if (n->type == YAML_SEQUENCE_NODE)
			return mac_list(y, f, n, dst);
		rc = want_scalar(y, f, n, &s);
		if (rc)
			return rc;
		if (!yamlu_parse_mac(s, dst))
			return yamlu_errf(y, n, "'%s' is not a MAC address: '%s'", f->key, s);
		return 0;
	case YAMLU_ENUM:
		rc = want_scalar(y, f, n, &s);
		if (rc)
			return rc;
		for (i = (int)f->min; i <= (int)f->max; i++) {
			if (f->names[i] && !strcmp(f->names[i], s)) {
				*(int *)dst = i;
				return 0;
			}
		}
		{
			char list[256] = "";
			size_t l = 0;

			for (i = (int)f->min; i <= (int)f->max; i++) {
				if (!f->names[i])
					continue;
				l += snprintf(list + l, l < sizeof(list) ? sizeof(list) - l : 0,
					      "%s%s", l ? ", " : "", f->names[i]);
			}
			return yamlu_errf(y, n, "'%s' must be one of: %s; got '%s'", f->key, list,
					  s);
		}
	case YAMLU_IPV4_RANGE:
	case YAMLU_U32_RANGE:
		return range_value(y, f, n, dst);
	case YAMLU_LIST:
	case YAMLU_MAP:
	case YAMLU_LIST_MAP:
	case YAMLU_CUSTOM:
		break;
	}
	return yamlu_errf(y, n, "'%s': internal error: not a scalar type", f->key);
}

static size_t scalar_size(enum yamlu_type t)
{
	switch (t) {
	case YAMLU_INT:
	case YAMLU_ENUM:
		return sizeof(int);
	case YAMLU_UINT32:
	case YAMLU_IPV4:
		return sizeof(uint32_t);
	case YAMLU_DOUBLE:
		return sizeof(double);
	case YAMLU_BOOL:
		return sizeof(bool);
	case YAMLU_STRING:
		return sizeof(char *);
	case YAMLU_MAC:
		return 6;
	case YAMLU_IPV4_RANGE:
	case YAMLU_U32_RANGE:
		return sizeof(struct yamlu_range);
	case YAMLU_LIST:
	case YAMLU_MAP:
	case YAMLU_LIST_MAP:
	case YAMLU_CUSTOM:
		break;
	}
	return 0;
}

/* ---- the walker ---- */

static int list_value(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *obj)
{
	void **arr = (void **)((char *)obj + f->off);
	size_t *cnt = (size_t *)((char *)obj + f->cnt_off);
	size_t len, esz, i;
	struct yamlu_field ef;
	int rc;

	if (yamlu_is_null(n)) {
		len = 0;
	} else if (n->type != YAML_SEQUENCE_NODE) {
		return yamlu_errf(y, n, "'%s' must be a list, not %s", f->key, node_kind(n));
	} else {
		len = yamlu_len(n);
	}
	if (f->max_n && len > f->max_n)
		return yamlu_errf(y, n, "'%s' has %zu entries, at most %zu allowed", f->key, len,
				  f->max_n);
	if (len < f->min_n)
		return yamlu_errf(y, n, "'%s' needs at least %zu entr%s", f->key, f->min_n,
				  f->min_n == 1 ? "y" : "ies");
	esz = f->type == YAMLU_LIST ? scalar_size(f->elem) : f->elem_size;
	if (len == 0 || esz == 0)
		return 0;
	*arr = calloc(len, esz);
	if (!*arr)
		return yamlu_errf(y, n, "out of memory");
	*cnt = len; /* elements are zeroed: yamlu_free copes with a partial walk */
	for (i = 0; i < len; i++) {
		yaml_node_t *it = yamlu_item(y, n, i);
		char *dst = (char *)*arr + i * esz;

		if (++y->visits > FG_YAMLU_MAX_VISITS)
			return yamlu_errf(y, it, "document too large or too deeply aliased");
		if (f->type == YAMLU_LIST) {
			ef = *f;
			ef.type = f->elem;
			rc = yamlu_scalar(y, &ef, it, dst);
		} else {
			if (f->sub->init)
				f->sub->init(dst);
			rc = yamlu_walk(y, it, f->sub, dst);
		}
		if (rc)
			return rc;
	}
	return 0;
}

static int field_value(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *v, void *obj)
{
	void *dst = (char *)obj + f->off;

	switch (f->type) {
	case YAMLU_LIST:
	case YAMLU_LIST_MAP:
		return list_value(y, f, v, obj);
	case YAMLU_MAP:
		return yamlu_walk(y, v, f->sub, dst);
	case YAMLU_CUSTOM:
		return f->parse(y, f, v, dst);
	default:
		return yamlu_scalar(y, f, v, dst);
	}
}

/* Index of `key` in the first nf rows of s, nf if it has none. */
static size_t field_index(const struct yamlu_schema *s, size_t nf, const char *key)
{
	size_t i;

	for (i = 0; i < nf && strcmp(s->fields[i].key, key); i++)
		;
	return i;
}

int yamlu_walk(struct yamlu_ctx *y, yaml_node_t *map, const struct yamlu_schema *s, void *obj)
{
	const yaml_node_t *seen[FG_YAMLU_MAX_FIELDS] = {0};
	const yaml_node_pair_t *last[FG_YAMLU_MAX_FIELDS] = {0};
	const struct yamlu_field *f;
	yaml_node_pair_t *p;
	size_t nf;
	int rc;

	if (map->type != YAML_MAPPING_NODE)
		return yamlu_errf(y, map, "%s must be a mapping, not %s", s->name, node_kind(map));
	for (nf = 0; s->fields[nf].key; nf++)
		;
	if (nf > FG_YAMLU_MAX_FIELDS)
		return yamlu_errf(y, map, "internal error: schema %s too large", s->name);
	/* With dup_last, only the last occurrence of a key is read. */
	for (p = map->data.mapping.pairs.start; y->dup_last && p < map->data.mapping.pairs.top;
	     p++) {
		const char *key = yamlu_str(yaml_document_get_node(&y->doc, p->key));
		size_t i = key ? field_index(s, nf, key) : nf;

		if (i < nf)
			last[i] = p;
	}
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&y->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&y->doc, p->value);
		const char *key = yamlu_str(k);
		size_t i;

		if (++y->visits > FG_YAMLU_MAX_VISITS)
			return yamlu_errf(y, k, "document too large or too deeply aliased");
		if (!key)
			return yamlu_errf(y, k, "a key in %s must be a scalar, not %s", s->name,
					  node_kind(k));
		i = field_index(s, nf, key);
		if (i == nf) {
			yamlu_warnf(y, k, "unknown key '%s' ignored", key);
			continue;
		}
		f = &s->fields[i];
		if (seen[i] && !y->dup_last)
			return yamlu_errf(y, k, "duplicate key '%s' (first at line %zu)", key,
					  seen[i]->start_mark.line + 1);
		if (seen[i])
			yamlu_warnf(y, k,
				    "duplicate key '%s' (also at line %zu): the last one counts",
				    key, seen[i]->start_mark.line + 1);
		seen[i] = k;
		if (y->dup_last && last[i] != p)
			continue;
		rc = field_value(y, f, v, obj);
		if (rc)
			return rc;
		if (f->has)
			*(bool *)((char *)obj + f->has - 1) = true;
	}
	for (f = s->fields; f->key; f++)
		if ((f->flags & YAMLU_F_REQUIRED) && !seen[f - s->fields])
			return yamlu_errf(y, map, "%s: missing key '%s'", s->name, f->key);
	return s->check ? s->check(y, map, obj) : 0;
}

void yamlu_free(const struct yamlu_schema *s, void *obj)
{
	const struct yamlu_field *f;
	size_t i;

	if (!s || !obj)
		return;
	for (f = s->fields; f->key; f++) {
		char *dst = (char *)obj + f->off;

		switch (f->type) {
		case YAMLU_STRING:
			free(*(char **)dst);
			*(char **)dst = NULL;
			break;
		case YAMLU_LIST:
		case YAMLU_LIST_MAP: {
			size_t *cnt = (size_t *)((char *)obj + f->cnt_off);
			char *arr = *(char **)dst;

			for (i = 0; arr && i < *cnt; i++) {
				if (f->type == YAMLU_LIST_MAP)
					yamlu_free(f->sub, arr + i * f->elem_size);
				else if (f->elem == YAMLU_STRING)
					free(((char **)arr)[i]);
			}
			free(arr);
			*(char **)dst = NULL;
			*cnt = 0;
			break;
		}
		case YAMLU_MAP:
			yamlu_free(f->sub, dst);
			break;
		case YAMLU_CUSTOM:
			if (f->release)
				f->release(dst);
			break;
		default:
			break;
		}
	}
}
