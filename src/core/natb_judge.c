/*
 * natb_judge.c — the pure half of `bench nat`: from what the two sides of
 * the NAT saw, name its behaviours (mapping, filtering, address pooling,
 * port allocation; RFC 4787 §4-5), plan and read the timeout searches
 * (many mappings made at once, one probed per probe time), and lay out the
 * table of checks, one row per requirement of RFC 4787, RFC 5382, RFC
 * 5508 and RFC 7857 with its gist and a verdict. No I/O: the control half
 * (src/control/natb.c) measures and the console prints.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "natb.h"

const char *const natb_dep_names[NATB_DEP_APD + 1] = {
    [NATB_DEP_UNKNOWN] = "unknown",
    [NATB_DEP_EI] = "endpoint-independent",
    [NATB_DEP_AD] = "address-dependent",
    [NATB_DEP_APD] = "address-and-port-dependent",
};

const char *const natb_pool_names[NATB_POOL_ARBITRARY + 1] = {
    [NATB_POOL_UNKNOWN] = "unknown",
    [NATB_POOL_SINGLE] = "single",
    [NATB_POOL_PAIRED] = "paired",
    [NATB_POOL_ARBITRARY] = "arbitrary",
};

const char *const natb_alloc_names[NATB_ALLOC_RANDOM + 1] = {
    [NATB_ALLOC_UNKNOWN] = "unknown",
    [NATB_ALLOC_PRESERVED] = "preserved",
    [NATB_ALLOC_SEQUENTIAL] = "sequential",
    [NATB_ALLOC_RANDOM] = "random",
};

const char *const natb_verdict_names[NATB_FAIL + 1] = {
    [NATB_NA] = "not applicable",
    [NATB_PASS] = "pass",
    [NATB_FAIL] = "fail",
};

static bool ep_eq(struct natb_ep a, struct natb_ep b)
{
	return a.ip == b.ip && a.port == b.port;
}

enum natb_dep natb_mapping(const struct natb_ep m[2][2])
{
	for (int a = 0; a < 2; a++)
		for (int p = 0; p < 2; p++)
			if (!m[a][p].ip)
				return NATB_DEP_UNKNOWN;
	/* one external endpoint for every destination */
	if (ep_eq(m[0][0], m[0][1]) && ep_eq(m[0][0], m[1][0]) && ep_eq(m[0][0], m[1][1]))
		return NATB_DEP_EI;
	/* one per destination address, whatever its port */
	if (ep_eq(m[0][0], m[0][1]) && ep_eq(m[1][0], m[1][1]))
		return NATB_DEP_AD;
	return NATB_DEP_APD;
}

enum natb_dep natb_filtering(bool other_port_in, bool other_addr_in)
{
	if (other_addr_in)
		return NATB_DEP_EI;
	if (other_port_in)
		return NATB_DEP_AD;
	return NATB_DEP_APD;
}

enum natb_pool natb_pooling(const uint32_t *ext, size_t ni, size_t nj, unsigned *naddr)
{
	uint32_t seen[64];
	unsigned n = 0;
	bool paired = true, any = false;

	for (size_t i = 0; i < ni; i++) {
		uint32_t first = 0;

		for (size_t j = 0; j < nj; j++) {
			uint32_t e = ext[i * nj + j];
			unsigned k;

			if (!e)
				continue;
			any = true;
			if (!first)
				first = e;
			else if (e != first)
				paired = false;
			for (k = 0; k < n && seen[k] != e; k++)
				;
			if (k == n && n < FG_ARRAY_SIZE(seen))
				seen[n++] = e;
		}
	}
	*naddr = n;
	if (!any)
		return NATB_POOL_UNKNOWN;
	if (n == 1)
		return NATB_POOL_SINGLE;
	return paired ? NATB_POOL_PAIRED : NATB_POOL_ARBITRARY;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

enum natb_alloc natb_alloc_of(const uint16_t *in, const uint16_t *ext, size_t n,
			      unsigned *contig_pct)
{
	uint32_t d[512];
	size_t same = 0, nd = 0, pairs = 0, contig = 0;

	*contig_pct = 0;
	if (n < 4)
		return NATB_ALLOC_UNKNOWN;
	for (size_t i = 0; i < n; i++) {
		same += in[i] == ext[i];
		if (i == 0)
			continue;
		if (in[i] == (uint16_t)(in[i - 1] + 1)) {
			pairs++;
			contig += ext[i] == (uint16_t)(ext[i - 1] + 1);
		}
		if (nd < FG_ARRAY_SIZE(d))
			d[nd++] = (uint32_t)abs((int)ext[i] - (int)ext[i - 1]);
	}
	*contig_pct = pairs ? (unsigned)(contig * 100 / pairs) : 0;
	if (same * 10 >= n * 9)
		return NATB_ALLOC_PRESERVED;
	/* the median step between ports given one after the other: a
	 * counter moves by a few, a random choice by thousands */
	qsort(d, nd, sizeof(d[0]), cmp_u32);
	return d[nd / 2] <= 16 ? NATB_ALLOC_SEQUENTIAL : NATB_ALLOC_RANDOM;
}

size_t natb_plan(double first, double ratio, double max, double *t, size_t cap)
{
	size_t n = 0;

	if (!(first > 0) || !(ratio > 1) || !(max >= first) || !cap)
		return 0;
	for (double x = first; x < max && n + 1 < cap; x *= ratio)
		t[n++] = x;
	t[n++] = max;
	return n;
}

bool natb_estimate(const double *t, const enum natb_tri *alive, size_t n, struct natb_tmo *r)
{
	double lo = 0;
	bool any_yes = false;

	for (size_t k = 0; k < n; k++) {
		if (alive[k] == NATB_UNSEEN)
			return false;
		if (alive[k] == NATB_YES) {
			lo = t[k];
			any_yes = true;
			continue;
		}
		/* a dead one: the end when the next is dead too, or it is the last */
		if (k + 1 < n && alive[k + 1] == NATB_UNSEEN)
			return false;
		if (k + 1 < n && alive[k + 1] == NATB_YES)
			continue; /* a probe lost on the way: the search goes on */
		if (!any_yes)
			*r = (struct natb_tmo){NATB_TMO_BELOW, t[k], 0, t[k]};
		else
			*r = (struct natb_tmo){NATB_TMO_FOUND, (lo + t[k]) / 2, lo, t[k]};
		return true;
	}
	if (!n)
		return false;
	*r = (struct natb_tmo){NATB_TMO_ABOVE, t[n - 1], t[n - 1], 0};
	return true;
}

/* ---- the checks ---------------------------------------------------------- */

struct rows {
	struct natb_check *c;
	size_t n, cap;
};

static struct natb_check *row(struct rows *rs, const char *id, const char *text)
{
	struct natb_check *c;

	if (rs->n >= rs->cap)
		return NULL;
	c = &rs->c[rs->n++];
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->text = text;
	return c;
}

#define ROW(rs, id, text, v_, ...)                                                                 \
	do {                                                                                       \
		struct natb_check *c_ = row(rs, id, text);                                         \
		if (c_) {                                                                          \
			snprintf(c_->measured, sizeof(c_->measured), __VA_ARGS__);                 \
			c_->v = (v_);                                                              \
		}                                                                                  \
	} while (0)

static const char *tri(enum natb_tri t, const char *yes, const char *no)
{
	return t == NATB_YES ? yes : t == NATB_NO ? no : "not seen";
}

static enum natb_verdict want(enum natb_tri t)
{
	return t == NATB_YES ? NATB_PASS : t == NATB_NO ? NATB_FAIL : NATB_NA;
}

static enum natb_verdict dep_ei(enum natb_dep d)
{
	return d == NATB_DEP_EI ? NATB_PASS : d == NATB_DEP_UNKNOWN ? NATB_NA : NATB_FAIL;
}

static enum natb_verdict filt_ok(enum natb_dep d)
{
	if (d == NATB_DEP_UNKNOWN)
		return NATB_NA;
	return d == NATB_DEP_APD ? NATB_FAIL : NATB_PASS;
}

/* A timeout against its lower limit: text and verdict. */
static void tmo_row(struct rows *rs, const char *id, const char *text, const struct natb_tmo *t,
		    double min)
{
	switch (t->st) {
	case NATB_TMO_FOUND:
		ROW(rs, id, text, t->s >= min ? NATB_PASS : NATB_FAIL, "%.1f s (alive at %.1f, gone at %.1f)",
		    t->s, t->lo, t->hi);
		break;
	case NATB_TMO_ABOVE:
		ROW(rs, id, text, t->lo >= min ? NATB_PASS : NATB_NA,
		    "above %.0f s (--timeout-max)%s", t->lo, t->lo >= min ? "" : ": not judged");
		break;
	case NATB_TMO_BELOW:
		ROW(rs, id, text, t->hi >= min ? NATB_PASS : NATB_FAIL, "below %.1f s", t->hi);
		break;
	case NATB_TMO_FAILED:
		ROW(rs, id, text, NATB_NA, "no mapping to time");
		break;
	case NATB_TMO_NONE:
		ROW(rs, id, text, NATB_NA, "not measured");
		break;
	}
}

static void udp_rows(struct rows *rs, const struct natb_udp *u)
{
	ROW(rs, "RFC4787 REQ-1", "UDP mapping MUST be endpoint-independent", dep_ei(u->mapping), "%s",
	    natb_dep_names[u->mapping]);
	ROW(rs, "RFC4787 REQ-2", "one internal address SHOULD keep one external address (paired)",
	    u->pooling == NATB_POOL_PAIRED	  ? NATB_PASS
	    : u->pooling == NATB_POOL_ARBITRARY ? NATB_FAIL
						: NATB_NA,
	    "%s, %u external address%s", natb_pool_names[u->pooling], u->ext_addrs,
	    u->ext_addrs == 1 ? "" : "es");
	ROW(rs, "RFC4787 REQ-3", "no port overloading; ports stay in their range (1024-65535 here)",
	    want(u->own_port), "%s",
	    tri(u->own_port, "each endpoint its own port, in range", "ports shared or out of range"));
	ROW(rs, "RFC4787 REQ-4", "port parity SHOULD be kept (optional since RFC 7857 §8)",
	    u->parity == NATB_YES ? NATB_PASS : NATB_NA, "%s",
	    tri(u->parity, "kept", "not kept"));
	ROW(rs, "RFC4787 §4.2.1", "port preservation (measured; no requirement of its own)",
	    NATB_NA, "%s", tri(u->preserve, "ports preserved", "ports not preserved"));
	ROW(rs, "RFC7857 §9", "external ports SHOULD be hard to guess (RFC 6056): random or the host's",
	    u->alloc == NATB_ALLOC_UNKNOWN	  ? NATB_NA
	    : u->alloc == NATB_ALLOC_SEQUENTIAL ? NATB_FAIL
						: NATB_PASS,
	    "%s, %u %% contiguous", natb_alloc_names[u->alloc], u->contiguity_pct);
	tmo_row(rs, "RFC4787 REQ-5", "UDP mapping timeout MUST be 2 min or more (5 min advised)",
		&u->timeout, 120);
	ROW(rs, "RFC4787 REQ-6", "outbound packets MUST refresh the mapping", want(u->refresh_out),
	    "%s", tri(u->refresh_out, "refreshed", "not refreshed"));
	ROW(rs, "RFC4787 REQ-6a", "inbound packets MAY refresh the mapping",
	    u->refresh_in == NATB_UNSEEN ? NATB_NA : NATB_PASS, "%s",
	    tri(u->refresh_in, "refreshed", "not refreshed"));
	ROW(rs, "RFC4787 REQ-8", "UDP filtering endpoint- or address-dependent RECOMMENDED",
	    filt_ok(u->filtering), "%s", natb_dep_names[u->filtering]);
	ROW(rs, "RFC4787 REQ-9", "UDP hairpinning MUST be supported", want(u->hairpin), "%s",
	    tri(u->hairpin, "hairpinned", "not hairpinned"));
	ROW(rs, "RFC4787 REQ-9a", "a hairpinned packet shows the external source endpoint",
	    u->hairpin == NATB_YES ? want(u->hairpin_ext) : NATB_NA, "%s",
	    u->hairpin == NATB_YES ? tri(u->hairpin_ext, "external source", "internal source")
				   : "no hairpinning");
	ROW(rs, "RFC4787 REQ-12", "an ICMP error MUST NOT end the mapping it is about",
	    want(u->icmp_keeps), "%s", tri(u->icmp_keeps, "mapping kept", "mapping gone"));
	ROW(rs, "RFC4787 REQ-14", "out-of-order fragments MUST get through", want(u->frags), "%s",
	    tri(u->frags, "translated and delivered", "lost"));
	if (u->quota_tried)
		ROW(rs, "RFC6888 REQ-4", "ports per subscriber: a limit MUST be configurable (seen)",
		    NATB_NA, "%u of %u mappings from one address%s", u->quota, u->quota_tried,
		    u->quota * 50 >= u->quota_tried * 49 ? ", no limit" : "");
}

static void tcp_rows(struct rows *rs, const struct natb_tcp *t)
{
	ROW(rs, "RFC5382 REQ-1", "TCP mapping MUST be endpoint-independent", dep_ei(t->mapping),
	    "%s", natb_dep_names[t->mapping]);
	ROW(rs, "RFC5382 REQ-3", "TCP filtering endpoint- or address-dependent RECOMMENDED",
	    filt_ok(t->filtering), "%s", natb_dep_names[t->filtering]);
	tmo_row(rs, "RFC5382 REQ-5", "established TCP idle timeout MUST be 2 h 4 min or more",
		&t->established, 7440);
	tmo_row(rs, "RFC5382 REQ-5 (transitory)", "transitory TCP idle timeout MUST be 4 min or more",
		&t->transitory, 240);
	ROW(rs, "RFC5382 REQ-8", "TCP hairpinning MUST be supported", want(t->hairpin), "%s",
	    tri(t->hairpin, "hairpinned", "not hairpinned"));
	ROW(rs, "RFC5382 REQ-8a", "a hairpinned segment shows the external source endpoint",
	    t->hairpin == NATB_YES ? want(t->hairpin_ext) : NATB_NA, "%s",
	    t->hairpin == NATB_YES ? tri(t->hairpin_ext, "external source", "internal source")
				   : "no hairpinning");
	ROW(rs, "RFC5382 REQ-9", "an ICMP destination unreachable SHOULD be translated",
	    want(t->err_xlate), "%s", tri(t->err_xlate, "translated", "not translated"));
}

static void icmp_rows(struct rows *rs, const struct natb_icmp *i)
{
	ROW(rs, "RFC5508 REQ-1", "echo from inside MUST pass; one identifier mapping whatever the peer",
	    want(i->id_ei), "%s", tri(i->id_ei, "one identifier towards two hosts", "identifier differs"));
	tmo_row(rs, "RFC5508 REQ-2", "ICMP query mapping timeout MUST be 60 s or more", &i->query,
		60);
	ROW(rs, "RFC5508 REQ-4", "an inbound ICMP error gets its embedded header reverted",
	    want(i->err_xlate), "%s", tri(i->err_xlate, "translated", "not translated"));
}

static const char *const short_dep[NATB_DEP_APD + 1] = {"unknown", "EI", "AD", "APD"};

size_t natb_checks(const struct natb_result *r, struct natb_check *c, size_t cap)
{
	struct rows rs = {c, 0, cap};

	if (r->untranslated)
		ROW(&rs, "RFC4787 §3", "a NAT gives internal endpoints external ones", NATB_FAIL,
		    "sources left unchanged: no NAT on this path");
	if (r->udp.on)
		udp_rows(&rs, &r->udp);
	if (r->tcp.on)
		tcp_rows(&rs, &r->tcp);
	if (r->icmp.on)
		icmp_rows(&rs, &r->icmp);
	if (r->udp.on && r->tcp.on && r->udp.mapping && r->tcp.mapping)
		ROW(&rs, "RFC7857 §5", "endpoint-independent mapping whatever the protocol",
		    r->udp.mapping == NATB_DEP_EI ? (r->tcp.mapping == NATB_DEP_EI ? NATB_PASS : NATB_FAIL)
						   : NATB_NA,
		    "UDP %s, TCP %s", short_dep[r->udp.mapping], short_dep[r->tcp.mapping]);
	return rs.n;
}
