#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/cross-build.sh ROW
#
# Build lwnfs W=1, the module and the test programs, for the Debian kernel
# of matrix row ROW (RELEASE-ARCH[-FLAVOUR]: bookworm-arm64,
# bookworm-armhf, bookworm-i386, bookworm-armel, bookworm-armel-rpi,
# bookworm-s390x, bookworm-ppc64el, trixie-arm64, trixie-s390x,
# trixie-ppc64el, trixie-riscv64) with
# Debian's cross compiler of that
# kernel's gcc version,
# no emulation: in the amd64 cross root of its release (root.sh
# bookworm-cross or trixie-cross, made or refreshed first), which holds
# the row's headers, the same ones root.sh ROW would install.  The build
# works on a copy of this tree at ROOT/srv/lwnfs-ROW (its conftest.h is
# for conftest-check.sh).  The build's output goes to stdout; the exit
# status is make's, or, for a 32-bit architecture, 1 when lwnfs.ko calls
# a 64-bit division helper of libgcc, which no 32-bit kernel exports (the
# module would not load).
# The code is what the native compiler makes, with one exception:
# bookworm's cross gcc-12 (12.2.0-14cross1) lacks the AArch64
# stack-protector fix of its native 12.2.0-14+deb12u1 (CVE-2023-4039),
# so bookworm-arm64's frames are laid out the old way (same warnings,
# probes and symbols).
set -euo pipefail

row=${1:?usage: cross-build.sh ROW}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/settings.sh
. "$here/settings.sh"
dest=/srv/lwnfs-$row

# The architectures it builds for, one a line: the architecture as dpkg
# names it, the prefix of Debian's cross compiler and binutils for it, and
# its word size: on a 32-bit one lwnfs.ko must call no 64-bit division
# helper of libgcc.  Row RELEASE-ARCH is built in the cross root
# RELEASE-cross, whose headers of ARCH root.sh's table chose (the first
# flavour it gives ARCH in RELEASE; RELEASE-ARCH-FLAVOUR: FLAVOUR's).
arches='
arm64    aarch64-linux-gnu-     64
armhf    arm-linux-gnueabihf-   32
i386     i686-linux-gnu-        32
armel    arm-linux-gnueabi-     32
s390x    s390x-linux-gnu-       64
ppc64el  powerpc64le-linux-gnu- 64
riscv64  riscv64-linux-gnu-     64
'
cross=${row%%-*}-cross arch=${row#*-} flavour='' prefix='' bits=''
case $arch in *-*) flavour=${arch#*-} arch=${arch%%-*} ;; esac
read -r prefix bits < <(awk -v a="$arch" '$1 == a { print $2, $3 }' <<<"$arches") || true
if [ "$row" = "$arch" ] || [ -z "$prefix" ]; then
	echo "cross-build: unknown row '$row' (RELEASE-ARCH[-FLAVOUR], ARCH one of:$(awk 'NF { printf " %s", $1 }' <<<"$arches"))" >&2
	exit 2
fi

root=$("$here/root.sh" "$cross")
# "ARCH:FLAVOUR RELEASE VERSION", one line per foreign row of the root,
# in the order of root.sh's table.
# RELEASE-ARCH-FLAVOUR names another flavour than the first (root.sh).
read -r spec release < <(awk -v a="$arch" -v f="$flavour" '
	index($1, a ":") == 1 && !n++ && f != "" && $1 == a ":" f { exit }
	(f == "" && index($1, a ":") == 1) || $1 == a ":" f { print $1, $2; exit }' \
	"$root/.lwnfs-headers") || true
kdir=/usr/src/linux-headers-$release
if [ -z "$release" ] && [ -n "$flavour" ]; then
	echo "cross-build: unknown row '$row' (no second flavour $flavour of $arch in $root)" >&2
	exit 2
elif [ -z "$release" ] || [ ! -f "$root$kdir/.kernelvariables" ]; then
	echo "cross-build: no ${spec:-$arch} headers in $root" >&2
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

# objtool (7.x) reads /proc; kbuild writes to /dev/null (root.sh's roots have it).
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT
in_root() {
	chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C "$@"
}
# The headers set ARCH themselves; CC is theirs too, given here so that
# the test programs get it.
rc=0
in_root make --no-print-directory -C "$dest" KDIR="$kdir" KERNELRELEASE="$release" \
	CROSS_COMPILE="$prefix" CC="$prefix$gcc" W=1 modules test-programs 2>&1 || rc=$?

# 64-bit division on a 32-bit kernel must go through div_u64() and kin:
# the kernel exports none of gcc's helpers for it (__udivdi3 and
# __umoddi3 on i386, __aeabi_uldivmod on ARM, ...).  Said in one line,
# from lwnfs.o when modpost stopped the build before lwnfs.ko.
object=$dest/lwnfs.ko
[ -f "$root$object" ] || object=$dest/lwnfs.o
if [ "$bits" = 32 ] && [ -f "$root$object" ]; then
	helpers=$(in_root "${prefix}nm" -u "$object" |
		awk '$2 ~ /^__(u?(div|mod)di3|u?divmoddi4|aeabi_u?ldivmod)$/ { printf " %s", $2 }')
	if [ -n "$helpers" ]; then
		echo "cross-build: $row: ${object##*/} calls 64-bit division helpers the kernel lacks (use div_u64()):$helpers" >&2
		[ "$rc" != 0 ] || rc=1
	fi
fi
exit "$rc"
