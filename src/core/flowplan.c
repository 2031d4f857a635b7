/*
 * flowplan.c — the flow tables of a flows run, counted and placed before
 * it starts (flowplan.h): each worker's need (the DUT answering) and want
 * (the DUT answering nothing) from the templates' rates, programs,
 * lifetimes and caps, the table taken between them, bytes through the
 * table's own layout (flowtab_mem_size()), hugepages or heap, and the
 * refusal of a run whose need the machine cannot hold. Control (src/control/flows_ctl.c) reads the
 * machine's figures and builds the tables the plan gives.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "flowplan.h"
#include "flowtab.h"
#include "flowtab_mem.h"

#define MIB (1024.0 * 1024.0)
#define GIB (1024.0 * 1024.0 * 1024.0)

/* n with thousands separators ("1,250,000"). */
static const char *fp_count(uint64_t n, char *buf, size_t len)
{
	char d[24];
	size_t k = 0;
	int nd = snprintf(d, sizeof(d), "%" PRIu64, n);

	for (int i = 0; i < nd && k + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = d[i];
	}
	buf[k] = 0;
	return buf;
}

/* bytes as MiB below 10 GiB, else GiB, one decimal. */
static const char *fp_bytes(uint64_t b, char *buf, size_t len)
{
	if ((double)b < 10 * GIB)
		snprintf(buf, len, "%.1f MiB", (double)b / MIB);
	else
		snprintf(buf, len, "%.1f GiB", (double)b / GIB);
	return buf;
}

/* The counts of one worker: its client flows, and the server entries of them. */
struct fp_count {
	uint64_t need, want;	 /* concurrent client flows (flowplan_flows()) */
	uint64_t need_s, want_s; /* ... of templates whose server side takes an entry */
	bool fixed;		 /* an unpaced run without --active whose templates are
				    not all capped: the default table */
};

/* the part f (0 to 1) of x, rounded up */
static uint64_t fp_part(uint64_t x, double f)
{
	return f >= 1 ? x : (uint64_t)fmin(ceil((double)x * f), (double)x);
}

/* a sum of flows as a count, at most 10^18 (beyond any table) */
static uint64_t fp_count_of(double x) { return x > 1e18 ? (uint64_t)1e18 : (uint64_t)x; }

static void fp_flows(const struct flowplan_in *in, double scale, struct fp_count *o)
{
	double sn = 0, sw = 0, sns = 0, sws = 0, k = scale > 0 ? scale : 1;
	bool all_capped = in->ntpl > 0, any_srv = false;

	memset(o, 0, sizeof(*o));
	if (!in->gen)
		return;
	for (unsigned i = 0; i < in->ntpl; i++) {
		const struct flowplan_tpl *t = &in->tpl[i];
		uint64_t cap = UINT64_MAX;
		double n, w;

		if (t->climit)
			cap = t->climit;
		if (t->limit)
			cap = FG_MIN(cap, t->limit);
		all_capped &= cap != UINT64_MAX;
		if (in->unpaced) {
			n = w = cap == UINT64_MAX ? INFINITY : (double)cap;
		} else {
			double life = t->life_s;
			/* the program's own time and the replies', within the life */
			double own = fmin(t->prog_s + FLOWPLAN_REPLY_S, life);

			if (in->duration_s > 0) { /* no flow before the start */
				life = fmin(life, in->duration_s);
				own = fmin(own, in->duration_s);
			}
			w = fmin(ceil(t->cps * k * life), (double)cap);
			n = fmin(ceil(t->cps * k * own), (double)cap);
		}
		sn += n;
		sw += w;
		if (!t->srv_free) {
			sns += n;
			sws += w;
			any_srv = true;
		}
	}
	if (in->active) {
		/* --active counts as need in full: the share, or what the rate
		 * reaches at the flows' whole lifetime; of them, no more take
		 * server entries than the templates that take one reach */
		o->need = o->want = (uint64_t)fmin(sw, (double)in->active);
		o->need_s = o->want_s = (uint64_t)fmin(sws, (double)o->need);
		return;
	}
	if (in->unpaced && !all_capped) {
		o->fixed = true;
		o->need = o->want = in->deflt / 2;
		o->need_s = o->want_s = any_srv ? o->need : 0;
		return;
	}
	o->need = fp_count_of(sn);
	o->want = fp_count_of(sw);
	o->need_s = fp_count_of(sns);
	o->want_s = fp_count_of(sws);
}

void flowplan_flows(const struct flowplan_in *in, double scale, uint64_t *need, uint64_t *want)
{
	struct fp_count c;

	fp_flows(in, scale, &c);
	*need = c.need;
	if (want)
		*want = c.want;
}

/* entries of a side holding n flows: n plus the margin, the smaller of
 * the percentage and FLOWPLAN_MARGIN_SD x sqrt(n), at least min_m of it
 * (0 stays 0) */
static uint64_t fp_side(uint64_t n, uint64_t min_m)
{
	uint64_t pct, sd;

	if (!n)
		return 0;
	pct = n / 100 * FLOWPLAN_MARGIN_PCT + n % 100 * FLOWPLAN_MARGIN_PCT / 100;
	sd = (uint64_t)ceil(FLOWPLAN_MARGIN_SD * sqrt((double)n));
	return n + FG_MAX(FG_MIN(pct, sd), min_m);
}

/* entries of n client flows of which a part srv (of all) takes server
 * entries too: both sides with their margin (without its minimum) */
static uint64_t fp_sides(uint64_t n, double srv)
{
	return fp_side(n, 0) + fp_side(fp_part(n, srv), 0);
}

/* the most client flows a table of `bound` entries holds with their
 * server entries (the part srv of them) and the margin (without its
 * minimum): fp_sides() grows with n, so a bisection finds it */
static uint64_t fp_fit(uint64_t bound, double srv)
{
	uint64_t lo = 0, hi = bound;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (fp_sides(mid, srv) <= bound)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* the wheel and bytes of a table of n entries */
static uint64_t fp_table(uint64_t n, uint32_t state, uint32_t *wheel)
{
	struct flowtab_params fp = {.entry_size = state, .tick_tsc = 2};

	*wheel = FLOWPLAN_WHEEL_MIN;
	while (*wheel < FLOWPLAN_WHEEL_MAX && (uint64_t)*wheel * FLOWPLAN_WHEEL_PER < n)
		*wheel <<= 1;
	fp.max_flows = (uint32_t)n;
	fp.wheel_slots = *wheel;
	return flowtab_mem_size(&fp);
}

int flowplan_worker(const struct flowplan_in *in, double scale, uint64_t bound,
		    const char *bound_what, struct flowplan_worker *out, char *err, size_t errlen)
{
	char a[32], b[32], c[32], d[32], e[32], f[32];
	bool explicit = bound && bound <= FLOWTAB_MAX_FLOWS;
	uint64_t deflt, need_full, floor;
	struct fp_count n;
	double srv;

	memset(out, 0, sizeof(*out));
	out->pool = in->pool;
	if (!explicit)
		bound = FLOWTAB_MAX_FLOWS;
	fp_flows(in, scale, &n);
	out->need = n.need;
	out->want = n.want;
	/* the default table is a table's size as it stands: no margin on it */
	deflt = FG_MIN(in->deflt ? in->deflt : FLOWPLAN_UNPACED_DEFAULT, bound);
	/* the server entries' part of the client flows (need's, else want's) */
	srv = n.need ? (double)n.need_s / (double)n.need
	      : n.want ? (double)n.want_s / (double)n.want
		       : 1.0;
	if (n.fixed) {
		out->need_entries = out->want_entries = need_full = deflt;
	} else {
		need_full = fp_side(n.need, FLOWPLAN_MARGIN_MIN) +
			    fp_side(n.need_s, FLOWPLAN_MARGIN_MIN);
		/* an explicit flows_max is compared without the margin's minimum */
		out->need_entries = explicit ? fp_side(n.need, 0) + fp_side(n.need_s, 0) : need_full;
		out->want_entries = fp_side(n.want, FLOWPLAN_MARGIN_MIN) +
				    fp_side(n.want_s, FLOWPLAN_MARGIN_MIN);
	}
	if (out->need_entries > bound) {
		/* the flows a table of `bound` holds with their server entries */
		uint64_t fit = fp_fit(bound, srv);
		/* entries and index at the bound (the wheel left out: the
		 * bytes of the need are scaled from these) */
		struct flowtab_params fp = {
		    .entry_size = in->state, .tick_tsc = 2, .max_flows = (uint32_t)bound};
		uint64_t at_max = flowtab_mem_size(&fp);

		snprintf(err, errlen,
			 "a worker's table would need %s entries, %s, for its %s concurrent flows "
			 "(when the DUT answers; both sides with their margin); %s is %s entries "
			 "(%s), about %s flows",
			 fp_count(out->need_entries, a, sizeof(a)),
			 fp_bytes((uint64_t)((double)at_max / (double)bound *
					     (double)out->need_entries),
				  f, sizeof(f)),
			 fp_count(out->need, b, sizeof(b)), bound_what,
			 fp_count(bound, c, sizeof(c)), fp_bytes(at_max, d, sizeof(d)),
			 fp_count(fit, e, sizeof(e)));
		return -ERANGE;
	}
	/* the floor yields to a smaller bound: only the need is refused */
	floor = FG_MIN((uint64_t)FLOWPLAN_MIN_ENTRIES, bound);
	out->need_table = FG_MAX(FG_MIN(need_full, bound), floor);
	out->entries = FG_MAX(out->need_table, FG_MIN(out->want_entries, deflt));
	out->bytes = fp_table(out->entries, in->state, &out->wheel);
	out->need_bytes = fp_table(out->need_table, in->state, &out->need_wheel);
	return 0;
}

int flowplan_update(const struct flowplan_in *in, double scale, uint64_t bound, uint64_t built,
		    unsigned i, char *err, size_t errlen)
{
	struct flowplan_worker w;
	char e[256];
	int rc = flowplan_worker(in, scale, bound, "the bound", &w, e, sizeof(e));

	if (rc == 0 && w.need_entries <= built)
		return 0;
	snprintf(err, errlen,
		 "worker %u's table holds %" PRIu64 " entries (sized at the start), the new rate "
		 "needs %" PRIu64 " for %" PRIu64 " concurrent flows: start again at that rate",
		 i, built, w.need_entries, w.need);
	return -ERANGE;
}

/* p's tables placed: hugepages while they hold them, then the heap */
static void fp_place(struct flowplan *p, uint64_t huge_left)
{
	p->need = p->want = p->entries = p->bytes = p->heap = p->huge = 0;
	for (unsigned i = 0; i < p->nw; i++) {
		struct flowplan_worker *w = &p->w[i];
		uint64_t pool = w->entries * w->pool; /* on the heap, at most */

		w->huge = w->bytes <= huge_left;
		if (w->huge) {
			huge_left -= w->bytes;
			p->huge += w->bytes;
		} else {
			p->heap += w->bytes;
		}
		p->heap += pool;
		p->need += w->need;
		p->want += w->want;
		p->entries += w->entries;
		p->bytes += w->bytes + pool;
	}
}

int flowplan_place(struct flowplan *p, const struct flowplan_mem *m, char *err, size_t errlen)
{
	uint64_t huge_left = m->huge_free ? m->huge_free + m->held_huge : 0;
	uint64_t reserve = (uint64_t)FLOWPLAN_RESERVE_MB << 20;
	uint64_t avail = m->avail + m->held_heap;
	char a[32], b[32], c[32], d[32], e[32], f[32], g[32];

	p->cut = false;
	fp_place(p, huge_left);
	if (p->heap + reserve > avail) {
		/* the worst cases do not fit: every table cut to its need */
		for (unsigned i = 0; i < p->nw; i++) {
			struct flowplan_worker *w = &p->w[i];

			p->cut |= w->entries != w->need_table;
			w->entries = w->need_table;
			w->bytes = w->need_bytes;
			w->wheel = w->need_wheel;
		}
		fp_place(p, huge_left);
	}
	p->room = (avail > reserve ? avail - reserve : 0) + p->huge;
	if (p->heap + reserve <= avail)
		return 0;
	{
		/* what the room holds at the plan's bytes per flow */
		double per = p->need ? (double)p->bytes / (double)p->need : 0;
		uint64_t fits = per > 0 ? (uint64_t)((double)p->room / per) : 0;

		snprintf(err, errlen,
			 "the flow tables do not fit: the run needs %s concurrent flows, %s table "
			 "entries, %s; this machine has %s for them (MemAvailable %s less %u MiB "
			 "kept, free hugepages %s), about %s flows",
			 fp_count(p->need, a, sizeof(a)), fp_count(p->entries, b, sizeof(b)),
			 fp_bytes(p->bytes, c, sizeof(c)), fp_bytes(p->room, d, sizeof(d)),
			 fp_bytes(avail, e, sizeof(e)), FLOWPLAN_RESERVE_MB,
			 fp_bytes(m->huge_free ? m->huge_free + m->held_huge : 0, f, sizeof(f)),
			 fp_count(fits, g, sizeof(g)));
	}
	return -ENOMEM;
}

void flowplan_line(const struct flowplan *p, unsigned i, char *buf, size_t len)
{
	const struct flowplan_worker *w = &p->w[i];
	char a[32], b[32], c[32], d[32], e[32], f[32], g[64] = "", h[32];

	if (w->pool)
		snprintf(g, sizeof(g), "; TCBs at most %s, heap",
			 fp_bytes(w->entries * w->pool, h, sizeof(h)));
	snprintf(buf, len,
		 "worker %u: need %s flows (%s entries), want %s (%s entries): table %s entries, "
		 "%s, %s%s%s",
		 i, fp_count(w->need, a, sizeof(a)), fp_count(w->need_entries, b, sizeof(b)),
		 fp_count(w->want, c, sizeof(c)), fp_count(w->want_entries, d, sizeof(d)),
		 fp_count(w->entries, e, sizeof(e)), fp_bytes(w->bytes, f, sizeof(f)),
		 w->huge ? "hugepages" : "heap", g, p->cut ? " (cut to the need: memory)" : "");
}

int flowplan_meminfo(const char *text, uint64_t *avail, uint64_t *huge_free)
{
	unsigned long long v, nfree = 0, kb = 2048;
	bool have = false;
	const char *l = text;

	*avail = *huge_free = 0;
	while (l && *l) {
		if (sscanf(l, "MemAvailable: %llu kB", &v) == 1) {
			*avail = (uint64_t)v * 1024;
			have = true;
		} else if (sscanf(l, "HugePages_Free: %llu", &v) == 1) {
			nfree = v;
		} else if (sscanf(l, "Hugepagesize: %llu kB", &v) == 1) {
			kb = v;
		}
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	*huge_free = (uint64_t)(nfree * kb * 1024);
	return have ? 0 : -EINVAL;
}
