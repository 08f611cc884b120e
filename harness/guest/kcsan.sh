#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/kcsan.sh   (in the KCSAN guest of make check-debug)
# The suites, stress.sh and race.sh; then KCSAN's counters, to show it
# was watching.
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
