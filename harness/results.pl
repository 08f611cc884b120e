#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/results.pl [-o DIR]   (make results)
#
# Write docs/results.md, the one home of the measured figures and the
# kernel table, from the last runs' JSON in docs/data/: matrix.json
# (harness/matrix.sh's matrix.json), bench.json (make bench's), scale.json
# and peers.json (make bench-scale's).  Each part names its run from the
# file's "run" (harness/run-json.pl): date, commit, kernel, machine, QEMU
# TCG or KVM.  Nothing is written that the files do not hold.  With -o,
# the file goes to DIR/docs/results.md instead, for
# tests/checks/results-check.sh.  RESULTS_TREE=DIR reads another copy of
# the tree.  Exits non-zero with a one-line message when a file cannot be
# read or lacks a figure the page shows.
use strict;
use warnings;
use JSON::PP;
use Getopt::Std;
use File::Basename qw(basename dirname);
use File::Path qw(make_path);
use Text::Wrap qw(wrap $columns $huge);

my %opt;
getopts('o:', \%opt) or die "usage: results.pl [-o DIR]\n";
my $tree = $ENV{RESULTS_TREE} || dirname(dirname(__FILE__));
my $out = $opt{o} // $tree;
my $data = "$tree/docs/data";

sub slurp_text {
	my ($f) = @_;
	open(my $fh, '<', $f) or die "results: $f: $!\n";
	local $/;
	return scalar <$fh>;
}
sub slurp {
	my ($f) = @_;
	my $v = eval { decode_json(slurp_text($f)) } or die "results: $f: not JSON\n";
	die "results: $f has no \"run\": what run it is (harness/run-json.pl)\n" unless $v->{run};
	return $v;
}
sub spew {
	my ($f, $text) = @_;
	make_path(dirname($f));
	open(my $fh, '>', $f) or die "results: $f: $!\n";
	print $fh $text;
	close($fh) or die "results: $f: $!\n";
}
my $matrix = slurp("$data/matrix.json");
my $bench = slurp("$data/bench.json");
# The same benchmark on an earlier commit, where a change to the read
# path is measured against its parent: a column of its own.
my $before = -e "$data/bench-before.json" ? slurp("$data/bench-before.json") : undef;
# The same benchmark on other rows' kernels (KERNELS=ROW make bench), one
# file a row: docs/data/bench-rows/ROW.json.
my %bench_row = map { (basename($_, '.json') => slurp($_)) } glob("$data/bench-rows/*.json");
my $scale = slurp("$data/scale.json");
my $peers = slurp("$data/peers.json");

# 1234567 -> "1,234,567"; undef -> an empty cell.
sub thousands {
	my ($v) = @_;
	return '' unless defined $v;
	my $n = sprintf('%.0f', $v);
	1 while $n =~ s/^(-?\d+)(\d{3})/$1,$2/;
	return $n;
}
sub x2 { return sprintf('%.2fx', shift) }
sub range2 { my ($lo, $hi) = @_; return defined $lo ? sprintf('%.2f–%.2f', $lo, $hi) : '' }

my @months = qw(Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec);
# "2026-12-05..." -> "5 Dec 2026"
sub day {
	my ($date) = @_;
	return undef unless defined $date;
	my ($y, $m, $d) = $date =~ /^(\d{4})-(\d\d)-(\d\d)/ or die "results: a date '$date' not YYYY-MM-DD\n";
	return sprintf('%d %s %d', $d, $months[$m - 1], $y);
}

# What a run was, in one sentence's worth: date, commit, kernel, where.
sub where {
	my ($run) = @_;
	my $m = $run->{machine} or die "results: a run without its machine\n";
	my $g = $run->{guest} or die "results: a run without its guest\n";
	my $accel = $run->{accel} or die "results: a run without its accelerator\n";
	return sprintf('%s, %d vCPUs and %d MiB, on an %s host of %d CPUs',
		$accel, $g->{cpus}, $g->{memory_mib}, $m->{arch}, $m->{cpus});
}
sub run_line {
	my ($run, $how) = @_;
	my @parts = (day($run->{date}), "commit $run->{commit}");
	push @parts, "kernel $run->{kernel}" if $run->{kernel};
	push @parts, where($run);
	return join(', ', @parts) . ": $how.";
}

# A paragraph, wrapped at 72 columns (a word longer stays whole).
sub para {
	local $columns = 73;
	local $huge = 'overflow';
	(my $text = join(' ', @_)) =~ s/\s+/ /g;
	$text =~ s/ $//;
	return wrap('', '', $text) . "\n";
}

sub need {
	my ($h, $key, $file) = @_;
	die "results: docs/data/$file has no $key\n" unless defined $h->{$key};
	return $h->{$key};
}

# ---- the kernel matrix
my @rows = @{need($matrix, 'rows', 'matrix.json')};
my $per_row = grep { $_->{run} } @rows;
sub row_run {
	my ($r) = @_;
	my $run = $r->{run} // $matrix->{run};
	return '' unless $run->{date} || $run->{commit};
	return join(', ', grep { defined } day($run->{date}), $run->{commit});
}
sub row_kernel {
	my ($r) = @_;
	return $r->{kernel} . ($r->{package} ? " ($r->{package})" : '');
}
sub row_seconds {
	my ($r) = @_;
	return thousands($r->{seconds}) if defined $r->{seconds};
	return 'about ' . thousands($r->{seconds_about}) if defined $r->{seconds_about};
	return '';
}
sub row_tests {
	my ($r) = @_;
	my $t = 'built';
	if ($r->{booted}) {
		$t = "booted: $r->{passed} passed";
		$t .= ", $r->{failed} failed" if $r->{failed};
		$t .= ", $r->{skipped} skipped" if $r->{skipped};
	}
	$t .= " ($r->{result})" unless ($r->{result} // 'ok') =~ /^(ok|built, not booted)$/;
	return $t;
}
my %suites = (all => 'every suite', module => "the module's", build => '');

my $md = '';
$md .= "<!-- SPDX-License-Identifier: GPL-2.0 -->\n";
$md .= "<!-- Generated by make results (harness/results.pl) from docs/data/*.json: edit those, not this. -->\n";
$md .= <<'END';
# Results

The last runs of the kernel matrix (`make check-all`), the benchmark
(`make bench`) and the scaling benchmark (`make bench-scale`). Each part
names its run: the date, the commit, the kernel and the machine. Every
guest runs under QEMU TCG, an emulated CPU: the absolute times say more
about QEMU than about a real machine, and the ratios between two
measures taken side by side are what to read. How each is measured is
in [testing.md](testing.md).

## Kernel matrix

END
if ($per_row) {
	$md .= para("Each row is from the last run that booted it, or for the rows that",
		"are only built, the last that built it: its date and commit are in the",
		"last column. Guests under", where($matrix->{run}) . '.',
		"Seconds are the row's whole time: root, build and guest.");
} else {
	$md .= para(run_line($matrix->{run}, '`make check-all` (`harness/matrix.sh`)'),
		"Seconds are each row's whole time: root, build and guest.");
}
$md .= "\n";
$md .= '| row | arch | kernel | compiler | suites | tests | seconds |'
	. ($per_row ? " run |\n" : "\n");
$md .= '|---|---|---|---|---|---|---|' . ($per_row ? "---|\n" : "\n");
for my $r (@rows) {
	my @cells = ($r->{name}, $r->{arch}, row_kernel($r), $r->{compiler} // '',
		$suites{$r->{suites}} // $r->{suites}, row_tests($r), row_seconds($r));
	push @cells, row_run($r) if $per_row;
	$md .= '| ' . join(' | ', @cells) . " |\n";
}
my @nodate = map { $_->{name} } grep { row_run($_) eq '' } @rows;
my @notes = map { "$_->{name}: $_->{note}." } grep { $_->{note} } @rows;
$md .= "\n" . para(@notes) if @notes;
$md .= "\n" . para('No run of', join(', ', @nodate), 'is in `docs/data/matrix.json`.') if @nodate;

# ---- the benchmark
my $bf = need($bench, 'figures', 'bench.json');
sub bfig {
	my ($key) = @_;
	return need($bf, $key, 'bench.json');
}
my $boots = $bench->{boots} // 1;
$md .= "\n## Benchmark\n\n";
$md .= para(run_line($bench->{run}, $boots > 1 ? "`LWNFS_BENCH_BOOTS=$boots make bench`" : '`make bench`'),
	sprintf("Each figure is the median of %s, each boot's the median of %d runs;",
		$boots > 1 ? "$boots boots" : 'one boot', need($bench, 'runs', 'bench.json')),
	"a range is the lowest and highest " . ($boots > 1 ? 'boot' : 'run') . '.') . "\n";
if ($before) {
	my $bb = $before->{boots} // 1;
	$md .= para('Before: the same measures on the parent of the change,',
		lcfirst(run_line($before->{run}, $bb > 1 ? "`LWNFS_BENCH_BOOTS=$bb make bench`" : '`make bench`')),
		$before->{run}{record} ? "($before->{run}{record})." : '') . "\n";
}
$md .= $before ? "| figure | median | range | before | before's range | target |\n|---|---|---|---|---|---|\n"
	: "| figure | median | range | target |\n|---|---|---|---|\n";
my @bench_rows = (
	['taking a value, against a `/dev/zero` preadv (its `->read_iter`, the iterator floor)', 'take_vs_zero_iter', 'x', 'at most 1.15x (lower is better)'],
	['taking a value with preadv, against a `/dev/zero` preadv (one system call, both through `->read_iter`)', 'take_preadv_vs_zero_iter', 'x', 'lower is better'],
	['taking a value, against a `/dev/zero` pread (its `->read`)', 'take_vs_zero', 'x', 'at most 1.3x (lower is better)'],
	['a value, ns', 'take_pread_ns', 'ns', 'lower is better'],
	['a value with preadv, ns', 'take_preadv_ns', 'ns', 'lower is better'],
	['a `/dev/zero` preadv, ns (the iterator floor)', 'zero_preadv_ns', 'ns', ''],
	['a `/dev/zero` pread, ns (the `->read` floor)', 'zero_pread_ns', 'ns', ''],
	['open + read + close, against tmpfs', 'orc_lwnfs_vs_tmpfs', 'x', 'at most 1.2x (lower is better)'],
	['values per second, against `flock` in C', 'take_vs_flock_c', 'x0', 'at least 20x (higher is better)'],
	['2 threads against 1', 'threads_2_vs_1', 'x', 'not below 1x (higher is better)'],
	['2 threads against 1 reading `/dev/zero` (the control)', 'zero_threads_2_vs_1', 'x', ''],
	['kernel memory per made counter', 'made_counter_bytes', 'B', 'lower is better'],
);
# figure_cells FIGURE FORMAT: a figure's median and range as table cells
# (two empty ones for no figure).
sub figure_cells {
	my ($f, $fmt) = @_;
	return ('', '') unless $f;
	my $m = $fmt eq 'x' ? x2($f->{median}) : $fmt eq 'x0' ? sprintf('%.0fx', $f->{median})
		: thousands($f->{median}) . ($fmt eq 'B' ? ' B' : '');
	my $range = $fmt eq 'x' ? range2($f->{min}, $f->{max})
		: defined $f->{min} ? thousands($f->{min}) . '–' . thousands($f->{max}) : '';
	return ($m, $range);
}
for my $b (@bench_rows) {
	my ($what, $key, $fmt, $target) = @$b;
	next unless $bf->{$key} || !grep { $_ eq $key } @{$bench->{not_recorded} // []};
	my @cells = figure_cells(bfig($key), $fmt);
	push @cells, figure_cells($before->{figures}{$key}, $fmt) if $before;
	$md .= '| ' . join(' | ', $what, @cells, $target) . " |\n";
}
if (my $tv = $bf->{take_vs_zero}{boots}) {
	$md .= "\n" . para('Taking a value against a `/dev/zero` pread, boot by boot:',
		join(', ', map { x2($_) } @$tv) . '.');
}

# ---- the benchmark by architecture
if (%bench_row) {
	my %arch = map { ($_->{name} => $_->{arch}) } @rows;
	# the matrix's order, and the rows it has not after them
	my %order;
	@order{map { $_->{name} } @rows} = (0 .. $#rows);
	my @names = sort { ($order{$a} // 1e9) <=> ($order{$b} // 1e9) || $a cmp $b } keys %bench_row;
	$md .= "\n### By architecture\n\n";
	$md .= para('`KERNELS=ROW make bench` on the booted rows of other architectures,',
		'each its own kernel and root, beside the amd64 figures above. Under TCG',
		'each architecture is emulated at its own speed: the ratios compare',
		'across rows, the nanoseconds do not. Medians, and their range over the',
		'boots (or runs, for one boot).') . "\n";
	$md .= "| row | arch | kernel | against a `/dev/zero` pread | against a `/dev/zero` preadv | 2 threads against 1 | the same for `/dev/zero` | a value, ns | run |\n";
	$md .= "|---|---|---|---|---|---|---|---|---|\n";
	for my $name ('bookworm', @names) {
		my $b = $name eq 'bookworm' ? $bench : $bench_row{$name};
		my $file = $name eq 'bookworm' ? 'bench.json' : "bench-rows/$name.json";
		my $f = need($b, 'figures', $file);
		# a ratio with its range in brackets; a time, its median alone
		my $fig = sub {
			my ($key, $fmt) = @_;
			my ($m, $r) = figure_cells(need($f, $key, $file), $fmt);
			return $fmt eq 'x' && $r ? "$m ($r)" : $m;
		};
		my $boots = $b->{boots} // 1;
		$md .= '| ' . join(' | ', $name, $arch{$name} // '', $b->{run}{kernel} // $b->{kernel},
			$fig->('take_vs_zero', 'x'), $fig->('take_vs_zero_iter', 'x'),
			$fig->('threads_2_vs_1', 'x'), $fig->('zero_threads_2_vs_1', 'x'),
			$fig->('take_pread_ns', 'ns'),
			join(', ', day($b->{run}{date}), $b->{run}{commit}, $boots > 1 ? "$boots boots" : 'one boot')) . " |\n";
	}
}

# ---- scaling and peers
my @ops = (
	[create => 'make a counter (`open O_CREAT|O_EXCL`, `close`)'],
	[stat => '`stat` by name'],
	[read => 'read once (`open`, `read`, `close`)'],
	[readdir => '`getdents64`, per entry'],
	[readdir_stat => '`getdents64` and `fstatat` each (`ls -l`)'],
	[rename => '`rename`'],
	[unlink => '`unlink`'],
);
my %cost;
$cost{$_->{op}}{$_->{n}} = $_ for @{need($scale, 'scale', 'scale.json')};
my @mem = sort { $a->{n} <=> $b->{n} } @{need($scale, 'memory', 'scale.json')};
my @sizes = map { $_->{n} } @mem;
die "results: docs/data/scale.json has no sizes\n" unless @sizes;
my $runs = need($scale, 'runs', 'scale.json');
$md .= "\n## Scaling and peers\n\n";
$md .= para(run_line($scale->{run}, '`make bench-scale`'),
	'Plotted in [bench-scale-cost.svg](plots/bench-scale-cost.svg),',
	'[bench-scale-memory.svg](plots/bench-scale-memory.svg) and',
	'[bench-peers.svg](plots/bench-peers.svg).') . "\n";
$md .= "### A directory of 1,000 to 100,000 entries, against tmpfs\n\n";
$md .= "Nanoseconds per entry, lwnfs / tmpfs, each the median of $runs runs with\n"
	. "the two taking turns; then lwnfs's time over tmpfs's, the median of the\n"
	. "runs' ratios, with the least and greatest in brackets. Lower is better;\n"
	. "1.00x is tmpfs's pace.\n\n";
$md .= '| per entry | ' . join(' | ', map { thousands($_) } @sizes) . " |\n";
$md .= '|---' . ('|---' x @sizes) . "|\n";
for my $o (@ops) {
	my ($op, $what) = @$o;
	my @cells;
	for my $n (@sizes) {
		my $c = $cost{$op}{$n} or die "results: docs/data/scale.json has no $op at $n entries\n";
		push @cells, sprintf('%s / %s: %s (%s)', thousands($c->{lwnfs_ns}), thousands($c->{tmpfs_ns}),
			x2($c->{ratio}), range2($c->{ratio_min}, $c->{ratio_max}));
	}
	(my $cell = $what) =~ s/\|/\\|/g;
	$md .= "| $cell | " . join(' | ', @cells) . " |\n";
}
$md .= "\nSlab bytes per entry, lwnfs / tmpfs, from one pass of each filesystem's\n"
	. "whole life (not a median): grown by making the entries, and left once\n"
	. "they are all unlinked. Lower is better.\n\n";
$md .= '| slab bytes per entry | ' . join(' | ', map { thousands($_) } @sizes) . " |\n";
$md .= '|---' . ('|---' x @sizes) . "|\n";
sub bytes { my ($v) = @_; return $v == int($v) ? thousands($v) : sprintf('%.1f', $v) }
$md .= '| grown by the making | ' . join(' | ', map { bytes($_->{lwnfs_made}) . ' / ' . bytes($_->{tmpfs_made}) } @mem) . " |\n";
$md .= '| left after the unlinks | ' . join(' | ', map { bytes($_->{lwnfs_left}) . ' / ' . bytes($_->{tmpfs_left}) } @mem) . " |\n";
if (my $d = $scale->{deep}) {
	$md .= "\nA tree " . thousands($d->{depth}) . " directories deep, lwnfs / tmpfs, the median of $runs runs:\n\n";
	$md .= "| | lwnfs | tmpfs | lwnfs over tmpfs |\n|---|---|---|---|\n";
	$md .= sprintf("| `stat` of the counter at the bottom, by its path | %s µs | %s µs | %s (%s) |\n",
		thousands($d->{lookup_lwnfs_ns} / 1000), thousands($d->{lookup_tmpfs_ns} / 1000),
		x2($d->{lookup_ratio}), range2($d->{lookup_ratio_min}, $d->{lookup_ratio_max}));
	$md .= sprintf("| `nftw` over the whole tree | %.1f ms | %.1f ms | %s (%s) |\n",
		$d->{walk_lwnfs_ns} / 1e6, $d->{walk_tmpfs_ns} / 1e6,
		x2($d->{walk_ratio}), range2($d->{walk_ratio_min}, $d->{walk_ratio_max}));
}

my @peer_keys = qw(peers_lwnfs_ns peers_shm_ns peers_redis_unix_ns peers_redis_tcp_ns
	peers_sqlite_ns peers_redis_cli_ns);
my $pf = need($peers, 'figures', 'peers.json');
$md .= "\n### Taking a value, against what else counts\n\n";
$md .= sprintf("%d processes take %s values each from one counter at once; a figure is\n"
	. "the time from the first take to the last over the values taken, the\n"
	. "median of %d runs with the measures taking turns. `redis-cli` is one\n"
	. "process starting one `redis-cli` for each of %d values: one value's\n"
	. "latency, not a throughput. Each run's ratio to lwnfs, its median and\n"
	. "in brackets the least and greatest. Lower is better.\n\n",
	need($peers, 'procs', 'peers.json'), thousands(need($peers, 'iters', 'peers.json')),
	need($peers, 'runs', 'peers.json'), need($peers, 'sh_iters', 'peers.json'));
$md .= "| ns a value | median | against lwnfs |\n|---|---|---|\n";
for my $key (@peer_keys) {
	my $f = need($pf, $key, 'peers.json');
	my $r = $f->{vs_lwnfs};
	my $ratio = $r >= 10 ? thousands($r) . 'x' : x2($r);
	if (defined $f->{vs_lwnfs_min}) {
		$ratio .= $r >= 10 ? sprintf(' (%s–%s)', thousands($f->{vs_lwnfs_min}), thousands($f->{vs_lwnfs_max}))
			: sprintf(' (%s)', range2($f->{vs_lwnfs_min}, $f->{vs_lwnfs_max}));
	}
	$md .= "| $f->{what} | " . thousands($f->{median}) . " | $ratio |\n";
}
$md .= "\n![ns per entry against the number of entries](plots/bench-scale-cost.svg)\n"
	. "![slab bytes per entry](plots/bench-scale-memory.svg)\n"
	. "![ns to take a value, lwnfs and its peers](plots/bench-peers.svg)\n";
spew("$out/docs/results.md", $md);

print "results: $out/docs/results.md\n" unless $opt{o};
