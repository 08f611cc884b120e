#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/tap-count.sh TAPLOG STATUS [ROW]
#
# Count the bats TAP output in TAPLOG of a guest run that ended with vm.sh
# exit STATUS, and print "PASSED FAILED SKIPPED".  A skip is not a pass;
# one that tests/data/skips does not list for ROW (none without ROW) is a
# failure, and so is a test listed there for ROW that passed instead.
# The test numbers must be the plan's 1..N, each once: a number seen
# again, one beyond the plan and one never seen each count as a failed
# test, and one line on stderr says which (tests the guest never reached
# are such gaps).  A run that planned no test is a failure; so is any
# status but 0 that no failed test accounts for (bats's own 1 with failed
# tests is): a guest that printed its whole plan and then died, a
# kernel log with problems, a harness that failed before bats (1 with no
# plan).
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
