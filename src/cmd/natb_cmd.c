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
#include "cli.h"
#include "json.h"
#include "natb.h"
#include "natb_cmd.h"
#include "units.h"

static int natb_bad(struct cmd_ctx *x, const char *what, const char *arg)
{
	return cmd_fail(x, FG_E_USAGE, arg, NULL, "bench nat: %s%s%s; usage: %s", what,
			arg ? " " : "", arg ? arg : "", NATB_USAGE);
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

static const struct option natb_longs[] = {
    {"timeout-max", required_argument, NULL, 'T'}, {"inside", required_argument, NULL, 'I'},
    {"outside", required_argument, NULL, 'O'},	   {"json", no_argument, NULL, 'J'},
    {"csv", required_argument, NULL, 'C'},	   {NULL, 0, NULL, 0}};

const struct cli_optspec natb_spec = {.shorts = "p:", .longs = natb_longs};

static int natb_parse(struct cmd_ctx *x, int argc, char **argv, struct natb_opts *o, bool *json,
		      const char **csv)
{
	char err[FG_ERRLEN];
	int ch;

	memset(o, 0, sizeof(*o));
	o->udp = o->tcp = o->icmp = true;
	o->tmax = 300;
	*json = cmd_json();
	*csv = NULL;
	cli_getopt_reset();
	while ((ch = cli_getopt(argc, argv, &natb_spec)) != -1) {
		switch (ch) {
		case 'p':
			if (natb_protos(optarg, o) != 0)
				return natb_bad(x, "-p: udp, tcp, icmp or all (comma-separated), not",
						optarg);
			break;
		case 'T':
			if (units_parse_duration(optarg, &o->tmax, err, sizeof(err)) != 0 ||
			    (o->tmax != 0 && !(o->tmax >= 2)) || o->tmax > 86400)
				return natb_bad(x, "--timeout-max: 0 (no timeouts) or 2 s to 24h, not",
						optarg);
			break;
		case 'I':
			if (natb_addr(optarg, &o->inside) != 0)
				return natb_bad(x, "--inside: an IPv4 address, not", optarg);
			break;
		case 'O':
			if (natb_addr(optarg, &o->outside) != 0)
				return natb_bad(x, "--outside: an IPv4 address, not", optarg);
			break;
		case 'J':
			*json = true;
			break;
		case 'C':
			*csv = optarg;
			break;
		default:
			return natb_bad(x, "unknown option or missing value:",
					optind - 1 < argc ? argv[optind - 1] : "");
		}
	}
	if (optind != argc)
		return natb_bad(x, "unexpected", argv[optind]);
	return 0;
}

/* ---- output ------------------------------------------------------------------- */

static void j_tri(struct jw *j, const char *key, enum natb_tri t)
{
	if (t == NATB_UNSEEN)
		jw_null(j, key);
	else
		jw_bool(j, key, t == NATB_YES);
}

static const char *const tmo_states[] = {"none", "found", "above", "below", "failed"};

static void j_tmo(struct jw *j, const char *key, const struct natb_tmo *t)
{
	char k[64];

	jw_num(j, key, t->st == NATB_TMO_FOUND ? t->s : NAN, 1);
	snprintf(k, sizeof(k), "%s_search", key);
	jw_obj(j, k);
	jw_str(j, "state", tmo_states[t->st]);
	jw_num(j, "alive_s", t->lo, 1);
	jw_num(j, "gone_s", t->hi, 1);
	jw_u64(j, "mappings_planned", t->planned);
	jw_u64(j, "mappings_made", t->made);
	jw_obj_end(j);
}

/* the translated of every protocol measured: no if any left untranslated,
 * unseen if nothing of one came out, yes otherwise */
static enum natb_tri all_translated(const struct natb_result *r)
{
	const bool on[3] = {r->udp.on, r->tcp.on, r->icmp.on};
	const enum natb_tri t[3] = {r->udp.translated, r->tcp.translated, r->icmp.translated};
	bool unseen = false;

	for (int k = 0; k < 3; k++) {
		if (!on[k])
			continue;
		if (t[k] == NATB_NO)
			return NATB_NO;
		unseen |= t[k] == NATB_UNSEEN;
	}
	return unseen ? NATB_UNSEEN : NATB_YES;
}

/* mapping, mapping_contended, filtering: the RFC 4787 §4.1 / §5 words;
 * contention: what became of the contended probe */
static void j_deps(struct jw *j, enum natb_dep m, enum natb_dep mc, enum natb_cont ct,
		   enum natb_dep f)
{
	jw_str(j, "mapping", natb_dep_names[m]);
	jw_str(j, "mapping_contended", natb_dep_names[mc]);
	jw_str(j, "contention", natb_cont_names[ct]);
	jw_str(j, "filtering", natb_dep_names[f]);
}

static void json_udp(struct jw *j, const struct natb_udp *u)
{
	jw_obj(j, "udp");
	j_tri(j, "translated", u->translated);
	j_deps(j, u->mapping, u->mapping_contended, u->contention, u->filtering);
	j_tri(j, "port_preservation", u->preserve);
	j_tri(j, "port_parity", u->parity);
	j_tri(j, "port_overloading", u->overloading);
	j_tri(j, "port_range_kept", u->in_range);
	jw_str(j, "pooling", natb_pool_names[u->pooling]);
	jw_u64(j, "external_addresses", u->ext_addrs);
	jw_str(j, "port_allocation", natb_alloc_names[u->alloc]);
	jw_u64(j, "port_step_median", u->alloc_step);
	jw_u64(j, "port_destinations", u->alloc_n);
	jw_u64(j, "contiguity_pct", u->contiguity_pct);
	jw_str(j, "port_allocation_contended", natb_alloc_names[u->alloc_contended]);
	jw_u64(j, "port_step_median_contended", u->alloc_contended_step);
	jw_u64(j, "ports_forced", u->alloc_forced);
	j_tri(j, "hairpinning", u->hairpin);
	j_tri(j, "hairpin_external_source", u->hairpin_ext);
	j_tmo(j, "mapping_timeout_s", &u->timeout);
	j_tmo(j, "unreplied_timeout_s", &u->unreplied);
	j_tri(j, "refresh_outbound", u->refresh_out);
	j_tri(j, "refresh_inbound", u->refresh_in);
	j_tri(j, "icmp_error_keeps_mapping", u->icmp_keeps);
	j_tri(j, "fragments_out_of_order", u->frags);
	jw_u64(j, "port_quota", u->quota.got);
	jw_u64(j, "port_quota_tried", u->quota.tried);
	j_tri(j, "quota_keeps_mappings", u->quota.kept);
	j_tri(j, "quota_others_served", u->quota.others);
	j_tri(j, "quota_icmp_error", u->quota.icmp);
	jw_obj_end(j);
}

static void json_tcp(struct jw *j, const struct natb_tcp *t)
{
	jw_obj(j, "tcp");
	j_tri(j, "translated", t->translated);
	j_deps(j, t->mapping, t->mapping_contended, t->contention, t->filtering);
	j_tri(j, "port_preservation", t->preserve);
	j_tri(j, "port_overloading", t->overloading);
	j_tri(j, "hairpinning", t->hairpin);
	j_tri(j, "hairpin_external_source", t->hairpin_ext);
	j_tri(j, "error_translation", t->err_xlate);
	j_tmo(j, "established_timeout_s", &t->established);
	j_tmo(j, "transitory_timeout_s", &t->transitory);
	j_tmo(j, "closing_timeout_s", &t->closing);
	jw_obj_end(j);
}

static int json_out(struct cmd_ctx *x, const struct natb_result *r, const struct natb_check *c,
		    size_t n)
{
	const struct natb_icmp *i = &r->icmp;
	struct jw j;

	cmd_json_begin(x, &j, false);
	jw_obj(&j, NULL);
	jw_str(&j, "bench", "nat");
	jw_num(&j, "timeout_max_s", r->tmax, 1);
	jw_bool(&j, "interrupted", r->interrupted);
	j_tri(&j, "translated", all_translated(r));
	jw_u64(&j, "qdrop", r->qdrop);
	if (r->udp.on)
		json_udp(&j, &r->udp);
	else
		jw_null(&j, "udp");
	if (r->tcp.on)
		json_tcp(&j, &r->tcp);
	else
		jw_null(&j, "tcp");
	if (i->on) {
		jw_obj(&j, "icmp");
		j_tri(&j, "translated", i->translated);
		j_tri(&j, "echo", i->echo);
		j_tmo(&j, "query_timeout_s", &i->query);
		j_tri(&j, "error_translation", i->err_xlate);
		j_tri(&j, "identifier_independent", i->id_ei);
		jw_obj_end(&j);
	} else {
		jw_null(&j, "icmp");
	}
	jw_arr(&j, "checks");
	for (size_t k = 0; k < n; k++) {
		jw_obj(&j, NULL);
		jw_str(&j, "id", c[k].id);
		jw_str(&j, "text", c[k].text);
		jw_str(&j, "level", natb_level_names[c[k].level]);
		jw_str(&j, "measured", c[k].measured);
		jw_str(&j, "verdict", natb_verdict_names[c[k].v]);
		jw_obj_end(&j);
	}
	jw_arr_end(&j);
	jw_obj_end(&j);
	return cmd_json_end(x, &j);
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

static int csv_out(struct cmd_ctx *x, const char *path, const struct natb_check *c, size_t n)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return cmd_fail(x, FG_E_FAILED, "--csv", NULL, "bench nat: --csv %s: %s", path,
				strerror(errno));
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
	if (fclose(f) != 0)
		return cmd_fail(x, FG_E_FAILED, "--csv", NULL, "bench nat: --csv %s: %s", path,
				strerror(errno));
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
	unsigned cnt[NATB_NVERDICTS] = {0};

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
	fprintf(f, "nat: %u pass, %u fail, %u inconclusive, %u not applicable, %u info%s\n",
		cnt[NATB_PASS], cnt[NATB_FAIL], cnt[NATB_INCONCLUSIVE], cnt[NATB_NA], cnt[NATB_INFO],
		r->interrupted ? " (interrupted)" : "");
	if (r->qdrop)
		fprintf(f,
			"nat: %llu frames dropped for want of room in the probes' receive queue: "
			"some answers may be missing\n",
			(unsigned long long)r->qdrop);
	fflush(f);
}

int natb_cmd(struct cmd_ctx *x, int argc, char **argv)
{
	struct natb_opts o;
	struct natb_result *r;
	struct natb_check c[NATB_MAX_CHECKS];
	const char *csv;
	bool json;
	size_t n;
	int rc = 0;

	if (natb_parse(x, argc, argv, &o, &json, &csv) != 0)
		return -1;
	o.progress = x->errout;
	r = calloc(1, sizeof(*r));
	if (!r)
		return cmd_fail(x, FG_E_INTERNAL, NULL, NULL, "bench nat: out of memory");
	if (natb_run(&o, r, &x->err) != 0) {
		x->err_shown = false;
		free(r);
		return -1;
	}
	n = natb_checks(r, c, FG_ARRAY_SIZE(c));
	if (json)
		rc = json_out(x, r, c, n) < 0 ? -1 : 0;
	else
		table_out(x->out, r, c, n);
	if (csv && csv_out(x, csv, c, n) != 0)
		rc = -1;
	if (r->interrupted)
		rc = cmd_fail(x, FG_E_FAILED, NULL, NULL, "bench nat: interrupted");
	free(r);
	return rc;
}
