/*
 * otg_stub.c — a stand-in for the OTG model's handlers (otg.h): every
 * OTG path (/config, /control/..., /monitor/...) is answered 501 with an
 * OTG Error saying it is not implemented, and any other path is left to
 * the API's 404. The handlers proper replace this file.
 *
 * Context: control, on the console's thread.
 */
#include <string.h>

#include "api_req.h"
#include "otg.h"

static bool otg_path(const char *path)
{
	static const char *const roots[] = {"/control/", "/monitor/"};

	if (strcmp(path, "/config") == 0)
		return true;
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (strncmp(path, roots[i], strlen(roots[i])) == 0)
			return true;
	return false;
}

bool otg_handle(const char *method, const char *path, const char *body, size_t body_len,
		int *status, char **reply, size_t *reply_len, const char **ctype)
{
	(void)method;
	(void)body;
	(void)body_len;
	if (!otg_path(path))
		return false;
	*status = 501;
	*reply = api_error_body(501, "internal", "not implemented", reply_len);
	*ctype = "application/json";
	return true;
}
