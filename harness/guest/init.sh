#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 2 of the guest (PID 1 after switch_root): mount the pseudo
# filesystems, run the command vm.sh left in the results share, hand back
# its status, output and kernel log, and power off.
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
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results /run/results
r=/run/results
cwd=$(cat "$r/cwd")
# A fresh /tmp, unless the tree is a clone under /tmp: then /tmp stays the
# host's, copy-on-write like the rest of the root.
case $cwd/ in
/tmp/*) ;;
*) mount -t tmpfs tmpfs /tmp ;;
esac
hostname lwnfs-vm
export HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export TERM=${TERM:-linux} LWNFS_OUT=/run/results/out

# shellcheck source=/dev/null
. "$r/env"
if [ -e "$r/modules" ]; then	# a kernel built here: its modules
	mkdir -p "/lib/modules/$(uname -r)"
	mount --bind "$(cat "$r/modules")" "/lib/modules/$(uname -r)"
fi
kmsg=$(dirname "$0")/kmsg.pl
cd "$cwd"
# The run's kernel log starts at this record; boot messages are not ours.
seq=0
seq=$(perl "$kmsg" mark "lwnfs-vm: command starts" 2>"$r/dmesg-lost") ||
	echo "kmsg.pl mark: status $?" >>"$r/dmesg-lost"
rc=0
bash "$r/cmd" >"$r/output" 2>&1 </dev/null || rc=$?
if [ -e "$r/interactive" ]; then
	cat "$r/output" >/dev/console
	tty=$(sed -n 's/.*console=\([^ ]*\).*/\1/p' /proc/cmdline)
	setsid -c bash -i <"/dev/$tty" >"/dev/$tty" 2>&1 || true
fi
# All the run logged, or a word that it cannot be had (the ring wrapped
# past its first record), which vm.sh counts as a failure.
perl "$kmsg" since "$seq" >"$r/dmesg" 2>>"$r/dmesg-lost" ||
	echo "kmsg.pl since $seq: status $?" >>"$r/dmesg-lost"
echo "$rc" >"$r/rc"
sync
echo o >/proc/sysrq-trigger
sleep 10
