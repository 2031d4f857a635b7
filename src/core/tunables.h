/*
 * tunables.h — the one parser of `start -t KEY=VAL,...` (flowgen(8),
 * start): each engine describes its keys in a table (name, type, range or
 * accepted words, where in the engine's own struct the value goes) and
 * tun_parse fills that struct from the string. Adding a key is adding a
 * row; the error messages come out the same for every engine.
 *
 * Pure: no globals, no I/O, no EAL; control calls it when it prepares a
 * run, the unit tests directly.
 *
 * Included by: every folder.
 */
#ifndef FG_TUNABLES_H
#define FG_TUNABLES_H

#include <stddef.h>

enum tun_type {
	TUN_BOOL,	/* a number, stored as bool: 0 false, anything else true */
	TUN_NUM,	/* a number in min..max, stored as double */
	TUN_WORD,	/* one of words[], stored as int: that word's val */
};

struct tun_word {
	const char *word;
	int val;
};

struct tun_key {
	const char *name;
	enum tun_type type;
	double min, max;		/* TUN_NUM */
	const struct tun_word *words;	/* TUN_WORD, nwords of them */
	size_t nwords;
	size_t off;			/* offsetof the value in the caller's struct */
};

/* One engine's keys; `engine` names it in the error messages. */
struct tun_table {
	const char *engine;
	const struct tun_key *keys;
	size_t nkeys;
};

/*
 * pure: parse t (NULL or "" is nothing to do) into the struct at dst,
 * whose fields the table's offsets point at; keys not in t keep what dst
 * holds. Items are KEY=VAL separated by commas, values of numeric keys are
 * non-negative numbers. 0, or -EINVAL with err set to one of:
 *   -t: too long
 *   -t ITEM: KEY=VAL expected
 *   -t KEY=VAL: unknown key or value[ out of range] (ENGINE: KEY=RANGE, ...)
 *   -t KEY: bad value 'VAL'                (a non-negative number expected)
 * ("out of range" when the table has a key with a range). Keys parsed
 * before an error have been stored.
 */
int tun_parse(const struct tun_table *t, const char *s, void *dst, char *err, size_t errlen);

/* pure: the table's keys as the error message lists them, e.g.
 * "learn=0|1, learn_wait=0..60"; the length, snprintf-style. */
int tun_describe(const struct tun_table *t, char *buf, size_t len);

#endif
