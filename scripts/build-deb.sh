#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/build-deb.sh [OUTDIR]
#
# Build the Debian package lwnfs-dkms, and the source package lwnfs, from
# a copy of this tree (tracked and untracked files alike, minus what
# .gitignore lists) made under OUTDIR (default build/deb), so that nothing
# is written next to the checkout.  The packages (.deb; .dsc and .tar.xz)
# and the .changes/.buildinfo files land in OUTDIR.
set -euo pipefail

cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-build/deb}")

for tool in dpkg-buildpackage dh dh_dkms; do
	command -v "$tool" >/dev/null || {
		echo "build-deb: $tool is missing (run harness/deps.sh)" >&2
		exit 1
	}
done

# The source package too (lintian checks it; a native package's source
# directory is named after the package and its version).
version=$(dpkg-parsechangelog -S Version)
src=$out/lwnfs-$version
rm -rf "$out"
mkdir -p "$src"
tar --exclude-vcs --exclude-vcs-ignores --exclude=./build -cf - . |
	tar -C "$src" -xf -

log=$out/build.log
(cd "$src" && dpkg-buildpackage --build=full --no-sign) >"$log" 2>&1 || {
	tail -n 30 "$log" >&2
	echo "build-deb: dpkg-buildpackage failed (log: $log)" >&2
	exit 1
}
rm -rf "$src"
ls "$out"/*.deb
