#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: build lwnfs and tests/lwnfs-bench for the distro's kernel,
# run the benchmark in a guest booted on it, print its table and leave the
# same figures in bench.json.  Not a test: it prints, it asserts nothing.
set -euo pipefail

cd "$(dirname "$0")/.."
tests/deps.sh
release=${KERNELRELEASE:-$(tests/distro-kernel.sh)}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
make --no-print-directory KERNELRELEASE="$release" all tests/lwnfs-bench >"$log" 2>&1 || {
	cat "$log" >&2
	exit 1
}
tests/vm.sh -k "$release" -t 1800 -o . -- tests/bench-guest.sh
echo "bench: figures in bench.json"
