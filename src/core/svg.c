/*
 * svg.c — the SVG writer behind `--plot` (svg.h): pure code, no I/O. A
 * growing text buffer, XML escaping for every text and attribute that
 * comes from the user (stream names, titles), nice 1-2-5 ticks, a chart
 * frame with its grid, and marks that keep their figures in data-x/data-y
 * attributes and a <title> so the numbers can be read back. The console's
 * plot builders (src/console/plot.c) use it on the console's thread.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

#define SVG_ML 90.0 /* margins: left (tick labels, y label) */
#define SVG_MR 30.0
#define SVG_MT 50.0
#define SVG_MB 60.0
#define SVG_FONT "font-family=\"sans-serif\""

static bool svg_reserve(struct svg *s, size_t more)
{
	size_t cap;
	char *b;

	if (s->oom)
		return false;
	if (s->len + more + 1 <= s->cap)
		return true;
	cap = s->cap ? s->cap : 4096;
	while (cap < s->len + more + 1)
		cap *= 2;
	b = realloc(s->buf, cap);
	if (!b) {
		s->oom = true;
		return false;
	}
	s->buf = b;
	s->cap = cap;
	return true;
}

void svg_printf(struct svg *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !svg_reserve(s, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	s->len += (size_t)n;
}

void svg_escape(struct svg *s, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; p && *p; p++) {
		switch (*p) {
		case '&':
			svg_printf(s, "&amp;");
			break;
		case '<':
			svg_printf(s, "&lt;");
			break;
		case '>':
			svg_printf(s, "&gt;");
			break;
		case '"':
			svg_printf(s, "&quot;");
			break;
		case '\'':
			svg_printf(s, "&apos;");
			break;
		default:
			/* XML 1.0 has no place for control characters but tab,
			 * newline and carriage return */
			if (*p >= 0x20 || *p == '\t' || *p == '\n' || *p == '\r')
				svg_printf(s, "%c", *p);
			break;
		}
	}
}

double svg_map(const struct svg_axis *a, double v)
{
	double f = a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0.5;

	if (!isfinite(f))
		f = 0;
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	return a->p0 + f * (a->p1 - a->p0);
}

/* 1, 2 or 5 times a power of ten, the smallest at least x */
static double svg_nice(double x)
{
	double e = pow(10, floor(log10(x))), f = x / e;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
}

int svg_ticks(double lo, double hi, int target, double *ticks, int max, double *lo_out,
	      double *hi_out)
{
	double step, a, b;
	int n = 0;

	if (!isfinite(lo) || !isfinite(hi))
		lo = 0, hi = 1;
	if (hi < lo) {
		double t = lo;

		lo = hi;
		hi = t;
	}
	if (hi - lo < 1e-12 * (fabs(hi) + 1)) {
		/* one value: a range around it */
		hi = lo + (lo ? fabs(lo) * 0.5 : 1);
		lo = lo ? lo - fabs(lo) * 0.5 : 0;
	}
	if (target < 2)
		target = 2;
	step = svg_nice((hi - lo) / (target - 1));
	a = floor(lo / step) * step;
	b = ceil(hi / step) * step;
	for (double t = a; t <= b + step * 1e-9 && n < max; t += step)
		ticks[n++] = fabs(t) < step * 1e-9 ? 0 : t;
	if (lo_out)
		*lo_out = a;
	if (hi_out)
		*hi_out = b;
	return n;
}

void svg_chart_init(struct svg_chart *c, double w, double h, const char *title,
		    const char *xlabel, double xlo, double xhi, const char *ylabel, double ylo,
		    double yhi)
{
	double t[32];

	memset(c, 0, sizeof(*c));
	c->w = w;
	c->h = h;
	c->title = title;
	svg_ticks(xlo, xhi, 8, t, 32, &c->x.lo, &c->x.hi);
	svg_ticks(ylo, yhi, 6, t, 32, &c->y.lo, &c->y.hi);
	c->x.label = xlabel;
	c->y.label = ylabel;
	c->x.p0 = SVG_ML;
	c->x.p1 = w - SVG_MR;
	c->y.p0 = h - SVG_MB;
	c->y.p1 = SVG_MT;
}

/* a tick's text: as short as the figure allows */
static void svg_num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a >= 1e9)
		snprintf(buf, len, "%gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
}

void svg_doc(struct svg *s, double w, double h)
{
	svg_printf(s,
		   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		   "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
		   w, h, w, h);
	svg_printf(s, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n",
		   w, h);
}

void svg_chart_move(struct svg_chart *c, double top)
{
	double d = top - c->top;

	c->top = top;
	c->y.p0 += d;
	c->y.p1 += d;
}

void svg_begin(struct svg *s, const struct svg_chart *c)
{
	svg_doc(s, c->w, c->top + c->h);
	svg_frame(s, c);
}

void svg_frame(struct svg *s, const struct svg_chart *c)
{
	double t[32];
	char num[32];
	int n;

	svg_printf(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"16\" " SVG_FONT
		      ">",
		   c->w / 2, c->top + 28);
	svg_escape(s, c->title);
	svg_printf(s, "</text>\n<g class=\"grid\" stroke=\"#dddddd\" stroke-width=\"1\">\n");
	/* grid lines, then the frame over them */
	n = svg_ticks(c->x.lo, c->x.hi, 8, t, 32, NULL, NULL);
	for (int i = 0; i < n; i++) {
		double x = svg_map(&c->x, t[i]);

		svg_printf(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x,
			   c->y.p0, x, c->y.p1);
	}
	n = svg_ticks(c->y.lo, c->y.hi, 6, t, 32, NULL, NULL);
	for (int i = 0; i < n; i++) {
		double y = svg_map(&c->y, t[i]);

		svg_printf(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", c->x.p0,
			   y, c->x.p1, y);
	}
	svg_printf(s, "</g>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		      "fill=\"none\" stroke=\"black\"/>\n",
		   c->x.p0, c->y.p1, c->x.p1 - c->x.p0, c->y.p0 - c->y.p1);
	svg_printf(s, "<g class=\"ticks\" font-size=\"11\" " SVG_FONT ">\n");
	n = svg_ticks(c->x.lo, c->x.hi, 8, t, 32, NULL, NULL);
	for (int i = 0; i < n; i++) {
		svg_num(num, sizeof(num), t[i]);
		svg_printf(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			   svg_map(&c->x, t[i]), c->y.p0 + 16, num);
	}
	n = svg_ticks(c->y.lo, c->y.hi, 6, t, 32, NULL, NULL);
	for (int i = 0; i < n; i++) {
		svg_num(num, sizeof(num), t[i]);
		svg_printf(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			   c->x.p0 - 6, svg_map(&c->y, t[i]) + 4, num);
	}
	svg_printf(s, "</g>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\" " SVG_FONT ">",
		   (c->x.p0 + c->x.p1) / 2, c->top + c->h - 18);
	svg_escape(s, c->x.label);
	svg_printf(s, "</text>\n<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\" " SVG_FONT " "
		      "transform=\"rotate(-90 18 %.1f)\">",
		   (c->y.p0 + c->y.p1) / 2, (c->y.p0 + c->y.p1) / 2);
	svg_escape(s, c->y.label);
	svg_printf(s, "</text>\n");
}

int svg_end(struct svg *s)
{
	svg_printf(s, "</svg>\n");
	return s->oom ? -ENOMEM : 0;
}

/* the figures of a mark: attributes and a tooltip */
static void svg_figures(struct svg *s, double x, double y, const char *label)
{
	svg_printf(s, " data-x=\"%.17g\" data-y=\"%.17g\"", x, y);
	if (label) {
		svg_printf(s, " data-label=\"");
		svg_escape(s, label);
		svg_printf(s, "\"");
	}
	svg_printf(s, "><title>");
	if (label) {
		svg_escape(s, label);
		svg_printf(s, ": ");
	}
	svg_printf(s, "%.6g, %.6g</title>", x, y);
}

void svg_point(struct svg *s, const struct svg_chart *c, double x, double y, const char *color,
	       const char *label)
{
	svg_printf(s, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"",
		   svg_map(&c->x, x), svg_map(&c->y, y));
	svg_escape(s, color);
	svg_printf(s, "\"");
	svg_figures(s, x, y, label);
	svg_printf(s, "</circle>\n");
}

void svg_series(struct svg *s, const struct svg_chart *c, const double *x, const double *y,
		size_t n, const char *color, const char *series)
{
	if (n > 1) {
		svg_printf(s, "<polyline fill=\"none\" stroke-width=\"1.5\" stroke=\"");
		svg_escape(s, color);
		svg_printf(s, "\" points=\"");
		for (size_t i = 0; i < n; i++)
			svg_printf(s, "%s%.1f,%.1f", i ? " " : "", svg_map(&c->x, x[i]),
				   svg_map(&c->y, y[i]));
		svg_printf(s, "\"/>\n");
	}
	for (size_t i = 0; i < n; i++)
		svg_point(s, c, x[i], y[i], color, series);
}

void svg_bar(struct svg *s, const struct svg_chart *c, double x0, double x1, double y,
	     const char *color, const char *label)
{
	double base = c->y.lo > 0 ? c->y.lo : 0;
	double px0 = svg_map(&c->x, x0), px1 = svg_map(&c->x, x1);
	double py = svg_map(&c->y, y), pb = svg_map(&c->y, base);

	svg_printf(s, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"",
		   px0, (py < pb ? py : pb), px1 > px0 ? px1 - px0 : 0.5, fabs(pb - py));
	svg_escape(s, color);
	svg_printf(s, "\"");
	svg_figures(s, (x0 + x1) / 2, y, label);
	svg_printf(s, "</rect>\n");
}

void svg_vline(struct svg *s, const struct svg_chart *c, double x, const char *color,
	       const char *label)
{
	double px = svg_map(&c->x, x);

	svg_printf(s, "<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		      "stroke-dasharray=\"4 3\" stroke=\"", px, c->y.p0, px, c->y.p1);
	svg_escape(s, color);
	svg_printf(s, "\"");
	svg_figures(s, x, 0, label);
	svg_printf(s, "</line>\n");
}

void svg_legend(struct svg *s, const struct svg_chart *c, int i, const char *color,
		const char *name)
{
	double x = c->x.p1 - 170, y = c->y.p1 + 12 + 18 * i;

	/* over the marks, on white */
	svg_printf(s, "<rect x=\"%.1f\" y=\"%.1f\" width=\"164\" height=\"18\" fill=\"white\" "
		      "fill-opacity=\"0.85\"/>\n", x - 4, y - 3);
	svg_printf(s, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"", x, y);
	svg_escape(s, color);
	svg_printf(s, "\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" " SVG_FONT ">", x + 18,
		   y + 10);
	svg_escape(s, name);
	svg_printf(s, "</text>\n");
}

void svg_label(struct svg *s, const struct svg_chart *c, double x, const char *text)
{
	svg_printf(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" " SVG_FONT ">",
		   svg_map(&c->x, x), c->y.p1 + 14);
	svg_escape(s, text);
	svg_printf(s, "</text>\n");
}

void svg_free(struct svg *s)
{
	free(s->buf);
	memset(s, 0, sizeof(*s));
}
