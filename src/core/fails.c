/*
 * fails.c — the failed flows' reasons by name, and the reader's half of
 * the workers' rings of failed flows (fails.h): an entry copied without a
 * lock and checked against its sequence, a ring's newest entries of one
 * run, and the merge of the workers' entries by time.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fails.h"

static const char *const fail_names[FG_FAIL_N] = {
    [FG_FAIL_NO_REPLY] = "no_reply",
    [FG_FAIL_TIMEOUT] = "timeout",
    [FG_FAIL_RESET] = "reset",
    [FG_FAIL_RETX] = "retransmits_exhausted",
    [FG_FAIL_ICMP_UNREACH] = "icmp_unreachable",
    [FG_FAIL_TABLE_FULL] = "table_full",
    [FG_FAIL_PAYLOAD] = "payload_mismatch",
    [FG_FAIL_PEER_CLOSED] = "peer_closed",
};

static const char *const fail_docs[FG_FAIL_N] = {
    [FG_FAIL_NO_REPLY] = "the flow's timeout came and nothing was heard from the peer",
    [FG_FAIL_TIMEOUT] = "the flow's timeout came: the peer was heard, the program had not ended",
    [FG_FAIL_RESET] = "TCP: an acceptable RST arrived from the peer",
    [FG_FAIL_RETX] = "TCP: a segment went unacknowledged through every retransmission",
    [FG_FAIL_ICMP_UNREACH] = "an ICMP or ICMPv6 destination unreachable arrived for the flow",
    [FG_FAIL_TABLE_FULL] = "the flow table had no room for the new flow",
    [FG_FAIL_PAYLOAD] = "received bytes were not what the peer's program sends",
    [FG_FAIL_PEER_CLOSED] = "TCP: the peer closed (FIN) before the program had ended",
};

const char *fails_name(unsigned r) { return r < FG_FAIL_N ? fail_names[r] : "?"; }

const char *fails_doc(unsigned r) { return r < FG_FAIL_N ? fail_docs[r] : "?"; }

int fails_by_name(const char *s)
{
	for (unsigned r = 0; r < FG_FAIL_N; r++)
		if (!strcmp(s, fail_names[r]))
			return (int)r;
	return -1;
}

bool fails_read(const struct fail_ring *r, uint64_t n, struct fail_rec *out)
{
	const struct fail_rec *e = &r->rec[n & (FG_FAIL_RING - 1)];
	const uint64_t *src = (const uint64_t *)e;
	uint64_t w[FAILS_REC_WORDS], s1, s2;

	s1 = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);
	if (s1 != 2 * n + 2)
		return false; /* being written, overwritten, or never written */
	for (size_t i = 1; i < FAILS_REC_WORDS; i++)
		w[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
	/* the copy is done before seq is looked at again (rte_smp_rmb) */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	s2 = __atomic_load_n(&e->seq, __ATOMIC_RELAXED);
	if (s2 != s1)
		return false;
	w[0] = s1;
	memcpy(out, w, sizeof(*out));
	return true;
}

size_t fails_collect(const struct fail_ring *r, uint32_t run, struct fail_rec *out, size_t max,
		     uint64_t *torn)
{
	uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
	uint64_t lo = head > FG_FAIL_RING ? head - FG_FAIL_RING : 0;
	size_t k = 0;

	for (uint64_t n = head; n > lo && k < max; n--) {
		struct fail_rec rec;

		if (!fails_read(r, n - 1, &rec)) {
			if (torn)
				(*torn)++;
			continue;
		}
		if (rec.run == run)
			out[k++] = rec;
	}
	return k;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct fail_rec *x = a, *y = b;

	if (x->tsc != y->tsc)
		return x->tsc < y->tsc ? 1 : -1;
	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	return (int)x->tpl - (int)y->tpl;
}

size_t fails_merge(struct fail_rec *recs, size_t n, size_t max)
{
	if (n > 1)
		qsort(recs, n, sizeof(*recs), rec_cmp);
	return n < max ? n : max;
}

const char *fails_addr(char *buf, size_t len, const struct fail_rec *rec, const uint8_t *a)
{
	if (!inet_ntop(rec->v6 ? AF_INET6 : AF_INET, a, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}
