#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: install what is missing, build lwnfs W=1 for the distro's
# kernel and the Debian package, and run the bats suite in a guest booted
# on that kernel.  Prints
# TAP and a closing "N passed, N failed" line; exits non-zero on a failure.
set -euo pipefail

cd "$(dirname "$0")/.."
tests/deps.sh
release=${KERNELRELEASE:-$(tests/distro-kernel.sh)}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
make --no-print-directory KERNELRELEASE="$release" W=1 all >"$log" 2>&1 || {
	cat "$log" >&2
	echo "check: the build failed" >&2
	exit 1
}
if grep -E 'warning:|error:' "$log" >&2; then
	echo "check: the W=1 build has warnings" >&2
	exit 1
fi
# The package the DKMS tests install is built here: under TCG in the guest
# it would take minutes.
make --no-print-directory deb >"$log" 2>&1 || {
	cat "$log" >&2
	echo "check: make deb failed" >&2
	exit 1
}

rc=0
tests/vm.sh -k "$release" -t 3600 -- bats --tap tests | tee "$log" || rc=${PIPESTATUS[0]}

passed=$(grep -c -E '^ok [0-9]+ ' "$log" || true)
skipped=$(grep -c -E '^ok [0-9]+ .* # skip' "$log" || true)
failed=$(grep -c -E '^not ok [0-9]+ ' "$log" || true)
planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -n 1)
passed=$((passed - skipped))
# Tests the guest never reached (a crash, a timeout) count as failed.
lost=$(( ${planned:-0} - passed - skipped - failed ))
[ "$lost" -le 0 ] || failed=$((failed + lost))
case $rc in
0 | 1) ;;
124) echo "check: the kernel log shows problems (see above)"; failed=$((failed + 1)) ;;
*) echo "check: the guest failed with status $rc"; [ "${planned:-0}" != 0 ] || failed=$((failed + 1)) ;;
esac

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] && [ "$rc" = 0 ] && [ "$passed" -gt 0 ]
