#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/selinux.sh   (make check-selinux)
#
# tests/selinux on the distro's kernel booted with security=selinux, the
# policy compiled here; then each "selinux:" mutant, which must fail one
# of its tests twice (harness/guest/selinux-mutants.sh).  SELinux, as
# Debian's kernels build it in and AppArmor labels no files.
# LWNFS_SELINUX_BREAK=no-selinux boots without it.  A killed mutant
# counts as passed.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
harness/deps.sh selinux
release=${KERNELRELEASE:-$(harness/boot/distro-kernel.sh)}
params=security=selinux
case ${LWNFS_SELINUX_BREAK:-} in
'') ;;
no-selinux) params='' ;;
*) echo "selinux: unknown LWNFS_SELINUX_BREAK=$LWNFS_SELINUX_BREAK" >&2; exit 2 ;;
esac

log=$(mktemp)
trap 'rm -f "$log"' EXIT
lwnfs_quiet "$log" "the build failed" make --no-print-directory KERNELRELEASE="$release" modules
dir=$PWD/build/selinux
rm -rf "$dir"
mkdir -p "$dir"
lwnfs_quiet "$log" "checkpolicy could not compile tests/selinux/policy.conf" \
	checkpolicy -U allow -o "$dir/policy" tests/selinux/policy.conf

listed=$(harness/mutants/mutant.pl tests/data/mutants) || { echo "selinux: tests/data/mutants does not parse" >&2; exit 1; }
: >"$dir/todo"
while IFS=$'\t' read -r name _ how _; do
	[ "$how" = selinux ] || continue
	lwnfs_build_mutant "/lib/modules/$release/build" "$dir/$name" tests/data/mutants "$name" || exit 1
	echo "$name $dir/$name/lwnfs.ko" >>"$dir/todo"
done <<<"$listed"

echo "selinux: booted with '${params:-nothing more}'; $(wc -l <"$dir/todo") mutants"
status=0
harness/tap-run.sh "$dir/guest.log" -k "$release" ${params:+-A "$params"} -- \
	harness/guest/selinux-mutants.sh "$dir/todo" || status=1
read -r passed failed skipped _ <"$dir/guest.log.count"
while read -r name _; do
	verdict=$(sed -n "s/^mutant $name: //p" "$dir/guest.log")
	case $verdict in
	"killed by "?*) passed=$((passed + 1)) ;;
	*)
		echo "selinux: mutant $name: ${verdict:-no verdict}" >&2
		failed=$((failed + 1)) status=1 ;;
	esac
done <"$dir/todo"
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"
