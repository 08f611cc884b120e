#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: bench/boots.pl OUT BOOT.json...
#
# Put the figures of several boots' benches (tests/programs/lwnfs-bench's JSON, one
# file a boot) side by side: print each figure's median in every boot and
# the median of those, and write OUT, the same JSON as one boot's with
# each figure the median of the boots, its lowest and highest boot, and
# "boots", the boots' medians in order.  Exits non-zero with a one-line
# message when a file cannot be read or the boots differ in kernel,
# accelerator, CPUs, runs or the figures they have.
use strict;
use warnings;
use JSON::PP;

my ($out, @files) = @ARGV;
die "usage: boots.pl OUT BOOT.json...\n" unless defined $out && @files;

my (@boots, @keys);
for my $file (@files) {
	open(my $fh, '<', $file) or die "boots: $file: $!\n";
	my $text = do { local $/; <$fh> };
	close $fh;
	my $bench = eval { decode_json($text) }
		or die "boots: $file: not the bench's JSON\n";
	push @boots, $bench;
	# The figures in the order the bench printed them.
	@keys = $text =~ /^\s*"(\w+)": \{"median"/mg unless @keys;
}
my $first = $boots[0];
die "boots: $files[0]: no figures\n" unless @keys;
for my $i (1 .. $#boots) {
	for my $what (qw(kernel accel cpus runs)) {
		die "boots: $files[$i] has $what $boots[$i]{$what}, $files[0] $first->{$what}\n"
			if $boots[$i]{$what} ne $first->{$what};
	}
	die "boots: $files[$i] has other figures than $files[0]\n"
		if join(' ', sort keys %{$boots[$i]{figures}}) ne join(' ', sort @keys);
}

sub median {
	my @v = sort { $a <=> $b } @_;
	return @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
}

printf "lwnfs benchmark, %d boots of kernel %s, QEMU %s: each boot's median, then theirs\n\n",
	scalar @boots, $first->{kernel}, $first->{accel};
printf "%-28s%s %10s\n", 'figure', join('', map { sprintf ' %10s', "boot $_" } 1 .. @boots), 'median';
my %figures;
for my $key (@keys) {
	my @v = map { $_->{figures}{$key}{median} } @boots;
	my $unit = $first->{figures}{$key}{unit};
	my $f = $unit eq 'x' ? '%10.2f' : '%10.0f';
	my $median = median(@v);
	printf "%-28s%s $f %s\n", $key, join('', map { sprintf " $f", $_ } @v), $median, $unit;
	my @sorted = sort { $a <=> $b } @v;
	$figures{$key} = { median => $median, min => $sorted[0], max => $sorted[-1],
			   unit => $unit, calls => $first->{figures}{$key}{calls}, boots => \@v };
}

my %merged = (%$first, boots => scalar @boots, figures => \%figures);
open(my $fh, '>', $out) or die "boots: $out: $!\n";
print $fh JSON::PP->new->pretty->canonical->encode(\%merged);
close $fh or die "boots: $out: $!\n";
