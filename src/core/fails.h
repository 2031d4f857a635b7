/*
 * fails.h — the failed flows' reasons by name and the ring of the last
 * failed flows each worker keeps (include/fail-t.h): the names every
 * writer uses (`stats` text and --json, GET /metrics, records, the
 * dashboard), the worker's write of an entry (fails_push(), inline: it
 * runs on the worker, on the failure path only), and control's lock-free
 * read of the rings (fails_collect()) and their merge by time
 * (fails_merge()).
 *
 * The ring is a seqlock per entry. The worker (the only writer) makes
 * the entry's seq odd, fences, writes the fields, then stores the even
 * seq with release, and then the ring's head; it never waits for a
 * reader. A reader loads head (acquire), and for each entry it wants
 * loads seq (acquire), copies the fields, fences (acquire), loads seq
 * again: an entry whose two loads differ, are odd, or are not the
 * sequence of the failure it looked for (the worker wrapped past it) is
 * torn and skipped. Every field is moved with relaxed atomic word loads
 * and stores, so the copy is no data race in C11's terms. The cost on
 * the worker: one cache line written and a TSC read per failed flow;
 * nothing on the path of a flow that does not fail.
 *
 * Context: pure (fails_push() runs on the owning worker; the rest on any
 * thread; unit-tested in test/unit/test_fails.c).
 *
 * Included by: dataplane, control, cmd, console, api.
 */
#ifndef FG_FAILS_H
#define FG_FAILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fail-t.h"

/* pure: the name of reason r ("no_reply", ...; "?" out of range). */
const char *fails_name(unsigned r);
/* pure: the reason named s, or -1. */
int fails_by_name(const char *s);
/* pure: flowgen(8)'s one line on when reason r is counted. */
const char *fails_doc(unsigned r);

#define FAILS_REC_WORDS (sizeof(struct fail_rec) / sizeof(uint64_t))

/*
 * worker: write the failure rec (its seq ignored) into r, the ring of
 * the calling worker, the only writer. Never waits.
 */
static inline void fails_push(struct fail_ring *r, const struct fail_rec *rec)
{
	uint64_t n = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
	struct fail_rec *e = &r->rec[n & (FG_FAIL_RING - 1)];
	uint64_t *dst = (uint64_t *)e;
	uint64_t src[FAILS_REC_WORDS];

	memcpy(src, rec, sizeof(src));
	__atomic_store_n(&e->seq, 2 * n + 1, __ATOMIC_RELAXED);
	/* the odd seq is visible before any field changes (rte_smp_wmb) */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	for (size_t i = 1; i < FAILS_REC_WORDS; i++)
		__atomic_store_n(&dst[i], src[i], __ATOMIC_RELAXED);
	__atomic_store_n(&e->seq, 2 * n + 2, __ATOMIC_RELEASE);
	__atomic_store_n(&r->head, n + 1, __ATOMIC_RELEASE);
}

/*
 * pure: copy the n-th failure of ring r into *out: true when the entry
 * holds it, read whole (not torn by a write, not overwritten since).
 */
bool fails_read(const struct fail_ring *r, uint64_t n, struct fail_rec *out);

/*
 * pure: the newest failures of ring r, at most max of them, of run
 * `run` only, into out[] (newest first). Returns how many; entries
 * found torn are skipped and counted in *torn (may be NULL).
 */
size_t fails_collect(const struct fail_ring *r, uint32_t run, struct fail_rec *out, size_t max,
		     uint64_t *torn);

/* pure: sort the n entries of recs by time, newest first (ties: by side,
 * then template), and return min(n, max): the newest max. */
size_t fails_merge(struct fail_rec *recs, size_t n, size_t max);

/* pure: the address field a of rec (v6 or not) as text. */
const char *fails_addr(char *buf, size_t len, const struct fail_rec *rec, const uint8_t *a);

#endif
