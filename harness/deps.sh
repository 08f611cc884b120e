#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/deps.sh [lint|debug|bench|profile|foreign [ARCH]|i386|selinux|secureboot]
#
# Install from Debian's archive what is missing for building lwnfs and
# booting its guests, and for the target named (docs/testing.md, "Before
# you start"); not root, print the apt command instead.  The guests boot
# Debian's linux-image-amd64: elsewhere than Debian on amd64 one line says
# so before anything is installed (OS_RELEASE= another os-release).
set -euo pipefail

refuse() {
	echo "deps: the test guests need Debian on amd64, with apt and dpkg: $1 (plain make builds lwnfs on any distribution: see README.md)" >&2
	exit 1
}
if ! command -v apt-get >/dev/null || ! command -v dpkg-query >/dev/null; then
	refuse "this host has no apt-get or dpkg-query"
fi
arch=$(dpkg --print-architecture)
[ "$arch" = amd64 ] || refuse "this host is $arch, and linux-image-amd64 is amd64's"
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
packages=(make gcc libc6-dev kmod cpio gzip xz-utils busybox-static bats bats-assert
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
release=$("$here/boot/distro-kernel.sh")
extra=("linux-headers-$release")
case ${1:-} in
# checkpatch.pl and the semantic patches come with the kernel source.
lint) extra+=(sparse coccinelle shellcheck "linux-source-$(lwnfs_series "$release")") ;;
# make bench-scale's peers, started in the guest from this root, and its plots.
bench) extra+=(redis-server redis-tools libhiredis-dev libsqlite3-dev gnuplot-nox) ;;
profile) extra+=(linux-perf) ;;
debug) extra+=(bc bison flex libelf-dev libssl-dev dwarves rsync trinity
	"linux-source-$(lwnfs_series "$release")") ;;
# Every machine's QEMU (tests/data/machines), whose qemu-system-data
# carries their firmware; a board's SD card is ext4, on a device tree
# boot-sdcard.sh edits.
foreign) mapfile -t qemus < <(lwnfs_machine_packages)
	extra+=("${qemus[@]}" qemu-user-static binfmt-support e2fsprogs device-tree-compiler) ;;
selinux) extra+=(checkpolicy) ;;
# Secure Boot's firmware, and a FAT EFI system partition made without a
# loop device.
secureboot) extra+=(ovmf dosfstools mtools) ;;
esac
# i386 programs run natively where the host can, else (or with
# LWNFS_I386=qemu) through qemu-user.  The handler an earlier
# LWNFS_I386=qemu left would hide a host that can: it is turned off for
# the question, and on again when the answer is no.
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

# binfmt_misc WHAT: mount binfmt_misc, or say why WHAT cannot be made here.
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
	# i386 for native): registered as qemu's scripts/qemu-binfmt-conf.sh
	# would, with F (the interpreter opened now, so neither a chroot nor
	# mmdebstrap needs a copy of it).
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
	# The root's architecture (root.sh's), or the ARM rows' of the matrix.
	for a in ${2:-arm64 armhf}; do
		arch-test "$a" >/dev/null 2>&1 || update-binfmts --enable >/dev/null 2>&1 || true
		arch-test "$a" >/dev/null 2>&1 || {
			echo "deps: this host cannot run $a programs through qemu-user (update-binfmts --display)" >&2
			exit 1
		}
	done
fi
