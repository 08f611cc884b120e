#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# What the docs say, for tests/checks/docs-check.sh: "FILE<TAB>LINE<TAB>KIND<TAB>TEXT"
# for each thing it checks (its "What the docs say" says which).

function paths(s, p) {
	while (match(s, /(^|[^A-Za-z0-9_.\/$-])(harness|tests|scripts|debian|docs|\.ci)\/[A-Za-z0-9_.\/*?<>-]*/)) {
		p = substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH)
		sub(/^[^a-z.]/, "", p)
		sub(/[.,;:)]+$/, "", p)
		print FILENAME, FNR, "path", p
	}
}
# name: each lwnfs_* or LWNFS_* name in a span (not $LWNFS_X, not a
# pattern such as lwnfs_* or LWNFS_HAVE_<PROBE>); kname: a span that
# is one other C name with an underscore, or name().
function names(s, id) {
	while (match(s, /[$A-Za-z0-9_]*(lwnfs|LWNFS)_[A-Za-z0-9_]*[*<]?/)) {
		id = substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH)
		if (id ~ /^(lwnfs|LWNFS)_[A-Za-z0-9_]*[A-Za-z0-9]$/)
			print FILENAME, FNR, "name", id
	}
	if (s0 ~ /^((struct|enum) )?[A-Za-z_][A-Za-z0-9_]*(\(\))?$/) {
		id = s0
		sub(/^(struct|enum) /, "", id)
		sub(/\(\)$/, "", id)
		if (id !~ /^(lwnfs|LWNFS)_/ && (id ~ /_/ || s0 ~ /\(\)$/))
			print FILENAME, FNR, "kname", id
	}
}
# bare: the same names in prose, outside backticks: each lwnfs_* or
# LWNFS_* name, and each other name written as name().
function bare(s, id) {
	s0 = ""
	names(s)
	while (match(s, /[A-Za-z_][A-Za-z0-9_]*\(\)/)) {
		id = substr(s, RSTART, RLENGTH - 2)
		s = substr(s, RSTART + RLENGTH)
		if (id !~ /^(lwnfs|LWNFS)_/)
			print FILENAME, FNR, "kname", id
	}
}
FNR == 1 { fence = 0; lang = "" }
FILENAME ~ /\.5$/ {
	paths($0)
	if ($0 !~ /^\.\\"/) {	# not a comment: the text, fonts out
		t = $0
		if (t ~ /^\.(BR|RB|IR|RI|BI|IB) /) {
			sub(/^\.[A-Z]+ /, "", t)
			gsub(/[" ]/, "", t)
		}
		sub(/^\.[A-Z]+ /, "", t)
		gsub(/\\f[BIRP]/, "", t)
		bare(t)
	}
	if ($0 ~ /^\.B[RI]? "?make( |")/) {
		t = $0
		sub(/^\.B[RI]? "?/, "", t)
		gsub(/[",]/, "", t)
		gsub(/\\-/, "-", t)
		print FILENAME, FNR, "make", t
	}
	next
}
/^```/ {
	if (fence) { fence = 0 } else { fence = 1; lang = substr($0, 4) }
	next
}
fence && lang == "sh" { print FILENAME, FNR, "sh", $0; paths($0); next }
fence { next }
{
	paths($0)
	k = split($0, part, "`")
	for (i = 2; i < k; i += 2) {
		print FILENAME, FNR, "span", part[i]
		s0 = part[i]
		names(part[i])
	}
	for (i = 1; i <= k; i += 2)
		bare(part[i])
	line = $0
	while (match(line, /\]\([^) ]+\)/)) {
		print FILENAME, FNR, "link", substr(line, RSTART + 2, RLENGTH - 3)
		line = substr(line, RSTART + RLENGTH)
	}
	if ($0 ~ /^#+ /) {
		h = tolower($0)
		sub(/^#+ /, "", h)
		gsub(/[^a-z0-9 _-]/, "", h)
		gsub(/ /, "-", h)
		print FILENAME, FNR, "heading", h
	}
}
