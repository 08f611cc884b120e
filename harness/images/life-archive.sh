#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/images/life-archive.sh ROOT UPGRADE_SUITE [PACKAGE...]
#
# For root.sh making a life root: fetch what tests/life installs with apt
# (the root kernel's headers, UPGRADE_SUITE's kernel and headers, the
# PACKAGEs, with what they need) into ROOT/srv/lwnfs-archive, and make
# that local archive the root's only apt source: the guest is offline.
set -euo pipefail

usage='usage: life-archive.sh ROOT UPGRADE_SUITE [PACKAGE...]'
root=${1:?$usage} suite=${2:?$usage}
shift 2
archive=/srv/lwnfs-archive
# shellcheck source=harness/settings.sh
. "$(dirname "$0")/../settings.sh"

release=$(lwnfs_root_release "$root")

sources=$root/etc/apt/sources.list
mirror=$(awk '$1 == "deb" { print $2; exit }' "$sources")
[ -n "$mirror" ] || { echo "life-archive: no mirror in $sources" >&2; exit 1; }
echo "deb $mirror $suite main" >"$root/etc/apt/sources.list.d/upgrade.list"
lwnfs_in_root "$root" apt-get -qq update
mkdir -p "$root$archive/partial"
get=(apt-get -qq -y --no-install-recommends --download-only
	-o "Dir::Cache::Archives=$archive")
lwnfs_in_root "$root" "${get[@]}" install "linux-headers-$release" "$@"
lwnfs_in_root "$root" "${get[@]}" install -t "$suite" linux-image-amd64 linux-headers-amd64
rmdir "$root$archive/partial"
rm -f "$root$archive/lock"

# Over 9p each of dpkg's fsyncs is a round trip to the host; a crashed
# guest is never recovered from anyway.
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/lwnfs-unsafe-io"

lwnfs_in_root "$root" sh -c "cd $archive && apt-ftparchive packages . >Packages"
[ -s "$root$archive/Packages" ] || { echo "life-archive: nothing fetched" >&2; exit 1; }
rm "$root/etc/apt/sources.list.d/upgrade.list"
echo "deb [trusted=yes] file:$archive ./" >"$sources"
lwnfs_in_root "$root" apt-get -qq update
echo "life-archive: $release in the root; fetched $(grep -c '^Package:' "$root$archive/Packages") packages" \
	"(the upgrade: $(lwnfs_in_root "$root" apt-cache policy linux-image-amd64 | sed -n 's/^ *Candidate: //p'))" >&2
