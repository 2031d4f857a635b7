/*
 * prom.c — the Prometheus and OpenMetrics text writer (prom.h).
 *
 * References: Prometheus' "Exposition formats" (text format 0.0.4) and
 * OpenMetrics 1.0 (the text format, "Counter", "Histogram", "EOF").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prom.h"

void prom_init(struct prom *p, FILE *f, bool openmetrics)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->om = openmetrics;
}

void prom_common(struct prom *p, const char *name, const char *value)
{
	if (p->ncommon < (int)(sizeof(p->common) / sizeof(p->common[0])))
		p->common[p->ncommon++] = (struct prom_label){name, value};
}

/* The length of s's leading space and tabs. */
static size_t ows(const char *s) { return strspn(s, " \t"); }

bool prom_wants_openmetrics(const char *accept)
{
	static const char om[] = "application/openmetrics-text";
	const char *s = accept;

	while (s && *s) {
		const char *end, *a, *t;
		size_t len;
		double q = 1;

		s += ows(s);
		end = strchr(s, ',');
		len = end ? (size_t)(end - s) : strlen(s);
		/* the parameters: only q matters */
		for (a = memchr(s, ';', len); a; a = memchr(a, ';', (size_t)(s + len - a))) {
			a++;
			a += ows(a);
			if (strncasecmp(a, "q=", 2) == 0) {
				char *v;

				q = strtod(a + 2, &v);
				if (v == a + 2)
					q = 0;
			}
		}
		t = s + sizeof(om) - 1;
		if (len >= sizeof(om) - 1 && strncasecmp(s, om, sizeof(om) - 1) == 0 &&
		    (t == s + len || *t == ';' || *t == ' ' || *t == '\t') && q > 0)
			return true;
		s = end ? end + 1 : NULL;
	}
	return false;
}

/* A number as both formats write it: shortest text that reads back exactly. */
static void put_num(FILE *f, double v)
{
	char b[40];

	if (isnan(v)) {
		fputs("NaN", f);
		return;
	}
	if (isinf(v)) {
		fputs(v > 0 ? "+Inf" : "-Inf", f);
		return;
	}
	snprintf(b, sizeof(b), "%.15g", v);
	if (strtod(b, NULL) != v)
		snprintf(b, sizeof(b), "%.17g", v);
	fputs(b, f);
}

/* A label value or a HELP text, escaped: \ and line feed; " in label values. */
static void put_escaped(FILE *f, const char *s, bool quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '"' && quote)
			fputs("\\\"", f);
		else
			fputc(*s, f);
	}
}

/* The family's name: a counter's without "_total" in OpenMetrics. */
static void put_family_name(const struct prom *p, const char *name, enum prom_type type)
{
	size_t n = strlen(name);

	if (p->om && type == PROM_COUNTER && n > 6 && strcmp(name + n - 6, "_total") == 0)
		n -= 6;
	fprintf(p->f, "%.*s", (int)n, name);
}

void prom_family(struct prom *p, const char *name, enum prom_type type, const char *help)
{
	static const char *const tn[] = {"counter", "gauge", "histogram"};

	fputs("# HELP ", p->f);
	put_family_name(p, name, type);
	fputc(' ', p->f);
	put_escaped(p->f, help, p->om);
	fputs("\n# TYPE ", p->f);
	put_family_name(p, name, type);
	fprintf(p->f, " %s\n", tn[type]);
}

/* name{common..., l..., extra} — extra may be NULL (a histogram's le). */
static void put_series(struct prom *p, const char *name, const char *suffix,
		       const struct prom_label *l, int n, const struct prom_label *extra)
{
	bool any = false;

	fprintf(p->f, "%s%s", name, suffix);
	for (int i = 0; i < p->ncommon + n + (extra != NULL); i++) {
		const struct prom_label *x = i < p->ncommon	   ? &p->common[i]
					     : i < p->ncommon + n ? &l[i - p->ncommon]
								  : extra;

		if (!x->value)
			continue;
		fputc(any ? ',' : '{', p->f);
		fprintf(p->f, "%s=\"", x->name);
		put_escaped(p->f, x->value, true);
		fputc('"', p->f);
		any = true;
	}
	if (any)
		fputc('}', p->f);
	fputc(' ', p->f);
}

void prom_u64(struct prom *p, const char *name, const struct prom_label *l, int n, uint64_t v)
{
	put_series(p, name, "", l, n, NULL);
	fprintf(p->f, "%llu\n", (unsigned long long)v);
}

void prom_f64(struct prom *p, const char *name, const struct prom_label *l, int n, double v)
{
	put_series(p, name, "", l, n, NULL);
	put_num(p->f, v);
	fputc('\n', p->f);
}

void prom_hist(struct prom *p, const char *name, const struct prom_label *l, int n,
	       const double *le, const uint64_t *cum, int nb, double sum, uint64_t count)
{
	char b[40];

	for (int i = 0; i < nb; i++) {
		snprintf(b, sizeof(b), "%.15g", le[i]);
		if (strtod(b, NULL) != le[i])
			snprintf(b, sizeof(b), "%.17g", le[i]);
		put_series(p, name, "_bucket", l, n, &(struct prom_label){"le", b});
		fprintf(p->f, "%llu\n", (unsigned long long)cum[i]);
	}
	put_series(p, name, "_bucket", l, n, &(struct prom_label){"le", "+Inf"});
	fprintf(p->f, "%llu\n", (unsigned long long)count);
	put_series(p, name, "_sum", l, n, NULL);
	put_num(p->f, sum);
	fputc('\n', p->f);
	put_series(p, name, "_count", l, n, NULL);
	fprintf(p->f, "%llu\n", (unsigned long long)count);
}

int prom_end(struct prom *p)
{
	if (p->om)
		fputs("# EOF\n", p->f);
	return ferror(p->f) ? -EIO : 0;
}
