/*
 * flowplan.h — the flow tables of a flows run, worked out before it
 * starts (flowplan.c; flowgen(8), "FLOW TABLES"): how many entries each
 * worker's table needs for each side, what that takes in bytes, whether
 * it goes to hugepages or to the heap, and whether the machine has that
 * much at all. A run whose tables cannot be had is refused before it
 * starts, naming what it needs and what there is, in flows and in bytes,
 * rather than failing flows as fail_table_full once it runs.
 *
 * The count. A worker holds a client entry for each flow it opened that
 * still lives and a server entry for each flow its server side learned
 * (flowgen playing both ends of a pair holds both). A template's flows
 * live at most its lifetime (the profile's timeout plus the delays of the
 * longer program, prof_tpl_timeout()): at `cps` new flows a second no
 * more than cps x lifetime are alive at once (Little's law with the
 * longest stay), nor more than start in the run's -d. A template's
 * climit and limit cap that, and start
 * --active caps the sum. An unpaced run (-m max) without --active has no
 * rate to count from: its table has the fallback's entries (the config's
 * flows_max, or FLOWPLAN_UNPACED_DEFAULT), as every table had before
 * tables were sized to the run. Each side then gets FLOWPLAN_MARGIN_PCT %
 * more, at least FLOWPLAN_MARGIN_MIN entries (a worker of a pair sees
 * its share of the server sides only on average, and an ended flow's
 * entry lingers until its next timer tick), and a table has at least
 * FLOWPLAN_MIN_ENTRIES.
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

#define FLOWPLAN_MARGIN_PCT 25u		 /* each side's entries beyond the count */
#define FLOWPLAN_MARGIN_MIN 1024u	 /* ... at least this many */
#define FLOWPLAN_MIN_ENTRIES 4096u	 /* the smallest table */
#define FLOWPLAN_UNPACED_DEFAULT 1048576u /* -m max without --active or flows_max */
#define FLOWPLAN_RESERVE_MB 256u	 /* of MemAvailable, left to everything else */
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
	double life_s;	 /* the longest a flow lives (prof_tpl_timeout()) */
	uint64_t climit; /* the worker's share of climit; 0: none */
	uint64_t limit;	 /* the worker's share of limit; 0: none */
};

/* What one worker's table is counted from. */
struct flowplan_in {
	unsigned ntpl;
	struct flowplan_tpl tpl[FG_PROF_MAX_TEMPLATES];
	uint64_t active;    /* the worker's share of start --active; 0: none */
	bool gen;	    /* the worker opens flows (its pair runs) */
	bool unpaced;	    /* -m max: no rate to count from */
	double duration_s;  /* -d: no more flows start than rate x duration; 0: none */
	uint64_t fallback;  /* the table of an unpaced run without --active or caps,
			       in entries (half of them a side, no margin) */
	uint32_t state;	    /* the caller's state bytes per entry (flows_ent) */
};

/* The plan of one worker's table. */
struct flowplan_worker {
	uint64_t flows;	      /* concurrent flows counted (client side) */
	uint64_t side[2];     /* entries per side with the margin: [client], [server] */
	uint64_t entries;     /* the table: both sides, at least FLOWPLAN_MIN_ENTRIES */
	uint64_t bytes;	      /* what the table takes (flowtab_mem_size()) */
	uint32_t wheel;	      /* timer wheel slots: FLOWPLAN_WHEEL_PER entries a slot */
	bool huge;	      /* placed in hugepages (flowplan_place()) */
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
	uint64_t flows;	  /* concurrent flows counted, all workers */
	uint64_t entries; /* all tables */
	uint64_t bytes;	  /* all tables */
	uint64_t heap, huge; /* bytes placed on the heap and in hugepages */
	uint64_t room;	     /* bytes the machine offers the tables */
};

/*
 * pure: the concurrent client flows of in at `scale` (the rate's factor
 * against the start's: update -m), before the margin.
 */
uint64_t flowplan_flows(const struct flowplan_in *in, double scale);

/*
 * pure: the table of in at `scale`: its entries per side and in all, and
 * its bytes. 0, or -ERANGE with err saying why: more entries than a
 * table holds (max_entries: FLOWTAB_MAX_FLOWS, or the config's flows_max)
 * or more than ids can name.
 */
int flowplan_worker(const struct flowplan_in *in, double scale, uint64_t max_entries,
		    const char *max_what, struct flowplan_worker *out, char *err, size_t errlen);

/*
 * pure: place p's tables (p->w[0..nw-1] filled by flowplan_worker): each
 * in hugepages while they hold it (m->huge_free, plus what the run going
 * holds there), else on the heap, and refuse the run when the heap's
 * share exceeds MemAvailable (plus what the run going holds on the heap)
 * less FLOWPLAN_RESERVE_MB. 0, or -ENOMEM with err naming the flows and
 * bytes the run needs and the bytes (and flows) there are.
 */
int flowplan_place(struct flowplan *p, const struct flowplan_mem *m, char *err, size_t errlen);

/*
 * pure: one line of the plan for worker i ("worker 0: client 1,250,000 +
 * server 1,250,000 entries, 290 MiB, heap"), without a newline.
 */
void flowplan_line(const struct flowplan *p, unsigned i, char *buf, size_t len);

/*
 * pure: read MemAvailable, HugePages_Free and Hugepagesize from the text
 * of /proc/meminfo: bytes into *avail and *huge_free. -EINVAL when
 * MemAvailable is not there.
 */
int flowplan_meminfo(const char *text, uint64_t *avail, uint64_t *huge_free);

#endif
