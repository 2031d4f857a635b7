/*
 * flowtab_int.h — private to the flow table's two files and included by
 * nothing else: the layout of a table (buckets, entries, the wheel), which
 * flowtab_mem.c lays out and flowtab.c works on.
 *
 * Context: pure (types and one inline accessor).
 *
 * Included by: core (flowtab.c and flowtab_mem.c only).
 */
#ifndef FG_FLOWTAB_INT_H
#define FG_FLOWTAB_INT_H

#include <stddef.h>
#include <stdint.h>

#include "flowtab.h"

#define FT_BKT_SLOTS 10
#define FT_BKT_SIGS 12	/* sig[]: the slots' and two that are always 0 */
#define FT_HDR FLOWTAB_HDR
#define FT_LINE 64u
#define FT_STATE_ALIGN 4u	/* the header's and the key's fields */
#define FT_HEAD 0x80000000u	/* tprev of a slot's first entry: FT_HEAD | slot */

/* ft_ent.sf: the key's side in bit 0, the table's flags above it */
enum ft_flag {
	FT_SIDE = 1,  /* enum flowtab_side */
	FT_INUSE = 2,
	FT_ARMED = 4, /* linked in a wheel slot */
};

/*
 * The bytes of a key that name a flow, as the second 8 bytes of the key
 * read them (little-endian): the ports, the protocol and side's bit 0.
 * A stored key's side byte carries the flags above that bit and its
 * padding the generation, which neither the hash nor a compare reads.
 */
#define FT_KEY_MASK_B 0x000001ffffffffffull
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "FT_KEY_MASK_B reads a little-endian key");

/*
 * One cache line: ten slots of a 16-bit signature and a 32-bit ref. An
 * empty slot holds ref 0 and a used one the entry index + 1, so the zero
 * pages of a fresh mapping are an empty index. The signatures come first
 * and fill 24 bytes, the last 4 of them no slot's (always 0, masked out
 * of a match), so that the refs start 8-byte aligned.
 */
struct ft_bkt {
	uint16_t sig[FT_BKT_SIGS];
	uint32_t ref[FT_BKT_SLOTS];
} __attribute__((aligned(64)));

/*
 * Entry header; the caller's state follows at offset FT_HDR. The key's
 * last three bytes hold the table's own: flags beside the side bit, and
 * the generation in the padding (FT_KEY_MASK_B leaves them out).
 */
struct ft_ent {
	union {
		struct flowtab_key key;
		struct {
			uint8_t kb[13]; /* addresses, ports, protocol */
			uint8_t sf;	/* side | enum ft_flag */
			uint16_t gen;	/* bumped on delete */
		};
	};
	uint32_t tnext; /* wheel slot list, or the free list */
	uint32_t tprev; /* previous in the slot list, or FT_HEAD | slot */
	uint32_t tick;	/* wheel tick the timer is due at (FT_ARMED) */
};

_Static_assert(sizeof(struct flowtab_key) == 16, "key must be 16 bytes");
_Static_assert(offsetof(struct flowtab_key, side) == 13 && offsetof(struct ft_ent, sf) == 13 &&
		   offsetof(struct ft_ent, gen) == offsetof(struct flowtab_key, pad),
	       "flags share the side's byte, the generation the key's padding");
_Static_assert(sizeof(struct ft_ent) == FT_HDR, "entry header must be 28 bytes");
_Static_assert(sizeof(struct ft_bkt) == FT_LINE, "bucket must be one line");
_Static_assert(FLOWTAB_MAX_FLOWS <= FT_HEAD, "an entry index must not look like a slot tag");

struct flowtab {
	struct ft_bkt *bkt;
	unsigned char *ent; /* max_flows entries of stride bytes */
	uint32_t *wheel;    /* slot heads */
	uint32_t bmask;	    /* buckets - 1 */
	uint32_t stride;
	uint32_t max_flows;
	uint32_t count;
	uint32_t hwm;	    /* entries below were handed out at least once */
	uint32_t free_head; /* deleted entries, most recent first */
	uint32_t wmask;	    /* wheel slots - 1 */
	uint32_t idx_bits;  /* id = idx | gen << idx_bits */
	uint32_t idx_mask;
	uint32_t gen_mask;
	uint64_t tick_inv; /* floor(2^64 / tick_tsc): tsc -> tick without a divide */
	uint64_t cur;	   /* last wheel tick fully processed */
	size_t map_len;	   /* mmap'ed bytes, 0 with the caller's allocator */
	void (*release)(void *ptr, void *arg);
	void *alloc_arg;
};

/*
 * The index's size: at least FT_SLOTS_NUM / FT_SLOTS_DEN slots per entry
 * (a slot load of at most 96 %), in a power of two of buckets. Ten-slot
 * buckets with two choices and two levels of displacement take every
 * entry up to 98 % (a table of 2^21 buckets lost 3 of 20,560,313 keys
 * there, none at 96 %; test_flowtab fills one at 96 %).
 */
#define FT_SLOTS_NUM 26u
#define FT_SLOTS_DEN 25u

static inline struct ft_ent *ft_ent(const struct flowtab *t, uint32_t idx)
{
	return (struct ft_ent *)(t->ent + (size_t)idx * t->stride);
}

#endif
