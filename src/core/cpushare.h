/*
 * cpushare.h — whether an lcore shares a CPU with another lcore. With
 * more worker lcores than CPUs (-c, flowgen(8)) the extra lcores are
 * mapped onto the CPUs there are; a worker on a shared CPU must not
 * busy-poll it without a pause (worker.c).
 *
 * Context: pure (unit-tested in test/unit/test_cpushare.c).
 *
 * Included by: control.
 */
#ifndef FG_CPUSHARE_H
#define FG_CPUSHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CPUs 0..CPUSHARE_WORDS*64-1: a CPU set in words of 64 CPUs. */
#define CPUSHARE_WORDS 16

/*
 * pure: lcore i of n has a CPU in its set that another lcore's set has
 * too. sets holds n CPU sets of `words` words each, one after another
 * (CPU c is bit c % 64 of word c / 64).
 */
bool cpushare_shared(const uint64_t *sets, size_t words, unsigned n, unsigned i);

#endif
