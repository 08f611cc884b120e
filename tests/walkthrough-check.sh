#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/walkthrough-check.sh
#        WALKTHROUGH_TREE=DIR walkthrough-check.sh
#
# On the host, with no guest: is docs/walkthrough.md still true to the
# code?  In the tree WALKTHROUGH_TREE (default: the one holding this
# script) it checks
#  - excerpts: each fenced block after a line "From FILE:" (FILE relative
#    to the top of the tree) is a run of consecutive lines of FILE, byte
#    for byte, tabs and trailing spaces included;
#  - names: each lwnfs_* or LWNFS_* identifier in `backticks` is in lwnfs.c,
#    lwnfs.h, conftest.sh or Kbuild (shell variables, and patterns ending
#    in * or <, are not names); each `@test "NAME"` is a test of the .bats
#    file last named in backticks before it on the same line;
#  - paths: each tests/, debian/, scripts/ or docs/ path in backticks
#    exists (a glob must match something);
#  - probes: in the table with a "probe" and a "kernel" column, for each
#    row that names a probe, conftest.sh has "probe NAME" and the comment
#    just above it starts with "# VERSION", VERSION being the row's
#    kernel (e.g. 6.19); and each probe of conftest.sh has a row.
# Prints one line per problem on stderr and exits 1; else prints
# "walkthrough: ok (N excerpts, N names, N paths, N probes checked)"
# (names counts identifiers and test names, each once).
#
# To see it fail: cp -r . /tmp/t, change a quoted line of /tmp/t/lwnfs.c,
# then WALKTHROUGH_TREE=/tmp/t tests/walkthrough-check.sh.
set -euo pipefail

tree=${WALKTHROUGH_TREE:-$(cd "$(dirname "$0")/.." && pwd)}
doc=$tree/docs/walkthrough.md
[ -r "$doc" ] || { echo "walkthrough: cannot read $doc" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

problems=0
problem() {
	echo "walkthrough: $*" >&2
	problems=$((problems + 1))
}

# --- Excerpts -------------------------------------------------------------
# Each block after a "From FILE:" line goes to $work/N, and "N FILE LINE"
# to $work/excerpts; a "From" line without a block makes a problem line in
# $work/errors.  Other fenced blocks are skipped whole.
: >"$work/excerpts"
: >"$work/errors"
awk -v dir="$work" '
	state == 1 && /^[ \t]*$/ { next }
	state == 1 && /^```/ {
		n++
		out = dir "/" n
		printf "" >out
		print n, file, from >(dir "/excerpts")
		state = 2
		next
	}
	state == 1 {
		print "line " from ": no fenced block after \"From " file ":\"" >(dir "/errors")
		state = 0
	}
	state == 2 && /^```[ \t]*$/ { close(out); state = 0; next }
	state == 2 { print >out; next }
	state == 3 && /^```[ \t]*$/ { state = 0; next }
	state == 3 { next }
	/^From [^ ]+:$/ { file = substr($0, 6, length($0) - 6); from = NR; state = 1; next }
	/^```/ { state = 3 }
	END {
		if (state == 1 || state == 2)
			print "line " from ": no closed fenced block after \"From " file ":\"" >(dir "/errors")
	}
' "$doc"
while IFS= read -r line; do
	problem "$line"
done <"$work/errors"

# first_miss FILE EXCERPT: 0 when EXCERPT is a run of consecutive lines of
# FILE; else the number of the excerpt's first line that no start in FILE
# matches together with all the lines before it.
first_miss() {
	awk 'FNR == NR { want[++n] = $0 ""; next }
		{ have[++m] = $0 "" }
		END {
			best = 0
			for (i = 1; i <= m; i++) {
				for (j = 1; j <= n && i + j - 1 <= m; j++)
					if (have[i + j - 1] != want[j])
						break
				if (j > n) { print 0; exit }
				if (j - 1 > best)
					best = j - 1
			}
			print best + 1
		}' "$2" "$1"
}

n_excerpts=0
while read -r n file line; do
	n_excerpts=$((n_excerpts + 1))
	if [ ! -f "$tree/$file" ]; then
		problem "line $line: an excerpt from $file, which is not in the tree"
	elif [ ! -s "$work/$n" ]; then
		problem "line $line: the excerpt from $file is empty"
	else
		miss=$(first_miss "$tree/$file" "$work/$n")
		[ "$miss" = 0 ] || problem "line $line: the excerpt differs from $file at its" \
			"line $miss: $(sed -n "${miss}p" "$work/$n" | sed 's/\t/\\t/g')"
	fi
done <"$work/excerpts"
[ "$n_excerpts" -gt 0 ] || problem "no \"From FILE:\" excerpt at all"

# --- Names and paths in backticks ------------------------------------------
# "LINE<TAB>SPAN" for each `span` outside fenced blocks.
awk '
	/^```/ { fence = !fence; next }
	fence { next }
	{
		k = split($0, part, "`")
		for (i = 2; i < k; i += 2)
			print NR "\t" part[i]
	}
' "$doc" >"$work/spans"

sources=()
for f in lwnfs.c lwnfs.h conftest.sh Kbuild; do
	if [ -f "$tree/$f" ]; then
		sources+=("$tree/$f")
	else
		problem "no $f in $tree"
	fi
done
sources+=(/dev/null)	# never none: grep would read stdin

declare -A names=() paths=()
bats='' bats_line=''
while IFS=$'\t' read -r line span; do
	[ "$line" = "$bats_line" ] || bats=''
	if [[ $span =~ ^@test\ \"(.*)\"$ ]]; then
		name=${BASH_REMATCH[1]}
		names["@test $name"]=1
		if [ -z "$bats" ]; then
			problem "line $line: @test \"$name\" with no tests/*.bats before it on the line"
		elif ! grep -qF -- "@test \"$name\"" "$tree/$bats" 2>/dev/null; then
			problem "line $line: $bats has no @test \"$name\""
		fi
		continue
	fi
	read -r -a words <<<"$span"
	for word in "${words[@]}"; do
		case $word in
		tests/* | debian/* | scripts/* | docs/*)
			paths[$word]=1
			if [[ $word == *[*?[]* ]]; then
				compgen -G "$tree/$word" >/dev/null ||
					problem "line $line: nothing matches $word"
			elif [ ! -e "$tree/$word" ]; then
				problem "line $line: no $word"
			fi
			if [[ $word == tests/*.bats ]]; then
				bats=$word bats_line=$line
			fi
			;;
		esac
	done
	while read -r id; do
		case $id in
		lwnfs_* | LWNFS_*) ;;
		*) continue ;;	# inside a longer name, or $LWNFS_... (shell)
		esac
		case $id in *'*' | *'<') continue ;; esac	# a pattern, not a name
		names[$id]=1
		grep -qwF -- "$id" "${sources[@]}" ||
			problem "line $line: $id is in none of lwnfs.c, lwnfs.h, conftest.sh, Kbuild"
	done < <(grep -oE "[A-Za-z0-9_\${]*(lwnfs|LWNFS)_[A-Za-z0-9_]+[*<]?" <<<"$span" || true)
done <"$work/spans"

# --- The probe table -------------------------------------------------------
# "LINE<TAB>PROBE<TAB>KERNEL" for each row of a table whose header has a
# "probe" and a "kernel" column (backticks dropped), and "TABLE" once per
# such table.
awk -F'|' '
	function cell(s) {
		gsub(/`/, "", s)
		gsub(/^[ \t]+|[ \t]+$/, "", s)
		return s
	}
	/^```/ { fence = !fence; next }
	fence { next }
	!/^\|/ { header = 0; pc = kc = 0; next }
	!header {
		header = 1
		for (i = 2; i < NF; i++) {
			if (cell($i) == "probe") pc = i
			if (cell($i) == "kernel") kc = i
		}
		if (pc && kc)
			print "TABLE"
		next
	}
	/^\|[-: |]+\|[ \t]*$/ { next }
	pc && kc { print NR "\t" cell($pc) "\t" cell($kc) }
' "$doc" >"$work/rows"
grep -qx TABLE "$work/rows" ||
	problem "no table with a \"probe\" and a \"kernel\" column"

# "PROBE<TAB>FIRST COMMENT LINE" for each "probe NAME" of conftest.sh.
conftest=$tree/conftest.sh
awk '
	/^#/ { if (!comment) first = $0; comment = 1; next }
	$1 == "probe" && NF >= 2 { print $2 "\t" (comment ? first : "") }
	{ comment = 0 }
' "$conftest" >"$work/probes" 2>/dev/null || problem "cannot read $conftest"

declare -A rowed=()
n_probes=0
while IFS=$'\t' read -r line probe version; do
	[ "$line" != TABLE ] || continue
	[[ $probe =~ ^[A-Z][A-Z0-9_]*$ ]] || continue	# "-": no probe
	n_probes=$((n_probes + 1))
	rowed[$probe]=1
	if ! [[ $version =~ ^[0-9]+\.[0-9]+$ ]]; then
		problem "line $line: probe $probe: kernel \"$version\" is not a version like 6.19"
		continue
	fi
	comment=$(awk -F'\t' -v p="$probe" '$1 == p { print $2; found = 1; exit }
		END { if (!found) print "NONE" }' "$work/probes")
	re="^# ${version//./\\.}([^0-9.]|$)"
	if [ "$comment" = NONE ]; then
		problem "line $line: conftest.sh has no \"probe $probe\""
	elif ! [[ $comment =~ $re ]]; then
		problem "line $line: probe $probe says $version, its comment in conftest.sh: ${comment:-none}"
	fi
done <"$work/rows"
while IFS=$'\t' read -r probe _; do
	[ -n "${rowed[$probe]:-}" ] ||
		problem "conftest.sh's probe $probe has no row in the table"
done <"$work/probes"

if [ "$problems" -gt 0 ]; then
	exit 1
fi
echo "walkthrough: ok ($n_excerpts excerpts, ${#names[@]} names, ${#paths[@]} paths, $n_probes probes checked)"
