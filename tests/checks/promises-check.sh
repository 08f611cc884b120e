#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/checks/promises-check.sh
#        PROMISES_TREE=DIR promises-check.sh
#
# On the host, with no guest: does tests/data/promises still map every promise
# of lwnfs.5 to the tests that check it?  In the tree PROMISES_TREE
# (default: the one holding this script) it reads the sentences of
# lwnfs.5's DESCRIPTION (its subsections included), OPTIONS, ERRORS and
# FILES as the man page reads: roff requests and font escapes taken out,
# lines joined, spaces collapsed, each sentence under an option, an errno
# or a file led by it ("uid=N, gid=N: ...", "EPERM: ..."),
# examples (.EX) left out; a sentence ends at ".", "!" or "?" before a
# space, or at the end of its paragraph.  It checks that
#  - each entry's quote is still a sentence of lwnfs.5 (a sentence
#    reworded, or moved under another errno, is a promise to map again);
#  - each of those sentences has an entry: a new promise must be mapped,
#    or skipped with a reason;
#  - each test an entry names exists: "FILE: @test "NAME"" a test of
#    that bats file, "FILE: op "NAME"" an operation of tests/programs/lwnfs-fault.c;
#  - no entry is "untested", none names no test, no ID is used twice;
#  - lwnfs.5 uses no request or escape this script cannot read there.
# tests/data/promises says its own form.  Prints one line per problem on
# stderr and exits 1; else prints "promises: ok (N promises, N tests)".
#
# To see it fail: cp -r . /tmp/t, reword a sentence of /tmp/t/lwnfs.5 or
# rename a mapped @test in /tmp/t/tests, then
# PROMISES_TREE=/tmp/t tests/checks/promises-check.sh.
set -euo pipefail

tree=${PROMISES_TREE:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$tree"
map=tests/data/promises
for f in lwnfs.5 "$map"; do
	[ -r "$f" ] || { echo "promises: cannot read $tree/$f" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

problems=0
problem() {
	echo "promises: $*" >&2
	problems=$((problems + 1))
}

# --- The sentences of lwnfs.5 ----------------------------------------------
# "LINE<TAB>SENTENCE" for each sentence of DESCRIPTION and ERRORS, LINE
# being where it starts in lwnfs.5; a request or escape it cannot read
# there is a problem line on stderr, and makes it exit 1.
perl -e '
	use strict;
	use warnings;
	my ($section, $tag, $want_tag, $example) = ("", "", 0, 0);
	my @para;	# [text, line] of each input line of the paragraph
	my $bad = 0;
	sub bad { print STDERR "promises: lwnfs.5:$.: @_\n"; $bad++ }
	sub checked { $section =~ /^(?:DESCRIPTION|OPTIONS|ERRORS|FILES)$/ }
	# sections whose .TP tags (an errno, an option, a file) lead their
	# sentences; .TQ adds a second tag to the first
	sub tagged { $section =~ /^(?:OPTIONS|ERRORS|FILES)$/ }
	# the arguments of a request, roff quoting undone
	sub args {
		my ($s, @a) = (shift);
		while ($s =~ /\G\s*(?:"((?:[^"]|"")*)"?|(\S+))/gc) {
			my $arg = defined $1 ? $1 : $2;
			$arg =~ s/""/"/g;
			push @a, $arg;
		}
		return @a;
	}
	sub text {
		my $s = shift;
		$s =~ s/\\f(?:[BIRP]|\[[A-Z]*\])//g;
		$s =~ s/\\[&%]//g;
		$s =~ s/\\-/-/g;
		$s =~ s/\\(?:\(aq|\[aq\])/\x27/g;
		$s =~ s/\\(?:\(dq|\[dq\])/"/g;
		$s =~ s/\\ / /g;
		$s =~ s/\\e/\x00/g;
		bad("an escape promises-check.sh cannot read: $1") if checked() && $s =~ /(\\.)/;
		$s =~ s/\x00/\\/g;
		return $s;
	}
	sub flush {
		my @lines = @para;
		@para = ();
		return unless checked() && @lines;
		my ($p, @at) = ("");
		for (@lines) {
			(my $t = $_->[0]) =~ s/\s+/ /g;
			$t =~ s/^ | $//g;
			next if $t eq "";
			$p .= " " if $p ne "";
			push @at, [length($p), $_->[1]];
			$p .= $t;
		}
		my $lead = tagged() && $tag ne "" ? "$tag: " : "";
		my $pos = 0;
		for my $s (split /(?<=[.!?]) /, $p) {
			my $line = (grep { $_->[0] <= $pos } @at)[-1][1];
			print "$line\t$lead$s\n";
			$pos += length($s) + 1;
		}
	}
	while (my $l = <>) {
		chomp $l;
		next if $l =~ /^\.\\"/;
		if ($example) { $example = 0 if $l =~ /^\.EE\b/; next }
		if ($l =~ /^\.EX\b/) { flush(); $example = 1; next }
		if ($l =~ /^\.SH\s+(.*)/) { flush(); ($section) = args($1); $tag = ""; next }
		if ($l =~ /^\.(?:SS|PP|LP|P|IP)\b/) { flush(); $tag = ""; next }
		if ($l =~ /^\.(?:in|nf|fi|sp|br|RS|RE)\b/) { flush(); next }
		if ($l =~ /^\.TP\b/) { flush(); $tag = ""; $want_tag = 1; next }
		if ($l =~ /^\.TQ\b/) { flush(); $want_tag = 1; next }
		my $t;
		if ($l =~ /^\.(?:B|I|SM|SB)(?:\s+(.*))?$/) {
			$t = join " ", args($1 // "");
		} elsif ($l =~ /^\.(?:BR|BI|IB|IR|RB|RI)(?:\s+(.*))?$/) {
			$t = join "", args($1 // "");
		} elsif ($l =~ /^[.\x27]/) {
			bad("a request promises-check.sh cannot read: $l") if checked();
			next;
		} else {
			$t = $l;
		}
		$t = text($t);
		if ($want_tag) {	# an errno, an option, a file; elsewhere, a paragraph
			$want_tag = 0;
			if (tagged()) { $tag = $tag eq "" ? $t : "$tag, $t"; next }
			push @para, [$t, $.];
			flush();
			next;
		}
		push @para, [$t, $.];
	}
	flush();
	exit($bad ? 1 : 0);
' lwnfs.5 >"$work/sentences" || problems=$((problems + 1))
declare -A sentence_at=()	# sentence -> its line in lwnfs.5
while IFS=$'\t' read -r line text; do
	[ -n "${sentence_at[$text]:-}" ] || sentence_at[$text]=$line
done <"$work/sentences"
[ "${#sentence_at[@]}" -gt 0 ] || problem "lwnfs.5: no sentence in DESCRIPTION, OPTIONS, ERRORS or FILES"

# --- The map ------------------------------------------------------------
# An entry is "[ID] QUOTE" with the quote's further lines indented,
# then indented lines each naming a test ("FILE: @test "NAME"", "FILE: op
# "NAME""), or one "untested: REASON" or "skip: REASON".
ids=()
declare -A quote=() at=() tests=() skip=() untested=() mapped=()
id=
n_line=0
while IFS= read -r l; do
	n_line=$((n_line + 1))
	if [ "$n_line" = 1 ]; then
		[[ $l == "# SPDX-License-Identifier: "* ]] || problem "$map:1: no SPDX line first"
		continue
	fi
	case $l in
	'' | '#'*) id= ;;
	'['*'] '*)
		id=${l%%]*}
		id=${id#[}
		# A bad or second ID is a problem; its entry is read all the same.
		if [[ ! $id =~ ^[A-Za-z0-9.-]+$ ]]; then
			problem "$map:$n_line: a bad ID: [$id]"
			id="$id@$n_line"
		elif [ -n "${at[$id]:-}" ]; then
			problem "$map:$n_line: [$id] is also at line ${at[$id]}"
			id="$id@$n_line"
		fi
		ids+=("$id")
		at[$id]=$n_line
		quote[$id]=${l#*] }
		;;
	[[:space:]]*)
		if [ -z "$id" ]; then
			problem "$map:$n_line: an indented line outside an entry"
			continue
		fi
		l=${l#"${l%%[![:space:]]*}"}
		l=${l%"${l##*[![:space:]]}"}
		if [[ $l =~ ^([^[:space:]]+):\ (@test|op)\ \"(.+)\"$ ]]; then
			tests[$id]+="${BASH_REMATCH[1]}"$'\t'"${BASH_REMATCH[2]}"$'\t'"${BASH_REMATCH[3]}"$'\n'
		elif [[ $l == 'untested: '* ]]; then
			untested[$id]=${l#untested: }
		elif [[ $l == 'skip: '* ]]; then
			skip[$id]=${l#skip: }
		elif [ -z "${tests[$id]:-}${untested[$id]:-}${skip[$id]:-}" ]; then
			quote[$id]+=" $l"
		else
			problem "$map:$n_line: [$id]: neither a test, \"untested:\" nor \"skip:\": $l"
		fi
		;;
	*) problem "$map:$n_line: neither an entry, an indented line nor a comment: $l" ;;
	esac
done <"$map"

# --- Entries against lwnfs.5 and the tests ------------------------------------
declare -A test_names=() named=()
# has_test FILE KIND NAME: FILE has the test NAME of that KIND.
has_test() {
	local file=$1 kind=$2 name=$3
	if [ -z "${test_names[$file]+set}" ]; then
		test_names[$file]=
		if [ -f "$file" ]; then
			test_names[$file]=$'\n'$(sed -nE \
				-e 's/^[[:space:]]*@test "(.*)" \{[[:space:]]*$/@test\t\1/p' \
				-e 's/.*\{ "([^"]+)", [a-z_]+_call, .*/op\t\1/p' "$file")$'\n'
		fi
	fi
	[[ ${test_names[$file]} == *$'\n'"$kind"$'\t'"$name"$'\n'* ]]
}
n_promises=0
for id in ${ids[@]+"${ids[@]}"}; do
	q=${quote[$id]}
	where="$map:${at[$id]}: [$id]"
	if [ -z "${sentence_at[$q]:-}" ]; then
		problem "$where: not a sentence of lwnfs.5's DESCRIPTION or ERRORS (reworded, moved or gone?): $q"
	elif [ -n "${mapped[$q]:-}" ]; then
		problem "$where: the same sentence as [${mapped[$q]}]"
	else
		mapped[$q]=$id
	fi
	if [ -n "${skip[$id]:-}" ]; then
		[ -z "${tests[$id]:-}${untested[$id]:-}" ] ||
			problem "$where: skipped, and yet names a test or \"untested:\""
		continue
	fi
	n_promises=$((n_promises + 1))
	[ -z "${untested[$id]:-}" ] || problem "$where: untested: ${untested[$id]}"
	[ -n "${tests[$id]:-}${untested[$id]:-}" ] || problem "$where: names no test"
	while IFS=$'\t' read -r file kind name; do
		[ -n "$file" ] || continue
		named[$file: $kind \"$name\"]=1
		if [ ! -f "$file" ]; then
			problem "$where: no file $file"
		elif [[ $kind == @test && $file != tests/*.bats && $file != tests/*/*.bats ]] ||
			[[ $kind == op && $file != tests/programs/lwnfs-fault.c ]]; then
			problem "$where: $file: $kind: not a suite with such tests"
		elif ! has_test "$file" "$kind" "$name"; then
			problem "$where: $file has no $kind \"$name\""
		fi
	done <<<"${tests[$id]:-}"
done
while IFS=$'\t' read -r line text; do
	[ -n "${mapped[$text]:-}" ] ||
		problem "lwnfs.5:$line: a sentence with no entry in $map (a promise to map, or to skip with a reason): $text"
done <"$work/sentences"

if [ "$problems" -gt 0 ]; then
	exit 1
fi
echo "promises: ok ($n_promises promises, ${#named[@]} tests)"
