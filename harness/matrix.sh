#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/matrix.sh [-i "ROW..."] [-b "ROW..."] [ROW...]
#
# make check-all's kernel matrix (docs/testing.md, "make check-all"): for
# each row (default: $KERNELS, else every row of tests/data/rows), make or
# refresh its root (root.sh), build lwnfs W=1 there with the row's own
# compiler (root-build.sh), check its probes (conftest-check.pl), and boot
# its kernel on that root to run the module's suites, and the
# installation suites on every row or, with -i, on those named.  -b: the
# rows named are built only (a "cross" row by cross-build.sh); a row the
# table says does not boot is built only whatever is asked, and counts as
# a skip.  Prints a table row per kernel and "N passed, N failed, N
# skipped"; exits non-zero on a failed test, build, warning or probe, an
# unexpected skip, or a kernel that cannot be fetched or booted.  Logs
# and matrix.json (run-json.pl -m) are kept in $LWNFS_CACHE/matrix-logs.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
# row_how ROW: how -b builds ROW; row_boots ROW: "yes" or why not (both
# empty for a row tests/data/rows has not).
row_how() {
	local f
	read -r -a f < <(lwnfs_row "$1") || true
	echo "${f[3]:-}"
}
row_boots() {
	lwnfs_row "$1" | awk '{ $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print }'
}
# shellcheck disable=SC2119 # no filter: every row
all=$(lwnfs_rows | tr '\n' ' ')
install_rows=all build_rows=()
while getopts i:b: opt; do
	case $opt in
	i) install_rows=" $OPTARG " ;;
	b) read -r -a build_rows <<<"$OPTARG" ;;
	*) echo "usage: matrix.sh [-i \"ROW...\"] [-b \"ROW...\"] [ROW...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# = 0 ]; then
	read -r -a names <<<"${KERNELS:-$all}"
	set --
	for name in "${names[@]}"; do	# a row built only is not booted too
		[[ " ${build_rows[*]} " == *" $name "* ]] || set -- "$@" "$name"
	done
fi
logs=$LWNFS_CACHE/matrix-logs
mkdir -p "$logs"
harness/deps.sh
# One lwnfs-dkms package (Architecture: all) for every release's suite.
lwnfs_quiet "$logs/deb.log" "make deb failed" make --no-print-directory deb

rows=() total_passed=0 total_failed=0 total_skipped=0
# Each row again, its fields tab-separated, for matrix.json.
: >"$logs/matrix-rows.tsv"

# row NAME KERNEL COMPILER SUITES PASSED FAILED SKIPPED SECONDS RESULT
row() {
	rows+=("$(printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |' "$@")")
	# and the caller's times, "root N s, build N s, guest N s", where it has them
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" "${times:-}" >>"$logs/matrix-rows.tsv"
	total_passed=$((total_passed + $5))
	total_failed=$((total_failed + $6))
	total_skipped=$((total_skipped + $7))
	echo "matrix: $1: $9 ($5 passed, $6 failed, $7 skipped, $8 s)" >&2
}

# cross_into ROW ROOT RELEASE: lwnfs and the test programs built W=1 for
# ROW's RELEASE by cross-build.sh, copied to ROOT/srv/lwnfs where
# root-build.sh puts its build (and the compiler, in the caller's cc);
# built in ROOT by root-build.sh instead when the cross root's headers
# are of another release than ROOT's kernel.
cross_into() {
	local row=$1 root=$2 release=$3 rc=0 line cross_release cross_cc croot
	harness/cross-build.sh "$row" 2>"$logs/$row-cross-root.log" || rc=$?
	if [ "$rc" != 0 ]; then
		tail -n 30 "$logs/$row-cross-root.log"
		return "$rc"
	fi
	line=$(sed -n "s/^cross-build: $row: \([^ ]*\) with \([^ ]*\) in \(.*\)/\1 \2 \3/p" \
		"$logs/$row-cross-root.log")
	read -r cross_release cross_cc croot <<<"${line:-- - -}"
	if [ "$cross_release" != "$release" ]; then
		# Refreshed apart, the two roots can hold two kernel ABIs a while.
		echo "matrix: $row: the cross root has headers of $cross_release, the root's kernel is $release: built in the root"
		harness/root-build.sh "$root" "$release"
		return
	fi
	echo "matrix: $row: built for $release with $cross_cc in $croot"
	cc="$cross_cc (cross)"
	rm -rf --one-file-system "$root/srv/lwnfs" || return
	cp -a "$croot/srv/lwnfs-$row" "$root/srv/lwnfs"
}

# native_build NAME WHAT: make matrix row NAME's root and build lwnfs in it
# W=1 with its own compiler, its probes checked; sets root, release, cc
# and times.  On a failure, its row (WHAT: the suites it was for) and
# status 1.
native_build() {
	local name=$1 what=$2 start=$SECONDS rc=0 phase=$SECONDS arch programs
	echo "matrix: $name: root" >&2
	root=$(harness/root.sh "$name" 2>"$logs/$name-root.log") || rc=$?
	if [ "$rc" = "$LWNFS_EXIT_SKIP" ]; then	# no such kernel now: said, not passed
		row "$name" - - - 0 0 1 $((SECONDS - start)) \
			"skipped: $(tail -n 1 "$logs/$name-root.log")"
		return 1
	elif [ "$rc" != 0 ]; then
		cat "$logs/$name-root.log" >&2
		row "$name" - - - 0 1 0 $((SECONDS - start)) \
			"not fetched: $(tail -n 1 "$logs/$name-root.log")"
		return 1
	fi
	release=$(lwnfs_root_release "$root" 2>/dev/null) || {
		row "$name" - - - 0 1 0 $((SECONDS - start)) "not fetched: no single kernel image in $root/boot"
		return 1
	}
	cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$root/boot/config-$release")
	cc=${cc#*-linux-gnu*-}	# x86_64-linux-gnu-gcc-14, aarch64-linux-gnu-gcc-14
	times="root $((SECONDS - phase)) s" phase=$SECONDS

	echo "matrix: $name: build for $release with $cc" >&2
	read -r _ arch _ < <(lwnfs_row "$name")
	read -r _ _ programs < <(lwnfs_arch "$arch") || programs=''
	if [ "$programs" = i386 ] && [ "$what" != all ] &&
		grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-i386 2>/dev/null; then
		# The root's programs run under qemu-user here (deps.sh i386), its
		# gcc a minute and a half for this build: built instead with the
		# same gcc's cross compiler, as the other architectures' rows are,
		# into the root.  (The installation suites build in the guest:
		# natively then.)
		cross_into "$name" "$root" "$release" >"$logs/$name-build.log" 2>&1 || rc=$?
	else
		harness/root-build.sh "$root" "$release" >"$logs/$name-build.log" 2>&1 || rc=$?
	fi
	times+=", build $((SECONDS - phase)) s" phase=$SECONDS
	if [ "$rc" != 0 ]; then
		tail -n 30 "$logs/$name-build.log" >&2
		row "$name" "$release" "$cc" "$what" 0 1 0 $((SECONDS - start)) "build failed"
		return 1
	fi
	if grep -E 'warning:' "$logs/$name-build.log" >&2; then
		row "$name" "$release" "$cc" "$what" 0 1 0 $((SECONDS - start)) "W=1 warnings"
		return 1
	fi
	if ! harness/conftest-check.pl "$release" "$root/srv/lwnfs/conftest.h" \
		>>"$logs/$name-build.log" 2>&1; then
		cat "$logs/$name-build.log" >&2
		row "$name" "$release" "$cc" "$what" 0 1 0 $((SECONDS - start)) "probes differ from what they must find"
		return 1
	fi
}

# test_kernel NAME: one row for the kernel of matrix row NAME (only built
# when the table says it does not boot yet).
test_kernel() {
	local name=$1 start=$SECONDS root release cc suites=(tests) what=module
	local rc=0 p f s result phase times boots
	boots=$(row_boots "$name")
	if [ -z "$boots" ]; then
		row "$name" - - - 0 1 0 0 "no row $name in tests/data/rows"
		return
	elif [ "$boots" != yes ]; then
		build_kernel "$name" "$boots"
		return
	fi
	if [ "$install_rows" = all ] || [[ $install_rows == *" $name "* ]]; then
		suites+=(tests/install) what=all
	fi
	native_build "$name" "$what" || return 0
	phase=$SECONDS
	mkdir -p "$root/srv/lwnfs/build"
	cp -r build/deb "$root/srv/lwnfs/build/"

	echo "matrix: $name: boot $release and run ${suites[*]}" >&2
	harness/tap-run.sh -R "$name" -C "$root/srv/lwnfs" "$logs/$name-tests.log" \
		-r "$root" -k "$release" -t "$LWNFS_ROW_TIMEOUT" -- \
		bats --tap --timing "${suites[@]}" >/dev/null || :
	times+=", guest $((SECONDS - phase)) s"
	echo "matrix: $name: $times" >&2
	read -r p f s rc <"$logs/$name-tests.log.count"
	# A failure no status shows (a skip tests/data/skips does not expect,
	# a test never reached) is the tests' too.
	[ "$rc" != 0 ] || [ "$f" = 0 ] || rc=1
	# A row where nothing passed (every test skipped) proves nothing.
	[ "$p" -gt 0 ] || [ "$f" -gt 0 ] || { f=1 rc=nothing; }
	if [ "$rc" = nothing ]; then
		result="no test passed ($s skipped)"
	else
		result=$(lwnfs_status_says "$rc")
	fi
	[ "$result" = ok ] || grep -v -E '^ok [0-9]+ ' "$logs/$name-tests.log" | tail -n 40 >&2
	row "$name" "$release" "$cc" "$what" "$p" "$f" "$s" $((SECONDS - start)) "$result"
}

# build_kernel NAME [WHY]: one row for the build of matrix row NAME, not
# booted: cross-compiled for the table's "cross" rows, in its root for the
# others.  WHY: why a row that was to boot does not (the table's): said,
# and counted as a skip.
build_kernel() {
	local name=$1 start=$SECONDS rc=0 log=$logs/$1-cross.log line release cc root times
	local why=${2:+: $2} skipped=0
	[ -z "$why" ] || skipped=1
	if [ "$(row_how "$name")" != cross ]; then
		native_build "$name" build || return 0
		echo "matrix: $name: $times" >&2
		row "$name" "$release" "$cc" build 0 0 "$skipped" $((SECONDS - start)) "built, not booted$why"
		return
	fi
	echo "matrix: $name: cross build" >&2
	# make's output to the log, whose warnings fail the row; the cross
	# root's making and cross-build.sh's own lines to another.
	harness/cross-build.sh "$name" >"$log" 2>"$logs/$name-cross-root.log" || rc=$?
	# "cross-build: ROW: RELEASE with COMPILER in ROOT"
	line=$(sed -n "s/^cross-build: $name: \([^ ]*\) with \([^ ]*\) in \(.*\)/\1 \2 \3/p" \
		"$logs/$name-cross-root.log")
	read -r release cc root <<<"${line:-- - -}"
	if [ "$rc" != 0 ] || [ "$root" = - ]; then
		tail -n 30 "$logs/$name-cross-root.log" "$log" >&2
		row "$name" "$release" "$cc" build 0 1 0 $((SECONDS - start)) "build failed"
	elif grep -E 'warning:' "$log" >&2; then
		row "$name" "$release" "$cc" build 0 1 0 $((SECONDS - start)) "W=1 warnings"
	elif ! harness/conftest-check.pl "$release" "$root/srv/lwnfs-$name/conftest.h" >>"$log" 2>&1; then
		cat "$log" >&2
		row "$name" "$release" "$cc" build 0 1 0 $((SECONDS - start)) "probes differ from what they must find"
	else
		row "$name" "$release" "$cc" build 0 0 "$skipped" $((SECONDS - start)) "built, not booted$why"
	fi
}

for name in "$@"; do
	test_kernel "$name"
done
for name in "${build_rows[@]}"; do
	build_kernel "$name"
done

echo
echo "| row | kernel | compiler | suites | passed | failed | skipped | seconds | result |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
harness/run-json.pl -m "$logs/matrix-rows.tsv" "$logs/matrix.json" ||
	echo "matrix: $logs/matrix.json not written" >&2
echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
[ "$total_failed" = 0 ] && [ "$total_passed" -gt 0 ]
