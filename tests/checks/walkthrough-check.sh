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
#  - names: each lwnfs_* or LWNFS_* identifier in `backticks` is in lwnfs.c,
#    lwnfs.h, conftest.sh or Kbuild (shell variables, and patterns ending
#    in * or <, are not names); each `@test "NAME"` is a test of the .bats
#    file last named in backticks before it on the same line;
#  - paths: each tests/, debian/, scripts/ or docs/ path in backticks
#    exists (a glob must match something);
#  - probes: in the table with a "probe" and a "kernel" column, for each
#    row that names a probe, conftest.sh has "probe NAME" and the comment
#    just above it starts with "# VERSION", VERSION being the row's
#    kernel (e.g. 6.19); and each probe of conftest.sh has a row;
#  - sessions: the ```console blocks are root shell sessions, "# " before
#    each command and its output after it, one story from insmod to rmmod.
#    Each numbered section that quotes lwnfs.c has one.  Each command is
#    one plain command of a short list (cat, echo, ls, mount, ...) on
#    /lwnfs, /proc/filesystems, /proc/mounts or /sys/module/lwnfs, and the
#    page must agree with a model of lwnfs made from the code: the fixed
#    tree and its inode numbers (lwnfs.c's lwnfs_make_builtin() calls), the
#    mount options (lwnfs_params), max_counters's default (lwnfs.h); names
#    used exist, a cat shows the value the counter holds, a refused write
#    shows an error and an accepted one none, refcnt counts the superblock
#    and the open counters, a made entry's inode number comes next.
# With --run, in a test guest (hostname lwnfs-vm, or WALKTHROUGH_ANYWHERE=1),
# as root, lwnfs not loaded (tests/60-walkthrough.bats): the sessions only, run as the page shows
# them, in order, in one bash, from a directory where lwnfs.ko is KO
# (default: the tree's); each command's output must be the page's, but
# for the times of ls -l and a script's "line N:" in bash's messages.
# Prints one line per problem on stderr and exits 1; else prints
# "walkthrough: ok (N excerpts, N names, N paths, N probes, N session
# commands checked)", or with --run "walkthrough: ok (N session commands
# run)".
#
# To see it fail: cp -r . /tmp/t, change a quoted line of /tmp/t/lwnfs.c,
# or a counter's value in a session of /tmp/t/docs/walkthrough.md, then
# WALKTHROUGH_TREE=/tmp/t tests/checks/walkthrough-check.sh.
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

# --- What the code says -------------------------------------------------------
sub slurp { open(my $fh, "<", $_[0]) or die "walkthrough: $_[0]: $!\n"; local $/; <$fh> }
my $c = slurp("$tree/lwnfs.c");
my $h = slurp("$tree/lwnfs.h");
my @enum = $c =~ /enum lwnfs_builtin \{(.*?)\}/s ? ($1 =~ /(LWNFS_\w+)/g) : ();
my %index = map { $enum[$_] => $_ } 0 .. $#enum;
my $n_builtin = $index{LWNFS_NR_BUILTIN} // 0;
# The fixed tree: path below the mount => [type, inode number].
my %var = ("sb->s_root" => "");
my %builtin = ("" => ["d", 1]);
while ($c =~ /(\w+) = lwnfs_make_builtin\(([^,]+), "([^"]+)", S_IF(REG|DIR)[^,]*,\s*(LWNFS_\w+)/g) {
	my ($v, $parent, $name, $type, $which) = ($1, $2, $3, $4, $5);
	next unless defined $var{$parent};
	$var{$v} = "$var{$parent}/$name";
	$builtin{$var{$v}} = [$type eq "REG" ? "f" : "d", $index{$which} + 1];
}
my %option = map { $_ => 1 } $c =~ /fsparam_\w+\("(\w+)"/g;
my ($max_default) = $h =~ /^#define\s+LWNFS_DEFAULT_MAX_COUNTERS\s+(\d+)/m;
push @problems, "problem lwnfs.c: no fixed tree found (lwnfs_make_builtin)" if keys %builtin < 2;

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

# --- Each command against the code ---------------------------------------------
my %allowed = map { $_ => 1 } qw(insmod rmmod mount umount mkdir rmdir rm ln mv
	touch cat echo printf ls stat dd grep truncate exec);
my ($loaded, $sb, $mounted, %value, %made, %fds, %ino, $next_ino, $max) = (0, 0, 0);
sub fresh_sb {
	%made = ();
	%ino = ();
	$next_ino = $n_builtin;
	$max = $max_default;
	$sb = 1;
}
sub exists_at { my $p = shift; return defined $builtin{$p} || defined $made{$p} }
sub is_counter { my $p = shift; return ($builtin{$p} && $builtin{$p}[0] eq "f") || ($made{$p} && $made{$p} eq "f") }
sub ino_of { my $p = shift; return $builtin{$p} ? $builtin{$p}[1] : $ino{$p} }
sub parent { my $p = shift; $p =~ s{/[^/]*$}{}; return $p }
sub valid_s64 { my $n = shift; return $n =~ /^[-+]?\d+$/ && abs($n) <= 9.2e18 }

for my $cmd (@cmds) {
	my ($line, $text, $out) = @$cmd;
	my $failed = @$out > 0;
	if ($text =~ /[|;`\$]|&&/) {
		problem($line, "\"$text\": one plain command a line, no pipes, lists or expansions");
		next;
	}
	my @w;
	push @w, defined $1 ? $1 : $2 while $text =~ /'([^']*)'|(\S+)/g;
	my $prog = $w[0];
	if (!$allowed{$prog}) {
		problem($line, "\"$prog\" is not a command the sessions may run (walkthrough-check.sh)");
		next;
	}
	# every absolute path: the mount point and below, or what shows lwnfs
	my @paths;
	for my $w (@w[1 .. $#w]) {
		(my $p = $w) =~ s/^(?:\d?[<>]+|if=)//;
		next unless $p =~ m{^/};
		if ($p =~ m{^/lwnfs(/.*)?$}) {
			push @paths, $1 // "";
		} elsif ($p !~ m{^/proc/(filesystems|mounts)$|^/sys/module/lwnfs/\w+$}) {
			problem($line, "$p: the sessions stay in /lwnfs (and /proc/filesystems, /proc/mounts, /sys/module/lwnfs)");
		}
	}
	my $target = $text =~ />\s*\/lwnfs(\S*)$/ ? $1 : undef;	# echo ... > P
	if ($prog eq "insmod") {
		problem($line, "insmod loads lwnfs.ko, from the top of the tree") unless "@w[1..$#w]" eq "lwnfs.ko";
		($loaded, %value) = (1) unless $failed;
		next;
	}
	if ($prog eq "rmmod") {
		my $refs = ($sb ? 1 : 0) + keys %fds;
		problem($line, "rmmod with $refs reference(s) held: the page must show its refusal") if $refs && !$failed;
		problem($line, "rmmod with nothing holding lwnfs: it succeeds, silently") if !$refs && $failed;
		$loaded = 0 unless $refs;
		next;
	}
	if ($prog eq "mount") {
		if ($text =~ /^mount -t lwnfs lwnfs \/lwnfs$/) {
			problem($line, "mount before insmod") unless $loaded;
			fresh_sb() unless $sb;
			$mounted = 1;
		} elsif ($text =~ /^mount -o remount,(\S+) \/lwnfs$/) {
			for my $o (split /,/, $1) {
				my ($k, $v) = split /=/, $o, 2;
				problem($line, "$k: lwnfs has no such option (lwnfs_params)") unless $option{$k};
				$max = $v if $k eq "max_counters" && !$failed;
			}
		} else {
			problem($line, "mount: only \"mount -t lwnfs lwnfs /lwnfs\" and \"mount -o remount,OPTIONS /lwnfs\"");
		}
		next;
	}
	if ($prog eq "umount") {
		$mounted = 0;
		$sb = 0 unless keys %fds;
		next;
	}
	if ($prog eq "exec") {
		if ($text =~ /^exec (\d)< \/lwnfs(\S+)$/) {
			problem($line, "$2: no such counter") unless is_counter($2);
			$fds{$1} = 1;
		} elsif ($text =~ /^exec (\d)<&-$/) {
			delete $fds{$1};
			$sb = 0 unless $mounted || keys %fds;
		}
		next;
	}
	if ($text eq "cat /sys/module/lwnfs/refcnt") {
		my $refs = ($sb ? 1 : 0) + keys %fds;
		problem($line, "refcnt: the page shows \"@$out\", the superblock and open counters make $refs")
			unless "@$out" eq $refs;
		next;
	}
	# The names under /lwnfs each command names must be there, but the one
	# it makes.
	my $makes = $prog eq "mkdir" || $prog eq "touch" ? $paths[-1] :
		$prog eq "ln" ? $paths[-1] : $target;
	for my $p (@paths) {
		next if !$mounted;
		if (defined $makes && $p eq $makes) {
			problem($line, "/lwnfs$p: no directory " . parent($p)) unless exists_at(parent($p));
		} elsif (!exists_at($p)) {
			problem($line, "/lwnfs$p: not in the tree here (lwnfs.c's fixed tree, or made before)");
		}
	}
	problem($line, "$text: lwnfs is not mounted here") if grep({ $_ ne "" } @paths) && !$mounted;
	next unless $mounted;
	if ($prog eq "mkdir" || ($prog eq "touch") || (defined $target && !exists_at($target))) {
		my $p = $makes;
		my $full = keys(%made) >= $max;
		if ($full && !$failed) {
			problem($line, "/lwnfs$p is made with every one of max_counters=$max slots taken");
		} elsif (!$full && $failed && "@$out" =~ /No space left/) {
			problem($line, "/lwnfs$p: ENOSPC with " . keys(%made) . " of $max slots taken");
		}
		if (!$full) {	# made, even when the first write is refused
			$made{$p} = $prog eq "mkdir" ? "d" : "f";
			$ino{$p} = ++$next_ino;
			$value{$p} = 0;
		}
	}
	if (defined $target && is_counter($target)) {
		(my $n = $w[1]) =~ s/^'|'$//g;
		if (valid_s64($n) && !$failed) {
			$value{$target} = $n + 0;
		} elsif (valid_s64($n)) {
			problem($line, "\"$n\" is a value lwnfs takes; the page shows the write refused");
		} elsif (!$failed) {
			problem($line, "\"$n\" is no decimal s64: the page must show the write refused");
		}
		next;
	}
	if (($prog eq "cat" && @w == 2) || ($prog eq "dd" && $w[1] =~ /^if=/)) {
		my $p = $paths[0];
		next unless defined $p && is_counter($p);
		my $v = $value{$p} // 0;
		problem($line, "$text: the page shows \"@$out\", the counter holds $v") unless "@$out" eq $v;
		$value{$p} = $v + 1;
		next;
	}
	if ($prog eq "rm" || $prog eq "rmdir") {
		my $p = $paths[-1];
		if ($builtin{$p} && !$failed) {
			problem($line, "/lwnfs$p is the fixed tree: removing it fails (EPERM)");
		} elsif (!$failed) {
			delete $made{$p};
		}
		next;
	}
	if ($prog eq "stat" && $w[2] =~ /^%i\b/) {
		for my $i (0 .. $#paths) {
			my $want = ino_of($paths[$i]);
			my ($got) = ($out->[$i] // "") =~ /^(\d+)/;
			problem($line, "/lwnfs$paths[$i]: inode $got on the page, $want in the code")
				if defined $want && defined $got && $got != $want;
		}
	}
}
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

check_sessions

if [ "$problems" -gt 0 ]; then
	exit 1
fi
echo "walkthrough: ok ($n_excerpts excerpts, ${#names[@]} names, ${#paths[@]} paths, $n_probes probes," \
	"$n_sessions session commands checked)"
