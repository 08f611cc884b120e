#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside a guest on the sanitizer kernel (harness/debug-kernel.sh): the bats
# suite, the fuzzers and the stress test, then a kmemleak scan.  Any
# sanitizer report fails the run: vm.sh reads the kernel log, and a
# kmemleak report fails here.
set -euo pipefail

kmemleak=/sys/kernel/debug/kmemleak
mount -t debugfs debugfs /sys/kernel/debug
echo clear >"$kmemleak"		# what boot left is not ours

# The sanitizers are running, not only configured.
boot=$(dmesg)
for line in 'KernelAddressSanitizer initialized' 'kfence: initialized' \
	'Lock dependency validator' 'kmemleak: Kernel memory leak detector initialized'; do
	grep -q "$line" <<<"$boot" || { echo "debug: no \"$line\" in the boot log"; exit 1; }
done

rc=0
bats --tap tests tests/install || rc=1
harness/guest/fuzz.sh || rc=1
harness/guest/stress.sh || rc=1

# Lockdep and KFENCE switch themselves off after a report or on running
# out of room; then they had stopped checking.
grep -Eq '^ *debug_locks: +1$' /proc/lockdep_stats ||
	{ echo "debug: lockdep turned itself off"; rc=1; }
grep -qx 'enabled: 1' /sys/kernel/debug/kfence/stats ||
	{ echo "debug: KFENCE turned itself off"; rc=1; }

# Objects are reported once unreferenced for a while: scan, wait, scan.
echo scan >"$kmemleak"
sleep 6
echo scan >"$kmemleak"
if [ -s "$kmemleak" ]; then
	echo "debug: kmemleak reports:"
	cat "$kmemleak"
	rc=1
else
	echo "debug: kmemleak: no leaks"
fi
exit "$rc"
