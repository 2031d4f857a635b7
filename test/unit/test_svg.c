/*
 * test_svg.c — the SVG writer: escaping of user text, 1-2-5 ticks that
 * cover the range, value-to-pixel mapping (clamped, y upwards), marks
 * carrying their figures exactly, and a whole chart that is one balanced
 * document.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "svg.h"

static void test_escape(void **state)
{
	struct svg s = {0};

	(void)state;
	svg_escape(&s, "a<b>&\"c'\x01\td");
	assert_non_null(s.buf);
	assert_string_equal(s.buf, "a&lt;b&gt;&amp;&quot;c&apos;\td");
	svg_escape(&s, NULL);
	assert_string_equal(s.buf, "a&lt;b&gt;&amp;&quot;c&apos;\td");
	svg_free(&s);
	assert_null(s.buf);
}

static void test_ticks(void **state)
{
	static const double r[][2] = {{0, 1}, {0, 69.005}, {3.2, 7.9}, {0, 20000},
				      {5625, 5625}, {-3, 12}, {0, 0}, {1e-3, 2e-3}};
	double t[32], lo, hi;

	(void)state;
	for (size_t k = 0; k < sizeof(r) / sizeof(r[0]); k++) {
		int n = svg_ticks(r[k][0], r[k][1], 6, t, 32, &lo, &hi);
		double step;

		assert_true(n >= 2 && n <= 12);
		assert_true(lo <= r[k][0] && hi >= r[k][1]);
		assert_true(hi > lo);
		step = t[1] - t[0];
		/* the step is 1, 2 or 5 times a power of ten */
		double m = step / pow(10, floor(log10(step)));
		assert_true(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9);
		for (int i = 1; i < n; i++)
			assert_true(fabs(t[i] - t[i - 1] - step) < step * 1e-6);
		assert_true(fabs(t[0] - lo) < step * 1e-6);
		assert_true(fabs(t[n - 1] - hi) < step * 1e-6);
	}
	/* 0..20000 in about 6 ticks: 0, 5000, ..., 20000 */
	assert_int_equal(svg_ticks(0, 20000, 6, t, 32, &lo, &hi), 5);
	assert_true(t[1] == 5000 && hi == 20000);
	/* a short buffer is never overrun */
	assert_int_equal(svg_ticks(0, 100, 50, t, 3, NULL, NULL), 3);
}

static void test_map(void **state)
{
	struct svg_chart c;

	(void)state;
	svg_chart_init(&c, 800, 400, "t", "x", 0, 100, "y", 0, 50);
	assert_true(c.x.lo == 0 && c.x.hi == 100 && c.y.lo == 0 && c.y.hi == 50);
	assert_true(svg_map(&c.x, 0) == c.x.p0);
	assert_true(svg_map(&c.x, 100) == c.x.p1);
	assert_true(fabs(svg_map(&c.x, 50) - (c.x.p0 + c.x.p1) / 2) < 1e-9);
	/* y grows upwards: a larger value is higher on the page */
	assert_true(svg_map(&c.y, 40) < svg_map(&c.y, 10));
	/* clamped to the frame */
	assert_true(svg_map(&c.x, 1e9) == c.x.p1);
	assert_true(svg_map(&c.y, -5) == c.y.p0);
	assert_true(svg_map(&c.y, NAN) == c.y.p0);
}

/* the value of attribute name in the first mark after *at; advances *at */
static double attr(const char **at, const char *name)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(*at, key);
	assert_non_null(p);
	*at = p + strlen(key);
	return strtod(*at, NULL);
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void test_chart(void **state)
{
	const double x[] = {20000, 10000, 5000, 7500, 6250.5};
	const double y[] = {69.005, 38.01, 0, 17.3467, 0.832};
	struct svg_chart c;
	struct svg s = {0};
	const char *at;

	(void)state;
	svg_chart_init(&c, 800, 450, "throughput <search> & \"loss\"", "offered fps", 0, 20000,
		       "loss %", 0, 69.005);
	svg_begin(&s, &c);
	svg_series(&s, &c, x, y, 5, "#1f77b4", "trial");
	svg_bar(&s, &c, 10, 20, 7, "red", "b<1>");
	svg_legend(&s, &c, 0, "#1f77b4", "loss");
	assert_int_equal(svg_end(&s), 0);
	assert_false(s.oom);
	assert_int_equal((int)strlen(s.buf), (int)s.len);
	/* one document, its title escaped */
	assert_int_equal(count(s.buf, "<svg "), 1);
	assert_int_equal(count(s.buf, "</svg>"), 1);
	assert_non_null(strstr(s.buf, "throughput &lt;search&gt; &amp; &quot;loss&quot;"));
	assert_null(strstr(s.buf, "<search>"));
	/* five points and one bar, each with its figures exactly */
	assert_int_equal(count(s.buf, "class=\"point\""), 5);
	assert_int_equal(count(s.buf, "class=\"bar\""), 1);
	assert_int_equal(count(s.buf, "<polyline"), 1);
	at = s.buf;
	for (int i = 0; i < 5; i++) {
		assert_true(attr(&at, "data-x") == x[i]);
		assert_true(attr(&at, "data-y") == y[i]);
	}
	assert_true(attr(&at, "data-x") == 15);
	assert_true(attr(&at, "data-y") == 7);
	assert_non_null(strstr(at, "data-label=\"b&lt;1&gt;\""));
	/* tags open and close in pairs */
	assert_int_equal(count(s.buf, "<text"), count(s.buf, "</text>"));
	assert_int_equal(count(s.buf, "<title>"), count(s.buf, "</title>"));
	assert_int_equal(count(s.buf, "<g "), count(s.buf, "</g>"));
	svg_free(&s);
}

/* Charts stacked in one document: the second one's marks move down with it. */
static void test_stack(void **state)
{
	struct svg_chart a, b;
	struct svg s = {0};
	const char *at;

	(void)state;
	svg_chart_init(&a, 800, 400, "a", "x", 0, 10, "y", 0, 10);
	svg_chart_init(&b, 800, 400, "b", "x", 0, 10, "y", 0, 10);
	svg_chart_move(&b, 400);
	assert_true(svg_map(&b.y, 5) == svg_map(&a.y, 5) + 400);
	assert_true(svg_map(&b.x, 5) == svg_map(&a.x, 5));
	svg_doc(&s, 800, 800);
	svg_frame(&s, &a);
	svg_frame(&s, &b);
	svg_vline(&s, &b, 2.5, "black", "p50_us");
	svg_label(&s, &b, 1, "s -> port 1");
	assert_int_equal(svg_end(&s), 0);
	assert_int_equal(count(s.buf, "<svg "), 1);
	at = strstr(s.buf, "class=\"mark\"");
	assert_non_null(at);
	assert_true(attr(&at, "data-x") == 2.5);
	assert_non_null(strstr(at, "data-label=\"p50_us\""));
	assert_non_null(strstr(s.buf, "s -&gt; port 1"));
	svg_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_escape),
	    cmocka_unit_test(test_ticks),
	    cmocka_unit_test(test_map),
	    cmocka_unit_test(test_chart),
	    cmocka_unit_test(test_stack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
