# flowgen — build, test, demo, bench.
#
#   make            build build/flowgen
#   make test       install missing packages, build, run unit + e2e tests
#   make test-all   make test, then the long scenarios of test/all/ (the
#                   container image's)
#   make image      the OCI image flowgen:VERSION (podman, mmdebstrap)
#   make demo       the NAT demo of the README on a fresh machine
#   make bench      performance runs (never part of make test);
#                   BASE=REV compares with REV's flowgen round by round
#   make fuzz       long fuzzing runs (clang, libFuzzer)
#   make soak       an hour of flows and streams compressed to ten minutes
#                   through two NAT labs, the API polled 10 times a second,
#                   then a sanitizer minute (test/soak.sh; README, "Longer
#                   runs"); make bench does not run it
#   make SAN=address,undefined ...   sanitizer build under build/san/
#   make PGO=1 [all|install|bench]   build/pgo/flowgen, optimised with
#                   profile feedback from a training run (README)
#   V=1             show the full command lines
#   LTO=            build/flowgen without link-time optimisation

PREFIX  ?= /usr/local
CC      ?= cc
# libpcap: its BPF compiler turns `capture --filter` expressions into the
# classic BPF that rte_bpf_convert makes into an rte_bpf (README).
# libmicrohttpd and jansson: the HTTP API's server (TLS through GnuTLS)
# and its JSON requests and replies (README, "The HTTP API").
PKGS     = libdpdk libedit yaml-0.1 ncursesw libpcap libmicrohttpd jansson

# -O3: against -O2, the TCP connection path (make bench row d) ran 1.07
# times as fast (1.06-1.07, three runs of three trials each, alternating
# with the -O2 build) and no row ran slower (a 1.02, b 1.04, c 1.02, j
# 1.01; doc/BENCHMARKS).
# Sanitizer builds at -O0: the sanitizers check every access and every
# operation as written, and the build is what make test waits for. At -O2
# the DPDK headers' inline code made the sanitizer build of the unit tests
# take three times as long as at -O1, and -O0 takes a third less again
# (95 s against 66 s on one CPU); the sanitized unit tests still run in a
# few seconds, and build/san/flowgen (make soak) runs its light traffic.
ifeq ($(SAN),)
BUILD   := build
SANFLAGS :=
OPT     := -O3 -g
else
BUILD   := build/san
SANFLAGS := -fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all
OPT     := -O0 -g
endif

Q := $(if $(V),,@)

# DPDK's own warning set, plus -Wall -Wextra -Werror.
WARN = -Wall -Wextra -Werror -Wformat=2 -Wformat-security \
       -Wmissing-declarations -Wmissing-prototypes -Wnested-externs \
       -Wold-style-definition -Wpointer-arith -Wsign-compare \
       -Wstrict-prototypes -Wundef -Wwrite-strings \
       -Wno-address-of-packed-member -Wno-packed-not-aligned \
       -Wno-missing-field-initializers

CFLAGS  ?= $(OPT)
CFLAGS  += -std=gnu11 $(WARN) $(shell pkg-config --cflags $(PKGS)) \
           -MMD -MP $(SANFLAGS) -DFG_VERSION=\"$(VERSION)\" -DALLOW_EXPERIMENTAL_API
LDLIBS  += $(shell pkg-config --libs $(PKGS)) -lrte_net_ring -lm -lpthread
LDFLAGS += $(SANFLAGS)

# Link-time optimisation of build/flowgen: a worker's per-frame path runs
# through the flow table, the packet builders and TCP in separate files,
# and their small accessors inline only across files. The objects stay fat
# (plain code beside the LTO form), so the unit tests link them as usual,
# with -fno-lto: without it GCC's linker plugin, which the driver loads
# anyway, took the LTO form and ran a whole-program optimisation for each
# of the 29 unit binaries. Sanitizer builds go without. LTO= turns it off.
# The whole program is one LTO partition: split into several (GCC's
# default), what gets inlined into the hot paths depended on how the
# partitioner cut the program, so a change to control code alone moved
# row d of `make bench` by 2-3 % (flows_rx_burst, flows_arm and tcp_input
# came out of the link in other sizes). One partition links in about 6 s
# more and reads 2.5 % faster on row d than the split build it replaces.
ifeq ($(SAN),)
LTO     ?= -flto=auto -flto-partition=one
endif

# Profile-guided optimisation (make PGO=1): build/pgo/flowgen is built
# twice, by clang (PGO_CC) with whole-program LTO through lld. The first
# build (PGO=gen) counts every branch and call; test/bench/pgo-train.sh
# runs it on make bench's traffic (TCP connections and UDP
# request/response on a loop pair, then streams on net_null) and merges
# the counts with llvm-profdata, the flows' weighted over the streams'; the
# second build (PGO=use) lays out and inlines the code for them. clang,
# not GCC: on row d (TCP CPS) GCC's profile-guided build read 1.07-1.09
# of the plain build and missed the 2.2 M/s target in two runs of three,
# clang's 1.04 of GCC's in four alternated runs (doc/BENCHMARKS). The
# plain build stays GCC's: clang's plain -O3 -flto build
# was no faster over the rows (a 0.97, b 0.98, j 0.98, c 0.95, d 1.03 of
# it in one make bench run). The training runs DPDK ports, so it needs
# root; plain make and make test do not use it.
PGODIR  := $(CURDIR)/build/pgo/prof
PGO_CC  ?= clang
LLVM_PROFDATA ?= llvm-profdata
ifeq ($(PGO),gen)
BUILD   := build/pgo
PGOFLAGS := -fprofile-generate=$(PGODIR)
else ifeq ($(PGO),use)
BUILD   := build/pgo
PGOFLAGS := -fprofile-use=$(PGODIR)/flowgen.profdata -Wno-profile-instr-unprofiled
else ifeq ($(PGO),1)
BUILD   := build/pgo
else ifneq ($(PGO),)
$(error PGO=$(PGO): PGO=1 builds build/pgo/flowgen with profile feedback)
endif
ifneq ($(filter gen use,$(PGO)),)
# clang: its full LTO (one module, as GCC's one partition below), lld to
# link the bitcode, and no GCC-only warning flag
CC      := $(PGO_CC)
LTO     := -flto
LDFLAGS += -fuse-ld=lld
# DPDK 22.11's rte_memcpy.h and rte_ring_elem_pvt.h test GCC_VERSION,
# which clang leaves undefined: -Wundef stays on in the GCC builds
WARN    := $(filter-out -Wno-packed-not-aligned,$(WARN)) -Wno-undef
endif
ifneq ($(and $(PGO),$(SAN)),)
$(error PGO and SAN do not go together)
endif
CFLAGS  += $(PGOFLAGS)
LDFLAGS += $(PGOFLAGS)
ifneq ($(LTO),)
CFLAGS  += $(LTO) $(if $(PGOFLAGS),,-ffat-lto-objects)
endif

VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)

# src/ is cut by who runs the code (README, "Design"): core/ pure, config/
# YAML, dataplane/ worker lcores, control/ the control threads, cmd/ the
# command layer (the command table and its handlers), then the two front
# ends side by side: console/ (the prompt, TAB completion, the dashboard)
# and api/ (HTTP, /flowgen/v1, OTG); main.c on top. Each header sits beside
# its source; include/ holds only the types-only headers every folder
# shares, and they include no header of ours but each other. A folder
# compiles with the -I paths of what it may include and nothing more, so
# an include across the rule fails to compile; a folder with no rule here
# is a build error, and `make` checks that no #include names a path and
# that include/ includes only include/ (test/layout.sh, run before every
# link; test/e2e/06_layout.sh runs the same and more in make test):
#   core       include, core
#   config     + config
#   dataplane  include, core, dataplane
#   control    include, core, config, dataplane, control
#   cmd        + cmd
#   console    + cmd, console (not api)
#   api        + cmd, api (not console)
INC_core      := include src/core
INC_config    := $(INC_core) src/config
INC_dataplane := $(INC_core) src/dataplane
INC_control   := $(INC_core) src/config src/dataplane src/control
INC_cmd       := $(INC_control) src/cmd
INC_console   := $(INC_cmd) src/console
INC_api       := $(INC_cmd) src/api
INC_ALL       := $(INC_cmd) src/console src/api
FOLDERS       := $(sort $(notdir $(patsubst %/,%,$(dir $(wildcard src/*/*.c)))))
$(foreach d,$(FOLDERS),$(if $(INC_$(d)),,$(error src/$(d)/ has no include rule in the Makefile (INC_$(d)): say which folders it may include)))
# the -I flags of src/FOLDER/x.c (src/main.c: all of them)
inc_of = $(addprefix -I,$(if $(findstring /,$(1)),$(INC_$(firstword $(subst /, ,$(1)))),$(INC_ALL)))
SRCS    := $(wildcard src/*.c src/*/*.c)
OBJS    := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(SRCS))
LIBOBJS := $(filter-out $(BUILD)/obj/main.o,$(OBJS))
PCAPS   := profiles/http_simple.pcap
UTESTS  := $(patsubst test/unit/%.c,$(BUILD)/unit/%,$(wildcard test/unit/test_*.c))

.PHONY: all deps test test-all unit e2e demo bench fuzz soak install clean format image image-deps
all: $(BUILD)/flowgen $(PCAPS)

# The captures the shipped profiles replay (profiles/http_simple.yaml),
# written by a script from the source tree rather than kept as binaries.
profiles/http_simple.pcap: examples/http_pcap.py
	@echo "  PCAP    $@"
	$(Q)python3 $< $@

ifeq ($(PGO),1)
# the two builds and the training between them; any source change redoes
# all. A failed training removes the instrumented flowgen, which would
# otherwise pass for an up-to-date build/pgo/flowgen.
$(BUILD)/flowgen: $(SRCS) $(wildcard include/*.h src/*/*.h) test/bench/pgo-train.sh Makefile \
		  $(BUILD)/version
	$(Q)rm -rf build/pgo
	$(Q)$(MAKE) --no-print-directory PGO=gen build/pgo/flowgen
	$(Q)mkdir -p $(PGODIR)
	$(Q)LLVM_PROFDATA=$(LLVM_PROFDATA) test/bench/pgo-train.sh build/pgo/flowgen \
		$(PGODIR)/flowgen.profdata || { rm -f build/pgo/flowgen; exit 1; }
	$(Q)rm -rf build/pgo/obj build/pgo/flowgen
	$(Q)$(MAKE) --no-print-directory PGO=use build/pgo/flowgen
else
$(BUILD)/flowgen: $(OBJS) $(BUILD)/layout.ok
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) $(LTO) $(filter -O% -g,$(CFLAGS)) -o $@ $(OBJS) $(LDLIBS)
endif

# test/layout.sh: the include rule's part that -I cannot enforce
$(BUILD)/layout.ok: $(SRCS) $(wildcard include/*.h src/*/*.h) test/layout.sh
	@mkdir -p $(BUILD)
	$(Q)test/layout.sh && touch $@

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(call inc_of,$*) -c -o $@ $<

# main.o, api.o (GET /capabilities/version) and capture.o (the pcapng
# writer's application name) print the version: they are rebuilt when
# `git describe` changes.
$(BUILD)/version: FORCE
	@mkdir -p $(BUILD)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' >$@
$(BUILD)/obj/main.o $(BUILD)/obj/api/api.o $(BUILD)/obj/control/capture.o: $(BUILD)/version
FORCE:

$(BUILD)/libflowgen.a: $(LIBOBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/unit/%: test/unit/%.c $(BUILD)/libflowgen.a
	@mkdir -p $(dir $@)
	@echo "  UNIT    $@"
	$(Q)$(CC) $(filter-out $(LTO) -ffat-lto-objects,$(CFLAGS)) $(if $(LTO),-fno-lto) $(addprefix -I,$(INC_ALL)) -o $@ $< $(BUILD)/libflowgen.a \
		$(LDFLAGS) $(LDLIBS) -lcmocka

unit: $(UTESTS) $(PCAPS)

# Debian packages needed to build, test and run the lab. librte-net-af-xdp23
# is DPDK's net_af_xdp driver (with libxdp and libbpf), which dpdk pulls in
# on Debian 12: named since the af_xdp ports need it at run time (README).
# lld and llvm: make PGO=1's clang build links with lld and merges its
# counts with llvm-profdata.
# prometheus (promtool and the server) and python3-prometheus-client (the
# OpenMetrics parser): GET /metrics' checks (test/e2e/99_prometheus.sh).
DEB_PKGS = build-essential pkg-config groff-base man-db libdpdk-dev dpdk dpdk-dev libedit-dev \
           libyaml-dev libncurses-dev libcmocka-dev iproute2 nftables \
           conntrack tmux ethtool python3 clang libclang-rt-14-dev lld llvm iputils-ping procps netcat-openbsd \
           libpcap-dev tshark tayga libmicrohttpd-dev libjansson-dev curl openssl \
           librte-net-af-xdp23 prometheus python3-prometheus-client
# apt_install PACKAGES : installs those of PACKAGES that are not installed
apt_install = @missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null \
	   | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "  DEPS    installing:" $$missing; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
# nodejs and npm: 99_k8s.sh checks deploy/kubernetes with npm packages
# (test/k8s). Installed only where no npm is found: a Node.js of another
# origin (NodeSource's nodejs provides npm and conflicts with Debian's)
# is used as it is; Debian 12's (node 18, npm 9) runs the check as well.
deps:
	$(call apt_install,$(DEB_PKGS) $(if $(shell command -v npm),,nodejs npm))

# The container image (make image; README, "Container image"): flowgen's
# runtime packages on Debian 12's minbase, made by mmdebstrap from this
# machine's apt mirror and imported by podman, with no image registry
# (image/build.sh). IMAGE_DEBS: the packages of flowgen's own shared
# libraries (objdump -p build/flowgen: its NEEDED), then the DPDK drivers
# it opens ports with, which DPDK loads from their directory at start
# rather than flowgen linking them: the mempool driver of every mbuf pool
# (librte-mempool-ring23) and the net_af_packet, net_af_xdp and net_null
# ports (net_ring, the loop ports, is linked). IMAGE_EXTRA: more packages,
# such as a NIC's PCI driver (make image IMAGE_EXTRA=librte-net-ixgbe23).
IMAGE_DEBS = librte-eal23 librte-ethdev23 librte-mbuf23 librte-mempool23 librte-ring23 \
             librte-bpf23 librte-pcapng23 librte-net-ring23 libedit2 libyaml-0-2 \
             libncursesw6 libtinfo6 libpcap0.8 libmicrohttpd12 libjansson4 \
             librte-mempool-ring23 librte-net-af-packet23 librte-net-af-xdp23 librte-net-null23
# what builds it: not in DEB_PKGS, make test does not need them
IMAGE_TOOLS = podman mmdebstrap
image-deps: deps
	$(call apt_install,$(IMAGE_TOOLS))

# flowgen:$(VERSION) and flowgen:latest; build/image is the root that
# make install fills for it
image: image-deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)rm -rf build/image
	$(Q)$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/build/image PREFIX=/usr >/dev/null
	$(Q)image/build.sh $(VERSION) build/image $(IMAGE_DEBS) $(IMAGE_EXTRA)

# flowgen and the unit binaries first, together: the unit binaries build
# on the CPU that flowgen's link (one LTO partition, about 20 s on one
# CPU) leaves idle. make -j2 from a clean clone, 2026-12-06: flowgen 56
# s, the unit binaries after it 27 s more, both together 72 s. The
# sanitizer builds and the fuzz harnesses build behind the scenarios
# (test/run.sh --build).
test: deps
	$(Q)$(MAKE) --no-print-directory -j$$(nproc) all unit
	$(Q)test/run.sh --build

# make test, then the scenarios too long for it, test/all/[0-9]*.sh
# (10_image.sh builds the image and runs it), by the same driver, each
# with its own "N passed, N failed"; both run, and it fails if either
# failed. A long scenario is added as test/all/NN_name.sh.
test-all:
	$(Q)t=passed; a=passed; $(MAKE) --no-print-directory test || t=failed; \
	test/run.sh --dir test/all || a=failed; \
	echo "make test-all: make test $$t, test/all $$a"; [ $$t$$a = passedpassed ]

demo: deps all
	$(Q)examples/demo.sh

# BASE=REV: each row's flowgen figure against REV's, round by round
# (test/bench/run.sh).
bench: deps all
	$(Q)BASE=$(BASE) FG=$(BUILD)/flowgen test/bench/run.sh

fuzz: deps
	$(Q)test/fuzz/run.sh long

soak: deps all
	$(Q)test/soak.sh

install: all
	install -D -m 0755 $(BUILD)/flowgen $(DESTDIR)$(PREFIX)/bin/flowgen
	install -D -m 0644 man/flowgen.8 $(DESTDIR)$(PREFIX)/share/man/man8/flowgen.8
	install -D -m 0644 man/flowgen-profile.5 $(DESTDIR)$(PREFIX)/share/man/man5/flowgen-profile.5
	install -d $(DESTDIR)$(PREFIX)/share/flowgen/profiles
	install -m 0644 profiles/*.yaml $(PCAPS) $(DESTDIR)$(PREFIX)/share/flowgen/profiles/

format:
	clang-format -i src/*.c src/*/*.c src/*/*.h include/*.h test/unit/*.c

clean:
	rm -rf build $(PCAPS)

-include $(OBJS:.o=.d)
