/*
 * prof_plan.c — questions asked of a loaded profile (prof_plan.h): the
 * largest frame it may send (run.c refuses a profile whose frames the
 * ports' mbufs cannot hold), a stream's average frame, whether every
 * stream has a count (the run then ends by itself), the flows' rate at
 * -m 1, the statistics groups of its templates and the address families
 * a port sends. Pure: each reads only the
 * plan it is given, which prof_load (prof.c) built.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fg.h"
#include "prof_plan.h"

double prof_stream_avg_frame(const struct prof *p, const struct prof_stream *s)
{
	double avg;

	if (s->frames.mode == PROF_VAR_INC || s->frames.mode == PROF_VAR_DEC)
		return s->frames.lo +
		       (double)((s->frames.hi - s->frames.lo) / s->frame_step * s->frame_step) / 2;
	if (s->frames.mode == PROF_VAR_RAND)
		return (s->frames.lo + s->frames.hi) / 2.0;
	if (!s->imix)
		return s->frame;
	if (units_imix_avg(p->imix, p->n_imix, &avg))
		return 0;
	return avg;
}

bool prof_streams_counted(const struct prof *p)
{
	if (p->mode != PROF_STREAMS || !p->n_streams)
		return false;
	for (size_t i = 0; i < p->n_streams; i++)
		if (!p->streams[i].count)
			return false;
	return true;
}

uint32_t prof_max_frame(const struct prof *p)
{
	uint32_t max = 0;

	if (p->mode == PROF_STREAMS) {
		for (size_t i = 0; i < p->n_streams; i++) {
			const struct prof_stream *s = &p->streams[i];

			if (s->frames.mode)
				max = FG_MAX(max, s->frames.hi);
			else if (!s->imix)
				max = FG_MAX(max, s->frame);
			else
				for (size_t k = 0; k < p->n_imix; k++)
					max = FG_MAX(max, p->imix[k].size);
		}
		return max;
	}
	/* flows: a UDP send is one datagram; TCP writes go out in MSS-sized
	 * segments, at most a 1518-byte frame */
	uint32_t hdr = 14 + ((p->ip_gen.client.v6 || p->ip_gen.server.v6) ? 40 : 20) + 8 + 4;

	for (size_t i = 0; i < p->n_templates; i++) {
		const struct prof_template *t = &p->templates[i];
		const struct prof_program *pg[2] = {&t->client, &t->server};

		if (t->proto == PROF_TCP) {
			max = FG_MAX(max, 1518u);
			continue;
		}
		for (int k = 0; k < 2; k++)
			for (size_t j = 0; j < pg[k]->n; j++)
				if (pg[k]->steps[j].op == PROF_OP_SEND)
					max = FG_MAX(max, pg[k]->steps[j].arg + hdr);
	}
	return max;
}

double prof_total_cps(const struct prof *p)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < p->n_templates; i++)
		sum += p->templates[i].cps;
	return sum;
}

double prof_tpl_timeout(const struct prof *p, const struct prof_template *t)
{
	uint64_t ms = FG_MAX(t->client.delay_ms, t->server.delay_ms);

	return p->timeout + (double)ms / 1000.0;
}

double prof_flow_time(const struct prof *p)
{
	double most = p->timeout;
	size_t i;

	for (i = 0; i < p->n_templates; i++)
		most = FG_MAX(most, prof_tpl_timeout(p, &p->templates[i]));
	return most;
}

bool prof_prog_once(const struct prof_program *pg, uint32_t *need)
{
	if (pg->n < 1 || pg->steps[0].op != PROF_OP_RECV)
		return false;
	for (size_t i = 1; i < pg->n; i++)
		if (pg->steps[i].op != PROF_OP_SEND)
			return false;
	*need = pg->steps[0].arg;
	return true;
}

uint32_t prof_prog_min_send(const struct prof_program *pg)
{
	uint32_t least = 0;

	for (size_t i = 0; i < pg->n; i++)
		if (pg->steps[i].op == PROF_OP_SEND && (!least || pg->steps[i].arg < least))
			least = pg->steps[i].arg;
	return least;
}

const char *prof_tpl_group(const struct prof_template *t) { return t->group ? t->group : t->name; }

size_t prof_groups(const struct prof *p, uint8_t group_of[FG_PROF_MAX_TEMPLATES])
{
	size_t n = 0, nt = FG_MIN(p->n_templates, (size_t)FG_PROF_MAX_TEMPLATES);
	size_t first[FG_PROF_MAX_TEMPLATES]; /* each group's first template */

	if (p->mode != PROF_FLOWS)
		return 0;
	for (size_t i = 0; i < nt; i++) {
		const char *g = prof_tpl_group(&p->templates[i]);
		size_t k = 0;

		while (k < n && strcmp(prof_tpl_group(&p->templates[first[k]]), g))
			k++;
		if (k == n)
			first[n++] = i;
		group_of[i] = (uint8_t)k;
	}
	return n;
}

unsigned prof_port_families(const struct prof *p, int port)
{
	unsigned fam = 0;

	/* a flows side of IPv6 (NAT64's client side) sends to default_gw6 */
	if (p->mode == PROF_FLOWS)
		return (port & 1 ? p->ip_gen.server.v6 : p->ip_gen.client.v6) ? PROF_FAM_V6
									  : PROF_FAM_V4;
	if (p->mode != PROF_STREAMS)
		return PROF_FAM_V4;
	for (size_t i = 0; i < p->n_streams; i++)
		if (p->streams[i].tx_mask >> port & 1)
			fam |= p->streams[i].v6 ? PROF_FAM_V6 : PROF_FAM_V4;
	return fam;
}

struct yamlu_range prof_client_ports(const struct prof *p, const struct prof_template *t)
{
	struct yamlu_range r = t->has_client_ports ? t->client_ports : p->ip_gen.client_ports;

	if (r.lo == 0 && r.hi == 0) /* a plan made in code, not loaded */
		r = (struct yamlu_range){FG_PROF_SPORT_DEFAULT, 65535};
	return r;
}
