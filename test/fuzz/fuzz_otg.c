/*
 * fuzz_otg.c — libFuzzer harness for the OTG config translation (POST
 * /config): JSON in, a plan and its streams profile out.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc/core -Isrc/config \
 *       -Isrc/dataplane -Isrc/control -Isrc/cmd -Isrc/api \
 *       test/fuzz/fuzz_otg.c src/api/otg_plan.c src/api/otg_hdr.c \
 *       src/api/otg_pat.c src/api/otg_yaml.c src/api/otg_pcap.c \
 *       src/config/prof.c src/config/prof_streams.c src/config/prof_ipgen.c \
 *       src/config/prof_plan.c src/config/prof_prog.c src/config/prof_pcap.c src/core/progb.c \
 *       src/core/tcp.c src/config/cfg.c src/config/cfg_data.c src/config/yamlu.c src/config/readf.c \
 *       src/config/yamlu_scalar.c src/config/yamlu_text.c src/core/units.c src/core/addr6.c \
 *       src/core/fgen_mem.c src/core/fgen.c src/core/nud.c \
 *       -ljansson -lyaml -lpcap -lm -o build/fuzz_otg
 *
 * Properties checked: a refused config leaves an error "PATH: why" and
 * nothing allocated; an accepted one has its flows on ports with a pair,
 * and the streams profile written from it loads through the profile
 * loader with one stream per flow, on the flow's port, with its latency
 * flag. Inputs that begin like a pcapng file go through the capture
 * filter instead (otg_pcapng_port, both output formats).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "otg_int.h"
#include "prof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void pcapng(const uint8_t *data, size_t size)
{
	uint8_t *out;
	size_t len;

	for (int pcap = 0; pcap < 2; pcap++)
		for (uint32_t ifid = 0; ifid < 2; ifid++)
			if (otg_pcapng_port(data, size, ifid, pcap, &out, &len) == 0)
				free(out);
}

static void check_profile(const struct otg_plan *pl)
{
	char *y = otg_plan_yaml(pl, NULL), err[FG_ERRLEN];
	struct prof p;

	if (!pl->n_flows) {
		if (y)
			abort();
		return;
	}
	if (!y)
		abort();
	if (prof_load_buf("otg.yaml", y, strlen(y), &p, err, sizeof(err)))
		abort(); /* the translation wrote a profile the loader refuses */
	if (p.n_streams != pl->n_flows)
		abort();
	for (size_t i = 0; i < p.n_streams; i++)
		if (p.streams[i].port != (uint32_t)pl->flows[i].tx ||
		    p.streams[i].latency != pl->flows[i].latency ||
		    p.streams[i].v6 != pl->flows[i].v6)
			abort();
	prof_free(&p);
	free(y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct otg_env env = {.nports = 4, .vlan = {0, 0, 100, 100}};
	char err[FG_ERRLEN];
	struct otg_plan pl;
	json_error_t je;
	json_t *j;

	if (size >= 4 && data[0] == 0x0a && data[1] == 0x0d) {
		pcapng(data, size);
		return 0;
	}
	for (int p = 0; p < env.nports; p++)
		env.iface[p][0] = (char)('a' + p);
	j = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
	if (!j)
		return 0;
	if (otg_plan_from_json(j, &env, &pl, err, sizeof(err))) {
		if (!err[0] || !strstr(err, ": ") || pl.flows || pl.ports || pl.n_warnings)
			abort();
	} else {
		for (size_t i = 0; i < pl.n_flows; i++)
			if (pl.flows[i].tx < 0 || pl.flows[i].tx >= env.nports ||
			    pl.flows[i].rx != (pl.flows[i].tx ^ 1))
				abort();
		check_profile(&pl);
		otg_plan_free(&pl);
	}
	json_decref(j);
	return 0;
}
