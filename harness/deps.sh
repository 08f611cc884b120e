#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/deps.sh [lint|debug|bench|profile|foreign [ARCH]|i386|selinux|secureboot]
# Install what building lwnfs and booting its test guests needs (with
# "lint": what make lint needs; "debug": what building a kernel and
# fuzzing need; "bench": the peers make bench-scale measures and
# gnuplot; "profile": perf, which make bench-profile runs in the guest;
# "foreign": what making foreign roots under qemu-user and booting
# foreign guests need (every machine of tests/data/machines), and that ARCH's
# programs run here (dpkg's name; without it arm64's and armhf's);
# "i386": what running the i386 root's programs
# needs; "selinux": checkpolicy, which compiles make check-selinux's
# policy; "secureboot": the UEFI firmware with Secure Boot (ovmf), what
# makes a FAT EFI system partition without a loop device (dosfstools,
# mtools), for vm.sh -U), from Debian's archive: only what is missing, so
# a second run does nothing.  Not root: print the one apt command to run
# instead.
#
# i386: a host whose kernel runs 32-bit x86 programs runs the root's
# natively; one that does not (arch-test says so, whatever its kernel's
# CONFIG_IA32_EMULATION) runs them through qemu-user, qemu-i386-static
# registered with binfmt_misc.  LWNFS_I386=qemu takes the qemu-user path
# on any host.  Either way one line says which path was taken.
#
# The guests boot Debian's amd64 kernel (linux-image-amd64) from Debian's
# archive, so this needs Debian, or a derivative that has that package, on
# amd64: elsewhere one line says what is missing, before anything is
# installed.  OS_RELEASE names the os-release file to read (default
# /etc/os-release).
set -euo pipefail

# refuse WHAT: the one line for a host that cannot run the guests.
refuse() {
	echo "deps: the test guests need Debian on amd64, with apt and dpkg: $1 (plain make builds lwnfs on any distribution: see README.md)" >&2
	exit 1
}
if ! command -v apt-get >/dev/null || ! command -v dpkg-query >/dev/null; then
	refuse "this host has no apt-get or dpkg-query"
fi
arch=$(dpkg --print-architecture)
[ "$arch" = amd64 ] || refuse "this host is $arch, and linux-image-amd64 is amd64's"
# ID and ID_LIKE, from a subshell: os-release is shell assignments.
# shellcheck source=/dev/null
os=$(. "${OS_RELEASE:-/etc/os-release}" 2>/dev/null && echo "${ID:-} ${ID_LIKE:-}") || os=
case " $os " in
*" ubuntu "*) refuse "this host is Ubuntu, whose archive has no linux-image-amd64" ;;
*" debian "*) ;;
*) refuse "this host is not Debian (${OS_RELEASE:-/etc/os-release} says ID=${os%% *})" ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/settings.sh
. "$here/settings.sh"
packages=(make gcc libc6-dev kmod cpio gzip xz-utils busybox-static bats
	perl-base util-linux qemu-system-x86 linux-image-amd64 linux-headers-amd64
	dkms openssl debhelper dh-dkms dpkg-dev mandoc groff-base lintian
	mmdebstrap arch-test git)

missing() {
	local p
	for p in "$@"; do
		[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] ||
			echo "$p"
	done
}

install() {
	[ $# -gt 0 ] || return 0
	if [ "$(id -u)" != 0 ]; then
		echo "deps: missing packages; run: sudo apt-get install --no-install-recommends $*" >&2
		exit 1
	fi
	echo "deps: installing $*"
	export DEBIAN_FRONTEND=noninteractive
	local apt=(apt-get -q -o DPkg::Lock::Timeout=600)
	"${apt[@]}" update >/dev/null
	"${apt[@]}" install -y --no-install-recommends "$@" >/dev/null
}

mapfile -t need < <(missing "${packages[@]}")
install "${need[@]}"
# The headers must be those of the very kernel the guest boots.
release=$("$here/distro-kernel.sh")
extra=("linux-headers-$release")
if [ "${1:-}" = lint ]; then
	# checkpatch.pl and the semantic patches come with the kernel source.
	extra+=(sparse coccinelle shellcheck "linux-source-$(lwnfs_series "$release")")
fi
if [ "${1:-}" = bench ]; then
	# make bench-scale's peers (started in the guest, from this root) and
	# its plots.
	extra+=(redis-server redis-tools libhiredis-dev libsqlite3-dev gnuplot-nox)
fi
if [ "${1:-}" = profile ]; then
	extra+=(linux-perf)
fi
if [ "${1:-}" = debug ]; then
	extra+=(bc bison flex libelf-dev libssl-dev dwarves rsync trinity
		"linux-source-$(lwnfs_series "$release")")
fi
if [ "${1:-}" = foreign ]; then
	# Every machine's QEMU (tests/data/machines); qemu-system-data, which
	# they pull in, carries the firmware of each.  A board with no virtio
	# boots from an SD card, ext4 (e2fsprogs), on a device tree vm.sh
	# edits (device-tree-compiler; harness/boot-sdcard.sh).
	mapfile -t qemus < <(lwnfs_machine_packages)
	extra+=("${qemus[@]}" qemu-user-static binfmt-support e2fsprogs device-tree-compiler)
fi
if [ "${1:-}" = selinux ]; then
	extra+=(checkpolicy)
fi
if [ "${1:-}" = secureboot ]; then
	extra+=(ovmf dosfstools mtools)
fi
# i386 natively unless the host cannot, or LWNFS_I386=qemu says not to.
# The handler an earlier LWNFS_I386=qemu left would hide a host that can:
# it is turned off for the question, and on again when the answer is no.
i386=native handler=/proc/sys/fs/binfmt_misc/qemu-i386
if [ "${1:-}" = i386 ]; then
	[ "${LWNFS_I386:-}" = qemu ] || [ ! -e "$handler" ] || echo 0 >"$handler"
	if [ "${LWNFS_I386:-}" = qemu ] || ! arch-test i386 >/dev/null 2>&1; then
		i386=qemu
		extra+=(qemu-user-static)
	fi
fi
mapfile -t need < <(missing "${extra[@]}")
install "${need[@]}"

# binfmt_misc WHAT: mount the kernel's binfmt_misc, through which
# qemu-user runs foreign programs, or say why WHAT cannot be done here.
binfmt_misc() {
	grep -qw binfmt_misc /proc/filesystems || {
		echo "deps: this host's kernel has no binfmt_misc: $1 cannot be made here" >&2
		exit 1
	}
	[ -e /proc/sys/fs/binfmt_misc/status ] ||
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || {
		echo "deps: cannot mount binfmt_misc on /proc/sys/fs/binfmt_misc: $1 cannot be made here" >&2
		exit 1
	}
}

if [ "$i386" = qemu ]; then
	binfmt_misc "the i386 root"
	# binfmt-support registers no qemu-i386 on an amd64 host (it takes
	# i386 for native), so register it here, as qemu's
	# scripts/qemu-binfmt-conf.sh would: the ELF32 i386 magic and mask;
	# F opens the interpreter now, so a chroot needs no copy of it.  Named
	# qemu-i386, mmdebstrap sees the F and copies nothing in either.
	magic='\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x03\x00'
	mask='\xff\xff\xff\xff\xff\xfe\xfe\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
	if [ ! -e "$handler" ]; then
		echo ":qemu-i386:M::$magic:$mask:/usr/bin/qemu-i386-static:F" \
			>/proc/sys/fs/binfmt_misc/register
	fi
	grep -qx enabled "$handler" || echo 1 >"$handler"
	arch-test i386 >/dev/null 2>&1 || {
		echo "deps: i386 programs do not run here even through qemu-user ($handler)" >&2
		exit 1
	}
	why="this host cannot run them"
	[ "${LWNFS_I386:-}" != qemu ] || why="LWNFS_I386=qemu"
	echo "deps: i386 programs run through qemu-user, qemu-i386-static via binfmt_misc ($why)" >&2
elif [ "${1:-}" = i386 ]; then
	echo "deps: i386 programs run natively on this host" >&2
fi
if [ "${1:-}" = foreign ]; then
	binfmt_misc "foreign roots"
	# The architecture of the root being made (root.sh's second argument),
	# or those of the ARM rows the matrix boots.
	for a in ${2:-arm64 armhf}; do
		arch-test "$a" >/dev/null 2>&1 || update-binfmts --enable >/dev/null 2>&1 || true
		arch-test "$a" >/dev/null 2>&1 || {
			echo "deps: this host cannot run $a programs through qemu-user (update-binfmts --display)" >&2
			exit 1
		}
	done
fi
