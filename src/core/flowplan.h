/*
 * flowplan.h — the flow tables of a flows run, worked out before it
 * starts (flowplan.c; flowgen(8), "FLOW TABLES"): how many entries each
 * worker's table takes, what that takes in bytes, whether it goes to
 * hugepages or to the heap, and whether the machine has room for what the
 * run needs at all. A run whose needed tables cannot be had is refused
 * before it starts, naming what it needs and what there is, in flows and
 * in bytes, rather than failing flows as table_full (fail_reasons) once
 * it runs.
 *
 * The counts. A worker holds a client entry for each flow it opened that
 * still lives and a server entry for each flow its server side learned
 * (flowgen playing both ends of a pair holds both), except for templates
 * whose server side takes none (flowplan_tpl.srv_free: a UDP server that
 * answers each request as it comes, flowgen(8), FLOW TABLES): their
 * flows count on the client side alone. At `cps` new flows a
 * second, a template whose flows stay t seconds has cps x t alive at once
 * (Little's law), nor more than start in the run's -d; its climit and
 * limit cap that. Two figures are counted for each worker:
 *
 *  - need: the flows the run keeps alive when the DUT answers: t is the
 *    program's own time, the delays of its longer program
 *    (flowplan_tpl.prog_s) plus FLOWPLAN_REPLY_S for the replies (at most
 *    the flow's lifetime). start --active's share counts as need in full:
 *    the share, or what the rate reaches at the flows' whole lifetime
 *    when that is less. This is the figure a run is refused on.
 *  - want: the worst case, where the DUT answers nothing: t is the whole
 *    lifetime, the profile's timeout plus those delays (prof_tpl_timeout()).
 *
 * An unpaced run (-m max) without --active has no rate to count from: its
 * need and want are the default table (unless every template is capped,
 * when the caps are the count). Each side then gets a margin: a worker of
 * a pair sees its share of the server sides only on average, and n flows
 * spread over workers stray from their mean by at most sqrt(n) / 2 in one
 * standard deviation (a binomial count). The margin is FLOWPLAN_MARGIN_SD
 * x sqrt(n) (32 of those deviations), no more than FLOWPLAN_MARGIN_PCT %
 * and at least FLOWPLAN_MARGIN_MIN entries: small tables get the
 * percentage, and a million flows get 1.6 % rather than a quarter, which
 * hugepages would hold resident for nothing.
 *
 * The table taken: entries = max(need, min(want, default)), the default
 * being the table every run had before tables were sized to the run: the
 * config's flows_max when it gives one, else FLOWPLAN_UNPACED_DEFAULT. A
 * run whose worst case fits the default gets its worst case (a DUT that
 * stalls costs no table_full), a run that needs more gets what it needs,
 * and no run takes gigabytes for a worst case it only might meet. Flows
 * the DUT holds beyond the table at run time fail as table_full: a true
 * statement about the DUT. A table has at least FLOWPLAN_MIN_ENTRIES.
 *
 * The refusals, on need alone: need beyond what a table holds
 * (FLOWTAB_MAX_FLOWS), or beyond an explicit flows_max (compared with the
 * margin but without its minimum, and the table is then never larger than
 * flows_max); tables beyond the machine (MemAvailable less
 * FLOWPLAN_RESERVE_MB, or the free hugepages): the tables taken are first
 * cut to their need, and only a need that does not fit is refused.
 * update -m to a rate is taken when the need at that rate fits the table
 * built at the start, else refused naming both figures.
 *
 * Context: pure (unit-tested in test/unit/test_flowplan.c); the figures
 * of the machine (MemAvailable, free hugepages) are read by control and
 * handed in.
 *
 * Included by: every folder.
 */
#ifndef FG_FLOWPLAN_H
#define FG_FLOWPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fg.h"
#include "prof-t.h"

#define FLOWPLAN_MARGIN_PCT 25u		 /* each side's entries beyond the count, at most */
#define FLOWPLAN_MARGIN_SD 16.0		 /* ... x sqrt(count) when that is less */
#define FLOWPLAN_MARGIN_MIN 1024u	 /* ... at least this many */
#define FLOWPLAN_MIN_ENTRIES 4096u	 /* the smallest table */
#define FLOWPLAN_UNPACED_DEFAULT 1048576u /* the default table without flows_max */
#define FLOWPLAN_RESERVE_MB 256u	 /* of MemAvailable, left to everything else */
#define FLOWPLAN_REPLY_S 0.1		 /* need: the time allowed for the replies */
/*
 * The timer wheel grows with the table: an entry whose deadline lies
 * beyond a turn of the wheel (slots x 1 ms) is looked at again at every
 * turn, so 20 million entries on the default 4,096 slots would be 5
 * million visits a second. A slot per FLOWPLAN_WHEEL_PER entries (at
 * least 4,096, at most 2^20 slots, 4 bytes each) keeps a turn longer than
 * the flows of a large table mostly live.
 */
#define FLOWPLAN_WHEEL_PER 256u
#define FLOWPLAN_WHEEL_MIN 4096u
#define FLOWPLAN_WHEEL_MAX (1u << 20)

/* One template as one worker runs it. */
struct flowplan_tpl {
	double cps;	 /* new flows a second on this worker at scale 1 */
	double prog_s;	 /* the program's own time: the longer program's delays */
	double life_s;	 /* the longest a flow lives (prof_tpl_timeout()) */
	uint64_t climit; /* the worker's share of climit; 0: none */
	uint64_t limit;	 /* the worker's share of limit; 0: none */
	bool srv_free;	 /* its server side takes no entry (flows.h, srv_once, with
			    every datagram of the client's at least the server's recv) */
};

/* What one worker's table is counted from. */
struct flowplan_in {
	unsigned ntpl;
	struct flowplan_tpl tpl[FG_PROF_MAX_TEMPLATES];
	uint64_t active;    /* the worker's share of start --active; 0: none */
	bool gen;	    /* the worker opens flows (its pair runs) */
	bool unpaced;	    /* -m max: no rate to count from */
	double duration_s;  /* -d: no more flows start than rate x duration; 0: none */
	uint64_t deflt;	    /* the default table in entries (both sides, no margin):
			       the config's flows_max, or FLOWPLAN_UNPACED_DEFAULT */
	uint32_t state;	    /* the caller's state bytes per entry (flows_ent) */
	uint32_t pool;	    /* bytes per entry of the heap the worker may use
			       beside its table (TCP's tcbs, flows.h); 0: none */
};

/* The plan of one worker's table. */
struct flowplan_worker {
	uint64_t need;	       /* concurrent client flows when the DUT answers */
	uint64_t want;	       /* ... when it answers nothing (to their timeout) */
	uint64_t need_entries; /* need's entries, both sides with the margin (without
				  its minimum under an explicit flows_max) */
	uint64_t want_entries; /* want's, both sides with the margin */
	uint64_t entries;      /* the table taken: max(need, min(want, default)) */
	uint64_t bytes;	       /* what the table takes (flowtab_mem_size()) */
	uint32_t wheel;	       /* timer wheel slots: FLOWPLAN_WHEEL_PER entries a slot */
	uint64_t need_table;   /* the table of need alone (what flowplan_place cuts to) */
	uint64_t need_bytes;   /* ... its bytes */
	uint32_t need_wheel;   /* ... its wheel */
	uint32_t pool;	       /* flowplan_in.pool */
	bool huge;	       /* placed in hugepages (flowplan_place()) */
};

/* What the machine has, read before the run (control). */
struct flowplan_mem {
	uint64_t avail;	    /* MemAvailable, bytes */
	uint64_t huge_free; /* free hugepages usable by this process, bytes; 0: none */
	uint64_t held_heap; /* bytes the tables of the run going hold on the heap */
	uint64_t held_huge; /* ... and in hugepages (freed before the new run's build) */
};

/* The plan of a run. */
struct flowplan {
	unsigned nw;
	struct flowplan_worker w[FG_MAX_WORKERS];
	uint64_t need, want; /* concurrent client flows counted, all workers */
	uint64_t entries;    /* all tables */
	uint64_t bytes;	     /* all tables */
	uint64_t heap, huge; /* bytes placed on the heap and in hugepages */
	uint64_t room;	     /* bytes the machine offers the tables */
	bool cut;	     /* the tables were cut to their need (memory) */
};

/*
 * pure: the concurrent client flows of in at `scale` (the rate's factor
 * against the start's: update -m), before the margin: *need when the DUT
 * answers, *want (may be NULL) when it answers nothing.
 */
void flowplan_flows(const struct flowplan_in *in, double scale, uint64_t *need, uint64_t *want);

/*
 * pure: the table of in at `scale`: need and want in flows and entries,
 * the table taken and its bytes. bound: the config's flows_max, 0 when it
 * gives none (then FLOWTAB_MAX_FLOWS); bound_what names it in errors.
 * 0, or -ERANGE with err saying why: the need takes more entries than the
 * bound (or than ids can name).
 */
int flowplan_worker(const struct flowplan_in *in, double scale, uint64_t bound,
		    const char *bound_what, struct flowplan_worker *out, char *err, size_t errlen);

/*
 * pure: update -m to `scale` of the start's rate on the worker (index i)
 * counted from in, whose table was built with `built` entries under
 * `bound` (as flowplan_worker's): 0 when the need at that rate fits the
 * table, else -ERANGE with err naming both figures.
 */
int flowplan_update(const struct flowplan_in *in, double scale, uint64_t bound, uint64_t built,
		    unsigned i, char *err, size_t errlen);

/*
 * pure: place p's tables (p->w[0..nw-1] filled by flowplan_worker): each
 * in hugepages while they hold it (m->huge_free, plus what the run going
 * holds there), else on the heap. When the heap's share exceeds
 * MemAvailable (plus what the run going holds on the heap) less
 * FLOWPLAN_RESERVE_MB, every table is cut to its need (p->cut) and placed
 * again; when the need does not fit either, -ENOMEM with err naming the
 * flows and bytes the run needs and the bytes (and flows) there are.
 */
int flowplan_place(struct flowplan *p, const struct flowplan_mem *m, char *err, size_t errlen);

/*
 * pure: one line of the plan for worker i ("worker 0: need 1,000,000
 * flows (2,500,000 entries), want 1,000,000 (2,500,000 entries): table
 * 2,500,000 entries, 216.6 MiB, heap"), without a newline.
 */
void flowplan_line(const struct flowplan *p, unsigned i, char *buf, size_t len);

/*
 * pure: read MemAvailable, HugePages_Free and Hugepagesize from the text
 * of /proc/meminfo: bytes into *avail and *huge_free. -EINVAL when
 * MemAvailable is not there.
 */
int flowplan_meminfo(const char *text, uint64_t *avail, uint64_t *huge_free);

#endif
