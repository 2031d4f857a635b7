/*
 * yamlu_int.h — private to the two files of the YAML reader and included
 * by nothing else: src/config/yamlu.c (loading, messages, the walker) and
 * src/config/yamlu_scalar.c (one value of a row's type). The public API is
 * in yamlu.h.
 *
 * Context: pure.
 *
 * Included by: config, control and console.
 */
#ifndef FG_YAMLU_INT_H
#define FG_YAMLU_INT_H

#include <yaml.h>

/* pure: what node n is, for messages: "a scalar", "a list", "a mapping". */
const char *yamlu_node_kind(const yaml_node_t *n);

#endif
