/*
 * prof_int.h — private to the profile loader (src/config/prof*.c): the
 * schema tables one file hands to another.
 *
 * Context: control.
 */
#ifndef FG_PROF_INT_H
#define FG_PROF_INT_H

#include "yamlu.h"

/* control: `ip_gen` (prof_ipgen.c): ranges, offset, client_ports, nat64_prefix. */
extern const struct yamlu_schema prof_ip_gen_schema;

#endif
