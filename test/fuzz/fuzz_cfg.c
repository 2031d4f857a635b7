/*
 * fuzz_cfg.c — libFuzzer harness for the platform config parser (and the
 * yamlu walker and value parsers under it).
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc/core -Isrc/config \
 *       -Isrc/dataplane -Isrc/control -Isrc/console \
 *       test/fuzz/fuzz_cfg.c src/config/cfg.c src/config/yamlu.c src/config/readf.c src/config/yamlu_scalar.c \
 *       src/config/yamlu_text.c \
 *       src/core/addr6.c src/core/units.c src/core/nud.c \
 *       -lyaml -o build/fuzz_cfg
 *
 * Besides memory safety it checks properties: a failure leaves one
 * "name:..." message and nothing allocated; a success has an even number of
 * interfaces within FG_MAX_PORTS, port_info no longer than them, defaults
 * within their ranges and host ranges that are ordered and exist.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[FG_ERRLEN];
	struct cfg c;
	size_t i;

	if (cfg_load_buf("fuzz.yaml", data, size, &c, err, sizeof(err))) {
		if (strncmp(err, "fuzz.yaml:", 10) || c.interfaces || c.warnings)
			abort();
		return 0;
	}
	if (c.n_interfaces == 0 || c.n_interfaces % 2 || c.n_interfaces > FG_MAX_PORTS ||
	    c.n_port_info > c.n_interfaces)
		abort();
	if (c.mbufs < FG_CFG_MBUFS_MIN || c.mbufs > FG_CFG_MBUFS_MAX)
		abort();
	for (i = 0; i < c.n_interfaces; i++)
		if (c.ifs[i].kind < CFG_IF_PCI || c.ifs[i].kind > CFG_IF_LOOP)
			abort();
	for (i = 0; i < c.n_hosts; i++)
		if (c.hosts[i].lo > c.hosts[i].hi || c.hosts[i].port >= c.n_interfaces)
			abort();
	cfg_free(&c);
	return 0;
}
