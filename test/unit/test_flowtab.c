/*
 * test_flowtab.c — flow table: insert/lookup/delete against a shadow model,
 * filling to capacity, entries handed out from the high-water mark then
 * reused most recent first, ids with generation checks, iteration, the
 * timing wheel (never early, never lost, bounded pops, lazy re-arming), a
 * randomized run of every operation against a reference model, memory
 * that becomes resident only when used, a caller's allocator returning
 * dirty memory, and the memory figure per flow.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "flowtab.h"
#include "flowtab_mem.h"

#define TICK 1000ull /* TSC cycles per wheel tick */
#define FT_MAX(a, b) ((a) > (b) ? (a) : (b))

static struct flowtab *mk(uint32_t n, uint32_t esz)
{
	struct flowtab_params p = {
	    .max_flows = n, .entry_size = esz, .tick_tsc = TICK, .wheel_slots = 256};
	struct flowtab *t = flowtab_create(&p);

	assert_non_null(t);
	return t;
}

static void key_i(struct flowtab_key *k, uint32_t i)
{
	flowtab_key(k, 0xc6120001u + (i >> 16), 0xc6130001u, (uint16_t)(1024 + (i & 0xffff)), 4321,
		    17, (i & 1) ? FLOWTAB_SERVER : FLOWTAB_CLIENT);
}

/* a stored key names the flow of k: its addresses, ports and protocol,
 * and its side (the table's flags and generation share the side's byte
 * and the padding) */
static void key_stored(const struct flowtab_key *stored, const struct flowtab_key *k)
{
	assert_int_equal(stored->sip, k->sip);
	assert_int_equal(stored->dip, k->dip);
	assert_int_equal(stored->sport, k->sport);
	assert_int_equal(stored->dport, k->dport);
	assert_int_equal(stored->proto, k->proto);
	assert_int_equal(flowtab_key_side(stored), flowtab_key_side(k));
}

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void test_params(void **state)
{
	struct flowtab_params p = {.max_flows = 0, .tick_tsc = TICK};

	(void)state;
	assert_null(flowtab_create(&p));
	p.max_flows = 16;
	p.tick_tsc = 1;
	assert_null(flowtab_create(&p));
	p.tick_tsc = TICK;
	p.wheel_slots = 100; /* not a power of two */
	assert_null(flowtab_create(&p));
	p.wheel_slots = 1u << 25; /* a power of two, but absurd */
	assert_null(flowtab_create(&p));
	p.max_flows = FLOWTAB_MAX_FLOWS + 1;
	p.wheel_slots = 0;
	assert_null(flowtab_create(&p));
}

static void test_basic(void **state)
{
	struct flowtab *t = mk(64, 64);
	struct flowtab_key k, k2;
	uint32_t idx, idx2;
	char *st;

	(void)state;
	key_i(&k, 7);
	assert_int_equal(flowtab_lookup(t, &k), FLOWTAB_NIL);
	assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	assert_int_equal(flowtab_count(t), 1);
	assert_int_equal(flowtab_lookup(t, &k), idx);
	st = flowtab_state(t, idx);
	for (int i = 0; i < 64; i++)
		assert_int_equal(st[i], 0);
	memset(st, 0xab, 64);
	assert_int_equal(flowtab_insert(t, &k, &idx2), -EEXIST);
	assert_int_equal(idx2, idx);
	key_stored(flowtab_key_of(t, idx), &k);
	/* the table's own bits beside the key (an armed timer's flag, the
	 * generation) are not part of it: still found, still its side */
	flowtab_timer_arm(t, idx, 1000);
	assert_int_equal(flowtab_lookup(t, &k), idx);
	key_stored(flowtab_key_of(t, idx), &k);
	flowtab_del(t, idx);
	assert_int_equal(flowtab_insert(t, &k, &idx2), 0);
	assert_int_equal(idx2, idx); /* the deleted entry, its generation bumped */
	assert_int_not_equal(flowtab_key_of(t, idx)->pad, 0);
	assert_int_equal(flowtab_lookup(t, &k), idx);
	key_stored(flowtab_key_of(t, idx), &k);

	/* Same tuple, other side: a different flow. */
	k2 = k;
	k2.side = k.side == FLOWTAB_SERVER ? FLOWTAB_CLIENT : FLOWTAB_SERVER;
	assert_int_equal(flowtab_lookup(t, &k2), FLOWTAB_NIL);
	assert_int_equal(flowtab_insert(t, &k2, &idx2), 0);
	assert_int_not_equal(idx2, idx);

	flowtab_del(t, idx);
	assert_int_equal(flowtab_lookup(t, &k), FLOWTAB_NIL);
	assert_int_equal(flowtab_lookup(t, &k2), idx2);
	assert_int_equal(flowtab_count(t), 1);
	/* A reused entry starts with zeroed state. */
	assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	st = flowtab_state(t, idx);
	for (int i = 0; i < 64; i++)
		assert_int_equal(st[i], 0);
	flowtab_destroy(t);
}

/*
 * Fill to exactly max_flows, then one more fails: random keys or
 * flowgen's own (key_i()'s consecutive ports), at a power of two and at
 * sizes that are not (the index is not rounded up: its slots are 80 %
 * full when the table is).
 */
static void fill_full(uint32_t n, bool random)
{
	struct flowtab *t = mk(n, 8);
	struct flowtab_key k;
	uint32_t i, idx, *ids = calloc(n, sizeof(*ids));

	for (i = 0; i < n; i++) {
		if (random)
			flowtab_key(&k, (uint32_t)rnd(), (uint32_t)rnd(), (uint16_t)rnd(),
				    (uint16_t)rnd(), 6, FLOWTAB_CLIENT);
		else
			key_i(&k, i);
		assert_int_equal(flowtab_insert(t, &k, &idx), 0);
		memcpy(flowtab_state(t, idx), &i, sizeof(i));
		ids[i] = idx;
	}
	assert_int_equal(flowtab_count(t), n);
	assert_int_equal(flowtab_room(t), 0);
	flowtab_key(&k, 1, 2, 3, 4, 6, FLOWTAB_CLIENT);
	assert_int_equal(flowtab_insert(t, &k, &idx), -ENOSPC);
	/* Every entry still found by its key, with its own state. */
	for (i = 0; i < n; i++) {
		uint32_t v;

		assert_int_equal(flowtab_lookup(t, flowtab_key_of(t, ids[i])), ids[i]);
		memcpy(&v, flowtab_state(t, ids[i]), sizeof(v));
		assert_int_equal(v, i);
	}
	/* Free one, the new key fits. */
	flowtab_del(t, ids[5]);
	assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	free(ids);
	flowtab_destroy(t);
}

static void test_full(void **state)
{
	(void)state;
	fill_full(1u << 16, true);
	fill_full(1u << 16, false);
	fill_full(100003, true);
	fill_full(1000003, false);
	fill_full(7, true);
}

/*
 * The index at its fullest: 2^16 buckets of 10 slots hold as many
 * entries as 1.04 slots each allow (96 % of the slots); one entry more
 * and the index doubles. Every entry goes in, random keys or consecutive.
 */
static void test_full_dense(void **state)
{
	uint32_t n = (uint32_t)((10ull << 16) * 25 / 26);
	struct flowtab_params p = {
	    .max_flows = n, .entry_size = 8, .tick_tsc = TICK, .wheel_slots = 256};
	struct flowtab_params p1 = p;

	(void)state;
	p1.max_flows = n + 1;
	assert_true(flowtab_mem_size(&p1) - flowtab_mem_size(&p) >= 64ull << 16);
	fill_full(n, true);
	fill_full(n, false);
}

/* Random insert/delete/lookup against a shadow model. */
static void test_model(void **state)
{
	const uint32_t n = 4096, space = 8192;
	struct flowtab *t = mk(n, 16);
	uint32_t *model = malloc(space * sizeof(*model)); /* key i -> idx or NIL */
	uint32_t live = 0;
	struct flowtab_key k;

	(void)state;
	for (uint32_t i = 0; i < space; i++)
		model[i] = FLOWTAB_NIL;
	for (int it = 0; it < 200000; it++) {
		uint32_t i = (uint32_t)(rnd() % space), idx;
		int op = (int)(rnd() % 3);

		key_i(&k, i);
		if (op == 0) {
			int rc = flowtab_insert(t, &k, &idx);

			if (model[i] != FLOWTAB_NIL) {
				assert_int_equal(rc, -EEXIST);
				assert_int_equal(idx, model[i]);
			} else if (live == n) {
				assert_int_equal(rc, -ENOSPC);
			} else {
				assert_int_equal(rc, 0);
				model[i] = idx;
				live++;
			}
		} else if (op == 1) {
			if (model[i] != FLOWTAB_NIL) {
				/* by the key's own hash, by the hash at hand, or
				 * by a wrong one (flowtab_del_h() falls back) */
				int how = (int)(rnd() % 3);

				if (how == 0)
					flowtab_del(t, model[i]);
				else
					flowtab_del_h(t, model[i], how == 1 ? flowtab_hash(&k) : rnd());
				model[i] = FLOWTAB_NIL;
				live--;
			}
		} else {
			assert_int_equal(flowtab_lookup(t, &k), model[i]);
		}
		assert_int_equal(flowtab_count(t), live);
		assert_int_equal(flowtab_room(t), n - live);
	}
	free(model);
	flowtab_destroy(t);
}

/* id_bits: ids leave the top bits to the caller, generations wrap below them. */
static void test_id_bits(void **state)
{
	struct flowtab_params p = {
	    .max_flows = 1000, .tick_tsc = TICK, .wheel_slots = 256, .id_bits = 12};
	struct flowtab *t = flowtab_create(&p);
	struct flowtab_key k;
	uint32_t idx, id;

	(void)state;
	assert_non_null(t);
	key_i(&k, 1);
	for (int i = 0; i < 20; i++) { /* 2 generation bits: they wrap */
		assert_int_equal(flowtab_insert(t, &k, &idx), 0);
		id = flowtab_id(t, idx);
		assert_true(id < (1u << 12));
		assert_int_equal(flowtab_at(t, id), idx);
		flowtab_del(t, idx);
		assert_int_equal(flowtab_at(t, id), FLOWTAB_NIL);
	}
	flowtab_destroy(t);
	/* no room for a generation bit: refused */
	p.id_bits = 10;
	assert_null(flowtab_create(&p));
	p.max_flows = 512;
	t = flowtab_create(&p);
	assert_non_null(t);
	flowtab_destroy(t);
}

static void test_ids(void **state)
{
	struct flowtab *t = mk(1000, 0);
	struct flowtab_key k;
	uint32_t idx, id, idx2;

	(void)state;
	key_i(&k, 1);
	assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	id = flowtab_id(t, idx);
	assert_int_equal(flowtab_at(t, id), idx);
	flowtab_del(t, idx);
	assert_int_equal(flowtab_at(t, id), FLOWTAB_NIL); /* gone */
	key_i(&k, 2);
	assert_int_equal(flowtab_insert(t, &k, &idx2), 0);
	assert_int_equal(idx2, idx);			  /* slot reused ... */
	assert_int_equal(flowtab_at(t, id), FLOWTAB_NIL); /* ... old id refused */
	assert_int_not_equal(flowtab_id(t, idx2), id);
	assert_int_equal(flowtab_at(t, flowtab_id(t, idx2)), idx2);
	assert_int_equal(flowtab_at(t, 1023), FLOWTAB_NIL); /* out of range */
	flowtab_destroy(t);
}

static void test_iterate(void **state)
{
	struct flowtab *t = mk(100, 0);
	struct flowtab_key k;
	uint32_t idx, cur = 0, seen = 0, i;
	uint8_t mark[100] = {0};

	(void)state;
	for (i = 0; i < 50; i++) {
		key_i(&k, i);
		assert_int_equal(flowtab_insert(t, &k, &idx), 0);
		if (i % 3 == 0)
			flowtab_del(t, idx);
	}
	/* Delete while iterating too. */
	while ((idx = flowtab_next(t, &cur)) != FLOWTAB_NIL) {
		assert_int_equal(mark[idx], 0);
		mark[idx] = 1;
		seen++;
		flowtab_del(t, idx);
	}
	assert_int_equal(seen, 50 - 17);
	assert_int_equal(flowtab_count(t), 0);
	flowtab_destroy(t);
}

static void test_timers(void **state)
{
	const uint32_t n = 2000;
	struct flowtab *t = mk(n, 0);
	uint64_t *deadline = calloc(n, sizeof(*deadline)), now = 5000000;
	uint32_t out[16], idx, i, fired = 0;
	struct flowtab_key k;

	(void)state;
	for (i = 0; i < n; i++) {
		key_i(&k, i);
		assert_int_equal(flowtab_insert(t, &k, &idx), 0);
		assert_int_equal(idx, i);
		/* Deadlines from 0 to ~3 wheel turns ahead. */
		deadline[i] = now + rnd() % (3 * 256 * TICK);
		flowtab_timer_arm(t, i, deadline[i]);
	}
	/* Re-arm some, cancel some. */
	for (i = 0; i < n; i += 7) {
		deadline[i] = now + rnd() % (600 * TICK);
		flowtab_timer_arm(t, i, deadline[i]);
	}
	for (i = 3; i < n; i += 11) {
		flowtab_timer_cancel(t, i);
		deadline[i] = 0;
	}
	for (; now < 5000000 + 900 * TICK; now += rnd() % (3 * TICK)) {
		unsigned got, j;

		do {
			got = flowtab_expire(t, now, out, 16);
			assert_true(got <= 16);
			for (j = 0; j < got; j++) {
				assert_int_not_equal(deadline[out[j]], 0);
				assert_true(deadline[out[j]] <= now);		/* never early */
				assert_true(now - deadline[out[j]] < 6 * TICK); /* not late */
				assert_false(flowtab_timer_armed(t, out[j]));
				deadline[out[j]] = 0;
				fired++;
			}
		} while (got == 16);
	}
	for (i = 0; i < n; i++)
		assert_int_equal(deadline[i], 0);
	assert_int_equal(fired, n - (n - 3 + 10) / 11);

	/* A deadline in the past fires on the next call; delete cancels. */
	flowtab_timer_arm(t, 1, now - 100 * TICK);
	flowtab_timer_arm(t, 2, now + 10 * TICK);
	flowtab_del(t, 2);
	assert_int_equal(flowtab_expire(t, now + 20 * TICK, out, 16), 1);
	assert_int_equal(out[0], 1);
	/* A long stall: one call sees everything due. */
	flowtab_timer_arm(t, 4, now + 30 * TICK);
	assert_int_equal(flowtab_expire(t, now + 100000 * TICK, out, 16), 1);
	assert_int_equal(out[0], 4);
	free(deadline);
	flowtab_destroy(t);
}

/* Never-used entries come from the high-water mark, deleted ones are reused first, newest first. */
static void test_reuse(void **state)
{
	struct flowtab *t = mk(8, 16);
	struct flowtab_key k;
	uint32_t idx, i, id3;

	(void)state;
	for (i = 0; i < 5; i++) {
		key_i(&k, i);
		assert_int_equal(flowtab_insert(t, &k, &idx), 0);
		assert_int_equal(idx, i);
	}
	id3 = flowtab_id(t, 3);
	flowtab_del(t, 1);
	flowtab_del(t, 3);
	key_i(&k, 10);
	assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	assert_int_equal(idx, 3);
	assert_int_equal(flowtab_at(t, id3), FLOWTAB_NIL);
	key_i(&k, 11);
	assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	assert_int_equal(idx, 1);
	key_i(&k, 12);
	assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	assert_int_equal(idx, 5); /* free list empty: back to the high-water mark */
	/* An id for an entry never handed out is refused. */
	assert_int_equal(flowtab_at(t, 6), FLOWTAB_NIL);
	assert_int_equal(flowtab_at(t, 7), FLOWTAB_NIL);
	for (i = 13; i < 15; i++) {
		key_i(&k, i);
		assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	}
	key_i(&k, 15);
	assert_int_equal(flowtab_insert(t, &k, &idx), -ENOSPC);
	assert_int_equal(flowtab_count(t), 8);
	/* Deleting and re-adding the same key cycles through generations. */
	for (i = 0; i < 100; i++) {
		uint32_t id;

		key_i(&k, 14);
		idx = flowtab_lookup(t, &k);
		id = flowtab_id(t, idx);
		flowtab_del(t, idx);
		assert_int_equal(flowtab_lookup(t, &k), FLOWTAB_NIL);
		assert_int_equal(flowtab_insert(t, &k, &idx), 0);
		assert_int_not_equal(flowtab_id(t, idx), id);
		assert_int_equal(flowtab_at(t, id), FLOWTAB_NIL);
		assert_int_equal(flowtab_at(t, flowtab_id(t, idx)), idx);
	}
	flowtab_destroy(t);
}

/*
 * Lazy re-arming: a later deadline leaves the entry in its slot until the
 * wheel passes it. Whatever the order of arms, cancels and deletes, a timer
 * fires once, after its last deadline, within a few ticks.
 */
static void test_timer_rearm(void **state)
{
	struct flowtab *t = mk(16, 0);
	uint64_t now = 1000 * TICK;
	struct flowtab_key k;
	uint32_t out[4], idx, i, fired[4] = {0};

	(void)state;
	for (i = 0; i < 4; i++) {
		key_i(&k, i);
		assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	}
	assert_int_equal(flowtab_expire(t, now, out, 4), 0);
	/* Later and later: 10, then 20 ticks, then 2 turns of the 256-slot wheel. */
	flowtab_timer_arm(t, 0, now + 10 * TICK);
	flowtab_timer_arm(t, 0, now + 20 * TICK);
	flowtab_timer_arm(t, 0, now + 600 * TICK);
	/* Later, then earlier than the first: must move back. */
	flowtab_timer_arm(t, 1, now + 50 * TICK);
	flowtab_timer_arm(t, 1, now + 80 * TICK);
	flowtab_timer_arm(t, 1, now + 5 * TICK);
	/* Later, then cancelled; later, then deleted. */
	flowtab_timer_arm(t, 2, now + 10 * TICK);
	flowtab_timer_arm(t, 2, now + 30 * TICK);
	flowtab_timer_cancel(t, 2);
	assert_false(flowtab_timer_armed(t, 2));
	flowtab_timer_arm(t, 3, now + 10 * TICK);
	flowtab_timer_arm(t, 3, now + 30 * TICK);
	flowtab_del(t, 3);
	/* The deleted entry comes back as a new flow with its timer disarmed. */
	key_i(&k, 9);
	assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	assert_int_equal(idx, 3);
	assert_false(flowtab_timer_armed(t, 3));
	flowtab_timer_arm(t, 3, now + 40 * TICK);

	for (uint64_t end = now + 700 * TICK; now < end; now += TICK) {
		unsigned got = flowtab_expire(t, now, out, 4);

		for (unsigned j = 0; j < got; j++) {
			uint64_t due = out[j] == 0 ? 1600 : out[j] == 1 ? 1005 : 1040;

			assert_int_not_equal(out[j], 2);
			assert_true(now >= due * TICK);
			assert_true(now - due * TICK <= 4 * TICK);
			assert_false(flowtab_timer_armed(t, out[j]));
			fired[out[j]]++;
		}
	}
	/* Once each, none for the cancelled one. */
	assert_int_equal(fired[0], 1);
	assert_int_equal(fired[1], 1);
	assert_int_equal(fired[2], 0);
	assert_int_equal(fired[3], 1);
	assert_int_equal(flowtab_expire(t, now + 10000 * TICK, out, 4), 0);
	flowtab_destroy(t);
}

/*
 * flowtab_timer_arm_min(): an earlier deadline moves the timer, a later one
 * leaves it (the earliest of a flow's deadlines fires); a disarmed entry
 * arms.
 */
static void test_timer_arm_min(void **state)
{
	struct flowtab *t = mk(16, 0);
	uint64_t now = 1000 * TICK;
	struct flowtab_key k;
	uint32_t out[4], idx, i, fired[3] = {0};

	(void)state;
	for (i = 0; i < 3; i++) {
		key_i(&k, i);
		assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	}
	assert_int_equal(flowtab_expire(t, now, out, 4), 0);
	flowtab_timer_arm_min(t, 0, now + 50 * TICK); /* disarmed: arms */
	flowtab_timer_arm_min(t, 0, now + 80 * TICK); /* later: stays at 50 */
	flowtab_timer_arm_min(t, 1, now + 50 * TICK);
	flowtab_timer_arm_min(t, 1, now + 20 * TICK); /* earlier: moves to 20 */
	flowtab_timer_arm_min(t, 1, now + 30 * TICK); /* later: stays at 20 */
	assert_false(flowtab_timer_armed(t, 2));
	for (uint64_t end = now + 200 * TICK; now < end; now += TICK) {
		unsigned got = flowtab_expire(t, now, out, 4);

		for (unsigned j = 0; j < got; j++) {
			uint64_t due = out[j] == 0 ? 1050 : 1020;

			assert_true(out[j] < 2);
			assert_true(now >= due * TICK);
			assert_true(now - due * TICK <= 4 * TICK);
			fired[out[j]]++;
		}
	}
	assert_int_equal(fired[0], 1);
	assert_int_equal(fired[1], 1);
	assert_int_equal(fired[2], 0);
	flowtab_destroy(t);
}

/* The key of an entry, from its state alone (flowtab_state_key()). */
static void test_state_key(void **state)
{
	struct flowtab *t = mk(64, 0);
	struct flowtab_key k;
	uint32_t idx;

	(void)state;
	for (uint32_t i = 0; i < 40; i++) {
		key_i(&k, i);
		assert_int_equal(flowtab_insert(t, &k, &idx), 0);
		assert_ptr_equal(flowtab_state_key(flowtab_state(t, idx)), flowtab_key_of(t, idx));
		key_stored(flowtab_state_key(flowtab_state(t, idx)), &k);
	}
	flowtab_destroy(t);
}

/*
 * Every operation at random against a reference model: keys, entries and
 * ids, iteration, and timers (never early, at most a few ticks late, never
 * lost, popped once), with expire often stopping at max and resuming.
 */
struct ref {
	uint32_t idx;  /* FLOWTAB_NIL: not in the table */
	uint32_t id;   /* of the latest entry the key had */
	bool ided;     /* the key was ever in the table */
	uint64_t due;  /* deadline, 0 = disarmed */
	uint64_t from; /* when it was armed (a past deadline fires after that) */
};

static void model_run(struct flowtab *t, uint32_t n, uint32_t space, int iters)
{
	struct ref *m = calloc(space, sizeof(*m));
	uint32_t *owner = malloc(n * sizeof(*owner)); /* entry -> key */
	uint8_t *seen = calloc(n, 1);
	uint64_t now = 7000 * TICK;
	uint32_t live = 0, out[3];
	struct flowtab_key k;

	for (uint32_t i = 0; i < space; i++)
		m[i].idx = FLOWTAB_NIL;
	for (int it = 0; it < iters; it++) {
		uint32_t i = (uint32_t)(rnd() % space), idx;
		struct ref *r = &m[i];
		unsigned op = (unsigned)(rnd() % 16);

		key_i(&k, i);
		if (op < 4) {
			int rc = flowtab_insert(t, &k, &idx);

			if (r->idx != FLOWTAB_NIL) {
				assert_int_equal(rc, -EEXIST);
				assert_int_equal(idx, r->idx);
			} else if (live == n) {
				assert_int_equal(rc, -ENOSPC);
			} else {
				assert_int_equal(rc, 0);
				assert_false(flowtab_timer_armed(t, idx));
				r->idx = idx;
				r->id = flowtab_id(t, idx);
				r->ided = true;
				r->due = 0;
				owner[idx] = i;
				live++;
			}
		} else if (op < 6) {
			if (r->idx != FLOWTAB_NIL) {
				flowtab_del(t, r->idx);
				r->idx = FLOWTAB_NIL;
				r->due = 0;
				live--;
			}
		} else if (op < 8) {
			assert_int_equal(flowtab_lookup(t, &k), r->idx);
			/* A stale id stays refused, a live one finds its entry. */
			if (r->ided)
				assert_int_equal(flowtab_at(t, r->id), r->idx);
		} else if (op < 12) {
			if (r->idx != FLOWTAB_NIL) {
				/* From a little in the past to 3 turns of the wheel ahead. */
				uint64_t d = now - 20 * TICK + rnd() % (3 * 256 * TICK);

				flowtab_timer_arm(t, r->idx, d);
				r->due = d;
				r->from = now;
			}
		} else if (op < 13) {
			if (r->idx != FLOWTAB_NIL) {
				flowtab_timer_cancel(t, r->idx);
				r->due = 0;
			}
		} else {
			unsigned got;

			now += rnd() % (3 * TICK);
			do {
				got = flowtab_expire(t, now, out, 3);
				for (unsigned j = 0; j < got; j++) {
					struct ref *f = &m[owner[out[j]]];

					assert_int_equal(f->idx, out[j]);
					assert_int_not_equal(f->due, 0);
					assert_true(f->due <= now);
					assert_true(now - FT_MAX(f->due, f->from) < 6 * TICK);
					assert_false(flowtab_timer_armed(t, out[j]));
					f->due = 0;
				}
			} while (got == 3);
		}
		assert_int_equal(flowtab_count(t), live);
		if (it % 4096 == 0) {
			uint32_t cur = 0, nseen = 0;

			memset(seen, 0, n);
			while ((idx = flowtab_next(t, &cur)) != FLOWTAB_NIL) {
				assert_int_equal(m[owner[idx]].idx, idx);
				assert_int_equal(seen[idx], 0);
				seen[idx] = 1;
				nseen++;
			}
			assert_int_equal(nseen, live);
		}
	}
	/* Every armed timer still fires, late enough and soon enough. */
	for (uint64_t end = now + 800 * TICK; now < end; now += TICK) {
		unsigned got;

		while ((got = flowtab_expire(t, now, out, 3)) > 0) {
			for (unsigned j = 0; j < got; j++) {
				struct ref *f = &m[owner[out[j]]];

				assert_int_not_equal(f->due, 0);
				assert_true(f->due <= now);
				assert_true(now - FT_MAX(f->due, f->from) < 6 * TICK);
				f->due = 0;
			}
		}
	}
	for (uint32_t i = 0; i < space; i++) {
		assert_int_equal(m[i].due, 0);
		if (m[i].idx != FLOWTAB_NIL)
			assert_false(flowtab_timer_armed(t, m[i].idx));
	}
	free(seen);
	free(owner);
	free(m);
}

static void test_model_timers(void **state)
{
	struct flowtab *t = mk(512, 24);

	(void)state;
	model_run(t, 512, 700, 400000);
	flowtab_destroy(t);
}

static size_t rss(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long size = 0, res = 0;

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lu %lu", &size, &res), 2);
	fclose(f);
	return res * 4096;
}

/* A table for 4 M flows of 1 KiB costs memory only for what is used. */
static void test_lazy_memory(void **state)
{
	struct flowtab_params p = {.max_flows = 1u << 22, .entry_size = 1024, .tick_tsc = TICK};
	const uint32_t n = 10000;
	struct flowtab *t;
	struct flowtab_key k;
	uint32_t idx, cur = 0, i;
	size_t r0, used;

	(void)state;
	r0 = rss();
	t = flowtab_create(&p);
	assert_non_null(t);
	for (i = 0; i < n; i++) {
		key_i(&k, i);
		assert_int_equal(flowtab_insert(t, &k, &idx), 0);
		flowtab_timer_arm(t, idx, 100 * TICK);
	}
	while (flowtab_next(t, &cur) != FLOWTAB_NIL)
		;
	assert_int_equal(flowtab_at(t, (1u << 22) - 1), FLOWTAB_NIL);
	used = rss() - r0;
	print_message("flowtab: %u of %u flows resident in %zu KiB of %zu KiB\n", n, p.max_flows,
		      used >> 10, flowtab_mem_size(&p) >> 10);
	/* The whole index (64 MiB, touched at random) plus 10,000 entries. */
	assert_true(used < ((size_t)96 << 20));
	assert_true(used < flowtab_mem_size(&p) / 32);
	flowtab_destroy(t);
}

/* A caller's allocator need not return zeroed memory. */
static void *dirty_alloc(size_t size, size_t align, void *arg)
{
	void *p = aligned_alloc(align, size);

	(void)arg;
	if (p)
		memset(p, 0xa5, size);
	return p;
}

static void dirty_release(void *p, void *arg)
{
	*(int *)arg += 1;
	free(p);
}

static void test_dirty_alloc(void **state)
{
	int released = 0;
	struct flowtab_params p = {.max_flows = 512,
				   .entry_size = 24,
				   .tick_tsc = TICK,
				   .wheel_slots = 256,
				   .alloc = dirty_alloc,
				   .release = dirty_release,
				   .alloc_arg = &released};
	struct flowtab *t = flowtab_create(&p);
	struct flowtab_key k;
	uint32_t idx, cur = 0;

	(void)state;
	assert_non_null(t);
	assert_int_equal(flowtab_count(t), 0);
	assert_int_equal(flowtab_next(t, &cur), FLOWTAB_NIL);
	assert_int_equal(flowtab_at(t, 5), FLOWTAB_NIL);
	key_i(&k, 1);
	assert_int_equal(flowtab_lookup(t, &k), FLOWTAB_NIL);
	assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	assert_int_equal(idx, 0);
	assert_false(flowtab_timer_armed(t, idx));
	for (int i = 0; i < 24; i++)
		assert_int_equal(((char *)flowtab_state(t, idx))[i], 0);
	flowtab_del(t, idx);
	model_run(t, 512, 700, 100000);
	flowtab_destroy(t);
	assert_int_equal(released, 1);
}

static void *ctr_alloc(size_t size, size_t align, void *arg)
{
	*(size_t *)arg += size;
	return aligned_alloc(align, size);
}

static void ctr_release(void *p, void *arg)
{
	(void)arg;
	free(p);
}

/* 1 M flows with a 64-byte state: <= 128 bytes per flow, all of it. */
static void test_memory(void **state)
{
	size_t used = 0;
	struct flowtab_params p = {.max_flows = 1u << 20,
				   .entry_size = 64,
				   .tick_tsc = TICK,
				   .alloc = ctr_alloc,
				   .release = ctr_release,
				   .alloc_arg = &used};
	struct flowtab *t;
	struct flowtab_key k;
	uint32_t idx;

	(void)state;
	assert_true(flowtab_mem_size(&p) <= 128ull * p.max_flows);
	print_message("flowtab: %u flows x 64 B state = %zu B (%.1f B/flow)\n", p.max_flows,
		      flowtab_mem_size(&p), (double)flowtab_mem_size(&p) / p.max_flows);
	t = flowtab_create(&p);
	assert_non_null(t);
	assert_int_equal(used, flowtab_mem_size(&p));
	key_i(&k, 3);
	assert_int_equal(flowtab_insert(t, &k, &idx), 0);
	assert_int_equal(flowtab_lookup(t, &k), idx);
	flowtab_destroy(t);
	/* the flows engine's states (flows.h): UDP 24 B, TCP 64 B; with the
	 * 28-byte header the entries take 52 and 92 B per flow plus 6.2 to
	 * 12.3 B of index (1.04 slots of 6.4 B at least, in a power of two of
	 * buckets), a little more for the table's header and wheel: 8 B at
	 * 2^20 entries, 10.7 B at 25,000,000 */
	p.alloc = NULL;
	p.max_flows = 1u << 20;
	p.entry_size = 24;
	assert_true(flowtab_mem_size(&p) >= 60ull * p.max_flows);
	assert_true(flowtab_mem_size(&p) <= 60ull * p.max_flows + (1u << 16));
	p.entry_size = 64;
	assert_true(flowtab_mem_size(&p) >= 100ull * p.max_flows);
	assert_true(flowtab_mem_size(&p) <= 100ull * p.max_flows + (1u << 16));
	p.max_flows = 25000000;
	p.entry_size = 24;
	assert_true(flowtab_mem_size(&p) >= 62ull * p.max_flows);
	assert_true(flowtab_mem_size(&p) <= 63ull * p.max_flows);
	p.entry_size = 64;
	assert_true(flowtab_mem_size(&p) >= 102ull * p.max_flows);
	assert_true(flowtab_mem_size(&p) <= 103ull * p.max_flows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_params),	  cmocka_unit_test(test_basic),
	    cmocka_unit_test(test_full_dense),
	    cmocka_unit_test(test_full),	  cmocka_unit_test(test_model),
	    cmocka_unit_test(test_ids),		  cmocka_unit_test(test_id_bits),
	    cmocka_unit_test(test_iterate),	  cmocka_unit_test(test_timers),
	    cmocka_unit_test(test_reuse),	  cmocka_unit_test(test_timer_rearm),
	    cmocka_unit_test(test_model_timers),  cmocka_unit_test(test_lazy_memory),
	    cmocka_unit_test(test_dirty_alloc),	  cmocka_unit_test(test_memory),
	    cmocka_unit_test(test_timer_arm_min), cmocka_unit_test(test_state_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
