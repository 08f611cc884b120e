#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/command.sh [SEQ]
#
# In a guest, once it is up (init.sh, or booted.sh under the root's own
# systemd): run the command vm.sh left in the results share
# (/run/results, mounted), in its directory and with its LWNFS_*
# settings, and hand back its status, its output and the kernel log,
# from record SEQ of the log on (default: from a mark made here, so
# that the boot's messages are not the command's), then power off.
set -euo pipefail

r=/run/results
export HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export TERM=${TERM:-linux} LWNFS_OUT=$r/out
# shellcheck source=/dev/null
. "$r/env"
kmsg=$(dirname "$0")/kmsg.pl
cd "$(cat "$r/cwd")"
seq=${1:-}
if [ -z "$seq" ]; then
	seq=0
	seq=$(perl "$kmsg" mark "lwnfs-vm: command starts" 2>"$r/dmesg-lost") ||
		echo "kmsg.pl mark: status $?" >>"$r/dmesg-lost"
fi
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
