#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/checks/results-check.sh
#
# Is docs/results.md what make results (harness/results.pl) makes from the
# committed docs/data/*.json, naming no issue or session?  And do two rows
# as harness/matrix.sh writes them come out, through harness/run-json.pl
# -m and results.pl, as two rows of its kernel table, its run this commit?
set -euo pipefail

cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
file=docs/results.md
# A run's record says what was measured, not the work it was for.
if grep -n -i -w -E 'issue|session' "$file" >&2; then
	echo "results: $file names an issue or a session (a record in docs/data/*.json)" >&2
	exit 1
fi
harness/results.pl -o "$tmp" || { echo "results: harness/results.pl failed on docs/data" >&2; exit 1; }
if ! diff -u --label "$file (committed)" --label "$file (from docs/data)" \
	"$file" "$tmp/$file" >"$tmp/diff"; then
	echo "results: $file is not what make results makes from docs/data/*.json:" >&2
	head -n 40 "$tmp/diff" >&2
	exit 1
fi

# matrix.sh's rows: name, arch, kernel, compiler, suites, passed, failed,
# skipped, seconds, result, times.
mkdir -p "$tmp/tree/docs"
cp -r docs/data "$tmp/tree/docs/"
{
	printf '%s\t' sid amd64 7.2.13+deb14-amd64 'gcc-16 (Debian 16.2.0-4) 16.2.0' module 96 0 0 285 ok
	printf '%s\n' 'root 3 s, build 25 s, guest 257 s'
	printf '%s\t' trixie-arm64 arm64 6.12.118+deb13-arm64 aarch64-linux-gnu-gcc-14 build 0 0 0 14 \
		'built, not booted'
	printf '\n'
} >"$tmp/rows"
harness/run-json.pl -m "$tmp/rows" "$tmp/tree/docs/data/matrix.json"
RESULTS_TREE=$tmp/tree harness/results.pl -o "$tmp/out"
for want in "| sid | amd64 | 7.2.13+deb14-amd64 | gcc-16 (Debian 16.2.0-4) 16.2.0 | the module's | booted: 96 passed | 285 |" \
	"| trixie-arm64 | arm64 | 6.12.118+deb13-arm64 | aarch64-linux-gnu-gcc-14 |  | built | 14 |"; do
	grep -qxF -- "$want" "$tmp/out/$file" || {
		echo "results: matrix.sh's rows did not become $file's row '$want'" >&2
		exit 1
	}
done
# run-json.pl's words for a tree without git
commit=$(git rev-parse --short HEAD 2>/dev/null) || commit='no commit'
sed -n '/^## Kernel matrix/,/^| row /p' "$tmp/out/$file" | tr '\n' ' ' | grep -qF "commit $commit" || {
	echo "results: $file's kernel matrix does not name the run's commit $commit" >&2
	exit 1
}
echo "results: ok ($file as docs/data/*.json make it; matrix.sh's rows to its kernel table)"
