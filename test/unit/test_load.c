/*
 * test_load.c — the load model: every MULT form on per-port (streams) and
 * shared (flows) loads, line-rate refusal in both directions with the
 * maximum named in the form given, unknown link speeds, rescaling and the
 * offered figures.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "load.h"

#define G10 10000000000ull
#define G1 1000000000ull

/* A port sending pps frames of `frame` bytes. */
static struct load_port lp(double pps, double frame)
{
	return (struct load_port){.pps = pps,
				  .bps_l2 = pps * frame * 8,
				  .bps_l1 = pps * (frame + 20) * 8};
}

static struct units_rate mult(enum units_kind k, double v)
{
	return (struct units_rate){.kind = k, .value = v};
}

/* Two ports of a streams profile: port 0 sends 1000 pps of 64 B, port 1 500 pps of 1518 B. */
static struct load streams2(void)
{
	struct load l = {.scope = LOAD_PER_PORT, .nports = 2, .ref = -1};

	l.tx[0] = lp(1000, 64);
	l.tx[1] = lp(500, 1518);
	return l;
}

/* A flows pair: the client port sends 3 frames of 64 B per flow, the server 2 of 594 B. */
static struct load flows2(double cps)
{
	struct load l = {.scope = LOAD_SHARED, .nports = 2, .ref = 0, .cps = cps, .npairs = 1};

	l.tx[0] = lp(3 * cps, 64);
	l.tx[1] = lp(2 * cps, 594);
	return l;
}

static void test_per_port_forms(void **st)
{
	struct load l = streams2();
	uint64_t link[FG_MAX_PORTS] = {G10, G10};
	double f[FG_MAX_PORTS];
	char err[256];
	struct units_rate m;

	(void)st;
	m = mult(UNITS_MULT, 2);
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	assert_true(f[0] == 2 && f[1] == 2 && f[2] == 0);
	m = mult(UNITS_PPS, 10000); /* each port sends 10 kpps */
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	assert_true(fabs(f[0] - 10) < 1e-9 && fabs(f[1] - 20) < 1e-9);
	m = mult(UNITS_PCT, 10); /* 10 % of 10G, L1, on each port */
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	assert_true(fabs(l.tx[0].bps_l1 * f[0] - 1e9) < 1 && fabs(l.tx[1].bps_l1 * f[1] - 1e9) < 1);
	m = mult(UNITS_BPS, 1e8); /* L2 bits */
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	assert_true(fabs(l.tx[1].bps_l2 * f[1] - 1e8) < 1e-3);
	m.l1 = true;
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	assert_true(fabs(l.tx[0].bps_l1 * f[0] - 1e8) < 1e-3);
	m = mult(UNITS_MAX, 0);
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	assert_true(f[0] == 0 && f[1] == 0);
	m = mult(UNITS_CPS, 100);
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "flows"));
}

static void test_shared_forms(void **st)
{
	struct load l = flows2(1); /* one flow per second at -m 1 */
	uint64_t link[FG_MAX_PORTS] = {G10, G10};
	double f[FG_MAX_PORTS];
	char err[256];
	struct units_rate m;
	struct load_offer o;

	(void)st;
	m = mult(UNITS_MULT, 55000);
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	assert_true(f[0] == 55000 && f[1] == 55000);
	load_offered(&l, f, link, &o);
	assert_true(fabs(o.cps - 55000) < 1e-6);
	assert_true(fabs(o.pps - 5 * 55000) < 1e-6);
	m = mult(UNITS_CPS, 20000);
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	assert_true(fabs(f[1] - 20000) < 1e-9);
	m = mult(UNITS_PPS, 30000); /* client frames: 3 per flow */
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	assert_true(fabs(f[0] - 10000) < 1e-9 && f[1] == f[0]);
	m = mult(UNITS_PCT, 1); /* 1 % of the reference (client) port */
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	assert_true(fabs(l.tx[0].bps_l1 * f[0] - 1e8) < 1e-3);
}

/* The server direction is checked too: its answers are the larger ones. */
static void test_refuse_server_direction(void **st)
{
	struct load l = flows2(1);
	uint64_t link[FG_MAX_PORTS] = {G1, G1};
	double f[FG_MAX_PORTS];
	char err[256];
	struct units_rate m;
	/* per flow: client 3 * 84 * 8 = 2016 bits, server 2 * 614 * 8 = 9824 bits */
	double top = 1e9 / 9824;

	(void)st;
	m = mult(UNITS_MULT, floor(top));
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	m = mult(UNITS_MULT, ceil(top * 1.001));
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), -ERANGE);
	assert_non_null(strstr(err, "port 1"));
	assert_non_null(strstr(err, "maximum is -m 101791"));
}

static void test_refuse_names_form(void **st)
{
	struct load l = streams2();
	uint64_t link[FG_MAX_PORTS] = {G10, G10};
	double f[FG_MAX_PORTS];
	char err[256];
	struct units_rate m = mult(UNITS_PPS, 20e6); /* 64 B: 14,880,952 fit */

	(void)st;
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), -ERANGE);
	assert_non_null(strstr(err, "port 0"));
	assert_non_null(strstr(err, "maximum is -m 14880952pps"));
	m = mult(UNITS_PCT, 100);
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	m = mult(UNITS_PCT, 101);
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), -ERANGE);
	assert_non_null(strstr(err, "maximum is -m 100%"));
}

static void test_unknown_link(void **st)
{
	struct load l = streams2();
	uint64_t link[FG_MAX_PORTS] = {G10, 0};
	double f[FG_MAX_PORTS];
	char err[256];
	struct units_rate m = mult(UNITS_PCT, 10);

	(void)st;
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "port 1 is unknown"));
	/* other forms need no speed, and an unknown link is not checked */
	m = mult(UNITS_PPS, 1e9);
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), -ERANGE);
	link[0] = 0;
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
}

/* update -m and the tui's +/- rescale: the check runs on the new factors. */
static void test_rescale(void **st)
{
	struct load l = streams2();
	uint64_t link[FG_MAX_PORTS] = {G10, G10};
	double f[FG_MAX_PORTS], g[FG_MAX_PORTS];
	char err[256];
	struct units_rate m = mult(UNITS_PCT, 60), s;

	(void)st;
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	for (int p = 0; p < FG_MAX_PORTS; p++)
		g[p] = f[p] * 1.5;
	s = load_scaled(&m, 1.5);
	assert_true(s.kind == UNITS_PCT && fabs(s.value - 90) < 1e-9);
	assert_int_equal(load_check(&l, &s, g, link, err, sizeof(err)), 0);
	for (int p = 0; p < FG_MAX_PORTS; p++)
		g[p] = f[p] * 2;
	s = load_scaled(&m, 2);
	assert_int_equal(load_check(&l, &s, g, link, err, sizeof(err)), -ERANGE);
	assert_non_null(strstr(err, "maximum is -m 100%"));
}

static void test_nothing_sent(void **st)
{
	struct load l = {.scope = LOAD_PER_PORT, .nports = 2, .ref = -1};
	uint64_t link[FG_MAX_PORTS] = {G10, G10};
	double f[FG_MAX_PORTS];
	char err[256];
	struct units_rate m = mult(UNITS_MULT, 1);

	(void)st;
	f[0] = f[1] = 7;
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	assert_true(f[0] == 0 && f[1] == 0);
	l.scope = LOAD_SHARED;
	l.ref = -1; /* flows: -p left no whole pair, only a server side */
	f[0] = f[1] = 7;
	assert_int_equal(load_factors(&l, &m, link, f, err, sizeof(err)), 0);
	assert_true(f[0] == 0 && f[1] == 0);
}

static void test_fmt(void **st)
{
	char b[48];
	struct units_rate m = mult(UNITS_BPS, 1e9);

	(void)st;
	m.l1 = true;
	assert_string_equal(load_fmt_mult(&m, b, sizeof(b)), "1000000000bps_l1");
	m = mult(UNITS_MULT, 2.5);
	assert_string_equal(load_fmt_mult(&m, b, sizeof(b)), "2.5");
	m = mult(UNITS_MAX, 0);
	assert_string_equal(load_fmt_mult(&m, b, sizeof(b)), "max");
	m = mult(UNITS_PCT, 40);
	assert_string_equal(load_fmt_mult(&m, b, sizeof(b)), "40%");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_per_port_forms),	cmocka_unit_test(test_shared_forms),
	    cmocka_unit_test(test_refuse_server_direction), cmocka_unit_test(test_refuse_names_form),
	    cmocka_unit_test(test_unknown_link),	cmocka_unit_test(test_rescale),
	    cmocka_unit_test(test_nothing_sent),	cmocka_unit_test(test_fmt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
