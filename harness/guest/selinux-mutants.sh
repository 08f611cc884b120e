#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/selinux-mutants.sh TODO   (in the guest of make check-selinux)
# tests/selinux on lwnfs, its TAP on stdout; then, for each "NAME KO" of
# TODO, the suite on KO, its TAP kept back, and one verdict line.
set -uo pipefail

todo=${1:?usage: selinux-mutants.sh TODO}
rc=0
bats --tap tests/selinux || rc=$?
tap=$(mktemp)
trap 'rm -f "$tap"' EXIT
# first_failure KO: the first test of tests/selinux that fails on KO, or
# "bats failed: ..." with none; nothing when the suite passes.
first_failure() {
	LWNFS_KO=$1 bats --tap tests/selinux >"$tap" 2>&1 && return
	sed -n 's/^not ok [0-9]* //p' "$tap" | head -n 1 | grep . ||
		echo "bats failed: $(tail -n 1 "$tap")"
}
while read -r name ko; do
	test=$(first_failure "$ko")
	if [ -z "$test" ]; then
		echo "mutant $name: survived"
		continue
	fi
	# A kill is a test failed twice (lwnfs passed it above): one that
	# fails by chance once must not kill.
	again=$(first_failure "$ko")
	if [[ $test != "bats failed: "* ]] && [ "$again" = "$test" ]; then
		echo "mutant $name: killed by $test"
	else
		echo "mutant $name: not killed: $test, then ${again:-passed}"
	fi
done <"$todo"
exit "$rc"
