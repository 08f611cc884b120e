# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by cross-headers.sh and root-kernel.sh, which set root: which
# kernel packages the root's archive really serves, for it may list a
# kernel and answer 404 for its image and headers.

# shellcheck source=harness/settings.sh
. "$(dirname "${BASH_SOURCE[0]}")/settings.sh"

# served_meta META KIND: "VERSION PACKAGE": the version of metapackage
# META that the root's archive offers, and the linux-KIND-RELEASE-FLAVOUR
# (KIND image or headers) of one kernel ABI that it depends on; says so
# and fails when there is no such META or dependency.
served_meta() {
	local meta=$1 kind=$2 version package
	version=$(lwnfs_in_root "$root" apt-cache policy "$meta" | sed -n 's/^ *Candidate: //p')
	if [ -z "$version" ] || [ "$version" = "(none)" ]; then
		echo "${0##*/}: no $meta in the archive of $root" >&2
		return 1
	fi
	package=$(lwnfs_in_root "$root" apt-cache show "$meta=$version" |
		sed -n "s/^Depends: \(linux-$kind-[^ ,:]*\).*/\1/p")
	if [ -z "$package" ]; then
		echo "${0##*/}: $meta $version depends on no linux-$kind-RELEASE" >&2
		return 1
	fi
	echo "$version $package"
}

# served_download PACKAGE[:ARCH]=VERSION...: into apt's own cache of the
# root, which root.sh keeps for the next root; fails when the archive
# does not serve one of them.
served_download() {
	lwnfs_in_root "$root" env -C /var/cache/apt/archives apt-get download -q=2 \
		-o APT::Sandbox::User=root "$@" </dev/null
}

# served_pick KIND FLAVOUR ARCH VERSION PACKAGE [TWIN]: "VERSION PACKAGE":
# PACKAGE (a linux-KIND-RELEASE-FLAVOUR of ARCH) at VERSION, downloaded
# with served_download, or when the archive does not serve it the newest
# older one it serves (served_older); with TWIN (image or headers) the
# linux-TWIN-RELEASE-FLAVOUR of the same version is downloaded too, and
# must be served as well.  Fails when none is.
served_pick() {
	local kind=$1 flavour=$2 arch=$3 version=$4 package=$5 twin=${6:-} v p
	if served_get "$version" "$package"; then
		echo "$version $package"
		return 0
	fi
	while read -r v p; do
		if served_get "$v" "$p"; then
			echo "$v $p"
			return 0
		fi
	done < <(served_older "$kind" "$flavour" "$arch" "$version")
	return 1
}

# served_get VERSION PACKAGE: served_pick's download of one of them, with
# its twin (served_pick's kind, arch and twin).
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
