/*
 * prof_int.h — private to the profile parser (src/config/prof.c and
 * prof_streams.c): the yamlu tables of the streams part and the checks
 * prof.c calls once the whole profile is read.
 *
 * Context: control (prof_load).
 */
#ifndef FG_PROF_INT_H
#define FG_PROF_INT_H

#include "prof.h"
#include "yamlu.h"

extern const struct yamlu_schema prof_stream_schema; /* one entry of `streams` */
extern const struct yamlu_schema prof_imix_schema;   /* one entry of `imix` */
extern const struct yamlu_schema prof_host_schema;   /* one entry of `hosts`, IPv4 or IPv6 */

/* An imix table an IPv6 imix stream uses has no frame below the IPv6
 * floor (FG_PROF_FRAME_MIN6); 0 or the error (yamlu_errf). */
int prof_streams_check_imix(struct yamlu_ctx *y, yaml_node_t *map, const struct prof *p);

#endif
