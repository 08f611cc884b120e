#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/checks/walkthrough-check.sh
#        tests/checks/walkthrough-check.sh --run [KO]
#        WALKTHROUGH_TREE=DIR walkthrough-check.sh
#
# On the host, with no guest: is docs/walkthrough.md still true to the
# code?  In the tree WALKTHROUGH_TREE (default: the one holding this
# script) it checks
#  - excerpts: each fenced block after a line "From FILE:" (FILE relative
#    to the top of the tree) is a run of consecutive lines of FILE, byte
#    for byte, tabs and trailing spaces included;
#  - tests: each `@test "NAME"` is a test of the .bats file last named in
#    backticks before it on the same line (docs-check.sh checks the page's
#    other names and paths, as every doc's);
#  - probes: in the table with a "probe" and a "kernel" column, for each
#    row that names a probe, conftest.sh has "probe NAME" and the comment
#    just above it starts with "# VERSION", VERSION being the row's
#    kernel (e.g. 6.19); and each probe of conftest.sh has a row;
#  - sessions: the ```console blocks are root shell sessions, "# " before
#    each command and its output after it, one story from insmod to rmmod;
#    each numbered section that quotes lwnfs.c has one.  Whether each
#    command prints what the page shows is for --run, in a guest.
# With --run, in a test guest (hostname lwnfs-vm, or WALKTHROUGH_ANYWHERE=1),
# as root, lwnfs not loaded (tests/60-walkthrough.bats): the sessions only, run as the page shows
# them, in order, in one bash, from a directory where lwnfs.ko is KO
# (default: the tree's); each command's output must be the page's, but
# for the times of ls -l and a script's "line N:" in bash's messages.
# Prints one line per problem on stderr and exits 1; else prints
# "walkthrough: ok (N excerpts, N tests, N probes, N session commands
# found)", or with --run "walkthrough: ok (N session commands run)".
#
# To see it fail: cp -r . /tmp/t, change a quoted line of /tmp/t/lwnfs.c,
# then WALKTHROUGH_TREE=/tmp/t tests/checks/walkthrough-check.sh; or a
# counter's value in a session of docs/walkthrough.md, then run
# tests/60-walkthrough.bats in a guest.
set -euo pipefail

tree=${WALKTHROUGH_TREE:-$(cd "$(dirname "$0")/../.." && pwd)}
doc=$tree/docs/walkthrough.md
[ -r "$doc" ] || { echo "walkthrough: cannot read $doc" >&2; exit 1; }
run='' ko=''
if [ "${1:-}" = --run ]; then
	run=1 ko=${2:-$tree/lwnfs.ko}
	ko=$(realpath "$ko")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

problems=0
problem() {
	echo "walkthrough: $*" >&2
	problems=$((problems + 1))
}

# --- Sessions ----------------------------------------------------------------
# sessions [KO]: the perl below prints "problem TEXT" lines (TEXT may go on
# over indented lines) and "sessions N".
sessions() {
	perl - "$doc" "$tree" "$@" <<'PERL'
use strict;
use warnings;
use File::Temp qw(tempdir);

my ($doc, $tree, $ko) = @ARGV;
my @problems;
sub problem { push @problems, "problem line $_[0]: $_[1]" }

# --- The sessions -------------------------------------------------------------
# [doc line, command, [output lines]] in the order of the page.
my (@cmds, %sessions, %quotes, $section, $fence, $console);
open(my $fh, "<", $doc) or die "walkthrough: $doc: $!\n";
while (my $l = <$fh>) {
	chomp $l;
	if ($l =~ /^```(\w*)/) {
		if ($fence) { $fence = $console = 0; next }
		($fence, $console) = (1, $1 eq "console");
		$sessions{$section}++ if $console && defined $section;
		next;
	}
	if (!$fence) {
		$section = $1 if $l =~ /^## (\d+)\. /;
		$quotes{$section} = $. if defined $section && $l eq "From lwnfs.c:" && !$quotes{$section};
		next;
	}
	next unless $console;
	if ($l =~ /^# (.*)$/) {
		push @cmds, [$., $1, []];
	} elsif ($l =~ /^\$ /) {
		problem($., "a user's prompt: the sessions are root's (\"# \")");
	} elsif (!@cmds || $cmds[-1][0] < $. - 1 - @{$cmds[-1][2]}) {
		problem($., "output before any command in its session");
	} else {
		push @{$cmds[-1][2]}, $l;
	}
}
for my $s (sort { $a <=> $b } keys %quotes) {
	problem($quotes{$s}, "section $s quotes lwnfs.c but shows no session") unless $sessions{$s};
}
problem(1, "no session at all") unless @cmds;

print "$_\n" for @problems;
print "sessions " . scalar(@cmds) . "\n";
exit 0 unless defined $ko;

# --- In a guest: run them ------------------------------------------------------
exit 0 if @problems;
my $dir = tempdir(CLEANUP => 1);
symlink($ko, "$dir/lwnfs.ko") or die "walkthrough: $dir/lwnfs.ko: $!\n";
open(my $sh, ">", "$dir/sessions.sh") or die;
print $sh "cd '$dir' || exit 1\n";
print $sh "printf '\\036%d\\n' $_\n$cmds[$_][1]\n" for 0 .. $#cmds;
close $sh;
my $got = `bash '$dir/sessions.sh' </dev/null 2>&1`;
my @got = split /\x1e(\d+)\n/, $got, -1;
shift @got;	# before the first command: nothing
my %said;
while (@got) {
	my ($i, $text) = splice(@got, 0, 2);
	$said{$i} = [split /\n/, $text];
}
sub normal {
	my $l = shift;
	$l =~ s/^\S+: line \d+: /bash: /;	# a script's line numbers
	$l =~ s/^([-dlcbps][-rwxsStT]{9}[.+@]?\s+\d+\s+\S+\s+\S+\s+\d+\s+)\S+\s+\d+\s+(?:\d\d:\d\d|\d{4})\s/$1DATE /;
	return $l;
}
for my $i (0 .. $#cmds) {
	my ($line, $text, $out) = @{$cmds[$i]};
	my @want = map { normal($_) } @$out;
	my @have = map { normal($_) } @{$said{$i} // ["(not run)"]};
	next if "@want" eq "@have" && @want == @have;
	push @problems, "problem line $line: \"$text\" printed:\n" .
		join("", map { "    $_\n" } @have) . "  the page shows:\n" . join("", map { "    $_\n" } @want);
}
print "$_\n" for @problems;
PERL
}
n_sessions=0
check_sessions() {
	local line
	while IFS= read -r line; do
		case $line in
		"problem "*) problem "${line#problem }" ;;
		"sessions "*) n_sessions=${line#sessions } ;;
		*) echo "$line" >&2 ;;
		esac
	done < <(sessions "$@" || echo "problem the session check failed")
}

if [ -n "$run" ]; then
	# It loads and unloads lwnfs and makes /lwnfs: in a guest of vm.sh
	# (init.sh names it lwnfs-vm), or where the caller says so.
	if [ "$(cat /proc/sys/kernel/hostname)" != lwnfs-vm ] && [ "${WALKTHROUGH_ANYWHERE:-}" != 1 ]; then
		echo "walkthrough: --run is for a test guest (or WALKTHROUGH_ANYWHERE=1)" >&2
		exit 1
	fi
	[ "$(id -u)" = 0 ] || { echo "walkthrough: --run needs root" >&2; exit 1; }
	[ -r "$ko" ] || { echo "walkthrough: no module $ko" >&2; exit 1; }
	if grep -q '^lwnfs ' /proc/modules; then
		echo "walkthrough: lwnfs is loaded; the sessions start without it" >&2
		exit 1
	fi
	check_sessions "$ko"
	[ "$problems" = 0 ] || exit 1
	echo "walkthrough: ok ($n_sessions session commands run)"
	exit 0
fi

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

# --- Tests named in backticks -----------------------------------------------
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
n_tests=0 bats='' bats_line=''
while IFS=$'\t' read -r line span; do
	[ "$line" = "$bats_line" ] || bats=''
	if [[ $span =~ ^tests/.*\.bats$ ]]; then
		bats=$span bats_line=$line
	elif [[ $span =~ ^@test\ \"(.*)\"$ ]]; then
		n_tests=$((n_tests + 1))
		if [ -z "$bats" ]; then
			problem "line $line: @test \"${BASH_REMATCH[1]}\" with no tests/*.bats before it on the line"
		elif ! grep -qF -- "@test \"${BASH_REMATCH[1]}\"" "$tree/$bats" 2>/dev/null; then
			problem "line $line: $bats has no @test \"${BASH_REMATCH[1]}\""
		fi
	fi
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

check_sessions

if [ "$problems" -gt 0 ]; then
	exit 1
fi
echo "walkthrough: ok ($n_excerpts excerpts, $n_tests tests, $n_probes probes," \
	"$n_sessions session commands found)"
