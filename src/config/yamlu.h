/*
 * yamlu.h — one schema-table walker for every YAML file flowgen reads.
 *
 * A file is loaded with libyaml's document API (yaml_parser_load) and then
 * walked against tables of rows in the HAProxy/nginx directive style:
 * {key, type, offsetof(struct, field), min, max, parser, help}. The walker
 * converts and range-checks each value straight into the caller's struct,
 * catches duplicate keys (an error at the second occurrence, or, with
 * yamlu_ctx.dup_last, a warning and the last value counts), collects
 * unknown keys as warnings and reports the first error as
 * `FILE:LINE:COL: message`
 * (1-based, from the offending node). All messages are formed in one place
 * (yamlu_errf / yamlu_warnf); the library never prints.
 *
 * Lists are stored as a malloc'd array at `off` and a size_t count at
 * `cnt_off`; strings are malloc'd. yamlu_free() walks the same table and
 * releases everything, also after a failed walk.
 *
 * Context: control (it allocates, and yamlu_load reads a file). The pure
 * helpers (a node's text and length, the strict address parsers and the
 * address formatter) are yamlu_text.h, which this header includes.
 *
 * Included by: config, control and console.
 */
#ifndef FG_YAMLU_H
#define FG_YAMLU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#include "yamlu_text.h"

/* Largest file accepted (configs and profiles are small). */
#define FG_YAMLU_MAX_FILE (4u << 20)
/* Most warnings kept per file; more are counted in yamlu_ctx.dropped. */
#define FG_YAMLU_MAX_WARN 64
/* Nodes visited per walk before giving up (guards against alias bombs). */
#define FG_YAMLU_MAX_VISITS 2000000u
/* Most keys one schema may have (duplicate detection uses a fixed array). */
#define FG_YAMLU_MAX_FIELDS 48

enum yamlu_type {
	YAMLU_INT = 1,	  /* int; range min..max */
	YAMLU_UINT32,	  /* uint32_t; range min..max (max 0 = UINT32_MAX) */
	YAMLU_DOUBLE,	  /* double; range dmin..dmax, YAMLU_F_GT0 for > 0 */
	YAMLU_BOOL,	  /* bool: true/false/yes/no/on/off/1/0 */
	YAMLU_STRING,	  /* char *, malloc'd; max = longest length (0: 4096) */
	YAMLU_IPV4,	  /* uint32_t, host byte order */
	YAMLU_MAC,	  /* uint8_t[6]; "aa:bb:cc:dd:ee:ff" or [0xaa, ...] (TRex) */
	YAMLU_ENUM,	  /* int; names[min..max] lists the accepted words */
	YAMLU_IPV4_RANGE, /* struct yamlu_range from [lo, hi]; max = most addresses */
	YAMLU_U32_RANGE,  /* struct yamlu_range from [lo, hi]; each in min..max */
	YAMLU_LIST,	  /* list of scalars of type `elem` (same min/max/names) */
	YAMLU_MAP,	  /* nested struct at off, schema `sub` */
	YAMLU_LIST_MAP,	  /* list of structs of elem_size bytes, schema `sub` */
	YAMLU_CUSTOM,	  /* parse(): anything else; release() frees what it made */
};
#define YAMLU_TYPE_COUNT (YAMLU_CUSTOM + 1)
extern const char *const yamlu_type_names[YAMLU_TYPE_COUNT];

/* Row flags. */
#define YAMLU_F_REQUIRED 0x1u /* missing key is an error */
#define YAMLU_F_GT0 0x2u      /* DOUBLE: must be > 0 (dmin is then ignored) */

/* Set in a row's `has` to record presence in a bool of the struct. */
#define YAMLU_HAS(type, member) (offsetof(type, member) + 1)

struct yamlu_range {
	uint32_t lo, hi;
};

struct yamlu_ctx;
struct yamlu_field;

struct yamlu_schema {
	const char *name;		  /* what a map of this schema is, for messages */
	const struct yamlu_field *fields; /* ends with a row whose key is NULL */
	/* optional: set defaults in a freshly zeroed list element */
	void (*init)(void *obj);
	/* optional: cross-field checks after the walk of one map */
	int (*check)(struct yamlu_ctx *y, yaml_node_t *map, void *obj);
};

struct yamlu_field {
	const char *key;
	enum yamlu_type type;
	size_t off; /* offsetof(struct, field) */
	int64_t min, max;
	double dmin, dmax;
	int (*parse)(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst);
	void (*release)(void *dst);
	const char *help;
	unsigned flags;
	size_t has;			/* YAMLU_HAS(type, flag) or 0 */
	enum yamlu_type elem;		/* YAMLU_LIST */
	size_t cnt_off;			/* lists: offsetof the size_t count */
	size_t max_n;			/* lists: most entries (0: no limit) */
	size_t min_n;			/* lists: fewest entries */
	size_t elem_size;		/* YAMLU_LIST_MAP */
	const struct yamlu_schema *sub; /* YAMLU_MAP, YAMLU_LIST_MAP */
	const char *const *names;	/* YAMLU_ENUM */
};

struct yamlu_ctx {
	const char *file;
	yaml_document_t doc;
	bool loaded;
	char *err;
	size_t errlen;
	bool failed;
	char **warns;
	size_t nwarns;
	size_t dropped;
	unsigned long visits;
	/*
	 * Set by the caller after loading: a key repeated in one mapping is no
	 * error; the last occurrence is read, the earlier ones are skipped
	 * unread, and each repetition draws a warning naming both lines
	 * (what TRex's loader does with trex_cfg.yaml).
	 */
	bool dup_last;
};

/*
 * control: reads and parses `path` (at most FG_YAMLU_MAX_FILE bytes). On
 * failure err holds "FILE: No such file or directory" or a libyaml syntax
 * error "FILE:LINE:COL: problem". The ctx keeps a pointer to path and err.
 * Call yamlu_close() in every case.
 */
int yamlu_load(struct yamlu_ctx *y, const char *path, char *err, size_t errlen);

/* control: the same from memory; `name` is used in messages. */
int yamlu_load_buf(struct yamlu_ctx *y, const char *name, const void *buf, size_t len, char *err,
		   size_t errlen);

/* control: frees the document and any warnings not taken. */
void yamlu_close(struct yamlu_ctx *y);

/* control: the root node; NULL for an empty document. */
yaml_node_t *yamlu_root(struct yamlu_ctx *y);

/* control: walks mapping `map` against `s` into `obj`. 0 or -EINVAL. */
int yamlu_walk(struct yamlu_ctx *y, yaml_node_t *map, const struct yamlu_schema *s, void *obj);

/* control: frees what a walk of `s` allocated in obj (obj itself is not freed). */
void yamlu_free(const struct yamlu_schema *s, void *obj);

/* control: moves the collected warnings to the caller (free each, then the array). */
void yamlu_take_warnings(struct yamlu_ctx *y, char ***warns, size_t *n);

/*
 * control: the one place messages are formed. yamlu_errf records
 * "FILE:LINE:COL: ..." at node n (or "FILE: ..." if n is NULL), keeps only the
 * first error, and returns -EINVAL. yamlu_warnf collects
 * "FILE:LINE: warning: ...", yamlu_notef "FILE:LINE: note: ..." (something
 * in the file is deliberately not used), in the same list.
 */
int yamlu_errf(struct yamlu_ctx *y, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void yamlu_warnf(struct yamlu_ctx *y, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void yamlu_notef(struct yamlu_ctx *y, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* control: value node of `key` in mapping `map`, or NULL. */
yaml_node_t *yamlu_get(struct yamlu_ctx *y, yaml_node_t *map, const char *key);
/* control: the key node itself (its line is where the key is written), or NULL. */
yaml_node_t *yamlu_get_key(struct yamlu_ctx *y, yaml_node_t *map, const char *key);
/* control: item i of sequence `seq`, or NULL. */
yaml_node_t *yamlu_item(struct yamlu_ctx *y, yaml_node_t *seq, size_t i);

/* control: one value of the given scalar type, as a row would parse it. */
int yamlu_scalar(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst);

#endif
