#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-debug: build (once) the sanitizer kernel, build lwnfs against
# it, and run the suite, the fuzzers, the stress test and a kmemleak scan
# in a guest booted on it.  Prints TAP and "N passed, N failed, N
# skipped"; exits non-zero on any failure or sanitizer report.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
harness/deps.sh debug
dir=$(harness/debug-kernel.sh)
release=$(cat "$dir/include/config/kernel.release")
make --no-print-directory KERNELRELEASE="$release" KDIR="$dir" W=1 modules test-programs
make --no-print-directory deb >/dev/null	# for the DKMS package tests

log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
LWNFS_STRESS_SECONDS=${LWNFS_STRESS_SECONDS:-20} LWNFS_TRINITY_SECONDS=${LWNFS_TRINITY_SECONDS:-60} \
	harness/vm.sh -k "$release" -K "$dir/arch/x86/boot/bzImage" -M "$dir/modroot" -t "$LWNFS_SUITE_TIMEOUT" \
	-- harness/guest/debug.sh | tee "$log" || rc=${PIPESTATUS[0]}
read -r passed failed skipped < <(harness/tap-count.sh "$log" "$rc")
echo "$passed passed, $failed failed, $skipped skipped"
[ "$rc" = 0 ] && [ "$failed" = 0 ]
