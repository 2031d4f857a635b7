/*
 * test_flows_caps.c — the choice of a new flow's template under caps
 * (flows_pick_capped(), src/dataplane/flows_pick.c; flows.h): a template
 * whose limit share is spent or whose client flows reach its climit share
 * has its turns skipped while the others keep their own rates, each pick
 * counts the template's limit down, a burst counts its own picks against
 * the climit and stays within the --active share's room, and with no
 * template free (or no client port free) nothing is picked. And the
 * profile keys behind them: limit and climit load, 0 when left out (their
 * errors are test/data/prof_*limit*.yaml, test_prof.c's bad files).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ctr.h"
#include "fgen.h"
#include "fgen_mem.h"
#include "flows.h"
#include "flows_int.h"
#include "prof.h"

#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

/* A worker's state with three UDP templates of cps 1, 1 and 2. */
static struct flows_state *state(uint16_t port_hi)
{
	struct flows_state *s = calloc(1, sizeof(*s));
	static const double w[3] = {0.25, 0.25, 0.5};

	assert_non_null(s);
	assert_int_equal(
	    fgen_addrs_range(&s->cli, FGEN_INC, IP(198, 18, 0, 1), IP(198, 18, 0, 1), 1), 0);
	assert_int_equal(
	    fgen_addrs_range(&s->srv, FGEN_INC, IP(198, 19, 0, 1), IP(198, 19, 0, 9), 2), 0);
	assert_int_equal(fgen_cpa_init(&s->cpa[0], &s->cli, 1024, port_hi, 1), 0);
	s->ncpa = 1;
	s->ntpl = 3;
	for (unsigned i = 0; i < 3; i++) {
		s->tpl[i].proto = PROF_UDP;
		s->tpl[i].port = (uint16_t)(4321 + i);
		s->tpl[i].weight = w[i];
		s->tpl[i].left = UINT64_MAX;
		s->tpl[i].cmax = UINT64_MAX;
	}
	s->active_max = UINT64_MAX;
	s->capped = true;
	return s;
}

static void done(struct flows_state *s)
{
	fgen_cpa_destroy(&s->cpa[0]);
	free(s);
}

/* picks N calls of one flow each: how many of each template, and how
 * many calls picked nothing (n[3]) */
static void picks(struct flows_state *s, const struct ctr_tpl *act, int calls, unsigned n[4])
{
	struct flows_new nf;

	memset(n, 0, 4 * sizeof(n[0]));
	for (int i = 0; i < calls; i++) {
		if (flows_pick_capped(s, act, &nf, 1, 0) == 0) {
			n[3]++;
			continue;
		}
		/* keyed as the reply arrives: from the template's server port */
		assert_int_equal(nf.k.sport, s->tpl[nf.tpl].port);
		n[nf.tpl]++;
	}
}

static void test_limit(void **state_)
{
	struct flows_state *s = state(65535);
	struct ctr_tpl act[FG_PROF_MAX_TEMPLATES] = {0};
	unsigned n[4];

	(void)state_;
	s->tpl[0].left = 10;
	s->tpl[2].left = 0; /* a share of 0: never picked */
	picks(s, act, 400, n);
	assert_int_equal(n[0], 10);
	assert_int_equal(n[1], 100); /* its own rate: the others' turns are skipped */
	assert_int_equal(n[2], 0);
	assert_int_equal(n[3], 290);
	assert_int_equal(s->tpl[0].left, 0);
	assert_int_equal(s->tpl[1].left, UINT64_MAX - 100);
	s->tpl[1].left = 0;
	picks(s, act, 40, n);
	assert_int_equal(n[3], 40); /* every limit spent */
	done(s);
}

static void test_climit(void **state_)
{
	struct flows_state *s = state(65535);
	struct ctr_tpl act[FG_PROF_MAX_TEMPLATES] = {0};
	unsigned n[4];

	(void)state_;
	s->tpl[2].cmax = 5;
	act[2].active_client = 5; /* at its climit: skipped */
	picks(s, act, 100, n);
	assert_int_equal(n[2], 0);
	assert_int_equal(n[0], 25); /* the other two at their own rates */
	assert_int_equal(n[1], 25);
	assert_int_equal(n[3], 50);
	/* below it again: 1:1:2 */
	act[2].active_client = 4;
	picks(s, act, 400, n);
	assert_int_equal(n[0], 100);
	assert_int_equal(n[1], 100);
	assert_int_equal(n[2], 200);
	s->tpl[0].cmax = s->tpl[1].cmax = 0; /* a climit share of 0 */
	act[2].active_client = 5;
	picks(s, act, 40, n);
	assert_int_equal(n[3], 40);
	done(s);
}

/* A burst counts the flows picked before it in nf[] against the climit,
 * and takes no more than the --active share leaves room for. */
static void test_burst(void **state_)
{
	struct flows_state *s = state(65535);
	struct ctr_tpl act[FG_PROF_MAX_TEMPLATES] = {0};
	struct flows_new nf[32];
	unsigned n[3] = {0};
	uint32_t got;

	(void)state_;
	s->tpl[0].cmax = 3;
	s->tpl[1].cmax = 2;
	s->tpl[2].cmax = 7;
	act[2].active_client = 2;
	got = flows_pick_capped(s, act, nf, 32, 0);
	assert_int_equal(got, 3 + 2 + 5);
	for (uint32_t i = 0; i < got; i++)
		n[nf[i].tpl]++;
	assert_int_equal(n[0], 3);
	assert_int_equal(n[1], 2);
	assert_int_equal(n[2], 5);
	/* --active: room for 4 of a share of 10 */
	s->tpl[0].cmax = s->tpl[1].cmax = s->tpl[2].cmax = UINT64_MAX;
	s->active_max = 10;
	s->active[FLOWTAB_CLIENT] = 6;
	assert_int_equal(flows_pick_capped(s, act, nf, 32, 0), 4);
	assert_int_equal(flows_pick_capped(s, act, nf, 2, 0), 2); /* fewer due than room */
	s->active[FLOWTAB_CLIENT] = 10;
	assert_int_equal(flows_pick_capped(s, act, nf, 32, 0), 0);
	done(s);
}

static void test_no_port(void **state_)
{
	struct flows_state *s = state(1025); /* two client ports */
	struct ctr_tpl act[FG_PROF_MAX_TEMPLATES] = {0};
	struct flows_new nf;

	(void)state_;
	s->tpl[0].left = s->tpl[1].left = s->tpl[2].left = 5;
	assert_int_equal(flows_pick_capped(s, act, &nf, 1, 0), 1);
	assert_int_equal(flows_pick_capped(s, act, &nf, 1, 0), 1);
	/* no port free: nothing picked, no limit counted down */
	assert_int_equal(flows_pick_capped(s, act, &nf, 1, 0), 0);
	assert_int_equal(s->tpl[0].left + s->tpl[1].left + s->tpl[2].left, 13);
	done(s);
}

/* A template's limit and climit (flowgen-profile(5)): 0 when left out. */
static void test_profile(void **state_)
{
	char err[FG_ERRLEN] = "";
	const char *d = getenv("FG_TEST_DATA");
	char path[512];
	struct prof p;

	(void)state_;
	snprintf(path, sizeof(path), "%s/flows_caps.yaml", d ? d : "test/data");
	if (prof_load(path, &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(p.n_templates, 2);
	assert_int_equal(p.templates[0].limit, 1000);
	assert_int_equal(p.templates[0].climit, 0);
	assert_int_equal(p.templates[1].limit, 0);
	assert_int_equal(p.templates[1].climit, 50);
	prof_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_limit),   cmocka_unit_test(test_climit),
	    cmocka_unit_test(test_burst),   cmocka_unit_test(test_no_port),
	    cmocka_unit_test(test_profile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
