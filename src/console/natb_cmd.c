/*
 * natb_cmd.c — the console side of `bench nat`: its options, and what the
 * user reads. bench_cmd hands `bench nat ...` here on the console's
 * thread; the measurements run in src/control/natb.c with their progress
 * (one line per probe) on standard error. The result is a table of checks
 * (requirement id, verdict, what was measured, the requirement's gist) for
 * the requirements that show from outside the NAT, or with --json one
 * object holding the behaviours per protocol and the checks; --csv FILE
 * writes the checks as CSV (flowgen(8), bench nat).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_search.h"
#include "cmds.h"
#include "natb.h"
#include "natb_cmd.h"
#include "stats.h"
#include "units.h"
#include "log.h"

static const char natb_usage[] = "bench nat [-p udp|tcp|icmp|all] [--timeout-max SECONDS] "
				 "[--inside IP] [--outside IP] [--json] [--csv FILE]";

static int natb_bad(const char *what, const char *arg)
{
	fg_err("bench nat: %s%s%s; usage: %s", what, arg ? " " : "", arg ? arg : "", natb_usage);
	return -1;
}

/* -p: a comma-separated list of udp, tcp, icmp, all */
static int natb_protos(const char *s, struct natb_opts *o)
{
	char buf[64], *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	o->udp = o->tcp = o->icmp = false;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!strcmp(w, "udp"))
			o->udp = true;
		else if (!strcmp(w, "tcp"))
			o->tcp = true;
		else if (!strcmp(w, "icmp"))
			o->icmp = true;
		else if (!strcmp(w, "all"))
			o->udp = o->tcp = o->icmp = true;
		else
			return -EINVAL;
	}
	return o->udp || o->tcp || o->icmp ? 0 : -EINVAL;
}

static int natb_addr(const char *s, uint32_t *ip)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1 || !a.s_addr)
		return -EINVAL;
	*ip = ntohl(a.s_addr);
	return 0;
}

static int natb_parse(int argc, char **argv, struct natb_opts *o, bool *json, const char **csv)
{
	static const struct option lo[] = {
	    {"timeout-max", required_argument, NULL, 'T'}, {"inside", required_argument, NULL, 'I'},
	    {"outside", required_argument, NULL, 'O'},	   {"json", no_argument, NULL, 'J'},
	    {"csv", required_argument, NULL, 'C'},	   {NULL, 0, NULL, 0}};
	char err[FG_ERRLEN];
	int ch;

	memset(o, 0, sizeof(*o));
	o->udp = o->tcp = o->icmp = true;
	o->tmax = 300;
	*json = cmds_json();
	*csv = NULL;
	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "p:", lo, NULL)) != -1) {
		switch (ch) {
		case 'p':
			if (natb_protos(optarg, o) != 0)
				return natb_bad("-p: udp, tcp, icmp or all (comma-separated), not",
						optarg);
			break;
		case 'T':
			if (units_parse_duration(optarg, &o->tmax, err, sizeof(err)) != 0 ||
			    (o->tmax != 0 && !(o->tmax >= 2)) || o->tmax > 86400)
				return natb_bad("--timeout-max: 0 (no timeouts) or 2 s to 24h, not",
						optarg);
			break;
		case 'I':
			if (natb_addr(optarg, &o->inside) != 0)
				return natb_bad("--inside: an IPv4 address, not", optarg);
			break;
		case 'O':
			if (natb_addr(optarg, &o->outside) != 0)
				return natb_bad("--outside: an IPv4 address, not", optarg);
			break;
		case 'J':
			*json = true;
			break;
		case 'C':
			*csv = optarg;
			break;
		default:
			return natb_bad("unknown option or missing value:",
					optind - 1 < argc ? argv[optind - 1] : "");
		}
	}
	if (optind != argc)
		return natb_bad("unexpected", argv[optind]);
	return 0;
}

/* ---- output ------------------------------------------------------------------- */

static void j_tri(FILE *f, const char *key, enum natb_tri t)
{
	fprintf(f, "\"%s\":%s", key, t == NATB_YES ? "true" : t == NATB_NO ? "false" : "null");
}

static const char *const tmo_states[] = {"none", "found", "above", "below", "failed"};

static void j_tmo(FILE *f, const char *key, const struct natb_tmo *t)
{
	if (t->st == NATB_TMO_FOUND)
		fprintf(f, "\"%s\":%.1f", key, t->s);
	else
		fprintf(f, "\"%s\":null", key);
	fprintf(f,
		",\"%s_search\":{\"state\":\"%s\",\"alive_s\":%.1f,\"gone_s\":%.1f,"
		"\"mappings_planned\":%u,\"mappings_made\":%u}",
		key, tmo_states[t->st], t->lo, t->hi, t->planned, t->made);
}

/* the translated of every protocol measured: false if any left
 * untranslated, null if nothing of one came out, true otherwise */
static const char *all_translated(const struct natb_result *r)
{
	const bool on[3] = {r->udp.on, r->tcp.on, r->icmp.on};
	const enum natb_tri t[3] = {r->udp.translated, r->tcp.translated, r->icmp.translated};
	bool unseen = false;

	for (int k = 0; k < 3; k++) {
		if (!on[k])
			continue;
		if (t[k] == NATB_NO)
			return "false";
		unseen |= t[k] == NATB_UNSEEN;
	}
	return unseen ? "null" : "true";
}

static void json_out(FILE *f, const struct natb_result *r, const struct natb_check *c, size_t n)
{
	const struct natb_udp *u = &r->udp;
	const struct natb_tcp *t = &r->tcp;
	const struct natb_icmp *i = &r->icmp;

	fprintf(f,
		"{\"bench\":\"nat\",\"timeout_max_s\":%.1f,\"interrupted\":%s,\"translated\":%s,"
		"\"qdrop\":%llu,",
		r->tmax, r->interrupted ? "true" : "false", all_translated(r),
		(unsigned long long)r->qdrop);
	if (u->on) {
		fputs("\"udp\":{", f);
		j_tri(f, "translated", u->translated);
		fprintf(f, ",\"mapping\":\"%s\",\"mapping_contended\":\"%s\",\"filtering\":\"%s\",",
			natb_dep_names[u->mapping], natb_dep_names[u->mapping_contended],
			natb_dep_names[u->filtering]);
		j_tri(f, "port_preservation", u->preserve);
		fputc(',', f);
		j_tri(f, "port_parity", u->parity);
		fputc(',', f);
		j_tri(f, "port_overloading", u->overloading);
		fputc(',', f);
		j_tri(f, "port_range_kept", u->in_range);
		fprintf(f, ",\"pooling\":\"%s\",\"external_addresses\":%u,",
			natb_pool_names[u->pooling], u->ext_addrs);
		fprintf(
		    f,
		    "\"port_allocation\":\"%s\",\"port_step_median\":%u,\"port_destinations\":%u,"
		    "\"contiguity_pct\":%u,",
		    natb_alloc_names[u->alloc], u->alloc_step, u->alloc_n, u->contiguity_pct);
		j_tri(f, "hairpinning", u->hairpin);
		fputc(',', f);
		j_tri(f, "hairpin_external_source", u->hairpin_ext);
		fputc(',', f);
		j_tmo(f, "mapping_timeout_s", &u->timeout);
		fputc(',', f);
		j_tmo(f, "unreplied_timeout_s", &u->unreplied);
		fputc(',', f);
		j_tri(f, "refresh_outbound", u->refresh_out);
		fputc(',', f);
		j_tri(f, "refresh_inbound", u->refresh_in);
		fputc(',', f);
		j_tri(f, "icmp_error_keeps_mapping", u->icmp_keeps);
		fputc(',', f);
		j_tri(f, "fragments_out_of_order", u->frags);
		fprintf(f, ",\"port_quota\":%u,\"port_quota_tried\":%u,", u->quota.got,
			u->quota.tried);
		j_tri(f, "quota_keeps_mappings", u->quota.kept);
		fputc(',', f);
		j_tri(f, "quota_others_served", u->quota.others);
		fputc(',', f);
		j_tri(f, "quota_icmp_error", u->quota.icmp);
		fputs("},", f);
	} else {
		fputs("\"udp\":null,", f);
	}
	if (t->on) {
		fputs("\"tcp\":{", f);
		j_tri(f, "translated", t->translated);
		fprintf(f, ",\"mapping\":\"%s\",\"mapping_contended\":\"%s\",\"filtering\":\"%s\",",
			natb_dep_names[t->mapping], natb_dep_names[t->mapping_contended],
			natb_dep_names[t->filtering]);
		j_tri(f, "port_preservation", t->preserve);
		fputc(',', f);
		j_tri(f, "port_overloading", t->overloading);
		fputc(',', f);
		j_tri(f, "hairpinning", t->hairpin);
		fputc(',', f);
		j_tri(f, "hairpin_external_source", t->hairpin_ext);
		fputc(',', f);
		j_tri(f, "error_translation", t->err_xlate);
		fputc(',', f);
		j_tmo(f, "established_timeout_s", &t->established);
		fputc(',', f);
		j_tmo(f, "transitory_timeout_s", &t->transitory);
		fputc(',', f);
		j_tmo(f, "closing_timeout_s", &t->closing);
		fputs("},", f);
	} else {
		fputs("\"tcp\":null,", f);
	}
	if (i->on) {
		fputs("\"icmp\":{", f);
		j_tri(f, "translated", i->translated);
		fputc(',', f);
		j_tri(f, "echo", i->echo);
		fputc(',', f);
		j_tmo(f, "query_timeout_s", &i->query);
		fputc(',', f);
		j_tri(f, "error_translation", i->err_xlate);
		fputc(',', f);
		j_tri(f, "identifier_independent", i->id_ei);
		fputs("},", f);
	} else {
		fputs("\"icmp\":null,", f);
	}
	fputs("\"checks\":[", f);
	for (size_t k = 0; k < n; k++) {
		fputs(k ? ",{\"id\":" : "{\"id\":", f);
		stats_json_str(f, c[k].id);
		fputs(",\"text\":", f);
		stats_json_str(f, c[k].text);
		fputs(",\"measured\":", f);
		stats_json_str(f, c[k].measured);
		fprintf(f, ",\"verdict\":\"%s\"}", natb_verdict_names[c[k].v]);
	}
	fputs("]}\n", f);
	fflush(f);
}

static void csv_field(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static int csv_out(const char *path, const struct natb_check *c, size_t n)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fg_err("bench nat: --csv %s: %s", path, strerror(errno));
		return -1;
	}
	fputs("bench,id,text,measured,verdict\n", f);
	for (size_t k = 0; k < n; k++) {
		fputs("nat,", f);
		csv_field(f, c[k].id);
		fputc(',', f);
		csv_field(f, c[k].text);
		fputc(',', f);
		csv_field(f, c[k].measured);
		fprintf(f, ",%s\n", natb_verdict_names[c[k].v]);
	}
	if (fclose(f) != 0) {
		fg_err("bench nat: --csv %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* s, then spaces up to `width` characters (UTF-8 aware: the ids hold a §) */
static void pad(FILE *f, const char *s, int width)
{
	int n = 0;

	fputs(s, f);
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	/* two spaces at least between columns */
	for (width = FG_MAX(width, n + 2); n < width; n++)
		fputc(' ', f);
}

static void table_out(FILE *f, const struct natb_result *r, const struct natb_check *c, size_t n)
{
	unsigned cnt[NATB_FAIL + 1] = {0};

	pad(f, "requirement", 28);
	pad(f, "verdict", 16);
	pad(f, "measured", 56);
	fputs("gist\n", f);
	for (size_t k = 0; k < n; k++) {
		pad(f, c[k].id, 28);
		pad(f, natb_verdict_names[c[k].v], 16);
		pad(f, c[k].measured, 56);
		fprintf(f, "%s\n", c[k].text);
		cnt[c[k].v]++;
	}
	fprintf(f, "nat: %u pass, %u fail, %u not applicable%s\n", cnt[NATB_PASS], cnt[NATB_FAIL],
		cnt[NATB_NA], r->interrupted ? " (interrupted)" : "");
	if (r->qdrop)
		fprintf(f,
			"nat: %llu frames dropped for want of room in the probes' receive queue: "
			"some answers may be missing\n",
			(unsigned long long)r->qdrop);
	fflush(f);
}

int natb_cmd(int argc, char **argv)
{
	struct natb_opts o;
	struct natb_result *r;
	struct natb_check c[NATB_MAX_CHECKS];
	const char *csv;
	bool json;
	size_t n;
	int rc = 0;

	if (natb_parse(argc, argv, &o, &json, &csv) != 0)
		return -1;
	o.progress = stderr;
	r = calloc(1, sizeof(*r));
	if (!r) {
		fg_err("bench nat: out of memory");
		return -1;
	}
	if (natb_run(&o, r) != 0) {
		free(r);
		return -1;
	}
	n = natb_checks(r, c, FG_ARRAY_SIZE(c));
	if (json)
		json_out(stdout, r, c, n);
	else
		table_out(stdout, r, c, n);
	if (csv && csv_out(csv, c, n) != 0)
		rc = -1;
	if (r->interrupted) {
		fg_err("bench nat: interrupted");
		rc = -1;
	}
	free(r);
	return rc;
}
