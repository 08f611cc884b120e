#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/run-guest.sh [-d DEPS] [-b TARGET]... [VM.SH OPTIONS] -- COMMAND...
#
# What make demo, vm, bench, fuzz and stress share: install what is
# missing (harness/deps.sh DEPS), build lwnfs (and each make TARGET) for the
# distro's kernel, or KERNELRELEASE, then run COMMAND in a guest booted on
# it (harness/vm.sh, which takes the other options).  With KERNELS set to
# one matrix row (KERNELS=ROW make bench), the guest is that
# row's root and kernel instead, lwnfs and the test programs built in the
# root as the matrix builds them (harness/root.sh, harness/root-build.sh).
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
if [ -n "${KERNELS:-}" ]; then
	row=$KERNELS
	[[ $row =~ ^[a-z0-9-]+$ ]] || { echo "run-guest: KERNELS names one row here, not '$KERNELS'" >&2; exit 2; }
	[ -z "${KERNELRELEASE:-}" ] || { echo "run-guest: KERNELS=ROW boots that row's kernel: leave KERNELRELEASE out" >&2; exit 2; }
	root=$(harness/root.sh "$row")
	release=$(lwnfs_root_release "$root")
	log=$(mktemp)
	trap 'rm -f "$log"' EXIT
	lwnfs_quiet "$log" "the build in $root failed" harness/root-build.sh "$root" "$release"
	cd "$root/srv/lwnfs"
	exec harness/vm.sh -r "$root" -k "$release" "${vmopts[@]}" -- "$@"
fi
release=${KERNELRELEASE:-$(harness/distro-kernel.sh)}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
lwnfs_quiet "$log" "the build failed" make --no-print-directory KERNELRELEASE="$release" "${targets[@]}"
harness/vm.sh -k "$release" "${vmopts[@]}" -- "$@"
