#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/tap-count.sh TAPLOG STATUS [ROW]
#
# Count the TAP in TAPLOG of a guest run that ended with vm.sh's exit
# STATUS; print "PASSED FAILED SKIPPED".  A skip is not a pass: one that
# tests/data/skips does not list for ROW fails, and so does a listed test
# that passed.  A test number seen again, beyond the plan or never seen
# (a test the guest never reached) fails, said on stderr.  A run that
# planned no test fails, and so does a STATUS but 0 that no failed test
# accounts for: a guest that died after its plan, a kernel log with
# problems, a harness that failed before bats.
set -euo pipefail

usage="usage: tap-count.sh TAPLOG STATUS [ROW]"
log=${1:?$usage} rc=${2:?$usage} row=${3:-}
skips=${LWNFS_SKIPS:-$(dirname "$0")/../tests/data/skips}	# another table: verdict-check.sh's

planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -n 1)
counts=$(awk -v file="$log" -v planned="${planned:-0}" -v row="$row" \
	-f "$(dirname "$0")/tap-count.awk" "$skips" "$log")
read -r passed failed skipped <<<"$counts"
if [ "$rc" != 0 ] && { [ "$rc" != 1 ] || [ "$failed" = 0 ]; }; then
	failed=$((failed + 1))
fi
echo "$passed $failed $skipped"
