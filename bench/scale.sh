#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: bench/scale.sh   (make bench-scale)
#
# Boot a guest and run tests/programs/lwnfs-scale and tests/programs/lwnfs-peers in it
# (bench/guest-scale.sh), with what the peers need installed here
# first (harness/deps.sh bench: the guest's root is this machine's);
# leaves their figures in scale.json and peers.json, and plots them
# (bench/plot.pl) into bench-scale-cost.svg,
# bench-scale-memory.svg and bench-peers.svg.  Both files say what the
# run was (harness/run-json.pl: date, commit, machine, kernel, QEMU TCG
# or KVM), which the plots' titles and make results take from them.
# LWNFS_SCALE_N="1000 10000" measures other sizes.
set -euo pipefail

cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
harness/run-guest.sh -d bench -b tests/programs/lwnfs-scale -b tests/programs/lwnfs-peers -o "$out" -- \
	bench/guest-scale.sh
# Only now, with the whole run's figures in hand, the last run's go.
rm -f scale.json peers.json bench-scale-*.svg bench-peers.svg
harness/run-json.pl -g "$out/guest.json" -V "$out/vm.json" "$out/scale.json" "$out/peers.json"
mv "$out/scale.json" "$out/peers.json" .
bench/plot.pl scale.json peers.json
