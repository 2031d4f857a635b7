/*
 * load.h — one load model for every traffic engine: what a run sends, per
 * port, at `-m 1`, and what each MULT form of the console (flowgen(8),
 * "MULT") makes of it.
 *
 * An engine describes its run once, before anything starts: the frames/s
 * and the L2 and L1 bit/s each port transmits at -m 1 (a flows run counts
 * both directions: the client port's requests and the server port's
 * answers), and for flows the connections/s. Everything that turns a
 * MULT into a rate goes through here: `start -m`, `update -m`, the tui's
 * +/- and `bench`. That is also where a rate a port cannot carry is refused,
 * on every port and in both directions, naming the largest -m of the same
 * form that fits.
 *
 * Two scopes:
 *   LOAD_PER_PORT  (streams) an absolute form sets each port's own rate:
 *                  `-m 1mpps` makes every sending port send 1 Mpps;
 *   LOAD_SHARED    (flows) one factor scales every port; an absolute form
 *                  is measured on the reference port (the first client
 *                  port): `-m 100kpps` means 100 kpps of client frames.
 *
 * L1 bits count the 20 bytes of preamble, start delimiter and inter-frame
 * gap of every frame (RFC 2544 §20, "line rate"); L2 bits do not.
 *
 * Context: pure (no globals, no I/O; unit-tested without EAL).
 *
 * Included by: every folder.
 */
#ifndef FG_LOAD_H
#define FG_LOAD_H

#include "fg.h"
#include "units.h"

/* What one port transmits at -m 1. All zero: the port sends nothing. */
struct load_port {
	double pps;	/* frames/s */
	double bps_l2;	/* bit/s, frames only (FCS included) */
	double bps_l1;	/* bit/s on the wire: + 20 bytes per frame */
};

enum load_scope {
	LOAD_PER_PORT = 1,
	LOAD_SHARED = 2,
};

struct load {
	enum load_scope scope;
	int nports;
	struct load_port tx[FG_MAX_PORTS];
	double cps;	/* flows: connections/s of one port pair at -m 1; else 0 */
	int npairs;	/* flows: the port pairs that open connections */
	int ref;	/* LOAD_SHARED: the port absolute forms are measured on */
};

/* What a load offers at a set of factors (the figures `stats` shows as offered). */
struct load_offer {
	double pps;		/* frames/s, every port summed */
	double cps;		/* connections/s, every pair summed (flows) */
	double line_pct;	/* the busiest port's share of its line rate, L1, % */
};

/*
 * pure: the factor by which each port's -m 1 load is multiplied for MULT m
 * (factor[p] = 0: the port sends nothing, or m is `max`: unpaced), then
 * load_check(). A load that sends nothing at all (a flows run whose
 * pairs -p leaves only the server side of) gets all-zero factors. link_bps[p] is port p's link speed, 0 if unknown (a `%`
 * rate needs it). 0, -EINVAL (a form that does not apply, no rate to
 * scale) or -ERANGE (above line rate) with err set.
 */
int load_factors(const struct load *l, const struct units_rate *m, const uint64_t *link_bps,
		 double *factor, char *err, size_t errlen);

/*
 * pure: refuse factors under which a port would send more than its link
 * carries (ports of unknown speed are not checked). m is the MULT the
 * factors came from: the message names the largest value of the same
 * form that fits. 0 or -ERANGE with err set.
 */
int load_check(const struct load *l, const struct units_rate *m, const double *factor,
	       const uint64_t *link_bps, char *err, size_t errlen);

/* pure: what the load offers at these factors (link_bps as load_factors). */
void load_offered(const struct load *l, const double *factor, const uint64_t *link_bps,
		  struct load_offer *o);

/* pure: m scaled by s (the same form; `max` stays max). */
struct units_rate load_scaled(const struct units_rate *m, double s);

/* pure: m as the user writes it: "x2", "10000 pps", "max". Returns buf. */
const char *load_fmt_mult(const struct units_rate *m, char *buf, size_t len);

#endif
