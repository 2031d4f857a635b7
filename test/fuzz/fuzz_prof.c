/*
 * fuzz_prof.c — libFuzzer harness for the profile parser.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc/core -Isrc/config \
 *       -Isrc/dataplane -Isrc/control -Isrc/console \
 *       test/fuzz/fuzz_prof.c src/config/prof.c src/config/prof_streams.c src/config/prof_plan.c \
 *       src/config/prof_prog.c src/config/prof_pcap.c src/core/progb.c src/core/tcp.c \
 *       src/config/cfg.c \
 *       src/core/units.c src/config/yamlu.c src/config/readf.c \
 *       src/config/yamlu_scalar.c src/config/yamlu_text.c src/core/addr6.c \
 *       src/core/fgen_mem.c src/core/fgen.c src/core/nud.c -lyaml -lpcap -lm \
 *       -o build/fuzz_prof
 *
 * Properties checked on success: the mode's sections are present, every
 * program moves the same number of bytes each way (unless its receiver
 * waits for a delimiter or the close), an unrolled program is within its
 * limit, its stream offsets never decrease and end at what it sends, each
 * send's bytes are where progb_find() looks for them, UDP has no TCP-only
 * step, every stream has a
 * port, a frame size in range (or imix with a table) and ordered ranges,
 * and a template's limit and climit split over 1..4 workers add up to
 * themselves (start_share(), start_opts.h).
 * The ip_gen part (IPv4 or IPv6 ranges, nat64_prefix) is src/config/prof_ipgen.c.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fg.h"
#include "prof.h"
#include "progb.h"
#include "start_opts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A loaded program pg of template t, whose peer is peer (prof-t.h). */
static void check_program(const struct prof_template *t, const struct prof_program *pg,
			  const struct prof_program *peer)
{
	uint64_t sent = 0, recv = 0;
	uint32_t off = 0;
	size_t j;

	if (!pg->n || pg->n > FG_PROF_MAX_PROGRAM)
		abort();
	for (j = 0; j < pg->n; j++) {
		const struct prof_step *st = &pg->steps[j];

		if (st->off < off)
			abort();
		off = st->off;
		if (st->op == PROF_OP_SEND) {
			if (st->off != (uint32_t)sent || !st->arg || progb_find(pg, st->off) != j ||
			    progb_find(pg, st->off + st->arg - 1) != j)
				abort();
			sent += st->arg;
		} else if (st->op == PROF_OP_UNTIL) {
			if (!st->data || !st->arg || st->arg > FG_PROF_MAX_UNTIL || !pg->until)
				abort();
		}
		if (t->proto == PROF_UDP && st->op >= PROF_OP_UNTIL)
			abort();
	}
	if (sent != pg->sent || progb_find(pg, (uint32_t)sent) != pg->n)
		abort();
	for (j = 0; j < peer->n; j++)
		if (peer->steps[j].op == PROF_OP_RECV)
			recv += peer->steps[j].arg;
	if (!peer->until && recv != sent)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[FG_ERRLEN];
	struct prof p;
	size_t i;

	if (prof_load_buf("fuzz.yaml", data, size, &p, err, sizeof(err))) {
		if (strncmp(err, "fuzz.yaml:", 10) || p.streams || p.templates)
			abort();
		return 0;
	}
	if (p.mode == PROF_FLOWS && (!p.n_templates || p.n_templates > FG_PROF_MAX_TEMPLATES))
		abort();
	if (p.mode == PROF_STREAMS && (!p.n_streams || !p.n_imix))
		abort();
	for (i = 0; i < p.n_templates; i++) {
		const struct prof_template *t = &p.templates[i];

		if (!t->client.n || !(t->cps > 0))
			abort();
		check_program(t, &t->client, &t->server);
		check_program(t, &t->server, &t->client);
		for (unsigned k = 1; k <= 4; k++) {
			uint64_t l = 0, c = 0;

			for (unsigned w = 0; w < k; w++) {
				l += start_share(t->limit, k, w);
				c += start_share(t->climit, k, w);
			}
			if (l != t->limit || c != t->climit)
				abort();
		}
	}
	for (i = 0; i < p.n_streams; i++) {
		const struct prof_stream *s = &p.streams[i];

		if (!s->tx_mask || s->src.lo > s->src.hi || s->dport.hi > 65535)
			abort();
		if (s->frames.mode &&
		    (s->frames.lo < FG_PROF_FRAME_MIN || s->frames.hi > FG_PROF_FRAME_MAX ||
		     s->frames.lo >= s->frames.hi || !s->frame_step))
			abort();
		if (!s->imix && !s->frames.mode &&
		    (s->frame < FG_PROF_FRAME_MIN || s->frame > FG_PROF_FRAME_MAX))
			abort();
		if (!(prof_stream_avg_frame(&p, s) >= FG_PROF_FRAME_MIN))
			abort();
	}
	prof_free(&p);
	return 0;
}
