#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/checks/results-check.sh
#        RESULTS_TREE=DIR results-check.sh
#
# On the host, with no guest: is docs/results.md what make results
# (harness/results.pl) makes from the committed docs/data/*.json?
# Regenerates it into a temporary directory from the tree RESULTS_TREE
# (default: the one holding this script) and compares.  Prints the
# difference and exits 1 when it differs, or when the generator fails (a
# figure missing from the JSON), or when it names an issue or a
# session.  Then the matrix's path from its rows to the table: two rows
# as harness/matrix.sh writes them, through harness/run-json.pl -m and
# harness/results.pl, must come out as two rows of docs/results.md's
# kernel table, its run this commit.  Else prints
# "results: ok (...)".
#
# To see it fail: cp -r . /tmp/t, change a figure in
# /tmp/t/docs/data/bench.json (or a line of /tmp/t/docs/results.md), then
# RESULTS_TREE=/tmp/t tests/checks/results-check.sh.
set -euo pipefail

tree=${RESULTS_TREE:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RESULTS_TREE=$tree "$(dirname "$0")/../../harness/results.pl" -o "$tmp" || {
	echo "results: harness/results.pl failed on $tree/docs/data" >&2
	exit 1
}
file=docs/results.md
if ! diff -u --label "$file (committed)" --label "$file (from docs/data)" \
	"$tree/$file" "$tmp/$file" >"$tmp/diff"; then
	echo "results: $file is not what make results makes from docs/data/*.json:" >&2
	head -n 40 "$tmp/diff" >&2
	exit 1
fi
# A run's record says what was measured, not the work it was for.
if grep -n -i -w -E 'issue|session' "$tree/$file" >&2; then
	echo "results: $file names an issue or a session (a record in docs/data/*.json)" >&2
	exit 1
fi

# matrix.sh's rows: name, kernel, compiler, suites, passed, failed,
# skipped, seconds, result, times.
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$tmp/tree/docs"
cp -r "$tree/docs/data" "$tmp/tree/docs/"
{
	printf '%s\t' sid 7.2.13+deb14-amd64 'gcc-16 (Debian 16.2.0-4) 16.2.0' module 96 0 0 285 ok
	printf '%s\n' 'root 3 s, build 25 s, guest 257 s'
	printf '%s\t' trixie-arm64 6.12.118+deb13-arm64 aarch64-linux-gnu-gcc-14 build 0 0 0 14 \
		'built, not booted'
	printf '\n'
} >"$tmp/rows"
"$here/harness/run-json.pl" -m "$tmp/rows" "$tmp/tree/docs/data/matrix.json"
RESULTS_TREE=$tmp/tree "$here/harness/results.pl" -o "$tmp/out"
commit=$(git -C "$here" rev-parse --short HEAD)
for want in "| sid | amd64 | 7.2.13+deb14-amd64 | gcc-16 (Debian 16.2.0-4) 16.2.0 | the module's | booted: 96 passed | 285 |" \
	"| trixie-arm64 | arm64 | 6.12.118+deb13-arm64 | aarch64-linux-gnu-gcc-14 |  | built | 14 |"; do
	grep -qxF -- "$want" "$tmp/out/docs/results.md" || {
		echo "results: matrix.sh's rows did not become docs/results.md's row '$want'" >&2
		exit 1
	}
done
sed -n '/^## Kernel matrix/,/^| row /p' "$tmp/out/docs/results.md" | tr '\n' ' ' |
	grep -q "commit $commit" || {
	echo "results: docs/results.md's kernel matrix does not name the run's commit $commit" >&2
	exit 1
}
echo "results: ok (docs/results.md as docs/data/*.json make it;" \
	"matrix.sh's rows through run-json.pl -m to its kernel table)"
