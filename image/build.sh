#!/usr/bin/env bash
#
# image/build.sh — the OCI image flowgen:VERSION (and flowgen:latest), made
# from Debian packages with no image registry (`make image`, README,
# "Container image").
#
# usage: image/build.sh VERSION ROOT PACKAGE...
#
# mmdebstrap makes a Debian 12 (bookworm) root file system of the minbase
# variant with PACKAGE... (flowgen's runtime libraries and DPDK's drivers)
# from the apt mirror this machine uses, copies ROOT into it (`make install
# DESTDIR=ROOT PREFIX=/usr`: the binary, its man pages and profiles) and
# checks that every shared library of flowgen and of the drivers resolves
# in it; podman imports the tarball as the image, whose entry point is
# flowgen. The mirror is the one apt on this machine is configured with
# (its bookworm, bookworm-updates and bookworm-security suites), with its
# proxy and its Release-file date checks; a machine with none of them uses
# deb.debian.org. A rebuild moves both tags and removes the image they
# named before, if nothing else names it.
#
# Environment: FG_IMAGE_NAME (default flowgen), FG_IMAGE_SUITE (default
# bookworm; the binary is built against this machine's libraries, so it is
# the machine's own release).

set -euo pipefail
export PATH=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH

if [ $# -lt 3 ]; then
	echo "usage: $0 VERSION ROOT PACKAGE..." >&2
	exit 64
fi
version=$1
root=$(cd "$2" && pwd)
shift 2
name=${FG_IMAGE_NAME:-flowgen}
suite=${FG_IMAGE_SUITE:-bookworm}
tag=$name:$version

for t in mmdebstrap podman; do
	command -v "$t" >/dev/null || {
		echo "image: $t is missing (make image-deps)" >&2
		exit 69
	}
done
[ -x "$root/usr/bin/flowgen" ] || {
	echo "image: $root/usr/bin/flowgen is missing (make install DESTDIR=$root PREFIX=/usr)" >&2
	exit 66
}

# mmdebstrap's output (its hooks' apt and dpkg lines) goes to ROOT.log
log=$root.log
work=$(mktemp -d "${TMPDIR:-/tmp}/fg-image.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The mirror: the URIs apt here fetches the suite's main component from
# (one-line or deb822 sources alike), else Debian's own.
apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' 2>/dev/null |
	awk -v s="$suite" '$2 == s || $2 == s "-updates" || $2 == s "-security" {
		print "deb " $1 " " $2 " main" }' | sort -u >"$work/sources.list"
if [ ! -s "$work/sources.list" ]; then
	printf 'deb http://deb.debian.org/debian %s main\n' "$suite" "$suite-updates" >"$work/sources.list"
	echo "deb http://deb.debian.org/debian-security $suite-security main" >>"$work/sources.list"
	echo "image: no $suite source configured for apt here: using deb.debian.org"
fi
echo "image: packages from"
sed 's/^/image:   /' "$work/sources.list"
# apt's settings here that reaching the mirror depends on: a proxy, and
# the date checks of its Release files (a mirror that serves a snapshot)
aptopts=()
while IFS= read -r o; do
	aptopts+=("--aptopt=$o")
done < <(apt-config dump 2>/dev/null |
	grep -E '^Acquire::(https?::Proxy|Check-Valid-Until|Check-Date)( |::)' || true)

# libs.sh CHROOT : every shared library that flowgen and the DPDK drivers
# (DPDK loads each driver of their directory at start) need is in CHROOT
cat >"$work/libs.sh" <<'EOF'
#!/bin/sh
out=$(chroot "$1" sh -c 'ldd /usr/bin/flowgen /usr/lib/*/dpdk/pmds-*/*.so.*' 2>&1)
if ! printf '%s\n' "$out" | grep -q 'librte_eal\.so.* => /'; then
	echo "image: ldd in the image did not run: $out" >&2
	exit 1
fi
missing=$(printf '%s\n' "$out" | awk '/^\// { f = $1 } / not found/ { print f, $1 }')
[ -z "$missing" ] && exit 0
echo "image: libraries missing from the image:" $missing >&2
exit 1
EOF
chmod +x "$work/libs.sh"

# Debian's documentation, man pages and translations stay out (the
# copyright files stay); flowgen's own man pages come with ROOT.
# The merged-usr hook makes /bin, /lib and /sbin links into /usr and
# installs usr-is-merged, as Debian's own images are made: the usrmerge
# package that would do it otherwise brings perl.
echo "image: mmdebstrap $suite minbase with:" "$@"
mmdebstrap --quiet --variant=minbase --format=tar \
	--include="$(
		IFS=,
		echo "$*"
	)" \
	--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
	"${aptopts[@]}" \
	--dpkgopt='path-exclude=/usr/share/doc/*' \
	--dpkgopt='path-include=/usr/share/doc/*/copyright' \
	--dpkgopt='path-exclude=/usr/share/man/*' \
	--dpkgopt='path-exclude=/usr/share/info/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' \
	--customize-hook="sync-in $root /" \
	--customize-hook="$work/libs.sh" \
	"$suite" "$work/rootfs.tar" "$work/sources.list" >"$log" 2>&1 || {
	tail -n 30 "$log" >&2
	echo "image: mmdebstrap failed ($log)" >&2
	exit 1
}

old_v=$(podman image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)
old_l=$(podman image inspect --format '{{.Id}}' "$name:latest" 2>/dev/null || true)
id=$(podman import --quiet \
	--change 'ENTRYPOINT ["/usr/bin/flowgen"]' \
	--change 'WORKDIR /usr/share/flowgen' \
	--change "LABEL org.opencontainers.image.title=flowgen" \
	--change "LABEL org.opencontainers.image.version=$version" \
	--message "flowgen $version on Debian $suite (mmdebstrap minbase)" \
	"$work/rootfs.tar" "$tag")
id=${id#sha256:}
podman tag "$id" "$name:latest"
for o in $old_v $old_l; do
	[ "$o" != "$id" ] || continue
	if [ "$(podman image inspect --format '{{len .RepoTags}}' "$o" 2>/dev/null || echo 1)" = 0 ]; then
		podman rmi "$o" >/dev/null && echo "image: removed the image $name used to name (${o:0:12})"
	fi
done
echo "image: $tag and $name:latest: ${id:0:12}," \
	"$(podman image inspect --format '{{.Size}}' "$id" | awk '{printf "%.0f MB", $1 / 1e6}')"
