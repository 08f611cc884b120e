#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/tap-count.sh TAPLOG STATUS
#
# Count the bats TAP output in TAPLOG of a guest run that ended with vm.sh
# exit STATUS, and print "PASSED FAILED SKIPPED".  A skip is not a pass.
# Tests the guest never reached count as failed; a run that planned no
# test is a failure; so is any status but 0 that no "not ok" line accounts
# for (bats's own 1 with failed tests is): a guest that printed its whole
# plan and then died (125), a kernel log with problems (124), a harness
# that failed before bats (1 with no plan).
set -euo pipefail

usage="usage: tap-count.sh TAPLOG STATUS"
log=${1:?$usage} rc=${2:?$usage}

passed=$(grep -c -E '^ok [0-9]+ ' "$log" || true)
skipped=$(grep -c -E '^ok [0-9]+ .* # skip' "$log" || true)
failed=$(grep -c -E '^not ok [0-9]+ ' "$log" || true)
planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -n 1)
passed=$((passed - skipped))
if [ -z "$planned" ] || [ "$planned" = 0 ]; then
	failed=$((failed + 1))
else
	lost=$((planned - passed - skipped - failed))
	[ "$lost" -le 0 ] || failed=$((failed + lost))
fi
if [ "$rc" != 0 ] && { [ "$rc" != 1 ] || [ "$failed" = 0 ]; }; then
	failed=$((failed + 1))
fi
echo "$passed $failed $skipped"
