#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/mutants/mutants-kcsan.sh [NAME...]   (make mutants-kcsan)
#
# The "kcsan:" mutants of tests/data/mutants (or the NAMEs), each built
# against the KCSAN kernel and run under harness/guest/race.sh in a guest
# of its own, lwnfs itself first.  A KCSAN report with lwnfs in its
# stacks kills only when lwnfs itself passes again after; a guest that
# fails on no check of lwnfs's state is tried once more.  One line per
# mutant, then "N passed, N failed": a killed mutant passes.
set -euo pipefail

cd "$(dirname "$0")/../.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
list=tests/data/mutants
work=$PWD/build/mutants-kcsan
start=$SECONDS

declare -A reason
names=()
listed=$(harness/mutants/mutant.pl "$list") || { echo "mutants-kcsan: $list does not parse" >&2; exit 1; }
while IFS=$'\t' read -r name _ how why; do
	[ "$how" = kcsan ] || continue
	reason[$name]=$why
	names+=("$name")
done <<<"$listed"
if [ $# -gt 0 ]; then
	for name; do
		[ -n "${reason[$name]+set}" ] || { echo "mutants-kcsan: no kcsan: mutant $name in $list" >&2; exit 2; }
	done
	names=("$@")
fi
[ "${#names[@]}" -gt 0 ] || { echo "mutants-kcsan: no mutant to run" >&2; exit 1; }

dir=$(harness/images/debug-kernel.sh kcsan)
release=$(cat "$dir/include/config/kernel.release")
make --no-print-directory KDIR="$dir" tests/programs/lwnfs-race test-modules >/dev/null
rm -rf "$work"
for name in original "${names[@]}"; do
	lwnfs_build_mutant "$dir" "$work/$name" "$list" "$name" || exit 1
done
echo "mutants-kcsan: lwnfs and ${#names[@]} mutant(s) built against $release"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
boots=0
# race NAME: race.sh on NAME's module in a fresh guest; says "passed",
# "killed by ...", "report: ..." (KCSAN's, lwnfs in its stacks) or "no
# verdict: ...".  Only race.sh's checks of lwnfs's state kill.
race() {
	local rc=0 line
	harness/boot/vm.sh -k "$release" -K "$dir/arch/x86/boot/bzImage" -M "$dir/modroot" \
		-t $((${LWNFS_RACE_SECONDS:-60} + 900)) -- harness/guest/race.sh "$work/$1/lwnfs.ko" \
		>"$log" 2>&1 || rc=$?
	sed "s/^/  $1: /" "$log" | grep -E "race: |KCSAN|$LWNFS_KERNEL_BAD" | head -n 20 >&2 || true
	if [ "$rc" = 0 ]; then
		echo passed
	elif line=$(grep -m 1 'BUG: KCSAN: ' "$log") &&
		sed -n '/BUG: KCSAN: /,/Kernel panic/p' "$log" | grep -q '\[lwnfs\]'; then
		echo "report: ${line#*BUG: KCSAN: }"
	elif line=$(grep -m 1 -o -E 'lwnfs-race: (a torn pair|torn times( of a held write)?): .*' "$log"); then
		echo "killed by race.sh: ${line#lwnfs-race: }"
	elif line=$(grep -m 1 -E '^race: FAILED: (the counter holds|the options read back)' "$log"); then
		echo "killed by race.sh: ${line#race: FAILED: }"
	elif line=$(grep -m 1 '^race: FAILED: ' "$log"); then
		echo "no verdict: race.sh failed on no check of lwnfs's state: $line"
	elif line=$(grep -m 1 -E "$LWNFS_KERNEL_BAD" "$log"); then
		echo "no verdict: a report that names no lwnfs function: $line"
	else
		echo "no verdict: the guest failed with no report (vm.sh status $rc)"
	fi
}

# original_passes: race.sh on lwnfs itself, which must pass, or no verdict holds.
original_passes() {
	local said
	said=$(race original) boots=$((boots + 1))
	[ "$said" = passed ] && return
	cat "$log" >&2
	echo "mutants-kcsan: lwnfs itself fails under race.sh, so no verdict holds: $said" >&2
	exit 1
}

original_passes
echo "mutants-kcsan: lwnfs itself passed"
passed=0 failed=0
for name in "${names[@]}"; do
	said=$(race "$name") boots=$((boots + 1))
	if [[ $said == "report: "* ]]; then
		echo "mutants-kcsan: $name: KCSAN: ${said#report: }; lwnfs itself once more"
		original_passes
		said="killed by KCSAN: ${said#report: } (lwnfs itself passed before and after)"
	elif [[ $said == "no verdict"* ]]; then
		echo "mutants-kcsan: $name: $said; once more on a fresh guest"
		first=$said
		said=$(race "$name") boots=$((boots + 1))
		[[ $said != "no verdict"* ]] || said="UNDECIDED, twice: $said"
		[[ $said != "report: "* ]] || said="UNDECIDED: KCSAN reported ${said#report: }, after: $first"
	fi
	[ "$said" != passed ] || said="SURVIVED race.sh under KCSAN: ${reason[$name]}"
	echo "$name: $said"
	if [[ $said == "killed by "* ]]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
echo "mutants-kcsan: $((SECONDS - start)) s, $boots guest(s)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
