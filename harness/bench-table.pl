#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/bench-table.pl ROW=BENCH.json...
#
# Print the bench figures of several rows as a Markdown table, one
# column per ROW, from the bench.json that make bench (KERNELS=ROW
# make bench, LWNFS_BENCH_BOOTS=N) left for it: each figure's median and,
# for the main ones, its lowest and highest (boot, when the file is the
# median of several boots; run, when it is one boot's).  Exits non-zero
# with a one-line message when a file cannot be read or lacks a figure.
use strict;
use warnings;
use JSON::PP;

die "usage: bench-table.pl ROW=BENCH.json...\n" unless @ARGV;

# [row label, figure, format, figure in brackets or '' ]; format "x2" is a
# ratio with two decimals and its range, "x0" a whole ratio and its range,
# "x2m" and "x0m" the median alone, "ns" and "B" whole numbers.
my @rows = (
	['taking a value, against a `/dev/zero` preadv, the iterator floor (target 1.15x)', 'take_vs_zero_iter', 'x2', ''],
	['taking a value, against a `/dev/zero` pread, through its `->read`', 'take_vs_zero', 'x2', ''],
	['open + read + close, against tmpfs (target 1.2x)', 'orc_lwnfs_vs_tmpfs', 'x2', ''],
	['values per second, against flock in C (target 20x)', 'take_vs_flock_c', 'x0', ''],
	['the same for a read that costs nothing (`/dev/zero`)', 'flock_c_vs_zero', 'x0m', ''],
	['2 threads against 1 (target: not slower)', 'threads_2_vs_1', 'x2', ''],
	['the same for 2 threads reading `/dev/zero` (control)', 'zero_threads_2_vs_1', 'x2m', ''],
	['a value, ns (a `/dev/zero` pread)', 'take_pread_ns', 'ns', 'zero_pread_ns'],
	['kernel memory per made counter', 'made_counter_bytes', 'B', ''],
);

my (@labels, @benches);
for my $arg (@ARGV) {
	my ($label, $file) = $arg =~ /^([^=]+)=(.+)$/
		or die "bench-table: '$arg' is not ROW=BENCH.json\n";
	open(my $fh, '<', $file) or die "bench-table: $file: $!\n";
	my $bench = eval { decode_json(do { local $/; <$fh> }) }
		or die "bench-table: $file: not the bench's JSON\n";
	close $fh;
	for my $row (@rows) {
		for my $key (grep { $_ ne '' } @$row[1, 3]) {
			die "bench-table: $file has no figure $key\n"
				unless $bench->{figures}{$key};
		}
	}
	push @labels, $label;
	push @benches, $bench;
}

# 1234567 -> "1,234,567"
sub thousands {
	my $n = sprintf('%.0f', shift);
	1 while $n =~ s/^(\d+)(\d{3})/$1,$2/;
	return $n;
}

sub cell {
	my ($bench, $key, $format, $also) = @_;
	my $f = $bench->{figures}{$key};
	my ($m, $lo, $hi) = @$f{qw(median min max)};
	return sprintf('%.2fx (%.2f–%.2f)', $m, $lo, $hi) if $format eq 'x2';
	return sprintf('%.0fx (%.0f–%.0f)', $m, $lo, $hi) if $format eq 'x0';
	return sprintf('%.2fx', $m) if $format eq 'x2m';
	return sprintf('%.0fx', $m) if $format eq 'x0m';
	return thousands($m) . ' B' if $format eq 'B';
	my $cell = thousands($m);
	$cell .= ' (' . thousands($bench->{figures}{$also}{median}) . ')' if $also;
	return $cell;
}

print '| figure | ', join(' | ', @labels), " |\n";
print '|---', '|---' x @labels, "|\n";
print '| kernel, accelerator | ',
	join(' | ', map { "$_->{kernel}, $_->{accel}" } @benches), " |\n";
print '| boots (range: of the boots; of the runs for 1) | ',
	join(' | ', map { $_->{boots} // 1 } @benches), " |\n";
for my $row (@rows) {
	my ($what, $key, $format, $also) = @$row;
	print "| $what | ", join(' | ', map { cell($_, $key, $format, $also) } @benches), " |\n";
}
