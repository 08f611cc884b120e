#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/images/newest-kernel.sh FLAVOUR SUITE...
#
# "SUITE VERSION" of the newest amd64 linux-image-FLAVOUR the SUITEs ship
# (the first SUITE named on a tie), for root.sh's next row; asks the
# host's archive (lwnfs_mirror) with apt lists of its own, the host's
# untouched.
set -euo pipefail

flavour=${1:?usage: newest-kernel.sh FLAVOUR SUITE...}
shift
[ $# -gt 0 ] || { echo "usage: newest-kernel.sh FLAVOUR SUITE..." >&2; exit 2; }
# shellcheck source=harness/settings.sh
. "$(dirname "$0")/../settings.sh"
dir=$LWNFS_CACHE/apt-newest
mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
debian=$(lwnfs_mirror main)
for suite; do
	echo "deb $debian $suite main"
done >"$dir/sources.list"
# sid's and experimental's Release files may be served past Valid-Until.
apt=(-o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent
	-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache"
	-o Dir::State::status=/dev/null -o APT::Architectures=amd64
	-o Acquire::Check-Valid-Until=false -o Acquire::Languages=none
	-o APT::Sandbox::User=root)
if ! out=$(apt-get -q=2 "${apt[@]}" update 2>&1); then
	echo "newest-kernel: apt-get update failed for $*: $(grep '^[EW]:' <<<"$out" | head -n 3 | tr '\n' ' ')" >&2
	exit 1
fi
# madison: "PACKAGE | VERSION | URI SUITE/main amd64 Packages"
apt-cache "${apt[@]}" madison "linux-image-$flavour" | awk -F' *[|] *' -v order="$*" '
	BEGIN { n = split(order, s, " "); for (i = 1; i <= n; i++) rank[s[i]] = i }
	{ split($3, f, " "); suite = f[2]; sub(/\/.*/, "", suite)
	  if (suite in rank) print rank[suite], suite, $2 }' |
	sort -k1,1n | {
	best='' bestv=''
	while read -r _ suite version; do
		if [ -z "$best" ] || dpkg --compare-versions "$version" gt "$bestv"; then
			best=$suite bestv=$version
		fi
	done
	if [ -z "$best" ]; then
		echo "newest-kernel: no linux-image-$flavour in $*" >&2
		exit 1
	fi
	echo "$best $bestv"
}
