#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tap-count.sh TAPLOG STATUS
#
# Count the bats TAP output in TAPLOG of a guest run that ended with vm.sh
# exit STATUS, and print "PASSED FAILED SKIPPED".  A skip is not a pass;
# tests the guest never reached (a crash, a timeout) count as failed, and
# so does a kernel log with problems (status 124) or a run that never got
# to plan a test.
set -euo pipefail

log=${1:?usage: tap-count.sh TAPLOG STATUS} rc=${2:?usage: tap-count.sh TAPLOG STATUS}

passed=$(grep -c -E '^ok [0-9]+ ' "$log" || true)
skipped=$(grep -c -E '^ok [0-9]+ .* # skip' "$log" || true)
failed=$(grep -c -E '^not ok [0-9]+ ' "$log" || true)
planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -n 1)
passed=$((passed - skipped))
lost=$(( ${planned:-0} - passed - skipped - failed ))
[ "$lost" -le 0 ] || failed=$((failed + lost))
case $rc in
0 | 1) ;;
124) failed=$((failed + 1)) ;;
*) [ "${planned:-0}" != 0 ] || failed=$((failed + 1)) ;;
esac
echo "$passed $failed $skipped"
