#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/mutants/mutants.sh [NAME...]   (make mutants)
#
# Build lwnfs and the mutants of tests/data/mutants (or the NAMEs) for the
# distro's kernel or KERNELRELEASE, and run harness/guest/kill-mutants.sh on
# them, in a new guest whenever one cannot go on; a mutant with no verdict
# or a kernel report alone once more.  One line per mutant, then "N
# passed, N failed": a killed mutant passes.
set -euo pipefail

cd "$(dirname "$0")/../.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
harness/deps.sh
release=${KERNELRELEASE:-$(harness/boot/distro-kernel.sh)}
list=tests/data/mutants
work=$PWD/build/mutants
start=$SECONDS

declare -A reason first kind
declare -A elsewhere=([kcsan]="under KCSAN (make mutants-kcsan)" [selinux]="under SELinux (make check-selinux)")
names=()
listed=$(harness/mutants/mutant.pl "$list") || { echo "mutants: $list does not parse" >&2; exit 1; }
while IFS=$'\t' read -r name file how why; do
	first[$name]=$file kind[$name]=$how reason[$name]=$why
	names+=("$name")
done <<<"$listed"
if [ $# -gt 0 ]; then
	for name; do
		[ -n "${reason[$name]+set}" ] || { echo "mutants: no mutant $name in $list" >&2; exit 2; }
		[ -z "${elsewhere[${kind[$name]}]:-}" ] || { echo "mutants: $name runs ${elsewhere[${kind[$name]}]}" >&2; exit 2; }
	done
	names=("$@")
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
lwnfs_quiet "$log" "the build failed" make --no-print-directory KERNELRELEASE="$release" modules test-programs

# Each mutant in a directory of its own, nproc builds at a time.
# Equivalent ones too: that they still apply and build keeps the list true.
rm -rf "$work"
jobs=0 failed_builds=0
for name in "${names[@]}"; do
	lwnfs_build_mutant "/lib/modules/$release/build" "$work/$name" "$list" "$name" &
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

torun=()
for name in "${names[@]}"; do
	[ "${kind[$name]}" != suites ] || torun+=("$name")
done
[ "${#torun[@]}" -gt 0 ] || { echo "mutants: no mutant to run" >&2; exit 1; }

# alone: the one mutant a guest runs by itself, to see again what a
# kernel report, a test that lwnfs failed too or a guest's death showed
# (seen); again: the one the next guest runs so.
declare -A verdict seen
boots=0 again=''
# report NAME: the first kernel report in the guest's output (its serial
# log, when it died) after mutant NAME started.
report() {
	sed -n "/^mutant $1: start\$/,\$p" "$log" | grep -m 1 -E "$LWNFS_KERNEL_BAD" || true
}
while true; do
	alone=$again again=''
	todo=("original $PWD/lwnfs.ko -")
	for name in ${alone:-"${torun[@]}"}; do
		[ -n "${verdict[$name]+set}" ] || todo+=("$name $work/$name/lwnfs.ko ${first[$name]}")
	done
	[ "${#todo[@]}" -gt 1 ] || break
	printf '%s\n' "${todo[@]}" >"$work/todo"
	boots=$((boots + 1))
	rc=0
	# Time enough for every suite of every mutant left; a hung kernel
	# costs that much once.
	harness/boot/vm.sh -k "$release" -t $((600 + 300 * ${#todo[@]})) -- \
		harness/guest/kill-mutants.sh "$work/todo" 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
	declare -A said=()
	while read -r name what; do
		said[$name]=$what
	done < <(sed -n 's/^mutant \([^ ]*\): \(killed by .*\|survived\|unconfirmed: .*\|flaky: .*\)$/\1 \2/p' "$log")
	# lwnfs itself passes in every guest, or no verdict of this one holds.
	if [ "${said[original]:-}" != survived ]; then
		echo "mutants: lwnfs itself fails in guest $boots, so no verdict holds:" \
			"${said[original]:-no verdict (vm.sh status $rc)}" >&2
		exit 1
	fi
	# A death with no report does not decide, even the second time.
	if [ -n "$alone" ] && [ -z "${said[$alone]+set}" ]; then
		if [ -n "$(report "$alone")" ]; then
			verdict[$alone]="killed by the kernel log, the guest brought down: $(report "$alone")"
		else
			verdict[$alone]="UNDECIDED: the guest died under it with no report, twice (vm.sh status $rc)"
		fi
	fi
	for name in "${!said[@]}"; do
		[ "$name" != original ] || continue
		case ${said[$name]} in
		flaky:*)
			verdict[$name]="FLAKY: ${said[$name]#flaky: }" ;;
		unconfirmed:* | "killed by the kernel log"*)
			# A report with no test failing, or a test lwnfs fails
			# too: it must show again alone.
			if [ "$name" != "$alone" ]; then
				seen[$name]=${said[$name]} again=$name
			elif [[ ${said[$name]} == unconfirmed:* ]]; then
				verdict[$name]="FLAKY: ${said[$name]#unconfirmed: }, twice"
			else
				verdict[$name]=${said[$name]}
			fi ;;
		*)
			# A test's kill came with its confirmation, or it is none.
			by=${said[$name]#killed by }
			by=${by%%; the kernel log: *}
			if [ "${said[$name]}" != survived ] &&
				[[ ${said[$name]} != *"; lwnfs stuck: it cannot be unloaded"* ]] &&
				! grep -qFx "mutant $name: confirmed: lwnfs passes $by alone" "$log"; then
				echo "mutants: $name killed with no confirmation in guest $boots" >&2
				exit 1
			fi
			verdict[$name]=${said[$name]} ;;
		esac
	done
	if [ -n "$alone" ]; then
		echo "mutants: $alone alone on a fresh guest, after ${seen[$alone]}: ${verdict[$alone]}"
		continue
	fi
	[ -z "$again" ] || continue
	last=$(sed -n 's/^mutant \([^ ]*\): start$/\1/p' "$log" | tail -n 1)
	if [ "$last" != original ] && [ -z "${said[$last]+set}" ]; then
		seen[$last]="the guest died under it (vm.sh status $rc)" again=$last
	elif [ "$rc" != 0 ] && [ "$rc" != "$LWNFS_EXIT_NEW_GUEST" ] &&
		[ "$rc" != "$LWNFS_EXIT_KERNEL_LOG" ]; then
		echo "mutants: the guest failed with status $rc after $last" >&2
		exit 1
	fi
done

echo
passed=0 failed=0
for name in "${names[@]}"; do
	if [ "${kind[$name]}" = equivalent ]; then
		echo "$name: equivalent, not run: ${reason[$name]}"
	elif [ "${kind[$name]}" != suites ]; then
		echo "$name: not run here, but ${elsewhere[${kind[$name]}]}: ${reason[$name]}"
	elif [[ ${verdict[$name]:-} == "killed by "* ]]; then
		echo "$name: ${verdict[$name]}"
		passed=$((passed + 1))
	elif [ "${verdict[$name]:-}" = survived ]; then
		echo "$name: SURVIVED"
		failed=$((failed + 1))
	else
		echo "$name: ${verdict[$name]:-no verdict}"
		failed=$((failed + 1))
	fi
done
echo "mutants: $((SECONDS - start)) s, $boots guest(s)"
echo "$passed passed, $failed failed"
if [ $((passed + failed)) != "${#torun[@]}" ]; then
	echo "mutants: ${#torun[@]} to run, $((passed + failed)) verdicts" >&2
	exit 1
fi
[ "$failed" = 0 ]
