#!/usr/bin/env bash
# 10_image.sh — the container image (`make image`; README, "Container
# image"), in make test-all:
#   1. make image builds flowgen:VERSION and flowgen:latest (FG_IMAGE names
#      an image to test as it is instead);
#   2. the image holds flowgen as its entry point, its man pages and
#      profiles, the DPDK drivers of its virtual ports, every shared library
#      they need, and no compiler;
#   3. run from the image: `flowgen --version`, then a 2 s streams run on a
#      [loop, loop] pair three times: with hugepages free and /dev/hugepages
#      mounted; with hugepages free and no /dev/hugepages; with no hugepages
#      at all (flowgen picks --no-huge itself). Each sends its 2,000 frames
#      (1 kpps for 2 s: what it sent and what it counted late add up to
#      them, as in 13_instances.sh) and receives what it sent.
# The runs go through `podman run` with podman's default capabilities,
# where podman can start a container. Where it cannot because the machine
# lets no process raise RLIMIT_NOFILE (a sandbox: crun's "setrlimit
# `RLIMIT_NOFILE`: Operation not permitted"), they run from the image's
# own file system instead: `podman image mount` and chroot, in a mount
# namespace of their own (nothing of it outlives the run) holding /proc,
# /sys, a /dev of the usual device nodes (with /dev/hugepages when the run
# has it), tmpfs on /run and /tmp and the config's folder read-only on
# /mnt; the image's entry point and working directory, a container's
# environment, and the bounding set of podman's default capabilities
# (setpriv). The path taken is printed; any other failure of podman run
# fails, and so does every check of a run that could not start.
# FG_PODMAN_ARGS: more options for podman run (a runtime, ulimits).
. "$(dirname "$0")/../e2e/lib.sh"

need_root "image: podman, chroot and the hugepages sysctl"
cd "$FG_TOP" || exit 1
version=$(git describe --always --dirty 2>/dev/null || echo 0.1)

# --- 1. build ------------------------------------------------------------------

if [ -n "${FG_IMAGE:-}" ]; then
	IMAGE=$FG_IMAGE
	echo "# image: testing $IMAGE as it is (FG_IMAGE)"
else
	IMAGE=flowgen:$version
	t0=$SECONDS
	# MAKEFLAGS: not a jobserver of make test-all's, whose descriptors
	# test/run.sh does not pass on
	if MAKEFLAGS= make --no-print-directory image >"$FG_TMP/make.out" 2>&1; then
		pass "make image builds $IMAGE"
		echo "# make image took $((SECONDS - t0)) s: $(grep '^image: .* and .*:latest' "$FG_TMP/make.out")"
	else
		# an image of that name from before is not this tree's
		fail "make image builds $IMAGE" "$(tail -n 5 "$FG_TMP/make.out")"
		exit 1
	fi
fi
if ! command -v podman >/dev/null || ! podman image exists "$IMAGE"; then
	fail "image: $IMAGE exists" "no such image (make image)"
	exit 1
fi
id=$(podman image inspect --format '{{.Id}}' "$IMAGE")
echo "# image: $IMAGE is ${id:0:12}, $(podman image inspect --format '{{.Size}}' "$id" | awk '{printf "%.0f MB", $1 / 1e6}')"
mapfile -t conf < <(podman image inspect --format '{{json .Config.Entrypoint}}
{{.Config.WorkingDir}}
{{index .Config.Labels "org.opencontainers.image.version"}}' "$id")
check_eq "image: its entry point is flowgen" '["/usr/bin/flowgen"]' "${conf[0]}"
if [ -z "${FG_IMAGE:-}" ]; then
	check_eq "image: its version label is this tree's" "$version" "${conf[2]:-}"
else
	version=${conf[2]:-unknown}
fi
# the entry point and working directory a container starts with, as argv
entry=$(python3 -c 'import json, sys; print(" ".join(json.loads(sys.argv[1]) or []))' "${conf[0]}" 2>/dev/null)
workdir=${conf[1]:-/}

# --- 2. what it holds (read from the mounted image, nothing run) ------------

mnt=$(podman image mount "$id" 2>"$FG_TMP/mount.err") || mnt=
at_exit "podman image unmount $id"
if [ -z "$mnt" ] || [ ! -d "$mnt/usr" ]; then
	fail "image: podman image mount" "$(cat "$FG_TMP/mount.err")"
	exit 1
fi
check "image: /usr/bin/flowgen" test -x "$mnt/usr/bin/flowgen"
check "image: flowgen(8) and flowgen-profile(5)" \
	test -f "$mnt/usr/share/man/man8/flowgen.8" -a -f "$mnt/usr/share/man/man5/flowgen-profile.5"
check_eq "image: every profile of the tree" \
	"$(cd profiles && ls -- *.yaml *.pcap | sort | tr '\n' ' ')" \
	"$(cd "$mnt/usr/share/flowgen/profiles" 2>/dev/null && ls -- *.yaml *.pcap | sort | tr '\n' ' ')"
for d in net_af_packet net_af_xdp net_null net_ring mempool_ring; do
	check_eq "image: DPDK's $d driver, where DPDK loads its drivers from" 1 \
		"$(find "$mnt/usr/lib/" -path '*/dpdk/pmds-*' -name "librte_$d.so.*" -type f | wc -l)"
done
chroot "$mnt" sh -c 'ldd /usr/bin/flowgen /usr/lib/*/dpdk/pmds-*/*.so.*' >"$FG_TMP/ldd" 2>&1
check_grep "image: ldd runs in it" 'librte_eal\.so.* => /' "$FG_TMP/ldd"
check_eq "image: every library of flowgen and of the drivers is in it" "" \
	"$(awk '/^\// { f = $1 } / not found/ { printf "%s %s; ", f, $1 }' "$FG_TMP/ldd")"
check_eq "image: no compiler, linker or make" "" \
	"$(ls "$mnt/usr/bin" | grep -E '^(cc|c\+\+|gcc.*|g\+\+.*|clang.*|ld|ld\.(bfd|gold|lld)|make|.*-linux-gnu-(gcc|g\+\+|ld).*)$' | tr '\n' ' ')"

# --- 3. run from it --------------------------------------------------------------

mkdir -p "$FG_TMP/cfg"
cp "$(fg_loop_cfg)" "$FG_TMP/cfg/loop.yaml"
# podman's default capabilities (containers.conf, default_capabilities):
# what a container gets without --cap-add
caps=chown,dac_override,fowner,fsetid,kill,net_bind_service,setfcap,setgid,setpcap,setuid,sys_chroot

# img_ns MNT HUGE CFG WORKDIR CAPS CMD... : CMD in the image at MNT, in this
# process's own mount namespace (unshare -m): a container's mounts, with a
# hugetlbfs on /dev/hugepages when HUGE is "mount", CFG read-only on /mnt;
# started from WORKDIR with a container's environment and the bounding
# set CAPS
img_ns()
{
	local m=$1 huge=$2 cfg=$3 wd=$4 caps=$5 n
	shift 5
	set -e
	mount --bind /proc "$m/proc"
	mount --rbind /sys "$m/sys"
	mount -t tmpfs -o mode=755,size=1m fg-dev "$m/dev"
	for n in null zero full random urandom tty; do
		touch "$m/dev/$n"
		mount --bind "/dev/$n" "$m/dev/$n"
	done
	mkdir "$m/dev/shm" "$m/dev/pts"
	mount -t tmpfs -o mode=1777 fg-shm "$m/dev/shm"
	ln -s /proc/self/fd "$m/dev/fd"
	if [ "$huge" = mount ]; then
		mkdir "$m/dev/hugepages"
		if mountpoint -q /dev/hugepages; then
			mount --bind /dev/hugepages "$m/dev/hugepages"
		else
			mount -t hugetlbfs fg-huge "$m/dev/hugepages"
		fi
	fi
	mount -t tmpfs -o mode=755 fg-run "$m/run"
	mount -t tmpfs -o mode=1777 fg-tmp "$m/tmp"
	mount --bind "$cfg" "$m/mnt"
	mount -o remount,bind,ro "$m/mnt"
	set +e
	exec setpriv --bounding-set="-all,+${caps//,/,+}" --inh-caps=-all --no-new-privs \
		chroot "$m" /usr/bin/env -i --chdir="$wd" \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=xterm "$@"
}

# hugetlbfs for podman's -v where the host has none on /dev/hugepages
hugedir=/dev/hugepages
hugedir()
{
	mountpoint -q /dev/hugepages && return 0
	hugedir=$FG_TMP/hugepages
	mkdir -p "$hugedir"
	mountpoint -q "$hugedir" || { mount -t hugetlbfs fg-huge "$hugedir" && at_exit "umount $hugedir"; }
}

# in_image HUGE ARGS... : the image's entry point with ARGS, by the path
# chosen below, with /dev/hugepages (HUGE "mount") or without ("none")
in_image()
{
	local huge=$1
	shift
	if [ "$path" = podman ]; then
		local v=()
		if [ "$huge" = mount ]; then
			hugedir
			v=(-v "$hugedir:/dev/hugepages")
		fi
		# shellcheck disable=SC2086
		timeout -k 5 90 podman run --rm --network none ${FG_PODMAN_ARGS:-} \
			-v "$FG_TMP/cfg:/mnt:ro" "${v[@]}" "$id" "$@"
	else
		# shellcheck disable=SC2086
		timeout -k 5 90 unshare -m --propagation private bash -c "$(declare -f img_ns); img_ns \"\$@\"" \
			_ "$mnt" "$huge" "$FG_TMP/cfg" "$workdir" "$caps" $entry "$@"
	fi
}

# the path: podman run, or mount + chroot where podman cannot set the
# container's RLIMIT_NOFILE
path=podman
# shellcheck disable=SC2086
if timeout -k 5 90 podman run --rm --network none ${FG_PODMAN_ARGS:-} "$id" --version >"$FG_TMP/probe" 2>&1; then
	echo "# image: run path: podman run"
elif grep -Eq 'setrlimit `?RLIMIT_NOFILE`?: Operation not permitted' "$FG_TMP/probe"; then
	path=chroot
	echo "# image: run path: podman image mount + chroot (podman run cannot start a container here: $(grep -Eo 'setrlimit `?RLIMIT_NOFILE`?: Operation not permitted' "$FG_TMP/probe" | head -n 1))"
else
	fail "image: podman run starts the image" "$(tail -n 3 "$FG_TMP/probe")"
	exit 1
fi
via="image via $path"

out=$FG_TMP/version
rc=0
in_image none --version >"$out" 2>&1 || rc=$?
check_eq "$via: flowgen --version exits 0" 0 "$rc"
check_eq "$via: flowgen --version prints its version" "flowgen $version" "$(head -n 1 "$out")"

saved=$(cat /proc/sys/vm/nr_hugepages)
at_exit "echo $saved > /proc/sys/vm/nr_hugepages"
huge_free()
{
	awk '$1 == "HugePages_Free:" { print $2 }' /proc/meminfo
}
# want_free N : at least N hugepages free (more reserved if need be)
want_free()
{
	local f
	f=$(huge_free)
	[ "$f" -ge "$1" ] && return 0
	echo $(($(cat /proc/sys/vm/nr_hugepages) + $1 - f)) >/proc/sys/vm/nr_hugepages
	[ "$(huge_free)" -ge "$1" ]
}

# loop_run NAME HUGE : the 2 s run from the image and its checks
loop_run()
{
	local name="$via, $1" huge=$2 f=$FG_TMP/run.$2.$RANDOM rc=0 tx rx late
	in_image "$huge" -v -C /mnt/loop.yaml --json \
		-x "start -f profiles/stl_64b.yaml -m 0.1 -d 2 -t learn=0; wait; stats --json" \
		</dev/null >"$f" 2>&1 || rc=$?
	check_eq "$name: flowgen exits 0" 0 "$rc"
	latency_pre "$f"
	tx=$(latency_row "$f" s64 1 tx || echo -1)
	rx=$(latency_row "$f" s64 1 rx || echo -2)
	late=$(latency_row "$f" s64 1 late || echo -1)
	if [ "$tx" -ge 0 ] && [ "$late" -ge 0 ] && [ $((tx + late)) -eq 2000 ]; then
		pass "$name: sent or counted late its 2000 frames ($tx + $late)"
	else
		fail "$name: sent or counted late its 2000 frames" "sent $tx, late $late; $(grep -v '^{' "$f" | tail -n 3 | tr '\n' ' ')"
	fi
	check_eq "$name: received what it sent" "$tx" "$rx"
	check_eq "$name: port 0 counted its frames" "$tx" "$(json_get "$f" ports.0.tx_pkts || echo -3)"
	LAST=$f
}

# 256 hugepages (512 MiB) hold the loop config's 68 MiB plan
if want_free 256; then
	loop_run "/dev/hugepages mounted" mount
	check_grep "$via, /dev/hugepages mounted: runs on hugepages" '^memory: [0-9]+ MiB for DPDK .* from hugepages' "$LAST"
	# flowgen's default --in-memory maps its hugepages anonymously: no
	# hugetlbfs needed
	loop_run "hugepages free, no /dev/hugepages" none
	check_grep "$via, hugepages free, no /dev/hugepages: runs on hugepages" '^memory: [0-9]+ MiB for DPDK .* from hugepages' "$LAST"
else
	fail "$via: 256 hugepages free" "$(huge_free) free after raising nr_hugepages"
fi
echo 0 >/proc/sys/vm/nr_hugepages
if [ "$(huge_free)" -eq 0 ]; then
	loop_run "no hugepages" none
	check_grep "$via, no hugepages: runs with --no-huge" 'no free hugepages: running with --no-huge' "$LAST"
else
	fail "$via: no hugepages free" "$(huge_free) still free with nr_hugepages 0"
fi
echo "$saved" >/proc/sys/vm/nr_hugepages

# nothing of the runs is left mounted: the namespace's mounts went with
# it; the image is unmounted
check_eq "$via: no mount of the runs is left under the image's mount" 0 \
	"$(awk -v m="$mnt/" 'index($5, m) == 1' /proc/self/mountinfo | wc -l)"
podman image unmount "$id" >/dev/null 2>&1
if mountpoint -q "$mnt"; then
	fail "image: unmounted after the runs" "$mnt is still mounted"
else
	pass "image: unmounted after the runs"
fi
finish
