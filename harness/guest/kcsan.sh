#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside a guest on the data-race kernel (harness/debug-kernel.sh kcsan):
# the module's bats suites and the stress test on 2 vCPUs, then every
# KCSAN report of the run, sorted: one with an lwnfs function in either
# stack is ours and fails the run; the others are listed as the VFS's.
set -euo pipefail

debugfs=/sys/kernel/debug
mountpoint -q "$debugfs" || mount -t debugfs debugfs "$debugfs"
grep -qx 'enabled: 1' "$debugfs/kcsan" || { echo "kcsan: KCSAN is not enabled"; exit 1; }
dmesg -c >/dev/null	# boot's reports are not ours to sort

rc=0
bats --tap tests || rc=1
"$(dirname "$0")/stress.sh" || rc=1

# A report runs from one line of '=' to the next.
reports=$(dmesg | awk '/^\[[ 0-9.]*\] =+$/ { inside = !inside; if (!inside) print "--"; next }
	inside { sub(/^\[[ 0-9.]*\] /, ""); print }')
ours=0 others=0
while read -r head; do
	[ -n "$head" ] || continue
	echo "kcsan: not in lwnfs: $head"
	others=$((others + 1))
done < <(awk -v RS='--\n' '!/\[lwnfs\]/ { split($0, l, "\n"); for (i in l) if (l[i] ~ /^BUG: KCSAN/) print l[i] }' <<<"$reports")
if grep -q "\[lwnfs\]" <<<"$reports"; then
	echo "kcsan: data races in lwnfs:"
	awk -v RS='--\n' '/\[lwnfs\]/' <<<"$reports"
	ours=$(awk -v RS='--\n' '/\[lwnfs\]/ { n++ } END { print n + 0 }' <<<"$reports")
	rc=1
fi
echo "kcsan: $ours reports in lwnfs, $others elsewhere"
exit "$rc"
