/*
 * cfg.h — the platform config of flowgen(8) (PLATFORM CONFIG), compatible
 * with TRex's /etc/trex_cfg.yaml: either the one-element list TRex writes or
 * a plain map. TRex's own keys are read as TRex reads them (port_limit,
 * prefix, limit_memory, c, memory, ...) or accepted without effect, as the
 * table of TRex keys in flowgen(8) says; a repeated key keeps its last value,
 * with a warning. Keys of neither kind draw a warning, never an error. The
 * result is plain data: no DPDK calls here.
 *
 * Context: control (cfg_load reads a file and allocates). The config as
 * loaded (struct cfg) and the pure look-ups on it are in cfg_data.h.
 *
 * Included by: config, control and console.
 */
#ifndef FG_CFG_H
#define FG_CFG_H

#include <stddef.h>

#include "cfg_data.h"

/* The yamlu table of one `hosts:` entry, shared with profiles (prof_streams.c). */
struct yamlu_schema;
extern const struct yamlu_schema cfg_host_schema;

/*
 * control: loads and validates `path`. 0, or a negative errno with err set to
 * "FILE:LINE:COL: what is wrong" (or "FILE: reason" if it cannot be read).
 * On failure *c holds nothing to free; on success call cfg_free().
 */
int cfg_load(const char *path, struct cfg *c, char *err, size_t errlen);

/* control: the same from memory (tests, fuzzing); name is used in messages. */
int cfg_load_buf(const char *name, const void *buf, size_t len, struct cfg *c, char *err,
		 size_t errlen);

/* control: frees everything cfg_load allocated; safe on a zeroed struct. */
void cfg_free(struct cfg *c);

#endif
