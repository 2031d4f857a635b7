/*
 * flowplan.c — the flow tables of a flows run, counted and placed before
 * it starts (flowplan.h): entries per worker and side from the templates'
 * rates, lifetimes and caps, bytes through the table's own layout
 * (flowtab_mem_size()), hugepages or heap, and the refusal of a run the
 * machine cannot hold. Control (src/control/flows_ctl.c) reads the
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

/* The count of flowplan_flows; *fixed: an unpaced run without caps (the fallback). */
static uint64_t fp_flows(const struct flowplan_in *in, double scale, bool *fixed)
{
	double sum = 0;
	bool all_capped = in->ntpl > 0;

	*fixed = false;
	if (!in->gen)
		return 0;
	for (unsigned i = 0; i < in->ntpl; i++) {
		const struct flowplan_tpl *t = &in->tpl[i];
		uint64_t cap = UINT64_MAX;
		double n;

		if (t->climit)
			cap = t->climit;
		if (t->limit)
			cap = FG_MIN(cap, t->limit);
		all_capped &= cap != UINT64_MAX;
		if (in->unpaced) {
			n = cap == UINT64_MAX ? INFINITY : (double)cap;
		} else {
			double life = t->life_s;

			if (in->duration_s > 0 && in->duration_s < life)
				life = in->duration_s; /* no flow before the start */
			n = ceil(t->cps * (scale > 0 ? scale : 1) * life);
			n = fmin(n, (double)cap);
		}
		sum += n;
	}
	if (in->active)
		return (uint64_t)fmin(sum, (double)in->active);
	if (in->unpaced && !all_capped) {
		*fixed = true;
		return in->fallback / 2;
	}
	return sum > 1e18 ? (uint64_t)1e18 : (uint64_t)sum;
}

uint64_t flowplan_flows(const struct flowplan_in *in, double scale)
{
	bool fixed;

	return fp_flows(in, scale, &fixed);
}

/* entries of a side holding n flows: n plus the margin (0 stays 0) */
static uint64_t fp_side(uint64_t n)
{
	uint64_t m;

	if (!n)
		return 0;
	m = n / 100 * FLOWPLAN_MARGIN_PCT + n % 100 * FLOWPLAN_MARGIN_PCT / 100;
	return n + FG_MAX(m, (uint64_t)FLOWPLAN_MARGIN_MIN);
}

int flowplan_worker(const struct flowplan_in *in, double scale, uint64_t max_entries,
		    const char *max_what, struct flowplan_worker *out, char *err, size_t errlen)
{
	struct flowtab_params fp = {.entry_size = in->state, .tick_tsc = 2};
	char a[32], b[32], c[32], d[32], e[32], f[32];
	bool fixed;

	memset(out, 0, sizeof(*out));
	out->flows = fp_flows(in, scale, &fixed);
	/* the fallback is a table's size as it stands: no margin on it */
	out->side[0] = out->side[1] = fixed ? out->flows : fp_side(out->flows);
	if (max_entries > FLOWTAB_MAX_FLOWS || !max_entries)
		max_entries = FLOWTAB_MAX_FLOWS;
	/* the floor yields to a smaller bound: only the count is refused */
	out->entries = FG_MAX(out->side[0] + out->side[1],
			      FG_MIN((uint64_t)FLOWPLAN_MIN_ENTRIES, max_entries));
	if (out->entries > max_entries) {
		/* the flows a table of max_entries holds with both sides */
		uint64_t fit = max_entries / 2 * 100 / (100 + FLOWPLAN_MARGIN_PCT);
		size_t at_max;

		fp.max_flows = (uint32_t)max_entries;
		at_max = flowtab_mem_size(&fp);
		snprintf(err, errlen,
			 "a worker's table would need %s entries, %s, for its %s concurrent flows "
			 "(both sides, %u %% margin); %s is %s entries (%s), about %s flows",
			 fp_count(out->entries, a, sizeof(a)),
			 fp_bytes((uint64_t)((double)at_max / (double)max_entries *
					     (double)out->entries),
				  f, sizeof(f)),
			 fp_count(out->flows, b, sizeof(b)), FLOWPLAN_MARGIN_PCT, max_what,
			 fp_count(max_entries, c, sizeof(c)), fp_bytes(at_max, d, sizeof(d)),
			 fp_count(fit, e, sizeof(e)));
		return -ERANGE;
	}
	out->wheel = FLOWPLAN_WHEEL_MIN;
	while (out->wheel < FLOWPLAN_WHEEL_MAX && (uint64_t)out->wheel * FLOWPLAN_WHEEL_PER < out->entries)
		out->wheel <<= 1;
	fp.max_flows = (uint32_t)out->entries;
	fp.wheel_slots = out->wheel;
	out->bytes = flowtab_mem_size(&fp);
	return 0;
}

int flowplan_place(struct flowplan *p, const struct flowplan_mem *m, char *err, size_t errlen)
{
	uint64_t huge_left = m->huge_free ? m->huge_free + m->held_huge : 0;
	uint64_t reserve = (uint64_t)FLOWPLAN_RESERVE_MB << 20;
	uint64_t avail = m->avail + m->held_heap;
	char a[32], b[32], c[32], d[32], e[32], f[32], g[32];

	p->flows = p->entries = p->bytes = p->heap = p->huge = 0;
	for (unsigned i = 0; i < p->nw; i++) {
		struct flowplan_worker *w = &p->w[i];

		w->huge = w->bytes <= huge_left;
		if (w->huge) {
			huge_left -= w->bytes;
			p->huge += w->bytes;
		} else {
			p->heap += w->bytes;
		}
		p->flows += w->flows;
		p->entries += w->entries;
		p->bytes += w->bytes;
	}
	p->room = (avail > reserve ? avail - reserve : 0) + p->huge;
	if (p->heap + reserve <= avail)
		return 0;
	{
		/* what the room holds at the plan's bytes per flow */
		double per = p->flows ? (double)p->bytes / (double)p->flows : 0;
		uint64_t fits = per > 0 ? (uint64_t)((double)p->room / per) : 0;

		snprintf(err, errlen,
			 "the flow tables do not fit: the run needs %s concurrent flows, %s table "
			 "entries, %s; this machine has %s for them (MemAvailable %s less %u MiB "
			 "kept, free hugepages %s), about %s flows",
			 fp_count(p->flows, a, sizeof(a)), fp_count(p->entries, b, sizeof(b)),
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
	char a[32], b[32], c[32], d[32], e[32];

	snprintf(buf, len,
		 "worker %u: %s flows: client %s + server %s entries, table %s entries, %s, %s", i,
		 fp_count(w->flows, a, sizeof(a)), fp_count(w->side[0], b, sizeof(b)),
		 fp_count(w->side[1], c, sizeof(c)), fp_count(w->entries, d, sizeof(d)),
		 fp_bytes(w->bytes, e, sizeof(e)), w->huge ? "hugepages" : "heap");
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
