#!/bin/sh
# Build test_stats and the statistics module with the thread sanitizer and
# run it: writer threads, the sampler thread and the reader must not race.
set -e
cd "$(dirname "$0")/../.."
mkdir -p build/tsan
clang -std=gnu11 -g -O1 -fsanitize=thread -fno-omit-frame-pointer -Iinclude \
	$(pkg-config --cflags libdpdk) -o build/tsan/test_stats \
	test/unit/test_stats.c src/control/stats.c src/control/log.c \
	$(pkg-config --libs libdpdk) -lcmocka -lpthread -lm
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ./build/tsan/test_stats
