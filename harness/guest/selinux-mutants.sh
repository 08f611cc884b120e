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
while read -r name ko; do
	if LWNFS_KO=$ko bats --tap tests/selinux >"$tap" 2>&1; then
		echo "mutant $name: survived"
	else
		echo "mutant $name: killed by $(sed -n 's/^not ok [0-9]* //p' "$tap" | head -n 1)"
	fi
done <"$todo"
rm -f "$tap"
exit "$rc"
