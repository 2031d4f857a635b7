/*
 * prof_int.h — private to the profile loader (src/config/prof*.c): the
 * schema tables one file hands to another.
 *
 * Context: control.
 *
 * Included by: config, control and console.
 */
#ifndef FG_PROF_INT_H
#define FG_PROF_INT_H

#include "yamlu.h"

/* control: a stream, an `imix` entry and a `hosts` entry, IPv4 or IPv6
 * (prof_streams.c). */
extern const struct yamlu_schema prof_stream_schema;
extern const struct yamlu_schema prof_imix_schema;
extern const struct yamlu_schema prof_host_schema;

struct prof;

/* control: an imix table an IPv6 imix stream uses has no frame below the
 * IPv6 floor (FG_PROF_FRAME_MIN6); 0 or the error (yamlu_errf). */
int prof_streams_check_imix(struct yamlu_ctx *y, yaml_node_t *map, const struct prof *p);

/* control: `ip_gen` (prof_ipgen.c): ranges, offset, client_ports, nat64_prefix. */
extern const struct yamlu_schema prof_ip_gen_schema;

#endif
