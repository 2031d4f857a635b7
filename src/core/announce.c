/*
 * announce.c — when a port announces its own addresses after its link
 * came up: the edge and RFC 5227's schedule (announce.h).
 */
#include "announce.h"

unsigned announce_step(struct announce *a, bool up, uint64_t now_ms)
{
	bool edge = a->seen && up && !a->up;
	bool first;

	a->seen = true;
	a->up = up;
	if (!up) {
		a->left = 0;
		return 0;
	}
	if (edge) {
		a->left = ANNOUNCE_NUM;
		a->next_ms = now_ms + ANNOUNCE_SETTLE_MS;
	}
	if (!a->left || now_ms < a->next_ms)
		return 0;
	first = a->left == ANNOUNCE_NUM;
	a->left--;
	a->next_ms = now_ms + ANNOUNCE_INTERVAL_MS;
	return first ? ANNOUNCE_FIRST_COPIES : 1;
}
