#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside a guest on the data-race kernel (harness/debug-kernel.sh kcsan):
# the module's bats suites, the stress test and the races of race.sh
# (remounts with options against readers of the mount table, writers and
# setattr on one counter) on 2 vCPUs.  A KCSAN report
# panics the guest (panic_on_warn=1) and fails the run, its report in the
# serial log vm.sh prints.  At the end, KCSAN's own counters: that it was
# watching, and how often.
set -euo pipefail

debugfs=/sys/kernel/debug
mountpoint -q "$debugfs" || mount -t debugfs debugfs "$debugfs"
grep -qx 'enabled: 1' "$debugfs/kcsan" || { echo "kcsan: KCSAN is not enabled"; exit 1; }

rc=0
bats --tap tests || rc=1
"$(dirname "$0")/stress.sh" || rc=1
"$(dirname "$0")/race.sh" || rc=1
echo "kcsan: $(grep -E '^(used_watchpoints|setup_watchpoints|data_races|races_unknown_origin):' "$debugfs/kcsan" | tr '\n' ' ')"
exit "$rc"
