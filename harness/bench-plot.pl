#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/bench-plot.pl SCALE.json PEERS.json [RUN]
#
# make bench-scale's plots, SVG, with gnuplot, next to the JSON files:
#  - bench-scale-cost.svg: ns per entry of each directory operation
#    against the number of entries, lwnfs and tmpfs;
#  - bench-scale-memory.svg: slab bytes per entry against the number of
#    entries, made and left after the unlinks, lwnfs and tmpfs;
#  - bench-peers.svg: ns to take a value, lwnfs and each peer, log scale.
# Every figure plotted is read from the two files of one run: an
# operation, a size or a peer missing from them fails the plot, and
# nothing is plotted that the run did not measure.  RUN, what the run
# was (the commit measured), goes in every title.
use strict;
use warnings;
use JSON::PP;
use File::Basename qw(dirname);
use File::Temp qw(tempdir);

my ($scale_file, $peers_file, $run) = @ARGV;
die "usage: bench-plot.pl SCALE.json PEERS.json [RUN]\n" unless defined $peers_file;
my $from = defined $run ? " ($run)" : '';
$from =~ s/'/''/g;
sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or die "bench-plot: $f: $!\n";
	local $/;
	return decode_json(<$fh>);
}
my $scale = slurp($scale_file);
my $peers = slurp($peers_file);
my $dir = dirname($scale_file);
my $tmp = tempdir(CLEANUP => 1);

my @ops = qw(create stat read readdir readdir_stat rename unlink);
my %cost;	# op -> n -> [lwnfs, tmpfs]
for my $row (@{$scale->{scale}}) {
	$cost{$row->{op}}{$row->{n}} = [$row->{lwnfs_ns}, $row->{tmpfs_ns}];
}
my @sizes = sort { $a <=> $b } map { $_->{n} } @{$scale->{memory}};
die "bench-plot: $scale_file has no sizes\n" unless @sizes;
for my $op (@ops) {
	for my $n (@sizes) {
		die "bench-plot: $scale_file has no $op at $n entries\n"
			unless $cost{$op}{$n};
	}
}

# One data file per operation: N, lwnfs ns, tmpfs ns.
my @plots;
my $i = 0;
for my $op (@ops) {
	$i++;
	open(my $fh, '>', "$tmp/$op.dat") or die "bench-plot: $!\n";
	printf $fh "%d %.1f %.1f\n", $_, @{$cost{$op}{$_}} for @sizes;
	close($fh);
	push @plots, "'$tmp/$op.dat' using 1:2 with linespoints lc $i dt 1 title '$op, lwnfs'",
		"'$tmp/$op.dat' using 1:3 with linespoints lc $i dt 2 title '$op, tmpfs'";
}
open(my $mem, '>', "$tmp/memory.dat") or die "bench-plot: $!\n";
for my $row (sort { $a->{n} <=> $b->{n} } @{$scale->{memory}}) {
	printf $mem "%d %.1f %.1f %.1f %.1f\n", $row->{n}, $row->{lwnfs_made},
		$row->{tmpfs_made}, $row->{lwnfs_left}, $row->{tmpfs_left};
}
close($mem);

my @peer_keys = qw(peers_lwnfs_ns peers_shm_ns peers_redis_unix_ns
	peers_redis_tcp_ns peers_sqlite_ns peers_redis_cli_ns);
open(my $pd, '>', "$tmp/peers.dat") or die "bench-plot: $!\n";
my $k = 0;
for my $key (@peer_keys) {
	my $f = $peers->{figures}{$key}
		or die "bench-plot: $peers_file has no $key\n";
	(my $what = $f->{what}) =~ s/"/'/g;
	printf $pd "%d \"%s\" %.1f\n", $k++, $what, $f->{median};
}
close($pd);

my $gp = <<"END";
set terminal svg size 900,600 dynamic font 'sans,12'
set termoption noenhanced
set grid
set key outside right
set logscale x
set xrange [$sizes[0] / 2.0:$sizes[-1] * 2.0]
set format x '%.0s%c'
set output '$dir/bench-scale-cost.svg'
set title 'lwnfs and tmpfs: ns per entry as the directory grows, median of $scale->{runs} runs$from'
set xlabel 'entries in the directory'
set ylabel 'ns per entry'
set logscale y
plot @{[join(", \\\n\t", @plots)]}
set output '$dir/bench-scale-memory.svg'
set title 'slab bytes per entry, median of $scale->{runs} runs$from'
set ylabel 'bytes per entry'
unset logscale y
plot '$tmp/memory.dat' using 1:2 with linespoints dt 1 lc 1 title 'lwnfs, made', \\
	'$tmp/memory.dat' using 1:3 with linespoints dt 2 lc 1 title 'tmpfs, made', \\
	'$tmp/memory.dat' using 1:4 with linespoints dt 1 lc 2 title 'lwnfs, left after unlink', \\
	'$tmp/memory.dat' using 1:5 with linespoints dt 2 lc 2 title 'tmpfs, left after unlink'
set output '$dir/bench-peers.svg'
set title 'taking a value shared by $peers->{procs} processes: ns a value, median of $peers->{runs} runs$from'
unset logscale x
set autoscale x
set xrange [-0.5:$#peer_keys + 0.5]
set format x '%g'
set logscale y
set ylabel 'ns a value (log scale)'
set xlabel ''
set style fill solid 0.6
set boxwidth 0.6
set xtics rotate by -25
unset key
plot '$tmp/peers.dat' using 1:3:xtic(2) with boxes notitle
END
open(my $g, '|-', 'gnuplot') or die "bench-plot: gnuplot: $!\n";
print $g $gp;
close($g) or die "bench-plot: gnuplot failed\n";
# Every file of the tree says its licence, the plots kept in docs too.
for my $svg (map { "$dir/$_.svg" } qw(bench-scale-cost bench-scale-memory bench-peers)) {
	open(my $in, '<', $svg) or die "bench-plot: $svg: $!\n";
	my @lines = <$in>;
	close($in);
	splice(@lines, 1, 0, "<!-- SPDX-License-Identifier: GPL-2.0 -->\n");
	open(my $out, '>', $svg) or die "bench-plot: $svg: $!\n";
	print $out @lines;
	close($out) or die "bench-plot: $svg: $!\n";
}
print "bench-plot: $dir/bench-scale-cost.svg, $dir/bench-scale-memory.svg, $dir/bench-peers.svg\n";
