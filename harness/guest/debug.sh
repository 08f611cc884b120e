#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/debug.sh   (in the guest of make check-debug)
# The suites, fuzz.sh and stress.sh between sanitizers.sh start and finish.
set -euo pipefail

here=$(dirname "$0")
"$here/sanitizers.sh" start
rc=0
bats --tap tests tests/install || rc=1
"$here/fuzz.sh" || rc=1
"$here/stress.sh" || rc=1
"$here/sanitizers.sh" finish || rc=1
exit "$rc"
