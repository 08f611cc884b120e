#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: bench/guest-bench.sh   (in the guest of make bench)
# tests/programs/lwnfs-bench on a mount; bench.json into $LWNFS_OUT.
set -euo pipefail

insmod lwnfs.ko
mkdir -p /tmp/lwnfs /tmp/bench
mount -t lwnfs -o max_counters=20000 lwnfs /tmp/lwnfs
tests/programs/lwnfs-bench /tmp/lwnfs /tmp/bench "$LWNFS_OUT/bench.json" lwnfs.ko
umount /tmp/lwnfs
rmmod lwnfs
