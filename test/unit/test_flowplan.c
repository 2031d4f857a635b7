/*
 * test_flowplan.c — the flow tables of a run, planned before it starts
 * (flowplan.h): the need (the DUT answering: rate x the program's delays
 * and FLOWPLAN_REPLY_S) and the want (the DUT answering nothing: rate x
 * the whole lifetime) for given profiles, with caps, -d, --active and the
 * unpaced default; the table taken, max(need, min(want, default)), its
 * margin and its bytes through the table's own layout; the refusals, on
 * the need alone (a table beyond what a table holds or beyond an explicit
 * flows_max, compared without the margin's minimum; tables beyond the
 * machine's memory after the worst cases are cut to the need), each
 * naming what is needed and what there is, in flows and bytes; update
 * -m's need against the table built; and the reading of /proc/meminfo.
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

/* one template at cps a second whose programs' delays take prog_s and
 * whose flows live life_s at most (timeout + prog_s); UDP entries (24 B
 * of state); no flows_max (the default table is FLOWPLAN_UNPACED_DEFAULT) */
static struct flowplan_in one(double cps, double prog_s, double life_s)
{
	struct flowplan_in in;

	memset(&in, 0, sizeof(in));
	in.ntpl = 1;
	in.gen = true;
	in.state = 24;
	in.deflt = FLOWPLAN_UNPACED_DEFAULT;
	in.tpl[0].cps = cps;
	in.tpl[0].prog_s = prog_s;
	in.tpl[0].life_s = life_s;
	return in;
}

/* the bytes of a table of n entries with its wheel */
static uint64_t tab_bytes(uint64_t n, uint32_t wheel)
{
	struct flowtab_params fp = {.entry_size = 24, .tick_tsc = 2};

	fp.max_flows = (uint32_t)n;
	fp.wheel_slots = wheel;
	return flowtab_mem_size(&fp);
}

/* udp_short-like (no delays, timeout 3 s) at 10,000 flows/s: need 1,000
 * (0.1 s for the reply), want 30,000 (3 s each); the worst case fits the
 * default table, so it is the table: 65,544 entries (a margin of 16 x
 * sqrt(30,000) = 2,772 a side, less than the 25 % of 7,500) */
static void test_need_and_want(void **state)
{
	struct flowplan_in in = one(10000, 0, 3);
	struct flowplan_worker w;
	uint64_t need, want;
	char err[256];

	(void)state;
	flowplan_flows(&in, 1.0, &need, &want);
	assert_int_equal(need, 1000);
	assert_int_equal(want, 30000);
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.need, 1000);
	assert_int_equal(w.want, 30000);
	assert_int_equal(w.need_entries, 2 * (1000 + FLOWPLAN_MARGIN_MIN));
	assert_int_equal(w.want_entries, 65544);
	assert_int_equal(w.entries, 65544);
	assert_int_equal(w.wheel, 4096); /* 65,544 / 256 slots, at least 4,096 */
	assert_int_equal(w.bytes, tab_bytes(65544, 4096));
	assert_int_equal(w.need_table, FLOWPLAN_MIN_ENTRIES);
	/* the program's delays count in the need: 2 s of them and the reply */
	in = one(1000, 2, 7);
	flowplan_flows(&in, 1.0, &need, &want);
	assert_int_equal(need, 2100);
	assert_int_equal(want, 7000);
	/* update -m x2 doubles both */
	flowplan_flows(&in, 2.0, &need, &want);
	assert_int_equal(need, 4200);
	assert_int_equal(want, 14000);
	/* a run of -d 1.5 starts no more than 1,500: both are cut to that */
	in.duration_s = 1.5;
	flowplan_flows(&in, 1.0, &need, &want);
	assert_int_equal(need, 1500);
	assert_int_equal(want, 1500);
	in.duration_s = 0;
	/* two templates add up; a climit caps its own in both */
	in.ntpl = 2;
	in.tpl[1] = (struct flowplan_tpl){.cps = 100, .prog_s = 10, .life_s = 60, .climit = 50};
	flowplan_flows(&in, 1.0, &need, &want);
	assert_int_equal(need, 2150);
	assert_int_equal(want, 7050);
	/* a limit caps too: never more flows than it lets start */
	in.tpl[1] = (struct flowplan_tpl){.cps = 100, .prog_s = 10, .life_s = 60, .limit = 500};
	flowplan_flows(&in, 1.0, &need, &want);
	assert_int_equal(need, 2600);
	assert_int_equal(want, 7500);
	/* a timeout shorter than the reply's allowance: the need is the life */
	in = one(1000, 0, 0.05);
	flowplan_flows(&in, 1.0, &need, &want);
	assert_int_equal(need, 50);
	assert_int_equal(want, 50);
}

/* the three regimes of entries = max(need, min(want, default)) */
static void test_default(void **state)
{
	struct flowplan_in in;
	struct flowplan_worker w;
	char err[256];

	(void)state;
	/* the worst case beyond the default, the need within: the default
	 * (1,000,000 flows/s of 3 s: need 100,000, want 3,000,000) */
	in = one(1000000, 0, 3);
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.need_entries, 210120); /* 100,000 + 16 x 316.2 a side */
	assert_int_equal(w.want_entries, 6055426);
	assert_int_equal(w.entries, FLOWPLAN_UNPACED_DEFAULT);
	assert_int_equal(w.need_table, 210120);
	/* the need beyond the default: the need (53_offer's 4x run at 14
	 * million flows/s: 1.4 million, its worst case 42 million) */
	in = one(14000000, 0, 3);
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.need, 1400000);
	assert_int_equal(w.want, 42000000);
	assert_int_equal(w.want_entries, 84207384); /* beyond what a table holds: not refused */
	assert_int_equal(w.entries, 2837864);
	assert_int_equal(w.entries, w.need_entries);
	assert_int_equal(w.wheel, 16384); /* 2,837,864 / 256 = 11,086: the next power of two */
	/* a config's flows_max is the default: a worst case within it is
	 * taken whole, one beyond it gets flows_max */
	in = one(10000, 0, 3);
	in.deflt = 100000;
	assert_int_equal(flowplan_worker(&in, 1.0, 100000, "flows_max", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, 65544);
	in.deflt = 50000;
	assert_int_equal(flowplan_worker(&in, 1.0, 50000, "flows_max", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, 50000);
	/* a flows_max larger than the old default sizes a larger worst case */
	in = one(1000000, 0, 3);
	in.deflt = 10000000;
	assert_int_equal(flowplan_worker(&in, 1.0, 10000000, "flows_max", &w, err, sizeof(err)),
			 0);
	assert_int_equal(w.entries, 6055426);
}

/* small counts: the margin is at least FLOWPLAN_MARGIN_MIN a side, and a
 * table at least FLOWPLAN_MIN_ENTRIES; a worker whose pair does not run
 * counts nothing */
static void test_floors(void **state)
{
	struct flowplan_in in = one(10, 0, 1);
	struct flowplan_worker w;
	char err[256];

	(void)state;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.need, 1);
	assert_int_equal(w.want, 10);
	assert_int_equal(w.need_entries, 2 * (1 + FLOWPLAN_MARGIN_MIN));
	assert_int_equal(w.want_entries, 2 * (10 + FLOWPLAN_MARGIN_MIN));
	assert_int_equal(w.entries, FLOWPLAN_MIN_ENTRIES);
	in.gen = false;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.need, 0);
	assert_int_equal(w.want, 0);
	assert_int_equal(w.entries, FLOWPLAN_MIN_ENTRIES);
}

/* --active counts as need in full (capped by what the rate reaches at the
 * flows' whole lifetime); unpaced (-m max) with --active holds it;
 * unpaced without caps gets the default table, its entries as they are */
static void test_active_and_unpaced(void **state)
{
	struct flowplan_in in = one(1, 0, 60);
	struct flowplan_worker w;
	uint64_t need, want;
	char err[256];

	(void)state;
	in.active = 1000000;
	/* 1 flow/s x 60 s: the rate never reaches the target */
	flowplan_flows(&in, 1.0, &need, &want);
	assert_int_equal(need, 60);
	assert_int_equal(want, 60);
	/* 100,000 flows/s of 60 s: 1,000,000 needed, not 100,000 x 0.1 s */
	in.tpl[0].cps = 100000;
	flowplan_flows(&in, 1.0, &need, &want);
	assert_int_equal(need, 1000000);
	in.tpl[0].cps = 1;
	in.unpaced = true;
	flowplan_flows(&in, 1.0, &need, &want);
	assert_int_equal(need, 1000000);
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	/* a margin of 16 x sqrt(1,000,000) = 16,000 a side, not 250,000 */
	assert_int_equal(w.need_entries, 2032000);
	assert_int_equal(w.entries, 2032000);
	assert_int_equal(w.wheel, 8192); /* a slot per 256 entries at least */
	in.active = 0;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, FLOWPLAN_UNPACED_DEFAULT);
	assert_int_equal(w.need, FLOWPLAN_UNPACED_DEFAULT / 2);
	in.deflt = 65536;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, 65536);
	/* unpaced with every template capped: the caps */
	in.tpl[0].climit = 500;
	flowplan_flows(&in, 1.0, &need, &want);
	assert_int_equal(need, 500);
	assert_int_equal(want, 500);
}

/* beyond a table: refused on the need alone, naming the entries needed,
 * the bound and what it holds */
static void test_table_bound(void **state)
{
	struct flowplan_in in = one(1, 0, 60);
	struct flowplan_worker w;
	char err[400];

	(void)state;
	in.unpaced = true;
	in.active = 500000000;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "the most a table holds", &w, err, sizeof(err)),
			 -ERANGE);
	/* 60 bytes an entry (52 of entry, 8 of index); the flows a full
	 * table holds: n + 16 sqrt(n) <= 33,554,432 a side */
	assert_non_null(strstr(err, "1,000,715,542 entries, 55.9 GiB, for its 500,000,000 concurrent flows"));
	assert_non_null(strstr(err, "the most a table holds is 67,108,864 entries"));
	assert_non_null(strstr(err, "about 33,461,878 flows"));
	/* a worst case beyond what a table holds is not refused when the
	 * need fits: 10 million flows/s of 30 s (want 300 million) */
	in = one(10000000, 0, 30);
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "the most a table holds", &w, err, sizeof(err)),
			 0);
	assert_int_equal(w.want, 300000000);
	assert_int_equal(w.entries, 2032000);
	/* an explicit flows_max bounds the table */
	in = one(1, 0, 60);
	in.unpaced = true;
	in.active = 600000;
	in.deflt = 1048576;
	assert_int_equal(flowplan_worker(&in, 1.0, 1048576, "flows_max", &w, err, sizeof(err)),
			 -ERANGE);
	assert_non_null(strstr(err, "1,224,788 entries, 70.1 MiB, for its 600,000 concurrent flows"));
	assert_non_null(strstr(err, "flows_max is 1,048,576 entries (60.0 MiB), about 512,830 flows"));
	in.deflt = 2000000;
	assert_int_equal(flowplan_worker(&in, 1.0, 2000000, "flows_max", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, 1224788);
	/* a small flows_max: its table, not the floor, for an unpaced run
	 * (test/data/flows_small_cfg.yaml's 1,000) */
	in.active = 0;
	in.deflt = 1000;
	assert_int_equal(flowplan_worker(&in, 1.0, 1000, "flows_max", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, 1000);
	/* paced: compared without the margin's minimum, so a small need fits
	 * a small flows_max, and the table is flows_max (67_fail_reasons'
	 * table_full: flows_max 100, 150 flows/s without delays for 2 s:
	 * need 15, 36 entries) */
	in = one(150, 0, 3);
	in.duration_s = 2;
	in.deflt = 100;
	assert_int_equal(flowplan_worker(&in, 1.0, 100, "flows_max", &w, err, sizeof(err)), 0);
	assert_int_equal(w.need, 15);
	assert_int_equal(w.need_entries, 36);
	assert_int_equal(w.want, 300);
	assert_int_equal(w.entries, 100);
	/* ... and its flows of 1.5 s of delay are refused: 300 of them
	 * (-d 1.5), 750 entries */
	in = one(200, 1.5, 4.5);
	in.duration_s = 1.5;
	in.deflt = 100;
	assert_int_equal(flowplan_worker(&in, 1.0, 100, "flows_max", &w, err, sizeof(err)), -ERANGE);
	assert_non_null(strstr(err, "would need 750 entries, "));
	assert_non_null(strstr(err, "for its 300 concurrent flows (when the DUT answers; both sides with their margin)"));
	assert_non_null(strstr(err, "flows_max is 100 entries"));
	/* 54_flows_limits: flows_max 1,000, 1,000 flows/s of 2 s of delay */
	in = one(1000, 2, 7);
	in.deflt = 1000;
	assert_int_equal(flowplan_worker(&in, 1.0, 1000, "flows_max", &w, err, sizeof(err)), -ERANGE);
	assert_non_null(strstr(err, "would need 5,250 entries, "));
	assert_non_null(strstr(err, "for its 2,100 concurrent flows"));
	assert_non_null(strstr(err, "flows_max is 1,000 entries (0.1 MiB), about 400 flows"));
}

/*
 * Templates whose server side takes no entry (flowplan_tpl.srv_free: a
 * UDP server that answers each request as it comes): their flows count
 * on the client side alone, beside others, under --active and in what a
 * bound holds.
 */
static void test_srv_free(void **state)
{
	struct flowplan_in in = one(10000, 0, 3);
	struct flowplan_worker w;
	char err[400];

	(void)state;
	in.tpl[0].srv_free = true;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.need, 1000);
	assert_int_equal(w.want, 30000);
	/* test_need_and_want's, one side: 1,000 and the margin's minimum;
	 * 30,000 and its 2,772 */
	assert_int_equal(w.need_entries, 1000 + FLOWPLAN_MARGIN_MIN);
	assert_int_equal(w.want_entries, 32772);
	assert_int_equal(w.entries, 32772);
	/* beside a template whose server takes an entry, only that one's
	 * flows count twice: need 1,000 + 2,100 flows, 2,100 of them on the
	 * server side too (4,124 + 3,124 entries); want 30,000 + 7,000, 7,000
	 * (40,078 + 8,339) */
	in.ntpl = 2;
	in.tpl[1] = (struct flowplan_tpl){.cps = 1000, .prog_s = 2, .life_s = 7};
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.need, 3100);
	assert_int_equal(w.need_entries, 7248);
	assert_int_equal(w.want_entries, 48417);
	/* --active 10,000 of the 37,000 the rates would hold: no more than
	 * the 7,000 the template with server entries holds take one
	 * (11,600 + 8,339 entries); 5,000: all of them might (2 x 6,132) */
	in.active = 10000;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.need, 10000);
	assert_int_equal(w.need_entries, 11600 + 8339);
	in.active = 5000;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.need_entries, 2 * 6132);
	/* beyond a table, what it holds is counted with one side: n + 16
	 * sqrt(n) <= 67,108,864 (test_table_bound's, both sides: 33,461,878) */
	in = one(1, 0, 60);
	in.tpl[0].srv_free = true;
	in.unpaced = true;
	in.active = 500000000;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "the most a table holds", &w, err, sizeof(err)),
			 -ERANGE);
	assert_non_null(strstr(err, "500,357,771 entries, "));
	assert_non_null(strstr(err, "about 66,977,919 flows"));
	/* an unpaced run's default table is the default either way */
	in.active = 0;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, FLOWPLAN_UNPACED_DEFAULT);
}

/* update -m: taken while the need at the new rate fits the table built */
static void test_update(void **state)
{
	struct flowplan_in in = one(1000, 0, 3);
	struct flowplan_worker w;
	char err[256];

	(void)state;
	/* 56_update: udp_short at 1,000 flows/s gets its worst case, 8,048
	 * entries; at 3,000 its need is 300 flows, 2,648 entries */
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, 8048);
	assert_int_equal(flowplan_update(&in, 3.0, 0, w.entries, 0, err, sizeof(err)), 0);
	assert_int_equal(flowplan_update(&in, 27.0, 0, w.entries, 0, err, sizeof(err)), 0);
	/* at 100 times the rate: 10,000 flows, 23,200 entries (a margin of
	 * 16 x 100 a side) */
	assert_int_equal(flowplan_update(&in, 100.0, 0, w.entries, 0, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "worker 0's table holds 8048 entries (sized at the start), the new "
				 "rate needs 23200 for 10000 concurrent flows: start again at that rate");
	/* 65: flows_long (2 s of delay) at 100 flows/s for 1 s: a 4,096-entry
	 * table; at 100,000 flows/s -d 1 lets 100,000 start */
	in = one(100, 2, 7);
	in.duration_s = 1;
	assert_int_equal(flowplan_worker(&in, 1.0, 0, "x", &w, err, sizeof(err)), 0);
	assert_int_equal(w.entries, 4096);
	assert_int_equal(flowplan_update(&in, 2.0, 0, w.entries, 0, err, sizeof(err)), 0);
	assert_int_equal(flowplan_update(&in, 1000.0, 0, w.entries, 1, err, sizeof(err)), -ERANGE);
	assert_non_null(strstr(err, "worker 1's table holds 4096 entries (sized at the start), the "
				    "new rate needs 210120 for 100000 concurrent flows"));
	/* under an explicit flows_max, without the margin's minimum: the
	 * start's own rate is always taken */
	in = one(200, 0, 3);
	in.deflt = 100;
	assert_int_equal(flowplan_worker(&in, 1.0, 100, "flows_max", &w, err, sizeof(err)), 0);
	assert_int_equal(flowplan_update(&in, 1.0, 100, w.entries, 0, err, sizeof(err)), 0);
	assert_int_equal(flowplan_update(&in, 2.0, 100, w.entries, 0, err, sizeof(err)), 0);
	assert_int_equal(flowplan_update(&in, 3.0, 100, w.entries, 0, err, sizeof(err)), -ERANGE);
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
		p.w[i].need = p.w[i].want = 1000000;
		p.w[i].entries = p.w[i].need_table = 2500000;
		p.w[i].bytes = p.w[i].need_bytes = 600ull << 20;
	}
	assert_int_equal(flowplan_place(&p, &m, err, sizeof(err)), 0);
	assert_true(p.w[0].huge);
	assert_false(p.w[1].huge); /* 1 GiB holds one table of 600 MiB */
	assert_false(p.w[2].huge);
	assert_false(p.cut);
	assert_int_equal(p.huge, 600ull << 20);
	assert_int_equal(p.heap, 1200ull << 20);
	assert_int_equal(p.need, 3000000);
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
	/* worst cases that do not fit are cut to the need: the run is not
	 * refused for what it only might meet */
	for (unsigned i = 0; i < 3; i++) {
		p.w[i].need = 100000;
		p.w[i].want = 3000000;
		p.w[i].need_table = 250000;
		p.w[i].need_bytes = 60ull << 20;
	}
	m = (struct flowplan_mem){.avail = 1 * GIB};
	assert_int_equal(flowplan_place(&p, &m, err, sizeof(err)), 0);
	assert_true(p.cut);
	assert_int_equal(p.w[0].entries, 250000);
	assert_int_equal(p.heap, 180ull << 20);
	assert_int_equal(p.entries, 750000);
	/* TCP's pool of tcbs is on the heap at most a slot an entry, beside
	 * a table in hugepages, and follows a table cut to its need */
	m = (struct flowplan_mem){.avail = 4 * GIB, .huge_free = 1 * GIB};
	for (unsigned i = 0; i < 3; i++) {
		p.w[i].entries = 2500000;
		p.w[i].bytes = 600ull << 20;
		p.w[i].pool = 64;
	}
	assert_int_equal(flowplan_place(&p, &m, err, sizeof(err)), 0);
	assert_false(p.cut);
	assert_true(p.w[0].huge);
	assert_int_equal(p.huge, 600ull << 20);
	assert_int_equal(p.heap, (1200ull << 20) + 3 * 2500000ull * 64);
	assert_int_equal(p.bytes, (1800ull << 20) + 3 * 2500000ull * 64);
	m.avail = 1 * GIB;
	assert_int_equal(flowplan_place(&p, &m, err, sizeof(err)), 0);
	assert_true(p.cut);
	assert_int_equal(p.huge, 180ull << 20); /* the tables cut fit */
	assert_int_equal(p.heap, 3 * 250000ull * 64);
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

/* the plan's line for -v: need, want, the table and its place */
static void test_line(void **state)
{
	struct flowplan p;
	char buf[256];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.nw = 1;
	p.w[0] = (struct flowplan_worker){.need = 100000, .want = 3000000, .need_entries = 250000,
					  .want_entries = 7500000, .entries = 1048576,
					  .bytes = 83902464, .huge = true};
	flowplan_line(&p, 0, buf, sizeof(buf));
	assert_string_equal(buf, "worker 0: need 100,000 flows (250,000 entries), want 3,000,000 "
				 "(7,500,000 entries): table 1,048,576 entries, 80.0 MiB, hugepages");
	p.cut = true;
	p.w[0].huge = false;
	flowplan_line(&p, 0, buf, sizeof(buf));
	assert_non_null(strstr(buf, "80.0 MiB, heap (cut to the need: memory)"));
	p.cut = false;
	p.w[0].pool = 64;
	flowplan_line(&p, 0, buf, sizeof(buf));
	assert_non_null(strstr(buf, "80.0 MiB, heap; TCBs at most 64.0 MiB, heap"));
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
	    cmocka_unit_test(test_need_and_want), cmocka_unit_test(test_default),
	    cmocka_unit_test(test_floors),	  cmocka_unit_test(test_active_and_unpaced),
	    cmocka_unit_test(test_table_bound),	  cmocka_unit_test(test_update),
	    cmocka_unit_test(test_place),	  cmocka_unit_test(test_meminfo),
	    cmocka_unit_test(test_line), cmocka_unit_test(test_hold),
	    cmocka_unit_test(test_srv_free),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
