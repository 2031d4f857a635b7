/*
 * streams_frames.c — the frames of a streams run's senders, built by
 * control before START (streams_frames.h): a stream's sequence of sizes
 * when its `frame:` is a range (flowgen-profile(5), STATELESS PROFILES),
 * and each sender's headers prebuilt per size, with their partial
 * checksums, that the worker copies and patches (src/dataplane/streams.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_ether.h>

#include "fg.h"
#include "fgen.h"
#include "lat.h"
#include "pkt.h"
#include "pkt6.h"
#include "port.h"
#include "prof_plan.h"
#include "streams.h"
#include "streams6.h"
#include "streams_frames.h"
#include "streams_l4.h"
#include "streams_opts.h"

/* Stream sid's sequence of sizes when its frame is a range (z->seq stays
 * NULL otherwise); 0, or -errno with err set. */
int streams_prep_sizes(const struct prof *pf, uint32_t sid, struct streams_sizes *z, char *err,
		       size_t errlen)
{
	const struct prof_stream *s = &pf->streams[sid];
	int rc;

	if (!s->frames.mode)
		return 0;
	z->seq = calloc(FG_PROF_FRAME_MAX, sizeof(uint16_t));
	if (!z->seq) {
		snprintf(err, errlen, "out of memory preparing the streams");
		return -ENOMEM;
	}
	rc = streams_size_seq(&s->frames, s->frame_step, fgen_subseed(pf->seed, sid, 4), z->seq,
			      FG_PROF_FRAME_MAX);
	if (rc < 0) {
		snprintf(err, errlen, "stream %s: bad frame range", s->name);
		return rc;
	}
	z->n = (uint32_t)rc;
	return 0;
}

/* The headers of a TCP or ICMP stream's sender (streams_l4.h). */
static int streams_l4_templates(struct streams_sender *sd, int p, const struct prof_stream *s,
				char *err, size_t errlen)
{
	struct streams_l4_hdr h = {
	    .proto = s->proto,
	    .tcp_flags = s->tcp.flags,
	    .tcp_seq = s->tcp.seq,
	    .tcp_ack = s->tcp.ack,
	    .tcp_win = (uint16_t)s->tcp.window,
	    .icmp_type = (uint8_t)s->icmp.type,
	    .icmp_code = (uint8_t)s->icmp.code,
	};

	streams_l4_geom(&sd->l4g, s->proto, sd->v6);
	sd->sig_off = sd->l4g.hlen;
	sd->ck_off = sd->l4g.ck;
	sd->l4t = calloc(sd->nsizes, sizeof(*sd->l4t));
	if (!sd->l4t) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	sd->fast_dst = UINT64_MAX;
	for (uint32_t i = 0; i < sd->nsizes; i++)
		streams_l4_init(&sd->l4t[i], &sd->l4g, &h, &fg_port[p].v.mac, sd->src6, sd->dst6,
				sd->sizes[i]);
	return 0;
}

/* A sender's prebuilt headers, one per frame size (port p's MAC; the next
 * hop is filled in by the first burst); 0, or -ENOMEM with err set. */
int streams_sender_templates(struct streams_sender *sd, int p, const struct prof_stream *s,
			     char *err, size_t errlen)
{
	if (s->proto != PROF_L4_UDP)
		return streams_l4_templates(sd, p, s, err, errlen);
	sd->sig_off = sd->v6 ? PKT6_UDP_PAY_OFF : PKT_UDP_PAY_OFF;
	sd->ck_off = (uint16_t)((sd->v6 ? PKT6_L4_OFF : PKT_UDP_PAY_OFF - 8) + 6);
	if (sd->v6) {
		sd->fast6 = calloc(sd->nsizes, sizeof(*sd->fast6));
		if (sd->all_fixed)
			sd->fixed6 = calloc(sd->nsizes, sizeof(*sd->fixed6));
	} else {
		sd->fast = calloc(sd->nsizes, sizeof(*sd->fast));
		if (sd->all_fixed)
			sd->fixed = calloc(sd->nsizes, sizeof(*sd->fixed));
	}
	if ((sd->v6 ? !sd->fast6 : !sd->fast) ||
	    (sd->all_fixed && (sd->v6 ? !sd->fixed6 : !sd->fixed))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	sd->fast_dst = UINT64_MAX; /* no MAC word: the first burst fills the templates in */
	/* The payload after the signature is zeros (the worker's tmpl). */
	for (uint32_t i = 0; i < sd->nsizes; i++) {
		static const uint8_t zeros[FG_PROF_FRAME_MAX];
		struct rte_ether_addr none = {{0}};

		if (sd->v6)
			streams6_fast_init(&sd->fast6[i], &fg_port[p].v.mac, &none, sd->src6,
					   sd->dst6, (uint16_t)(sd->sizes[i] - PKT6_UDP_PAY_OFF),
					   LAT_SIG_LEN, zeros);
		else
			pkt_udp_fast_init(&sd->fast[i], &fg_port[p].v.mac, &none,
					  (uint16_t)(sd->sizes[i] - PKT_UDP_PAY_OFF), LAT_SIG_LEN,
					  zeros);
	}
	return 0;
}
