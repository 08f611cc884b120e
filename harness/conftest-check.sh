#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/conftest-check.sh ROW CONFTEST_H
#
# Print what conftest.sh found for matrix row ROW (the conftest.h of its
# build), one "PROBE=0|1" per probe on one line, and compare it with ROW's
# column in tests/data/conftest.expected.  Exits 1, naming each difference,
# when they differ or a probe is in one and not the other.
set -euo pipefail

row=${1:?usage: conftest-check.sh ROW CONFTEST_H} header=${2:?usage: conftest-check.sh ROW CONFTEST_H}
expected=$(dirname "$0")/../tests/data/conftest.expected

found=$(sed -n -e 's/^#define LWNFS_HAVE_\([A-Z0-9_]*\) 1$/\1=1/p' \
	-e 's|^/\* LWNFS_HAVE_\([A-Z0-9_]*\): no \*/$|\1=0|p' "$header" | sort)
# The column of ROW, found by name in the "# probe ..." header line.
want=$(awk -v row="$row" '
	/^# probe / { for (i = 3; i <= NF; i++) if ($i == row) col = i - 1; next }
	/^#/ || NF == 0 { next }
	col { print $1 "=" $col }' "$expected" | sort)
[ -n "$want" ] || { echo "conftest-check: no column for $row in $expected" >&2; exit 1; }

echo "probes: $(echo "$found" | tr '\n' ' ')"
if [ "$found" != "$want" ]; then
	join -t = -a 1 -a 2 -e - -o 0,1.2,2.2 <(echo "$want") <(echo "$found") |
		awk -F = '$2 != $3 { printf "conftest-check: %s: expected %s, found %s\n", $1, $2, $3 }' >&2
	exit 1
fi
