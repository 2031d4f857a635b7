/*
 * progb.h — the bytes of a stateful program (flowgen-profile(5),
 * "STATEFUL PROFILES": send data, hex or file, recv until): what a side
 * sends at a given offset of its stream, whether received bytes are what
 * the peer's program sends there, and the search for an until step's
 * delimiter across segment boundaries.
 *
 * A program (struct prof_program, prof-t.h) is unrolled: each send step
 * knows the stream offset of its first byte, so the bytes at any offset
 * are found by a binary search, and a retransmission regenerates its
 * payload from its offset as tcp.h wants. Bytes of a send without data
 * are the stream pattern of tcp.h at their offset (tcp_payload_fill()).
 *
 * The delimiter search is Knuth-Morris-Pratt: the failure table is built
 * once with the program, and the only per-flow state is how many bytes
 * of the delimiter the stream ended with so far.
 *
 * Context: pure (no globals, no I/O; unit-tested in test/unit/test_progb.c).
 * The workers call it per segment.
 *
 * Included by: every folder.
 */
#ifndef FG_PROGB_H
#define FG_PROGB_H

#include <stdbool.h>
#include <stdint.h>

#include "prof-t.h"

/* Bytes progb_ours() compares, at most. */
#define PROGB_PROBE 64u

/* pure: the KMP failure table of pat (n bytes, 1..FG_PROF_MAX_UNTIL) into fail[n]. */
void progb_kmp(const uint8_t *pat, uint32_t n, uint8_t *fail);

/*
 * pure: feed len stream bytes at data to the search of delimiter pat (n
 * bytes, failure table fail); *state is how many bytes of pat the stream
 * ended with before (0 at the start), updated. Returns the number of
 * bytes of data up to and including the end of the first whole match,
 * or 0 when data holds none (all of it was consumed, *state says how far
 * the next bytes must go on).
 */
uint32_t progb_until(const uint8_t *pat, const uint8_t *fail, uint32_t n, uint32_t *state,
		     const uint8_t *data, uint32_t len);

/*
 * pure: the index of the send step of pg whose bytes hold stream offset
 * off, or pg->n when off is past its last send.
 */
size_t progb_find(const struct prof_program *pg, uint32_t off);

/* pure: write the len bytes pg sends from stream offset off (the pattern past its sends). */
void progb_fill(const struct prof_program *pg, uint8_t *dst, uint32_t off, uint32_t len);

/* pure: are the len bytes at src what pg sends from stream offset off? */
bool progb_check(const struct prof_program *pg, const uint8_t *src, uint32_t off, uint32_t len);

/*
 * pure: do the bytes at src (len, from stream offset off) look like pg's,
 * with room for a corrupt byte (flowpay.h's rule): of their first n =
 * min(len, PROGB_PROBE) bytes at most n/4 differ. false when len is 0.
 */
bool progb_ours(const struct prof_program *pg, const uint8_t *src, uint32_t off, uint32_t len);

#endif
