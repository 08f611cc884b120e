#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/check-debug.sh [suite] [faults] [kcsan]   (default: all three)
#
# make check-debug: a guest a part, on the checking kernels of
# harness/images/debug-kernel.sh.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
harness/deps.sh debug
parts=("$@")
[ "${#parts[@]}" -gt 0 ] || parts=(suite faults kcsan)
for which in "${parts[@]}"; do
	case $which in suite | faults | kcsan) ;; *)
		echo "usage: check-debug.sh [suite] [faults] [kcsan]" >&2
		exit 2 ;;
	esac
done

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
log=$logs/build.log
start=$SECONDS rc=0 total_passed=0 total_failed=0 total_skipped=0

# part FLAVOUR SCRIPT [VM.SH OPTION...]: lwnfs built against the FLAVOUR
# kernel, SCRIPT run in a guest booted on it, its TAP counted.
part() {
	local flavour=$1 script=$2 dir release t=$SECONDS
	shift 2
	dir=$(harness/images/debug-kernel.sh "$flavour")
	release=$(cat "$dir/include/config/kernel.release")
	lwnfs_quiet "$log" "the build against $release failed" make --no-print-directory \
		KERNELRELEASE="$release" KDIR="$dir" W=1 modules test-modules test-programs
	LWNFS_STRESS_SECONDS=${LWNFS_STRESS_SECONDS:-20} LWNFS_TRINITY_SECONDS=${LWNFS_TRINITY_SECONDS:-60} \
		harness/tap-run.sh "$logs/$flavour-${script##*/}.log" -k "$release" \
		-K "$dir/arch/x86/boot/bzImage" -M "$dir/modroot" \
		-t "$LWNFS_SUITE_TIMEOUT" "$@" -- "$script" || rc=1
	lwnfs_tally "$logs/$flavour-${script##*/}.log"
	echo "check-debug: $script on $release: $((SECONDS - t)) s"
}

for which in "${parts[@]}"; do
	case $which in
	suite)
		make --no-print-directory deb >/dev/null	# for the DKMS package tests
		part debug harness/guest/debug.sh ;;
	faults)
		# Let through each injected vmalloc() failure's stack (faults.sh
		# checks them) and kmemleak's own failed allocation, after which
		# it scans more, not less.
		part debug harness/guest/faults.sh -c -a 'kmemleak: Cannot allocate a scan area' ;;
	kcsan)
		part kcsan harness/guest/kcsan.sh ;;
	esac
done
echo "$total_passed passed, $total_failed failed, $total_skipped skipped ($((SECONDS - start)) s)"
[ "$rc" = 0 ] && [ "$total_failed" = 0 ]
