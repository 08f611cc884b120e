#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/command.sh [SEQ]
# Run the command vm.sh left in /run/results, hand back its status,
# output and the kernel log from record SEQ on (default: from a mark made
# here, leaving out the boot's messages), then power off.
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
# A log that lost the run's first record says so in dmesg-lost: vm.sh fails it.
perl "$kmsg" since "$seq" >"$r/dmesg" 2>>"$r/dmesg-lost" ||
	echo "kmsg.pl since $seq: status $?" >>"$r/dmesg-lost"
echo "$rc" >"$r/rc"
sync
echo o >/proc/sysrq-trigger
sleep 10
