/*
 * prof.h — traffic profiles (flowgen-profile(5)): one YAML format for stateful flows
 * (`mode: flows`, the TRex ASTF equivalent) and stateless streams
 * (`mode: streams`, the STL equivalent), parsed through the yamlu tables
 * into an immutable plan. Nothing here touches DPDK: packet templates and
 * pacing are built from the plan by other modules.
 *
 * Context: control (loading reads a file and allocates). The plan itself
 * (struct prof) and the pure questions asked of it are in prof_plan.h;
 * the limits, enums and the parts of a plan a worker reads (programs,
 * stream fields) are types only, in include/prof-t.h.
 *
 * Included by: config, control and console.
 */
#ifndef FG_PROF_H
#define FG_PROF_H

#include <stddef.h>

#include "prof_plan.h"

/*
 * control: loads and validates a profile. 0, or a negative errno with err set
 * to "FILE:LINE:COL: what is wrong". On failure *p holds nothing to free;
 * on success call prof_free(). The plan is not modified afterwards.
 */
int prof_load(const char *path, struct prof *p, char *err, size_t errlen);

/*
 * control: the same from len bytes at buf (the OTG model's profile, tests,
 * fuzzing): `name` stands where the file name would, in p->file and in the
 * errors ("NAME:LINE:COL: what is wrong").
 */
int prof_load_buf(const char *name, const void *buf, size_t len, struct prof *p, char *err,
		  size_t errlen);

/* control: frees everything; safe on a zeroed struct. */
void prof_free(struct prof *p);

#endif
