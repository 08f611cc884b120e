#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/fuzz.sh   (in the guest of make fuzz)
# lwnfs-fuzz as root, then trinity as nobody on the mount; lwnfs must
# then be consistent and unload.
set -euo pipefail

seed=${LWNFS_FUZZ_SEED:-1} ops=${LWNFS_FUZZ_OPS:-200000}
seconds=${LWNFS_TRINITY_SECONDS:-120}
mnt=/tmp/lwnfs

insmod lwnfs.ko
mkdir -p "$mnt"
mount -t lwnfs -o uid=65534,gid=65534,max_counters=64 lwnfs "$mnt"

start=$SECONDS
tests/programs/lwnfs-fuzz -s "$seed" -n "$ops" "$mnt"
echo "fuzz: lwnfs-fuzz: $ops operations in $((SECONDS - start)) s"

# -T: only the taints of a kernel bug (loading lwnfs taints O and E).
# No socket, perf or drm fds: trinity crashes making sockets here.  No
# mount(2): in its own user namespace it passes MS_MANDLOCK, and the
# kernel's "WARNING: The mand mount option has been deprecated" is not
# lwnfs's.
start=$SECONDS rc=0
cd /tmp
timeout --preserve-status -s INT "$seconds" setpriv --reuid=65534 --regid=65534 \
	--clear-groups trinity -q -V "$mnt" -C 2 -l off -s "$seed" -x mount \
	-T BAD_PAGE,DIE,WARN,MACHINE_CHECK --disable-fds=sockets,perf,drm >/tmp/trinity.log 2>&1 || rc=$?
ran=$(grep -o 'Ran [0-9]* syscalls' /tmp/trinity.log | tail -n 1 | grep -o '[0-9]*' || true)
echo "fuzz: trinity: ${ran:-0} syscalls in $((SECONDS - start)) s, status $rc"
cd - >/dev/null
# Our SIGINT ends it with 0 or 130; anything else, or no call run, fails.
if { [ "$rc" != 0 ] && [ "$rc" != 130 ]; } || [ "${ran:-0}" -eq 0 ]; then
	tail -n 20 /tmp/trinity.log
	echo "fuzz: FAILED: trinity did not run as it should"
	exit 1
fi

tests/programs/lwnfs-fuzz -s "$seed" -n 0 "$mnt" >/dev/null
umount "$mnt"
rmmod lwnfs
echo "fuzz: lwnfs consistent afterwards; module unloaded"
