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
 * NAT: no verdict; REQ-1 on the worse of the two mappings; the RFC 6888
 * rows).
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
	    .timeout = {NATB_TMO_FOUND, 45.8, 44.9, 46.7, 106, 106},
	    .unreplied = {NATB_TMO_FOUND, 20.1, 19.7, 20.5, 106, 106},
	};
	r->tcp = (struct natb_tcp){
	    .on = true,
	    .translated = NATB_YES,
	    .mapping = NATB_DEP_EI,
	    .mapping_contended = NATB_DEP_APD,
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
	assert_int_equal(v_of(c, n, "RFC4787 REQ-2"), NATB_NA);
	assert_int_equal(v_of(c, n, "RFC6888 REQ-2"), NATB_NA);
	assert_int_equal(v_of(c, n, "RFC7857 §10"), NATB_PASS);
	assert_string_equal(m_of(c, n, "RFC7857 §10"),
			    "preserved: median step 1 over 32 destinations");
	/* REQ-5 on the two-way mapping; the unreplied one is measured only */
	assert_int_equal(v_of(c, n, "RFC4787 REQ-5"), NATB_FAIL);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-5"), "45.8 s (alive at 44.9, gone at 46.7)");
	assert_int_equal(v_of(c, n, "RFC4787 §4.3"), NATB_NA);
	assert_string_equal(m_of(c, n, "RFC4787 §4.3"), "20.1 s (alive at 19.7, gone at 20.5)");
	/* 14 s transitory: allowed when configured so (RFC 7857 §2.1) */
	assert_int_equal(v_of(c, n, "RFC5382 REQ-5 (transitory)"), NATB_NA);
	assert_int_equal(v_of(c, n, "RFC7857 §2.1"), NATB_NA);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-5"), NATB_FAIL);
	assert_int_equal(v_of(c, n, "RFC5508 REQ-2"), NATB_FAIL);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-9"), NATB_FAIL);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-9a"), NATB_NA);
	assert_int_equal(v_of(c, n, "RFC5508 REQ-1"), NATB_PASS);
	assert_int_equal(v_of(c, n, "RFC5508 REQ-1a"), NATB_PASS);
	/* no limit reached: the quota rows say so, without verdicts */
	assert_string_equal(m_of(c, n, "RFC6888 REQ-4"),
			    "1024 of 1024 mappings from one address, no limit reached");
	assert_int_equal(v_of(c, n, "RFC6888 REQ-4 (others)"), NATB_NA);
	assert_int_equal(v_of(c, n, "RFC6888 REQ-11 D"), NATB_NA);
	/* the old §5 re-scoring of EIM is gone */
	assert_null(find(c, n, "RFC7857 §5"));

	/* a transitory timeout of 4 min or more passes; a 2 h one too */
	r.tcp.transitory = (struct natb_tmo){NATB_TMO_FOUND, 250, 245, 255, 106, 106};
	r.tcp.established = (struct natb_tmo){NATB_TMO_ABOVE, 300, 300, 0, 130, 130};
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-5 (transitory)"), NATB_PASS);
	assert_int_equal(v_of(c, n, "RFC5382 REQ-5"), NATB_NA); /* above 300 s: not judged */

	/* mappings that could not be made are reported, never "above" */
	r.udp.timeout = (struct natb_tmo){NATB_TMO_FAILED, 0, 0, 0, 106, 0};
	r.udp.unreplied = (struct natb_tmo){NATB_TMO_ABOVE, 30, 30, 0, 106, 40};
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-5"), "no mapping could be made (0 of 106)");
	assert_int_equal(v_of(c, n, "RFC4787 REQ-5"), NATB_NA);
	assert_string_equal(m_of(c, n, "RFC4787 §4.3"),
			    "above 30 s: not judged; 66 of 106 mappings not made");

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
	assert_int_equal(v_of(c, n, "RFC5508 REQ-1a"), NATB_NA);
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
	/* contention that did not happen: REQ-1 on the uncontended probe */
	r.udp.mapping_contended = NATB_DEP_UNKNOWN;
	n = natb_checks(&r, c, NATB_MAX_CHECKS);
	assert_int_equal(v_of(c, n, "RFC4787 REQ-1"), NATB_PASS);
	assert_string_equal(m_of(c, n, "RFC4787 REQ-1"),
			    "endpoint-independent (uncontended EI, contended unknown)");
	/* a short table is cut, not overrun */
	assert_int_equal(natb_checks(&r, c, 3), 3);
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
	for (size_t k = 0; k < n; k++)
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
