/*
 * otg_yaml.c — the streams profile (flowgen-profile(5), `mode: streams`)
 * written from an OTG plan: one stream per flow picked, the imix table,
 * the seed of the random fields. The profile goes through the same loader
 * as every other, from memory (prof_load_buf, otg_plan_prof: no file), so
 * a plan the loader refuses is a bug the unit tests and the fuzzer catch;
 * the rates the loaded streams run at are the plan's numbers, not their
 * text. No DPDK, no globals.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otg_int.h"
#include "prof.h"

static const char *const var_names[] = {[PROF_VAR_FIXED] = "fixed",
					[PROF_VAR_INC] = "inc",
					[PROF_VAR_DEC] = "dec",
					[PROF_VAR_RAND] = "rand"};

/* One address: IPv4 (host order) or IPv6 (a6's first 96 bits, then low). */
static void put_addr(char *buf, size_t len, bool v6, const uint8_t *a6, uint32_t low)
{
	if (v6) {
		uint8_t a[16];

		memcpy(a, a6, 12);
		a[12] = (uint8_t)(low >> 24);
		a[13] = (uint8_t)(low >> 16);
		a[14] = (uint8_t)(low >> 8);
		a[15] = (uint8_t)low;
		inet_ntop(AF_INET6, a, buf, (socklen_t)len);
	} else {
		uint32_t n = htonl(low);

		inet_ntop(AF_INET, &n, buf, (socklen_t)len);
	}
}

/* A port-like field: N, or {range: [lo, hi], mode: M}. */
static void fmt_num(char *buf, size_t len, const struct prof_field *pf)
{
	if (pf->mode == PROF_VAR_FIXED || pf->lo == pf->hi)
		snprintf(buf, len, "%u", pf->lo);
	else
		snprintf(buf, len, "{range: [%u, %u], mode: %s}", pf->lo, pf->hi,
			 var_names[pf->mode]);
}

static void put_field(FILE *f, const char *key, const struct prof_field *pf, bool addr, bool v6,
		      const uint8_t *a6)
{
	char lo[64], hi[64];

	if (!addr) {
		fmt_num(lo, sizeof(lo), pf);
		fprintf(f, "    %s: %s\n", key, lo);
		return;
	}
	/* quoted: an IPv6 address such as "::" is not a plain YAML scalar */
	lo[0] = hi[0] = '"';
	put_addr(lo + 1, sizeof(lo) - 2, v6, a6, pf->lo);
	put_addr(hi + 1, sizeof(hi) - 2, v6, a6, pf->hi);
	strcat(lo, "\"");
	strcat(hi, "\"");
	if (pf->mode == PROF_VAR_FIXED || pf->lo == pf->hi)
		fprintf(f, "    %s: %s\n", key, lo);
	else
		fprintf(f, "    %s: {range: [%s, %s], mode: %s}\n", key, lo, hi,
			var_names[pf->mode]);
}

/* A rate as the profile writes it: fixed notation (its grammar has no
 * exponent), pps and bps whole, a percentage with its trailing zeros cut. */
static void fmt_rate(char *buf, size_t len, const struct units_rate *r)
{
	int n;

	if (r->kind != UNITS_PCT) {
		snprintf(buf, len, "%.0f%s", r->value, r->kind == UNITS_PPS ? "pps" : "bps");
		return;
	}
	n = snprintf(buf, len - 1, "%.12f", r->value);
	if (n < 0 || (size_t)n >= len - 1)
		n = (int)strlen(buf);
	while (n > 1 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 1 && buf[n - 1] == '.')
		buf[--n] = '\0';
	snprintf(buf + n, len - (size_t)n, "%%");
}

static void put_stream(FILE *f, const struct otg_flow *fl)
{
	char rate[64];

	fprintf(f, "  - name: \"%s\"\n", fl->stream);
	fprintf(f, "    port: %d\n", fl->tx);
	if (fl->frames.mode == PROF_VAR_RAND)
		fprintf(f, "    frame: {range: [%u, %u], mode: rand}\n", fl->frames.lo, fl->frames.hi);
	else if (fl->frames.mode)
		fprintf(f, "    frame: {range: [%u, %u], mode: inc, step: %u}\n", fl->frames.lo,
			fl->frames.hi, fl->frame_step);
	else if (fl->imix)
		fprintf(f, "    frame: imix\n");
	else
		fprintf(f, "    frame: %u\n", fl->frame);
	if (fl->packets)
		fprintf(f, "    count: %" PRIu64 "\n", fl->packets);
	fmt_rate(rate, sizeof(rate), &fl->rate);
	fprintf(f, "    rate: \"%s\"\n", rate);
	put_field(f, "src", &fl->src, true, fl->v6, fl->src6);
	put_field(f, "dst", &fl->dst, true, fl->v6, fl->dst6);
	fprintf(f, "    latency: %s\n", fl->latency ? "true" : "false");
	if (fl->proto == PROF_L4_ICMP) {
		char id[64], seq[64];

		fmt_num(id, sizeof(id), &fl->sport);
		fmt_num(seq, sizeof(seq), &fl->dport);
		fprintf(f, "    proto: icmp\n    icmp: {type: %u, code: %u, id: %s, seq: %s}\n",
			fl->icmp_type, fl->icmp_code, id, seq);
		return;
	}
	put_field(f, "sport", &fl->sport, false, false, NULL);
	put_field(f, "dport", &fl->dport, false, false, NULL);
	if (fl->proto == PROF_L4_TCP)
		fprintf(f,
			"    proto: tcp\n    tcp: {flags: %u, seq: %" PRIu32 ", ack: %" PRIu32
			", window: %u}\n",
			fl->tcp_flags, fl->tcp_seq, fl->tcp_ack, fl->tcp_win);
}

char *otg_plan_yaml(const struct otg_plan *pl, const bool *pick)
{
	char *buf = NULL;
	size_t len = 0, n = 0;
	FILE *f;

	for (size_t i = 0; i < pl->n_flows; i++)
		n += !pick || pick[i];
	if (!n)
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fprintf(f, "# written from an OTG config (POST /config)\nmode: streams\n");
	if (pl->has_seed)
		fprintf(f, "seed: %u\n", pl->seed);
	if (pl->n_imix) {
		fprintf(f, "imix:\n");
		for (size_t i = 0; i < pl->n_imix; i++)
			fprintf(f, "  - {size: %u, weight: %u}\n", pl->imix[i].size,
				pl->imix[i].weight);
	}
	fprintf(f, "streams:\n");
	for (size_t i = 0; i < pl->n_flows; i++)
		if (!pick || pick[i])
			put_stream(f, &pl->flows[i]);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int otg_plan_prof(const struct otg_plan *pl, const bool *pick, struct prof *p, char *err,
		  size_t errlen)
{
	char *y = otg_plan_yaml(pl, pick);
	size_t k = 0;
	int rc;

	memset(p, 0, sizeof(*p));
	if (!y) {
		snprintf(err, errlen, "no flow picked (or out of memory)");
		return -ENOENT;
	}
	rc = prof_load_buf("otg-config", y, strlen(y), p, err, errlen);
	free(y);
	if (rc)
		return rc;
	for (size_t i = 0; i < pl->n_flows && k < p->n_streams; i++)
		if (!pick || pick[i])
			p->streams[k++].rate = pl->flows[i].rate;
	return 0;
}
