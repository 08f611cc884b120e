# SPDX-License-Identifier: GPL-2.0
#
# Sourced by cross-headers.sh and root-kernel.sh, which define in_root
# (run a command in the root being made): the kernel packages an archive
# lists and what it really serves.  The one reachable here lists
# trixie's newest s390x and ppc64el kernels but answers 404 for their
# images and headers (Dec 2026).

# served_download PACKAGE[:ARCH]=VERSION...: into apt's own cache of the
# root, which root.sh keeps for the next root; fails when the archive
# does not serve one of them.
served_download() {
	in_root env -C /var/cache/apt/archives apt-get download -q=2 \
		-o APT::Sandbox::User=root "$@" </dev/null
}

# served_older KIND FLAVOUR ARCH VERSION: "VERSION PACKAGE" for each
# linux-KIND-RELEASE-FLAVOUR (KIND image or headers) of ARCH the root's
# archive lists older than VERSION, newest first.
served_older() {
	local kind=$1 flavour=$2 arch=$3 below=$4 package
	in_root apt-cache pkgnames "linux-$kind-" |
		grep -E "^linux-$kind-[0-9.]+(\+deb[0-9.]+)?(-[0-9]+)?-$flavour\$" |
	while read -r package; do
		in_root apt-cache madison "$package:$arch" | awk -v p="$package" '{ print $3, p }'
	done | sort -u | sort -r -V | while read -r version package; do
		! dpkg --compare-versions "$version" lt "$below" || echo "$version $package"
	done
}
