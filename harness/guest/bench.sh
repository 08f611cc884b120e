#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside a test guest: mount lwnfs and run tests/programs/lwnfs-bench, leaving
# bench.json in $LWNFS_OUT for vm.sh -o to hand back.
set -euo pipefail

insmod lwnfs.ko
mkdir -p /tmp/lwnfs /tmp/bench
mount -t lwnfs -o max_counters=20000 lwnfs /tmp/lwnfs
tests/programs/lwnfs-bench /tmp/lwnfs /tmp/bench "$LWNFS_OUT/bench.json" lwnfs.ko
umount /tmp/lwnfs
rmmod lwnfs
