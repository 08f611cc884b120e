#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/images/cross-build.sh ROW
#
# Build lwnfs W=1, the module and the test programs, for the Debian kernel
# of matrix row ROW (tests/data/rows; one of another architecture than
# amd64) with Debian's cross compiler of that kernel's gcc version, no
# emulation: in the amd64 cross root of its release (root.sh
# RELEASE-cross), which holds the row's headers.  The build works on a copy of
# this tree at ROOT/srv/lwnfs-ROW (its conftest.h is for
# conftest-check.pl).  The build's output goes to stdout; the exit status
# is make's, or, for a 32-bit architecture, 1 when lwnfs.ko calls a 64-bit
# division helper of libgcc, which no 32-bit kernel exports (the
# module would not load).
# The code is what the native compiler makes, but for bookworm's cross
# gcc-12, which lacks its native one's AArch64 stack-protector fix
# (CVE-2023-4039): the same warnings, probes and symbols, older frames.
set -euo pipefail

row=${1:?usage: cross-build.sh ROW}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/settings.sh
. "$here/../settings.sh"
dest=/srv/lwnfs-$row

read -r release arch flavour _ < <(lwnfs_row "$row") || true
read -r triplet bits _ < <(lwnfs_arch "${arch:-}") || true
if [ -z "${triplet:-}" ]; then
	echo "cross-build: '$row' is no row of another architecture than amd64 in tests/data/rows" >&2
	exit 2
fi
prefix=$triplet- cross=$release-cross
root=$("$here/root.sh" "$cross")
# "ARCH:FLAVOUR VERSION", one line per foreign row of the root.
release=$(awk -v spec="$arch:$flavour" '$1 == spec { print $2; exit }' "$root/.lwnfs-headers") || true
kdir=/usr/src/linux-headers-$release
if [ -z "$release" ] || [ ! -f "$root$kdir/.kernelvariables" ]; then
	echo "cross-build: no $arch:$flavour headers in $root" >&2
	exit 1
fi
# The headers' own compiler: .kernelvariables says CC = $(CROSS_COMPILE)gcc-N.
gcc=$(sed -n 's/^CC = .*(CROSS_COMPILE)\(gcc-[0-9]*\)$/\1/p' "$root$kdir/.kernelvariables")
if [ -z "$gcc" ] || [ ! -x "$root/usr/bin/$prefix$gcc" ]; then
	echo "cross-build: no $prefix${gcc:-gcc-N} in $root for $release" >&2
	exit 1
fi
echo "cross-build: $row: $release with $prefix$gcc in $root" >&2

lwnfs_copy_tree "$root" "$dest"

# objtool reads /proc; kbuild writes to /dev/null (root.sh's roots have it).
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT
# The headers set ARCH themselves; CC is theirs too, given here so that
# the test programs get it.
rc=0
lwnfs_in_root "$root" make --no-print-directory -C "$dest" KDIR="$kdir" KERNELRELEASE="$release" \
	CROSS_COMPILE="$prefix" CC="$prefix$gcc" W=1 modules test-programs 2>&1 || rc=$?

# 64-bit division on a 32-bit kernel must go through div_u64() and kin:
# the kernel exports none of gcc's helpers for it (__udivdi3 and
# __umoddi3 on i386, __aeabi_uldivmod on ARM, ...).  Said in one line,
# from lwnfs.o when modpost stopped the build before lwnfs.ko.
object=$dest/lwnfs.ko
[ -f "$root$object" ] || object=$dest/lwnfs.o
if [ "$bits" = 32 ] && [ -f "$root$object" ]; then
	helpers=$(lwnfs_in_root "$root" "${prefix}nm" -u "$object" |
		awk '$2 ~ /^__(u?(div|mod)di3|u?divmoddi4|aeabi_u?ldivmod)$/ { printf " %s", $2 }')
	if [ -n "$helpers" ]; then
		echo "cross-build: $row: ${object##*/} calls 64-bit division helpers the kernel lacks (use div_u64()):$helpers" >&2
		[ "$rc" != 0 ] || rc=1
	fi
fi
exit "$rc"
