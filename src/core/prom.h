/*
 * prom.h — the writer of flowgen's metrics (flowgen(8), API, "GET
 * /metrics") in Prometheus' text exposition format 0.0.4 or in
 * OpenMetrics 1.0 text, the two formats a Prometheus server negotiates.
 * The differences it hides:
 *   - a counter's family is named without "_total" in OpenMetrics' TYPE
 *     line (its samples keep the suffix); the Prometheus format names the
 *     family as its samples;
 *   - OpenMetrics ends the exposition with "# EOF".
 * Label values are escaped as both formats ask (backslash, double quote,
 * line feed); numbers are integers when they are, else "%.17g" (so they
 * read back exactly), NaN and +Inf/-Inf as the formats spell them.
 *
 * Every sample of a family is written right after the family's HELP and
 * TYPE lines: both formats require a family's samples to be together.
 *
 * Pure: writes only to the FILE * it is given; no globals, no EAL
 * (unit-tested in test/unit/test_prom.c).
 *
 * Included by: every folder.
 */
#ifndef FG_PROM_H
#define FG_PROM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The Content-Type of each format. */
#define PROM_CT_TEXT "text/plain; version=0.0.4; charset=utf-8"
#define PROM_CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"

enum prom_type { PROM_COUNTER, PROM_GAUGE, PROM_HISTOGRAM };

/* A label; a NULL value leaves the label out. */
struct prom_label {
	const char *name, *value;
};

#define PROM_MAX_LABELS 8

struct prom {
	FILE *f;
	bool om; /* OpenMetrics text; else the Prometheus text format */
	/* labels every sample carries (instance), first */
	struct prom_label common[2];
	int ncommon;
};

/* A writer on f in the format asked for; common labels added with prom_common. */
void prom_init(struct prom *p, FILE *f, bool openmetrics);
/* A label every sample carries from now on (at most 2). */
void prom_common(struct prom *p, const char *name, const char *value);

/*
 * pure: whether an Accept header asks for OpenMetrics (its media type
 * application/openmetrics-text with a q above 0); NULL: no.
 */
bool prom_wants_openmetrics(const char *accept);

/*
 * A family's HELP and TYPE lines. name is the sample name without type
 * suffixes: a counter's name ends in "_total" (required), a histogram's
 * is the base of its _bucket, _sum and _count.
 */
void prom_family(struct prom *p, const char *name, enum prom_type type, const char *help);

/* One sample of the family just begun: name{labels} value. n labels. */
void prom_u64(struct prom *p, const char *name, const struct prom_label *l, int n, uint64_t v);
void prom_f64(struct prom *p, const char *name, const struct prom_label *l, int n, double v);

/*
 * One histogram of the family just begun: for each i < nb, the samples
 * with le = le[i] counted in cum[i] (cumulative, non-decreasing), then
 * le="+Inf" with count, _sum and _count. le[] in ascending order.
 */
void prom_hist(struct prom *p, const char *name, const struct prom_label *l, int n,
	       const double *le, const uint64_t *cum, int nb, double sum, uint64_t count);

/* The end of the exposition ("# EOF" in OpenMetrics). 0, or -EIO when a write failed. */
int prom_end(struct prom *p);

#endif
