#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/life-archive.sh ROOT UPGRADE_SUITE [PACKAGE...]
#
# For a DKMS-life root that root.sh is making (bookworm-life, trixie-life:
# a kernel image and no headers): fetch from Debian's archive what the
# tests in tests/life/ install with apt in an offline guest, and make it
# the root's only apt source, a local archive in ROOT/srv/lwnfs-archive:
#  - the headers of the root's own kernel (linux-headers-RELEASE), which
#    a user installs after the package;
#  - the newer kernel, image and headers, of UPGRADE_SUITE (the release's
#    backports), as "apt install -t SUITE linux-image-amd64
#    linux-headers-amd64" brings it: the kernel upgrade;
#  - the PACKAGEs, such as what Debian's dkms autopkgtest installs
#    (autodep8 makes it depend on linux-doc; it wants dctrl-tools);
# each with whatever it needs that the root does not have.  apt then
# finds them as it would in the archive, and the kernel's and DKMS's
# maintainer scripts run as on a user's machine.
set -euo pipefail

usage='usage: life-archive.sh ROOT UPGRADE_SUITE [PACKAGE...]'
root=${1:?$usage} suite=${2:?$usage}
shift 2
archive=/srv/lwnfs-archive
# shellcheck source=harness/settings.sh
. "$(dirname "$0")/settings.sh"

in_root() {
	chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C \
		DEBIAN_FRONTEND=noninteractive "$@"
}

release=$(lwnfs_root_release "$root")

sources=$root/etc/apt/sources.list
mirror=$(awk '$1 == "deb" { print $2; exit }' "$sources")
[ -n "$mirror" ] || { echo "life-archive: no mirror in $sources" >&2; exit 1; }
echo "deb $mirror $suite main" >"$root/etc/apt/sources.list.d/upgrade.list"
in_root apt-get -qq update
mkdir -p "$root$archive/partial"
get=(apt-get -qq -y --no-install-recommends --download-only
	-o "Dir::Cache::Archives=$archive")
in_root "${get[@]}" install "linux-headers-$release" "$@"
in_root "${get[@]}" install -t "$suite" linux-image-amd64 linux-headers-amd64
rmdir "$root$archive/partial"
rm -f "$root$archive/lock"

# The guest writes to this root over 9p, where dpkg's fsync of every file
# it unpacks costs a round trip to the host each: unsafe-io, as in
# containers and chroots (a crash of the guest is never recovered from).
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/lwnfs-unsafe-io"

# The local archive, and nothing else: the guest has no network.
in_root sh -c "cd $archive && apt-ftparchive packages . >Packages"
[ -s "$root$archive/Packages" ] || { echo "life-archive: nothing fetched" >&2; exit 1; }
rm "$root/etc/apt/sources.list.d/upgrade.list"
echo "deb [trusted=yes] file:$archive ./" >"$sources"
in_root apt-get -qq update
echo "life-archive: $release in the root; fetched $(grep -c '^Package:' "$root$archive/Packages") packages" \
	"(the upgrade: $(in_root apt-cache policy linux-image-amd64 | sed -n 's/^ *Candidate: //p'))" >&2
