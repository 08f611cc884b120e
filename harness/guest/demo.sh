#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/demo.sh [--keep]
# The article's session at a root prompt; --keep leaves lwnfs mounted.
set -euo pipefail

show() {
	printf '# %s\n' "$1"
	bash -c "$1" || true
}

show 'insmod lwnfs.ko'
show 'mkdir -p /lwnfs'
show 'mount -t lwnfs lwnfs /lwnfs'
show 'ls -lR /lwnfs'
show 'cat /lwnfs/counter'
show 'cat /lwnfs/counter'
show 'echo 1000 > /lwnfs/counter'
show 'cat /lwnfs/counter'
show 'cat /lwnfs/counter'
show 'cat /lwnfs/subdir/subcounter'
show 'echo lots > /lwnfs/counter'
show 'cat /lwnfs/counter'
[ "${1:-}" = --keep ] && exit 0
show 'umount /lwnfs'
show 'rmmod lwnfs'
