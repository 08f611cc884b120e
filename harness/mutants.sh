#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/mutants.sh [NAME...]
#
# make mutants: build lwnfs and each mutant of lwnfs.c in tests/mutants
# (or the NAMEs given) for the distro's kernel, or KERNELRELEASE, and run
# the module's suites against each in a guest (harness/guest/mutants.sh):
# first lwnfs as it is, which must pass, then every mutant that is not
# marked equivalent.  One guest runs them all, unless a mutant crashes its
# kernel, leaves lwnfs stuck or puts a problem in the kernel log: then a
# new guest goes on with the next.  Prints one line per mutant, what
# killed it or SURVIVED, and a closing "N passed, N failed" line: a mutant
# killed passes, a mutant that survives fails.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
harness/deps.sh
release=${KERNELRELEASE:-$(harness/distro-kernel.sh)}
kdir=/lib/modules/$release/build
list=tests/mutants
work=$PWD/build/mutants
start=$SECONDS

declare -A reason first
names=()
while IFS=$'\t' read -r name file why; do
	first[$name]=$file reason[$name]=$why
	names+=("$name")
done < <(harness/mutant.pl "$list")
if [ $# -gt 0 ]; then
	for name; do
		[ -n "${reason[$name]+set}" ] || { echo "mutants: no mutant $name in $list" >&2; exit 2; }
	done
	names=("$@")
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
make --no-print-directory KERNELRELEASE="$release" modules test-programs >"$log" 2>&1 || {
	cat "$log" >&2
	echo "mutants: the build failed" >&2
	exit 1
}

# Each mutant in a directory of its own, two builds at a time.  Equivalent
# ones too: that they still apply and build keeps the list true.
rm -rf "$work"
build() {
	local dir=$work/$1
	mkdir -p "$dir"
	cp Kbuild conftest.sh lwnfs.h "$dir/"
	harness/mutant.pl "$list" "$1" lwnfs.c >"$dir/lwnfs.c" || return 1
	make -C "$kdir" M="$dir" modules >"$dir/build.log" 2>&1 || {
		echo "mutants: $1 does not build (see $dir/build.log)" >&2
		return 1
	}
}
jobs=0 failed_builds=0
for name in "${names[@]}"; do
	build "$name" &
	jobs=$((jobs + 1))
	if [ "$jobs" -ge "$(nproc)" ]; then
		wait -n || failed_builds=$((failed_builds + 1))
		jobs=$((jobs - 1))
	fi
done
while [ "$jobs" -gt 0 ]; do
	wait -n || failed_builds=$((failed_builds + 1))
	jobs=$((jobs - 1))
done
[ "$failed_builds" = 0 ] || exit 1
echo "mutants: ${#names[@]} built in $((SECONDS - start)) s"

# The guests' work list: lwnfs itself first, then the mutants to run.
todo=()
todo+=("original $PWD/lwnfs.ko -")
for name in "${names[@]}"; do
	[ -n "${reason[$name]}" ] || todo+=("$name $work/$name/lwnfs.ko ${first[$name]}")
done

declare -A verdict
boots=0
while [ "${#todo[@]}" -gt 0 ]; do
	printf '%s\n' "${todo[@]}" >"$work/todo"
	boots=$((boots + 1))
	rc=0
	# Time enough for every suite of every mutant left; a hung kernel
	# costs that much once.
	harness/vm.sh -k "$release" -t $((600 + 300 * ${#todo[@]})) -- \
		harness/guest/mutants.sh "$work/todo" | tee "$log" || rc=${PIPESTATUS[0]}
	while read -r name what; do
		verdict[$name]=$what
	done < <(sed -n 's/^mutant \([^ ]*\): \(killed by .*\|survived\)$/\1 \2/p' "$log")
	last=$(sed -n 's/^mutant \([^ ]*\): start$/\1/p' "$log" | tail -n 1)
	if [ -z "$last" ]; then
		echo "mutants: the guest ran no mutant (status $rc)" >&2
		exit 1
	fi
	if [ -z "${verdict[$last]+set}" ]; then
		verdict[$last]="killed by the guest's death (vm.sh status $rc)"
	elif [ "$rc" != 0 ] && [ "$rc" != 3 ] && [ "$rc" != 124 ]; then
		echo "mutants: the guest failed with status $rc after $last" >&2
		exit 1
	fi
	left=()
	for entry in "${todo[@]}"; do
		[ -n "${verdict[${entry%% *}]+set}" ] || left+=("$entry")
	done
	todo=("${left[@]}")
done

echo
case ${verdict[original]} in
survived) echo "lwnfs itself: passes" ;;
*)
	echo "mutants: lwnfs itself fails, so no verdict holds: ${verdict[original]}" >&2
	exit 1
	;;
esac
passed=0 failed=0
for name in "${names[@]}"; do
	if [ -n "${reason[$name]}" ]; then
		echo "$name: equivalent, not run: ${reason[$name]}"
	elif [ "${verdict[$name]}" = survived ]; then
		echo "$name: SURVIVED"
		failed=$((failed + 1))
	else
		echo "$name: ${verdict[$name]}"
		passed=$((passed + 1))
	fi
done
echo "mutants: $((SECONDS - start)) s, $boots guest(s)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
