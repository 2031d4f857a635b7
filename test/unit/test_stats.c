/*
 * test_stats.c — statistics aggregation, baseline, rates and output.
 *
 * Writer threads hammer their own counter blocks with FG_CTR_ADD while
 * readers (a direct stats_sum loop and the sampler thread behind
 * stats_get) aggregate: sums must stay monotonic and the final totals be
 * exact. The pure stats_compute is checked against hand-computed rates and
 * baselines, and the JSON is parsed back to check every field that
 * flowgen(8), STATISTICS, lists.
 *
 * Thread sanitizer run (also test/unit/tsan.sh):
 *   clang -std=gnu11 -g -O1 -fsanitize=thread -Iinclude \
 *     $(pkg-config --cflags libdpdk) -o build/tsan/test_stats \
 *     test/unit/test_stats.c src/control/stats.c src/control/stats_json.c \
 *     src/control/stats_fmt.c src/core/stats_snap.c \
 *     src/control/log.c \
 *     $(pkg-config --libs libdpdk) -lcmocka -lpthread -lm
 *   ./build/tsan/test_stats
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <rte_cycles.h>

#include "fails.h"
#include "lat.h"
#include "nud.h"
#include "stats.h"

#define NW 4
#define NP 2
#define ITERS 2000000
#define HZ 1000000000ULL /* a made-up TSC frequency for pure tests */

static struct ctr_worker workers[NW];
static int writers_done;

static void *writer(void *arg)
{
	struct ctr_worker *w = arg;

	for (int i = 0; i < ITERS; i++) {
		int p = i & 1;

		FG_CTR_INC(w->port[p].tx_pkts);
		FG_CTR_ADD(w->port[p].tx_bytes, 60);
		FG_CTR_INC(w->port[p ^ 1].rx_pkts);
		FG_CTR_INC(w->tpl[i % 3].client.started);
		FG_CTR_INC(w->loop_tsc);
		if (i % 4 == 0)
			FG_CTR_INC(w->busy_tsc);
		FG_CTR_SET(w->gauge.active_client, (uint64_t)(i % 100));
	}
	__atomic_add_fetch(&writers_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void test_concurrent_sum(void **state)
{
	pthread_t t[NW];
	struct stats_raw prev, cur;
	struct stats_snap *snap = calloc(1, sizeof(*snap));
	uint64_t last_started = 0, last_tx = 0;
	int loops = 0;

	(void)state;
	assert_non_null(snap);
	memset(workers, 0, sizeof(workers));
	writers_done = 0;
	assert_int_equal(stats_init(workers, NW, NP, HZ), 0);
	stats_start();
	memset(&prev, 0, sizeof(prev));
	for (int i = 0; i < NW; i++)
		assert_int_equal(pthread_create(&t[i], NULL, writer, &workers[i]), 0);
	while (__atomic_load_n(&writers_done, __ATOMIC_ACQUIRE) < NW) {
		stats_sum(workers, NW, NP, &cur);
		for (int p = 0; p < NP; p++) {
			assert_true(cur.port[p].tx_pkts >= prev.port[p].tx_pkts);
			assert_true(cur.port[p].tx_bytes >= prev.port[p].tx_bytes);
			assert_true(cur.port[p].rx_pkts >= prev.port[p].rx_pkts);
		}
		assert_true(cur.client.started >= prev.client.started);
		assert_true(cur.loop_tsc >= prev.loop_tsc);
		prev = cur;
		/* the sampler path too: stats_get from another thread */
		stats_get(snap);
		assert_true(snap->flows.client.started >= last_started);
		last_started = snap->flows.client.started;
		assert_true(snap->g.tx_pkts >= last_tx || snap->port[0].from_nic);
		last_tx = snap->g.tx_pkts;
		loops++;
	}
	for (int i = 0; i < NW; i++)
		pthread_join(t[i], NULL);
	stats_sum(workers, NW, NP, &cur);
	for (int p = 0; p < NP; p++) {
		assert_int_equal(cur.port[p].tx_pkts, NW * ITERS / 2);
		assert_int_equal(cur.port[p].tx_bytes, 60ULL * NW * ITERS / 2);
		assert_int_equal(cur.port[p].rx_pkts, NW * ITERS / 2);
	}
	assert_int_equal(cur.client.started, (uint64_t)NW * ITERS);
	assert_int_equal(cur.loop_tsc, (uint64_t)NW * ITERS);
	assert_int_equal(cur.busy_tsc, (uint64_t)NW * ITERS / 4);
	/* the gauge is the sum of each worker's last value */
	assert_int_equal(cur.gauge.active_client, NW * ((ITERS - 1) % 100));
	stats_stop();
	stats_get(snap);
	assert_int_equal(snap->flows.client.started, (uint64_t)NW * ITERS);
	assert_int_equal(snap->g.active_flows, NW * ((ITERS - 1) % 100));
	assert_true(loops > 0);
	free(snap);
}

static void test_sum_ignores_ports_beyond_n(void **state)
{
	struct ctr_worker w[2];
	struct stats_raw r;

	(void)state;
	memset(w, 0, sizeof(w));
	w[0].port[0].tx_pkts = 3;
	w[1].port[0].tx_pkts = 4;
	w[1].port[1].tx_pkts = 9;
	w[1].port[2].tx_pkts = 100; /* port 2 does not exist */
	w[0].tpl[0].server.translated = 5;
	w[1].tpl[5].server.translated = 6;
	stats_sum(w, 2, 2, &r);
	assert_int_equal(r.port[0].tx_pkts, 7);
	assert_int_equal(r.port[1].tx_pkts, 9);
	assert_int_equal(r.port[2].tx_pkts, 0);
	assert_int_equal(r.server.translated, 11);
	assert_false(r.nic_ok[0]);
}

/* The flows totals are the templates' blocks summed (ctr.h), and late the workers'. */
static void test_sum_templates(void **state)
{
	static struct ctr_worker w[2];
	static struct stats_raw r;

	(void)state;
	memset(w, 0, sizeof(w));
	w[0].tpl[0].client.started = 10;
	w[1].tpl[0].client.started = 5;
	w[0].tpl[2].client.started = 7;
	w[1].tpl[FG_PROF_MAX_TEMPLATES - 1].client.completed = 4;
	w[0].tpl[2].client.fail[FG_FAIL_RETX] = 3;
	w[1].tpl[2].server.fail[FG_FAIL_TIMEOUT] = 4;
	w[0].tpl[2].server.accepted = 3;
	w[1].tpl[1].server.retx = 2;
	w[0].tpl[2].active_client = 6;
	w[1].tpl[2].active_client = 1;
	w[1].tpl[1].active_server = 9;
	w[0].late = 8;
	w[1].late = 1;
	stats_sum(w, 2, 2, &r);
	assert_int_equal(r.tpl[0].client.started, 15);
	assert_int_equal(r.tpl[2].client.started, 7);
	assert_int_equal(r.client.started, 22);
	assert_int_equal(r.tpl[FG_PROF_MAX_TEMPLATES - 1].client.completed, 4);
	assert_int_equal(r.client.completed, 4);
	assert_int_equal(r.client.fail[FG_FAIL_RETX], 3);
	assert_int_equal(r.server.fail[FG_FAIL_TIMEOUT], 4);
	assert_int_equal(r.tpl[2].server.fail[FG_FAIL_TIMEOUT], 4);
	assert_int_equal(r.server.accepted, 3);
	assert_int_equal(r.server.retx, 2);
	assert_int_equal(r.tpl[2].active_client, 7);
	assert_int_equal(r.tpl[1].active_server, 9);
	assert_int_equal(r.client.late, 9);
	assert_int_equal(r.tpl[0].client.late, 0);
	/* a block beyond nworkers is not read */
	stats_sum(w, 1, 2, &r);
	assert_int_equal(r.client.started, 17);
	assert_int_equal(r.client.late, 8);
	assert_int_equal(r.server.retx, 0);
}

/* Three templates in two groups: web = {a, b}, c alone; template 5 in none. */
static void fill_map(struct stats_tpl_map *m)
{
	memset(m, 0, sizeof(*m));
	m->ntpl = 3;
	m->ngroups = 2;
	m->group[0] = 0;
	m->group[1] = 1;
	m->group[2] = 0;
	strcpy(m->tpl[0], "a");
	strcpy(m->tpl[1], "c");
	strcpy(m->tpl[2], "b");
	strcpy(m->name[0], "web");
	strcpy(m->name[1], "c");
}

/* The raw samples of test_groups: now, two seconds after prev; base cleared. */
static void fill_group_raws(struct stats_raw *prev, struct stats_raw *now, struct stats_raw *base)
{
	memset(prev, 0, sizeof(*prev));
	memset(now, 0, sizeof(*now));
	memset(base, 0, sizeof(*base));
	now->tpl[0].client.started = 100;
	now->tpl[2].client.started = 50;
	now->tpl[1].client.started = 300;
	now->tpl[0].client.completed = 90;
	now->tpl[2].client.completed = 40;
	now->tpl[1].client.completed = 290;
	now->tpl[0].server.translated = 80;
	now->tpl[2].server.untranslated = 5;
	now->tpl[0].active_client = 3;
	now->tpl[2].active_client = 4;
	now->tpl[1].active_server = 9;
	now->tpl[5].client.started = 1000; /* a template of no group */
	prev->tpl[0].client.started = 60;
	prev->tpl[2].client.started = 30;
	prev->tpl[1].client.started = 100;
	prev->tpl[0].client.completed = 50;
	base->tpl[0].client.started = 20;
	base->tpl[2].client.started = 10;
	base->tpl[0].active_client = 99; /* gauges are never baselined */
}

/* The targets the run holds (start --active, a group's climits) reach the
 * snapshot as they were set, whatever the counters; none is 0. */
static void test_targets(void **state)
{
	static struct stats_raw prev, now, base;
	static struct stats_snap s;
	struct stats_tpl_map m;

	(void)state;
	fill_map(&m);
	fill_group_raws(&prev, &now, &base);
	m.active_target = 20000;
	m.climit[1] = 50;
	stats_groups(&now, &prev, &base, 2.0, &m, &s);
	assert_int_equal(s.flows.active_target, 20000);
	assert_int_equal(s.grp[0].active_target, 0);
	assert_int_equal(s.grp[1].active_target, 50);
	assert_int_equal(s.grp[1].active_server, 9); /* the gauges beside them */
	m.active_target = 0;
	m.climit[1] = 0;
	stats_groups(&now, &prev, &base, 2.0, &m, &s);
	assert_int_equal(s.flows.active_target, 0);
	assert_int_equal(s.grp[1].active_target, 0);
}

static void test_groups(void **state)
{
	static struct stats_raw prev, now, base;
	static struct stats_snap s;
	struct stats_tpl_map m;

	(void)state;
	fill_map(&m);
	fill_group_raws(&prev, &now, &base);
	stats_groups(&now, &prev, &base, 2.0, &m, &s);
	assert_int_equal(s.map.ngroups, 2);
	assert_string_equal(s.map.name[0], "web");
	assert_int_equal(s.grp[0].client.started, 80 + 40);
	assert_int_equal(s.grp[0].client.completed, 90 + 40);
	assert_int_equal(s.grp[0].server.translated, 80);
	assert_int_equal(s.grp[0].server.untranslated, 5);
	assert_int_equal(s.grp[0].active_client, 7);
	assert_true(fabs(s.grp[0].cps - (40 + 20) / 2.0) < 1e-9);
	assert_true(fabs(s.grp[0].completed_cps - (40 + 40) / 2.0) < 1e-9);
	assert_int_equal(s.grp[1].client.started, 300);
	assert_int_equal(s.grp[1].client.completed, 290);
	assert_int_equal(s.grp[1].active_server, 9);
	assert_true(fabs(s.grp[1].cps - 100) < 1e-9);
	/* the groups' started add up to every template's of the map */
	assert_int_equal(s.grp[0].client.started + s.grp[1].client.started, 420);
	assert_int_equal(s.grp[2].client.started, 0);

	/* no earlier sample, no baseline: counters as they are, no rates */
	stats_groups(&now, NULL, NULL, 0, &m, &s);
	assert_int_equal(s.grp[0].client.started, 150);
	assert_true(s.grp[0].cps == 0 && s.grp[1].completed_cps == 0);
	/* an interval of 0 with a sample: no rates either */
	stats_groups(&now, &prev, NULL, 0, &m, &s);
	assert_true(s.grp[1].cps == 0);

	/* a group index beyond ngroups is in no group */
	m.group[1] = 7;
	stats_groups(&now, NULL, NULL, 0, &m, &s);
	assert_int_equal(s.grp[1].client.started, 0);
	assert_int_equal(s.grp[0].client.started, 150);
	/* counts out of range are clipped */
	m.ntpl = 1000;
	m.ngroups = 1000;
	stats_groups(&now, NULL, NULL, 0, &m, &s);
	assert_int_equal(s.map.ntpl, FG_PROF_MAX_TEMPLATES);
	assert_int_equal(s.map.ngroups, FG_PROF_MAX_TEMPLATES);
	m.ntpl = -1;
	stats_groups(&now, NULL, NULL, 0, &m, &s);
	assert_int_equal(s.map.ngroups, 0);
	assert_int_equal(s.grp[0].client.started, 0);
}

static void test_baseline(void **state)
{
	struct stats_raw now, base;
	struct stats_snap s;

	(void)state;
	memset(&now, 0, sizeof(now));
	memset(&base, 0, sizeof(base));
	now.port[0].tx_pkts = 1000;
	now.port[0].tx_bytes = 60000;
	now.port[0].tx_queue_full = 7;
	now.client.started = 50;
	now.client.fail[FG_FAIL_RESET] = 3;
	now.server.fail[FG_FAIL_PAYLOAD] = 5;
	now.server.translated = 40;
	now.gauge.active_client = 12;
	base.port[0].tx_pkts = 400;
	base.port[0].tx_bytes = 24000;
	base.port[0].tx_queue_full = 2;
	base.client.started = 20;
	base.client.fail[FG_FAIL_RESET] = 3;
	base.server.fail[FG_FAIL_PAYLOAD] = 1;
	base.server.translated = 10;
	base.gauge.active_client = 99; /* gauges are never baselined */
	/* NIC of port 1 counts; its counter went back (port reset) */
	now.nic_ok[1] = base.nic_ok[1] = true;
	now.nic[1].ipackets = 500;
	now.nic[1].ibytes = 30000;
	base.nic[1].ipackets = 100;
	base.nic[1].ibytes = 6000;
	now.nic[1].imissed = 5;
	base.nic[1].imissed = 8;
	now.nic[1].oerrors = 9;

	stats_compute(&now, NULL, &base, HZ, 2, NULL, NULL, &s);
	assert_int_equal(s.port[0].tx_pkts, 600);
	assert_int_equal(s.port[0].tx_bytes, 36000);
	assert_int_equal(s.port[0].tx_queue_full, 5);
	assert_false(s.port[0].from_nic);
	assert_true(s.port[1].from_nic);
	assert_int_equal(s.port[1].rx_pkts, 400);
	assert_int_equal(s.port[1].imissed, 0); /* clipped, not 2^64 - 3 */
	assert_int_equal(s.port[1].oerrors, 9);
	assert_int_equal(s.total.tx_pkts, 600);
	assert_int_equal(s.g.rx_pkts, 400);
	assert_int_equal(s.g.queue_full, 5);
	assert_int_equal(s.flows.client.started, 30);
	assert_int_equal(s.flows.client.fail[FG_FAIL_RESET], 0);
	assert_int_equal(s.flows.server.fail[FG_FAIL_PAYLOAD], 4);
	assert_int_equal(s.flows.server.translated, 30);
	assert_int_equal(s.flows.active_client, 12);
	assert_int_equal(s.g.active_flows, 12);
	/* no previous sample: no rates */
	assert_true(s.g.tx_pps == 0 && s.interval == 0);

	/* without a baseline the raw counters show */
	stats_compute(&now, NULL, NULL, HZ, 2, NULL, NULL, &s);
	assert_int_equal(s.port[0].tx_pkts, 1000);
	assert_int_equal(s.flows.client.started, 50);
}

static void test_rates(void **state)
{
	struct stats_raw prev, now;
	struct stats_snap s;
	bool up[2] = {true, false};
	uint32_t speed[2] = {1000, 10000};

	(void)state;
	memset(&prev, 0, sizeof(prev));
	memset(&now, 0, sizeof(now));
	prev.tsc = 5 * HZ;
	now.tsc = 7 * HZ; /* two seconds later */
	prev.port[0].tx_pkts = 100;
	now.port[0].tx_pkts = 2100;    /* 1000 pps */
	now.port[0].tx_bytes = 120000; /* 60 B frames, 64 with the FCS */
	now.port[1].rx_pkts = 1500;    /* 750 pps */
	now.port[1].rx_bytes = 90000;
	prev.client.started = 10;
	now.client.started = 410; /* 200 cps */
	prev.loop_tsc = 1000;
	now.loop_tsc = 3000;
	prev.busy_tsc = 100;
	now.busy_tsc = 600; /* 25 % */
	now.gauge.active_client = 30;
	now.gauge.active_server = 31;

	stats_compute(&now, &prev, NULL, HZ, 2, up, speed, &s);
	assert_true(fabs(s.interval - 2.0) < 1e-9);
	assert_true(fabs(s.port[0].tx_pps - 1000) < 1e-6);
	/* (60000 B/s + 4 B FCS x 1000 pps) x 8 */
	assert_true(fabs(s.port[0].tx_bps - 512000) < 1e-6);
	assert_true(fabs(s.port[0].tx_bps_l1 - 672000) < 1e-6);
	assert_true(fabs(s.port[0].line_util - 0.0672) < 1e-9);
	assert_true(s.port[0].link_up);
	assert_false(s.port[1].link_up);
	assert_true(fabs(s.port[1].rx_pps - 750) < 1e-6);
	assert_true(fabs(s.port[1].rx_bps - (45000 + 3000) * 8) < 1e-6);
	assert_true(fabs(s.g.tx_pps - 1000) < 1e-6);
	assert_true(fabs(s.g.rx_pps - 750) < 1e-6);
	assert_true(fabs(s.g.drop_rate - 250) < 1e-6);
	assert_true(fabs(s.g.cpu_util - 25) < 1e-9);
	assert_true(fabs(s.g.cps - 200) < 1e-9);
	assert_true(fabs(s.flows.cps - 200) < 1e-9);
	assert_int_equal(s.g.active_flows, 31);
	/* total line util over the summed speed: 672000 / 11e9 */
	assert_true(fabs(s.total.line_util - 672000 / 11e9 * 100) < 1e-12);
	/* counters show totals, rates show only the interval */
	assert_int_equal(s.g.tx_pkts, 2100);

	/* more received than sent: no negative drop rate */
	now.port[1].rx_pkts = 9000;
	stats_compute(&now, &prev, NULL, HZ, 2, up, speed, &s);
	assert_true(s.g.drop_rate == 0);

	/* same timestamp: no interval, no rates, no division by zero */
	prev.tsc = now.tsc;
	stats_compute(&now, &prev, NULL, HZ, 2, up, speed, &s);
	assert_true(s.g.tx_pps == 0 && s.g.cpu_util == 0 && s.interval == 0);
}

/* Each worker apart: its own sums, baseline, CPU share and the busiest. */
static void test_workers(void **state)
{
	static struct ctr_worker w[3];
	static struct stats_raw prev, now, base;
	static struct stats_snap s;

	(void)state;
	memset(w, 0, sizeof(w));
	/* worker 0 serves ports 0 and 1, worker 1 too, worker 2 ports 2 and 3 */
	w[0].port[0].tx_pkts = 100;
	w[0].port[1].tx_pkts = 50;
	w[0].port[1].rx_pkts = 140;
	w[1].port[0].rx_pkts = 7;
	w[1].redirected = 9;
	w[2].port[3].tx_pkts = 1000; /* port 3 beyond nports 3: not counted */
	w[2].port[2].rx_pkts = 30;
	w[0].loop_tsc = 1000, w[0].busy_tsc = 100;
	w[1].loop_tsc = 1000, w[1].busy_tsc = 900;
	w[2].loop_tsc = 1000, w[2].busy_tsc = 0;
	w[0].gauge.active_client = 5, w[0].gauge.active_server = 8;
	w[1].gauge.active_client = 3;
	/* worker 1 stalled twice before the baseline: 2 ms and 30 ms */
	w[1].stalls = 2, w[1].stall_tsc = 32 * HZ / 1000, w[1].stall_late_tsc = 10 * HZ / 1000;
	w[1].stall_max_tsc = 30 * HZ / 1000;
	stats_sum(w, 3, 3, &prev);
	prev.tsc = HZ;
	assert_int_equal(prev.nworkers, 3);
	assert_int_equal(prev.w[0].tx_pkts, 150);
	assert_int_equal(prev.w[0].rx_pkts, 140);
	assert_int_equal(prev.w[1].redirected, 9);
	assert_int_equal(prev.w[2].tx_pkts, 0);
	assert_int_equal(prev.w[2].rx_pkts, 30);
	/* the global figures are the workers' sums as before */
	assert_int_equal(prev.port[0].tx_pkts + prev.port[1].tx_pkts,
			 prev.w[0].tx_pkts + prev.w[1].tx_pkts + prev.w[2].tx_pkts);

	base = prev;
	/* one second on: worker 0 40 % busy, worker 1 93.1 %, worker 2 idle */
	w[0].port[0].tx_pkts += 1000;
	w[1].port[0].rx_pkts += 500;
	w[1].redirected += 11;
	w[0].loop_tsc += 10000, w[0].busy_tsc += 4000;
	w[1].loop_tsc += 10000, w[1].busy_tsc += 9310;
	w[2].loop_tsc += 10000;
	/* ... and once after it: 100 ms, 80 beyond the bound */
	w[1].stalls += 1, w[1].stall_tsc += 100 * HZ / 1000, w[1].stall_late_tsc += 80 * HZ / 1000;
	w[1].stall_max_tsc = 100 * HZ / 1000;
	/* start --at: worker 1 held at real-time priority, worker 2 not */
	w[1].at_rt = 1, w[2].at_rt = 2;
	stats_sum(w, 3, 3, &now);
	now.tsc = 2 * HZ;
	stats_compute(&now, &prev, &base, HZ, 3, NULL, NULL, &s);
	assert_int_equal(s.nworkers, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(s.w[i].id, i);
	assert_int_equal(s.w[0].tx_pkts, 1000);
	assert_int_equal(s.w[0].rx_pkts, 0);
	assert_int_equal(s.w[1].rx_pkts, 500);
	assert_int_equal(s.w[1].redirected, 11);
	assert_int_equal(s.w[0].active_flows, 8);
	assert_int_equal(s.w[1].active_flows, 3);
	assert_true(fabs(s.w[0].cpu_util - 40) < 1e-9);
	assert_true(fabs(s.w[1].cpu_util - 93.1) < 1e-9);
	assert_true(s.w[2].cpu_util == 0);
	assert_true(fabs(s.g.cpu_util_max - 93.1) < 1e-9);
	/* the global share is time-weighted over all loops: 13310 / 30000 */
	assert_true(fabs(s.g.cpu_util - 100.0 * 13310 / 30000) < 1e-9);
	/* stalls and their times from the baseline on; the longest as is */
	assert_int_equal(s.w[1].stalls, 1);
	assert_true(fabs(s.w[1].stalled_ms - 100) < 1e-9);
	assert_true(fabs(s.w[1].stall_late_ms - 80) < 1e-9);
	assert_true(fabs(s.w[1].stall_max_ms - 100) < 1e-9);
	assert_true(s.w[0].stalls == 0 && s.w[0].stalled_ms == 0 && s.w[0].stall_max_ms == 0);
	/* how each held, as the worker set it, not baselined */
	assert_int_equal(s.w[0].at_rt, 0);
	assert_int_equal(s.w[1].at_rt, 1);
	assert_int_equal(s.w[2].at_rt, 2);

	/* no earlier sample: counters, no shares */
	stats_compute(&now, NULL, NULL, HZ, 3, NULL, NULL, &s);
	assert_int_equal(s.w[0].tx_pkts, 1150);
	assert_true(s.w[1].cpu_util == 0 && s.g.cpu_util_max == 0);

	/* a loop counter that went back (a new worker block): no share above 100 */
	prev.w[1].loop_tsc = now.w[1].loop_tsc;
	stats_compute(&now, &prev, NULL, HZ, 3, NULL, NULL, &s);
	assert_true(s.w[1].cpu_util == 0);
}

static void test_nic_preferred_when_counting(void **state)
{
	struct stats_raw prev, now;
	struct stats_snap s;

	(void)state;
	memset(&prev, 0, sizeof(prev));
	memset(&now, 0, sizeof(now));
	prev.tsc = 0;
	now.tsc = HZ;
	/* port 0: NIC answers but keeps no counters: workers' counters */
	now.nic_ok[0] = prev.nic_ok[0] = true;
	now.port[0].tx_pkts = 10;
	now.port[0].tx_bytes = 600;
	/* port 1: NIC counts, workers say something else: the NIC wins */
	now.nic_ok[1] = prev.nic_ok[1] = true;
	now.nic[1].opackets = 77;
	now.nic[1].obytes = 7700;
	now.port[1].tx_pkts = 80;
	stats_compute(&now, &prev, NULL, HZ, 2, NULL, NULL, &s);
	assert_false(s.port[0].from_nic);
	assert_int_equal(s.port[0].tx_pkts, 10);
	assert_true(fabs(s.port[0].tx_pps - 10) < 1e-9);
	assert_true(s.port[1].from_nic);
	assert_int_equal(s.port[1].tx_pkts, 77);
	assert_int_equal(s.port[1].tx_bytes, 7700);
	assert_true(fabs(s.port[1].tx_pps - 77) < 1e-9);
	assert_int_equal(s.g.tx_pkts, 87);

	/* port 1 counting frames but not bytes (net_ring): the workers' */
	now.nic[1].obytes = 0;
	now.port[1].tx_bytes = 4800;
	stats_compute(&now, &prev, NULL, HZ, 2, NULL, NULL, &s);
	assert_false(s.port[1].from_nic);
	assert_int_equal(s.port[1].tx_pkts, 80);
	assert_int_equal(s.port[1].tx_bytes, 4800);
}

/* ---- a small JSON parser: validates and collects key paths ------------ */

#define MAXKEYS 512

struct jp {
	const char *p;
	char keys[MAXKEYS][64];
	int nkeys;
	int objects_at_top;
};

static void jp_ws(struct jp *j)
{
	while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')
		j->p++;
}

static int jp_value(struct jp *j, const char *path);

static int jp_string(struct jp *j, char *out, size_t len)
{
	size_t n = 0;

	if (*j->p != '"')
		return -1;
	j->p++;
	while (*j->p && *j->p != '"') {
		char c = *j->p++;

		if ((unsigned char)c < 0x20)
			return -1;
		if (c == '\\') {
			c = *j->p++;
			if (c == 'u') {
				for (int i = 0; i < 4; i++)
					if (!isxdigit((unsigned char)*j->p++))
						return -1;
				c = '?';
			} else if (!strchr("\"\\/bfnrt", c) || !c) {
				return -1;
			}
		}
		if (out && n + 1 < len)
			out[n++] = c;
	}
	if (*j->p != '"')
		return -1;
	j->p++;
	if (out)
		out[n] = '\0';
	return 0;
}

static int jp_number(struct jp *j)
{
	const char *s = j->p;

	if (*j->p == '-')
		j->p++;
	if (!isdigit((unsigned char)*j->p))
		return -1;
	while (isdigit((unsigned char)*j->p))
		j->p++;
	if (*j->p == '.') {
		j->p++;
		if (!isdigit((unsigned char)*j->p))
			return -1;
		while (isdigit((unsigned char)*j->p))
			j->p++;
	}
	if (*j->p == 'e' || *j->p == 'E') {
		j->p++;
		if (*j->p == '+' || *j->p == '-')
			j->p++;
		if (!isdigit((unsigned char)*j->p))
			return -1;
		while (isdigit((unsigned char)*j->p))
			j->p++;
	}
	return j->p > s ? 0 : -1;
}

static void jp_key(struct jp *j, const char *path)
{
	for (int i = 0; i < j->nkeys; i++)
		if (!strcmp(j->keys[i], path))
			return;
	if (j->nkeys < MAXKEYS)
		snprintf(j->keys[j->nkeys++], sizeof(j->keys[0]), "%s", path);
}

static int jp_value(struct jp *j, const char *path)
{
	char key[64], sub[64];

	jp_ws(j);
	if (*j->p == '{') {
		j->p++;
		jp_ws(j);
		if (*j->p == '}') {
			j->p++;
			return 0;
		}
		for (;;) {
			jp_ws(j);
			if (jp_string(j, key, sizeof(key)))
				return -1;
			if (snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", key) >=
			    (int)sizeof(sub))
				return -1;
			jp_key(j, sub);
			jp_ws(j);
			if (*j->p++ != ':')
				return -1;
			if (jp_value(j, sub))
				return -1;
			jp_ws(j);
			if (*j->p == ',') {
				j->p++;
				continue;
			}
			if (*j->p++ != '}')
				return -1;
			return 0;
		}
	}
	if (*j->p == '[') {
		j->p++;
		jp_ws(j);
		if (*j->p == ']') {
			j->p++;
			return 0;
		}
		if (snprintf(sub, sizeof(sub), "%s[]", path) >= (int)sizeof(sub))
			return -1;
		for (;;) {
			if (jp_value(j, sub))
				return -1;
			jp_ws(j);
			if (*j->p == ',') {
				j->p++;
				continue;
			}
			if (*j->p++ != ']')
				return -1;
			return 0;
		}
	}
	if (*j->p == '"')
		return jp_string(j, NULL, 0);
	if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "null", 4)) {
		j->p += 4;
		return 0;
	}
	if (!strncmp(j->p, "false", 5)) {
		j->p += 5;
		return 0;
	}
	return jp_number(j);
}

/* Parse exactly one object (and trailing white space) from text. */
static int jp_parse(struct jp *j, const char *text)
{
	memset(j, 0, sizeof(*j));
	j->p = text;
	jp_ws(j);
	if (*j->p != '{')
		return -1;
	if (jp_value(j, ""))
		return -1;
	jp_ws(j);
	return *j->p ? -1 : 0;
}

static bool jp_has(const struct jp *j, const char *path)
{
	for (int i = 0; i < j->nkeys; i++)
		if (!strcmp(j->keys[i], path))
			return true;
	return false;
}

/* Every field name of flowgen(8), STATISTICS. */
static const char *const spec_global[] = {
    "tx_pps",  "rx_pps",    "tx_bps",	"rx_bps",	"tx_bps_l1", "tx_pkts",
    "rx_pkts", "drop_rate", "cpu_util", "active_flows", "cps",	     "queue_full",
};
static const char *const spec_port[] = {
    "port",   "link",	"speed_mbps", "tx_pkts",   "rx_pkts", "tx_bytes", "rx_bytes", "tx_pps",
    "rx_pps", "tx_bps", "rx_bps",     "line_util", "oerrors", "ierrors",  "imissed",
    "rx_icmp_unreach", "rx_icmp_frag_needed", "icmp_err_unmatched", "icmp_err_invalid",
    "icmp_err_kept", "icmp_mss_lowered",
};
static const char *const spec_client[] = {
    "started",	"established", "completed", "failed",	"active",	  "fail_reasons",
    "aborted",	"tx_pkts",     "rx_pkts",   "tx_bytes", "rx_bytes",	  "foreign_server",
};
static const char *const spec_server[] = {
    "accepted",
    "completed",
    "failed",
    "fail_reasons",
    "aborted",
    "active",
    "tx_pkts",
    "rx_pkts",
    "translated",
    "untranslated",
    "distinct_src_addrs",
    "distinct_src_ports",
};
static const char *const spec_lat[] = {
    "stream", "port",	"tx",	  "rx",	    "lost",   "dup",	 "ooo",
    "min_us", "avg_us", "max_us", "p50_us", "p99_us", "p999_us", "jitter_us",
};

static const char *const spec_worker[] = {
    "id", "lcore", "ports", "tx_pkts", "rx_pkts", "redirected", "active_flows", "cpu_util",
};

static void check_names(const struct jp *j, const char *prefix, const char *const *names, size_t n)
{
	char path[96];

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s.%s", prefix, names[i]);
		if (!jp_has(j, path))
			fail_msg("JSON lacks %s", path);
	}
}

static char *json_of(const struct stats_snap *s, unsigned sections)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(stats_write_json(f, s, sections), 0);
	fclose(f);
	return buf;
}

static char *text_of(const struct stats_snap *s, unsigned sections)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(stats_write_text(f, s, sections), 0);
	fclose(f);
	return buf;
}

static void fill_snap(struct stats_snap *s)
{
	struct stats_raw prev, now;
	bool up[NP] = {true, true};
	uint32_t speed[NP] = {10000, 10000};

	memset(&prev, 0, sizeof(prev));
	memset(&now, 0, sizeof(now));
	now.tsc = HZ;
	now.port[0].tx_pkts = 12345;
	now.port[0].tx_bytes = 12345 * 60;
	now.port[1].rx_pkts = 12000;
	now.nworkers = 2;
	now.w[0].tx_pkts = 12345;
	now.w[1].rx_pkts = 12000;
	stats_compute(&now, &prev, NULL, HZ, NP, up, speed, s);
	s->w[0].port_mask = 3;
	s->w[1].port_mask = 3;
	s->nlat = 2;
	memset(s->lat, 0, 2 * sizeof(s->lat[0]));
	snprintf(s->lat[0].stream, sizeof(s->lat[0].stream), "bulk");
	s->lat[0].tx = 100;
	s->lat[0].p999_us = 12.5;
	/* a name that needs escaping and values JSON cannot carry */
	snprintf(s->lat[1].stream, sizeof(s->lat[1].stream), "a\"b\\c\n");
	s->lat[1].avg_us = NAN;
	s->lat[1].max_us = INFINITY;
	s->g.cpu_util = NAN;
}

static void test_json_fields(void **state)
{
	struct stats_snap *s = calloc(1, sizeof(*s));
	struct jp *j = calloc(1, sizeof(*j));
	char *txt;

	(void)state;
	assert_non_null(s);
	assert_non_null(j);
	fill_snap(s);
	txt = json_of(s, 0);
	if (jp_parse(j, txt))
		fail_msg("invalid JSON: %s", txt);
	assert_null(strstr(txt, "nan"));
	assert_null(strstr(txt, "inf"));
	/* one object on one line */
	assert_ptr_equal(strchr(txt, '\n'), txt + strlen(txt) - 1);
	check_names(j, "global", spec_global, FG_ARRAY_SIZE(spec_global));
	check_names(j, "ports[]", spec_port, FG_ARRAY_SIZE(spec_port));
	check_names(j, "flows.client", spec_client, FG_ARRAY_SIZE(spec_client));
	check_names(j, "flows.server", spec_server, FG_ARRAY_SIZE(spec_server));
	check_names(j, "latency[]", spec_lat, FG_ARRAY_SIZE(spec_lat));
	check_names(j, "workers[]", spec_worker, FG_ARRAY_SIZE(spec_worker));
	assert_non_null(strstr(txt, "\"workers\":[{\"id\":0,\"lcore\":0,\"ports\":[0,1],"));
	assert_true(jp_has(j, "ports[].rx_bad"));
	assert_true(jp_has(j, "ports[].tx_queue_full"));
	assert_non_null(strstr(txt, "\"tx_pkts\":12345,"));
	assert_non_null(strstr(txt, "\"stream\":\"a\\\"b\\\\c\\u000a\""));
	free(txt);

	/* -g -l: only those sections */
	txt = json_of(s, STATS_G | STATS_L);
	if (jp_parse(j, txt))
		fail_msg("invalid JSON: %s", txt);
	assert_true(jp_has(j, "global"));
	assert_true(jp_has(j, "latency"));
	assert_false(jp_has(j, "ports"));
	assert_false(jp_has(j, "flows"));
	assert_false(jp_has(j, "workers"));
	free(txt);

	/* -w alone */
	txt = json_of(s, STATS_W);
	if (jp_parse(j, txt))
		fail_msg("invalid JSON: %s", txt);
	assert_true(jp_has(j, "workers"));
	assert_false(jp_has(j, "global"));
	free(txt);

	/* empty state: no ports, no rows, still valid with every section */
	memset(s, 0, sizeof(*s));
	txt = json_of(s, 0);
	if (jp_parse(j, txt))
		fail_msg("invalid JSON: %s", txt);
	check_names(j, "global", spec_global, FG_ARRAY_SIZE(spec_global));
	check_names(j, "flows.server", spec_server, FG_ARRAY_SIZE(spec_server));
	assert_true(jp_has(j, "ports") && jp_has(j, "latency") && jp_has(j, "workers"));
	free(txt);
	free(j);
	free(s);
}

static int fake_lat(struct stats_lat_row *rows, int max)
{
	assert_true(max >= 1);
	memset(rows, 0, sizeof(*rows));
	snprintf(rows[0].stream, sizeof(rows[0].stream), "lat0");
	rows[0].port = 1;
	rows[0].rx = 42;
	return 1;
}

static void fake_nat(uint64_t *addrs, uint64_t *ports)
{
	*addrs = 3;
	*ports = 1000;
}

static bool fake_link(int port, bool *up, uint32_t *speed)
{
	*up = port == 0;
	*speed = 25000;
	return true;
}

static int clears;

static void fake_clear(void) { clears++; }

/* A pairs provider: two rows, the second without delays; 3 unmatched. */
static int fake_pairs(struct stats_pair_row **rows, uint64_t *unmatched)
{
	struct stats_pair_row *r = calloc(2, sizeof(*r));

	if (!r)
		return -ENOMEM;
	snprintf(r[0].stream, sizeof(r[0].stream), "hosts");
	snprintf(r[0].src, sizeof(r[0].src), "198.18.10.1");
	snprintf(r[0].dst, sizeof(r[0].dst), "198.19.10.1");
	r[0].port = 1;
	r[0].tx = 10;
	r[0].rx = 7;
	r[0].lost = 3;
	r[0].loss_pct = 30;
	r[0].min_us = 1.5;
	r[0].avg_us = 2;
	r[0].max_us = 4;
	r[1] = r[0];
	r[1].pair = 1;
	r[1].rx = 0;
	r[1].lost = 10;
	r[1].loss_pct = 100;
	r[1].min_us = r[1].avg_us = r[1].max_us = NAN;
	*rows = r;
	*unmatched = 3;
	return 2;
}

/* --pairs: a section of its own, never part of "all", from the hook. */
/* next_hop and next_hop6: null without one; the MAC, state and counters
 * as the service thread's hook gives them; the text lines under Ports. */
static void test_json_next_hops(void **state)
{
	struct stats_snap *s = calloc(1, sizeof(*s));
	struct stats_next_hop *h;
	char *txt;

	(void)state;
	assert_non_null(s);
	fill_snap(s);
	h = &s->port[0].nh[0];
	h->present = h->known = true;
	snprintf(h->ip, sizeof(h->ip), "198.18.1.1");
	h->mac = 0x02fa00000010ull;
	h->state = NUD_PROBE;
	h->mac_changes = 1;
	h->reresolved = 1;
	h->probes_ucast = 3;
	h->probes_mcast = 1;
	h->changed_ns = 1796460000123456789ll;
	h = &s->port[1].nh[0];
	h->present = h->known = h->is_static = true;
	h->mac = 0x020000000001ull;
	txt = json_of(s, STATS_P);
	assert_non_null(strstr(txt, "\"next_hop\":{\"ip\":\"198.18.1.1\",\"mac\":\"02:fa:00:00:00:10\","
				    "\"state\":\"probe\",\"mac_changes\":1,\"announced\":0,"
				    "\"reresolved\":1,\"probes_ucast\":3,\"probes_mcast\":1,"
				    "\"failures\":0,\"changed\":\"2026-12-05T08:40:00.123456789Z\"},"
				    "\"next_hop6\":null"));
	assert_non_null(strstr(txt, "\"next_hop\":{\"ip\":null,\"mac\":\"02:00:00:00:00:01\","
				    "\"state\":\"static\",\"mac_changes\":0,"));
	assert_non_null(strstr(txt, "\"changed\":null},\"next_hop6\":null"));
	free(txt);
	txt = text_of(s, STATS_P);
	assert_non_null(strstr(txt, "Next hops\n\nport 0 IPv4 198.18.1.1 MAC 02:fa:00:00:00:10 probe: 1 MAC "
				    "changes (0 announced, 1 re-resolved), 3 unicast and 1 broadcast probes\n"
				    "port 1 IPv4 - MAC 02:00:00:00:00:01 static: 0 MAC changes"));
	free(txt);
	/* no next hop anywhere: no lines */
	memset(s->port, 0, sizeof(s->port));
	txt = text_of(s, STATS_P);
	assert_null(strstr(txt, "Next hops"));
	free(txt);
	free(s);
}

static void test_json_pairs(void **state)
{
	struct stats_hooks h = {.pairs = fake_pairs};
	struct stats_snap *s = calloc(1, sizeof(*s));
	struct jp *j = calloc(1, sizeof(*j));
	char *txt, *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(s);
	assert_non_null(j);
	fill_snap(s);
	stats_set_hooks(&h);
	txt = json_of(s, 0);
	assert_null(strstr(txt, "\"pairs\""));
	free(txt);
	txt = json_of(s, STATS_L | STATS_H);
	if (jp_parse(j, txt))
		fail_msg("invalid JSON: %s", txt);
	assert_true(jp_has(j, "latency") && jp_has(j, "pairs.unmatched"));
	check_names(j, "pairs.rows[]", (const char *const[]){"stream", "port", "pair", "src", "dst",
							     "tx", "rx", "lost", "loss_pct",
							     "min_us", "avg_us", "max_us"},
		    12);
	assert_non_null(strstr(txt, "\"pairs\":{\"unmatched\":3,\"rows\":[{\"stream\":\"hosts\","
				    "\"port\":1,\"pair\":0,\"src\":\"198.18.10.1\",\"dst\":\"198.19.10.1\","
				    "\"tx\":10,\"rx\":7,\"lost\":3,\"loss_pct\":30.0000,"
				    "\"min_us\":1.500,\"avg_us\":2.000,\"max_us\":4.000}"));
	assert_null(strstr(txt, "nan"));
	free(txt);
	/* the table: a row per pair, the unmatched frames said */
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(stats_write_text(f, s, STATS_H), 0);
	fclose(f);
	assert_non_null(strstr(buf, "Host pairs"));
	assert_non_null(strstr(buf, "198.18.10.1     198.19.10.1"));
	assert_non_null(strstr(buf, "unmatched: 3 "));
	assert_null(strstr(buf, "Latency"));
	free(buf);
	/* no provider: an empty section, still valid */
	stats_set_hooks(NULL);
	txt = json_of(s, STATS_H);
	if (jp_parse(j, txt))
		fail_msg("invalid JSON: %s", txt);
	assert_non_null(strstr(txt, "{\"pairs\":{\"unmatched\":0,\"rows\":[]}}"));
	free(txt);
	free(j);
	free(s);
}

/*
 * fail_reasons (flowgen(8), STATISTICS): for each reason, a count on one
 * side shows under that reason's name on that side, in the JSON (flows
 * and templates[]) and the text table, and every other reason of both
 * sides stays 0; the text's flows table has an aborted row.
 */
static void reasons_json(char *buf, size_t len, unsigned only, uint64_t n)
{
	size_t k = (size_t)snprintf(buf, len, "\"fail_reasons\":{");

	for (unsigned r = 0; r < FG_FAIL_N; r++)
		k += (size_t)snprintf(buf + k, len - k, "%s\"%s\":%" PRIu64, r ? "," : "",
				      fails_name(r), r == only ? n : 0);
	snprintf(buf + k, len - k, "}");
}

/* After a, then b, does txt hold want (before the next "fail_reasons")? */
static __attribute__((noinline)) bool has_after(const char *txt, const char *a, const char *b,
						 const char *want)
{
	const char *p = strstr(txt, a);

	p = p ? strstr(p, b) : NULL;
	p = p ? strstr(p, "\"fail_reasons\"") : NULL;
	return p && !strncmp(p, want, strlen(want));
}

static void test_fail_reasons(void **state)
{
	struct stats_snap *s = calloc(1, sizeof(*s));
	char want[512], zero[512], row[128], *txt;

	(void)state;
	assert_non_null(s);
	reasons_json(zero, sizeof(zero), FG_FAIL_N, 0);
	for (int side = 0; side < 2; side++)
		for (unsigned r = 0; r < FG_FAIL_N; r++) {
			memset(s, 0, sizeof(*s));
			s->map.ntpl = s->map.ngroups = 1;
			snprintf(s->map.tpl[0], sizeof(s->map.tpl[0]), "t");
			snprintf(s->map.name[0], sizeof(s->map.name[0]), "t");
			if (side) {
				s->flows.server.fail[r] = 40 + r;
				s->flows.server.failed = 40 + r;
			} else {
				s->flows.client.fail[r] = 40 + r;
				s->flows.client.failed = 40 + r;
			}
			s->grp[0] = s->flows;
			txt = json_of(s, STATS_A);
			reasons_json(want, sizeof(want), r, 40 + r);
			/* the side's object has it, in flows and in the one group;
			 * the other side's reasons are all 0 in both */
			if (!has_after(txt, "\"flows\":{", side ? "\"server\":{" : "\"client\":{", want))
				fail_msg("%s %s: %s", side ? "server" : "client", fails_name(r), txt);
			assert_true(has_after(txt, "\"templates\":[", side ? "\"server\":{" : "\"client\":{", want));
			assert_true(has_after(txt, "\"flows\":{", side ? "\"client\":{" : "\"server\":{", zero));
			assert_true(has_after(txt, "\"templates\":[", side ? "\"client\":{" : "\"server\":{", zero));
			free(txt);
			txt = text_of(s, STATS_A);
			snprintf(row, sizeof(row), "%-22s | %16" PRIu64 " | %16" PRIu64 "\n",
				 fails_name(r), side ? 0 : (uint64_t)(40 + r),
				 side ? (uint64_t)(40 + r) : 0);
			if (!strstr(txt, row))
				fail_msg("no row \"%s\" in: %s", row, txt);
			for (unsigned o = 0; o < FG_FAIL_N; o++) {
				if (o == r)
					continue;
				snprintf(row, sizeof(row), "%-22s | %16d | %16d\n", fails_name(o), 0, 0);
				assert_non_null(strstr(txt, row));
			}
			assert_non_null(strstr(txt, "aborted"));
			free(txt);
		}
	/* the names are distinct and found again by name */
	for (unsigned r = 0; r < FG_FAIL_N; r++)
		assert_int_equal(fails_by_name(fails_name(r)), (int)r);
	assert_int_equal(fails_by_name("fail_no_reply"), -1);
	assert_string_equal(fails_name(FG_FAIL_N), "?");
	free(s);
}

/* The dashboard's top reasons: largest first, sides apart, zeros left out. */
static void test_top_fails(void **state)
{
	struct stats_flows f;
	struct stats_fail_top t[3];

	(void)state;
	memset(&f, 0, sizeof(f));
	assert_int_equal(stats_top_fails(&f, t, 3), 0);
	f.client.fail[FG_FAIL_RESET] = 5;
	assert_int_equal(stats_top_fails(&f, t, 3), 1);
	assert_int_equal(t[0].reason, FG_FAIL_RESET);
	assert_int_equal(t[0].side, 0);
	assert_int_equal(t[0].n, 5);
	f.client.fail[FG_FAIL_NO_REPLY] = 2;
	f.server.fail[FG_FAIL_NO_REPLY] = 9;
	f.server.fail[FG_FAIL_PAYLOAD] = 5;
	f.client.fail[FG_FAIL_TIMEOUT] = 1;
	assert_int_equal(stats_top_fails(&f, t, 3), 3);
	assert_int_equal(t[0].side, 1);
	assert_int_equal(t[0].reason, FG_FAIL_NO_REPLY);
	assert_int_equal(t[0].n, 9);
	/* a tie: the client's first, as it came first */
	assert_int_equal(t[1].side, 0);
	assert_int_equal(t[1].reason, FG_FAIL_RESET);
	assert_int_equal(t[2].side, 1);
	assert_int_equal(t[2].reason, FG_FAIL_PAYLOAD);
	assert_int_equal(stats_top_fails(&f, t, 1), 1);
	assert_int_equal(t[0].n, 9);
}

/* templates[] of the JSON and the group tables of `stats -t`. */
static void test_json_groups(void **state)
{
	static struct stats_raw prev, now, base;
	struct stats_snap *s = calloc(1, sizeof(*s));
	struct jp *j = calloc(1, sizeof(*j));
	static const char *const spec_grp_server[] = {
	    "accepted", "completed",  "failed",	      "active", "tx_pkts",
	    "rx_pkts",	"translated", "untranslated", "retx",
	};
	struct stats_tpl_map m;
	char *txt;

	(void)state;
	assert_non_null(s);
	assert_non_null(j);
	fill_map(&m);
	fill_group_raws(&prev, &now, &base);
	stats_groups(&now, &prev, &base, 2.0, &m, s);
	txt = json_of(s, STATS_T);
	if (jp_parse(j, txt))
		fail_msg("invalid JSON: %s", txt);
	check_names(j, "templates[]", (const char *const[]){"name", "templates"}, 2);
	check_names(j, "templates[].client", spec_client, FG_ARRAY_SIZE(spec_client));
	check_names(j, "templates[].server", spec_grp_server, FG_ARRAY_SIZE(spec_grp_server));
	/* what no template has: the pacer's late flows, the distinct sources */
	assert_false(jp_has(j, "templates[].client.late"));
	assert_false(jp_has(j, "templates[].server.distinct_src_addrs"));
	assert_false(jp_has(j, "flows"));
	assert_non_null(strstr(txt, "{\"templates\":[{\"name\":\"web\",\"templates\":[\"a\",\"b\"],"
				    "\"client\":{\"started\":120,"));
	assert_non_null(
	    strstr(txt, "{\"name\":\"c\",\"templates\":[\"c\"],\"client\":{\"started\":300,"));
	free(txt);
	/* with the flows section (and so by default) too, beside "flows" */
	txt = json_of(s, STATS_A);
	assert_non_null(strstr(txt, "\"templates\":[{\"name\":\"web\""));
	assert_non_null(strstr(txt, "\"late\":0"));
	free(txt);
	txt = json_of(s, STATS_G);
	assert_null(strstr(txt, "\"templates\""));
	free(txt);

	txt = text_of(s, STATS_T);
	assert_non_null(strstr(txt, "Flows of group web (templates a b)\n"));
	assert_non_null(strstr(txt, "Flows of group c (templates c)\n"));
	assert_non_null(strstr(txt, "started/accepted   |              120 |"));
	assert_non_null(strstr(txt, "started/accepted   |              300 |"));
	assert_null(strstr(txt, "late (pacer)"));
	assert_null(strstr(txt, "distinct src"));
	assert_null(strstr(txt, "Global Statistics"));
	free(txt);
	/* no flows run: one line says so */
	memset(&m, 0, sizeof(m));
	stats_groups(&now, &prev, &base, 2.0, &m, s);
	txt = text_of(s, STATS_T);
	assert_string_equal(txt, "Flows by group\n\n(no flows run)\n\n");
	free(txt);
	txt = json_of(s, STATS_T);
	assert_string_equal(txt, "{\"templates\":[]}\n");
	free(txt);
	free(j);
	free(s);
}

/* Through the control API: clear baselines, hooks fill in, print works. */
/*
 * stats --failed: the workers' rings merged newest first, the run's
 * entries only, the template's name of the run, N larger than held, and
 * nothing from before `clear`.
 */
static void test_failed_get(void **state)
{
	struct ctr_worker *w = aligned_alloc(RTE_CACHE_LINE_SIZE, 2 * sizeof(*w));
	struct stats_failed *out = calloc(16, sizeof(*out));
	struct stats_tpl_map m;
	size_t held;
	uint64_t t0;

	(void)state;
	assert_non_null(w);
	assert_non_null(out);
	memset(w, 0, 2 * sizeof(*w));
	assert_int_equal(stats_init(w, 2, NP, HZ), 0);
	memset(&m, 0, sizeof(m));
	m.ntpl = m.ngroups = 2;
	snprintf(m.tpl[0], sizeof(m.tpl[0]), "dns");
	snprintf(m.tpl[1], sizeof(m.tpl[1]), "web");
	stats_set_run(1, &m);
	t0 = rte_rdtsc();
	/* worker 0 and 1 interleaved in time; one entry of another run */
	for (int i = 0; i < 6; i++) {
		struct fail_rec r = {.tsc = t0 + 10 + (uint64_t)i, .run = 9, .tpl = (uint8_t)(i & 1),
				     .reason = FG_FAIL_RESET, .side = (uint8_t)(i % 3 == 0)};

		fails_push(&w[i & 1].fails, &r);
	}
	fails_push(&w[0].fails, &(struct fail_rec){.tsc = t0 + 100, .run = 8});
	assert_int_equal(stats_failed_get(9, out, 4, &held), 4);
	assert_int_equal(held, 6);
	for (int i = 0; i < 4; i++)
		assert_int_equal(out[i].rec.tsc, t0 + 15 - (uint64_t)i);
	assert_string_equal(out[0].tpl, "web");
	assert_string_equal(out[1].tpl, "dns");
	assert_int_equal(stats_failed_get(9, out, 16, &held), 6);
	assert_int_equal(stats_failed_get(8, out, 16, &held), 1);
	assert_int_equal(stats_failed_get(7, out, 16, &held), 0);
	/* after clear, only what failed since */
	stats_clear();
	assert_int_equal(stats_failed_get(9, out, 16, &held), 0);
	assert_int_equal(held, 0);
	fails_push(&w[1].fails, &(struct fail_rec){.tsc = rte_rdtsc(), .run = 9, .tpl = 1});
	assert_int_equal(stats_failed_get(9, out, 16, &held), 1);
	assert_string_equal(out[0].tpl, "web");
	free(out);
	free(w);
}

static void test_clear_and_print(void **state)
{
	struct ctr_worker *w = aligned_alloc(RTE_CACHE_LINE_SIZE, 2 * sizeof(*w));
	struct stats_snap *s = calloc(1, sizeof(*s));
	struct stats_hooks h = {
	    .latency = fake_lat,
	    .nat = fake_nat,
	    .port_link = fake_link,
	    .clear = fake_clear,
	};
	struct jp *j = calloc(1, sizeof(*j));
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(w);
	assert_non_null(s);
	assert_non_null(j);
	memset(w, 0, 2 * sizeof(*w));
	assert_int_equal(stats_init(w, 2, NP, HZ), 0);
	assert_int_equal(stats_init(w, -1, NP, HZ), -EINVAL);
	assert_int_equal(stats_init(w, 2, FG_MAX_PORTS + 1, HZ), -EINVAL);
	assert_int_equal(stats_init(w, 2, NP, HZ), 0);
	stats_set_hooks(&h);
	FG_CTR_ADD(w[0].port[0].tx_pkts, 100);
	FG_CTR_ADD(w[1].port[1].rx_pkts, 90);
	FG_CTR_ADD(w[1].tpl[0].client.completed, 5);
	stats_get(s);
	assert_int_equal(s->port[0].tx_pkts, 100);
	assert_int_equal(s->port[1].rx_pkts, 90);
	assert_true(s->port[0].link_up);
	assert_false(s->port[1].link_up);
	assert_int_equal(s->port[0].speed_mbps, 25000);
	assert_int_equal(s->flows.distinct_addrs, 3);
	assert_int_equal(s->flows.distinct_ports, 1000);
	assert_int_equal(s->nlat, 1);
	assert_int_equal(s->lat[0].rx, 42);

	clears = 0;
	stats_clear();
	assert_int_equal(clears, 1);
	stats_get(s);
	assert_int_equal(s->port[0].tx_pkts, 0);
	assert_int_equal(s->flows.client.completed, 0);
	FG_CTR_ADD(w[1].port[0].tx_pkts, 7);
	FG_CTR_ADD(w[0].tpl[1].client.completed, 2);
	stats_get(s);
	assert_int_equal(s->port[0].tx_pkts, 7);
	assert_int_equal(s->g.tx_pkts, 7);
	assert_int_equal(s->flows.client.completed, 2);
	/* the workers' blocks were never written by clear */
	assert_int_equal(w[0].port[0].tx_pkts, 100);

	/* every server was flowgen: a foreign server row at 0 and no note */
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(stats_print(f, STATS_A, false), 0);
	fclose(f);
	assert_non_null(strstr(buf, "foreign server"));
	assert_null(strstr(buf, "note:"));
	free(buf);
	buf = NULL;
	/* flows of servers that are not flowgen, on two workers: summed, and noted */
	FG_CTR_ADD(w[0].tpl[0].client.foreign_server, 1);
	FG_CTR_ADD(w[1].tpl[2].client.foreign_server, 2);
	stats_get(s);
	assert_int_equal(s->flows.client.foreign_server, 3);

	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(stats_print(f, 0, true), 0);
	fclose(f);
	if (jp_parse(j, buf))
		fail_msg("invalid JSON: %s", buf);
	check_names(j, "latency[]", spec_lat, FG_ARRAY_SIZE(spec_lat));
	assert_non_null(strstr(buf, "\"distinct_src_ports\":1000"));
	assert_non_null(strstr(buf, "\"foreign_server\":3}"));
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(stats_print(f, 0, false), 0);
	fclose(f);
	assert_non_null(strstr(buf, "Global Statistics"));
	assert_non_null(strstr(buf, "Port Statistics"));
	assert_non_null(strstr(buf, "total"));
	assert_non_null(strstr(buf, "opackets"));
	assert_non_null(strstr(buf, "client"));
	assert_non_null(strstr(buf, "server"));
	assert_non_null(strstr(buf, "lat0"));
	assert_non_null(strstr(buf, "note: 3 flows answered by a server that is not flowgen: "
				    "payloads not checked (-t payload_check=1 checks them)\n"));
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(stats_print(f, STATS_P, false), 0);
	fclose(f);
	assert_null(strstr(buf, "Global Statistics"));
	assert_non_null(strstr(buf, "Port Statistics"));
	free(buf);

	stats_set_hooks(NULL);
	free(j);
	free(s);
	free(w);
}

/* A pool provider: port 0 has a pool, port 1 none. */
static bool fake_mempool(int port, struct stats_pool *m)
{
	memset(m, 0, sizeof(*m));
	if (port != 0)
		return false;
	m->ok = true;
	snprintf(m->name, sizeof(m->name), "pool0");
	m->cache_size = 256;
	m->size = 4096;
	m->in_use = 80;
	m->avail = 4016;
	m->cached = 200;
	return true;
}

/*
 * The ports' mbuf pools come from the hook into every snapshot (a port
 * without one: null and "-", and no part of the total), and punt and
 * punt_drop are counted and baselined as the other port counters.
 */
static void test_mempool_and_punt(void **state)
{
	struct ctr_worker *w = aligned_alloc(RTE_CACHE_LINE_SIZE, 2 * sizeof(*w));
	struct stats_snap *s = calloc(1, sizeof(*s));
	struct stats_hooks h = {.mempool = fake_mempool};
	struct jp *j = calloc(1, sizeof(*j));
	char *txt;

	(void)state;
	assert_non_null(w);
	assert_non_null(s);
	assert_non_null(j);
	memset(w, 0, 2 * sizeof(*w));
	assert_int_equal(stats_init(w, 2, NP, HZ), 0);
	stats_set_hooks(&h);
	FG_CTR_ADD(w[0].port[0].punt, 5);
	FG_CTR_ADD(w[1].port[0].punt_drop, 2);
	FG_CTR_ADD(w[1].port[1].punt_drop, 3);
	stats_get(s);
	assert_int_equal(s->port[0].punt, 5);
	assert_int_equal(s->port[0].punt_drop, 2);
	assert_int_equal(s->total.punt_drop, 5);
	assert_true(s->port[0].pool.ok);
	assert_string_equal(s->port[0].pool.name, "pool0");
	assert_int_equal(s->port[0].pool.in_use, 80);
	assert_false(s->port[1].pool.ok);
	assert_true(s->total.pool.ok);
	assert_int_equal(s->total.pool.size, 4096);
	assert_int_equal(s->total.pool.in_use, 80);
	assert_int_equal(s->total.pool.avail, 4016);
	assert_int_equal(s->total.pool.cached, 200);
	stats_clear();
	FG_CTR_ADD(w[0].port[1].punt_drop, 1);
	stats_get(s);
	assert_int_equal(s->port[0].punt_drop, 0);
	assert_int_equal(s->port[1].punt_drop, 1);
	/* a gauge: the pool is read anew, never baselined */
	assert_int_equal(s->port[0].pool.in_use, 80);

	txt = json_of(s, STATS_P);
	if (jp_parse(j, txt))
		fail_msg("invalid JSON: %s", txt);
	check_names(j, "ports[]", (const char *const[]){"punt", "punt_drop", "mempool"}, 3);
	assert_non_null(strstr(txt, "\"punt\":0,\"punt_drop\":1,"));
	assert_non_null(strstr(txt, "\"mempool\":{\"name\":\"pool0\",\"size\":4096,"
				    "\"in_use\":80,\"avail\":4016,\"cached\":200,"
				    "\"cache_size\":256}}"));
	assert_non_null(strstr(txt, "\"mempool\":null}]"));
	free(txt);

	/* the table: a row per figure under the ports, "-" where none */
	txt = text_of(s, STATS_P);
	assert_non_null(strstr(txt, "punt_drop      |                0 |                1 |"));
	assert_non_null(strstr(txt, "mbufs          |             4096 |                - |"
				    "             4096\n"));
	assert_non_null(strstr(txt, "mbufs in use   |               80 |                - |"
				    "               80\n"));
	assert_non_null(strstr(txt, "mbufs avail    |             4016 |                - |"
				    "             4016\n"));
	assert_non_null(strstr(txt, "mbufs cached   |              200 |                - |"
				    "              200\n"));
	free(txt);

	/* no provider: no pool anywhere */
	stats_set_hooks(NULL);
	stats_get(s);
	assert_false(s->port[0].pool.ok || s->total.pool.ok);
	txt = text_of(s, STATS_P);
	assert_non_null(strstr(txt, "mbufs in use   |                - |                - |"
				    "                -\n"));
	free(txt);
	free(j);
	free(s);
	free(w);
}

/* The sampler keeps a history and measures rates by itself. */
static void test_sampler_rates(void **state)
{
	struct ctr_worker *w = aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(*w));
	struct stats_snap *s = calloc(1, sizeof(*s));
	double tx[STATS_HIST], rx[STATS_HIST];
	struct timespec t0, t1, d = {0, 10 * 1000 * 1000};
	uint64_t c0, c1;
	int n;

	(void)state;
	assert_non_null(w);
	assert_non_null(s);
	memset(w, 0, sizeof(*w));
	/* measure the TSC against the monotonic clock */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	c0 = rte_rdtsc();
	nanosleep(&(struct timespec){0, 200 * 1000 * 1000}, NULL);
	c1 = rte_rdtsc();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;

	assert_int_equal(stats_init(w, 1, 1, (uint64_t)((c1 - c0) / secs)), 0);
	stats_start();
	/* 10 frames every 10 ms = about 1000 pps for 1.5 s */
	for (int i = 0; i < 150; i++) {
		FG_CTR_ADD(w->port[0].tx_pkts, 10);
		nanosleep(&d, NULL);
	}
	stats_get(s);
	n = stats_history(tx, rx, STATS_HIST);
	stats_stop();
	/* sleeping overshoots, so the rate is at most 1000 and not far off */
	assert_true(s->g.tx_pps > 500 && s->g.tx_pps < 1100);
	assert_true(s->interval > 0.5 && s->interval < 1.2);
	assert_true(n >= 2);
	assert_true(tx[n - 1] > 500 && tx[n - 1] < 1100);
	assert_true(rx[n - 1] == 0);
	free(s);
	free(w);
}

static void test_fmt_si(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(stats_fmt_si(b, sizeof(b), 999, "pps"), "999.00 pps");
	assert_string_equal(stats_fmt_si(b, sizeof(b), 1500, "pps"), "1.50 Kpps");
	assert_string_equal(stats_fmt_si(b, sizeof(b), 14880952, "pps"), "14.88 Mpps");
	assert_string_equal(stats_fmt_si(b, sizeof(b), 1e10, "bps"), "10.00 Gbps");
	assert_string_equal(stats_fmt_si(b, sizeof(b), NAN, "bps"), "0.00 bps");
}

/* The cells the text tables and the tui share. */
static void test_port_cells(void **state)
{
	struct stats_port_snap o = {.link_up = true,	   .rated = true,	.speed_mbps = 10000,
				    .tx_pkts = 1234567,	   .line_util = 12.345, .tx_pps = 14880952};
	const struct stats_port_row rows[] = {
	    STATS_PORT_ROW("a", STATS_CELL_U64, tx_pkts),
	    STATS_PORT_ROW("b", STATS_CELL_COUNT, tx_pkts),
	    STATS_PORT_ROW("c", STATS_CELL_PCT, line_util),
	    STATS_PORT_ROW("d", STATS_CELL_LINK, link_up),
	    STATS_PORT_ROW("e", STATS_CELL_PPS, tx_pps),
	};
	char b[40];

	(void)state;
	stats_port_cell(b, sizeof(b), &rows[0], &o, 2);
	assert_string_equal(b, "1234567");
	stats_port_cell(b, sizeof(b), &rows[1], &o, 2);
	assert_string_equal(b, "1.23M");
	stats_port_cell(b, sizeof(b), &rows[2], &o, 2);
	assert_string_equal(b, "12.35 %");
	stats_port_cell(b, sizeof(b), &rows[2], &o, 1);
	assert_string_equal(b, "12.3 %");
	stats_port_cell(b, sizeof(b), &rows[3], &o, 2);
	assert_string_equal(b, "UP 10G");
	o.link_up = false;
	o.speed_mbps = 100;
	stats_port_cell(b, sizeof(b), &rows[3], &o, 2);
	assert_string_equal(b, "DOWN 100M");
	stats_port_cell(b, sizeof(b), &rows[4], &o, 2);
	assert_string_equal(b, "14.88 Mpps");
	assert_string_equal(stats_fmt_count(b, sizeof(b), 99999), "99999");
	assert_string_equal(stats_fmt_count(b, sizeof(b), 100000), "100K");
	assert_string_equal(stats_fmt_count(b, sizeof(b), 45600000), "45.6M");
	/* a measured 0 is 0; without an interval (not rated) a rate is "-",
	 * and so is line util. without a link speed */
	o.tx_pps = 0;
	o.line_util = 0;
	stats_port_cell(b, sizeof(b), &rows[4], &o, 2);
	assert_string_equal(b, "0.00 pps");
	stats_port_cell(b, sizeof(b), &rows[2], &o, 2);
	assert_string_equal(b, "0.00 %");
	o.speed_mbps = 0;
	stats_port_cell(b, sizeof(b), &rows[2], &o, 2);
	assert_string_equal(b, "-");
	o.speed_mbps = 100;
	o.rated = false;
	stats_port_cell(b, sizeof(b), &rows[4], &o, 2);
	assert_string_equal(b, "-");
	stats_port_cell(b, sizeof(b), &rows[2], &o, 2);
	assert_string_equal(b, "-");
	stats_port_cell(b, sizeof(b), &rows[0], &o, 2);
	assert_string_equal(b, "1234567"); /* a counter is always measured */
}

/* Figures not measured render as "-" (text) and null (JSON); a measured
 * 0 as 0. */
static void test_fmt_not_measured(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(stats_fmt_us(b, sizeof(b), NAN), "-");
	assert_string_equal(stats_fmt_us(b, sizeof(b), 0), "0.0");
	assert_string_equal(stats_fmt_us(b, sizeof(b), 12.34), "12.3");
	assert_string_equal(stats_fmt_us(b, sizeof(b), 99999.9), "99999.9");
	assert_string_equal(stats_fmt_us(b, sizeof(b), 123456.7), "123457");
	assert_string_equal(stats_fmt_us(b, sizeof(b), 17179869.2), "17.18M");
	assert_string_equal(stats_fmt_us(b, sizeof(b), INFINITY), "inf");
	assert_string_equal(stats_fmt_rate(b, sizeof(b), 0, "pps", true), "0.00 pps");
	assert_string_equal(stats_fmt_rate(b, sizeof(b), 1500, "cps", true), "1.50 Kcps");
	assert_string_equal(stats_fmt_rate(b, sizeof(b), 1500, "cps", false), "-");
	assert_string_equal(stats_fmt_rate(b, sizeof(b), NAN, "cps", true), "-");
	assert_string_equal(stats_fmt_fit(b, sizeof(b), 0, 5), "0");
	assert_string_equal(stats_fmt_fit(b, sizeof(b), 123456789, 9), "123456789");
	assert_string_equal(stats_fmt_fit(b, sizeof(b), 1234567890, 9), "1.23G");
	assert_string_equal(stats_fmt_fit(b, sizeof(b), 123456, 5), "123K");
	for (uint64_t v = 1; v < UINT64_MAX / 10; v *= 7)
		assert_true(strlen(stats_fmt_fit(b, sizeof(b), v, 5)) <= 5);
}

/* A latency row's figures from its delays: NAN without any; a measured 0 is 0. */
static void test_lat_figures(void **state)
{
	struct lat_hist *h = malloc(sizeof(*h));
	struct stats_lat_row r;

	(void)state;
	assert_non_null(h);
	lat_init(h);
	memset(&r, 0, sizeof(r));
	stats_lat_figures(&r, h);
	assert_true(isnan(r.min_us) && isnan(r.avg_us) && isnan(r.max_us));
	assert_true(isnan(r.p50_us) && isnan(r.p99_us) && isnan(r.p999_us));
	assert_true(isnan(r.jitter_us));
	/* one delay of 0 ns: measured 0; no jitter without two delays */
	lat_add(h, 0);
	stats_lat_figures(&r, h);
	assert_true(r.min_us == 0 && r.avg_us == 0 && r.max_us == 0 && r.p99_us == 0);
	assert_true(isnan(r.jitter_us));
	lat_add(h, 2000);
	stats_lat_figures(&r, h);
	assert_true(r.max_us == 2 && r.jitter_us == 2);
	free(h);
}

/* stats -l: a stream without stamped frames beside one with; null and
 * "-" for the first, numbers (0 too) for the second; every line of the
 * tables within 80 columns, whatever the counts. */
static void test_lat_not_measured(void **state)
{
	struct stats_snap *s = calloc(1, sizeof(*s));
	struct lat_hist *h = malloc(sizeof(*h));
	char *txt, *line, *save = NULL;

	(void)state;
	assert_non_null(s);
	assert_non_null(h);
	s->nlat = 2;
	snprintf(s->lat[0].stream, sizeof(s->lat[0].stream), "stamped");
	s->lat[0].port = 1;
	s->lat[0].tx = s->lat[0].rx = UINT64_MAX / 3;
	s->lat[0].lost = s->lat[0].dup = s->lat[0].ooo = UINT64_MAX / 5;
	s->lat[0].tx_dropped = s->lat[0].late = s->lat[0].stale = UINT64_MAX / 7;
	lat_init(h);
	lat_add(h, 0);
	stats_lat_figures(&s->lat[0], h);
	snprintf(s->lat[1].stream, sizeof(s->lat[1].stream), "a_stream_with_a_long_name");
	s->lat[1].port = 0;
	s->lat[1].tx = s->lat[1].rx = 1000;
	lat_init(h);
	stats_lat_figures(&s->lat[1], h);
	txt = json_of(s, STATS_L);
	assert_non_null(strstr(txt, "\"stream\":\"stamped\",\"port\":1,"));
	assert_non_null(strstr(txt, "\"min_us\":0.000,\"avg_us\":0.000,\"max_us\":0.000,"
				    "\"p50_us\":0.000,\"p99_us\":0.000,\"p999_us\":0.000,"
				    "\"jitter_us\":null,"));
	assert_non_null(strstr(txt, "\"tx\":1000,\"rx\":1000,\"lost\":0,\"dup\":0,\"ooo\":0,"
				    "\"min_us\":null,\"avg_us\":null,\"max_us\":null,"
				    "\"p50_us\":null,\"p99_us\":null,\"p999_us\":null,"
				    "\"jitter_us\":null,"));
	free(txt);
	txt = text_of(s, STATS_L);
	assert_non_null(strstr(txt, "\nstamped            1     0.0     0.0     0.0     0.0"
				    "     0.0     0.0       -\n"));
	assert_non_null(strstr(txt, "\na_stream_with_a    0       -       -       -       -"
				    "       -       -       -\n"));
	assert_non_null(strstr(txt, "\na_stream_with_a    0      1000      1000       0     0"
				    "     0       0     0     0\n"));
	for (line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strlen(line) > 80)
			fail_msg("wider than 80 columns (%zu): %s", strlen(line), line);
	free(txt);
	free(h);
	free(s);
}

/* Rates without an interval were not measured: null and "-"; measured
 * rates of no traffic are 0. */
static void test_rates_not_measured(void **state)
{
	static struct stats_raw prev, now;
	struct stats_snap *s = calloc(1, sizeof(*s));
	bool up[NP] = {true, true};
	uint32_t speed[NP] = {10000, 10000};
	char *txt;

	(void)state;
	assert_non_null(s);
	memset(&prev, 0, sizeof(prev));
	memset(&now, 0, sizeof(now));
	now.nworkers = prev.nworkers = 1;
	now.tsc = HZ;
	now.loop_tsc = now.w[0].loop_tsc = 1000;
	stats_compute(&now, NULL, NULL, HZ, NP, up, speed, s);
	txt = json_of(s, STATS_G | STATS_P | STATS_A | STATS_W);
	assert_non_null(strstr(txt, "\"tx_pps\":null,\"rx_pps\":null,\"tx_bps\":null,"));
	assert_non_null(strstr(txt, "\"drop_rate\":null,\"cpu_util\":null,"));
	assert_non_null(strstr(txt, "\"line_util\":null,"));
	assert_non_null(strstr(txt, "\"cps\":null,\"completed_cps\":null,"));
	assert_non_null(strstr(txt, "\"active_flows\":0,\"cpu_util\":null,\"stalls\":0,"));
	assert_non_null(strstr(txt, "\"interval\":0.000,"));
	free(txt);
	txt = text_of(s, STATS_G | STATS_A | STATS_W);
	assert_non_null(strstr(txt, "total_tx_pps  : -                  total_rx_pps  : -\n"));
	assert_non_null(strstr(txt, "drop_rate     : -                  cpu_util      : -\n"));
	assert_non_null(strstr(txt, "\ncps                |                - |                -\n"));
	free(txt);
	/* one second later, no traffic: measured, 0 */
	stats_compute(&now, &prev, NULL, HZ, NP, up, speed, s);
	txt = json_of(s, STATS_G | STATS_P | STATS_W);
	assert_non_null(strstr(txt, "\"tx_pps\":0.00,\"rx_pps\":0.00,\"tx_bps\":0.00,"));
	assert_non_null(strstr(txt, "\"drop_rate\":0.00,\"cpu_util\":0.00,"));
	assert_non_null(strstr(txt, "\"line_util\":0.00,"));
	assert_non_null(strstr(txt, "\"active_flows\":0,\"cpu_util\":0.00,\"stalls\":0,"));
	free(txt);
	txt = text_of(s, STATS_G);
	assert_non_null(strstr(txt, "drop_rate     : 0.00 pps           cpu_util      : 0.00 %\n"));
	free(txt);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_port_cells),
	    cmocka_unit_test(test_fmt_not_measured),
	    cmocka_unit_test(test_lat_figures),
	    cmocka_unit_test(test_lat_not_measured),
	    cmocka_unit_test(test_rates_not_measured),
	    cmocka_unit_test(test_concurrent_sum),
	    cmocka_unit_test(test_sum_ignores_ports_beyond_n),
	    cmocka_unit_test(test_sum_templates),
	    cmocka_unit_test(test_groups),
	    cmocka_unit_test(test_targets),
	    cmocka_unit_test(test_json_groups),
	    cmocka_unit_test(test_fail_reasons),
	    cmocka_unit_test(test_top_fails),
	    cmocka_unit_test(test_baseline),
	    cmocka_unit_test(test_rates),
	    cmocka_unit_test(test_workers),
	    cmocka_unit_test(test_nic_preferred_when_counting),
	    cmocka_unit_test(test_json_fields),
	    cmocka_unit_test(test_json_next_hops),
	    cmocka_unit_test(test_json_pairs),
	    cmocka_unit_test(test_clear_and_print),
	    cmocka_unit_test(test_failed_get),
	    cmocka_unit_test(test_mempool_and_punt),
	    cmocka_unit_test(test_sampler_rates),
	    cmocka_unit_test(test_fmt_si),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
