/*
 * yamlu.c — the schema-table walker behind cfg.c and prof.c: the document
 * side of the YAML reader.
 *
 * A YAML file is read whole (it is small), handed to libyaml's document
 * loader, and then each mapping is walked against a table of rows: the row
 * says what type the value has, where in the caller's struct it goes and
 * which range is legal. Walking, duplicate detection, unknown-key warnings,
 * lists and nested maps, releasing what a walk allocated, and every
 * message with its FILE:LINE:COL prefix live here; each single value is
 * converted and range-checked by yamlu_scalar.c. The modules that describe
 * a file format (cfg.c the platform config, flowgen(8) PLATFORM CONFIG;
 * prof.c the profiles, flowgen-profile(5)) only write tables and a few
 * cross-field checks.
 *
 * Context: control. cfg.c runs it when flowgen reads its platform config
 * at start-up, prof.c each time a profile is loaded (--check, `start -f`,
 * `bench`); nothing here prints.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "readf.h"
#include "yamlu.h"
#include "yamlu_int.h"

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
	size_t got;
	char *buf;
	int rc;

	memset(y, 0, sizeof(*y));
	y->file = path;
	y->err = err;
	y->errlen = errlen;
	if (err && errlen)
		err[0] = '\0';
	rc = readf(path, FG_YAMLU_MAX_FILE, 0, &buf, &got);
	if (rc == -EFBIG)
		report(y, NULL, "file larger than %u bytes", FG_YAMLU_MAX_FILE);
	else if (rc == -ENOMEM)
		report(y, NULL, "out of memory");
	else if (rc)
		report(y, NULL, "%s", strerror(-rc));
	if (rc)
		return rc;
	rc = yamlu_load_buf(y, path, buf, got, err, errlen);
	free(buf);
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

const char *yamlu_node_kind(const yaml_node_t *n)
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

/* ---- the walker ---- */

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
		return yamlu_errf(y, n, "'%s' must be a list, not %s", f->key, yamlu_node_kind(n));
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
		return yamlu_errf(y, map, "%s must be a mapping, not %s", s->name,
				  yamlu_node_kind(map));
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
					  yamlu_node_kind(k));
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
