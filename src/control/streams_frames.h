/*
 * streams_frames.h — the frames of a streams run's senders
 * (streams_frames.c): sizes and prebuilt headers.
 *
 * Context: control (the console's thread, in streams_prepare).
 *
 * Included by: control.
 */
#ifndef FG_STREAMS_FRAMES_H
#define FG_STREAMS_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "streams.h"

struct prof;

/*
 * Stream sid's sequence of sizes when its `frame:` is a range, in *z
 * (z->seq stays NULL otherwise); 0, or -errno with err set.
 */
int streams_prep_sizes(const struct prof *pf, uint32_t sid, struct streams_sizes *z, char *err,
		       size_t errlen);

/*
 * A sender's prebuilt headers, one per frame size (port p's MAC; the next
 * hop is filled in by the first burst), of stream s's layer 4; 0, or
 * -ENOMEM with err set.
 */
struct prof_stream;
int streams_sender_templates(struct streams_sender *sd, int p, const struct prof_stream *s,
			     char *err, size_t errlen);

#endif
