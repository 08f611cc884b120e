#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/results-check.sh
#        RESULTS_TREE=DIR results-check.sh
#
# On the host, with no guest: are docs/results.md and README.md's kernel
# table what make results (harness/results.pl) makes from the committed
# docs/data/*.json?  Regenerates both into a temporary directory from the
# tree RESULTS_TREE (default: the one holding this script) and compares.
# Prints the difference and exits 1 when either differs, or when the
# generator fails (a figure missing from the JSON, README.md without its
# two comments); else prints "results: ok (...)".
#
# To see it fail: cp -r . /tmp/t, change a figure in
# /tmp/t/docs/data/bench.json (or a line of /tmp/t/docs/results.md), then
# RESULTS_TREE=/tmp/t tests/results-check.sh.
set -euo pipefail

tree=${RESULTS_TREE:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RESULTS_TREE=$tree "$(dirname "$0")/../harness/results.pl" -o "$tmp" || {
	echo "results: harness/results.pl failed on $tree/docs/data" >&2
	exit 1
}
status=0
for file in docs/results.md README.md; do
	if ! diff -u --label "$file (committed)" --label "$file (from docs/data)" \
		"$tree/$file" "$tmp/$file" >"$tmp/diff"; then
		echo "results: $file is not what make results makes from docs/data/*.json:" >&2
		head -n 40 "$tmp/diff" >&2
		status=1
	fi
done
[ "$status" = 0 ] || exit 1
echo "results: ok (docs/results.md and README.md's kernel table as docs/data/*.json make them)"
