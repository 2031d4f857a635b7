/*
 * cfg_data.c — look-ups on a loaded platform config (cfg_data.h): the
 * port_info entry of a port, which port.c reads when it brings the ports
 * up, and the name of an interface kind. Pure: each reads only the config
 * it is given, which cfg_load (cfg.c) built.
 */
#include <stddef.h>

#include "cfg_data.h"

const char *const cfg_if_kind_names[CFG_IF_KIND_COUNT] = {
    [CFG_IF_PCI] = "pci",
    [CFG_IF_VDEV] = "vdev",
    [CFG_IF_LOOP] = "loop",
};

const char *cfg_if_kind_name(enum cfg_if_kind k)
{
	if (k < CFG_IF_PCI || k > CFG_IF_LOOP)
		return "?";
	return cfg_if_kind_names[k];
}

const struct cfg_port_info *cfg_port_info(const struct cfg *c, unsigned port)
{
	if (port >= c->n_port_info)
		return NULL;
	return &c->port_info[port];
}
