#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/mutants/mutant.pl LIST
#        harness/mutants/mutant.pl LIST NAME SOURCE
#
# LIST alone: check it, and print a line per mutant: its name, its
# first bats file, its kind (suites, equivalent, kcsan, selinux) and why,
# tab-separated.  With NAME and SOURCE: SOURCE with mutant NAME applied.
use strict;
use warnings;

my ($list, $name, $source) = @ARGV;
die "usage: mutant.pl LIST [NAME SOURCE]\n" unless defined $list && @ARGV != 2;

# name => { first => FILE, kind => HOW, why => REASON, hunks => [ [FROM, TO], ... ] }
my (%mutants, @order, $cur, $side);
open(my $fh, '<', $list) or die "mutant.pl: $list: $!\n";
while (my $line = <$fh>) {
	chomp $line;
	my $where = "$list:$.";
	if ($line =~ /^([-+])(.*)$/ && $cur) {
		my ($sign, $text) = ($1, $2);
		# A "-" after a "+" starts the next hunk.
		push @{$cur->{hunks}}, [undef, undef] if $sign eq '-' && $side ne '-';
		die "mutant.pl: $where: \"+\" before any \"-\"\n" unless @{$cur->{hunks}};
		my $h = $cur->{hunks}[-1];
		my $i = $sign eq '-' ? 0 : 1;
		$h->[$i] = defined $h->[$i] ? "$h->[$i]\n$text" : $text;
		$side = $sign;
	} elsif ($line =~ /^(equivalent|kcsan|selinux): (.+)$/ && $cur && !@{$cur->{hunks}}) {
		die "mutant.pl: $where: a second \"equivalent:\", \"kcsan:\" or \"selinux:\" line\n"
			unless $cur->{kind} eq 'suites';
		($cur->{kind}, $cur->{why}) = ($1, $2);
	} elsif ($line =~ /^first: (\S+)$/ && $cur && !@{$cur->{hunks}}) {
		die "mutant.pl: $where: no file $1\n" unless -f $1;
		$cur->{first} = $1;
	} elsif ($line eq '') {
		$cur = undef;
	} elsif ($line =~ /^#/ && !$cur) {
		next;
	} elsif ($line =~ /^([a-z0-9][a-z0-9-]*): \S/ && !$cur) {
		my $n = $1;
		die "mutant.pl: $where: $n is listed twice\n" if $mutants{$n};
		# The name goes into the guest's kernel log (LWNFS_KERNEL_BAD).
		die "mutant.pl: $where: $n holds a word the kernel-log check reads as a problem\n"
			if $n =~ /leak|bug|warning|oops/i;
		$cur = $mutants{$n} = { first => '', kind => 'suites', why => '', hunks => [] };
		push @order, $n;
		$side = '';
	} else {
		die "mutant.pl: $where: cannot read \"$line\"\n";
	}
}
close $fh;
for my $n (@order) {
	die "mutant.pl: $n changes nothing\n" unless @{$mutants{$n}{hunks}};
	die "mutant.pl: $n has no \"first:\" line\n" unless $mutants{$n}{first};
	for my $h (@{$mutants{$n}{hunks}}) {
		die "mutant.pl: $n: a hunk without \"+\" lines\n" unless defined $h->[1];
	}
}

if (!defined $name) {
	print join("\t", $_, @{$mutants{$_}}{qw(first kind why)}), "\n" for @order;
	exit 0;
}

my $m = $mutants{$name} or die "mutant.pl: no mutant $name in $list\n";
open($fh, '<', $source) or die "mutant.pl: $source: $!\n";
my $text = do { local $/; <$fh> };
close $fh;
for my $h (@{$m->{hunks}}) {
	my ($from, $to) = @$h;
	my $at = index($text, $from);
	die "mutant.pl: $name: its \"-\" lines are not in $source\n" if $at < 0;
	die "mutant.pl: $name: its \"-\" lines are in $source more than once\n"
		if index($text, $from, $at + 1) >= 0;
	substr($text, $at, length $from) = $to;
}
print $text;
