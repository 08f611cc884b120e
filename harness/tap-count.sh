#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/tap-count.sh TAPLOG STATUS [ROW]
#
# Count the bats TAP output in TAPLOG of a guest run that ended with vm.sh
# exit STATUS, and print "PASSED FAILED SKIPPED".  A skip is not a pass;
# one that tests/data/skips does not list for ROW (none without ROW) is a
# failure, and so is a test listed there for ROW that passed instead.
# The test numbers must be the plan's 1..N, each once: a number seen
# again, one beyond the plan and one never seen each count as a failed
# test, and one line on stderr says which (tests the guest never reached
# are such gaps).  A run that planned no test is a failure; so is any
# status but 0 that no failed test accounts for (bats's own 1 with failed
# tests is): a guest that printed its whole plan and then died, a
# kernel log with problems, a harness that failed before bats (1 with no
# plan).
set -euo pipefail

usage="usage: tap-count.sh TAPLOG STATUS [ROW]"
log=${1:?$usage} rc=${2:?$usage} row=${3:-}
skips=${LWNFS_SKIPS:-$(dirname "$0")/../tests/data/skips}	# another table: verdict-check.sh's

planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -n 1)
# "PASSED FAILED SKIPPED" on stdout; the numbering's problems, if any, in
# one line on stderr.
counts=$(awk -v file="$log" -v planned="${planned:-0}" -v row="$row" '
	FILENAME != file {	# tests/data/skips: ROW | TEST | WHY
		if ($0 !~ /^#/ && NF && split($0, f, / *[|] */) == 3 && f[1] == row)
			expected[f[2]] = 1
		next
	}
	function ranges(list, n,    i, j, out, from) {	# "3 5 6 7" -> "3, 5-7"
		out = ""
		for (i = 1; i <= n; i = j + 1) {
			from = list[i]
			for (j = i; j < n && list[j + 1] == list[j] + 1; j++)
				;
			out = out (out == "" ? "" : ", ") from (list[j] > from ? "-" list[j] : "")
		}
		return out
	}
	/^(not )?ok [0-9]+( |$)/ {
		n = $1 == "not" ? $3 : $2
		n += 0
		if (n < 1 || n > planned) {
			beyond[++nbeyond] = n
			next
		}
		if (n in seen) {
			again[++nagain] = n
			next
		}
		seen[n] = 1
		name = $0
		sub(/^(not )?ok [0-9]+ /, "", name)
		sub(/ # skip.*$/, "", name)
		sub(/ in [0-9]+ms$/, "", name)	# bats --timing
		if ($1 == "not") {
			failed++
		} else if ($0 ~ / # skip/ && name in expected) {
			skipped++
		} else if ($0 ~ / # skip/) {
			printf "tap-count: %s: test %d skipped, which tests/data/skips does not expect%s: %s\n",
				file, n, row == "" ? "" : " on " row, $0 > "/dev/stderr"
			failed++
		} else if (name in expected) {
			printf "tap-count: %s: test %d passed, which tests/data/skips says skips on %s: %s\n",
				file, n, row, name > "/dev/stderr"
			failed++
		} else {
			passed++
		}
	}
	END {
		for (n = 1; n <= planned; n++)
			if (!(n in seen))
				missing[++nmissing] = n
		problem = ""
		if (nagain)
			problem = problem "; seen again: " ranges(again, nagain)
		if (nbeyond)
			problem = problem "; beyond the plan: " ranges(beyond, nbeyond)
		if (nmissing)
			problem = problem "; never seen: " ranges(missing, nmissing)
		if (problem != "" && planned)
			printf "tap-count: %s: tests not numbered 1..%d each once%s\n",
				file, planned, problem > "/dev/stderr"
		else if (problem != "")
			printf "tap-count: %s: no plan 1..N, yet tests numbered %s\n",
				file, ranges(beyond, nbeyond) > "/dev/stderr"
		failed += nagain + nbeyond + nmissing
		if (!planned)
			failed++
		print passed + 0, failed + 0, skipped + 0
	}' "$skips" "$log")
read -r passed failed skipped <<<"$counts"
if [ "$rc" != 0 ] && { [ "$rc" != 1 ] || [ "$failed" = 0 ]; }; then
	failed=$((failed + 1))
fi
echo "$passed $failed $skipped"
