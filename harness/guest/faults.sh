#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside a guest on the sanitizer kernel: tests/programs/lwnfs-fault, which fails
# each allocation of each lwnfs system call in turn through fail-nth, then
# the sanitizers' own checks (kmemleak: what an unwind path forgot).
# An injected vmalloc() failure makes the kernel print the allocation's
# stack (warn_alloc()); vm.sh is told to let "Call Trace:" lines pass
# (-c), and this script checks that each one is such a report and nothing
# else.
# A failure injected into kmemleak's own bookkeeping makes it say "Cannot
# allocate a scan area, scanning the full object": vm.sh lets that pass
# too (kmemleak then scans more, not less).
set -euo pipefail

here=$(dirname "$0")
debugfs=/sys/kernel/debug
"$here/sanitizers.sh" start
# As syzkaller sets them: sleeping allocations and pages of any order and
# zone fail too, and fault injection prints nothing of its own
# (lwnfs-fault counts what it injected).
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

# Every stack in the log is an injected vmalloc() failure's report: its
# header ("vmalloc error") is a few lines above.  (A failed page
# allocation returns before warn_alloc(); a failed slab one says nothing.)
if ! dmesg | awk '/: vmalloc error: / { header = NR }
	/Call Trace:/ && (!header || NR - header > 4) { print; bad = 1 }
	END { exit bad }'; then
	echo "faults: a stack in the kernel log that is not an allocation failure's"
	rc=1
fi
exit "$rc"
