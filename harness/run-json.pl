#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/run-json.pl [-g GUEST.json] [-V VM.json] FILE.json...
#        harness/run-json.pl -m ROWS OUT.json
#
# What a run was, added as "run" to each FILE for harness/results.pl: the
# date, the commit ("+changes" for a changed tree), the host, the
# accelerator (GUEST.json's or the file's, else vm.sh's for this boot),
# the guest's CPUs and memory (VM.json's, from vm.sh -o, else
# settings.sh's) and the kernel (GUEST.json's or the file's).  With -m:
# OUT.json is the kernel matrix's run, from ROWS, matrix.sh's
# tab-separated lines (name, arch, kernel, compiler, suites, passed,
# failed, skipped, seconds, result, phase times).  Exits non-zero with one
# line when a file cannot be read or written, or a row is malformed.
use strict;
use warnings;
use JSON::PP;
use POSIX qw(strftime);
use Getopt::Std;
use File::Basename qw(dirname);

my %opt;
my $usage = "usage: run-json.pl [-g GUEST.json] [-V VM.json] FILE.json... | -m ROWS OUT.json\n";
getopts('g:V:m:', \%opt) or die $usage;
die $usage
	unless @ARGV && (!$opt{m} || @ARGV == 1);
my $json = JSON::PP->new->pretty->canonical;
my $tree = dirname(dirname(__FILE__));
# The harness's settings (the environment's where set).
my ($cache, $guest_cpus, $guest_mib) = split ' ',
	qx(bash -c '. "\$1"/harness/settings.sh && echo "\$LWNFS_CACHE \$LWNFS_GUEST_CPUS \$LWNFS_GUEST_MEMORY"' - '$tree');
die "run-json: $tree/harness/settings.sh did not give the settings\n" unless defined $guest_mib;

sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or die "run-json: $f: $!\n";
	local $/;
	my $v = eval { decode_json(<$fh>) } or die "run-json: $f: not JSON\n";
	return $v;
}

sub spew {
	my ($f, $v) = @_;
	open(my $fh, '>', "$f.new") or die "run-json: $f: $!\n";
	print $fh $json->encode($v);
	close($fh) or die "run-json: $f: $!\n";
	rename("$f.new", $f) or die "run-json: $f: $!\n";
}

sub first_line {
	my ($cmd) = @_;
	my $out = qx($cmd);
	return undef if $? || !defined $out;
	chomp($out = (split /\n/, $out)[0] // '');
	return $out eq '' ? undef : $out;
}

# The accelerator as harness/boot/vm.sh chose it this boot (its verdict file);
# no verdict, or "no": TCG.
sub accel {
	my $boot = first_line('cat /proc/sys/kernel/random/boot_id 2>/dev/null') // '';
	my $verdict = first_line("cat '$cache/initramfs/kvm-$boot' 2>/dev/null") // 'no';
	return $verdict eq 'yes' ? 'KVM' : 'QEMU TCG';
}

sub run_facts {
	my ($kernel, $accel) = @_;
	my $commit = first_line("git -C '$tree' rev-parse --short HEAD 2>/dev/null") // 'no commit';
	$commit .= '+changes' if system("git -C '$tree' diff --quiet HEAD 2>/dev/null") != 0
		&& $commit ne 'no commit';
	my ($model) = (first_line("sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo") // 'unknown');
	my $mem = first_line("sed -n 's/^MemTotal: *\\([0-9]*\\) kB/\\1/p' /proc/meminfo") // 0;
	my %run = (
		date => strftime('%Y-%m-%d %H:%M UTC', gmtime),
		commit => $commit,
		machine => {
			arch => first_line('uname -m') // 'unknown',
			cpus => 0 + (first_line('nproc') // 0),
			cpu => $model,
			memory_mib => int($mem / 1024),
		},
		accel => defined $accel ? ($accel eq 'kvm' ? 'KVM' : $accel eq 'tcg' ? 'QEMU TCG' : $accel)
			: accel(),
		guest => {
			cpus => 0 + $guest_cpus,
			memory_mib => 0 + $guest_mib,
		},
	);
	$run{kernel} = $kernel if defined $kernel;
	return \%run;
}

if ($opt{m}) {
	open(my $fh, '<', $opt{m}) or die "run-json: $opt{m}: $!\n";
	my @rows;
	while (my $line = <$fh>) {
		chomp $line;
		next if $line eq '';
		my @f = split /\t/, $line, -1;
		die "run-json: $opt{m}: a row of " . scalar(@f) . " fields, not 11: $line\n" unless @f == 11;
		my ($name, $arch, $kernel, $cc, $suites, $p, $fl, $s, $secs, $result, $times) = @f;
		my %phases;
		for my $phase (qw(root build guest)) {
			$phases{"${phase}_seconds"} = 0 + $1 if $times =~ /\b$phase (\d+) s\b/;
		}
		push @rows, { %phases,
			name => $name, arch => $arch, kernel => $kernel, compiler => $cc,
			suites => $suites, booted => $suites eq 'build' ? JSON::PP::false : JSON::PP::true,
			passed => 0 + $p, failed => 0 + $fl, skipped => 0 + $s,
			seconds => 0 + $secs, result => $result,
		};
	}
	close $fh;
	spew($ARGV[0], { run => run_facts(), rows => \@rows });
	exit 0;
}

my ($kernel, $accel);
if ($opt{V}) {
	my $vm = slurp($opt{V});
	($guest_cpus, $guest_mib) = ($vm->{cpus}, $vm->{memory_mib});
	die "run-json: $opt{V}: no cpus and memory_mib\n" unless $guest_cpus && $guest_mib;
}
if ($opt{g}) {
	my $guest = slurp($opt{g});
	$kernel //= $guest->{kernel};
	$accel = $guest->{accel};
}
for my $file (@ARGV) {
	my $v = slurp($file);
	$v->{run} = run_facts($kernel // $v->{kernel}, $accel // $v->{accel});
	spew($file, $v);
}
