#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-all: for each Debian release in $KERNELS (default: all of
# them), make or refresh its root (root.sh), build lwnfs W=1 in it with its
# own compiler (root-build.sh), boot its own kernel on that root in QEMU
# and run the whole bats suite there (vm.sh -r), the lwnfs-dkms package
# built once on the host (make deb) included.  Prints one table row per
# kernel and a closing "N passed, N failed" line; exits non-zero when any
# test fails, a build fails or warns, or a kernel cannot be fetched or
# booted.  Logs are kept in $LWNFS_CACHE/matrix-logs (default /var/cache/lwnfs).
set -euo pipefail

cd "$(dirname "$0")/.."
all="bullseye bookworm trixie trixie-rt sid"
read -r -a kernels <<<"${KERNELS:-$all}"
cache=${LWNFS_CACHE:-/var/cache/lwnfs}
logs=$cache/matrix-logs
mkdir -p "$logs"
tests/deps.sh
# One lwnfs-dkms package (Architecture: all) for every release's suite.
make --no-print-directory deb >"$logs/deb.log" 2>&1 || {
	cat "$logs/deb.log" >&2
	echo "matrix: make deb failed" >&2
	exit 1
}

rows=() total_passed=0 total_failed=0

# row NAME KERNEL COMPILER WARNINGS PASSED FAILED SECONDS RESULT
row() {
	rows+=("$(printf '| %s | %s | %s | %s | %s | %s | %s | %s |' "$@")")
	total_passed=$((total_passed + ${5/-/0}))
	total_failed=$((total_failed + ${6/-/0}))
	echo "matrix: $1: $8 (${5} passed, ${6} failed, ${7} s)" >&2
}

# test_kernel NAME: one row for the kernel of release NAME.
test_kernel() {
	local name=$1 start=$SECONDS root release cc boots warnings rc=0 p f s result
	echo "matrix: $name: root" >&2
	if ! root=$(tests/root.sh "$name" 2>"$logs/$name-root.log"); then
		cat "$logs/$name-root.log" >&2
		row "$name" - - - 0 1 $((SECONDS - start)) \
			"not fetched: $(tail -n 1 "$logs/$name-root.log")"
		return
	fi
	boots=("$root"/boot/vmlinuz-*)
	if [ "${#boots[@]}" != 1 ] || [ ! -r "${boots[0]}" ]; then
		row "$name" - - - 0 1 $((SECONDS - start)) "not fetched: no single kernel image in $root/boot"
		return
	fi
	release=${boots[0]#"$root"/boot/vmlinuz-}
	cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$root/boot/config-$release")
	cc=${cc#x86_64-linux-gnu-}

	echo "matrix: $name: build for $release with $cc" >&2
	tests/root-build.sh "$root" "$release" >"$logs/$name-build.log" 2>&1 || rc=$?
	warnings=$(grep -c -E 'warning:' "$logs/$name-build.log" || true)
	if [ "$rc" != 0 ]; then
		tail -n 30 "$logs/$name-build.log" >&2
		row "$name" "$release" "$cc" "$warnings" 0 1 $((SECONDS - start)) "build failed"
		return
	fi
	[ "$warnings" = 0 ] || grep -E 'warning:' "$logs/$name-build.log" >&2
	mkdir -p "$root/srv/lwnfs/build"
	cp -r build/deb "$root/srv/lwnfs/build/"

	echo "matrix: $name: boot $release and run the suite" >&2
	rc=0
	(cd "$root/srv/lwnfs" && tests/vm.sh -r "$root" -k "$release" -t 1800 -- bats --tap --timing tests) \
		>"$logs/$name-tests.log" 2>&1 || rc=$?
	read -r p f s < <(tests/tap-count.sh "$logs/$name-tests.log" "$rc")
	case $rc in
	0) result=ok ;;
	1) result="tests failed" ;;
	124) result="kernel log has problems" ;;
	125) result="guest did not finish (crash or timeout)" ;;
	*) result="guest failed with status $rc" ;;
	esac
	if [ "$warnings" != 0 ]; then
		result="W=1 warnings"
		f=$((f + 1))
	fi
	[ "$result" = ok ] || grep -v -E '^ok [0-9]+ ' "$logs/$name-tests.log" | tail -n 40 >&2
	[ "$s" = 0 ] || result="$result, $s skipped"
	row "$name" "$release" "$cc" "$warnings" "$p" "$f" $((SECONDS - start)) "$result"
}

for name in "${kernels[@]}"; do
	test_kernel "$name"
done

echo
echo "| release | kernel | compiler | W=1 warnings | passed | failed | seconds | result |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" = 0 ] && [ "$total_passed" -gt 0 ]
