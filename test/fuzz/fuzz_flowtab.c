/*
 * fuzz_flowtab.c — libFuzzer harness for the flow table.
 *
 * The input picks a table (1 to 64 entries, a wheel of 8 to 64 slots, with
 * or without a caller's allocator returning dirty memory) and then a
 * sequence of operations on 48 keys: insert, delete, lookup, id checks,
 * timer arm (past, near and several wheel turns ahead), cancel, time steps
 * with expire (small batches, so calls stop at max and resume) and
 * iteration. Every result is compared with a reference model; timers must
 * never fire early, fire once, and all be popped within a few ticks of
 * their deadline. A mismatch aborts.
 *
 * Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc/core -Isrc/config \
 *       -Isrc/dataplane -Isrc/control -Isrc/console \
 *          test/fuzz/fuzz_flowtab.c src/core/flowtab.c src/core/flowtab_mem.c \
 *          -o build/fuzz_flowtab
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flowtab.h"
#include "flowtab_mem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_flowtab: %s:%d: %s\n", __FILE__, __LINE__, #c);      \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define TICK 64ull /* TSC cycles per wheel tick */
#define NKEYS 48
#define MAXE 64

struct ref {
	uint32_t idx; /* FLOWTAB_NIL: not in the table */
	uint32_t id;  /* of the key's latest entry, valid once ided */
	int ided;
	uint64_t due;  /* deadline, 0 = disarmed */
	uint64_t from; /* when it was armed: a past deadline fires after that */
};

static void *dirty_alloc(size_t size, size_t align, void *arg)
{
	void *p = aligned_alloc(align, size);

	(void)arg;
	if (p)
		memset(p, 0x5a, size);
	return p;
}

static void dirty_release(void *p, void *arg)
{
	(void)arg;
	free(p);
}

static void key_of(struct flowtab_key *k, unsigned i)
{
	flowtab_key(k, 0x0a000001u + (i >> 1), 0x0a100001u, (uint16_t)(1000 + i), 80, 6,
		    (i & 1) ? FLOWTAB_SERVER : FLOWTAB_CLIENT);
}

/* When a timer must have fired: a past deadline counts from the arming. */
static uint64_t due_by(const struct ref *r)
{
	return (r->due > r->from ? r->due : r->from) + 4 * TICK;
}

/*
 * Pop everything due at now, each popped timer checked against the model;
 * whatever step led here, nothing due a few ticks ago may be left.
 */
static void expire_all(struct flowtab *t, struct ref *m, const uint32_t *owner, uint64_t now,
		       unsigned batch)
{
	uint32_t out[4];
	unsigned got;

	do {
		got = flowtab_expire(t, now, out, batch);
		CHECK(got <= batch);
		for (unsigned j = 0; j < got; j++) {
			struct ref *r = &m[owner[out[j]]];

			CHECK(r->idx == out[j]);
			CHECK(r->due != 0);   /* armed, and popped once */
			CHECK(r->due <= now); /* never early */
			CHECK(!flowtab_timer_armed(t, out[j]));
			r->due = 0;
		}
	} while (got == batch);
	for (unsigned i = 0; i < NKEYS; i++)
		CHECK(m[i].due == 0 || now < due_by(&m[i]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct flowtab_params p = {.tick_tsc = TICK};
	struct ref m[NKEYS];
	uint32_t owner[MAXE], live = 0;
	uint64_t now = 1000 * TICK;
	struct flowtab *t;
	struct flowtab_key k;

	if (size < 2)
		return 0;
	p.max_flows = 1u + data[0] % MAXE;
	p.entry_size = (uint32_t)(data[1] & 0x3f);
	p.wheel_slots = 8u << (data[1] >> 6);
	if (data[0] & 0x80) {
		p.alloc = dirty_alloc;
		p.release = dirty_release;
	}
	data += 2;
	size -= 2;
	t = flowtab_create(&p);
	CHECK(t != NULL);
	for (unsigned i = 0; i < NKEYS; i++)
		m[i] = (struct ref){.idx = FLOWTAB_NIL};

	for (; size >= 2; data += 2, size -= 2) {
		unsigned op = data[0] >> 5, i = (data[0] & 0x1f) + ((data[1] & 1) << 5);
		unsigned arg = data[1] >> 1;
		struct ref *r;
		uint32_t idx;

		if (i >= NKEYS)
			i -= NKEYS / 3;
		r = &m[i];
		key_of(&k, i);
		switch (op) {
		case 0:
		case 1: {
			int rc = flowtab_insert(t, &k, &idx);

			if (r->idx != FLOWTAB_NIL) {
				CHECK(rc == -EEXIST && idx == r->idx);
			} else if (live == p.max_flows) {
				CHECK(rc == -ENOSPC);
			} else if (rc == -ENOSPC) {
				/* Both of the key's buckets full: allowed, if rare. */
				CHECK(flowtab_lookup(t, &k) == FLOWTAB_NIL);
			} else {
				CHECK(rc == 0 && idx < p.max_flows);
				CHECK(!flowtab_timer_armed(t, idx));
				for (uint32_t b = 0; b < p.entry_size; b++)
					CHECK(((const uint8_t *)flowtab_state(t, idx))[b] == 0);
				memset(flowtab_state(t, idx), 0xee, p.entry_size);
				r->idx = idx;
				r->id = flowtab_id(t, idx);
				r->ided = 1;
				r->due = 0;
				owner[idx] = i;
				live++;
			}
			break;
		}
		case 2:
			if (r->idx != FLOWTAB_NIL) {
				flowtab_del(t, r->idx);
				r->idx = FLOWTAB_NIL;
				r->due = 0;
				live--;
			}
			break;
		case 3:
			CHECK(flowtab_lookup(t, &k) == r->idx);
			if (r->ided)
				CHECK(flowtab_at(t, r->id) == r->idx);
			if (r->idx != FLOWTAB_NIL) {
				/* a stored key: the table's flags share its side
				 * byte and the generation its padding */
				const struct flowtab_key *sk = flowtab_key_of(t, r->idx);

				CHECK(memcmp(sk, &k, offsetof(struct flowtab_key, side)) == 0);
				CHECK(flowtab_key_side(sk) == flowtab_key_side(&k));
			}
			break;
		case 4:
		case 5:
			if (r->idx != FLOWTAB_NIL) {
				/* From 8 ticks ago to about 4 turns of the largest wheel ahead. */
				uint64_t d = now - 8 * TICK + (uint64_t)arg * arg * TICK / 4 + arg;

				flowtab_timer_arm(t, r->idx, d);
				CHECK(flowtab_timer_armed(t, r->idx));
				r->due = d;
				r->from = now;
			}
			break;
		case 6:
			if (r->idx != FLOWTAB_NIL) {
				flowtab_timer_cancel(t, r->idx);
				CHECK(!flowtab_timer_armed(t, r->idx));
				r->due = 0;
			}
			break;
		default:
			if (arg & 1) {
				uint32_t cur = 0, n = 0;

				while ((idx = flowtab_next(t, &cur)) != FLOWTAB_NIL) {
					CHECK(idx < p.max_flows && m[owner[idx]].idx == idx);
					n++;
				}
				CHECK(n == live);
			}
			now += (uint64_t)(arg >> 1) * TICK / 2;
			expire_all(t, m, owner, now, 1 + (i & 3));
			break;
		}
		CHECK(flowtab_count(t) == live);
	}
	/*
	 * Whatever is still armed fires: jump from deadline to deadline (short
	 * steps, so each call visits only some slots) until none is left.
	 */
	for (;;) {
		uint64_t next = UINT64_MAX;

		for (unsigned i = 0; i < NKEYS; i++)
			if (m[i].due && due_by(&m[i]) < next)
				next = due_by(&m[i]);
		if (next == UINT64_MAX)
			break;
		now = next > now ? next : now + TICK;
		expire_all(t, m, owner, now, 4);
	}
	flowtab_destroy(t);
	return 0;
}
