#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/matrix.sh [-i "ROW..."] [-b "ROW..."] [ROW...]
#
# make check-all's kernel matrix, as docs/testing.md ("make check-all")
# says: each row (with no ROW nor -b: $KERNELS, else every row of
# tests/data/rows) built W=1 with its probes checked, then booted to run
# the module's suites and the installation suites (-i: on the rows named
# only); -b: the rows named are built only.  Prints a table row per
# kernel and "N passed, N failed, N skipped"; exits non-zero when a row
# fails, no row ran, or rows were booted and no test passed.  Logs and
# matrix.json are kept in $LWNFS_CACHE/matrix-logs.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
install_rows=all build_rows=()
while getopts i:b: opt; do
	case $opt in
	i) install_rows=" $OPTARG " ;;
	b) read -r -a build_rows <<<"$OPTARG" ;;
	*) echo "usage: matrix.sh [-i \"ROW...\"] [-b \"ROW...\"] [ROW...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# = 0 ] && [ "${#build_rows[@]}" = 0 ]; then
	# shellcheck disable=SC2119 # no filter: every row
	read -r -a names <<<"${KERNELS:-$(lwnfs_rows | tr '\n' ' ')}"
	set -- "${names[@]}"
fi
logs=$LWNFS_CACHE/matrix-logs
mkdir -p "$logs"
harness/deps.sh
# One lwnfs-dkms package (Architecture: all) for every release's suite.
lwnfs_quiet "$logs/deb.log" "make deb failed" make --no-print-directory deb

rows=() total_passed=0 total_failed=0 total_skipped=0
: >"$logs/matrix-rows.tsv"

# row NAME KERNEL COMPILER SUITES PASSED FAILED SKIPPED RESULT: a row of
# the table, and of matrix-rows.tsv (run-json.pl -m) with NAME's arch and
# the caller's times; its seconds are those since the caller's start.
row() {
	local arch seconds=$((SECONDS - start))
	read -r _ arch _ < <(lwnfs_row "$1") || arch=-
	rows+=("$(printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |' "${@:1:7}" "$seconds" "$8")")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$arch" "${@:2:6}" "$seconds" "$8" \
		"${times:-}" >>"$logs/matrix-rows.tsv"
	total_passed=$((total_passed + $5))
	total_failed=$((total_failed + $6))
	total_skipped=$((total_skipped + $7))
	echo "matrix: $1: $8 ($5 passed, $6 failed, $7 skipped, $seconds s)" >&2
}

# cross_build ROW: ROW built by cross-build.sh, make's output on stdout,
# the rest (the cross root's making) apart: only make's warnings fail the
# row.  Sets cross_release, cross_cc and croot from cross-build.sh's line.
cross_build() {
	local rc=0 line
	harness/images/cross-build.sh "$1" 2>"$logs/$1-cross-root.log" || rc=$?
	line=$(sed -n "s/^cross-build: $1: \([^ ]*\) with \([^ ]*\) in \(.*\)/\1 \2 \3/p" \
		"$logs/$1-cross-root.log")
	read -r cross_release cross_cc croot <<<"${line:-- - -}"
	[ "$rc" != 0 ] || [ "$croot" = - ] || return 0
	tail -n 30 "$logs/$1-cross-root.log" >&2
	return 1
}

# cross_into ROW: ROW cross-built into its root, where root-build.sh puts
# its build, and cc set to the cross compiler; built by root-build.sh
# instead when the cross root's headers are of another release than the
# root's kernel.
cross_into() {
	local cross_release cross_cc croot
	cross_build "$1" || return
	if [ "$cross_release" != "$release" ]; then
		# Refreshed apart, the two roots can hold two kernel ABIs a while.
		echo "matrix: $1: the cross root has headers of $cross_release, the root's kernel is $release: built in the root"
		harness/images/root-build.sh "$root" "$release"
		return
	fi
	echo "matrix: $1: built for $release with $cross_cc in $croot"
	cc="$cross_cc (cross)"
	rm -rf --one-file-system "$root/srv/lwnfs" || return
	cp -a "$croot/srv/lwnfs-$1" "$root/srv/lwnfs"
}

# build_fails STATUS LOG DIR: why the build that exited with STATUS, its
# output in LOG and its tree in DIR, fails the row; nothing if it does not.
build_fails() {
	if [ "$1" != 0 ]; then
		tail -n 30 "$2" >&2
		echo "build failed"
	elif grep -E 'warning:' "$2" >&2; then
		echo "W=1 warnings"
	elif ! harness/conftest-check.pl "$release" "$3/conftest.h" >>"$2" 2>&1; then
		cat "$2" >&2
		echo "probes differ from what they must find"
	fi
}

# build NAME WHAT: lwnfs and the test programs built W=1 for matrix row
# NAME (WHAT: the suites they are for, "build" when it is not booted) and
# their probes checked; sets root, release, cc and times.  A "cross" row
# not booted needs no root of its own.  On a failure, the row and status 1.
build() {
	local name=$1 what=$2 rc=0 log=$logs/$1-build.log phase=$SECONDS
	local arch how programs dir why cross_release cross_cc croot
	read -r _ arch _ how _ < <(lwnfs_row "$name") || true
	times=''
	if [ "$what" = build ] && [ "$how" = cross ]; then
		echo "matrix: $name: cross build" >&2
		cross_build "$name" >"$log" || rc=$?
		release=$cross_release cc=$cross_cc dir=$croot/srv/lwnfs-$name
	else
		echo "matrix: $name: root" >&2
		root=$(harness/images/root.sh "$name" 2>"$logs/$name-root.log") || rc=$?
		if [ "$rc" = "$LWNFS_EXIT_SKIP" ]; then	# no such kernel now: said, not passed
			row "$name" - - - 0 0 1 "skipped: $(tail -n 1 "$logs/$name-root.log")"
			return 1
		elif [ "$rc" != 0 ]; then
			cat "$logs/$name-root.log" >&2
			row "$name" - - - 0 1 0 "not fetched: $(tail -n 1 "$logs/$name-root.log")"
			return 1
		fi
		release=$(lwnfs_root_release "$root" 2>/dev/null) || {
			row "$name" - - - 0 1 0 "not fetched: no single kernel image in $root/boot"
			return 1
		}
		cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$root/boot/config-$release")
		cc=${cc#*-linux-gnu*-}	# x86_64-linux-gnu-gcc-14, aarch64-linux-gnu-gcc-14
		times="root $((SECONDS - phase)) s, " phase=$SECONDS
		echo "matrix: $name: build for $release with $cc" >&2
		read -r _ _ programs < <(lwnfs_arch "$arch") || programs=''
		if [ "$programs" = i386 ] && [ "$what" != all ] &&
			grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-i386 2>/dev/null; then
			# The root's programs run under qemu-user here (deps.sh i386),
			# its gcc slowly: the same gcc's cross compiler builds instead.
			# (The installation suites build in the guest: natively then.)
			cross_into "$name" >"$log" 2>&1 || rc=$?
		else
			harness/images/root-build.sh "$root" "$release" >"$log" 2>&1 || rc=$?
		fi
		dir=$root/srv/lwnfs
	fi
	times+="build $((SECONDS - phase)) s"
	why=$(build_fails "$rc" "$log" "$dir")
	[ -n "$why" ] || return 0
	row "$name" "$release" "$cc" "$what" 0 1 0 "$why"
	return 1
}

# test_kernel NAME: one row for the kernel of matrix row NAME: built,
# booted, its suites run; only built when the table says it does not boot.
test_kernel() {
	local name=$1 start=$SECONDS root release cc suites=(tests) what=module
	local p f s rc result phase times boots
	read -r _ _ _ _ _ boots < <(lwnfs_row "$name") || true
	if [ -z "$boots" ]; then
		row "$name" - - - 0 1 0 "no row $name in tests/data/rows"
		return
	elif [ "$boots" != yes ]; then
		build_kernel "$name" "$boots"
		return
	fi
	if [ "$install_rows" = all ] || [[ $install_rows == *" $name "* ]]; then
		suites+=(tests/install) what=all
	fi
	build "$name" "$what" || return 0
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
	result=$(lwnfs_status_says "$rc")
	# A row where nothing passed (every test skipped) proves nothing.
	if [ "$p" = 0 ] && [ "$f" = 0 ]; then
		f=1 result="no test passed ($s skipped)"
	fi
	if [ "$result" != ok ] && [ -r "$logs/$name-tests.log" ]; then
		sed '/^ok [0-9]\+ /d' "$logs/$name-tests.log" | tail -n 40 >&2
	fi
	row "$name" "$release" "$cc" "$what" "$p" "$f" "$s" "$result"
}

# build_kernel NAME [WHY]: one row for the build of matrix row NAME, not
# booted; WHY: why a row that was to boot does not (the table's), said
# and counted as a skip.
build_kernel() {
	local name=$1 start=$SECONDS root release cc times why=${2:+: $2} skipped=0
	[ -z "$why" ] || skipped=1
	build "$name" build || return 0
	echo "matrix: $name: $times" >&2
	row "$name" "$release" "$cc" build 0 0 "$skipped" "built, not booted$why"
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
[ "$total_failed" = 0 ] && [ "${#rows[@]}" -gt 0 ] && { [ $# = 0 ] || [ "$total_passed" -gt 0 ]; }
