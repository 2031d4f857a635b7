/*
 * units.h — rates, sizes and durations as a network engineer writes them,
 * and the arithmetic that turns them into frames per second.
 *
 * Everything here is *pure*: no globals, no I/O, callable from any context
 * (also from a worker: nothing allocates or prints). Parsers take a
 * NUL-terminated string and fill an error message on failure.
 *
 * L1 vs L2 (RFC 2544 §20, flowgen(8) MULT FORMS): an L2 frame of F bytes (FCS included) occupies
 * F + 20 bytes on the wire once the 8-byte preamble and 12-byte inter-frame
 * gap are counted, so line rate in frames/s is link_bps / ((F + 20) * 8):
 * 14,880,952 at 10 Gbit/s with 64-byte frames.
 *
 * Included by: every folder.
 */
#ifndef FG_UNITS_H
#define FG_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of preamble + start delimiter + inter-frame gap per frame. */
#define FG_UNITS_L1_OVERHEAD 20u
/* Largest absolute rate accepted (bits or frames or connections per second). */
#define FG_UNITS_RATE_MAX 1e13
/* Largest plain multiplier accepted. */
#define FG_UNITS_MULT_MAX 1e9

enum units_kind {
	UNITS_MULT = 1, /* plain number: multiplies the profile's own rate */
	UNITS_PPS,	/* frames per second */
	UNITS_BPS,	/* bits per second (L2 unless l1 is set) */
	UNITS_PCT,	/* percent of line rate (L1) */
	UNITS_CPS,	/* connections per second (flows) */
	UNITS_MAX,	/* as fast as possible, unpaced */
};
#define UNITS_KIND_COUNT (UNITS_MAX + 1)
extern const char *const units_kind_names[UNITS_KIND_COUNT];

struct units_rate {
	enum units_kind kind;
	double value; /* multiplier, pps, bps, percent (0..100] or cps; 0 for max */
	bool l1;      /* UNITS_BPS only: value counts L1 bits ("1gbps_l1") */
};

/* One row of an IMIX table: frames of `size` bytes, `weight` of them per round. */
struct units_imix_entry {
	uint32_t size;
	uint32_t weight;
};

/* The default IMIX table of flowgen-profile(5): 7:4:1 frames of 64, 594 and 1518 bytes. */
extern const struct units_imix_entry units_imix_default[3];

/*
 * pure: the MULT forms of flowgen(8): "2.5" (multiplier), "10kpps", "1.5mpps",
 * "500mbps", "2gbps", "1gbps_l1", "40%", "20kcps", "max". Suffixes are case
 * insensitive. Zero, negative, non-finite and absurd values are refused.
 * Returns 0 or -EINVAL with err set.
 */
int units_parse_mult(const char *s, struct units_rate *out, char *err, size_t errlen);

/*
 * pure: a stream's `rate:` — the same forms, except that a plain number means
 * frames per second, and "max" and "cps" are refused.
 */
int units_parse_rate(const char *s, struct units_rate *out, char *err, size_t errlen);

/* pure: bits one frame of `frame` bytes occupies, L2 (frame * 8) or L1. */
uint64_t units_frame_bits(uint32_t frame, bool l1);

/* pure: line-rate frames/s of a link for a frame size (0 if either is 0). */
double units_line_pps(uint64_t link_bps, double frame);

/* pure: `pct` percent of line rate (L1) in frames/s. */
double units_pct_to_pps(double pct, uint64_t link_bps, double frame);

/* pure: a bit rate to frames/s for a frame size (0 if frame is 0). */
double units_bps_to_pps(double bps, double frame, bool l1);

/* pure: frames/s to a bit rate (L2 or L1). */
double units_pps_to_bps(double pps, double frame, bool l1);

/*
 * pure: an absolute rate (PPS, BPS, PCT) as frames/s for a link and an
 * average frame size. MULT, CPS and MAX have no frame rate: -EINVAL.
 */
int units_rate_to_pps(const struct units_rate *r, uint64_t link_bps, double frame, double *pps,
		      char *err, size_t errlen);

/* pure: the weighted average frame size of an IMIX table; -EINVAL if empty/zero weight. */
int units_imix_avg(const struct units_imix_entry *t, size_t n, double *avg);

/*
 * pure: a duration: "10" (seconds), "1.5s", "500ms", "250us", "2m", "1h".
 * Negative, non-finite and longer than 10 years are refused.
 */
int units_parse_duration(const char *s, double *seconds, char *err, size_t errlen);

/*
 * pure: a size in bytes: "1518", "64k"/"64kb"/"64KiB" (x1024), "2m", "1g".
 * Values above 2^50 are refused.
 */
int units_parse_size(const char *s, uint64_t *bytes, char *err, size_t errlen);

/*
 * pure: prints v with an SI prefix and a unit: "14.88 Mpps", "9.98 Gbps",
 * "512 B" style. Returns buf.
 */
const char *units_fmt(double v, const char *unit, char *buf, size_t len);

#endif
