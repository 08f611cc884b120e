#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/deps.sh [lint|debug|foreign]
# Install what building lwnfs and booting its test guests needs (with
# "lint": what make lint needs; "debug": what building a kernel and
# fuzzing need; "foreign": what making ARM roots under qemu-user and
# booting ARM guests need), from Debian's archive: only what is
# missing, so a second run does nothing.  Not root: print the one apt
# command to run instead.
set -euo pipefail

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
if [ "${1:-}" = debug ]; then
	extra+=(bc bison flex libelf-dev libssl-dev dwarves rsync trinity
		"linux-source-$(lwnfs_series "$release")")
fi
if [ "${1:-}" = foreign ]; then
	extra+=(qemu-system-arm qemu-user-static binfmt-support)
fi
mapfile -t need < <(missing "${extra[@]}")
install "${need[@]}"
if [ "${1:-}" = foreign ]; then
	# qemu-user runs ARM programs through the kernel's binfmt_misc.
	grep -qw binfmt_misc /proc/filesystems || {
		echo "deps: this host's kernel has no binfmt_misc: ARM roots cannot be made here" >&2
		exit 1
	}
	[ -e /proc/sys/fs/binfmt_misc/status ] ||
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
	for a in arm64 armhf; do
		arch-test "$a" >/dev/null 2>&1 || update-binfmts --enable >/dev/null 2>&1 || true
		arch-test "$a" >/dev/null 2>&1 || {
			echo "deps: this host cannot run $a programs through qemu-user (update-binfmts --display)" >&2
			exit 1
		}
	done
fi
