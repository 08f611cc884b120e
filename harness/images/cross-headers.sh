#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/images/cross-headers.sh ROOT ARCH:FLAVOUR...
#
# Put into the amd64 Debian root ROOT (a cross root that root.sh is
# making, whose dpkg knows each ARCH as a foreign architecture) the
# headers of the kernel that linux-headers-FLAVOUR of ARCH depends on in
# ROOT's archive today: the linux-headers-RELEASE package of ARCH,
# extracted as dpkg -x would (apt cannot install it in an amd64 root: it
# depends on the gcc of its own architecture), and, installed with apt,
# the two packages it needs of the same version: linux-headers-...-common
# (all) and the amd64 linux-kbuild (fixdep, modpost: host programs).  The
# headers' relative scripts and tools links then find that kbuild.
# Appends "ARCH:FLAVOUR RELEASE VERSION CANDIDATE" to ROOT/.lwnfs-headers
# for each (served.bash's served_kernel: CANDIDATE is the metapackage's
# version, which root.sh's check for a newer kernel compares).
set -euo pipefail

usage='usage: cross-headers.sh ROOT ARCH:FLAVOUR...'
root=${1:?$usage}
shift
[ "$#" -gt 0 ] || { echo "$usage" >&2; exit 2; }
archives=/var/cache/apt/archives

# shellcheck source=harness/images/served.bash
. "$(dirname "$0")/served.bash"

for spec; do
	arch=${spec%%:*} flavour=${spec#*:}
	read -r version package candidate < <(served_kernel headers "$flavour" "$arch") || exit 1
	echo "cross-headers: $arch: $package $version" >&2
	deb=$archives/${package}_${version//:/%3a}_$arch.deb
	# dpkg -x, but keeping /lib a link to usr/lib (merged /usr).
	# shellcheck disable=SC2016 # the root's sh expands $1
	lwnfs_in_root "$root" sh -c 'dpkg-deb --fsys-tarfile "$1" | tar -x --keep-directory-symlink -C /' \
		sh "$deb"
	# No kernel of that release runs here: without its /lib/modules/RELEASE
	# nothing takes this root for a kernel root to build against natively
	# (cross-build.sh names the headers by their /usr/src path).
	rm -r "$root/lib/modules/${package#linux-headers-}"
	# What it needs besides its own architecture's gcc, of its version.
	depends=$(lwnfs_in_root "$root" dpkg-deb -f "$deb" Depends)
	common='' kbuild=''
	for need in $(echo "$depends" | tr , '\n' |
		sed -n 's/^ *\(linux-headers-[^ ]*-common[^ ]*\|linux-kbuild-[^ ]*\)\( .*\)\{0,1\}$/\1/p'); do
		case $need in linux-kbuild-*) kbuild=$need ;; *) common=$need ;; esac
	done
	if [ -z "$common" ] || [ -z "$kbuild" ]; then
		echo "cross-headers: $package: not one -common and one linux-kbuild in its Depends" >&2
		exit 1
	fi
	# shellcheck disable=SC2016 # dpkg-query's format
	have=$(lwnfs_in_root "$root" dpkg-query -W -f='${Version}' "$kbuild" 2>/dev/null || true)
	if [ -z "$have" ] || [ "$have" = "$version" ]; then
		lwnfs_in_root "$root" apt-get install -y -q=2 --no-install-recommends "$common=$version" "$kbuild=$version" >&2
	else
		# linux-kbuild-SERIES is one package for every kernel ABI of the
		# series, installed already at another row's version (a flavour
		# whose updates stopped): this one's is extracted beside it and
		# the headers' scripts and tools links point there.
		lwnfs_in_root "$root" apt-get install -y -q=2 --no-install-recommends "$common=$version" >&2
		served_download "$kbuild=$version"
		own=/usr/lib/$kbuild-$version
		# shellcheck disable=SC2016 # the root's sh expands $1 to $3
		lwnfs_in_root "$root" sh -c 'rm -rf "$3" && mkdir -p "$3.x" && dpkg-deb -x "$1" "$3.x" &&
			mv "$3.x/usr/lib/$2" "$3" && rm -r "$3.x"' sh \
			"$archives/${kbuild}_${version//:/%3a}_amd64.deb" "$kbuild" "$own"
		for link in scripts tools; do
			ln -sfn "../..${own#/usr}/$link" "$root/usr/src/$package/$link"
		done
		echo "cross-headers: $arch: $kbuild $have is in the root for another row: $version's in $own" >&2
	fi
	echo "$spec ${package#linux-headers-} $version $candidate" >>"$root/.lwnfs-headers"
done
