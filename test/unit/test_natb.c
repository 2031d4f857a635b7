/*
 * test_natb.c — the pure half of `bench nat` (natb_judge.c), fed with
 * probe results recorded from the lab's Linux NATs (examples/lab.sh, kernel
 * 6.18; the progress lines of `bench nat` name every endpoint) and with
 * sequences built the way RFC 6056 §3.3 describes: mapping under
 * contention (masquerade maps by destination once a port is taken; the
 * 1:1 prefix map does not), port overloading (a pool NAT reusing a port
 * number on two addresses is not overloading), the port range, whether a
 * path translates at all, the hairpinned source, port allocation over
 * many destinations (algorithms 3 and 4 are not sequential), filtering,
 * pooling, the timeout plan and its reading, and the table of checks (no
 * NAT: no verdict; REQ-1 on the worse of the two mappings, and never a
 * pass without the contended one but where contention is impossible;
 * RFC 7857 §10 on the ports chosen under contention; no MAY row passes;
 * the RFC 6888 rows).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "natb_judge.h"

#define X1 0xc6130101u
#define X2 0xc6130102u

/* the lab's addresses: internal hosts 198.18.1.2.., servers 198.19.0.10.. */
#define IN(n) (0xc6120100u + (n))   /* 198.18.1.n */
#define SRV(n) (0xc613000au + (n))  /* 198.19.0.(10 + n) */
#define MASQ 0xc6130101u	    /* 198.19.1.1 */
#define POOL(n) (0xc6130100u + (n)) /* 198.19.1.n */
#define ONE(n) (0xc6130200u + (n))  /* 198.19.2.n, the 1:1 map */

/* masquerade (kernel 6.18), recorded by 95_bench_nat_loss.sh: internal
 * ports 34952.. of one address kept towards 32 destinations; the same
 * ports from another address towards the same destinations got these */
#define MASQ_FORCED_IN 34952
#define MASQ_FORCED                                                                                \
	1522, 5478, 22261, 5868, 23270, 39793, 34225, 62794, 29843, 8575, 2087, 31939, 28382,      \
	    36101, 58125, 14183, 50456, 17854, 40843, 12935, 10797, 5647, 43688, 35622, 35676,     \
	    40112, 33586, 58044, 54852, 6459, 53619, 3489
#define ALLOC_CONT_STEP 17402 /* their median step */

static struct natb_obs ob(uint32_t iip, uint16_t ip_, uint32_t xip, uint16_t xp, uint32_t sip,
			  uint16_t sp)
{
	return (struct natb_obs){{iip, ip_}, {xip, xp}, {sip, sp}};
}

static void test_mapping(void **st)
{
	struct natb_ep ei[2][2] = {{{X1, 5000}, {X1, 5000}}, {{X1, 5000}, {X1, 5000}}};
	struct natb_ep ad[2][2] = {{{X1, 5000}, {X1, 5000}}, {{X2, 5000}, {X2, 5000}}};
	struct natb_ep apd[2][2] = {{{X1, 5000}, {X1, 5001}}, {{X1, 5002}, {X1, 5003}}};
	struct natb_ep half[2][2] = {{{X1, 5000}, {X1, 5000}}, {{X1, 5000}, {0, 0}}};
	struct natb_ep ad_port[2][2] = {{{X1, 5000}, {X1, 5000}}, {{X1, 6000}, {X1, 6000}}};

	(void)st;
	assert_int_equal(natb_mapping(ei), NATB_DEP_EI);
	assert_int_equal(natb_mapping(ad), NATB_DEP_AD);
	assert_int_equal(natb_mapping(ad_port), NATB_DEP_AD);
	assert_int_equal(natb_mapping(apd), NATB_DEP_APD);
	assert_int_equal(natb_mapping(half), NATB_DEP_UNKNOWN);
	/* the worse of two; unknown only when both are */
	assert_int_equal(natb_dep_worse(NATB_DEP_EI, NATB_DEP_APD), NATB_DEP_APD);
	assert_int_equal(natb_dep_worse(NATB_DEP_AD, NATB_DEP_EI), NATB_DEP_AD);
	assert_int_equal(natb_dep_worse(NATB_DEP_UNKNOWN, NATB_DEP_EI), NATB_DEP_EI);
	assert_int_equal(natb_dep_worse(NATB_DEP_APD, NATB_DEP_UNKNOWN), NATB_DEP_APD);
	assert_int_equal(natb_dep_worse(NATB_DEP_UNKNOWN, NATB_DEP_UNKNOWN), NATB_DEP_UNKNOWN);
}

/*
 * Masquerade under contention, recorded: A (198.18.1.3:48405) took
 * 198.19.1.1:48405 towards S1 (198.19.0.10:3478); then B
 * (198.18.1.4:48405) got 48405 towards S1:3479, S2:3478 and S2:3479 (free
 * there) and 56314 towards the taken S1:3478. In the mirror order (the
 * taken one first) B got 43182 everywhere: Linux reuses a source's
 * existing mapping where it is unique. The 1:1 prefix map gave B its own
 * address and port in both orders.
 */
static void test_contended(void **st)
{
	const struct natb_ep free_first[2][2] = {{{MASQ, 56314}, {MASQ, 48405}},
						 {{MASQ, 48405}, {MASQ, 48405}}};
	const struct natb_ep taken_first[2][2] = {{{MASQ, 43182}, {MASQ, 43182}},
						  {{MASQ, 43182}, {MASQ, 43182}}};
	const struct natb_ep one_to_one[2][2] = {{{ONE(4), 33806}, {ONE(4), 33806}},
						 {{ONE(4), 33806}, {ONE(4), 33806}}};
	/* the uncontended probe of the same run: a fresh port, kept everywhere */
	const struct natb_ep fresh[2][2] = {{{MASQ, 48404}, {MASQ, 48404}},
					    {{MASQ, 48404}, {MASQ, 48404}}};

	(void)st;
	assert_int_equal(natb_mapping(fresh), NATB_DEP_EI);
	assert_int_equal(natb_mapping(free_first), NATB_DEP_APD);
	assert_int_equal(natb_mapping(taken_first), NATB_DEP_EI);
	assert_int_equal(natb_dep_worse(natb_mapping(free_first), natb_mapping(taken_first)),
			 NATB_DEP_APD);
	assert_int_equal(natb_mapping(one_to_one), NATB_DEP_EI);
}

static void test_overloading(void **st)
{
	/* masquerade's contended probe (recorded above): B moved off A's port
	 * towards the taken server endpoint; same port towards S1:3479 is
	 * port overlapping (RFC 7857 §3), not overloading */
	const struct natb_obs masq[] = {
	    ob(IN(3), 48405, MASQ, 48405, SRV(0), 3478),
	    ob(IN(4), 48405, MASQ, 48405, SRV(0), 3479),
	    ob(IN(4), 48405, MASQ, 48405, SRV(1), 3478),
	    ob(IN(4), 48405, MASQ, 48405, SRV(1), 3479),
	    ob(IN(4), 48405, MASQ, 56314, SRV(0), 3478),
	};
	/* SNAT to a pool with `persistent`, recorded: A and B kept port 46579
	 * towards one server, on two external addresses */
	const struct natb_obs pool[] = {
	    ob(IN(3), 46579, POOL(13), 46579, SRV(0), 3478),
	    ob(IN(4), 46579, POOL(14), 46579, SRV(0), 3478),
	};
	/* a NAT that always keeps the port: both on one external endpoint
	 * towards one server endpoint */
	const struct natb_obs over[] = {
	    ob(IN(3), 5001, MASQ, 5001, SRV(0), 3478),
	    ob(IN(4), 5001, MASQ, 5001, SRV(0), 3478),
	};
	/* one internal endpoint towards many servers: nothing to compare */
	const struct natb_obs alone[] = {
	    ob(IN(2), 5001, MASQ, 5001, SRV(0), 3478),
	    ob(IN(2), 5001, MASQ, 5001, SRV(1), 3478),
	};
	const struct natb_obs lost[] = {
	    ob(IN(3), 5001, MASQ, 5001, SRV(0), 3478),
	    ob(IN(4), 5001, 0, 0, SRV(0), 3478),
	};

	(void)st;
	assert_int_equal(natb_overloading(masq, 5), NATB_NO);
	assert_int_equal(natb_overloading(pool, 2), NATB_NO);
	assert_int_equal(natb_overloading(over, 2), NATB_YES);
	assert_int_equal(natb_overloading(alone, 2), NATB_UNSEEN);
	assert_int_equal(natb_overloading(lost, 2), NATB_UNSEEN);
	assert_int_equal(natb_overloading(NULL, 0), NATB_UNSEEN);
}

static void test_range_translated(void **st)
{
	const struct natb_obs masq[] = {ob(IN(2), 30000, MASQ, 30000, SRV(0), 3478),
					ob(IN(2), 30001, MASQ, 1434, SRV(1), 3478)};
	const struct natb_obs low[] = {ob(IN(2), 30000, MASQ, 800, SRV(0), 3478)};
	/* the lab's router (no NAT), recorded: sources left unchanged */
	const struct natb_obs plain[] = {ob(IN(3), 54238, IN(3), 54238, SRV(0), 3478),
					 ob(IN(4), 54238, IN(4), 54238, SRV(0), 3479)};
	const struct natb_obs none[] = {ob(IN(2), 30000, 0, 0, SRV(0), 3478)};

	(void)st;
	assert_int_equal(natb_port_range(masq, 2), NATB_YES);
	assert_int_equal(natb_port_range(low, 1), NATB_NO);
	assert_int_equal(natb_port_range(none, 1), NATB_UNSEEN);
	assert_int_equal(natb_translated(masq, 2), NATB_YES);
	assert_int_equal(natb_translated(plain, 2), NATB_NO);
	assert_int_equal(natb_translated(none, 1), NATB_UNSEEN);
}

static void test_hairpin_src(void **st)
{
	const struct natb_ep in = {IN(16), 20001}, ext = {MASQ, 20001};

	(void)st;
	/* nat-hairpin, recorded: from the sender's masquerade endpoint */
	assert_int_equal(natb_hairpin_src(ext, ext, in, NATB_DEP_EI), NATB_YES);
	/* the internal source, untranslated */
	assert_int_equal(natb_hairpin_src(in, ext, in, NATB_DEP_EI), NATB_NO);
	/* the external address with another port: wrong for an EIM NAT,
	 * unknowable for one that maps by destination */
	assert_int_equal(natb_hairpin_src((struct natb_ep){MASQ, 7}, ext, in, NATB_DEP_EI),
			 NATB_NO);
	assert_int_equal(natb_hairpin_src((struct natb_ep){MASQ, 7}, ext, in, NATB_DEP_APD),
			 NATB_UNSEEN);
	/* another address altogether */
	assert_int_equal(natb_hairpin_src((struct natb_ep){X2, 20001}, ext, in, NATB_DEP_APD),
			 NATB_NO);
	assert_int_equal(natb_hairpin_src((struct natb_ep){0, 0}, ext, in, NATB_DEP_EI),
			 NATB_UNSEEN);
}

static void test_filtering(void **st)
{
	(void)st;
	assert_int_equal(natb_filtering(true, true), NATB_DEP_EI);
	assert_int_equal(natb_filtering(false, true), NATB_DEP_EI);
	assert_int_equal(natb_filtering(true, false), NATB_DEP_AD);
	assert_int_equal(natb_filtering(false, false), NATB_DEP_APD);
}

static void test_pooling(void **st)
{
	uint32_t single[4] = {X1, X1, X1, X1}, paired[4] = {X1, X1, X2, X2};
	uint32_t arbitrary[4] = {X1, X2, X2, X2}, none[4] = {0}, gaps[4] = {X1, 0, 0, X2};
	unsigned n;

	(void)st;
	assert_int_equal(natb_pooling(single, 2, 2, &n), NATB_POOL_SINGLE);
	assert_int_equal(n, 1);
	assert_int_equal(natb_pooling(paired, 2, 2, &n), NATB_POOL_PAIRED);
	assert_int_equal(n, 2);
	assert_int_equal(natb_pooling(arbitrary, 2, 2, &n), NATB_POOL_ARBITRARY);
	assert_int_equal(natb_pooling(none, 2, 2, &n), NATB_POOL_UNKNOWN);
	assert_int_equal(n, 0);
	/* what did not arrive does not count against pairing */
	assert_int_equal(natb_pooling(gaps, 2, 2, &n), NATB_POOL_PAIRED);
}

/* a keyed mix of a destination, standing for RFC 6056's hash functions */
static uint32_t mix(uint32_t dst, uint16_t port, uint32_t key)
{
	uint32_t h = dst * 0x9e3779b1u ^ (uint32_t)port * 0x85ebca6bu ^ key;

	h ^= h >> 15;
	h *= 0x2c1b3c6du;
	h ^= h >> 12;
	return h;
}

static void test_alloc(void **st)
{
	/* masquerade fully-random, recorded: internal ports 30487.., each
	 * towards its own destination */
	static const uint16_t rnd[32] = {28205, 15971, 37395, 14216, 51902, 52207, 33884, 10344,
					 33312, 48523, 47865, 8975,  25558, 15134, 52471, 27922,
					 4249,	61470, 60310, 58342, 21863, 10604, 56308, 44897,
					 10740, 57596, 3851,  56648, 5095,  48409, 58525, 61957};
	uint16_t in[32], kept[32], seq[32], alg3[32], alg3_one[32], alg4[32], rin[32];
	uint16_t table[16] = {0};
	unsigned pct, step;
	uint32_t next = 777;

	(void)st;
	for (int i = 0; i < 32; i++) {
		const uint32_t dst = SRV(i % 8);
		const uint16_t dp = (uint16_t)(3482 + i / 8);

		in[i] = (uint16_t)(46547 + i);
		rin[i] = (uint16_t)(30487 + i);
		/* masquerade, recorded: every port kept */
		kept[i] = in[i];
		/* a global counter (RFC 6056 §3.3.2's idea without the random start) */
		seq[i] = (uint16_t)(1024 + 2 * i);
		/* RFC 6056 §3.3.3: a counter plus a hash of the destination */
		alg3[i] = (uint16_t)(1024 + (next + mix(dst, dp, 42)) % 64512);
		alg3_one[i] = (uint16_t)(1024 + (next + mix(SRV(0), 3482, 42)) % 64512);
		next++;
		/* RFC 6056 §3.3.4: a hash, plus a counter per hash of the destination */
		alg4[i] =
		    (uint16_t)(1024 + (mix(dst, dp, 7) + table[mix(dst, dp, 9) % 16]++) % 64512);
	}
	assert_int_equal(natb_alloc_of(in, kept, 32, &pct, &step), NATB_ALLOC_PRESERVED);
	assert_int_equal(pct, 100);
	assert_int_equal(natb_alloc_of(in, seq, 32, &pct, &step), NATB_ALLOC_SEQUENTIAL);
	assert_int_equal(pct, 0);
	assert_int_equal(step, 2);
	assert_int_equal(natb_alloc_of(rin, rnd, 32, &pct, &step), NATB_ALLOC_RANDOM);
	assert_true(step > 1000);
	/* algorithms 3 and 4 over many destinations: not sequential */
	assert_int_equal(natb_alloc_of(in, alg3, 32, &pct, &step), NATB_ALLOC_RANDOM);
	assert_int_equal(natb_alloc_of(in, alg4, 32, &pct, &step), NATB_ALLOC_RANDOM);
	/* the same algorithm 3 towards one destination steps by one: why the
	 * bench asks many destinations */
	assert_int_equal(natb_alloc_of(in, alg3_one, 32, &pct, &step), NATB_ALLOC_SEQUENTIAL);
	assert_int_equal(step, 1);
	/* steps just at and over the threshold */
	for (int i = 0; i < 32; i++)
		seq[i] = (uint16_t)(2000 + NATB_SEQ_STEP * i);
	assert_int_equal(natb_alloc_of(in, seq, 32, &pct, &step), NATB_ALLOC_SEQUENTIAL);
	for (int i = 0; i < 32; i++)
		seq[i] = (uint16_t)(2000 + (NATB_SEQ_STEP + 1) * i);
	assert_int_equal(natb_alloc_of(in, seq, 32, &pct, &step), NATB_ALLOC_RANDOM);
	assert_int_equal(natb_alloc_of(in, rnd, 3, &pct, &step), NATB_ALLOC_UNKNOWN);
	/* the median, not the smallest or largest step: a random choice that
	 * once lands next to the last one stays random, a counter that other
	 * hosts' connections push forward a few times stays sequential */
	memcpy(seq, rnd, sizeof(seq));
	seq[5] = (uint16_t)(seq[4] + 1);
	assert_int_equal(natb_alloc_of(rin, seq, 32, &pct, &step), NATB_ALLOC_RANDOM);
	for (int i = 0; i < 32; i++)
		seq[i] = (uint16_t)(3000 + 3 * i + (i >= 10) * 900 + (i >= 20) * 4000);
	assert_int_equal(natb_alloc_of(in, seq, 32, &pct, &step), NATB_ALLOC_SEQUENTIAL);
	assert_int_equal(step, 3);
}

static void test_plan(void **st)
{
	double t[256];
	size_t n = natb_plan(1, 1.04, 300, t, 256);

	(void)st;
	assert_true(n > 100 && n < 256);
	assert_true(t[0] == 1);
	assert_true(t[n - 1] == 300);
	for (size_t i = 1; i + 1 < n; i++)
		assert_true(t[i] > t[i - 1] && t[i] <= t[i - 1] * 1.04 + 1e-9);
	/* a bound below the first probe, bad arguments, a small array */
	assert_int_equal(natb_plan(1, 1.04, 0.5, t, 256), 0);
	assert_int_equal(natb_plan(1, 1, 300, t, 256), 0);
	n = natb_plan(1, 1.04, 300, t, 10);
	assert_int_equal(n, 10);
	assert_true(t[9] == 300);
}

static void test_estimate(void **st)
{
	double t[8] = {1, 2, 4, 8, 16, 32, 64, 128};
	enum natb_tri a[8];
	struct natb_tmo r = {.planned = 9, .made = 8};

	(void)st;
	/* alive to 8 s, gone at 16 and 32: the end, between 8 and 16 */
	for (int i = 0; i < 8; i++)
		a[i] = i < 4 ? NATB_YES : i < 6 ? NATB_NO : NATB_UNSEEN;
	assert_true(natb_estimate(t, a, 8, &r));
	assert_int_equal(r.st, NATB_TMO_FOUND);
	assert_true(r.lo == 8 && r.hi == 16 && r.s == 12);
	/* the counts of mappings are the caller's */
	assert_int_equal(r.planned, 9);
	assert_int_equal(r.made, 8);
	/* one gone, the next not probed yet: not ended */
	a[5] = NATB_UNSEEN;
	assert_false(natb_estimate(t, a, 8, &r));
	/* a lost probe: gone at 16, alive at 32, gone at 64 and 128 */
	a[5] = NATB_YES;
	a[6] = a[7] = NATB_NO;
	assert_true(natb_estimate(t, a, 8, &r));
	assert_true(r.st == NATB_TMO_FOUND && r.lo == 32 && r.hi == 64);
	/* all alive: above the bound */
	for (int i = 0; i < 8; i++)
		a[i] = NATB_YES;
	assert_true(natb_estimate(t, a, 8, &r));
	assert_true(r.st == NATB_TMO_ABOVE && r.lo == 128);
	/* gone from the first two */
	a[0] = a[1] = NATB_NO;
	assert_true(natb_estimate(t, a, 8, &r));
	assert_true(r.st == NATB_TMO_BELOW && r.hi == 1);
	/* the last one gone after all alive */
	for (int i = 0; i < 8; i++)
		a[i] = i < 7 ? NATB_YES : NATB_NO;
	assert_true(natb_estimate(t, a, 8, &r));
	assert_true(r.st == NATB_TMO_FOUND && r.lo == 64 && r.hi == 128);
}

static const struct natb_check *find(const struct natb_check *c, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(c[i].id, id))
			return &c[i];
	return NULL;
}

static enum natb_verdict v_of(const struct natb_check *c, size_t n, const char *id)
{
	const struct natb_check *k = find(c, n, id);

	if (!k)
		fail_msg("no row %s", id);
	return k ? k->v : NATB_NA;
}

static const char *m_of(const struct natb_check *c, size_t n, const char *id)
{
	const struct natb_check *k = find(c, n, id);

	if (!k)
		fail_msg("no row %s", id);
	return k ? k->measured : "";
}

/* the lab's masquerade with distinct timers, as a run of `bench nat -p all
 * --timeout-max 60` measured it */
static void masquerade(struct natb_result *r)
{
	memset(r, 0, sizeof(*r));
	r->udp = (struct natb_udp){
	    .on = true,
	    .translated = NATB_YES,
	    .mapping = NATB_DEP_EI,
	    .mapping_contended = NATB_DEP_APD,
	    .contention = NATB_CONT_SEEN,
	    .filtering = NATB_DEP_APD,
	    .preserve = NATB_YES,
	    .parity = NATB_YES,
	    .hairpin = NATB_NO,
	    .refresh_out = NATB_YES,
	    .refresh_in = NATB_YES,
	    .overloading = NATB_NO,
	    .in_range = NATB_YES,
	    .icmp_keeps = NATB_YES,
	    .frags = NATB_YES,
	    .quota = {1024, 1024, NATB_YES, NATB_YES, NATB_NO},
	    .pooling = NATB_POOL_SINGLE,
	    .ext_addrs = 1,
	    .alloc = NATB_ALLOC_PRESERVED,
	    .alloc_n = 32,
	    .alloc_step = 1,
	    .contiguity_pct = 100,
	    .alloc_contended = NATB_ALLOC_RANDOM,
	    .alloc_forced = 32,
	    .alloc_contended_step = ALLOC_CONT_STEP,
	    .timeout = {NATB_TMO_FOUND, 45.8, 44.9, 46.7, 106, 106},
	    .unreplied = {NATB_TMO_FOUND, 20.1, 19.7, 20.5, 106, 106},
	};
	r->tcp = (struct natb_tcp){
	    .on = true,
	    .translated = NATB_YES,
	    .mapping = NATB_DEP_EI,
	    .mapping_contended = NATB_DEP_APD,
	    .contention = NATB_CONT_SEEN,
	    .filtering = NATB_DEP_APD,
	    .preserve = NATB_YES,
	    .hairpin = NATB_NO,
	    .overloading = NATB_NO,
	    .err_xlate = NATB_YES,
	    .established = {NATB_TMO_FOUND, 37.6, 36.9, 38.4, 106, 106},
	    .transitory = {NATB_TMO_FOUND, 14.1, 13.8, 14.4, 106, 106},
	    .closing = {NATB_TMO_FOUND, 29.7, 29.2, 30.3, 106, 106},
	};
	r->icmp = (struct natb_icmp){
	    .on = true,
	    .translated = NATB_YES,
	    .echo = NATB_YES,
	    .id_ei = NATB_YES,
	    .err_xlate = NATB_YES,
	    .query = {NATB_TMO_FOUND, 25.4, 24.9, 25.9, 106, 106},
	};
}

static void test_checks(void **st)
{
	struct natb_result r;
	struct natb_check c[NATB_MAX_CHECKS];
	size_t n;

	(void)st;
	masquerade(&r);
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_true(n >= 30);
	assert_null(find(c, n, "translation")); /* a NAT: no preamble */
	/* REQ-1 on the worse of the uncontended and the contended mapping */
	assert_int_equal(v_of(c, n, "RFC4787 REQ-1"), NATB_FAIL);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-1"),
			    "address-and-port-dependent (uncontended EI, contended APD)");
	assert_int_equal(v_of(c, n, "RFC5382 REQ-1"), NATB_FAIL);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-3"), NATB_PASS);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-7"), NATB_PASS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-3a"), NATB_PASS);
	/* one external address: no pool */
	assert_int_equal(v_of(c, n, "RFC4787 REQ-2"), NATB_NA);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-2"), "single, 1 external address: no pool");
	assert_int_equal(v_of(c, n, "RFC6888 REQ-2"), NATB_NA);
	/* ports preserved: §10 on the ports chosen when taken */
	assert_int_equal(v_of(c, n, "RFC7857 §10"), NATB_PASS);
	assert_string_equal(m_of(c, n, "RFC7857 §10"),
			    "preserved; random when taken: median step 17402 over 32 ports");
	/* a MAY, and what is only measured: info, however it came out */
	assert_int_equal(v_of(c, n, "RFC4787 REQ-4"), NATB_INFO);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-6a"), NATB_INFO);
	assert_int_equal(v_of(c, n, "RFC4787 §4.2.1"), NATB_INFO);
	r.udp.refresh_in = NATB_NO;
	r.udp.parity = NATB_NO;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-6a"), NATB_INFO);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-6a"), "not refreshed");
	assert_int_equal(v_of(c, n, "RFC4787 REQ-4"), NATB_INFO);
	masquerade(&r);
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	/* REQ-5 on the two-way mapping; the unreplied one is measured only */
	assert_int_equal(v_of(c, n, "RFC4787 REQ-5"), NATB_FAIL);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-5"), "45.8 s (alive at 44.9, gone at 46.7)");
	assert_int_equal(v_of(c, n, "RFC4787 §4.3"), NATB_INFO);
	assert_string_equal(m_of(c, n, "RFC4787 §4.3"), "20.1 s (alive at 19.7, gone at 20.5)");
	/* 14 s transitory: allowed when configured so (RFC 7857 §2.1) */
	assert_int_equal(v_of(c, n, "RFC5382 REQ-5 (transitory)"), NATB_INFO);
	assert_int_equal(v_of(c, n, "RFC7857 §2.1"), NATB_INFO);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-5"), NATB_FAIL);
	assert_int_equal(v_of(c, n, "RFC5508 REQ-2"), NATB_FAIL);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-9"), NATB_FAIL);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-9a"), NATB_NA);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-9a"), "no hairpinning");
	assert_int_equal(v_of(c, n, "RFC5508 REQ-1"), NATB_PASS);
	assert_int_equal(v_of(c, n, "RFC5508 REQ-1a"), NATB_PASS);
	/* no limit reached: support for one not seen; the rows about a
	 * subscriber at its limit do not arise */
	assert_string_equal(m_of(c, n, "RFC6888 REQ-4"),
			    "1024 of 1024 mappings from one address, no limit reached");
	assert_int_equal(v_of(c, n, "RFC6888 REQ-4"), NATB_INCONCLUSIVE);
	assert_int_equal(v_of(c, n, "RFC6888 REQ-4 (others)"), NATB_NA);
	assert_int_equal(v_of(c, n, "RFC6888 REQ-11 D"), NATB_NA);
	/* the old §5 re-scoring of EIM is gone */
	assert_null(find(c, n, "RFC7857 §5"));

	/* a transitory timeout of 4 min or more is information too (it MAY
	 * be configured lower); an established search that ended at 300 s
	 * did not measure what REQ-5 asks */
	r.tcp.transitory = (struct natb_tmo){NATB_TMO_FOUND, 250, 245, 255, 106, 106};
	r.tcp.established = (struct natb_tmo){NATB_TMO_ABOVE, 300, 300, 0, 130, 130};
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-5 (transitory)"), NATB_INFO);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-5"), NATB_INCONCLUSIVE);
	assert_string_equal(m_of(c, n, "RFC5382 REQ-5"), "above 300 s: the search ended first");
	r.tcp.established = (struct natb_tmo){NATB_TMO_ABOVE, 7500, 7500, 0, 130, 130};
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-5"), NATB_PASS);
	/* alive at 110 s, gone at 125 s: on either side of 2 min */
	r.udp.timeout = (struct natb_tmo){NATB_TMO_FOUND, 117.5, 110, 125, 106, 106};
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-5"), NATB_INCONCLUSIVE);
	/* not searched (--timeout-max 0) */
	r.udp.timeout = (struct natb_tmo){0};
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-5"), NATB_INCONCLUSIVE);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-5"), "not measured");

	/* mappings that could not be made are reported, never "above" */
	r.udp.timeout = (struct natb_tmo){NATB_TMO_FAILED, 0, 0, 0, 106, 0};
	r.udp.unreplied = (struct natb_tmo){NATB_TMO_ABOVE, 30, 30, 0, 106, 40};
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-5"), "no mapping could be made (0 of 106)");
	assert_int_equal(v_of(c, n, "RFC4787 REQ-5"), NATB_INCONCLUSIVE);
	assert_string_equal(m_of(c, n, "RFC4787 §4.3"), "above 30 s; 66 of 106 mappings not made");
	assert_int_equal(v_of(c, n, "RFC4787 §4.3"), NATB_INFO);

	/* a subscriber at its limit: its earlier mapping kept, the others served */
	r.udp.quota = (struct natb_quota){1024, 512, NATB_YES, NATB_YES, NATB_NO};
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_string_equal(m_of(c, n, "RFC6888 REQ-4"),
			    "512 of 1024 mappings from one address: a limit");
	assert_int_equal(v_of(c, n, "RFC6888 REQ-4 (others)"), NATB_PASS);
	assert_int_equal(v_of(c, n, "RFC6888 REQ-11 D"), NATB_PASS);
	assert_int_equal(v_of(c, n, "RFC6888 REQ-11 B"), NATB_FAIL);
	r.udp.quota.kept = NATB_NO;
	r.udp.quota.others = NATB_NO;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC6888 REQ-4 (others)"), NATB_FAIL);
	assert_int_equal(v_of(c, n, "RFC6888 REQ-11 D"), NATB_FAIL);

	/* an echo that never came out: REQ-1 fails, the identifier is not seen */
	r.icmp.echo = NATB_NO;
	r.icmp.id_ei = NATB_UNSEEN;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC5508 REQ-1"), NATB_FAIL);
	assert_int_equal(v_of(c, n, "RFC5508 REQ-1a"), NATB_INCONCLUSIVE);
	assert_string_equal(m_of(c, n, "RFC5508 REQ-1a"), "not seen");

	/* the 1:1 prefix map: EI under contention, EI filtering, hairpinning
	 * from the sender's external endpoint, paired pooling */
	masquerade(&r);
	r.udp.mapping_contended = r.tcp.mapping_contended = NATB_DEP_EI;
	r.udp.filtering = r.tcp.filtering = NATB_DEP_EI;
	r.udp.hairpin = r.tcp.hairpin = NATB_YES;
	r.udp.hairpin_ext = r.tcp.hairpin_ext = NATB_YES;
	r.udp.pooling = NATB_POOL_PAIRED;
	r.udp.ext_addrs = 4;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-1"), NATB_PASS);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-1"), NATB_PASS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-8"), NATB_PASS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-9a"), NATB_PASS);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-8a"), NATB_PASS);
	assert_int_equal(v_of(c, n, "RFC6888 REQ-2"), NATB_PASS);
	/* a pool with arbitrary pooling fails RFC 6888's MUST */
	r.udp.pooling = NATB_POOL_ARBITRARY;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC6888 REQ-2"), NATB_FAIL);
	/* a contended mapping of unknown cause earns no pass (the cases are
	 * test_contention_cases') */
	r.udp.mapping_contended = NATB_DEP_UNKNOWN;
	r.udp.contention = NATB_CONT_LOST;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-1"), NATB_INCONCLUSIVE);
	/* a short table is cut, not overrun */
	assert_int_equal(natb_checks(&r, c, 3), 3);
}

/* one order of the contention probe: A's endpoint, B's towards
 * [S1:3478 (the taken one), S1:3479], [S2:3478, S2:3479] */
static struct natb_cont_probe cp(struct natb_ep a, struct natb_ep s1a, struct natb_ep s1b,
				 struct natb_ep s2a, struct natb_ep s2b)
{
	return (struct natb_cont_probe){a, {{s1a, s1b}, {s2a, s2b}}};
}

#define EP(ip, port) ((struct natb_ep){(ip), (port)})
#define OB(iip, ip_, xip, xp, sip, sp) {{(iip), (ip_)}, {(xip), (xp)}, {(sip), (sp)}}
#define NO_EP EP(0, 0)

/* the 1:1 prefix map's mappings of one run, recorded: every internal
 * address on an external address of its own (198.18.1.n -> 198.19.2.n) */
static const struct natb_obs one_to_one_seen[] = {
    OB(IN(2), 33800, ONE(2), 33800, SRV(0), 3478), OB(IN(2), 33800, ONE(2), 33800, SRV(1), 3479),
    OB(IN(3), 33801, ONE(3), 33801, SRV(2), 3478), OB(IN(4), 33802, ONE(4), 33802, SRV(3), 3478),
    OB(IN(5), 33803, ONE(5), 33803, SRV(4), 3478), OB(IN(3), 33806, ONE(3), 33806, SRV(0), 3478),
    OB(IN(4), 33806, ONE(4), 33806, SRV(0), 3479),
};

/* masquerade's seen mappings: every internal address on one address */
static const struct natb_obs masq_seen[] = {
    OB(IN(2), 44000, MASQ, 44000, SRV(0), 3478),
    OB(IN(3), 44001, MASQ, 44001, SRV(2), 3478),
    OB(IN(4), 44002, MASQ, 44002, SRV(3), 3478),
};

/* SNAT to a pool without `persistent`: an internal address on several
 * external addresses (the pooling probe's arbitrary answer) */
static const struct natb_obs pool_seen[] = {
    OB(IN(2), 46570, POOL(12), 46570, SRV(2), 3478),
    OB(IN(2), 46570, POOL(13), 46570, SRV(3), 3478),
    OB(IN(3), 46571, POOL(13), 46571, SRV(2), 3478),
    OB(IN(4), 46572, POOL(14), 46572, SRV(2), 3478),
};

/* the checks of the lab's masquerade with one protocol's contention set */
static void with_contention(struct natb_result *r, enum natb_cont st, enum natb_dep dep)
{
	masquerade(r);
	r->udp.contention = r->tcp.contention = st;
	r->udp.mapping_contended = r->tcp.mapping_contended = dep;
}

static void test_own_addrs(void **st)
{
	(void)st;
	assert_int_equal(natb_own_addrs(one_to_one_seen, FG_ARRAY_SIZE(one_to_one_seen)),
			 NATB_YES);
	assert_int_equal(natb_own_addrs(masq_seen, FG_ARRAY_SIZE(masq_seen)), NATB_NO);
	assert_int_equal(natb_own_addrs(pool_seen, FG_ARRAY_SIZE(pool_seen)), NATB_NO);
	/* two internal addresses are too few to tell */
	assert_int_equal(natb_own_addrs(one_to_one_seen, 2), NATB_UNSEEN);
	assert_int_equal(natb_own_addrs(NULL, 0), NATB_UNSEEN);
}

/*
 * The three reasons a contended mapping is unknown, each from a recorded
 * probe set, and what REQ-1 then reads: contention impossible (the 1:1
 * map: the fresh probe decides, and the row says so), a probe lost (the
 * relay of 95_bench_nat_loss.sh dropping B's datagrams to port 3479), B
 * never on A's address (a pool NAT).
 */
static void test_contention_cases(void **st)
{
	struct natb_cont_probe p[2];
	struct natb_result r;
	struct natb_check c[NATB_MAX_CHECKS];
	enum natb_dep dep;
	size_t n;

	(void)st;
	/* masquerade, recorded (test_contended): contended, APD */
	p[0] = cp(EP(MASQ, 48405), EP(MASQ, 56314), EP(MASQ, 48405), EP(MASQ, 48405),
		  EP(MASQ, 48405));
	p[1] = cp(EP(MASQ, 48406), EP(MASQ, 43182), EP(MASQ, 43182), EP(MASQ, 43182),
		  EP(MASQ, 43182));
	assert_int_equal(natb_contention(p, NATB_NO, &dep), NATB_CONT_SEEN);
	assert_int_equal(dep, NATB_DEP_APD);

	/* the 1:1 prefix map, recorded: B on its own address and port in
	 * both orders, every internal address on one of its own */
	p[0] = cp(EP(ONE(3), 33806), EP(ONE(4), 33806), EP(ONE(4), 33806), EP(ONE(4), 33806),
		  EP(ONE(4), 33806));
	p[1] = cp(EP(ONE(3), 33807), EP(ONE(4), 33807), EP(ONE(4), 33807), EP(ONE(4), 33807),
		  EP(ONE(4), 33807));
	assert_int_equal(natb_contention(
			     p, natb_own_addrs(one_to_one_seen, FG_ARRAY_SIZE(one_to_one_seen)),
			     &dep),
			 NATB_CONT_IMPOSSIBLE);
	assert_int_equal(dep, NATB_DEP_UNKNOWN);
	with_contention(&r, NATB_CONT_IMPOSSIBLE, dep);
	r.udp.alloc_contended = NATB_ALLOC_UNKNOWN;
	r.udp.alloc_forced = r.udp.alloc_contended_step = 0;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-1"), NATB_PASS);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-1"),
			    "EI on the fresh probe alone; contention impossible: one external "
			    "address per internal address");
	assert_int_equal(v_of(c, n, "RFC5382 REQ-1"), NATB_PASS);
	/* ports never had to change: §10 does not arise */
	assert_int_equal(v_of(c, n, "RFC7857 §10"), NATB_NA);
	assert_string_equal(m_of(c, n, "RFC7857 §10"),
			    "preserved, never changed: one external address per internal address");
	/* impossible contention does not excuse a fresh probe that is not EI */
	r.udp.mapping = NATB_DEP_AD;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-1"), NATB_FAIL);

	/* the contention probes lost, recorded through 95_bench_nat_loss.sh's
	 * relay: B's datagrams to S1:3479 and S2:3479 dropped in both orders */
	p[0] = cp(EP(MASQ, 44053), EP(MASQ, 9509), NO_EP, EP(MASQ, 44053), NO_EP);
	p[1] = cp(EP(MASQ, 44054), EP(MASQ, 63496), NO_EP, EP(MASQ, 63496), NO_EP);
	assert_int_equal(natb_contention(p, NATB_NO, &dep), NATB_CONT_LOST);
	assert_int_equal(dep, NATB_DEP_UNKNOWN);
	with_contention(&r, NATB_CONT_LOST, dep);
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-1"), NATB_INCONCLUSIVE);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-1"),
			    "EI uncontended, not judged: a contention probe lost");
	assert_int_equal(v_of(c, n, "RFC5382 REQ-1"), NATB_INCONCLUSIVE);
	/* A's own probe lost: the same */
	p[1] = cp(NO_EP, NO_EP, NO_EP, NO_EP, NO_EP);
	p[0] = p[1];
	assert_int_equal(natb_contention(p, NATB_NO, &dep), NATB_CONT_LOST);
	/* one order lost, the other complete and EI: still lost (a pass
	 * needs both) */
	p[0] = cp(EP(MASQ, 48406), EP(MASQ, 43182), EP(MASQ, 43182), EP(MASQ, 43182),
		  EP(MASQ, 43182));
	assert_int_equal(natb_contention(p, NATB_NO, &dep), NATB_CONT_LOST);
	/* one order lost, the other complete and APD: a failure seen */
	p[0] = cp(EP(MASQ, 48405), EP(MASQ, 56314), EP(MASQ, 48405), EP(MASQ, 48405),
		  EP(MASQ, 48405));
	assert_int_equal(natb_contention(p, NATB_NO, &dep), NATB_CONT_SEEN);
	assert_int_equal(dep, NATB_DEP_APD);
	/* lost fresh probe, contention EI: inconclusive; contention APD: fail */
	with_contention(&r, NATB_CONT_SEEN, NATB_DEP_EI);
	r.udp.mapping = NATB_DEP_UNKNOWN;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-1"), NATB_INCONCLUSIVE);
	r.udp.mapping_contended = NATB_DEP_APD;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-1"), NATB_FAIL);

	/* B never on A's address: SNAT to a pool, recorded (A and B kept port
	 * 46579 on two external addresses); the pool is not one address per
	 * internal address, so contention was possible and not set up */
	p[0] = cp(EP(POOL(13), 46579), EP(POOL(14), 46579), EP(POOL(14), 46579),
		  EP(POOL(14), 46579), EP(POOL(14), 46579));
	p[1] = cp(EP(POOL(13), 46580), EP(POOL(14), 46580), EP(POOL(14), 46580),
		  EP(POOL(14), 46580), EP(POOL(14), 46580));
	assert_int_equal(natb_contention(p, natb_own_addrs(pool_seen, FG_ARRAY_SIZE(pool_seen)),
					 &dep),
			 NATB_CONT_UNSHARED);
	/* too few internal addresses seen to call it impossible */
	assert_int_equal(natb_contention(p, NATB_UNSEEN, &dep), NATB_CONT_UNSHARED);
	with_contention(&r, NATB_CONT_UNSHARED, dep);
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-1"), NATB_INCONCLUSIVE);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-1"),
			    "EI uncontended, not judged: contention not set up: B never left by "
			    "A's external address");
	/* the fresh probe not EI fails whatever became of contention */
	r.tcp.mapping = NATB_DEP_APD;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-1"), NATB_FAIL);
	/* not probed at all */
	with_contention(&r, NATB_CONT_NONE, NATB_DEP_UNKNOWN);
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-1"), NATB_INCONCLUSIVE);
}

/*
 * RFC 7857 §10 on a NAT that preserves ports: judged on the ports it
 * chose under contention. Masquerade, recorded (the same 32 internal
 * ports from another address towards the same destinations): random. A
 * NAT that takes the next free port, built: sequential. Ports never
 * forced: inconclusive.
 */
static void test_alloc_contended(void **st)
{
	static const uint16_t masq_forced[32] = {MASQ_FORCED};
	uint16_t in[32];
	struct natb_ep first[32], second[32];
	struct natb_result r;
	struct natb_check c[NATB_MAX_CHECKS];
	unsigned forced, step;
	size_t n;

	(void)st;
	for (int k = 0; k < 32; k++) {
		in[k] = (uint16_t)(MASQ_FORCED_IN + k);
		first[k] = EP(MASQ, in[k]); /* preserved */
		second[k] = EP(MASQ, masq_forced[k]);
	}
	assert_int_equal(natb_alloc_contended(in, first, second, 32, &forced, &step),
			 NATB_ALLOC_RANDOM);
	assert_int_equal(forced, 32);
	assert_int_equal(step, ALLOC_CONT_STEP);
	masquerade(&r);
	r.udp.alloc_contended = NATB_ALLOC_RANDOM;
	r.udp.alloc_forced = forced;
	r.udp.alloc_contended_step = step;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC7857 §10"), NATB_PASS);

	/* the next free port: internal port p, taken towards its destination,
	 * becomes p + 1 (free there, taken only towards another one) */
	for (int k = 0; k < 32; k++)
		second[k] = EP(MASQ, (uint16_t)(in[k] + 1));
	assert_int_equal(natb_alloc_contended(in, first, second, 32, &forced, &step),
			 NATB_ALLOC_SEQUENTIAL);
	assert_int_equal(step, 1);
	r.udp.alloc_contended = NATB_ALLOC_SEQUENTIAL;
	r.udp.alloc_contended_step = step;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC7857 §10"), NATB_FAIL);
	assert_string_equal(m_of(c, n, "RFC7857 §10"),
			    "preserved; sequential when taken: median step 1 over 32 ports");

	/* another external address (a pool): nothing forced, or the same
	 * endpoint again (overloading, REQ-3's): not a choice either */
	for (int k = 0; k < 32; k++)
		second[k] = k % 2 ? EP(POOL(14), in[k]) : first[k];
	assert_int_equal(natb_alloc_contended(in, first, second, 32, &forced, &step),
			 NATB_ALLOC_UNKNOWN);
	assert_int_equal(forced, 0);
	r.udp.alloc_contended = NATB_ALLOC_UNKNOWN;
	r.udp.alloc_forced = 0;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC7857 §10"), NATB_INCONCLUSIVE);
	/* a NAT that does not preserve is judged on its choices as before */
	r.udp.alloc = NATB_ALLOC_SEQUENTIAL;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC7857 §10"), NATB_FAIL);
	r.udp.alloc = NATB_ALLOC_RANDOM;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC7857 §10"), NATB_PASS);
}

/* every tri of r set to t */
static void all_tri(struct natb_result *r, enum natb_tri t)
{
	struct natb_udp *u = &r->udp;

	u->translated = r->tcp.translated = r->icmp.translated = NATB_YES;
	u->preserve = u->parity = u->hairpin = u->hairpin_ext = u->refresh_out = u->refresh_in = t;
	u->overloading = u->in_range = u->icmp_keeps = u->frags = t;
	u->quota.kept = u->quota.others = u->quota.icmp = t;
	r->tcp.preserve = r->tcp.hairpin = r->tcp.hairpin_ext = r->tcp.overloading = t;
	r->tcp.err_xlate = t;
	r->icmp.echo = r->icmp.id_ei = r->icmp.err_xlate = t;
}

/*
 * No row below SHOULD passes or fails: over results that set every
 * yes/no, timeout state, allocation, pooling, contention and quota each
 * way, every row of every level is seen, a MAY or measured row reads info
 * or not applicable, and a MUST or SHOULD row never reads info.
 */
static void test_may_never_passes(void **st)
{
	static const enum natb_tri tris[] = {NATB_UNSEEN, NATB_NO, NATB_YES};
	static const struct natb_tmo tmos[] = {
	    {NATB_TMO_NONE, 0, 0, 0, 0, 0},	    {NATB_TMO_FOUND, 9000, 8900, 9100, 9, 9},
	    {NATB_TMO_FOUND, 10, 9, 11, 9, 9},	    {NATB_TMO_ABOVE, 9000, 9000, 0, 9, 9},
	    {NATB_TMO_ABOVE, 30, 30, 0, 9, 9},	    {NATB_TMO_BELOW, 1, 0, 1, 9, 9},
	    {NATB_TMO_FAILED, 0, 0, 0, 9, 0},
	};
	unsigned seen[NATB_LVL_MUST + 1] = {0}, may_rows = 0;
	struct natb_result r;
	struct natb_check c[NATB_MAX_CHECKS];

	(void)st;
	for (size_t a = 0; a < FG_ARRAY_SIZE(tris); a++)
		for (size_t b = 0; b < FG_ARRAY_SIZE(tmos); b++)
			for (int k = 0; k <= NATB_CONT_IMPOSSIBLE; k++) {
				size_t n;

				masquerade(&r);
				all_tri(&r, tris[a]);
				r.udp.timeout = r.udp.unreplied = tmos[b];
				r.tcp.established = r.tcp.transitory = r.tcp.closing = tmos[b];
				r.icmp.query = tmos[b];
				r.udp.contention = r.tcp.contention = (enum natb_cont)k;
				r.udp.mapping = r.tcp.mapping = (enum natb_dep)(k % 4);
				r.udp.filtering = r.tcp.filtering = (enum natb_dep)(b % 4);
				r.udp.pooling = (enum natb_pool)(b % 4);
				r.udp.alloc = (enum natb_alloc)(k % 4);
				r.udp.alloc_contended = (enum natb_alloc)(b % 4);
				r.udp.quota.got = a == 1 ? 100 : 1024; /* a limit, or none */
				n = natb_checks(&r, c, NATB_MAX_CHECKS);
				for (size_t i = 0; i < n; i++) {
					seen[c[i].level]++;
					if (c[i].level < NATB_LVL_SHOULD) {
						if (c[i].v != NATB_INFO && c[i].v != NATB_NA)
							fail_msg("%s (%s) reads %s", c[i].id,
								 natb_level_names[c[i].level],
								 natb_verdict_names[c[i].v]);
						may_rows += c[i].level == NATB_LVL_MAY;
					} else if (c[i].v == NATB_INFO) {
						fail_msg("%s (%s) reads info", c[i].id,
							 natb_level_names[c[i].level]);
					}
				}
			}
	for (int l = 0; l <= NATB_LVL_MUST; l++)
		assert_true(seen[l] > 0);
	assert_true(may_rows > 0);
	/* the MAY rows by name: parity (RFC 7857 §9), inbound refresh, the
	 * transitory timeout (RFC 7857 §2.1) */
	masquerade(&r);
	{
		size_t n = natb_checks(&r, c, NATB_MAX_CHECKS);

		assert_int_equal(find(c, n, "RFC4787 REQ-4")->level, NATB_LVL_MAY);
		assert_int_equal(find(c, n, "RFC4787 REQ-6a")->level, NATB_LVL_MAY);
		assert_int_equal(find(c, n, "RFC5382 REQ-5 (transitory)")->level, NATB_LVL_MAY);
		assert_int_equal(v_of(c, n, "RFC4787 REQ-6a"), NATB_INFO);
		assert_int_equal(v_of(c, n, "RFC4787 REQ-4"), NATB_INFO);
	}
}

/* The lab's router, recorded: every probe came out with its internal
 * source; everything else looked perfect, and none of it counts. */
static void test_no_nat(void **st)
{
	struct natb_result r;
	struct natb_check c[NATB_MAX_CHECKS];
	size_t n;

	(void)st;
	masquerade(&r);
	r.udp.translated = r.tcp.translated = r.icmp.translated = NATB_NO;
	r.udp.mapping_contended = r.tcp.mapping_contended = NATB_DEP_EI;
	r.udp.filtering = r.tcp.filtering = NATB_DEP_EI;
	r.udp.pooling = NATB_POOL_PAIRED;
	r.udp.hairpin = r.tcp.hairpin = NATB_YES;
	r.udp.timeout = (struct natb_tmo){0};
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_string_equal(c[0].id, "translation");
	assert_string_equal(c[0].measured, "UDP untranslated, TCP untranslated, ICMP untranslated");
	/* the first row is information; every other one does not arise */
	assert_int_equal(c[0].v, NATB_INFO);
	for (size_t k = 1; k < n; k++)
		assert_int_equal(c[k].v, NATB_NA);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-1"), "no NAT on this path");
	/* only TCP untranslated: the UDP rows keep their verdicts */
	masquerade(&r);
	r.tcp.translated = NATB_NO;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_string_equal(c[0].measured, "TCP untranslated");
	assert_int_equal(v_of(c, n, "RFC4787 REQ-1"), NATB_FAIL);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-1"), NATB_NA);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-9"), NATB_NA);
	/* nothing came out of UDP: said first */
	masquerade(&r);
	r.tcp.on = r.icmp.on = false;
	r.udp.translated = NATB_UNSEEN;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_string_equal(c[0].measured, "UDP nothing out");
	assert_null(find(c, n, "RFC5382 REQ-1")); /* TCP not measured: no TCP rows */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mapping),	cmocka_unit_test(test_contended),
	    cmocka_unit_test(test_overloading), cmocka_unit_test(test_range_translated),
	    cmocka_unit_test(test_hairpin_src), cmocka_unit_test(test_filtering),
	    cmocka_unit_test(test_pooling),	cmocka_unit_test(test_alloc),
	    cmocka_unit_test(test_plan),	cmocka_unit_test(test_estimate),
	    cmocka_unit_test(test_checks),	cmocka_unit_test(test_no_nat),
	    cmocka_unit_test(test_own_addrs),	cmocka_unit_test(test_contention_cases),
	    cmocka_unit_test(test_alloc_contended), cmocka_unit_test(test_may_never_passes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
