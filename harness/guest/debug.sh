#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside a guest on the sanitizer kernel (harness/debug-kernel.sh): the bats
# suite, the fuzzers and the stress test, then the sanitizers' own checks
# (harness/guest/sanitizers.sh).  Any sanitizer report fails the run:
# vm.sh reads the kernel log, and a kmemleak report fails here.
set -euo pipefail

here=$(dirname "$0")
"$here/sanitizers.sh" start
rc=0
bats --tap tests tests/install || rc=1
"$here/fuzz.sh" || rc=1
"$here/stress.sh" || rc=1
"$here/sanitizers.sh" finish || rc=1
exit "$rc"
