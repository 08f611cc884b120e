#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest's PID 1 after the initramfs's switch_root: the pseudo
# filesystems, the results share, then command.sh.
set -euo pipefail

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
ln -s /proc/self/fd /dev/fd
ln -s fd/0 /dev/stdin
ln -s fd/1 /dev/stdout
ln -s fd/2 /dev/stderr
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
mkdir -p /run/results
if [ -n "${lwnfs_card:-}" ]; then	# on the card (boot-sdcard.sh: no virtio)
	mount --bind /lwnfs-results /run/results
else
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results /run/results
fi
r=/run/results
cwd=$(cat "$r/cwd")
# A fresh /tmp, unless the tree is a clone under /tmp: then /tmp stays the
# host's, copy-on-write like the rest of the root.
case $cwd/ in
/tmp/*) ;;
*) mount -t tmpfs tmpfs /tmp ;;
esac
hostname lwnfs-vm
# A board with no real-time clock (boot-sdcard.sh): the host's time when
# the boot began, and the seconds since.
if [ -n "${lwnfs_time:-}" ]; then
	read -r up _ </proc/uptime
	date -s "@$((lwnfs_time + ${up%.*}))" >/dev/null
fi
if [ -e "$r/modules" ]; then	# a kernel built here: its modules
	mkdir -p "/lib/modules/$(uname -r)"
	mount --bind "$(cat "$r/modules")" "/lib/modules/$(uname -r)"
fi
exec "$(dirname "$0")/command.sh"
