#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# Usage: awk -v file=TAPLOG -v planned=N -v row=ROW -f tap-count.awk SKIPS TAPLOG
#
# tap-count.sh's counter: prints "PASSED FAILED SKIPPED" for the TAP in
# TAPLOG, whose plan is 1..N, and the numbering's problems in one line on
# stderr.  SKIPS is tests/data/skips: ROW | TEST | WHY.
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
}
