/*
 * otg_capture.c — the captures of the OTG model over flowgen's capture
 * module (capture.h): port capture start and stop (POST /control/state;
 * the frames each port receives), and POST /monitor/capture, which saves
 * the capture into memory (capture_save_mem: no file between), takes the
 * one port asked for out of the pcapng bytes (otg_pcap.c) and answers it
 * as pcap or pcapng, the format the config's capture gave that port. Runs
 * on the console's thread.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "otg_int.h"
#include "port.h"

int otg_capture_state(bool start, uint32_t port_mask, char *err, size_t errlen)
{
	struct cap_opts o = {.rx_ports = port_mask, .ring = CAP_RING_DEFAULT};
	struct cap_status st;

	capture_status(&st);
	if (!start) {
		(void)capture_stop(); /* none running: stopped already */
		return 0;
	}
	if (st.running && (st.rx_ports & port_mask) == port_mask)
		return 0; /* those ports are being captured */
	if (st.running) {
		snprintf(err, errlen,
			 "port.capture: a capture runs already (on ports %#llx): "
			 "flowgen runs one capture at a time; stop it first",
			 (unsigned long long)(st.rx_ports | st.tx_ports));
		return -EBUSY;
	}
	if (capture_start(&o, err, errlen)) {
		char why[FG_ERRLEN];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "port.capture: %s", why);
		return -EINVAL;
	}
	return 0;
}

int otg_capture_get(const json_t *req, uint8_t **reply, size_t *len, int *status, char *err,
		    size_t errlen)
{
	static const char *const keys[] = {"port_name", "packets", NULL};
	struct otg_state *st = otg_state();
	struct otg_err e = {err, errlen};
	char name[OTG_NAME_MAX];
	const struct otg_capture *cap = NULL;
	uint8_t *buf;
	size_t blen = 0;
	int64_t saved;
	int k, port, rc;

	*status = 400;
	if (otg_keys(&e, "capture_request", req, keys) ||
	    otg_get_str(&e, "capture_request", req, "port_name", "", name, sizeof(name)))
		return -EINVAL;
	if (json_object_get(req, "packets"))
		return otg_fail(&e, "capture_request.packets",
				"not supported: the reply holds "
				"every packet captured");
	k = otg_plan_port(&st->plan, name);
	if (k < 0)
		return otg_fail(&e, "capture_request.port_name", "no port named '%.64s'", name);
	port = st->plan.ports[k].index;
	for (size_t i = 0; i < st->plan.n_caps && !cap; i++)
		if (st->plan.caps[i].port_mask >> port & 1)
			cap = &st->plan.caps[i];
	if (!cap)
		return otg_fail(&e, "capture_request.port_name",
				"no capture in the config names port '%s'", name);
	/* in memory, no file between; stops a running capture first */
	saved = capture_save_mem(&buf, &blen, err, errlen);
	if (saved < 0) {
		char why[FG_ERRLEN];

		if (saved != -ENOENT)
			*status = 500;
		snprintf(why, sizeof(why), "%s", err);
		return otg_fail(&e, saved == -ENOENT ? "capture_request.port_name" : "capture",
				"%s", why);
	}
	rc = otg_pcapng_port(buf, blen, fg_port[port].v.id, !cap->pcapng, reply, len);
	free(buf);
	if (rc) {
		*status = 500;
		return otg_fail(&e, "capture", "the capture file is unreadable (%s)",
				strerror(-rc));
	}
	return 0;
}
