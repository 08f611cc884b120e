#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/images/root-update.sh ROOT   (root.sh's mmdebstrap setup hook)
#
# apt-get update for the root mmdebstrap is making, in its place (it then
# skips its own, which fails on any index that does not download).  One
# failure is let through, said in one line each: an index a mirror
# mid-sync serves at another size than its Release file gives ("Mirror
# sync in progress?").  The root is made without that index (a security
# update may be missing; the root's check for a newer kernel remakes it
# once the mirror is whole).  Any other error fails the hook, and the
# root.
set -euo pipefail

root=${1:?usage: root-update.sh ROOT}
name=${root##*/}
name=${name%.new}
rc=0
out=$(APT_CONFIG=$MMDEBSTRAP_APT_CONFIG apt-get update 2>&1) || rc=$?
[ "$rc" = 0 ] && exit 0
# apt says each index that failed in an "Err:" line, the reason on the
# next (left blank when it is the one before's); then "E:" lines: each
# index again, and a summary.
other=0 let=0 last=''
while IFS= read -r line; do
	case $line in
	Err:*) read -r reason || reason=''
		[ -n "$reason" ] || reason=$last
		last=$reason
		case $reason in
		*"Mirror sync in progress?"*)
			let=$((let + 1))
			read -r _ url index <<<"$line"
			echo "root-update: $name: $url serves $index at another size than its Release file says (a mirror mid-sync): the root is made without it" >&2 ;;
		*) other=1 ;;
		esac ;;
	"E: Failed to fetch "* | "E: Some index files failed to download."*) ;;
	E:*) other=1 ;;
	esac
done <<<"$out"
if [ "$other" = 1 ] || [ "$let" = 0 ]; then
	echo "$out" >&2
	echo "root-update: $name: apt-get update failed (status $rc)" >&2
	exit 1
fi
