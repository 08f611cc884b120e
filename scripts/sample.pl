#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/sample.pl c LWNFS_C LWNFS_H      (the sample's lwnfs.c, on stdout)
#        scripts/sample.pl kbuild KCONFIG MAKEFILE  (samples/Kconfig and
#                                                    samples/Makefile, edited in place)
#        scripts/sample.pl maintainers MAINTAINERS  (its section, put in place)
#
# scripts/sample.sh's steps (see there).  Dies with one line when a file
# no longer holds what a step needs.
use strict;
use warnings;

sub slurp {
	open(my $fh, '<', $_[0]) or die "sample: $_[0]: $!\n";
	local $/;
	return <$fh>;
}

sub spew {
	open(my $fh, '>', $_[0]) or die "sample: $_[0]: $!\n";
	print $fh $_[1];
	close($fh) or die "sample: $_[0]: $!\n";
}

my $mode = shift // '';
if ($mode eq 'c' && @ARGV == 2) {
	my ($c, $h) = map { slurp($_) } @ARGV;
	# lwnfs.h's constants: from LWNFS_MAGIC to the last mount default.
	$h =~ /^(#define LWNFS_MAGIC\b.*?^#define LWNFS_DEFAULT_MAX_COUNTERS\b[^\n]*\n)/ms
		or die "sample: lwnfs.h: no constants from LWNFS_MAGIC to LWNFS_DEFAULT_MAX_COUNTERS\n";
	my $constants = $1;
	$c =~ s/^#include "lwnfs\.h"\n/$constants/m
		or die "sample: lwnfs.c: no #include \"lwnfs.h\"\n";
	$c =~ s/\blwnfs_iop_(\w+)/lwnfs_$1/g;
	for my $id (qw(uid gid)) {
		$c =~ s/\blwnfs_result_$id\(fc, &result\)/result.$id/g
			or die "sample: lwnfs.c: no lwnfs_result_$id(fc, &result)\n";
	}
	die "sample: lwnfs.c still uses lwnfs.h's $1\n" if $c =~ /\b(lwnfs_(?:iop|result)_\w+|LWNFS_HAVE_\w+)/;
	print $c;
} elsif ($mode eq 'kbuild' && @ARGV == 2) {
	my ($kconfig, $makefile) = @ARGV;
	my $k = slurp($kconfig);
	my $entry = <<'EOF';
config SAMPLE_LWNFS
	tristate "Build lwnfs, a filesystem of counter files"
	depends on m
	help
	  Build lwnfs as a module: a port of the libfs example of the LWN
	  article "Creating Linux virtual filesystems" (2002).  Its files
	  are counters kept in the dentry cache: reading one returns its
	  value and increments it, writing a decimal number sets it.

EOF
	$k =~ s/^(endif # SAMPLES)$/$entry$1/m
		or die "sample: $kconfig: no \"endif # SAMPLES\" line\n";
	spew($kconfig, $k);
	my $m = slurp($makefile);
	$m .= "obj-\$(CONFIG_SAMPLE_LWNFS)\t\t+= lwnfs/\n";
	spew($makefile, $m);
} elsif ($mode eq 'maintainers' && @ARGV == 1) {
	# A section of its own, in the alphabetical place: between two
	# sections (a title line after a blank one, followed by an "X:\t"
	# line) that sort before and after it; the file is not sorted
	# throughout, so the first such pair.
	my $file = $ARGV[0];
	my @lines = split /^/, slurp($file);
	my $title = 'LWNFS SAMPLE FILESYSTEM';
	my $entry = "$title\nL:\tlinux-fsdevel\@vger.kernel.org\nS:\tOrphan\nF:\tsamples/lwnfs/\n\n";
	my ($at, $before);
	for my $i (1 .. $#lines - 1) {
		next unless $lines[$i - 1] eq "\n" && $lines[$i + 1] =~ /^[A-Z]:\t/;
		my $this = uc($lines[$i]);
		chomp $this;
		if (defined $before && $before lt $title && $this gt $title) { $at = $i; last }
		$before = $this;
	}
	die "sample: $file: no section to put $title before\n" unless defined $at;
	splice(@lines, $at, 0, $entry);
	spew($file, join('', @lines));
} else {
	die "usage: sample.pl c LWNFS_C LWNFS_H | kbuild KCONFIG MAKEFILE | maintainers MAINTAINERS\n";
}
