#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/checks/walkthrough-check.pl
#        tests/checks/walkthrough-check.pl --run KO
#
# Is docs/walkthrough.md still true to the code?  On the host: each fenced
# block after a line "From FILE:" is a run of FILE's lines, byte for byte;
# each probe of conftest.sh has a row in the table of probes, whose kernel
# is the version its comment starts with.  With --run, as root in a test
# guest (tests/60-walkthrough.bats), lwnfs not loaded: the ```console
# sessions ("# COMMAND", then its output), run in order in one bash from
# a directory holding KO as lwnfs.ko, print what the page shows, but for
# ls -l's times and a script's "line N:".
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Temp qw(tempdir);

my $tree = dirname(dirname(dirname(__FILE__)));
my $doc = "$tree/docs/walkthrough.md";
my @problems;
sub problem { push @problems, "walkthrough: $_[0]\n" }
sub slurp {
	open(my $fh, '<', $_[0]) or die "walkthrough: $_[0]: $!\n";
	local $/;
	return <$fh>;
}
my @lines = split /\n/, slurp($doc), -1;

# The blocks of the page: [first line's number, info string, [lines]],
# and the line before each ("From lwnfs.c:"), blank lines skipped.
my (@blocks, $open, $before);
for my $i (0 .. $#lines) {
	my $l = $lines[$i];
	if ($l =~ /^```(\w*)/) {
		if ($open) { push @blocks, $open; ($open, $before) = (undef, $l); next }
		$open = [$i + 1, $1, [], $before];
		next;
	}
	if ($open) { push @{$open->[2]}, $l; next }
	$before = $l if $l =~ /\S/;
}

sub normal {
	my $l = shift;
	$l =~ s/^\S+: line \d+: /bash: /;
	$l =~ s/^([-dlcbps][-rwxsStT]{9}[.+@]?\s+\d+\s+\S+\s+\S+\s+\d+\s+)\S+\s+\d+\s+(?:\d\d:\d\d|\d{4})\s/$1DATE /;
	return $l;
}

if (@ARGV && $ARGV[0] eq '--run') {
	my $ko = $ARGV[1] // die "usage: walkthrough-check.pl --run KO\n";
	# It loads and unloads lwnfs and makes /lwnfs: in a guest of vm.sh
	# (init.sh names it lwnfs-vm), or where the caller says so.
	chomp(my $host = slurp('/proc/sys/kernel/hostname'));
	die "walkthrough: --run is for a test guest (or WALKTHROUGH_ANYWHERE=1)\n"
		unless $host eq 'lwnfs-vm' || ($ENV{WALKTHROUGH_ANYWHERE} // '') eq '1';
	die "walkthrough: --run needs root\n" if $> != 0;
	die "walkthrough: no module $ko\n" unless -r $ko;
	die "walkthrough: lwnfs is loaded; the sessions start without it\n"
		if slurp('/proc/modules') =~ /^lwnfs /m;
	my @cmds;	# [line, command, [output]]
	for my $b (grep { $_->[1] eq 'console' } @blocks) {
		my ($n, $cmd) = ($b->[0]);
		for my $l (@{$b->[2]}) {
			$n++;
			if ($l =~ /^# (.*)$/) { push @cmds, $cmd = [$n, $1, []] }
			elsif ($cmd) { push @{$cmd->[2]}, $l }
			else { die "walkthrough: line $n: output before any command of its session\n" }
		}
	}
	die "walkthrough: no session at all\n" unless @cmds;
	my $dir = tempdir(CLEANUP => 1);
	symlink(abs_path($ko), "$dir/lwnfs.ko") or die "walkthrough: $dir/lwnfs.ko: $!\n";
	open(my $sh, '>', "$dir/sessions.sh") or die "walkthrough: $dir/sessions.sh: $!\n";
	print $sh "cd '$dir' || exit 1\n";
	print $sh "printf '\\036%d\\n' $_\n$cmds[$_][1]\n" for 0 .. $#cmds;
	close $sh;
	my @got = split /\x1e(\d+)\n/, `bash '$dir/sessions.sh' </dev/null 2>&1`, -1;
	shift @got;	# before the first command: nothing
	my %said = @got;
	for my $i (0 .. $#cmds) {
		my ($line, $text, $out) = @{$cmds[$i]};
		my @want = map { normal($_) } @$out;
		my @have = map { normal($_) } defined $said{$i} ? split(/\n/, $said{$i}) : ('(not run)');
		next if join("\n", @want) eq join("\n", @have) && @want == @have;
		problem("line $line: \"$text\" printed:\n" . join('', map { "    $_\n" } @have)
			. "  the page shows:\n" . join('', map { "    $_\n" } @want));
	}
	print STDERR @problems;
	exit 1 if @problems;
	print "walkthrough: ok (" . scalar(@cmds) . " session commands run)\n";
	exit 0;
}

# Excerpts: a block after "From FILE:" is a run of FILE's lines; else the
# first of its lines that no run of FILE's matches with those before it.
my $excerpts = 0;
for my $b (@blocks) {
	my ($at, undef, $want, $from) = @$b;
	next unless defined $from && $from =~ /^From (\S+):$/;
	my $file = $1;
	$excerpts++;
	if (!-f "$tree/$file") { problem("line $at: an excerpt from $file, which is not in the tree"); next }
	my @have = split /\n/, slurp("$tree/$file"), -1;
	my $best = 0;
	for my $i (0 .. $#have) {
		my $j = 0;
		$j++ while $j < @$want && $i + $j < @have && $have[$i + $j] eq $want->[$j];
		$best = $j if $j > $best;
	}
	next if $best == @$want;
	(my $miss = $want->[$best]) =~ s/\t/\\t/g;
	problem("line $at: the excerpt differs from $file at its line " . ($best + 1) . ": $miss");
}
problem('no "From FILE:" excerpt at all') unless $excerpts;

# The table of probes: the rows of the table whose head has "probe" and
# "kernel" columns, against conftest.sh's probes and their comments.
my (%row, $pc, $kc);
for my $i (0 .. $#lines) {
	if ($lines[$i] !~ /^\|/) { undef $pc; next }
	my @cells = map { s/`//gr =~ s/^\s+|\s+$//gr } split /\|/, $lines[$i], -1;
	if (!defined $pc) {
		($pc) = grep { $cells[$_] eq 'probe' } 0 .. $#cells;
		($kc) = grep { $cells[$_] eq 'kernel' } 0 .. $#cells;
		$pc //= -1;
		next;
	}
	next if $pc < 0 || !defined $kc || $lines[$i] =~ /^\|[-: |]+\|\s*$/;
	$row{$cells[$pc]} = [$i + 1, $cells[$kc]] if $cells[$pc] =~ /^[A-Z][A-Z0-9_]*$/;
}
problem('no table with a "probe" and a "kernel" column') unless %row;
my ($comment, %probe) = ('');
for (split /\n/, slurp("$tree/conftest.sh")) {
	if (/^#/) { $comment ||= $_; next }
	$probe{$1} = $comment if /^probe\s+(\S+)/;
	$comment = '';
}
for my $p (sort keys %row) {
	my ($line, $version) = @{$row{$p}};
	if (!defined $probe{$p}) {
		problem("line $line: conftest.sh has no \"probe $p\"");
	} elsif ($probe{$p} !~ /^# \Q$version\E(?:[^0-9.]|$)/) {
		problem("line $line: probe $p says $version, its comment in conftest.sh: " . ($probe{$p} || 'none'));
	}
}
problem("conftest.sh's probe $_ has no row in the table of probes") for grep { !$row{$_} } sort keys %probe;

print STDERR @problems;
exit 1 if @problems;
print "walkthrough: ok ($excerpts excerpts, " . scalar(keys %row) . " probes)\n";
