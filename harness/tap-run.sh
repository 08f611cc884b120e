#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/tap-run.sh [-R ROW] [-C DIR] LOG [VM.SH OPTION...] -- COMMAND...
#
# The one path from a suite to its verdict: COMMAND (bats --tap, or a
# guest script that prints TAP) in a guest of vm.sh with the options
# given, from DIR (a root's copy of the tree, for -r) or here, its output
# shown and kept in LOG.  Writes "PASSED FAILED SKIPPED STATUS" to
# LOG.count (tap-count.sh, with the skips tests/data/skips expects on
# ROW; STATUS is vm.sh's) and says so in one line.  Exits 0 when the run
# passed: status 0, no test failed, one passed at least.
set -euo pipefail

usage="usage: tap-run.sh [-R ROW] [-C DIR] LOG [VM.SH OPTION...] -- COMMAND..."
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/settings.sh
. "$here/settings.sh"
row='' dir=.
while [ $# -gt 0 ]; do
	case $1 in
	-R) row=${2:?$usage}; shift 2 ;;
	-C) dir=${2:?$usage}; shift 2 ;;
	*) break ;;
	esac
done
log=${1:?$usage}
shift
# A run that stops before its count (a signal, a failure here) leaves
# one failed test, never the figures of a run before it.
rm -f "$log.count"
rc=0
trap '[ -e "$log.count" ] || echo "0 1 0 $rc" >"$log.count"' EXIT
[[ " $* " == *" -- "* ]] || { echo "$usage" >&2; exit 2; }
# DIR's own vm.sh: a guest's init must be inside the root it boots.
(cd "$dir" && harness/boot/vm.sh "$@" 2>&1) | tee "$log" || rc=${PIPESTATUS[0]}
read -r passed failed skipped < <("$here/tap-count.sh" "$log" "$rc" "$row")
echo "$passed $failed $skipped $rc" >"$log.count"
say="$(basename "$log" .log): $passed passed, $failed failed, $skipped skipped"
[ "$rc" = 0 ] || say+=" ($(lwnfs_status_says "$rc"))"
echo "$say"
[ "$rc" = 0 ] && [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
