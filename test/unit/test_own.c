/*
 * test_own.c — the ownership rule of own.h on both sides of a pair (shares of the client ports,
 * their edges, ports outside them, signatures, one worker) and the RSS
 * port choice: with a symmetric key a reply hashed by rte_softrss() lands
 * on the RETA entry of the worker that opened the flow.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <rte_thash.h>

#include "own.h"

static unsigned cli(const struct own_map *m, uint16_t dport, unsigned self)
{
	struct own_frame f = {.dport = dport};

	return own_worker(m, OWN_CLIENT, &f, self);
}

static void test_client_shares(void **st)
{
	/* client_ports [1024, 65533] over 3 workers: worker q has the ports
	 * p with p mod 3 == q, whichever template's range they are in */
	struct own_map m = {.nq = 3, .port_lo = 1024, .port_hi = 65533};

	(void)st;
	assert_int_equal(cli(&m, 1024, 2), 1024 % 3);
	assert_int_equal(cli(&m, 1025, 2), 1025 % 3);
	assert_int_equal(cli(&m, 1026, 0), 1026 % 3);
	for (uint32_t p = 1024; p <= 65533; p += 997)
		for (unsigned self = 0; self < 3; self++)
			assert_int_equal(cli(&m, (uint16_t)p, self), p % 3);
	assert_int_equal(cli(&m, 65533, 1), 65533 % 3);
	/* ports outside every range: the receiver */
	assert_int_equal(cli(&m, 65534, 1), 1);
	assert_int_equal(cli(&m, 65535, 0), 0);
	assert_int_equal(cli(&m, 1023, 2), 2);
	assert_int_equal(cli(&m, 0, 1), 1);
}

static void test_client_small_shares(void **st)
{
	/* one port per worker: the tightest shares */
	struct own_map m = {.nq = 4, .port_lo = 5000, .port_hi = 5003};

	(void)st;
	for (unsigned q = 0; q < 4; q++)
		assert_int_equal(cli(&m, (uint16_t)(5000 + q), 3 - q), (5000 + q) % 4);
	assert_int_equal(cli(&m, 5004, 3), 3);
	/* a range that ends at port 65535 */
	m = (struct own_map){.nq = 2, .port_lo = 65534, .port_hi = 65535};
	assert_int_equal(cli(&m, 65534, 1), 0);
	assert_int_equal(cli(&m, 65535, 0), 1);
}

static void test_server(void **st)
{
	struct own_map m = {.nq = 3, .port_lo = 1024, .port_hi = 65535};
	struct own_frame f = {.dport = 4321};

	(void)st;
	/* no signature (TCP, foreign UDP): the receiver, whatever the port */
	for (unsigned q = 0; q < 3; q++)
		assert_int_equal(own_worker(&m, OWN_SERVER, &f, q), q);
	f.dport = 1026; /* worker 0's client port means nothing on the server side */
	assert_int_equal(own_worker(&m, OWN_SERVER, &f, 2), 2);
	/* a signature names the client flow's worker */
	f.sig = true;
	for (unsigned q = 0; q < 3; q++) {
		f.sig_id = own_id(0x00abcdefu, q);
		assert_int_equal(own_worker(&m, OWN_SERVER, &f, (q + 1) % 3), q);
	}
	/* a worker beyond the pair's (a stale or forged id): the receiver */
	f.sig_id = own_id(7, 5);
	assert_int_equal(own_worker(&m, OWN_SERVER, &f, 1), 1);
}

static void test_one_worker(void **st)
{
	struct own_map m = {.nq = 1, .port_lo = 1024, .port_hi = 65535};
	struct own_frame f = {.dport = 2000, .sig = true, .sig_id = own_id(1, 9)};

	(void)st;
	assert_int_equal(own_worker(&m, OWN_CLIENT, &f, 0), 0);
	assert_int_equal(own_worker(&m, OWN_SERVER, &f, 0), 0);
}

static void test_ids(void **st)
{
	(void)st;
	for (unsigned q = 0; q < OWN_MAX_WORKERS; q++) {
		uint32_t id = own_id(0x07ffffffu, q);

		assert_int_equal(own_id_worker(id), q);
		assert_int_equal(own_id_ft(id), 0x07ffffffu);
	}
	/* the same flowtab id on two workers is two different wire ids */
	assert_int_not_equal(own_id(42, 0), own_id(42, 1));
}

static void test_sym_key(void **st)
{
	uint8_t key[40];
	uint32_t a[3] = {0xc6120001, 0xc6130001, 4321u << 16 | 1500};
	uint32_t b[3] = {0xc6130001, 0xc6120001, 1500u << 16 | 4321};

	(void)st;
	own_rss_sym_key(key, sizeof(key));
	for (unsigned i = 0; i < 200; i++) {
		a[2] = (4321u << 16) | (1024 + i * 97);
		b[2] = ((1024 + i * 97) << 16) | 4321u;
		assert_int_equal(rte_softrss(a, 3, key), rte_softrss(b, 3, key));
	}
}

/* The client's port choice: a port that fits puts the reply on its owner's queue. */
static void test_rss_choice(void **st)
{
	struct own_rss r = {.key_len = 40, .reta_size = 128};
	uint32_t cip = 0xc6120005, sip = 0xc6130009;
	uint16_t sport = 8080;

	(void)st;
	own_rss_sym_key(r.key, r.key_len);
	for (unsigned nq = 1; nq <= 4; nq++) {
		own_rss_reta_fill(&r, nq);
		for (unsigned q = 0; q < nq; q++) {
			unsigned found = 0;

			for (uint32_t p = 1024; p < 1024 + 400; p++) {
				uint32_t t[3] = {sip, cip, (uint32_t)sport << 16 | p};
				uint32_t h = rte_softrss(t, 3, r.key);

				if (!own_rss_fits(&r, cip, (uint16_t)p, sip, sport, q))
					continue;
				found++;
				/* the reply, hashed as the NIC does, hits q's entry */
				assert_int_equal(r.reta[h & (r.reta_size - 1)], q);
				/* and so does the flow's first frame (symmetric key) */
				assert_int_equal(own_rss_queue(&r, cip, sip, (uint16_t)p, sport), q);
			}
			/* about 1/nq of the ports fit each worker */
			assert_true(found > 400 / nq / 2);
		}
	}
	/* no RSS control: every port fits */
	r.reta_size = 0;
	assert_true(own_rss_fits(&r, cip, 1024, sip, sport, 3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_client_shares), cmocka_unit_test(test_client_small_shares),
	    cmocka_unit_test(test_server),	  cmocka_unit_test(test_one_worker),
	    cmocka_unit_test(test_ids),		  cmocka_unit_test(test_sym_key),
	    cmocka_unit_test(test_rss_choice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
