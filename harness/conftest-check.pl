#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/conftest-check.pl RELEASE CONFTEST_H
#
# Check what conftest.sh found in the headers of kernel RELEASE (the
# conftest.h of its build) against what it must find: each probe's API
# from the version its comment in conftest.sh starts with, and not
# before, but where tests/data/conftest.expected says otherwise.  Prints
# "probes: PROBE=0|1 ..."; exits 1 naming each difference.
use strict;
use warnings;
use File::Basename qw(dirname);

die "usage: conftest-check.pl RELEASE CONFTEST_H\n" unless @ARGV == 2;
my ($release, $header) = @ARGV;
my $top = dirname(dirname(__FILE__));
my ($series) = $release =~ /^(\d+\.\d+)/
	or die "conftest-check: '$release' is not a kernel release\n";
sub number { my ($major, $minor) = split /\./, shift; return $major * 1000 + $minor }

sub lines {
	my ($file) = @_;
	open(my $fh, '<', $file) or die "conftest-check: $file: $!\n";
	return <$fh>;
}

# conftest.sh: "# X.Y" opens the comment just above each "probe NAME".
my (%since, $block, $first);
for (lines("$top/conftest.sh")) {
	if (/^#/) {
		$first = $_ unless $block;
		$block = 1;
		next;
	}
	if (/^probe (\w+)/ && $block) {
		my $probe = $1;
		($since{$probe}) = $first =~ /^# (\d+\.\d+)\b/
			or die "conftest-check: conftest.sh: probe $probe: its comment names no version\n";
	}
	$block = 0;
}
die "conftest-check: conftest.sh: no probe\n" unless %since;

# The exceptions: "PROBE until X.Y" (the API gone from X.Y on) and
# "PROBE also X.Y..." (kernel series that backported it).
my %want = map { ($_ => number($series) >= number($since{$_}) ? 1 : 0) } keys %since;
for (lines("$top/tests/data/conftest.expected")) {
	next if /^#/ || !/\S/;
	my ($probe, $rule, @versions) = split;
	die "conftest-check: tests/data/conftest.expected: no probe $probe in conftest.sh\n"
		unless exists $since{$probe};
	if ($rule eq 'until' && @versions == 1) {
		$want{$probe} = 0 if number($series) >= number($versions[0]);
	} elsif ($rule eq 'also' && @versions) {
		$want{$probe} = 1 if grep { $_ eq $series } @versions;
	} else {
		die "conftest-check: tests/data/conftest.expected: not \"PROBE until X.Y\" nor \"PROBE also X.Y...\": $_";
	}
}

my %found;
for (lines($header)) {
	$found{$1} = 1 if /^#define LWNFS_HAVE_(\w+) 1$/;
	$found{$1} = 0 if m{^/\* LWNFS_HAVE_(\w+): no \*/$};
}
print 'probes: ', join(' ', map { "$_=$found{$_}" } sort keys %found), "\n";
my $status = 0;
for my $probe (sort keys %{{ %want, %found }}) {
	my ($w, $f) = map { $_->{$probe} // '-' } \%want, \%found;
	next if $w eq $f;
	print STDERR "conftest-check: $release: $probe: expected $w, found $f\n";
	$status = 1;
}
exit $status;
