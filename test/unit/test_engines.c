/*
 * test_engines.c — the control half of both traffic engines through
 * their descriptors (struct engine, src/control/run.h), without EAL: a
 * small profile prepared for fake workers (two port pairs, two workers
 * each), and what each worker's state gets: its share of the rate, its
 * ports, its id's share of the client ports; then release, which must
 * leave nothing allocated (the sanitizer build's leak check).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "flowpay.h"
#include "flows.h"
#include "load.h"
#include "port.h"
#include "prof.h"
#include "run.h"
#include "streams.h"
#include "worker.h"

#define NPORTS 4
#define PER_PAIR 2
#define NWORKERS (NPORTS / 2 * PER_PAIR)
#define HZ 2000000000ull

static const char flows_yaml[] = "mode: flows\n"
				 "ip_gen:\n"
				 "  client: {range: [198.18.0.1, 198.18.0.254], distribution: seq}\n"
				 "  server: {range: [198.19.0.1, 198.19.0.254], distribution: seq}\n"
				 "  offset: 0.1.0.0\n"
				 "  client_ports: [2000, 2999]\n"
				 "templates:\n"
				 "  - name: a\n"
				 "    proto: udp\n"
				 "    port: 4321\n"
				 "    cps: 600\n"
				 "    client: [ {send: 18} ]\n"
				 "    server: [ {recv: 18} ]\n"
				 "  - name: b\n"
				 "    proto: tcp\n"
				 "    port: 80\n"
				 "    cps: 400\n"
				 "    client: [ {send: 100}, {recv: 1000} ]\n"
				 "    server: [ {recv: 100}, {send: 1000} ]\n";

static const char streams_yaml[] = "mode: streams\n"
				   "streams:\n"
				   "  - name: s0\n"
				   "    ports: [0, 2]\n"
				   "    frame: 64\n"
				   "    rate: 10kpps\n"
				   "    src: {range: [198.18.0.1, 198.18.0.254], mode: inc}\n"
				   "    dst: {range: [198.19.0.1, 198.19.0.254], mode: inc}\n"
				   "    sport: 1024\n"
				   "    dport: 4321\n"
				   "  - name: s1\n"
				   "    ports: [1, 3]\n"
				   "    frame: 128\n"
				   "    rate: 3kpps\n"
				   "    src: {range: [198.19.0.1, 198.19.0.254], mode: inc}\n"
				   "    dst: {range: [198.18.0.1, 198.18.0.254], mode: inc}\n"
				   "    sport: 1024\n"
				   "    dport: 4321\n"
				   "    latency: true\n";

/* Two pairs (ports 0-1, 2-3), PER_PAIR workers each, as ctl_launch lays them out. */
static int setup(void **st)
{
	(void)st;
	memset(fg_worker, 0, sizeof(fg_worker));
	memset(fg_port, 0, sizeof(fg_port));
	fg_nports = NPORTS;
	fg_nworkers = NWORKERS;
	for (int i = 0; i < NWORKERS; i++) {
		struct worker *w = &fg_worker[i];

		w->id = i;
		w->lcore = (unsigned)i + 1;
		w->pair = i / PER_PAIR;
		w->q = (uint16_t)(i % PER_PAIR);
		w->nq = PER_PAIR;
		w->port[0] = 2 * w->pair;
		w->port[1] = 2 * w->pair + 1;
		w->pv[0] = &fg_port[w->port[0]].v;
		w->pv[1] = &fg_port[w->port[1]].v;
	}
	/* DPDK port ids other than the indexes, as vdevs may have them */
	for (int p = 0; p < NPORTS; p++) {
		fg_port[p].v.mac.addr_bytes[5] = (uint8_t)(p + 1);
		fg_port[p].v.id = (uint16_t)(10 + p);
	}
	return 0;
}

/* Load yaml as a profile and fill rp as run_start does, at -m mult. */
static const struct engine *prep_params(const char *yaml, struct prof *pf, struct run_params *rp,
					double mult)
{
	char path[] = "/tmp/test_engines_XXXXXX", err[FG_ERRLEN];
	const struct engine *e;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, yaml, strlen(yaml)), (ssize_t)strlen(yaml));
	close(fd);
	memset(pf, 0, sizeof(*pf));
	if (prof_load(path, pf, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	unlink(path);
	memset(rp, 0, sizeof(*rp));
	rp->prof = pf;
	rp->hz = HZ;
	rp->flows_max = 0; /* no flows_max: the tables are the run's plan (flowplan.h) */
	rp->mult = (struct units_rate){.kind = UNITS_MULT, .value = mult};
	for (int p = 0; p < NPORTS; p++)
		rp->link_bps[p] = 10000000000ull;
	e = run_engine(pf->mode);
	assert_non_null(e);
	assert_int_equal(e->mode, pf->mode);
	assert_non_null(e->worker);
	if (e->load(rp, &rp->load, err, sizeof(err)) != 0 ||
	    load_factors(&rp->load, &rp->mult, rp->link_bps, rp->factor, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	return e;
}

static void test_table(void **st)
{
	(void)st;
	assert_null(run_engine(0));
	assert_null(run_engine(PROF_MODE_COUNT));
	assert_string_equal(run_engine(PROF_FLOWS)->name, "flows");
	assert_string_equal(run_engine(PROF_STREAMS)->name, "streams");
	/* every engine: the ops run_start and the worker loop call */
	for (int m = PROF_FLOWS; m < PROF_MODE_COUNT; m++) {
		const struct engine *e = run_engine(m);
		const struct worker_ops *w = e->worker;

		assert_non_null(e->load);
		assert_non_null(e->prepare);
		assert_non_null(e->release);
		assert_true(w->rx || w->rx_burst);
		assert_non_null(w->tick);
		assert_non_null(w->stop);
		assert_non_null(w->rate);
		assert_non_null(w->pause);
		assert_non_null(w->idle);
	}
	/* the memory plan: the flows' table at flows_max entries, more for
	 * more; without flows_max an unpaced run's (FLOWPLAN_UNPACED_DEFAULT) */
	assert_true(run_worker_mem(1024) > 0);
	assert_true(run_worker_mem(65536) > run_worker_mem(1024));
	assert_true(run_worker_mem(0) == run_worker_mem(1048576));
}

static void test_flows(void **st)
{
	struct prof pf;
	struct run_params rp;
	void *states[FG_MAX_WORKERS] = {0};
	char err[FG_ERRLEN];
	const struct engine *e = prep_params(flows_yaml, &pf, &rp, 2);

	(void)st;
	assert_true(fabs(rp.load.cps - 1000) < 1e-9);
	rp.tunables = "payload_check=1";
	if (e->prepare(&rp, states, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	for (int pair = 0; pair < NPORTS / 2; pair++) {
		double sum = 0;

		for (int q = 0; q < PER_PAIR; q++) {
			int i = pair * PER_PAIR + q;
			const struct flows_state *s = states[i];

			assert_non_null(s);
			/* -m 2 of 1000 connections/s per pair, split over its workers */
			assert_true(fabs(s->rate - 2000.0 / PER_PAIR) < 1e-6);
			sum += s->rate;
			assert_true(s->gen);
			assert_int_equal(s->npairs, NPORTS / 2);
			assert_int_equal(s->ntpl, 2);
			assert_true(fabs(s->tpl[0].weight - 0.6) < 1e-9);
			assert_int_equal(s->check, FLOWPAY_STRICT);
			/* client ports 2000..2999: worker q has the 500 ports p mod 2 == q */
			assert_int_equal(s->own.nq, PER_PAIR);
			assert_int_equal(s->own.port_lo, 2000);
			assert_int_equal(s->own.port_hi, 2999);
			assert_int_equal(s->ncpa, 1);
			assert_int_equal(s->cpa[0].step, PER_PAIR);
			assert_int_equal(s->cpa[0].port_lo % PER_PAIR, q);
			assert_int_equal(s->cpa[0].nports, 1000 / PER_PAIR);
			assert_non_null(s->ft);
			/* every worker draws from a sequence of its own */
			for (int j = 0; j < i; j++)
				assert_true(s->rng != ((const struct flows_state *)states[j])->rng);
		}
		assert_true(fabs(sum - 2000) < 1e-6);
	}
	for (int i = NWORKERS; i < FG_MAX_WORKERS; i++)
		assert_null(states[i]);
	e->release(states);
	for (int i = 0; i < FG_MAX_WORKERS; i++)
		assert_null(states[i]);

	/* a refused -t leaves nothing prepared */
	rp.tunables = "payload_check=2";
	assert_int_equal(e->prepare(&rp, states, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown key"));
	for (int i = 0; i < FG_MAX_WORKERS; i++)
		assert_null(states[i]);
	prof_free(&pf);
}

static void test_streams(void **st)
{
	struct prof pf;
	struct run_params rp;
	void *states[FG_MAX_WORKERS] = {0};
	char err[FG_ERRLEN];
	const struct engine *e = prep_params(streams_yaml, &pf, &rp, 0.5);

	(void)st;
	rp.tunables = "learn=0,drain=0.5";
	if (e->prepare(&rp, states, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	for (int pair = 0; pair < NPORTS / 2; pair++) {
		double sum[2] = {0, 0};

		for (int q = 0; q < PER_PAIR; q++) {
			int i = pair * PER_PAIR + q;
			const struct streams_state *s = states[i];

			assert_non_null(s);
			assert_ptr_equal(s->w, &fg_worker[i]);
			assert_int_equal(s->nsenders, PER_PAIR);
			/* s0 from each pair's first port, s1 from its second */
			assert_int_equal(s->nsnd, 2);
			for (uint32_t k = 0; k < s->nsnd; k++) {
				const struct streams_sender *sd = &s->snd[k];

				assert_int_equal(sd->sid, k);
				assert_int_equal(sd->side, (int)k);
				assert_int_equal(sd->txport, fg_worker[i].port[k]);
				/* the mbufs' rearm word, made by control for the
				 * DPDK port the sender sends on */
				assert_true(sd->rearm == streams_rearm((uint16_t)(10 + sd->txport)));
				assert_false(sd->rearm == streams_rearm((uint16_t)sd->txport));
				assert_int_equal(sd->latency, k == 1);
				sum[k] += sd->base_pps;
			}
			assert_ptr_equal(s->run, ((const struct streams_state *)states[0])->run);
		}
		/* -m 0.5 of each stream's rate, split over the pair's workers */
		assert_true(fabs(sum[0] - 5000) < 1e-6);
		assert_true(fabs(sum[1] - 1500) < 1e-6);
	}
	{
		const struct streams_run *run = ((const struct streams_state *)states[0])->run;

		assert_false(run->learn);
		assert_true(run->drain_s == 0.5);
		assert_int_equal(run->nstreams, 2);
	}
	e->release(states);
	for (int i = 0; i < FG_MAX_WORKERS; i++)
		assert_null(states[i]);

	rp.tunables = "drain=9";
	assert_int_equal(e->prepare(&rp, states, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown key or value out of range"));
	for (int i = 0; i < FG_MAX_WORKERS; i++)
		assert_null(states[i]);
	prof_free(&pf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table),
	    cmocka_unit_test(test_flows),
	    cmocka_unit_test(test_streams),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
