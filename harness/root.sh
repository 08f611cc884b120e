#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/root.sh NAME
#
# Make, or refresh, the Debian root NAME under $LWNFS_CACHE/roots/NAME
# with mmdebstrap, and print its path (docs/testing.md, "Roots and
# caches").  NAME is a row of tests/data/rows, or bookworm-life and
# trixie-life (tests/life: a kernel without headers and an offline archive
# life-archive.sh fills; kept until their package list changes, since
# their archive is a snapshot), or bookworm-cross and trixie-cross (amd64
# roots with cross compilers, the foreign rows' headers put in by
# cross-headers.sh).  A root is remade when its package list changes, or
# when apt-get update inside it, at most every $LWNFS_ROOT_CHECK hours,
# finds a newer kernel (for next: another newest kernel anywhere); with
# no archive it stays as it is.  next skips (LWNFS_EXIT_SKIP) when sid's
# kernel is the newest.  One root.sh at a time makes a given root.
set -euo pipefail

name=${1:?usage: root.sh NAME}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/settings.sh
. "$(dirname "$0")/settings.sh"
cache=$LWNFS_CACHE
roots=$cache/roots
root=$roots/$name
debs=$cache/debs
check_hours=$LWNFS_ROOT_CHECK

# Each row (tests/data/rows): its Debian suite, its architecture (dpkg's
# name) and the flavour of its linux-image-<flavour> and
# linux-headers-<flavour>.  A cross root: the gcc version of its suite,
# and ARCH:FLAVOUR of each foreign row it builds for.
suite=$name arch=amd64 flavour=amd64 gcc='' foreign='' life='' archive='' programs=''
case $name in
# (archive: what the life tests install besides the backports kernel: a
# third kernel, the release's cloud flavour, and what autopkgtest needs)
bookworm-life | trixie-life) suite=${name%-life} life=${name%-life}-backports
	archive="dctrl-tools linux-doc linux-image-cloud-amd64 linux-headers-cloud-amd64" ;;
# amd64 roots with cross compilers and foreign headers (cross-build.sh).
bookworm-cross) suite=bookworm gcc=12 ;;
trixie-cross) suite=trixie gcc=14 ;;
*)
	read -r suite arch flavour _ < <(lwnfs_row "$name") || {
		echo "root: unknown row '$name' (a row of tests/data/rows, bookworm-life," \
			"trixie-life, bookworm-cross or trixie-cross)" >&2
		exit 2
	}
	[ "$suite" != newest ] || suite=''	# the newest kernel's release (below)
	# A foreign architecture: mmdebstrap runs the root's maintainer
	# scripts (and root-build.sh its compiler) under qemu-user through
	# binfmt_misc, or natively (i386, where the host can).
	[ "$arch" = amd64 ] || read -r _ _ programs < <(lwnfs_arch "$arch") ;;
esac
# A cross root holds its release's rows of other architectures, in the
# order of tests/data/arches.
if [ -n "$gcc" ]; then
	for a in $(lwnfs_arches); do
		for row in $(lwnfs_rows release="$suite" arch="$a"); do
			read -r _ _ f _ < <(lwnfs_row "$row")
			foreign+=${foreign:+ }$a:$f
		done
	done
fi
# One package cache per architecture (amd64's keeps its old place): each
# root copies the whole cache in, and a foreign one would only weigh.
[ "$arch" = amd64 ] || debs=$debs-$arch
# The cross compilers are of no use to the matrix's amd64 roots.
[ -z "$foreign" ] || debs=$debs-cross
mkdir -p "$roots" "$debs"
exec 9>"$root.lock"
flock 9
# An ARM root's programs, and its guest, need qemu-user with binfmt_misc
# and qemu-system-arm; an i386 root's programs need the host or qemu-user
# (the table's "foreign" and "i386"):
# deps.sh installs what is needed, or says in one line why it cannot.
# Under the root's lock: deps.sh i386 turns the qemu-i386 handler off a
# moment to ask whether the host runs i386 itself, which would fail the
# programs of an i386 root being made meanwhile.
[ -z "$programs" ] || "$here/deps.sh" "$programs" "$arch" >&2

log() { echo "root: $name: $*" >&2; }

# next: where Debian ships its newest amd64 kernel, the first named of
# equals (newest-kernel.sh: "SUITE VERSION"), kept in $roots/next.from.
# Asked on the root's clock: when it is to be made or checked (below;
# with no root, when next.from is as old as a check's interval).
next_suites='sid experimental bookworm-backports trixie-backports'
next_from='' next_version='' next_asked=''
if [ "$name" = next ]; then
	from=$roots/next.from
	stamp=$root/.lwnfs-checked
	[ -e "$stamp" ] || stamp=$from
	if [ ! -s "$from" ] || [ "$check_hours" = 0 ] ||
		[ -n "$(find "$stamp" -mmin +$((check_hours * 60)))" ]; then
		# shellcheck disable=SC2086 # one word a suite
		if newest=$("$here/newest-kernel.sh" amd64 $next_suites); then
			echo "$newest" >"$from"
			next_asked=yes
		elif [ -s "$from" ]; then
			log "could not ask the archive for the newest kernel; keeping $(cat "$from")"
		else
			exit 1
		fi
	fi
	read -r next_from next_version <"$from"
	case $next_from in
	sid)
		echo "root: next: no suite ($next_suites) has a kernel newer than sid's $next_version" >&2
		exit "$LWNFS_EXIT_SKIP" ;;
	experimental) suite=sid ;;
	*-backports) suite=${next_from%-backports} ;;
	*)
		echo "root: next: $from names '$next_from', not one of $next_suites" >&2
		exit 1 ;;
	esac
	log "the newest kernel: $next_version, in $next_from"
fi

# Version of package $1 installed in $root, empty if none.
installed() {
	dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Version}' "$1" 2>/dev/null || true
}

# candidate PACKAGE: the version of PACKAGE that apt in the root would
# install now.
candidate() {
	chroot "$root" apt-cache policy "$1" | sed -n 's/^ *Candidate: //p'
}

# Exit 0 when the root's kernel package is current, 1 when a newer one is
# in the archive, 2 when the archive could not be asked.
current() {
	local have want
	[ -z "$foreign" ] || { cross_current; return; }
	[ -z "$life" ] || return 0	# a snapshot, kept
	have=$(installed "linux-image-$flavour")
	# A foreign row: the metapackage's version root-kernel.sh saw.
	[ "$programs" = '' ] || have=$(awk '{ print $3 }' "$root/.lwnfs-kernel" 2>/dev/null)
	[ -n "$have" ] || return 1
	if [ "$name" = next ]; then	# what newest-kernel.sh has just said
		[ -n "$next_asked" ] || return 2
		want=$next_version
	else
		chroot "$root" apt-get -qq -o Acquire::Languages=none update >/dev/null 2>&1 || return 2
		want=$(candidate "linux-image-$flavour")
		[ -n "$want" ] || return 2
	fi
	[ "$have" = "$want" ] && return 0
	log "kernel package $have installed, $want in the archive: remaking the root"
	return 1
}

# The same for a cross root: the version of linux-headers-<flavour> it
# was made from for each foreign row (.lwnfs-headers, written by
# cross-headers.sh: the headers' version, and the archive's version of
# the metapackage then when the archive did not serve its headers)
# against the one in the archive now.
cross_current() {
	local spec have want
	chroot "$root" apt-get -qq -o Acquire::Languages=none update >/dev/null 2>&1 || return 2
	for spec in $foreign; do
		have=$(awk -v spec="$spec" '$1 == spec { print $NF }' "$root/.lwnfs-headers")
		want=$(candidate "linux-headers-${spec#*:}:${spec%%:*}")
		[ -n "$want" ] || return 2
		[ "$have" != "$want" ] || continue
		log "$spec: headers ${have:-none} in the root, $want in the archive: remaking the root"
		return 1
	done
	return 0
}

# What each root holds; a root made from another list is remade.
opts=() mirrors=() archs=$arch
pkgs=gcc,make,libc6-dev,kmod,bats,bats-assert,perl,util-linux,mount,mawk,procps,openssl
pkgs+=,busybox-static,xz-utils,zstd,dkms
# A foreign row's kernel: root-kernel.sh's hook, since the archive may not
# serve the kernel its metapackages name.
if [ -n "$programs" ]; then
	# shellcheck disable=SC2016 # mmdebstrap's shell expands $1
	opts+=(--customize-hook="$(printf %q "$here/root-kernel.sh")"' "$1" '"$flavour")
elif [ "$name" != next ]; then
	pkgs+=,linux-image-$flavour,linux-headers-$flavour
fi
# sid's lintian, the newest, checks the package (scripts/lint-package.sh).
[ "$name" != sid ] || pkgs+=,lintian
# A life root: no headers (the tests install them), Debian's autopkgtest,
# the archive of what they install, and what a Debian machine boots with
# (systemd as PID 1, udev, D-Bus), for the boots that read /etc/fstab.
if [ -n "$life" ]; then
	pkgs=${pkgs/,linux-headers-$flavour/},apt-utils,autopkgtest,autodep8,dpkg-dev
	pkgs+=,systemd-sysv,udev,dbus
	# shellcheck disable=SC2016 # mmdebstrap's shell expands $1
	opts+=(--customize-hook="$(printf %q "$here/life-archive.sh")"' "$1" '"$life $archive"
		--skip=cleanup/apt/lists)
fi
# A cross root: what kbuild runs, and per foreign architecture the cross
# gcc and, for the test programs, its libc; the headers come after.
if [ -n "$foreign" ]; then
	pkgs=make,perl,bc,kmod
	for spec in $foreign; do
		read -r triplet _ < <(lwnfs_arch "${spec%%:*}")
		pkgs+=,gcc-$gcc-$triplet,libc6-dev-${spec%%:*}-cross
		archs+=,${spec%%:*}
	done
	# Before the hooks of make_root: the downloads go to $debs too.
	# shellcheck disable=SC2016 # mmdebstrap's shell expands $1
	opts+=(--customize-hook="$(printf %q "$here/cross-headers.sh")"' "$1" '"$foreign")
fi
case $suite in
sid)
	# The archive reachable here serves sid past its Valid-Until date.
	opts+=(--aptopt='Acquire::Check-Valid-Until "false"') ;;
bullseye)
	# bullseye's bats (1.2.1) predates "run !" and require-version,
	# which the suite uses: take bats alone from bookworm (it is
	# architecture-independent shell), everything else from bullseye.
	opts+=(--aptopt='APT::Default-Release "bullseye"')
	pkgs+=,bats/bookworm
	pkgs=${pkgs/,bats,/,}
	# The archives the host's apt uses (settings.sh).
	debian=$(lwnfs_mirror)
	security=$(lwnfs_security_mirror)
	mirrors=("deb $debian bullseye main" "deb $debian bullseye-updates main"
		"deb $security bullseye-security main" "deb $debian bookworm main") ;;
esac

# The kernel package's initramfs is for an image the guest never uses:
# vm.sh boots an initramfs of its own.  Making it takes a minute of CPU
# beside the guests of CI (sid's dracut more), minutes under qemu-user (a
# few hundred emulated processes), and in a life root, whose guest
# installs a kernel under TCG, longer still.  So every root with a kernel
# takes initramfs-tools (not dracut, sid's choice now), with
# update-initramfs diverted to true before the kernel package comes.
if [ -z "$foreign" ]; then
	pkgs+=,initramfs-tools
	# shellcheck disable=SC2016 # mmdebstrap's shell expands the hook
	opts+=(--essential-hook='chroot "$1" dpkg-divert --quiet --local --rename \
			--add /usr/sbin/update-initramfs &&
		ln -s /bin/true "$1/usr/sbin/update-initramfs"')
fi

# What .lwnfs-packages says: a cross root is remade when its rows change too.
record=$pkgs${foreign:+ headers:$foreign}${life:+ upgrade:$life archive:${archive// /,}}${next_from:+ kernel:$next_from}


# next: its release's suites and the one of the newest kernel (pinned
# low by its Release file: experimental at 1, a backports suite at 100),
# whose kernel the hook installs.
if [ "$name" = next ]; then
	debian=$(lwnfs_mirror)
	mirrors=("deb $debian $suite main")
	if [ "$suite" != sid ]; then
		security=$(lwnfs_security_mirror)
		mirrors+=("deb $debian $suite-updates main" "deb $security $suite-security main")
	fi
	mirrors+=("deb $debian $next_from main")
	opts+=(--customize-hook="chroot \"\$1\" apt-get install -y -qq -t $next_from linux-image-amd64 linux-headers-amd64 >&2")
fi

# mmdebstrap_root: make the root at $root.new.
mmdebstrap_root() {
	# Downloads are kept in $debs, for the next root that needs them.
	# dpkg without fsync (a root is a cache, remade when in doubt): an
	# eighth less time, and the guests that install into it gain too.
	# shellcheck disable=SC2016 # mmdebstrap's shell expands the hooks
	mmdebstrap --quiet --variant=apt --architectures="$archs" --include="$pkgs" "${opts[@]}" \
		--dpkgopt=force-unsafe-io \
		--skip=download/empty --setup-hook='mkdir -p "$1"/var/cache/apt/archives' \
		--setup-hook="sync-in $debs /var/cache/apt/archives" \
		--setup-hook="$(printf %q "$here/root-update.sh")"' "$1"' \
		--customize-hook="sync-out /var/cache/apt/archives $debs" \
		--customize-hook='rm -f "$1"/var/cache/apt/archives/*.deb' \
		"$suite" "$root.new" "${mirrors[@]}" >&2
}

make_root() {
	command -v mmdebstrap >/dev/null || {
		echo "root: mmdebstrap is missing (run harness/deps.sh)" >&2
		exit 1
	}
	log "making the root with mmdebstrap (about 2 minutes)"
	local try
	for try in 1 2; do
		rm -rf --one-file-system "$root.new"
		mmdebstrap_root && break
		rm -rf --one-file-system "$root.new"
		# A download that failed fails apt-get update or install: a
		# mirror mid-sync serves an index whose size its Release file
		# does not give ("Mirror sync in progress?").  Once more a minute
		# later, then give up saying so.
		[ "$try" = 1 ] || {
			echo "root: $name: mmdebstrap failed (twice; apt's errors above: a mirror mid-sync passes)" >&2
			exit 1
		}
		log "mmdebstrap failed; once more in a minute"
		sleep 60
	done
	# A build mounts /proc in the root: never delete through a mount.
	if findmnt -rn -o TARGET | grep -q "^$root/"; then
		echo "root: $name: something is mounted in $root; not remaking it" >&2
		exit 1
	fi
	echo "$record" >"$root.new/.lwnfs-packages"
	rm -rf --one-file-system "$root"
	mv "$root.new" "$root"
}

if [ ! -e "$root/.lwnfs-checked" ]; then
	make_root
elif [ "$(cat "$root/.lwnfs-packages" 2>/dev/null)" != "$record" ]; then
	log "made from another package list: remaking the root"
	make_root
else
	stamp=$root/.lwnfs-checked
	if [ "$check_hours" = 0 ] || [ -n "$next_asked" ] ||
		[ -n "$(find "$stamp" -mmin +$((check_hours * 60)))" ]; then
		rc=0
		current || rc=$?
		case $rc in
		1) make_root ;;
		2) log "could not ask the archive for a newer kernel; using the root as it is" ;;
		esac
	fi
fi

touch "$root/.lwnfs-checked"
# Extracted module trees may lack modules.dep: the initramfs needs it.
for dir in "$root"/lib/modules/*/; do
	[ -d "$dir" ] || continue
	[ -f "$dir/modules.dep" ] || depmod -b "$root" "$(basename "$dir")"
done
echo "$root"
