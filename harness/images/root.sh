#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/images/root.sh NAME
#
# Make, or refresh, the Debian root NAME under $LWNFS_CACHE/roots with
# mmdebstrap, and print its path (docs/testing.md, "Roots and caches").
# NAME is a row of tests/data/rows, RELEASE-life (tests/life) or
# RELEASE-cross (cross-build.sh's), RELEASE bookworm or trixie.  A root is
# remade when what it is made of (.lwnfs-packages) changes, or when its
# archive, asked at most every LWNFS_ROOT_CHECK hours, has a newer kernel.
# A row of release "newest" skips (LWNFS_EXIT_SKIP) when sid's kernel is
# the newest.  One root.sh at a time makes a given root.
set -euo pipefail

name=${1:?usage: root.sh NAME}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/settings.sh
. "$here/../settings.sh"
roots=$LWNFS_CACHE/roots
root=$roots/$name
debs=$LWNFS_CACHE/debs

# newest: a row of the newest kernel, whose suite is found below; life:
# the suite a life root upgrades to; gcc: a cross root's, foreign:
# ARCH:FLAVOUR of each row it builds for.
suite=$name arch=amd64 flavour=amd64 newest='' life='' archive='' gcc='' foreign='' programs=''
case $name in
bookworm-life | trixie-life)
	suite=${name%-life} life=${name%-life}-backports
	# What the life tests install besides the backports kernel: a third
	# kernel, the cloud flavour, and what autopkgtest needs.  Its archive
	# is a snapshot: the root is kept until this list changes.
	archive="dctrl-tools linux-doc linux-image-cloud-amd64 linux-headers-cloud-amd64" ;;
bookworm-cross) suite=bookworm gcc=12 ;;
trixie-cross) suite=trixie gcc=14 ;;
*)
	read -r suite arch flavour _ < <(lwnfs_row "$name") || {
		echo "root: unknown row '$name' (a row of tests/data/rows, bookworm-life," \
			"trixie-life, bookworm-cross or trixie-cross)" >&2
		exit 2
	}
	if [ "$suite" = newest ]; then
		newest=yes suite=''
	fi
	[ "$arch" = amd64 ] || read -r _ _ programs < <(lwnfs_arch "$arch") ;;
esac
if [ -n "$gcc" ]; then
	for a in $(lwnfs_arches); do
		for row in $(lwnfs_rows release="$suite" arch="$a"); do
			read -r _ _ f _ < <(lwnfs_row "$row")
			foreign+=${foreign:+ }$a:$f
		done
	done
fi
# Each root copies its whole package cache in: one cache per architecture,
# and the cross compilers apart, so that no root carries another's.
[ "$arch" = amd64 ] || debs=$debs-$arch
[ -z "$foreign" ] || debs=$debs-cross
mkdir -p "$roots" "$debs"
exec 9>"$root.lock"
flock 9
# Under the root's lock: deps.sh i386 turns the qemu-i386 handler off a
# moment to ask whether the host runs i386 itself, which would fail the
# programs of an i386 root being made meanwhile.
[ -z "$programs" ] || "$here/../deps.sh" "$programs" "$arch" >&2

log() { echo "root: $name: $*" >&2; }

# due FILE: whether the archive is to be asked again, by FILE's age.
due() {
	[ "$LWNFS_ROOT_CHECK" = 0 ] || [ -n "$(find "$1" -mmin +$((LWNFS_ROOT_CHECK * 60)))" ]
}

# The newest kernel: the suite that ships it, the first named of equals,
# and its version (newest-kernel.sh), kept in $root.from.
newest_suites='sid experimental bookworm-backports trixie-backports'
from='' newest_version='' newest_asked=''
if [ -n "$newest" ]; then
	stamp=$root/.lwnfs-checked
	[ -e "$stamp" ] || stamp=$root.from
	if [ ! -s "$root.from" ] || due "$stamp"; then
		# shellcheck disable=SC2086 # one word a suite
		if found=$("$here/newest-kernel.sh" "$flavour" $newest_suites); then
			echo "$found" >"$root.from"
			newest_asked=yes
		elif [ -s "$root.from" ]; then
			log "could not ask the archive for the newest kernel; keeping $(cat "$root.from")"
		else
			exit 1
		fi
	fi
	read -r from newest_version <"$root.from"
	case $from in
	sid)
		log "no suite ($newest_suites) has a kernel newer than sid's $newest_version"
		exit "$LWNFS_EXIT_SKIP" ;;
	experimental) suite=sid ;;
	*-backports) suite=${from%-backports} ;;
	*)
		log "$root.from names '$from', not one of $newest_suites"
		exit 1 ;;
	esac
	log "the newest kernel: $newest_version, in $from"
fi

# installed PACKAGE: its version in the root, empty if none.
installed() {
	dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Version}' "$1" 2>/dev/null || true
}

# candidate PACKAGE: the version apt in the root would install now.
candidate() {
	chroot "$root" apt-cache policy "$1" | sed -n 's/^ *Candidate: //p'
}

# current: 0 when the root's kernel is the archive's, 1 when the archive
# has a newer one, 2 when it could not be asked.
current() {
	local have want
	[ -z "$foreign" ] || { cross_current; return; }
	[ -z "$life" ] || return 0
	have=$(installed "linux-image-$flavour")
	# A foreign row: the metapackage's version root-kernel.sh saw, since
	# the kernel installed may be an older one the archive serves.
	[ "$programs" = '' ] || have=$(awk '{ print $3 }' "$root/.lwnfs-kernel" 2>/dev/null)
	[ -n "$have" ] || return 1
	if [ -n "$newest" ]; then
		[ -n "$newest_asked" ] || return 2
		want=$newest_version
	else
		chroot "$root" apt-get -qq -o Acquire::Languages=none update >/dev/null 2>&1 || return 2
		want=$(candidate "linux-image-$flavour")
		[ -n "$want" ] || return 2
	fi
	[ "$have" = "$want" ] && return 0
	log "kernel package $have installed, $want in the archive: remaking the root"
	return 1
}

# cross_current: current for a cross root, by the metapackage versions
# cross-headers.sh wrote in .lwnfs-headers, one per foreign row.
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

# sources SUITE BESIDE: mmdebstrap's archives, from the host's: SUITE's
# (with its updates and security suites, which sid has not) and BESIDE.
sources() {
	local debian security
	debian=$(lwnfs_mirror main)
	mirrors=("deb $debian $1 main")
	if [ "$1" != sid ]; then
		security=$(lwnfs_mirror security)
		mirrors+=("deb $debian $1-updates main" "deb $security $1-security main")
	fi
	mirrors+=("deb $debian $2 main")
}

opts=() mirrors=() archs=$arch
pkgs=gcc,make,libc6-dev,kmod,bats,bats-assert,perl,util-linux,mount,mawk,procps,openssl
pkgs+=,busybox-static,xz-utils,zstd,dkms
# A foreign row's kernel comes from root-kernel.sh, since the archive may
# not serve the one its metapackages name; the newest kernel's from its
# suite, below.
if [ -n "$programs" ]; then
	# shellcheck disable=SC2016 # mmdebstrap's shell expands $1
	opts+=(--customize-hook="$(printf %q "$here/root-kernel.sh")"' "$1" '"$flavour")
elif [ -z "$newest" ]; then
	pkgs+=,linux-image-$flavour,linux-headers-$flavour
fi
# sid's lintian, the newest, checks the package (scripts/lint-package.sh).
[ "$name" != sid ] || pkgs+=,lintian
# A life root: no headers (the tests install them), and what a Debian
# machine boots with (systemd as PID 1, udev, D-Bus), for the boots that
# read /etc/fstab.
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
	# Before mmdebstrap_root's hooks, so that its downloads go to $debs too.
	# shellcheck disable=SC2016 # mmdebstrap's shell expands $1
	opts+=(--customize-hook="$(printf %q "$here/cross-headers.sh")"' "$1" '"$foreign")
fi
case $suite in
sid)
	# The archive reachable here serves sid past its Valid-Until date.
	opts+=(--aptopt='Acquire::Check-Valid-Until "false"') ;;
bullseye)
	# bullseye's bats predates "run !" and require-version, which the
	# suites use: bats alone (architecture-independent shell) comes from
	# bookworm.
	opts+=(--aptopt='APT::Default-Release "bullseye"')
	pkgs+=,bats/bookworm
	pkgs=${pkgs/,bats,/,}
	sources bullseye bookworm ;;
esac
# The kernel package's initramfs is for an image the guest never uses
# (vm.sh boots an initramfs of its own), and making it is slow, under
# qemu-user and in a life guest most: every root with a kernel takes
# initramfs-tools (not dracut, sid's choice), with update-initramfs
# diverted to true before the kernel package comes.
if [ -z "$foreign" ]; then
	pkgs+=,initramfs-tools
	# shellcheck disable=SC2016 # mmdebstrap's shell expands the hook
	opts+=(--essential-hook='chroot "$1" dpkg-divert --quiet --local --rename \
			--add /usr/sbin/update-initramfs &&
		ln -s /bin/true "$1/usr/sbin/update-initramfs"')
fi

# The newest kernel's suite is pinned low by its Release file: its kernel
# alone is taken from it.
if [ -n "$newest" ]; then
	sources "$suite" "$from"
	opts+=(--customize-hook="chroot \"\$1\" apt-get install -y -qq -t $from linux-image-$flavour linux-headers-$flavour >&2")
fi

# What the root is made of, in .lwnfs-packages: a root made of anything
# else is remade.
record=$pkgs${foreign:+ headers:$foreign}${life:+ upgrade:$life archive:${archive// /,}}${from:+ kernel:$from}

# mmdebstrap_root: make the root at $root.new.
mmdebstrap_root() {
	# dpkg without fsync: a root is a cache, remade when in doubt, and
	# the guests that install into it gain too.
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
		# A mirror mid-sync fails a download ("Mirror sync in
		# progress?"): once more a minute later.
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
elif [ -n "$newest_asked" ] || due "$root/.lwnfs-checked"; then
	rc=0
	current || rc=$?
	case $rc in
	1) make_root ;;
	2) log "could not ask the archive for a newer kernel; using the root as it is" ;;
	esac
fi

touch "$root/.lwnfs-checked"
# Extracted module trees may lack modules.dep: the initramfs needs it.
for dir in "$root"/lib/modules/*/; do
	[ -d "$dir" ] || continue
	[ -f "$dir/modules.dep" ] || depmod -b "$root" "$(basename "$dir")"
done
echo "$root"
