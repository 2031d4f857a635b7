/*
 * svg.h — a small SVG 1.1 writer for charts (`--plot`, flowgen(8)): a text
 * buffer that grows, XML escaping, nice axis ticks, a chart frame with
 * ticks and labels, and the marks a chart is made of (points joined by a
 * polyline, bars, text). Every data mark carries its figures as data-x,
 * data-y (and data-label) attributes and a <title>, so a reader (a test, a
 * script) gets the numbers back from the picture.
 *
 * Context: pure (no I/O; the caller writes svg.buf where it wants).
 *
 * Included by: every folder.
 */
#ifndef FG_SVG_H
#define FG_SVG_H

#include <stdbool.h>
#include <stddef.h>

struct svg {
	char *buf;     /* NUL-terminated text; free() it */
	size_t len, cap;
	bool oom;      /* an allocation failed: the text is cut short */
};

/* pure: one axis: values lo..hi onto pixels p0..p1 (p1 < p0 for y). */
struct svg_axis {
	double lo, hi;
	double p0, p1;
	const char *label;
};

/* pure: a chart: the picture's size, title and two axes; the plot area
 * is what the margins leave (svg_chart_init sets the axes' pixels). */
struct svg_chart {
	double w, h;
	double top;    /* its place in a document of several charts */
	const char *title;
	struct svg_axis x, y;
};

/* pure: append text; printf-style. */
void svg_printf(struct svg *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* pure: append s with &, <, >, " and ' escaped; control characters dropped. */
void svg_escape(struct svg *s, const char *text);

/* pure: value v on axis a, in pixels (clamped to the axis' ends). */
double svg_map(const struct svg_axis *a, double v);

/*
 * pure: "nice" tick values (1, 2 or 5 times a power of ten apart) covering
 * lo..hi with about `target` ticks; writes at most max, returns how many.
 * *lo_out and *hi_out (may be NULL) get the rounded ends of the range.
 */
int svg_ticks(double lo, double hi, int target, double *ticks, int max, double *lo_out,
	      double *hi_out);

/* pure: a chart w x h with the axes' value ranges rounded to their ticks. */
void svg_chart_init(struct svg_chart *c, double w, double h, const char *title,
		    const char *xlabel, double xlo, double xhi, const char *ylabel, double ylo,
		    double yhi);

/* pure: a document of one chart: svg_doc, then svg_frame. */
void svg_begin(struct svg *s, const struct svg_chart *c);
/* pure: the document's head and background, w x h. */
void svg_doc(struct svg *s, double w, double h);
/* pure: move chart c down to `top` in a document of several. */
void svg_chart_move(struct svg_chart *c, double top);
/* pure: a chart's title, grid, frame, ticks and labels. */
void svg_frame(struct svg *s, const struct svg_chart *c);
/* pure: close the document; 0, or -ENOMEM when something was cut short. */
int svg_end(struct svg *s);

/* pure: n points joined by a line; each point a mark with its figures. */
void svg_series(struct svg *s, const struct svg_chart *c, const double *x, const double *y,
		size_t n, const char *color, const char *series);
/* pure: one point mark (a circle) with its figures and a label. */
void svg_point(struct svg *s, const struct svg_chart *c, double x, double y, const char *color,
	       const char *label);
/* pure: a bar from x0 to x1 on the x axis, 0 (or the axis' low end) up to y. */
void svg_bar(struct svg *s, const struct svg_chart *c, double x0, double x1, double y,
	     const char *color, const char *label);
/* pure: a vertical marker at x across the chart, with its figure and label. */
void svg_vline(struct svg *s, const struct svg_chart *c, double x, const char *color,
	       const char *label);
/* pure: a legend entry (a colour swatch and its name), row i at the top right. */
void svg_legend(struct svg *s, const struct svg_chart *c, int i, const char *color,
		const char *name);
/* pure: a text at x along the top of the plot area (a bar group's name). */
void svg_label(struct svg *s, const struct svg_chart *c, double x, const char *text);
/* pure: free the buffer. */
void svg_free(struct svg *s);

#endif
