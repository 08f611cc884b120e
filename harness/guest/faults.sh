#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/faults.sh   (in the guest of make check-debug)
# tests/programs/lwnfs-fault between sanitizers.sh start and finish.
set -euo pipefail

here=$(dirname "$0")
debugfs=/sys/kernel/debug
"$here/sanitizers.sh" start
# As syzkaller sets them: sleeping allocations and pages of any order and
# zone fail too; lwnfs-fault counts what it injected, so no verbose log.
for attr in failslab fail_page_alloc; do
	echo N >"$debugfs/$attr/ignore-gfp-wait"
	echo 0 >"$debugfs/$attr/verbose"
done
echo N >"$debugfs/fail_page_alloc/ignore-gfp-highmem"
echo 0 >"$debugfs/fail_page_alloc/min-order"

! grep -q '^lwnfs ' /proc/modules || rmmod lwnfs
mnt=$(mktemp -d)
mkdir "$mnt/a" "$mnt/b"
rc=0
tests/programs/lwnfs-fault ./lwnfs.ko "$mnt/a" "$mnt/b" || rc=1

"$here/sanitizers.sh" finish || rc=1

# vm.sh -c lets stacks through: each must be an injected vmalloc()
# failure's warn_alloc() report, its "vmalloc error" header just above.
if ! dmesg | awk '/: vmalloc error: / { header = NR }
	/Call Trace:/ && (!header || NR - header > 4) { print; bad = 1 }
	END { exit bad }'; then
	echo "faults: a stack in the kernel log that is not an allocation failure's"
	rc=1
fi
exit "$rc"
