/*
 * prof_int.h — private to the profile loader (prof.c, prof_streams.c,
 * prof_ipgen.c): the schema tables one file hands to another and the
 * words of the enums of prof-t.h that those tables accept.
 *
 * Context: control (the loader, on the console's thread).
 *
 * Included by: config (the loader's files only).
 */
#ifndef FG_PROF_INT_H
#define FG_PROF_INT_H

#include "prof-t.h"
#include "yamlu.h"

/* The tables of names of the enums of prof-t.h, as the YAML spells them. */
extern const char *const prof_mode_names[PROF_MODE_COUNT];
extern const char *const prof_dist_names[PROF_DIST_COUNT];
extern const char *const prof_proto_names[PROF_PROTO_COUNT];
extern const char *const prof_op_names[PROF_OP_COUNT];
extern const char *const prof_var_names[PROF_VAR_COUNT];

/* control: a stream, an `imix` entry and a `hosts` entry, IPv4 or IPv6
 * (prof_streams.c). */
extern const struct yamlu_schema prof_stream_schema;
extern const struct yamlu_schema prof_imix_schema;
extern const struct yamlu_schema prof_host_schema;

struct prof;

/* control: an imix table an imix stream uses has no frame below that
 * stream's floor (FG_PROF_FRAME_MIN_OF); 0 or the error (yamlu_errf). */
int prof_streams_check_imix(struct yamlu_ctx *y, yaml_node_t *map, const struct prof *p);

/* control: `ip_gen` (prof_ipgen.c): ranges, offset, client_ports, nat64_prefix. */
extern const struct yamlu_schema prof_ip_gen_schema;

/* control: a template's `client` or `server` program (prof_prog.c), a
 * YAMLU_CUSTOM row's parse and release, and the bytes its steps of op move. */
int prof_parse_program(struct yamlu_ctx *y, const struct yamlu_field *f, yaml_node_t *n, void *dst);
void prof_release_program(void *dst);
/*
 * control: `client: {pcap: FILE, keep_gaps: BOOL}` (the mapping m): the
 * client's (client) or the server's program from the capture's first
 * session (prof_pcap.h) into pg, or none when pg is NULL; *proto (enum
 * prof_proto) and *port (the server's) from the session when not NULL.
 */
int prof_program_pcap(struct yamlu_ctx *y, yaml_node_t *m, bool client, struct prof_program *pg,
		      int *proto, uint32_t *port);
uint64_t prof_program_bytes(const struct prof_program *pg, enum prof_op op);

#endif
