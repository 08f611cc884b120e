#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: bench/plot.pl [-o DIR] SCALE.json PEERS.json
#
# make bench-scale's plots, SVG, with gnuplot, next to the JSON files (or
# in DIR: make results draws docs/plots from docs/data):
#  - bench-scale-cost.svg: ns per entry of each directory operation
#    against the number of entries, lwnfs and tmpfs, one panel per
#    operation, named as docs/results.md's table names them;
#  - bench-scale-memory.svg: slab bytes per entry against the number of
#    entries, made and left after the unlinks, lwnfs and tmpfs;
#  - bench-peers.svg: ns to take a value, lwnfs and each peer, log scale.
# Every plot says what was measured, how (the median of N runs, or one
# pass), where (QEMU TCG or KVM, the kernel, the commit and date, from the
# files' "run", harness/run-json.pl), each axis's scale and unit, and
# which way is better.  Every figure plotted is read from the two files
# of one run: an operation, a size or a peer missing from them fails the
# plot, and nothing is plotted that the run did not measure.
use strict;
use warnings;
use JSON::PP;
use File::Basename qw(dirname);
use File::Temp qw(tempdir);
use Getopt::Std;

my %opt;
getopts('o:', \%opt) or die "usage: plot.pl [-o DIR] SCALE.json PEERS.json\n";
my ($scale_file, $peers_file) = @ARGV;
die "usage: plot.pl [-o DIR] SCALE.json PEERS.json\n" unless defined $peers_file && @ARGV == 2;
sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or die "plot: $f: $!\n";
	local $/;
	return decode_json(<$fh>);
}
my $scale = slurp($scale_file);
my $peers = slurp($peers_file);
my $dir = $opt{o} // dirname($scale_file);

# A gnuplot string: double-quoted, so that \n breaks a title's line.
sub gq {
	my ($text) = @_;
	$text =~ s/(["\\])/\\$1/g;
	$text =~ s/\n/\\n/g;
	return qq("$text");
}
# Where the run was: "QEMU TCG (an emulated CPU), kernel K, commit C, DATE".
sub where {
	my ($file, $json) = @_;
	my $run = $json->{run}
		or die "plot: $file has no \"run\" (harness/run-json.pl): where it was measured\n";
	my $accel = $run->{accel} // 'accelerator not recorded';
	$accel .= ' (an emulated CPU)' if $accel eq 'QEMU TCG';
	my @where = ($accel, 'kernel ' . ($run->{kernel} // 'not recorded'),
		'commit ' . ($run->{commit} // 'not recorded'));
	push @where, substr($run->{date}, 0, 10) if $run->{date};
	return join(', ', @where);
}
my $scale_where = where($scale_file, $scale);
my $peers_where = where($peers_file, $peers);
my $tmp = tempdir(CLEANUP => 1);

my @ops = qw(create stat read readdir readdir_stat rename unlink);
my %cost;	# op -> n -> [lwnfs, tmpfs]
for my $row (@{$scale->{scale}}) {
	$cost{$row->{op}}{$row->{n}} = [$row->{lwnfs_ns}, $row->{tmpfs_ns}];
}
my @sizes = sort { $a <=> $b } map { $_->{n} } @{$scale->{memory}};
die "plot: $scale_file has no sizes\n" unless @sizes;
for my $op (@ops) {
	for my $n (@sizes) {
		die "plot: $scale_file has no $op at $n entries\n"
			unless $cost{$op}{$n};
	}
}

# One data file per operation: N, lwnfs ns, tmpfs ns; one panel each,
# named as docs/results.md's table names the operation.
my %op_name = (
	create => 'make a counter (open O_CREAT|O_EXCL, close)',
	stat => 'stat by name',
	read => 'read once (open, read, close)',
	readdir => 'getdents64, per entry',
	readdir_stat => 'getdents64 and fstatat each (ls -l)',
	rename => 'rename',
	unlink => 'unlink',
);
my $panels = '';
for my $op (@ops) {
	open(my $fh, '>', "$tmp/$op.dat") or die "plot: $!\n";
	printf $fh "%d %.1f %.1f\n", $_, @{$cost{$op}{$_}} for @sizes;
	close($fh);
	$panels .= "set title " . gq($op_name{$op}) . "\n"
		. "plot '$tmp/$op.dat' using 1:2 with linespoints lc 1 dt 1 pt 7 title 'lwnfs', \\\n"
		. "\t'$tmp/$op.dat' using 1:3 with linespoints lc 2 dt 2 pt 5 title 'tmpfs'\n";
}
open(my $mem, '>', "$tmp/memory.dat") or die "plot: $!\n";
for my $row (sort { $a->{n} <=> $b->{n} } @{$scale->{memory}}) {
	printf $mem "%d %.1f %.1f %.1f %.1f\n", $row->{n}, $row->{lwnfs_made},
		$row->{tmpfs_made}, $row->{lwnfs_left}, $row->{tmpfs_left};
}
close($mem);

my @peer_keys = qw(peers_lwnfs_ns peers_shm_ns peers_redis_unix_ns
	peers_redis_tcp_ns peers_sqlite_ns peers_redis_cli_ns);
open(my $pd, '>', "$tmp/peers.dat") or die "plot: $!\n";
my $k = 0;
for my $key (@peer_keys) {
	my $f = $peers->{figures}{$key}
		or die "plot: $peers_file has no $key\n";
	(my $what = $f->{what}) =~ s/"/'/g;
	$what .= ' (latency)' if $key eq 'peers_redis_cli_ns';
	printf $pd "%d \"%s\" %.1f\n", $k++, $what, $f->{median};
}
close($pd);

my $runs = $scale->{runs};
my $cost_title = gq("lwnfs and tmpfs: ns per entry of each directory operation as the directory grows\n"
	. "median of $runs runs, lwnfs and tmpfs taking turns; lower is better\n$scale_where");
my $mem_title = gq("slab bytes per entry: grown by making the entries, and left after unlinking them\n"
	. "one pass of each filesystem's whole life (not a median); lower is better\n$scale_where");
my $peers_title = gq("ns to take one value from a shared counter: $peers->{procs} processes taking "
	. "$peers->{iters} values each at once,\n"
	. "their whole time over the values taken; redis-cli: one process, one value's latency\n"
	. "median of $peers->{runs} runs, the measures taking turns; lower is better\n$peers_where");
my $gp = <<"END";
set grid
set logscale x
set xrange [$sizes[0] / 2.0:$sizes[-1] * 2.0]
set format x '%.0s%c'
set xlabel 'entries in the directory (log scale)'
set ylabel 'ns per entry (linear, from 0)'
set yrange [0:*]
set key top left
set terminal svg size 1400,820 dynamic noenhanced font 'sans,11'
set output '$dir/bench-scale-cost.svg'
set multiplot layout 2,4 title $cost_title font 'sans,13'
$panels
unset multiplot
set terminal svg size 1000,640 dynamic noenhanced font 'sans,12'
set output '$dir/bench-scale-memory.svg'
set title $mem_title
set key center right box opaque
set ylabel 'slab bytes per entry (linear)'
set yrange [*:*]
plot '$tmp/memory.dat' using 1:2 with linespoints dt 1 lc 1 pt 7 title 'lwnfs, made', \\
	'$tmp/memory.dat' using 1:3 with linespoints dt 2 lc 1 pt 5 title 'tmpfs, made', \\
	'$tmp/memory.dat' using 1:4 with linespoints dt 1 lc 2 pt 7 title 'lwnfs, left after unlink', \\
	'$tmp/memory.dat' using 1:5 with linespoints dt 2 lc 2 pt 5 title 'tmpfs, left after unlink'
set terminal svg size 1100,760 dynamic noenhanced font 'sans,12'
set bmargin 10
set rmargin 30
set output '$dir/bench-peers.svg'
set title $peers_title
unset logscale x
set autoscale x
set xrange [-0.5:$#peer_keys + 0.5]
set format x '%g'
set logscale y
set yrange [*:*]
set format y '%.0s%c'
set ylabel 'ns per value (log scale)'
set xlabel ''
set style fill solid 0.6
set boxwidth 0.6
set xtics rotate by -25
unset key
plot '$tmp/peers.dat' using 1:3:xtic(2) with boxes notitle, \\
	'' using 1:(\$3 * 1.6):(gprintf('%.0f ns', \$3)) with labels notitle
END
open(my $g, '|-', 'gnuplot') or die "plot: gnuplot: $!\n";
print $g $gp;
close($g) or die "plot: gnuplot failed\n";
# Every file of the tree says its licence, the plots kept in docs too.
for my $svg (map { "$dir/$_.svg" } qw(bench-scale-cost bench-scale-memory bench-peers)) {
	open(my $in, '<', $svg) or die "plot: $svg: $!\n";
	my @lines = <$in>;
	close($in);
	splice(@lines, 1, 0, "<!-- SPDX-License-Identifier: GPL-2.0 -->\n");
	open(my $out, '>', $svg) or die "plot: $svg: $!\n";
	print $out @lines;
	close($out) or die "plot: $svg: $!\n";
}
print "plot: $dir/bench-scale-cost.svg, $dir/bench-scale-memory.svg, $dir/bench-peers.svg\n";
