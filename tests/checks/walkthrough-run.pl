#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/checks/walkthrough-run.pl KO
#
# As root in a test guest (tests/60-walkthrough.bats), lwnfs not loaded:
# do docs/walkthrough.md's ```console sessions ("# COMMAND", then its
# output), run in order in one bash from a directory holding KO as
# lwnfs.ko, print what the page shows, but for ls -l's times and a
# script's "line N:"?  (docs-check.pl checks the page's excerpts.)
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Temp qw(tempdir);

my $ko = $ARGV[0] // die "usage: walkthrough-run.pl KO\n";
sub slurp {
	open(my $fh, '<', $_[0]) or die "walkthrough: $_[0]: $!\n";
	local $/;
	return <$fh>;
}
# It loads and unloads lwnfs and makes /lwnfs: in a guest of vm.sh
# (init.sh names it lwnfs-vm), or where the caller says so.
chomp(my $host = slurp('/proc/sys/kernel/hostname'));
die "walkthrough: only in a test guest (or WALKTHROUGH_ANYWHERE=1)\n"
	unless $host eq 'lwnfs-vm' || ($ENV{WALKTHROUGH_ANYWHERE} // '') eq '1';
die "walkthrough: needs root\n" if $> != 0;
die "walkthrough: no module $ko\n" unless -r $ko;
die "walkthrough: lwnfs is loaded; the sessions start without it\n" if slurp('/proc/modules') =~ /^lwnfs /m;

my (@cmds, $console, $cmd);	# [line, command, [output]]
my $n = 0;
for my $l (split /\n/, slurp(dirname(dirname(dirname(abs_path(__FILE__)))) . '/docs/walkthrough.md')) {
	$n++;
	if ($l =~ /^```(\w*)/) { ($console, $cmd) = (!$console && $1 eq 'console', undef); next }
	next unless $console;
	if ($l =~ /^# (.*)$/) { push @cmds, $cmd = [$n, $1, []] }
	elsif ($cmd) { push @{$cmd->[2]}, $l }
	else { die "walkthrough: line $n: output before any command of its session\n" }
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
sub normal {
	my $l = shift;
	$l =~ s/^\S+: line \d+: /bash: /;
	$l =~ s/^([-dlcbps][-rwxsStT]{9}[.+@]?\s+\d+\s+\S+\s+\S+\s+\d+\s+)\S+\s+\d+\s+(?:\d\d:\d\d|\d{4})\s/$1DATE /;
	return $l;
}
my $problems = 0;
for my $i (0 .. $#cmds) {
	my ($line, $text, $out) = @{$cmds[$i]};
	my @want = map { normal($_) } @$out;
	my @have = map { normal($_) } defined $said{$i} ? split(/\n/, $said{$i}) : ('(not run)');
	next if join("\n", @want) eq join("\n", @have) && @want == @have;
	print STDERR "walkthrough: line $line: \"$text\" printed:\n", map({ "    $_\n" } @have),
		"  the page shows:\n", map { "    $_\n" } @want;
	$problems++;
}
exit 1 if $problems;
print "walkthrough: ok (" . scalar(@cmds) . " session commands run)\n";
