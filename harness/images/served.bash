# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by cross-headers.sh and root-kernel.sh, which set root: which
# kernel packages the root's archive really serves, for it may list a
# kernel and answer 404 for its image and headers.

# shellcheck source=harness/settings.sh
. "$(dirname "${BASH_SOURCE[0]}")/../settings.sh"

# served_kernel KIND FLAVOUR ARCH [TWIN]: "VERSION PACKAGE CANDIDATE":
# the linux-KIND-RELEASE-FLAVOUR of ARCH (KIND image or headers) that
# linux-KIND-FLAVOUR, at version CANDIDATE in the root's archive, depends
# on, downloaded with served_download, with TWIN's (image or headers) of
# the same version; when the archive does not serve it, the newest older
# one it serves, said in one line.  Says so and fails when there is none.
served_kernel() {
	local kind=$1 flavour=$2 arch=$3 twin=${4:-} me=${0##*/} meta candidate package version v p
	me=${me%.sh} meta=linux-$kind-$flavour:$arch
	candidate=$(lwnfs_in_root "$root" apt-cache policy "$meta" | sed -n 's/^ *Candidate: //p')
	if [ -z "$candidate" ] || [ "$candidate" = "(none)" ]; then
		echo "$me: no $meta in the archive of $root" >&2
		return 1
	fi
	package=$(lwnfs_in_root "$root" apt-cache show "$meta=$candidate" |
		sed -n "s/^Depends: \(linux-$kind-[^ ,:]*\).*/\1/p")
	if [ -z "$package" ]; then
		echo "$me: $meta $candidate depends on no linux-$kind-RELEASE" >&2
		return 1
	fi
	version=$candidate
	if ! served_get "$version" "$package"; then
		version=''
		while read -r v p; do
			if served_get "$v" "$p"; then
				version=$v package=$p
				break
			fi
		done < <(served_older "$kind" "$flavour" "$arch" "$candidate")
		if [ -z "$version" ]; then
			echo "$me: $arch: no $kind of $meta $candidate or older could be downloaded" >&2
			return 1
		fi
		echo "$me: $arch: the archive lists $meta $candidate but does not serve its $kind: $package $version instead" >&2
	fi
	echo "$version $package $candidate"
}

# served_download PACKAGE[:ARCH]=VERSION...: into apt's own cache of the
# root, which root.sh keeps for the next root; fails when the archive
# does not serve one of them.
served_download() {
	lwnfs_in_root "$root" env -C /var/cache/apt/archives apt-get download -q=2 \
		-o APT::Sandbox::User=root "$@" </dev/null
}

# served_get VERSION PACKAGE: served_kernel's download of one of them,
# with its twin (served_kernel's kind, arch and twin).
served_get() {
	served_download "$2:$arch=$1" ${twin:+"linux-$twin-${2#"linux-$kind-"}:$arch=$1"} >&2
}

# served_older KIND FLAVOUR ARCH VERSION: "VERSION PACKAGE" for each
# linux-KIND-RELEASE-FLAVOUR (KIND image or headers) of ARCH the root's
# archive lists older than VERSION, newest first.
served_older() {
	local kind=$1 flavour=$2 arch=$3 below=$4 package
	lwnfs_in_root "$root" apt-cache pkgnames "linux-$kind-" |
		grep -E "^linux-$kind-[0-9.]+(\+deb[0-9.]+)?(-[0-9]+)?-$flavour\$" |
	while read -r package; do
		lwnfs_in_root "$root" apt-cache madison "$package:$arch" | awk -v p="$package" '{ print $3, p }'
	done | sort -u | sort -r -V | while read -r version package; do
		! dpkg --compare-versions "$version" lt "$below" || echo "$version $package"
	done
}
