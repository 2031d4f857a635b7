#!/bin/sh
# Build test_stats and the statistics module with the thread sanitizer and
# run it: writer threads, the sampler thread and the reader must not race.
#
#   test/unit/tsan.sh          build build/tsan/test_stats and run it
#   test/unit/tsan.sh build    build it only (`make test`; test/run.sh runs
#                              it and counts its tests)
#
# The previous binary is removed first: a build that fails leaves none, so
# an old binary never stands in for the current sources.
set -e
cd "$(dirname "$0")/../.."
mkdir -p build/tsan
rm -f build/tsan/test_stats
clang -std=gnu11 -g -O1 -fsanitize=thread -fno-omit-frame-pointer -Iinclude -Isrc/core -Isrc/config -Isrc/dataplane -Isrc/control \
	$(pkg-config --cflags libdpdk) -o build/tsan/test_stats \
	test/unit/test_stats.c src/control/stats.c src/control/stats_json.c src/control/stats_fmt.c src/control/log.c \
	src/control/clock.c src/core/stats_snap.c src/core/fails.c src/core/tcp.c src/core/tsc.c src/core/offer.c src/core/json.c src/core/lat.c src/core/wallclock.c src/core/nud.c src/core/port_addr.c \
	$(pkg-config --libs libdpdk jansson) -lcmocka -lpthread -lm
[ "${1:-}" = build ] && exit 0
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ./build/tsan/test_stats
