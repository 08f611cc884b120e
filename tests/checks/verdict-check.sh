#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/checks/verdict-check.sh
#
# Is the harness's verdict on a guest run sound?  LWNFS_KERNEL_BAD
# (harness/settings.sh) against its samples, the LWNFS_EXIT_* statuses,
# and harness/tap-count.sh's reading of expected skips.
set -euo pipefail

cd "$(dirname "$0")/../.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
bad=0
problem() {
	echo "verdict-check: $*" >&2
	bad=1
}

if [ "${#LWNFS_KERNEL_BAD_SAMPLES[@]}" = 0 ] || [ "${#LWNFS_KERNEL_GOOD_SAMPLES[@]}" = 0 ]; then
	problem "no bad or no good samples read from tests/data/kernel-log"
fi
! grep -nvE '^(#|$|bad |good )' tests/data/kernel-log ||
	problem "tests/data/kernel-log: the lines above are neither bad nor good"
for line in "${LWNFS_KERNEL_BAD_SAMPLES[@]}"; do
	grep -Eq -e "$LWNFS_KERNEL_BAD" <<<"$line" ||
		problem "LWNFS_KERNEL_BAD misses the problem '$line'"
done
for line in "${LWNFS_KERNEL_GOOD_SAMPLES[@]}"; do
	! grep -Eq -e "$LWNFS_KERNEL_BAD" <<<"$line" ||
		problem "LWNFS_KERNEL_BAD takes '$line', which is no problem"
done

declare -A seen=()
for name in $(compgen -v LWNFS_EXIT_); do
	status=${!name}
	if [ "$status" -le 2 ] || [ "$status" -ge 124 ]; then
		problem "$name=$status: 0 to 2, timeout(1)'s and signals' statuses are taken"
	elif [ -n "${seen[$status]:-}" ]; then
		problem "$name=$status: the status of ${seen[$status]} too"
	fi
	seen[$status]=$name
done
[[ $(lwnfs_status_says 124) != *"kernel log"* ]] ||
	problem "timeout(1)'s 124 is read as a kernel-log problem"
[[ $(lwnfs_status_says "$LWNFS_EXIT_KERNEL_LOG") == *"kernel log"* ]] ||
	problem "LWNFS_EXIT_KERNEL_LOG is not read as a kernel-log problem"

# counted ROW TAP-LINE "PASSED FAILED SKIPPED": tap-count.sh's count of a
# one-test run whose line is TAP-LINE, on ROW.
counted() {
	local got
	printf '1..1\n%s\n' "$2" >"$tap"
	got=$(LWNFS_SKIPS=$tap.skips harness/tap-count.sh "$tap" 0 "$1" 2>/dev/null)
	[ "$got" = "$3" ] || problem "tap-count.sh on ${1:-no row}: '$2' counted $got, not $3"
}
tap=$(mktemp)
trap 'rm -f "$tap" "$tap.skips"' EXIT
row=bullseye test="a test: its name, with spaces (and parentheses)"
printf '# row | test | why\n%s  | %s | a reason\n' "$row" "$test" >"$tap.skips"
counted "$row" "ok 1 $test in 5ms # skip why" "0 0 1"
counted "$row" "ok 1 $test in 5ms" "0 1 0"
counted "" "ok 1 $test in 5ms # skip why" "0 1 0"
counted "$row" "ok 1 a test no row skips in 5ms # skip why" "0 1 0"

[ "$bad" = 0 ] || exit 1
echo "verdict: ok (${#LWNFS_KERNEL_BAD_SAMPLES[@]} problems and ${#LWNFS_KERNEL_GOOD_SAMPLES[@]} good lines, ${#seen[@]} statuses)"
