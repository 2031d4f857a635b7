/*
 * fuzz_prof.c — libFuzzer harness for the profile parser.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc/core -Isrc/config \
 *       -Isrc/dataplane -Isrc/control -Isrc/console \
 *       test/fuzz/fuzz_prof.c src/config/prof.c src/config/prof_streams.c src/config/prof_plan.c \
 *       src/config/cfg.c \
 *       src/core/units.c src/config/yamlu.c \
 *       src/config/yamlu_scalar.c src/config/yamlu_text.c src/core/addr6.c -lyaml -lm \
 *       -o build/fuzz_prof
 *
 * Properties checked on success: the mode's sections are present, every
 * program moves the same number of bytes each way, every stream has a
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
#include "start_opts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
