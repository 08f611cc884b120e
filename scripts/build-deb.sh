#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/build-deb.sh [OUTDIR]
#
# Build the Debian package lwnfs-dkms from a copy of this tree (tracked and
# untracked files alike, minus what .gitignore lists) made under OUTDIR
# (default build/deb), so that nothing is written next to the checkout.
# The package and the .changes/.buildinfo files land in OUTDIR.
set -euo pipefail

cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-build/deb}")

for tool in dpkg-buildpackage dh dh_dkms; do
	command -v "$tool" >/dev/null || {
		echo "build-deb: $tool is missing (run harness/deps.sh)" >&2
		exit 1
	}
done

rm -rf "$out"
mkdir -p "$out/src"
tar --exclude-vcs --exclude-vcs-ignores --exclude=./build -cf - . |
	tar -C "$out/src" -xf -

log=$out/build.log
(cd "$out/src" && dpkg-buildpackage --build=binary --no-sign) >"$log" 2>&1 || {
	tail -n 30 "$log" >&2
	echo "build-deb: dpkg-buildpackage failed (log: $log)" >&2
	exit 1
}
rm -rf "$out/src"
ls "$out"/*.deb
