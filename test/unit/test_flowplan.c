/*
 * test_flowplan.c — the flow tables of a run, planned before it starts
 * (flowplan.h): the flows counted for given profiles (rate x lifetime,
 * caps, --active, the unpaced fallback), the entries with their margin
 * and the bytes through the table's own layout, the placement in
 * hugepages or on the heap, the refusals (a table beyond what a table
 * holds, tables beyond the machine's memory, both naming what is needed
 * and what there is, in flows and bytes), update -m's larger count, and
 * the reading of /proc/meminfo.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "flowplan.h"
#include "flowtab.h"
#include "flowtab_mem.h"
#include "stats_snap.h"

#define GIB (1024ull * 1024 * 1024)

/* one template at cps a second living life_s, UDP entries (32 B of state) */
static struct flowplan_in one(double cps, double life_s)
{
	struct flowplan_in in;

	memset(&in, 0, sizeof(in));
	in.ntpl = 1;
	in.gen = true;
	in.state = 32;
	in.fallback = FLOWPLAN_UNPACED_DEFAULT;
	in.tpl[0].cps = cps;
	in.tpl[0].life_s = life_s;
	return in;
}

/* udp_short-like: 10,000 flows/s living 3 s hold 30,000; the margin is 25 %
 * a side, the bytes those of a table of that many entries */
static void test_rate_times_life(void **state)
{
	struct flowplan_in in = one(10000, 3);
	struct flowplan_worker w;
	struct flowtab_params fp = {.entry_size = 32, .tick_tsc = 2};
	char err[256];

	(void)state;
	assert_int_equal(flowplan_flows(&in, 1.0), 30000);
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.flows, 30000);
	assert_int_equal(w.side[0], 37500);
	assert_int_equal(w.side[1], 37500);
	assert_int_equal(w.entries, 75000);
	fp.max_flows = 75000;
	fp.wheel_slots = 4096; /* 75,000 / 256 slots, at least 4,096 */
	assert_int_equal(w.wheel, 4096);
	assert_int_equal(w.bytes, flowtab_mem_size(&fp));
	/* update -m x2 doubles the count */
	assert_int_equal(flowplan_flows(&in, 2.0), 60000);
	/* a run of -d 1.5 starts no more than 15,000 */
	in.duration_s = 1.5;
	assert_int_equal(flowplan_flows(&in, 1.0), 15000);
	in.duration_s = 0;
	/* two templates add up; a climit caps its own */
	in.ntpl = 2;
	in.tpl[1] = (struct flowplan_tpl){.cps = 100, .life_s = 60, .climit = 50};
	assert_int_equal(flowplan_flows(&in, 1.0), 30050);
	/* a limit caps too: never more flows than it lets start */
	in.tpl[1] = (struct flowplan_tpl){.cps = 100, .life_s = 60, .limit = 1000};
	assert_int_equal(flowplan_flows(&in, 1.0), 31000);
}

/* small counts: the margin is at least FLOWPLAN_MARGIN_MIN a side, and a
 * table at least FLOWPLAN_MIN_ENTRIES; a worker whose pair does not run
 * counts nothing */
static void test_floors(void **state)
{
	struct flowplan_in in = one(10, 1);
	struct flowplan_worker w;
	char err[256];

	(void)state;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.flows, 10);
	assert_int_equal(w.side[0], 10 + FLOWPLAN_MARGIN_MIN);
	assert_int_equal(w.entries, FLOWPLAN_MIN_ENTRIES);
	in.gen = false;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.flows, 0);
	assert_int_equal(w.side[0], 0);
	assert_int_equal(w.entries, FLOWPLAN_MIN_ENTRIES);
}

/* --active caps the count; unpaced (-m max) with --active holds it; unpaced
 * without caps gets the fallback table, its entries as they are */
static void test_active_and_unpaced(void **state)
{
	struct flowplan_in in = one(1, 60);
	struct flowplan_worker w;
	char err[256];

	(void)state;
	in.active = 1000000;
	/* 1 flow/s x 60 s: the rate never reaches the target */
	assert_int_equal(flowplan_flows(&in, 1.0), 60);
	in.unpaced = true;
	assert_int_equal(flowplan_flows(&in, 1.0), 1000000);
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.side[0], 1250000);
	assert_int_equal(w.entries, 2500000);
	assert_int_equal(w.wheel, 16384); /* a slot per 256 entries at least */
	in.active = 0;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, FLOWPLAN_UNPACED_DEFAULT);
	in.fallback = 65536;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, 65536);
	/* unpaced with every template capped: the caps */
	in.tpl[0].climit = 500;
	assert_int_equal(flowplan_flows(&in, 1.0), 500);
}

/* beyond a table: refused naming the entries needed, the bound and what it holds */
static void test_table_bound(void **state)
{
	struct flowplan_in in = one(1, 60);
	struct flowplan_worker w;
	char err[400];

	(void)state;
	in.unpaced = true;
	in.active = 500000000;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "the most a table holds", &w, err, sizeof(err)),
			 -ERANGE);
	/* 80 bytes an entry (64 of entry, 16 of index) */
	assert_non_null(strstr(err, "1,250,000,000 entries, 93.1 GiB, for its 500,000,000 concurrent flows"));
	assert_non_null(strstr(err, "the most a table holds is 67,108,864 entries"));
	assert_non_null(strstr(err, "about 26,843,545 flows"));
	/* a flows_max of the config is the bound when given */
	in.active = 600000;
	assert_int_equal(flowplan_worker(&in, 1.0, 1048576, "flows_max", &w, err, sizeof(err)),
			 -ERANGE);
	assert_non_null(strstr(err, "1,500,000 entries, 114.5 MiB, for its 600,000 concurrent flows"));
	assert_non_null(strstr(err, "flows_max is 1,048,576 entries (80.0 MiB), about 419,430 flows"));
	assert_int_equal(flowplan_worker(&in, 1.0, 2000000, "flows_max", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, 1500000);
	/* a small flows_max: its table, not the floor, for an unpaced run
	 * (test/data/flows_small_cfg.yaml's 1,000) and for a small count */
	in.active = 0;
	in.fallback = 1000;
	assert_int_equal(flowplan_worker(&in, 1.0, 1000, "flows_max", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, 1000);
	in.unpaced = false;
	in.tpl[0].cps = 1;
	in.tpl[0].life_s = 10;
	assert_int_equal(flowplan_worker(&in, 1.0, 1000, "flows_max", &w, err, sizeof(err)), -ERANGE);
	assert_int_equal(flowplan_worker(&in, 1.0, 3000, "flows_max", &w, err, sizeof(err)), 0);
	assert_int_equal(w.side[0], 1034);
	assert_int_equal(w.entries, 3000); /* the floor, up to the bound */
}

/* placement: hugepages while they hold a table, then the heap; refused
 * when the heap's share passes MemAvailable less the reserve, naming both */
static void test_place(void **state)
{
	struct flowplan p;
	struct flowplan_mem m = {.avail = 4 * GIB, .huge_free = 1 * GIB};
	char err[512];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.nw = 3;
	for (unsigned i = 0; i < 3; i++) {
		p.w[i].flows = 1000000;
		p.w[i].entries = 2500000;
		p.w[i].bytes = 600ull << 20;
	}
	assert_int_equal(flowplan_place(&p, &m, err, sizeof(err)), 0);
	assert_true(p.w[0].huge);
	assert_false(p.w[1].huge); /* 1 GiB holds one table of 600 MiB */
	assert_false(p.w[2].huge);
	assert_int_equal(p.huge, 600ull << 20);
	assert_int_equal(p.heap, 1200ull << 20);
	assert_int_equal(p.flows, 3000000);
	assert_int_equal(p.bytes, 1800ull << 20);
	/* no hugepages, 1 GiB available: 1.8 GiB of tables do not fit */
	m = (struct flowplan_mem){.avail = 1 * GIB};
	assert_int_equal(flowplan_place(&p, &m, err, sizeof(err)), -ENOMEM);
	assert_non_null(strstr(err, "needs 3,000,000 concurrent flows, 7,500,000 table entries, 1800.0 MiB"));
	assert_non_null(strstr(err, "has 768.0 MiB for them (MemAvailable 1024.0 MiB less 256 MiB"));
	assert_non_null(strstr(err, "about 1,280,000 flows"));
	/* what the run going holds counts as free: its tables go first */
	m.held_heap = 2 * GIB;
	assert_int_equal(flowplan_place(&p, &m, err, sizeof(err)), 0);
}

static void test_meminfo(void **state)
{
	const char *t = "MemTotal:       24000000 kB\n"
			"MemAvailable:   20000000 kB\n"
			"HugePages_Total:    1024\n"
			"HugePages_Free:      512\n"
			"Hugepagesize:       2048 kB\n";
	uint64_t a, h;

	(void)state;
	assert_int_equal(flowplan_meminfo(t, &a, &h), 0);
	assert_int_equal(a, 20000000ull * 1024);
	assert_int_equal(h, 512ull * 2048 * 1024);
	assert_int_equal(flowplan_meminfo("MemTotal: 1 kB\n", &a, &h), -EINVAL);
}

/* the plan's line for -v */
static void test_line(void **state)
{
	struct flowplan p;
	char buf[256];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.nw = 1;
	p.w[0] = (struct flowplan_worker){.flows = 1000000, .side = {1250000, 1250000},
					  .entries = 2500000, .bytes = 227115008, .huge = false};
	flowplan_line(&p, 0, buf, sizeof(buf));
	assert_string_equal(buf, "worker 0: 1,000,000 flows: client 1,250,000 + server 1,250,000 "
				 "entries, table 2,500,000 entries, 216.6 MiB, heap");
}

/* stats --json's target_held_s: the time since active came within 0.1 %
 * of the target, back to 0 when it falls below or there is none */
static void test_hold(void **state)
{
	struct stats_hold h = {0};
	const uint64_t hz = 1000;

	(void)state;
	assert_true(stats_hold_update(&h, 0, 5, 100, hz) == 0);
	assert_true(stats_hold_update(&h, 1000000, 998999, 200, hz) == 0); /* 0.1001 % short */
	assert_true(stats_hold_update(&h, 1000000, 999000, 300, hz) == 0); /* within: from now */
	assert_true(fabs(stats_hold_update(&h, 1000000, 1000000, 10300, hz) - 10.0) < 1e-9);
	assert_true(fabs(stats_hold_update(&h, 1000000, 999500, 12300, hz) - 12.0) < 1e-9);
	assert_true(stats_hold_update(&h, 1000000, 900000, 12400, hz) == 0);
	assert_true(stats_hold_update(&h, 1000000, 1000000, 12500, hz) == 0);
	assert_true(fabs(stats_hold_update(&h, 1000000, 1000000, 13500, hz) - 1.0) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rate_times_life), cmocka_unit_test(test_floors),
	    cmocka_unit_test(test_active_and_unpaced), cmocka_unit_test(test_table_bound),
	    cmocka_unit_test(test_place), cmocka_unit_test(test_meminfo),
	    cmocka_unit_test(test_line), cmocka_unit_test(test_hold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
