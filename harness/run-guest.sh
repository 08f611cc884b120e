#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/run-guest.sh [-d DEPS] [-b TARGET]... [VM.SH OPTIONS] -- COMMAND...
#
# What make demo, vm, bench, fuzz and stress share: install what is
# missing (harness/deps.sh DEPS), build lwnfs (and each make TARGET) for
# the distro's kernel, or KERNELRELEASE, then run COMMAND in a guest
# booted on it (harness/boot/vm.sh, which takes the other options).  With
# KERNELS=ROW, one matrix row's root and kernel instead, lwnfs and the
# test programs built in the root as the matrix builds them.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
targets=(modules) vmopts=() deps=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	-b) targets+=("$2"); shift 2 ;;
	-d) deps=("$2"); shift 2 ;;
	-o) vmopts+=(-o "$(cd "$2" && pwd)"); shift 2 ;;
	*) vmopts+=("$1"); shift ;;
	esac
done
[ $# -gt 1 ] || { echo "usage: run-guest.sh [-d DEPS] [-b TARGET]... [VM.SH OPTIONS] -- COMMAND..." >&2; exit 2; }
shift

harness/deps.sh "${deps[@]}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if [ -n "${KERNELS:-}" ]; then
	row=$KERNELS
	[[ $row =~ ^[a-z0-9-]+$ ]] || { echo "run-guest: KERNELS names one row here, not '$KERNELS'" >&2; exit 2; }
	[ -z "${KERNELRELEASE:-}" ] || { echo "run-guest: KERNELS=ROW boots that row's kernel: leave KERNELRELEASE out" >&2; exit 2; }
	root=$(harness/images/root.sh "$row")
	release=$(lwnfs_root_release "$root")
	lwnfs_quiet "$log" "the build in $root failed" harness/images/root-build.sh "$root" "$release"
	cd "$root/srv/lwnfs"
	vmopts=(-r "$root" "${vmopts[@]}")
else
	release=${KERNELRELEASE:-$(harness/boot/distro-kernel.sh)}
	lwnfs_quiet "$log" "the build failed" make --no-print-directory KERNELRELEASE="$release" "${targets[@]}"
fi
harness/boot/vm.sh -k "$release" "${vmopts[@]}" -- "$@"
