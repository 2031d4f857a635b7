/*
 * natb_judge.c — the pure half of `bench nat`: from what the two sides of
 * the NAT saw, name its behaviours (mapping, filtering, address pooling,
 * port allocation; RFC 4787 §4-5), plan and read the timeout searches
 * (many mappings made at once, one probed per probe time), and lay out the
 * table of checks: a row for each requirement of RFC 4787, RFC 5382, RFC
 * 5508, RFC 7857 and RFC 6888 that shows from outside the NAT, with its
 * gist and a verdict. Every row presumes a NAT: a protocol whose probes
 * left with their internal source gets no verdict at all. No I/O: the
 * control half (src/control/natb.c) measures and the console prints.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "natb_judge.h"

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

const char *const natb_verdict_names[NATB_NVERDICTS] = {
    [NATB_NA] = "not applicable", [NATB_PASS] = "pass", [NATB_FAIL] = "fail",
    [NATB_INCONCLUSIVE] = "inconclusive", [NATB_INFO] = "info",
};

const char *const natb_level_names[NATB_LVL_MUST + 1] = {
    [NATB_LVL_NONE] = "none",
    [NATB_LVL_MAY] = "MAY",
    [NATB_LVL_SHOULD] = "SHOULD",
    [NATB_LVL_MUST] = "MUST",
};

const char *const natb_cont_names[NATB_CONT_IMPOSSIBLE + 1] = {
    [NATB_CONT_NONE] = "none",		[NATB_CONT_SEEN] = "contended",
    [NATB_CONT_LOST] = "lost",		[NATB_CONT_UNSHARED] = "unshared",
    [NATB_CONT_IMPOSSIBLE] = "impossible",
};

static bool ep_eq(struct natb_ep a, struct natb_ep b) { return a.ip == b.ip && a.port == b.port; }

static bool ep_set(struct natb_ep e) { return e.ip != 0; }

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

enum natb_dep natb_dep_worse(enum natb_dep a, enum natb_dep b)
{
	if (a == NATB_DEP_UNKNOWN)
		return b;
	if (b == NATB_DEP_UNKNOWN)
		return a;
	return a > b ? a : b;
}

enum natb_cont natb_contention(const struct natb_cont_probe p[2], enum natb_tri own,
			       enum natb_dep *dep)
{
	enum natb_dep worst = NATB_DEP_UNKNOWN;
	bool lost = false, any_shared = false, all_shared = true;

	for (int k = 0; k < 2; k++) {
		bool shared = false, seen = p[k].a.ip != 0;

		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 2; j++) {
				seen &= p[k].b[i][j].ip != 0;
				shared |= p[k].b[i][j].ip && p[k].b[i][j].ip == p[k].a.ip;
			}
		if (!seen) {
			lost = true;
			all_shared = false;
			continue;
		}
		any_shared |= shared;
		all_shared &= shared;
		if (shared)
			worst = natb_dep_worse(worst, natb_mapping(p[k].b));
	}
	*dep = NATB_DEP_UNKNOWN;
	/* a mapping by destination seen in one order is seen, whatever
	 * became of the other; endpoint-independence needs both */
	if ((worst != NATB_DEP_UNKNOWN && worst != NATB_DEP_EI) ||
	    (all_shared && worst == NATB_DEP_EI)) {
		*dep = worst;
		return NATB_CONT_SEEN;
	}
	if (lost)
		return NATB_CONT_LOST;
	return !any_shared && own == NATB_YES ? NATB_CONT_IMPOSSIBLE : NATB_CONT_UNSHARED;
}

enum natb_tri natb_own_addrs(const struct natb_obs *o, size_t n)
{
	unsigned naddr = 0;

	for (size_t i = 0; i < n; i++) {
		bool first = true;

		if (!ep_set(o[i].ext))
			continue;
		for (size_t j = 0; j < n; j++) {
			if (!ep_set(o[j].ext))
				continue;
			/* one internal address on two external ones, or two on one */
			if ((o[i].in.ip == o[j].in.ip) != (o[i].ext.ip == o[j].ext.ip))
				return NATB_NO;
			if (j < i && o[j].in.ip == o[i].in.ip)
				first = false;
		}
		naddr += first;
	}
	return naddr >= 3 ? NATB_YES : NATB_UNSEEN;
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
			      unsigned *contig_pct, unsigned *step)
{
	uint32_t d[512];
	size_t same = 0, nd = 0, pairs = 0, contig = 0;

	*contig_pct = 0;
	*step = 0;
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
	/* the median distance between ports given one after the other, each
	 * towards a destination of its own: a counter (RFC 6056 §3.3.5's
	 * increments too, if small) moves by a few whatever the destination;
	 * a random choice, or a counter offset by a hash of the destination
	 * (RFC 6056 §3.3.3, §3.3.4), by thousands */
	qsort(d, nd, sizeof(d[0]), cmp_u32);
	*step = d[nd / 2];
	if (same * 10 >= n * 9)
		return NATB_ALLOC_PRESERVED;
	return d[nd / 2] <= NATB_SEQ_STEP ? NATB_ALLOC_SEQUENTIAL : NATB_ALLOC_RANDOM;
}

enum natb_alloc natb_alloc_contended(const uint16_t *in, const struct natb_ep *first,
				     const struct natb_ep *second, size_t n, unsigned *forced,
				     unsigned *step)
{
	uint16_t fin[512], fext[512];
	size_t m = 0;
	unsigned pct;

	for (size_t k = 0; k < n && m < FG_ARRAY_SIZE(fin); k++)
		if (ep_set(first[k]) && second[k].ip == first[k].ip &&
		    second[k].port != first[k].port) {
			fin[m] = in[k];
			fext[m++] = second[k].port;
		}
	*forced = (unsigned)m;
	return natb_alloc_of(fin, fext, m, &pct, step);
}

enum natb_tri natb_overloading(const struct natb_obs *o, size_t n)
{
	enum natb_tri r = NATB_UNSEEN;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			if (!ep_set(o[i].ext) || !ep_set(o[j].ext) || ep_eq(o[i].in, o[j].in) ||
			    !ep_eq(o[i].srv, o[j].srv))
				continue;
			/* two internal endpoints towards one server endpoint: the
			 * NAT could tell their replies apart only by their external
			 * endpoints, which must differ (a port number reused on
			 * another external address is not overloading) */
			if (ep_eq(o[i].ext, o[j].ext))
				return NATB_YES;
			r = NATB_NO;
		}
	return r;
}

enum natb_tri natb_port_range(const struct natb_obs *o, size_t n)
{
	enum natb_tri r = NATB_UNSEEN;

	for (size_t i = 0; i < n; i++) {
		if (!ep_set(o[i].ext))
			continue;
		if ((o[i].in.port < 1024) != (o[i].ext.port < 1024))
			return NATB_NO;
		r = NATB_YES;
	}
	return r;
}

enum natb_tri natb_translated(const struct natb_obs *o, size_t n)
{
	enum natb_tri r = NATB_UNSEEN;

	for (size_t i = 0; i < n; i++) {
		if (!ep_set(o[i].ext))
			continue;
		if (o[i].ext.ip != o[i].in.ip)
			return NATB_YES;
		r = NATB_NO;
	}
	return r;
}

enum natb_tri natb_hairpin_src(struct natb_ep from, struct natb_ep ext, struct natb_ep in,
			       enum natb_dep mapping)
{
	if (!ep_set(from))
		return NATB_UNSEEN;
	if (ep_eq(from, in))
		return NATB_NO; /* the internal source, untranslated */
	if (!ep_set(ext))
		return NATB_UNSEEN;
	if (ep_eq(from, ext))
		return NATB_YES;
	/* another external port: a NAT whose mapping depends on the
	 * destination may have made a new mapping for the hairpinned
	 * session, so only an endpoint-independent one is caught out */
	if (from.ip == ext.ip && mapping != NATB_DEP_EI)
		return NATB_UNSEEN;
	return NATB_NO;
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
		r->st = any_yes ? NATB_TMO_FOUND : NATB_TMO_BELOW;
		r->s = any_yes ? (lo + t[k]) / 2 : t[k];
		r->lo = lo;
		r->hi = t[k];
		return true;
	}
	if (!n)
		return false;
	r->st = NATB_TMO_ABOVE;
	r->s = r->lo = t[n - 1];
	r->hi = 0;
	return true;
}

/* ---- the checks ---------------------------------------------------------- */

struct rows {
	struct natb_check *c;
	size_t n, cap;
};

static struct natb_check *row(struct rows *rs, const char *id, enum natb_level level,
			      const char *text)
{
	struct natb_check *c;

	if (rs->n >= rs->cap)
		return NULL;
	c = &rs->c[rs->n++];
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->level = level;
	c->text = text;
	return c;
}

/* a MAY, or a behaviour only described, neither passes nor fails: info */
static enum natb_verdict earned(enum natb_level level, enum natb_verdict v)
{
	if (level < NATB_LVL_SHOULD && (v == NATB_PASS || v == NATB_FAIL))
		return NATB_INFO;
	return v;
}

#define ROW(rs, id, level, text, v_, ...)                                                          \
	do {                                                                                       \
		struct natb_check *c_ = row(rs, id, level, text);                                  \
		if (c_) {                                                                          \
			snprintf(c_->measured, sizeof(c_->measured), __VA_ARGS__);                 \
			c_->v = earned(level, v_);                                                 \
		}                                                                                  \
	} while (0)

#define MUST NATB_LVL_MUST
#define SHOULD NATB_LVL_SHOULD
#define MAY NATB_LVL_MAY
#define NONE NATB_LVL_NONE

static const char *tri(enum natb_tri t, const char *yes, const char *no)
{
	return t == NATB_YES ? yes : t == NATB_NO ? no : "not seen";
}

/* a yes/no that must be yes: not seen is not measured */
static enum natb_verdict want(enum natb_tri t)
{
	return t == NATB_YES ? NATB_PASS : t == NATB_NO ? NATB_FAIL : NATB_INCONCLUSIVE;
}

static enum natb_verdict filt_ok(enum natb_dep d)
{
	if (d == NATB_DEP_UNKNOWN)
		return NATB_INCONCLUSIVE;
	return d == NATB_DEP_APD ? NATB_FAIL : NATB_PASS;
}

/*
 * A timeout against its lower limit (0: measured, no limit of its own):
 * passes alive at the limit, fails gone by it; a search that ended on
 * either side of it, or made no mapping, is inconclusive.
 */
static void tmo_row(struct rows *rs, const char *id, enum natb_level level, const char *text,
		    const struct natb_tmo *t, double min)
{
	const size_t n0 = rs->n;
	char lost[48] = "";

	if (t->made < t->planned && t->st != NATB_TMO_FAILED && t->st != NATB_TMO_NONE)
		snprintf(lost, sizeof(lost), "; %u of %u mappings not made", t->planned - t->made,
			 t->planned);
	switch (t->st) {
	case NATB_TMO_FOUND:
		ROW(rs, id, level, text,
		    t->lo >= min   ? NATB_PASS
		    : t->hi <= min ? NATB_FAIL
				   : NATB_INCONCLUSIVE,
		    "%.1f s (alive at %.1f, gone at %.1f)%s", t->s, t->lo, t->hi, lost);
		break;
	case NATB_TMO_ABOVE:
		ROW(rs, id, level, text, t->lo >= min ? NATB_PASS : NATB_INCONCLUSIVE,
		    "above %.0f s%s%s", t->lo, !min || t->lo >= min ? "" : ": the search ended first",
		    lost);
		break;
	case NATB_TMO_BELOW:
		ROW(rs, id, level, text, t->hi <= min ? NATB_FAIL : NATB_INCONCLUSIVE,
		    "below %.1f s%s", t->hi, lost);
		break;
	case NATB_TMO_FAILED:
		ROW(rs, id, level, text, NATB_INCONCLUSIVE, "no mapping could be made (0 of %u)",
		    t->planned);
		break;
	case NATB_TMO_NONE:
		ROW(rs, id, level, text, NATB_INCONCLUSIVE, "not measured");
		break;
	}
	/* no limit of its own: whatever was measured is information */
	if (!min && rs->n > n0)
		rs->c[n0].v = NATB_INFO;
}

static const char *const short_dep[NATB_DEP_APD + 1] = {"unknown", "EI", "AD", "APD"};

/*
 * REQ-1 of RFC 4787 and RFC 5382: the worse of the uncontended and the
 * contended probes. A mapping that is not endpoint-independent in either
 * fails; a pass needs both, but for a NAT where contention cannot happen
 * (one external address per internal address), where the fresh probe
 * decides and the row says so.
 */
static void eim_row(struct rows *rs, const char *id, const char *text, enum natb_dep free_,
		    enum natb_dep contended, enum natb_cont cont)
{
	const enum natb_dep w = natb_dep_worse(free_, contended);
	const char *why = cont == NATB_CONT_LOST	    ? "a contention probe lost"
			  : cont == NATB_CONT_UNSHARED	    ? "contention not set up: B never left "
							      "by A's external address"
			  : cont == NATB_CONT_IMPOSSIBLE ? "contention impossible: one external "
							   "address per internal address"
							 : "contention not probed";

	if (cont == NATB_CONT_SEEN)
		ROW(rs, id, MUST, text,
		    w != NATB_DEP_EI		   ? NATB_FAIL
		    : free_ == NATB_DEP_UNKNOWN ? NATB_INCONCLUSIVE
						: NATB_PASS,
		    "%s (uncontended %s, contended %s)", natb_dep_names[w], short_dep[free_],
		    short_dep[contended]);
	else if (free_ == NATB_DEP_UNKNOWN)
		ROW(rs, id, MUST, text, NATB_INCONCLUSIVE, "uncontended probe lost; %s", why);
	else if (free_ != NATB_DEP_EI)
		ROW(rs, id, MUST, text, NATB_FAIL, "%s (uncontended %s; %s)", natb_dep_names[free_],
		    short_dep[free_], why);
	else if (cont == NATB_CONT_IMPOSSIBLE)
		ROW(rs, id, MUST, text, NATB_PASS, "EI on the fresh probe alone; %s", why);
	else
		ROW(rs, id, MUST, text, NATB_INCONCLUSIVE, "EI uncontended, not judged: %s", why);
}

static void overload_row(struct rows *rs, const char *id, const char *text, enum natb_tri o)
{
	ROW(rs, id, MUST, text,
	    o == NATB_YES  ? NATB_FAIL
	    : o == NATB_NO ? NATB_PASS
			   : NATB_INCONCLUSIVE,
	    "%s",
	    o == NATB_YES  ? "two internal endpoints on one external endpoint to one server"
	    : o == NATB_NO ? "one external endpoint per internal endpoint and server"
			   : "no two internal endpoints seen towards one server");
}

static void hairpin_rows(struct rows *rs, const char *id, const char *text, const char *ida,
			 enum natb_tri h, enum natb_tri ext)
{
	ROW(rs, id, MUST, text, want(h), "%s", tri(h, "hairpinned", "not hairpinned"));
	ROW(rs, ida, MUST,
	    "a hairpinned packet MUST come from the sender's external address and port",
	    h == NATB_YES  ? want(ext)
	    : h == NATB_NO ? NATB_NA
			   : NATB_INCONCLUSIVE,
	    "%s",
	    h == NATB_YES  ? tri(ext, "from the sender's external endpoint", "from another source")
	    : h == NATB_NO ? "no hairpinning"
			   : "hairpinning not seen");
}

/* RFC 4787 REQ-2 and RFC 6888 REQ-2: paired pooling */
static void pool_row(struct rows *rs, const char *id, enum natb_level level, const char *text,
		     const struct natb_udp *u)
{
	ROW(rs, id, level, text,
	    u->pooling == NATB_POOL_PAIRED	? NATB_PASS
	    : u->pooling == NATB_POOL_ARBITRARY ? NATB_FAIL
	    : u->pooling == NATB_POOL_SINGLE	? NATB_NA
						: NATB_INCONCLUSIVE,
	    "%s, %u external address%s%s", natb_pool_names[u->pooling], u->ext_addrs,
	    u->ext_addrs == 1 ? "" : "es",
	    u->pooling == NATB_POOL_SINGLE    ? ": no pool"
	    : u->pooling == NATB_POOL_UNKNOWN ? ": the pooling probes lost"
					      : "");
}

/*
 * RFC 7857 §10 (RFC 6056 §4): a NAT that does not preserve ports SHOULD
 * obfuscate the ports it chooses, one that does only when a port must
 * change; so a NAT that preserves ports is judged on the ports it chose
 * under contention, by the same median-step rule.
 */
static void random_row(struct rows *rs, const struct natb_udp *u)
{
	const char *id = "RFC7857 §10", *text = "external ports SHOULD be hard to guess (RFC 6056 §4)";

	if (u->alloc == NATB_ALLOC_UNKNOWN)
		ROW(rs, id, SHOULD, text, NATB_INCONCLUSIVE,
		    "unknown: %u of the allocation probes came out", u->alloc_n);
	else if (u->alloc != NATB_ALLOC_PRESERVED)
		ROW(rs, id, SHOULD, text,
		    u->alloc == NATB_ALLOC_SEQUENTIAL ? NATB_FAIL : NATB_PASS,
		    "%s: median step %u over %u destinations", natb_alloc_names[u->alloc],
		    u->alloc_step, u->alloc_n);
	else if (u->alloc_contended == NATB_ALLOC_SEQUENTIAL ||
		 u->alloc_contended == NATB_ALLOC_RANDOM)
		ROW(rs, id, SHOULD, text,
		    u->alloc_contended == NATB_ALLOC_SEQUENTIAL ? NATB_FAIL : NATB_PASS,
		    "preserved; %s when taken: median step %u over %u ports",
		    natb_alloc_names[u->alloc_contended], u->alloc_contended_step, u->alloc_forced);
	else if (u->contention == NATB_CONT_IMPOSSIBLE && !u->alloc_forced)
		ROW(rs, id, SHOULD, text, NATB_NA,
		    "preserved, never changed: one external address per internal address");
	else
		ROW(rs, id, SHOULD, text, NATB_INCONCLUSIVE,
		    "preserved; %u ports had to change under contention: too few to judge",
		    u->alloc_forced);
}

/* every row of a protocol whose probes left untranslated: no verdict */
static void untranslated(struct rows *rs, size_t from)
{
	for (size_t k = from; k < rs->n; k++) {
		rs->c[k].v = NATB_NA;
		snprintf(rs->c[k].measured, sizeof(rs->c[k].measured), "no NAT on this path");
	}
}

static void quota_rows(struct rows *rs, const struct natb_quota *q)
{
	const bool limit = q->tried && q->got * 50 < q->tried * 49;

	if (!q->tried)
		return;
	/* a limit seen shows support; none reached does not show its absence */
	ROW(rs, "RFC6888 REQ-4", MUST, "a limit of ports per subscriber MUST be supported (CGN)",
	    limit ? NATB_PASS : NATB_INCONCLUSIVE, "%u of %u mappings from one address%s", q->got,
	    q->tried, limit ? ": a limit" : ", no limit reached");
	ROW(rs, "RFC6888 REQ-4 (others)", MUST,
	    "a subscriber at its limit leaves the others their mappings (what REQ-4 is for)",
	    limit ? want(q->others) : NATB_NA, "%s",
	    limit ? tri(q->others, "another address still gets new mappings",
			"another address gets none")
		  : "no limit reached");
	ROW(rs, "RFC6888 REQ-11 D", MUST, "a mapping refused MUST NOT delete existing ones (CGN)",
	    limit ? want(q->kept) : NATB_NA, "%s",
	    limit ? tri(q->kept, "the subscriber's earlier mapping kept", "earlier mapping gone")
		  : "no limit reached");
	ROW(rs, "RFC6888 REQ-11 B", SHOULD,
	    "a mapping refused SHOULD get an ICMP destination unreachable back",
	    limit ? want(q->icmp) : NATB_NA, "%s",
	    limit ? tri(q->icmp, "ICMP error sent", "dropped silently") : "no limit reached");
}

static void udp_rows(struct rows *rs, const struct natb_udp *u)
{
	const size_t first = rs->n;

	eim_row(rs, "RFC4787 REQ-1", "UDP mapping MUST be endpoint-independent", u->mapping,
		u->mapping_contended, u->contention);
	pool_row(rs, "RFC4787 REQ-2", SHOULD, "IP address pooling behaviour \"paired\" RECOMMENDED",
		 u);
	overload_row(rs, "RFC4787 REQ-3", "port overloading MUST NOT be used", u->overloading);
	ROW(rs, "RFC4787 REQ-3a", SHOULD,
	    "an external port in its internal port's range RECOMMENDED", want(u->in_range), "%s",
	    tri(u->in_range, "1024-65535 kept", "a port left its range"));
	ROW(rs, "RFC4787 REQ-4", MAY, "port parity preservation: a MAY since RFC 7857 §9",
	    NATB_INFO, "%s", tri(u->parity, "kept", "not kept"));
	ROW(rs, "RFC4787 §4.2.1", NONE, "port preservation (measured; no requirement of its own)",
	    NATB_INFO, "%s", tri(u->preserve, "ports preserved", "ports not preserved"));
	random_row(rs, u);
	tmo_row(
	    rs, "RFC4787 REQ-5", MUST,
	    "UDP mapping timer MUST NOT expire in under 2 min (5 min RECOMMENDED); used both ways",
	    &u->timeout, 120);
	tmo_row(rs, "RFC4787 §4.3", NONE,
		"timer of a mapping that only sent (measured; not REQ-5's)", &u->unreplied, 0);
	ROW(rs, "RFC4787 REQ-6", MUST, "outbound packets MUST refresh the mapping",
	    want(u->refresh_out), "%s", tri(u->refresh_out, "refreshed", "not refreshed"));
	ROW(rs, "RFC4787 REQ-6a", MAY, "inbound packets MAY refresh the mapping", NATB_INFO, "%s",
	    tri(u->refresh_in, "refreshed", "not refreshed"));
	ROW(rs, "RFC4787 REQ-8", SHOULD,
	    "UDP filtering endpoint-independent or address-dependent RECOMMENDED",
	    filt_ok(u->filtering), "%s", natb_dep_names[u->filtering]);
	hairpin_rows(rs, "RFC4787 REQ-9", "UDP hairpinning MUST be supported", "RFC4787 REQ-9a",
		     u->hairpin, u->hairpin_ext);
	ROW(rs, "RFC4787 REQ-12", MUST, "an ICMP error MUST NOT end the mapping it is about",
	    want(u->icmp_keeps), "%s", tri(u->icmp_keeps, "mapping kept", "mapping gone"));
	ROW(rs, "RFC4787 REQ-14", MUST, "out-of-order fragments MUST get through", want(u->frags),
	    "%s", tri(u->frags, "translated and delivered", "lost"));
	pool_row(rs, "RFC6888 REQ-2", MUST, "a CGN MUST pool paired by default", u);
	quota_rows(rs, &u->quota);
	if (u->translated == NATB_NO)
		untranslated(rs, first);
}

static void tcp_rows(struct rows *rs, const struct natb_tcp *t)
{
	const size_t first = rs->n;

	eim_row(rs, "RFC5382 REQ-1", "TCP mapping MUST be endpoint-independent", t->mapping,
		t->mapping_contended, t->contention);
	ROW(rs, "RFC5382 REQ-3", SHOULD,
	    "TCP filtering endpoint-independent or address-dependent RECOMMENDED",
	    filt_ok(t->filtering), "%s", natb_dep_names[t->filtering]);
	tmo_row(rs, "RFC5382 REQ-5", MUST, "established idle-timeout MUST NOT be under 2 h 4 min",
		&t->established, 7440);
	/* RFC 7857 §2.1: a NAT MAY be configured below 4 min; 4 min is the
	 * RECOMMENDED default, which a measurement cannot tell apart */
	tmo_row(
	    rs, "RFC5382 REQ-5 (transitory)", MAY,
	    "transitory idle-timeout after a SYN: 4 min (RFC 7857 §2.1: MAY be configured lower)",
	    &t->transitory, 0);
	tmo_row(rs, "RFC7857 §2.1", NONE, "closing idle-timeout, after FIN both ways (measured)",
		&t->closing, 0);
	overload_row(rs, "RFC5382 REQ-7", "TCP port overloading MUST NOT be used", t->overloading);
	hairpin_rows(rs, "RFC5382 REQ-8", "TCP hairpinning MUST be supported", "RFC5382 REQ-8a",
		     t->hairpin, t->hairpin_ext);
	ROW(rs, "RFC5382 REQ-9", SHOULD, "an ICMP destination unreachable SHOULD be translated",
	    want(t->err_xlate), "%s", tri(t->err_xlate, "translated", "not translated"));
	if (t->translated == NATB_NO)
		untranslated(rs, first);
}

static void icmp_rows(struct rows *rs, const struct natb_icmp *i)
{
	const size_t first = rs->n;

	ROW(rs, "RFC5508 REQ-1", MUST, "echo requests from inside and their replies MUST pass",
	    want(i->echo), "%s", tri(i->echo, "request out, reply in", "did not pass"));
	ROW(rs, "RFC5508 REQ-1a", SHOULD,
	    "query identifier mapping SHOULD be external-host independent", want(i->id_ei), "%s",
	    tri(i->id_ei, "one identifier towards two hosts", "identifier differs"));
	tmo_row(rs, "RFC5508 REQ-2", MUST, "ICMP query session timer MUST NOT expire in under 60 s",
		&i->query, 60);
	ROW(rs, "RFC5508 REQ-4", MUST,
	    "an inbound ICMP error MUST get its embedded packet reverted", want(i->err_xlate),
	    "%s", tri(i->err_xlate, "translated", "not translated"));
	if (i->translated == NATB_NO)
		untranslated(rs, first);
}

size_t natb_checks(const struct natb_result *r, struct natb_check *c, size_t cap)
{
	struct rows rs = {c, 0, cap};
	const struct {
		bool on;
		enum natb_tri t;
		const char *name;
	} p[3] = {{r->udp.on, r->udp.translated, "UDP"},
		  {r->tcp.on, r->tcp.translated, "TCP"},
		  {r->icmp.on, r->icmp.translated, "ICMP"}};
	char m[96] = "";
	size_t len = 0;

	/* said first: a protocol that left untranslated (no NAT), or that
	 * nothing of came out */
	for (int k = 0; k < 3; k++)
		if (p[k].on && p[k].t != NATB_YES && len < sizeof(m))
			len += (size_t)snprintf(m + len, sizeof(m) - len, "%s%s %s",
						len ? ", " : "", p[k].name,
						p[k].t == NATB_NO ? "untranslated" : "nothing out");
	if (len)
		ROW(&rs, "translation", NONE, "a NAT on the path: every other row presumes one",
		    NATB_INFO, "%s", m);
	if (r->udp.on)
		udp_rows(&rs, &r->udp);
	if (r->tcp.on)
		tcp_rows(&rs, &r->tcp);
	if (r->icmp.on)
		icmp_rows(&rs, &r->icmp);
	return rs.n;
}
