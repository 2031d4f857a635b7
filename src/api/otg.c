/*
 * otg.c — the OTG model handlers' entry (otg.h): the table of OTG paths
 * and methods, the JSON bodies in and the Error / Warning replies out,
 * the config the handlers share (the Config as posted and its plan), and
 * POST /control/state: flow_transmit start, stop, pause and resume over
 * the run module (a plan built as a streams profile in memory and started
 * like `start -f`, refused in control's words), port capture start and
 * stop. Runs on the console's
 * thread; the translation itself is pure (otg_plan.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_req.h"
#include "capture.h"
#include "errval.h"
#include "otg.h"
#include "otg_int.h"
#include "port.h"
#include "prof.h"
#include "run.h"

static struct otg_state otg_st;

struct otg_state *otg_state(void) { return &otg_st; }

void otg_fini(void)
{
	json_decref(otg_st.config);
	otg_plan_free(&otg_st.plan);
	memset(&otg_st, 0, sizeof(otg_st));
}

/* --- replies ------------------------------------------------------------------------ */

struct otg_reply {
	int *status;
	char **body;
	size_t *len;
	const char **ctype;
};

/* The model's Error: {"code": status, "kind": ..., "errors": [msg]} (api_error_body). */
static void reply_error(struct otg_reply *r, int status, const char *msg)
{
	*r->status = status;
	*r->body = api_error_body(status, status >= 500 ? "internal" : "validation", msg, r->len);
	*r->ctype = "application/json";
}

static void reply_json(struct otg_reply *r, int status, json_t *j)
{
	*r->body = api_json_body(j, r->len);
	*r->status = status;
	*r->ctype = "application/json";
	if (!*r->body)
		reply_error(r, 500, "out of memory");
}

/* The model's Warning: {"warnings": [...]}, status 200. */
static void reply_warnings(struct otg_reply *r, char *const *w, size_t n, const char *extra)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(w[i]));
	if (a && extra)
		json_array_append_new(a, json_string(extra));
	reply_json(r, 200, a ? json_pack("{s:o}", "warnings", a) : NULL);
}

/* The tester's ports as the translation sees them. */
static void otg_env_get(struct otg_env *env)
{
	memset(env, 0, sizeof(*env));
	env->nports = fg_nports;
	for (int p = 0; p < fg_nports && p < FG_MAX_PORTS; p++) {
		snprintf(env->iface[p], sizeof(env->iface[p]), "%s", fg_port[p].name);
		snprintf(env->kiface[p], sizeof(env->kiface[p]), "%s", fg_port[p].kiface);
		env->vlan[p] = fg_port[p].v.vlan;
	}
}

/* --- /config ------------------------------------------------------------------------ */

/* The profile of the flows loads (it always should: a plan the loader
 * refuses is a translation bug, answered as such). */
static int plan_check(const struct otg_plan *pl, char *err, size_t errlen)
{
	char perr[FG_ERRLEN];
	struct prof p;
	int rc = otg_plan_prof(pl, NULL, &p, perr, sizeof(perr));

	if (rc == -ENOENT)
		return 0; /* no flow */
	if (rc) {
		struct otg_err e = {err, errlen};

		return otg_fail(&e, "flows", "flowgen's profile of them is refused: %s", perr);
	}
	prof_free(&p);
	return 0;
}

static void h_set_config(struct otg_reply *r, json_t *body)
{
	struct otg_env env;
	struct otg_plan pl;
	char err[FG_ERRLEN];

	otg_env_get(&env);
	if (otg_plan_from_json(body, &env, &pl, err, sizeof(err)) ||
	    plan_check(&pl, err, sizeof(err))) {
		otg_plan_free(&pl);
		reply_error(r, 400, err);
		return;
	}
	if (otg_st.running) { /* a new config replaces the flows of the run */
		(void)run_stop(false);
		otg_st.running = otg_st.paused = false;
	}
	otg_fini();
	otg_st.config = json_incref(body);
	otg_st.plan = pl;
	otg_st.have = true;
	reply_warnings(r, pl.warnings, pl.n_warnings, NULL);
}

static void h_get_config(struct otg_reply *r, json_t *body)
{
	(void)body;
	reply_json(r, 200, otg_st.config ? json_incref(otg_st.config) : json_object());
}

/* --- /control/state ----------------------------------------------------------------- */

/* flow_names as picks of the plan's flows (none: every flow); false and
 * err when a name is unknown. */
static bool pick_flows(const json_t *names, bool *pick, bool *all, char *err, size_t errlen)
{
	size_t n = json_array_size(names);

	*all = !n;
	for (size_t i = 0; i < otg_st.plan.n_flows; i++)
		pick[i] = !n;
	for (size_t i = 0; i < n; i++) {
		const json_t *v = json_array_get(names, i);
		int f = json_is_string(v) ? otg_plan_flow(&otg_st.plan, json_string_value(v)) : -1;

		if (f < 0) {
			snprintf(err, errlen, "traffic.flow_transmit.flow_names[%zu]: no such flow",
				 i);
			return false;
		}
		pick[f] = true;
	}
	if (n) {
		*all = true;
		for (size_t i = 0; i < otg_st.plan.n_flows; i++)
			*all = *all && pick[i];
	}
	return true;
}

/*
 * Start the picked flows: their profile, built in memory, started by
 * run_start as the API's run. What control refuses (a run of the
 * console's going, a next hop unresolved, a rate the links cannot carry)
 * is answered in control's words, as the console prints them.
 */
static int flows_start(const bool *pick, char *err, size_t errlen)
{
	struct run_params rp = {.mult = {.kind = UNITS_MULT, .value = 1}};
	struct otg_err oe = {err, errlen};
	char perr[FG_ERRLEN];
	struct fg_error fe;
	struct run_prof *sp;
	struct prof p;
	int rc = otg_plan_prof(&otg_st.plan, pick, &p, perr, sizeof(perr));

	if (rc == -ENOENT)
		return otg_fail(&oe, "traffic.flow_transmit", "no flow to start");
	if (rc)
		return otg_fail(&oe, "traffic.flow_transmit",
				"flowgen's profile of the flows is refused: %s", perr);
	sp = run_prof_new(&p, &fe);
	if (!sp)
		return otg_fail(&oe, "traffic.flow_transmit", "%s", fe.message);
	rp.duration_s = otg_st.plan.duration_s;
	/* no RFC 2544 learning frames: an OTG flow sends what it asks and
	 * nothing before it, so a port's frames_tx is the sum of its flows' */
	rp.tunables = "learn=0";
	rc = run_start(sp, &rp, RUN_FORCE, "traffic.flow_transmit", &fe);
	run_prof_put(sp);
	if (rc) {
		fg_error_text(&fe, err, errlen);
		return -EINVAL;
	}
	return 0;
}

static int flow_transmit(const json_t *ft, char *err, size_t errlen)
{
	static const char *const keys[] = {"flow_names", "state", NULL};
	struct otg_err e = {err, errlen};
	bool pick[OTG_MAX_FLOWS], all, same = true;
	char state[16];
	int bad;
	const json_t *names;

	if (!json_is_object(ft))
		return otg_fail(&e, "traffic.flow_transmit", "required");
	if (otg_keys(&e, "traffic.flow_transmit", ft, keys) ||
	    otg_get_str(&e, "traffic.flow_transmit", ft, "state", "", state, sizeof(state)) ||
	    (names = otg_get(&e, "traffic.flow_transmit", ft, "flow_names", JSON_ARRAY, &bad), bad))
		return -EINVAL;
	if (!otg_st.have)
		return otg_fail(&e, "traffic.flow_transmit", "no config: POST /config first");
	if (!pick_flows(names, pick, &all, err, errlen))
		return -EINVAL;
	for (size_t i = 0; i < otg_st.plan.n_flows; i++)
		same = same && pick[i] == otg_st.picked[i];
	if (!strcmp(state, "start")) {
		if (!all && otg_st.running && run_active() && !same)
			return otg_fail(
			    &e, "traffic.flow_transmit.flow_names",
			    "not supported: "
			    "flowgen starts the flows of a run together; stop them first");
		if (flows_start(pick, err, errlen))
			return -EINVAL;
		memcpy(otg_st.picked, pick, sizeof(pick));
		otg_st.running = true;
		otg_st.paused = false;
		return 0;
	}
	if (strcmp(state, "stop") && strcmp(state, "pause") && strcmp(state, "resume"))
		return otg_fail(&e, "traffic.flow_transmit.state",
				"must be start, stop, pause or "
				"resume");
	if (!otg_st.running && !strcmp(state, "stop"))
		return 0; /* nothing runs: stopped already */
	if (!all && !same)
		return otg_fail(&e, "traffic.flow_transmit.flow_names",
				"not supported: flowgen "
				"%ss the flows of a run together (all of them, or those started)",
				state);
	if (!strcmp(state, "stop")) {
		(void)run_stop(false);
		otg_st.running = otg_st.paused = false;
		return 0;
	}
	if (run_pause(!strcmp(state, "pause")) != 0)
		return otg_fail(&e, "traffic.flow_transmit", "no traffic running");
	otg_st.paused = !strcmp(state, "pause");
	return 0;
}

static int port_capture(const json_t *pc, char *err, size_t errlen)
{
	static const char *const keys[] = {"port_names", "state", NULL};
	struct otg_err e = {err, errlen};
	uint32_t mask = 0, have = 0;
	char state[16], fp[64];
	int bad;
	const json_t *names;

	if (!json_is_object(pc))
		return otg_fail(&e, "port.capture", "required");
	if (otg_keys(&e, "port.capture", pc, keys) ||
	    otg_get_str(&e, "port.capture", pc, "state", "", state, sizeof(state)) ||
	    (names = otg_get(&e, "port.capture", pc, "port_names", JSON_ARRAY, &bad), bad))
		return -EINVAL;
	if (strcmp(state, "start") && strcmp(state, "stop"))
		return otg_fail(&e, "port.capture.state", "must be start or stop");
	for (size_t i = 0; i < otg_st.plan.n_caps; i++)
		have |= otg_st.plan.caps[i].port_mask;
	for (size_t i = 0; i < json_array_size(names); i++) {
		const json_t *v = json_array_get(names, i);
		int k = json_is_string(v) ? otg_plan_port(&otg_st.plan, json_string_value(v)) : -1;

		snprintf(fp, sizeof(fp), "port.capture.port_names[%zu]", i);
		if (k < 0)
			return otg_fail(&e, fp, "no such port");
		if (!(have >> otg_st.plan.ports[k].index & 1))
			return otg_fail(&e, fp, "no capture in the config names this port");
		mask |= 1u << otg_st.plan.ports[k].index;
	}
	if (!json_array_size(names))
		mask = have;
	if (!strcmp(state, "start") && !mask)
		return otg_fail(&e, "port.capture", "no capture in the config");
	return otg_capture_state(!strcmp(state, "start"), mask, err, errlen);
}

static void h_control_state(struct otg_reply *r, json_t *body)
{
	static const char *const names[] = {"", "port", "protocol", "traffic", NULL};
	static const char *const keys[] = {"choice", "port", "protocol", "traffic", NULL};
	static const char *const tkeys[] = {"choice", "flow_transmit", NULL};
	static const char *const pkeys[] = {"choice", "capture", "link", NULL};
	static const char *const tnames[] = {"", "flow_transmit", NULL};
	static const char *const pnames[] = {"", "capture", "link", NULL};
	char err[FG_ERRLEN];
	struct otg_err e = {err, sizeof(err)};
	int ch = 0, sub = 0, rc;
	const json_t *o;

	if (otg_keys(&e, "control_state", body, keys) ||
	    otg_choice(&e, "control_state", body, names, 0, &ch))
		return reply_error(r, 400, err);
	if (ch == 0 || ch == 2) {
		otg_fail(&e, ch ? "protocol" : "choice", "%s",
			 ch ? "not supported: flowgen runs no protocols"
			    : "required (port, protocol or traffic)");
		return reply_error(r, 400, err);
	}
	o = json_object_get(body, names[ch]);
	if (!json_is_object(o) || otg_keys(&e, names[ch], o, ch == 3 ? tkeys : pkeys) ||
	    otg_choice(&e, names[ch], o, ch == 3 ? tnames : pnames, 0, &sub)) {
		if (!json_is_object(o))
			otg_fail(&e, names[ch], "required (an object)");
		return reply_error(r, 400, err);
	}
	if (ch == 3 && sub == 1)
		rc = flow_transmit(json_object_get(o, "flow_transmit"), err, sizeof(err));
	else if (ch == 1 && sub == 1)
		rc = port_capture(json_object_get(o, "capture"), err, sizeof(err));
	else
		rc = otg_fail(&e, names[ch], "%s: not supported",
			      sub ? (ch == 3 ? tnames : pnames)[sub] : "choice");
	if (rc)
		return reply_error(r, 400, err);
	reply_warnings(r, NULL, 0, NULL);
}

/* --- /monitor ----------------------------------------------------------------------- */

static void h_metrics(struct otg_reply *r, json_t *body)
{
	char err[FG_ERRLEN];
	json_t *resp = NULL;

	if (otg_metrics(body, &resp, err, sizeof(err)))
		return reply_error(r, 400, err);
	reply_json(r, 200, resp);
}

static void h_capture(struct otg_reply *r, json_t *body)
{
	char err[FG_ERRLEN];
	uint8_t *buf = NULL;
	size_t len = 0;
	int status = 400;

	if (otg_capture_get(body, &buf, &len, &status, err, sizeof(err)))
		return reply_error(r, status, err);
	*r->status = 200;
	*r->body = (char *)buf;
	*r->len = len;
	*r->ctype = "application/octet-stream";
}

/* --- dispatch ----------------------------------------------------------------------- */

struct otg_route {
	const char *method, *path;
	void (*fn)(struct otg_reply *r, json_t *body); /* NULL: a path of the model flowgen lacks */
};

static const struct otg_route routes[] = {
    {"POST", "/config", h_set_config},
    {"GET", "/config", h_get_config},
    {"POST", "/control/state", h_control_state},
    {"POST", "/monitor/metrics", h_metrics},
    {"POST", "/monitor/capture", h_capture},
    {"PATCH", "/config", NULL},
    {"POST", "/config/append", NULL},
    {"POST", "/config/delete", NULL},
    {"POST", "/control/action", NULL},
    {"POST", "/monitor/states", NULL},
};

bool otg_handle(const char *method, const char *path, const char *body, size_t body_len,
		int *status, char **reply, size_t *reply_len, const char **ctype)
{
	struct otg_reply r = {status, reply, reply_len, ctype};
	size_t plen = strcspn(path, "?");
	const struct otg_route *hit = NULL;
	bool known = false;
	char msg[FG_ERRLEN];
	json_error_t je;
	json_t *j = NULL;

	for (size_t i = 0; i < FG_ARRAY_SIZE(routes); i++) {
		if (strlen(routes[i].path) != plen || strncmp(routes[i].path, path, plen))
			continue;
		known = true;
		if (!strcmp(routes[i].method, method))
			hit = &routes[i];
	}
	if (!known)
		return false;
	if (!hit || !hit->fn) {
		snprintf(msg, sizeof(msg), "%s %.*s: not supported by flowgen", method, (int)plen,
			 path);
		reply_error(&r, hit ? 501 : 405, msg);
		return true;
	}
	if (!strcmp(method, "POST")) {
		j = json_loadb(body ? body : "", body ? body_len : 0, JSON_REJECT_DUPLICATES, &je);
		if (!j || !json_is_object(j)) {
			if (j)
				snprintf(msg, sizeof(msg), "body: must be a JSON object");
			else
				snprintf(msg, sizeof(msg),
					 "body: malformed JSON at line %d column %d: %s", je.line,
					 je.column, je.text);
			json_decref(j);
			reply_error(&r, 400, msg);
			return true;
		}
	}
	hit->fn(&r, j);
	json_decref(j);
	return true;
}
