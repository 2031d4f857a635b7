#!/bin/sh
# Build the dashboard demo (synthetic counters, no ports) as build/tui_demo.
set -e
cd "$(dirname "$0")/../.."
mkdir -p build
${CC:-cc} -std=gnu11 -g -O1 -Wall -Wextra -Iinclude \
	$(pkg-config --cflags libdpdk ncursesw) -o build/tui_demo \
	test/tui/demo.c src/control/stats.c src/control/stats_fmt.c src/console/tui.c src/control/log.c \
	$(pkg-config --libs libdpdk ncursesw) -lpthread -lm
