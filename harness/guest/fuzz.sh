#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside a test guest: fuzz an lwnfs mount with our seeded syscall driver
# (as root, LWNFS_FUZZ_OPS operations, seed LWNFS_FUZZ_SEED), then with
# trinity as an unprivileged user confined to the mount for
# LWNFS_TRINITY_SECONDS.  vm.sh then fails the run on any kernel report.
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

# Trinity picks its files from the victim path; as nobody it can harm
# nothing outside it (and the guest is thrown away anyway).  It watches
# only the taints that mean a kernel bug: loading lwnfs taints O and E.
# No socket, perf or drm fds: trinity 1.9 crashes making sockets here.
# No mount(2): in a user namespace of its own it passes MS_MANDLOCK and
# the kernel logs "WARNING: The mand mount option has been deprecated",
# which has nothing to do with lwnfs (nobody cannot mount lwnfs).
start=$SECONDS rc=0
cd /tmp
timeout --preserve-status -s INT "$seconds" setpriv --reuid=65534 --regid=65534 \
	--clear-groups trinity -q -V "$mnt" -C 2 -l off -s "$seed" -x mount \
	-T BAD_PAGE,DIE,WARN,MACHINE_CHECK --disable-fds=sockets,perf,drm >/tmp/trinity.log 2>&1 || rc=$?
ran=$(grep -o 'Ran [0-9]* syscalls' /tmp/trinity.log | tail -n 1 | grep -o '[0-9]*' || true)
echo "fuzz: trinity: ${ran:-0} syscalls in $((SECONDS - start)) s, status $rc"
cd - >/dev/null
# Stopped by our SIGINT (status 0, or 130 for the signal) after running
# system calls; anything else, or none run, is a failed fuzz.
if { [ "$rc" != 0 ] && [ "$rc" != 130 ]; } || [ "${ran:-0}" -eq 0 ]; then
	tail -n 20 /tmp/trinity.log
	echo "fuzz: FAILED: trinity did not run as it should"
	exit 1
fi

tests/programs/lwnfs-fuzz -s "$seed" -n 0 "$mnt" >/dev/null
umount "$mnt"
rmmod lwnfs
echo "fuzz: lwnfs consistent afterwards; module unloaded"
