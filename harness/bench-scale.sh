#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/bench-scale.sh   (make bench-scale)
#
# Boot a guest and run tests/lwnfs-scale and tests/lwnfs-peers in it
# (harness/guest/bench-scale.sh), with what the peers need installed here
# first (harness/deps.sh bench: the guest's root is this machine's);
# leaves their figures in scale.json and peers.json, and plots them
# (harness/bench-plot.pl) into bench-scale-cost.svg,
# bench-scale-memory.svg and bench-peers.svg.  LWNFS_SCALE_N="1000 10000"
# measures other sizes.
set -euo pipefail

cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
harness/run-guest.sh -d bench -b tests/lwnfs-scale -b tests/lwnfs-peers -o "$out" -- \
	harness/guest/bench-scale.sh
# Only now, with the whole run's figures in hand, the last run's go.
rm -f scale.json peers.json bench-scale-*.svg bench-peers.svg
mv "$out/scale.json" "$out/peers.json" .
# The plots name what was measured: the commit, and whether the tree
# differed from it.
run=$(git rev-parse --short HEAD 2>/dev/null || echo 'no commit')
git diff --quiet HEAD 2>/dev/null || run+=' with changes'
harness/bench-plot.pl scale.json peers.json "lwnfs $run"
