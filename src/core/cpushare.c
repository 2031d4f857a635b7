/*
 * cpushare.c — whether an lcore shares a CPU with another (cpushare.h).
 */
#include "cpushare.h"

bool cpushare_shared(const uint64_t *sets, size_t words, unsigned n, unsigned i)
{
	if (i >= n)
		return false;
	for (unsigned j = 0; j < n; j++) {
		if (j == i)
			continue;
		for (size_t k = 0; k < words; k++)
			if (sets[(size_t)i * words + k] & sets[(size_t)j * words + k])
				return true;
	}
	return false;
}
