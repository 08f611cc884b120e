#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: bench/bench.sh   (make bench)
#
# Boot a guest and run tests/programs/lwnfs-bench in it (bench/guest-bench.sh),
# leaving its figures in bench.json.  The figures of one boot are not
# those of the next (docs/testing.md, "The benchmark"): with
# LWNFS_BENCH_BOOTS=N it boots N times, one after the other, keeps each
# boot's figures in bench-1.json .. bench-N.json, and bench.json holds
# the median of the boots (bench/boots.pl, which prints them side
# by side).
# KERNELS=ROW benches a matrix row, as harness/run-guest.sh says.
# bench.json says what the run was (harness/run-json.pl: date, commit,
# machine, QEMU TCG or KVM), for docs/data/ and make results.
set -euo pipefail

cd "$(dirname "$0")/.."
boots=${LWNFS_BENCH_BOOTS:-1}
[[ $boots =~ ^[1-9][0-9]?$ ]] || {
	echo "bench: LWNFS_BENCH_BOOTS is a number of boots from 1 to 99, not '$boots'" >&2
	exit 2
}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
files=()
for ((i = 1; i <= boots; i++)); do
	[ "$boots" = 1 ] || echo "bench: boot $i of $boots"
	harness/run-guest.sh -b tests/programs/lwnfs-bench -o "$out" -- bench/guest-bench.sh
	mv "$out/bench.json" "$out/bench-$i.json"
	files+=("$out/bench-$i.json")
done
if [ "$boots" = 1 ]; then
	mv "$out/bench-1.json" "$out/bench.json"
else
	bench/boots.pl "$out/bench.json" "${files[@]}"
fi
harness/run-json.pl -V "$out/vm.json" "$out/bench.json"
# Only now, with every boot's figures in hand, the last bench's go.
rm -f bench-[0-9]*.json
mv "$out"/bench*.json .
