#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/selinux.sh TODO
#
# In the guest of make check-selinux (harness/selinux.sh), booted with
# security=selinux: tests/selinux's suite against lwnfs itself, its TAP
# on stdout; then, for each line "NAME KO" of TODO, the same suite with
# lwnfs.ko taken from KO, printing "mutant NAME: killed by TEST" for the
# first test that fails, or "mutant NAME: survived" (their TAP is not
# shown: the TAP on stdout is lwnfs's alone).  Exits with bats's status
# on lwnfs itself.
set -uo pipefail

todo=${1:?usage: selinux.sh TODO}
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
