/*
 * progb.c — the bytes of a stateful program (progb.h): fill, check and
 * the until search.
 *
 * Context: pure.
 */
#include <stddef.h>
#include <string.h>

#include "progb.h"
#include "tcp.h"

void progb_kmp(const uint8_t *pat, uint32_t n, uint8_t *fail)
{
	uint32_t k = 0;

	fail[0] = 0;
	for (uint32_t i = 1; i < n; i++) {
		while (k && pat[i] != pat[k])
			k = fail[k - 1];
		if (pat[i] == pat[k])
			k++;
		fail[i] = (uint8_t)k;
	}
}

uint32_t progb_until(const uint8_t *pat, const uint8_t *fail, uint32_t n, uint32_t *state,
		     const uint8_t *data, uint32_t len)
{
	uint32_t k = *state;

	for (uint32_t i = 0; i < len; i++) {
		while (k && data[i] != pat[k])
			k = fail[k - 1];
		if (data[i] == pat[k])
			k++;
		if (k == n) {
			*state = 0;
			return i + 1;
		}
	}
	*state = k;
	return 0;
}

size_t progb_find(const struct prof_program *pg, uint32_t off)
{
	size_t lo = 0, hi = pg->n, i;

	/* the last step whose off <= off: a send when off is within the sends */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (pg->steps[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	i = lo;
	if (i < pg->n && pg->steps[i].op == PROF_OP_SEND && pg->steps[i].off <= off &&
	    off - pg->steps[i].off < pg->steps[i].arg)
		return i;
	return pg->n;
}

/* The run of bytes pg sends at off, at most len: its data (NULL: the pattern). */
static uint32_t progb_run(const struct prof_program *pg, uint32_t off, uint32_t len,
			  const uint8_t **data)
{
	size_t i = progb_find(pg, off);
	uint32_t in, n;

	*data = NULL;
	if (i == pg->n)
		return len;
	in = off - pg->steps[i].off;
	n = pg->steps[i].arg - in;
	if (pg->steps[i].data)
		*data = pg->steps[i].data + in;
	return n < len ? n : len;
}

void progb_fill(const struct prof_program *pg, uint8_t *dst, uint32_t off, uint32_t len)
{
	while (len) {
		const uint8_t *d;
		uint32_t n = progb_run(pg, off, len, &d);

		if (d)
			memcpy(dst, d, n);
		else
			tcp_payload_fill(dst, off, n);
		dst += n;
		off += n;
		len -= n;
	}
}

bool progb_check(const struct prof_program *pg, const uint8_t *src, uint32_t off, uint32_t len)
{
	while (len) {
		const uint8_t *d;
		uint32_t n = progb_run(pg, off, len, &d);

		if (d ? memcmp(src, d, n) != 0 : !tcp_payload_check(src, off, n))
			return false;
		src += n;
		off += n;
		len -= n;
	}
	return true;
}

bool progb_ours(const struct prof_program *pg, const uint8_t *src, uint32_t off, uint32_t len)
{
	uint8_t want[PROGB_PROBE];
	uint32_t n = len < PROGB_PROBE ? len : PROGB_PROBE, wrong = 0;

	progb_fill(pg, want, off, n);
	for (uint32_t i = 0; i < n; i++)
		wrong += src[i] != want[i];
	return n && wrong <= n >> 2;
}
