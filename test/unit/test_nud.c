/*
 * test_nud.c — Neighbour Unreachability Detection of a next hop (nud.h):
 * every transition of the state machine, its timers at their edges (one
 * nanosecond before and at each), the probes it asks for and their
 * counts, what ARP messages and Neighbour Advertisements do (RFC 4861
 * §7.2.5, §7.2.6), a static next hop that nothing moves, and the
 * parameters' defaults and ranges.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nud.h"
#include "port_addr.h"

#define MS 1000000ull
#define OLD 0x020000000001ull
#define NEW 0x020000000002ull
#define T0 (1000 * MS)

/* reachable 500 ms, delay 100 ms, retrans 200 ms, 2 unicast + 2 broadcast */
static const struct nud_params P = {500, 100, 200, 2, 2};

static struct nud learned(void)
{
	struct nud e;

	memset(&e, 0, sizeof(e));
	assert_false(nud_learn(&e, OLD, T0));
	return e;
}

static enum nud_probe tick(struct nud *e, uint64_t t, bool sent, bool conf)
{
	bool failed;
	enum nud_probe r = nud_tick(e, &P, t, sent, conf, &failed);

	assert_false(failed);
	return r;
}

static void test_defaults_and_ranges(void **st)
{
	struct nud_params p, q;
	char err[128];

	(void)st;
	nud_params_default(&p);
	/* Linux's base_reachable_time, delay_first_probe_time, retrans_time,
	 * ucast_solicit, mcast_solicit; RFC 4861 §10 */
	assert_int_equal(p.reachable_ms, 30000);
	assert_int_equal(p.delay_ms, 5000);
	assert_int_equal(p.retrans_ms, 1000);
	assert_int_equal(p.ucast, 3);
	assert_int_equal(p.mcast, 3);
	assert_int_equal(nud_params_check(&p, err, sizeof(err)), 0);
	q = p, q.reachable_ms = NUD_REACHABLE_MS_MIN - 1;
	assert_int_equal(nud_params_check(&q, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "reachable_time 9 ms"));
	q.reachable_ms = NUD_REACHABLE_MS_MIN;
	assert_int_equal(nud_params_check(&q, err, sizeof(err)), 0);
	q.reachable_ms = NUD_REACHABLE_MS_MAX + 1;
	assert_int_equal(nud_params_check(&q, err, sizeof(err)), -EINVAL);
	q = p, q.delay_ms = 0;
	assert_int_equal(nud_params_check(&q, err, sizeof(err)), 0);
	q.delay_ms = NUD_DELAY_MS_MAX + 1;
	assert_int_equal(nud_params_check(&q, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "delay_first_probe_time"));
	q = p, q.retrans_ms = NUD_RETRANS_MS_MIN - 1;
	assert_int_equal(nud_params_check(&q, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "retrans_time"));
	q = p, q.ucast = NUD_SOLICIT_MAX + 1;
	assert_int_equal(nud_params_check(&q, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "ucast_solicit"));
	q = p, q.mcast = NUD_SOLICIT_MAX + 1;
	assert_int_equal(nud_params_check(&q, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "mcast_solicit"));
	q = p, q.ucast = q.mcast = 0;
	assert_int_equal(nud_params_check(&q, err, sizeof(err)), 0);
	assert_string_equal(nud_state_name(NUD_NONE), "none");
	assert_string_equal(nud_state_name(NUD_REACHABLE), "reachable");
	assert_string_equal(nud_state_name(NUD_STALE), "stale");
	assert_string_equal(nud_state_name(NUD_DELAY), "delay");
	assert_string_equal(nud_state_name(NUD_PROBE), "probe");
	assert_string_equal(nud_state_name(NUD_FAILED), "failed");
	assert_string_equal(nud_state_name((enum nud_state)99), "?");
}

/* A static next hop (or none) has no entry: nothing moves it. */
static void test_static_untouched(void **st)
{
	struct nud e = learned();
	bool failed;

	(void)st;
	nud_forget(&e);
	assert_int_equal(e.state, NUD_NONE);
	for (uint64_t t = T0; t < T0 + 60000 * MS; t += 100 * MS)
		assert_int_equal(nud_tick(&e, &P, t, true, false, &failed), NUD_PROBE_NONE);
	assert_false(failed);
	assert_int_equal(nud_rx(&e, true, NEW, false, true, T0), NUD_RX_IGNORED);
	assert_int_equal(nud_rx(&e, true, NEW, true, true, T0), NUD_RX_IGNORED);
	assert_int_equal(e.state, NUD_NONE);
	assert_int_equal(e.mac, 0);
	assert_int_equal(e.changes + e.probes_ucast + e.probes_mcast, 0);
}

static void test_learn(void **st)
{
	struct nud e = learned();

	(void)st;
	assert_int_equal(e.state, NUD_REACHABLE);
	assert_int_equal(e.mac, OLD);
	assert_int_equal(e.changes, 0);
	/* `arp` again: the same MAC is no change, another one is */
	assert_false(nud_learn(&e, OLD, T0 + MS));
	assert_int_equal(e.changes, 0);
	assert_true(nud_learn(&e, NEW, T0 + 2 * MS));
	assert_int_equal(e.changes, 1);
	assert_int_equal(e.announced + e.reresolved, 0);
	assert_int_equal(e.confirmed_ns, T0 + 2 * MS);
}

/* REACHABLE until reachable_time after the last confirmation, exactly. */
static void test_reachable_timer(void **st)
{
	struct nud e = learned();

	(void)st;
	assert_int_equal(tick(&e, T0 + 500 * MS - 1, true, false), NUD_PROBE_NONE);
	assert_int_equal(e.state, NUD_REACHABLE);
	/* a confirmation restarts the time */
	assert_int_equal(tick(&e, T0 + 400 * MS, true, true), NUD_PROBE_NONE);
	assert_int_equal(tick(&e, T0 + 900 * MS - 1, false, false), NUD_PROBE_NONE);
	assert_int_equal(e.state, NUD_REACHABLE);
	assert_int_equal(tick(&e, T0 + 900 * MS, false, false), NUD_PROBE_NONE);
	assert_int_equal(e.state, NUD_STALE);
	/* confirmed all along: never STALE */
	e = learned();
	for (uint64_t t = T0; t < T0 + 10000 * MS; t += 10 * MS)
		assert_int_equal(tick(&e, t, true, true), NUD_PROBE_NONE);
	assert_int_equal(e.state, NUD_REACHABLE);
	assert_int_equal(e.probes_ucast + e.probes_mcast, 0);
}

/* STALE waits for a frame sent; nothing is probed while none is. */
static void test_stale_idle(void **st)
{
	struct nud e = learned();

	(void)st;
	tick(&e, T0 + 500 * MS, false, false);
	assert_int_equal(e.state, NUD_STALE);
	for (uint64_t t = T0 + 500 * MS; t < T0 + 60000 * MS; t += 50 * MS)
		assert_int_equal(tick(&e, t, false, false), NUD_PROBE_NONE);
	assert_int_equal(e.state, NUD_STALE);
	assert_int_equal(e.probes_ucast + e.probes_mcast, 0);
	/* a frame sent: DELAY, the first probe delay_first_probe_time later */
	assert_int_equal(tick(&e, T0 + 70000 * MS, true, false), NUD_PROBE_NONE);
	assert_int_equal(e.state, NUD_DELAY);
	assert_int_equal(tick(&e, T0 + 70100 * MS - 1, true, false), NUD_PROBE_NONE);
	assert_int_equal(tick(&e, T0 + 70100 * MS, false, false), NUD_PROBE_UCAST);
	assert_int_equal(e.state, NUD_PROBE);
}

/*
 * Reachable time passes while the port sends: STALE at once DELAY (the
 * same tick), then ucast unicast probes and mcast broadcast ones
 * retrans_time apart, then FAILED, said once, and a broadcast every
 * retrans_time while the port sends.
 */
static void test_probe_sequence(void **st)
{
	struct nud e = learned();
	uint64_t t = T0 + 500 * MS, p0;
	bool failed;

	(void)st;
	assert_int_equal(tick(&e, t, true, false), NUD_PROBE_NONE);
	assert_int_equal(e.state, NUD_DELAY);
	p0 = t + 100 * MS;
	assert_int_equal(tick(&e, p0, true, false), NUD_PROBE_UCAST);
	assert_int_equal(tick(&e, p0 + 200 * MS - 1, true, false), NUD_PROBE_NONE);
	assert_int_equal(tick(&e, p0 + 200 * MS, true, false), NUD_PROBE_UCAST);
	assert_int_equal(tick(&e, p0 + 400 * MS, false, false), NUD_PROBE_MCAST);
	assert_int_equal(tick(&e, p0 + 600 * MS - 1, false, false), NUD_PROBE_NONE);
	assert_int_equal(tick(&e, p0 + 600 * MS, false, false), NUD_PROBE_MCAST);
	assert_int_equal(e.state, NUD_PROBE);
	assert_int_equal(e.probes_ucast, 2);
	assert_int_equal(e.probes_mcast, 2);
	assert_int_equal(nud_tick(&e, &P, p0 + 800 * MS - 1, true, false, &failed), NUD_PROBE_NONE);
	assert_false(failed);
	/* the last probe's retrans_time over: FAILED, and a broadcast */
	assert_int_equal(nud_tick(&e, &P, p0 + 800 * MS, true, false, &failed), NUD_PROBE_MCAST);
	assert_true(failed);
	assert_int_equal(e.state, NUD_FAILED);
	assert_int_equal(e.failures, 1);
	assert_int_equal(e.mac, OLD); /* kept */
	/* said once */
	assert_int_equal(nud_tick(&e, &P, p0 + 900 * MS, true, false, &failed), NUD_PROBE_NONE);
	assert_false(failed);
	assert_int_equal(tick(&e, p0 + 1000 * MS - 1, true, false), NUD_PROBE_NONE);
	assert_int_equal(tick(&e, p0 + 1000 * MS, true, false), NUD_PROBE_MCAST);
	/* not sending: no broadcast */
	assert_int_equal(tick(&e, p0 + 5000 * MS, false, false), NUD_PROBE_NONE);
	assert_int_equal(tick(&e, p0 + 5001 * MS, true, false), NUD_PROBE_MCAST);
	assert_int_equal(e.probes_mcast, 5);
	assert_int_equal(e.failures, 1);
	assert_int_equal(e.changes, 0);
}

/* FAILED without a frame sent at the moment it fails: no broadcast then. */
static void test_failed_quiet(void **st)
{
	struct nud e = learned();
	bool failed;

	(void)st;
	tick(&e, T0 + 500 * MS, true, false);
	tick(&e, T0 + 600 * MS, false, false);
	tick(&e, T0 + 800 * MS, false, false);
	tick(&e, T0 + 1000 * MS, false, false);
	tick(&e, T0 + 1200 * MS, false, false);
	assert_int_equal(nud_tick(&e, &P, T0 + 1400 * MS, false, false, &failed), NUD_PROBE_NONE);
	assert_true(failed);
	assert_int_equal(e.state, NUD_FAILED);
	assert_int_equal(e.probes_mcast, 2);
}

/* Forward progress confirms in STALE, DELAY and FAILED; in PROBE only the
 * answer to a probe does. */
static void test_confirm_anywhere(void **st)
{
	struct nud_params q = P;
	struct nud e = learned();
	bool failed;

	(void)st;
	tick(&e, T0 + 500 * MS, false, false);
	assert_int_equal(e.state, NUD_STALE);
	assert_int_equal(tick(&e, T0 + 520 * MS, false, true), NUD_PROBE_NONE);
	assert_int_equal(e.state, NUD_REACHABLE);
	tick(&e, T0 + 1020 * MS, true, false);
	assert_int_equal(e.state, NUD_DELAY);
	assert_int_equal(tick(&e, T0 + 1070 * MS, true, true), NUD_PROBE_NONE);
	assert_int_equal(e.state, NUD_REACHABLE);
	assert_int_equal(e.confirmed_ns, T0 + 1070 * MS);
	tick(&e, T0 + 1570 * MS, true, false);
	assert_int_equal(tick(&e, T0 + 1670 * MS, true, false), NUD_PROBE_UCAST);
	/* PROBE: the counters' evidence does not stop the probes */
	assert_int_equal(tick(&e, T0 + 1680 * MS, true, true), NUD_PROBE_NONE);
	assert_int_equal(e.state, NUD_PROBE);
	assert_int_equal(tick(&e, T0 + 1870 * MS, true, true), NUD_PROBE_UCAST);
	assert_int_equal(e.probes, 2);
	assert_int_equal(nud_rx(&e, true, OLD, true, true, T0 + 1871 * MS), NUD_RX_CONFIRMED);
	assert_int_equal(e.state, NUD_REACHABLE);
	assert_int_equal(e.probes, 0);
	q.ucast = q.mcast = 0;
	e = learned();
	nud_tick(&e, &q, T0 + 500 * MS, true, false, &failed);
	nud_tick(&e, &q, T0 + 600 * MS, true, false, &failed);
	assert_true(failed);
	assert_int_equal(nud_tick(&e, &q, T0 + 650 * MS, true, true, &failed), NUD_PROBE_NONE);
	assert_int_equal(e.state, NUD_REACHABLE);
}

/* delay 0, no unicast probes; no probes at all */
static void test_params_edges(void **st)
{
	struct nud_params q = P;
	struct nud e = learned();
	bool failed;

	(void)st;
	q.delay_ms = 0;
	q.ucast = 0;
	/* STALE, DELAY and PROBE in the one tick: a broadcast first */
	assert_int_equal(nud_tick(&e, &q, T0 + 500 * MS, true, false, &failed), NUD_PROBE_MCAST);
	assert_int_equal(e.state, NUD_PROBE);
	assert_int_equal(e.probes_ucast, 0);
	q.mcast = 0;
	e = learned();
	/* neither: FAILED as soon as the delay is over, a broadcast at once */
	assert_int_equal(nud_tick(&e, &q, T0 + 500 * MS, true, false, &failed), NUD_PROBE_MCAST);
	assert_true(failed);
	assert_int_equal(e.state, NUD_FAILED);
	/* the longest reachable time does not overflow */
	q = P;
	q.reachable_ms = NUD_REACHABLE_MS_MAX;
	e = learned();
	nud_tick(&e, &q, T0 + 3600000 * MS - 1, true, false, &failed);
	assert_int_equal(e.state, NUD_REACHABLE);
	nud_tick(&e, &q, T0 + 3600000 * MS, false, false, &failed);
	assert_int_equal(e.state, NUD_STALE);
}

/* A gratuitous ARP / unsolicited NA with Override and a new MAC. */
static void test_announcement(void **st)
{
	struct nud e = learned();

	(void)st;
	/* the same MAC, unsolicited: no confirmation (§7.3.1) */
	assert_int_equal(nud_rx(&e, true, OLD, false, true, T0 + 400 * MS), NUD_RX_IGNORED);
	tick(&e, T0 + 500 * MS, false, false);
	assert_int_equal(e.state, NUD_STALE);
	e = learned();
	assert_int_equal(nud_rx(&e, true, NEW, false, true, T0 + 10 * MS), NUD_RX_CHANGED);
	assert_int_equal(e.mac, NEW);
	assert_int_equal(e.state, NUD_STALE);
	assert_int_equal(e.changes, 1);
	assert_int_equal(e.announced, 1);
	assert_int_equal(e.reresolved, 0);
	/* traffic to the new MAC gets through: REACHABLE, no probe */
	assert_int_equal(tick(&e, T0 + 20 * MS, true, true), NUD_PROBE_NONE);
	assert_int_equal(e.state, NUD_REACHABLE);
	/* the same announcement again is no change */
	assert_int_equal(nud_rx(&e, true, NEW, false, true, T0 + 30 * MS), NUD_RX_IGNORED);
	assert_int_equal(e.changes, 1);
	/* in PROBE an announcement counts as announced, not re-resolved */
	e = learned();
	tick(&e, T0 + 500 * MS, true, false);
	assert_int_equal(tick(&e, T0 + 600 * MS, true, false), NUD_PROBE_UCAST);
	assert_int_equal(nud_rx(&e, true, NEW, false, true, T0 + 610 * MS), NUD_RX_CHANGED);
	assert_int_equal(e.announced, 1);
	assert_int_equal(e.reresolved, 0);
	assert_int_equal(e.state, NUD_STALE);
	assert_int_equal(e.probes, 0);
}

/* Answers: the same MAC confirms; a new one with Override re-resolves. */
static void test_answers(void **st)
{
	struct nud e = learned();

	(void)st;
	tick(&e, T0 + 500 * MS, true, false);
	assert_int_equal(tick(&e, T0 + 600 * MS, true, false), NUD_PROBE_UCAST);
	assert_int_equal(nud_rx(&e, true, OLD, true, true, T0 + 601 * MS), NUD_RX_CONFIRMED);
	assert_int_equal(e.state, NUD_REACHABLE);
	assert_int_equal(e.confirmed_ns, T0 + 601 * MS);
	/* an NA without a target link-layer option confirms as well */
	assert_int_equal(nud_rx(&e, false, 0, true, true, T0 + 700 * MS), NUD_RX_CONFIRMED);
	assert_int_equal(e.mac, OLD);
	/* probes unanswered until the broadcast ones: the answer has a new MAC */
	tick(&e, T0 + 1200 * MS, true, false);
	tick(&e, T0 + 1300 * MS, true, false);
	tick(&e, T0 + 1500 * MS, true, false);
	assert_int_equal(tick(&e, T0 + 1700 * MS, true, false), NUD_PROBE_MCAST);
	assert_int_equal(nud_rx(&e, true, NEW, true, true, T0 + 1701 * MS), NUD_RX_CHANGED);
	assert_int_equal(e.mac, NEW);
	assert_int_equal(e.state, NUD_REACHABLE);
	assert_int_equal(e.reresolved, 1);
	assert_int_equal(e.announced, 0);
	assert_int_equal(e.changes, 1);
	/* from FAILED too */
	e = learned();
	tick(&e, T0 + 500 * MS, true, false);
	for (uint64_t t = T0 + 600 * MS; e.state != NUD_FAILED; t += 200 * MS) {
		bool failed;

		nud_tick(&e, &P, t, true, false, &failed);
	}
	assert_int_equal(nud_rx(&e, true, NEW, true, true, T0 + 9000 * MS), NUD_RX_CHANGED);
	assert_int_equal(e.reresolved, 1);
	assert_int_equal(e.state, NUD_REACHABLE);
	/* a solicited answer with a new MAC outside a probe: counted announced */
	assert_int_equal(nud_rx(&e, true, OLD, true, true, T0 + 9100 * MS), NUD_RX_CHANGED);
	assert_int_equal(e.announced, 1);
	assert_int_equal(e.changes, 2);
}

/* §7.2.5: another MAC without Override is not taken; REACHABLE -> STALE. */
static void test_no_override(void **st)
{
	struct nud e = learned();

	(void)st;
	assert_int_equal(nud_rx(&e, true, NEW, true, false, T0 + 10 * MS), NUD_RX_IGNORED);
	assert_int_equal(e.mac, OLD);
	assert_int_equal(e.state, NUD_STALE);
	assert_int_equal(e.since_ns, T0 + 10 * MS);
	/* in STALE it changes nothing */
	assert_int_equal(nud_rx(&e, true, NEW, false, false, T0 + 20 * MS), NUD_RX_IGNORED);
	assert_int_equal(e.state, NUD_STALE);
	assert_int_equal(e.since_ns, T0 + 10 * MS);
	assert_int_equal(e.changes, 0);
}

/* The MAC word as the next hops are shown (port_addr.h). */
static void test_mac_text(void **st)
{
	struct rte_ether_addr m = {{0x02, 0xab, 0x00, 0x0c, 0xff, 0x01}};
	char b[PORT_MAC_TEXT];

	(void)st;
	assert_string_equal(port_mac_text(port_mac_word(&m), b), "02:ab:00:0c:ff:01");
	assert_string_equal(port_mac_text(0x0000a0b1c2d3e4f5ull | PORT_MAC_KNOWN, b),
			    "a0:b1:c2:d3:e4:f5");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_defaults_and_ranges),
	    cmocka_unit_test(test_static_untouched),
	    cmocka_unit_test(test_learn),
	    cmocka_unit_test(test_reachable_timer),
	    cmocka_unit_test(test_stale_idle),
	    cmocka_unit_test(test_probe_sequence),
	    cmocka_unit_test(test_failed_quiet),
	    cmocka_unit_test(test_confirm_anywhere),
	    cmocka_unit_test(test_params_edges),
	    cmocka_unit_test(test_announcement),
	    cmocka_unit_test(test_answers),
	    cmocka_unit_test(test_no_override),
	    cmocka_unit_test(test_mac_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
