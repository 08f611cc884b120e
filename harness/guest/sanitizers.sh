#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/sanitizers.sh start|finish
# start: KASAN, KFENCE, lockdep and kmemleak running, kmemleak cleared of
# the boot.  finish: lockdep and KFENCE still on (each switches itself
# off after a report), and kmemleak finds no leak.
set -euo pipefail

debugfs=/sys/kernel/debug
kmemleak=$debugfs/kmemleak
mountpoint -q "$debugfs" || mount -t debugfs debugfs "$debugfs"

case ${1:-} in
start)
	boot=$(dmesg)
	for line in 'KernelAddressSanitizer initialized' 'kfence: initialized' \
		'Lock dependency validator' 'kmemleak: Kernel memory leak detector initialized'; do
		grep -q "$line" <<<"$boot" || { echo "sanitizers: no \"$line\" in the boot log"; exit 1; }
	done
	echo clear >"$kmemleak"
	;;
finish)
	rc=0
	grep -Eq '^ *debug_locks: +1$' /proc/lockdep_stats ||
		{ echo "sanitizers: lockdep turned itself off"; rc=1; }
	grep -qx 'enabled: 1' "$debugfs/kfence/stats" ||
		{ echo "sanitizers: KFENCE turned itself off"; rc=1; }
	# Objects are reported once unreferenced for a while: scan, wait, scan.
	# (Read the file: a debugfs file's size is 0, so test -s says nothing.)
	echo scan >"$kmemleak"
	sleep 6
	echo scan >"$kmemleak"
	leaks=$(cat "$kmemleak")
	if [ -n "$leaks" ]; then
		echo "sanitizers: kmemleak reports:"
		printf '%s\n' "$leaks"
		rc=1
	else
		echo "sanitizers: kmemleak: no leaks"
	fi
	exit "$rc"
	;;
*)
	echo "usage: sanitizers.sh start|finish" >&2
	exit 2
	;;
esac
