/*
 * flowtab.h — the per-worker flow table.
 *
 * Every worker owns one table holding the flows it drives: client flows it
 * started and server flows it learned. A flow is found by its 5-tuple as seen
 * on the wire plus a side bit (client or server), so both roles share one
 * table. flowtab_create() reserves all the memory for max_flows; after that
 * no call allocates, locks or makes a system call.
 *
 * Layout. The index is an array of 64-byte buckets, each holding 10 slots of
 * (16-bit signature, 32-bit entry index + 1; 0 is an empty slot). A key
 * hashes to two buckets (a cuckoo-style pair: the second is derived from the
 * first and the signature, so an entry can move between its two buckets
 * without rehashing the key; an insert whose two buckets are full moves
 * an occupant on, two levels deep). There are at least 1.04 slots per
 * entry, in a power of two of buckets (a mask finds a key's: a multiply
 * for any other number cost row c of make bench 6 %), so the index is at
 * most 96 % full and a lookup reads one bucket line (two for about 15 %
 * of the keys at that load), then the entry's key. Entries live in a separate array; each has a
 * stable 32-bit index and a caller-owned state area of entry_size bytes (a
 * TCB, a UDP program cursor). Never-used entries are handed out in index
 * order, deleted ones are reused first, the most recently deleted first
 * (its lines are likely still cached).
 *
 * Memory per flow: 6.2 to 12.3 B of index (1.04 to 2.08 slots of 6.4 B,
 * as the power of two falls) plus the entry: a 28-byte header (the key's
 * 16 B, whose side byte and padding also hold the entry's flags and
 * generation; timer links and deadline 12 B) and the state rounded up to
 * 4 B (so a state holds fields of 32 bits at most). With a 24-byte state
 * (a flows run's, UDP or TCP) that is 8 + 52 = 60 B per flow for
 * 1,048,576 flows (60 MiB), 10.7 + 52 for 25,000,000
 * (flowtab_mem_size() gives the exact figure). The
 * state follows the header at FLOWTAB_HDR bytes, so a caller holding the
 * state finds the key without the index (flowtab_state_key()): it need not
 * keep a copy of the addresses and ports. That is address space: without a
 * caller's allocator the table is an anonymous mapping (huge pages where
 * the kernel allows, for the TLB), whose pages
 * become resident when first touched and arrive zeroed, i.e. as an empty
 * index. So the index becomes resident as flows spread over it and the
 * entries up to the most flows ever live at once; a page's first touch is a
 * page fault in the worker. A caller's allocator gets the whole size and
 * its memory is used as it is, except the index, zeroed at create.
 *
 * Ids. flowtab_id() packs an entry index with its generation (bumped on every
 * delete) into 32 bits: carried in a packet signature, it finds the flow in
 * O(1) even when a NAT rewrote the tuple, and flowtab_at() refuses an id
 * whose flow has since been deleted or replaced.
 *
 * Timers. Each entry has one timer on a hashed timing wheel. The tick is
 * given in TSC units at create; a timer never fires before its deadline and
 * fires at most about 3 ticks after it (plus the caller's polling delay).
 * Re-arming to a later deadline only records it: the entry stays in its
 * slot and flowtab_expire() moves it on when it passes that slot, so the
 * common re-arm on every segment touches no other entry.
 * flowtab_expire() pops expired entries in bulk with bounded work per call;
 * a popped entry's timer is disarmed, the caller re-arms or deletes it.
 *
 * Context: worker (pure, non-blocking) on the owning worker only.
 * Creating and destroying a table (flowtab_create, flowtab_destroy,
 * flowtab_mem_size) is control's: flowtab_mem.h.
 *
 * Included by: every folder.
 */
#ifndef FG_FLOWTAB_H
#define FG_FLOWTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FLOWTAB_NIL UINT32_MAX /* "no entry" index */
#define FLOWTAB_HDR 28u	       /* an entry's header; its state follows */
#define FLOWTAB_MAX_FLOWS (1u << 26) /* flowgen(8): flows_max's bound */

enum flowtab_side {
	FLOWTAB_CLIENT = 0,
	FLOWTAB_SERVER = 1,
};

/*
 * The lookup key: addresses and ports in network byte order as read from
 * the wire (the table never interprets them). 16 bytes; pad must be zero,
 * so build keys with flowtab_key(). A key stored in the table
 * (flowtab_key_of(), flowtab_state_key()) carries the table's own bits
 * in side's upper bits and in pad: read its side with flowtab_key_side().
 */
struct flowtab_key {
	uint32_t sip, dip;
	uint16_t sport, dport;
	uint8_t proto;
	uint8_t side; /* enum flowtab_side */
	uint16_t pad;
};

struct flowtab;

/* pure: fill a key, zeroing the padding. */
static inline void flowtab_key(struct flowtab_key *k, uint32_t sip, uint32_t dip, uint16_t sport,
			       uint16_t dport, uint8_t proto, enum flowtab_side side)
{
	memset(k, 0, sizeof(*k));
	k->sip = sip;
	k->dip = dip;
	k->sport = sport;
	k->dport = dport;
	k->proto = proto;
	k->side = (uint8_t)side;
}

/* pure: the side of a key, built or stored. */
static inline enum flowtab_side flowtab_key_side(const struct flowtab_key *k)
{
	return (enum flowtab_side)(k->side & 1);
}

/* worker: the key's hash, for flowtab_prefetch() then flowtab_lookup_h(). */
uint64_t flowtab_hash(const struct flowtab_key *k);

/*
 * worker: prefetch the key's first bucket, and its second with `both`
 * (burst processing). A key that is in the table is nearly always in its
 * first bucket (the second takes keys only when the first is full); a
 * lookup that misses reads both, so a new flow's key wants both.
 */
void flowtab_prefetch(const struct flowtab *t, uint64_t hash, bool both);

/* worker: entry index of the key, or FLOWTAB_NIL. */
uint32_t flowtab_lookup(const struct flowtab *t, const struct flowtab_key *k);
uint32_t flowtab_lookup_h(const struct flowtab *t, const struct flowtab_key *k, uint64_t hash);

/*
 * worker: add the key; *idx receives the new entry (state zeroed, timer
 * disarmed). Returns 0, -EEXIST (*idx = the existing entry) or -ENOSPC
 * (table or index full: the caller counts the flow failed, table_full).
 */
int flowtab_insert(struct flowtab *t, const struct flowtab_key *k, uint32_t *idx);

/* worker: the same with the key's flowtab_hash() at hand. */
int flowtab_insert_h(struct flowtab *t, const struct flowtab_key *k, uint64_t hash, uint32_t *idx);

/* worker: remove an entry (its timer is cancelled, its generation bumped). */
void flowtab_del(struct flowtab *t, uint32_t idx);

/* worker: the same with the hash of the entry's key likely at hand (the
 * lookup's that found it); a hash that is not the key's costs the key's
 * own flowtab_hash() and changes nothing else. */
void flowtab_del_h(struct flowtab *t, uint32_t idx, uint64_t hash);

/* worker: the caller's state area / the key of a live entry. */
void *flowtab_state(const struct flowtab *t, uint32_t idx);
const struct flowtab_key *flowtab_key_of(const struct flowtab *t, uint32_t idx);

/* worker: the key of the live entry whose state is at `state`. */
static inline const struct flowtab_key *flowtab_state_key(const void *state)
{
	return (const struct flowtab_key *)(const void *)((const char *)state - FLOWTAB_HDR);
}

/* worker: number of live entries. */
uint32_t flowtab_count(const struct flowtab *t);

/* worker: entries still free (max_flows - count). */
uint32_t flowtab_room(const struct flowtab *t);

/* worker: 32-bit id of a live entry (index + generation). */
uint32_t flowtab_id(const struct flowtab *t, uint32_t idx);

/* worker: entry index for an id, or FLOWTAB_NIL if that flow is gone. */
uint32_t flowtab_at(const struct flowtab *t, uint32_t id);

/*
 * worker: iterate live entries. Start with *cursor = 0; returns the next
 * live index or FLOWTAB_NIL at the end. Deleting the returned entry while
 * iterating is allowed.
 */
uint32_t flowtab_next(const struct flowtab *t, uint32_t *cursor);

/* worker: (re-)arm the entry's timer to fire at deadline_tsc. */
void flowtab_timer_arm(struct flowtab *t, uint32_t idx, uint64_t deadline_tsc);

/*
 * worker: arm the entry's timer to fire at deadline_tsc unless it is armed
 * to fire no later already (in ticks): the timer is the earliest of several
 * deadlines, and a later one must not postpone it.
 */
void flowtab_timer_arm_min(struct flowtab *t, uint32_t idx, uint64_t deadline_tsc);

/* worker: cancel the entry's timer (no-op if not armed). */
void flowtab_timer_cancel(struct flowtab *t, uint32_t idx);

/* predicate (worker): is the entry's timer armed? */
bool flowtab_timer_armed(const struct flowtab *t, uint32_t idx);

/*
 * worker: pop up to max entries whose deadline is <= now_tsc into out[],
 * disarming them. Returns how many were popped. Work is bounded: at most
 * max entries and one pass over the wheel per call; call again if the
 * return value equals max. now_tsc must not go backwards.
 */
unsigned flowtab_expire(struct flowtab *t, uint64_t now_tsc, uint32_t *out, unsigned max);

#endif
