#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# The constants the docs state, for tests/checks/docs-check.sh: "FILE LINE NAME
# VALUE DECIMAL" for each (its "Constants" says how they are found).
# default_rule(OPTION, NUMBER, GAP): OPTION and a default of NUMBER at
# most GAP characters apart in one clause, the number in $1.
use strict;
use warnings;

sub default_rule {
	my ($option, $n, $gap) = @_;
	my $default = qr/(?|\bdefaults?\b(?:\s+(?:mode|value|limit|is|of|to|at|as|being))*\s*[:=]?\s*($n)\b
		|\b($n)\b(?:\s+[\w=]+){0,3}?\s+by\s+default\b
		|\b($n)\s*\((?:the\s+)?default\))/xi;
	return qr/(?|$option[^.;]{0,$gap}?$default|$default[^.;]{0,$gap}?$option
		|\bdefault\s+$option(?:\s+(?:is|of|at|as|being))*\s*[:=]?\s*($n)\b)/xi;
}
my %rule = (
	"LWNFS_MAGIC"                => qr/\b(0x[0-9a-fA-F]{8})\b/,
	"LWNFS_WRITE_MAX"            => qr/\b(?:write|written|it was)\b[^.]{0,60}?\b(?:longer|more)\s+than\s+(\d+)\s+bytes/i,
	"LWNFS_TEXT_MAX"             => qr/\b(\d+)\s+bytes\s+or\s+more/i,
	# a default in any phrasing: "default 755", "defaults to 0700",
	# "default mode 0700", "0700 by default", "0755 (the default)",
	# the option named before or after it in the same clause
	"DEFAULT_MODE"               => default_rule(qr/\b(?:mode=?|permissions)(?=\W)/, qr/0?[0-7]{3,4}/, 60),
	"DEFAULT_MAX_COUNTERS"       => default_rule(qr/\bmax_counters\b/, qr/\d[\d,]*\d|\d/, 80),
	"FILE_MODE"                  => qr/\bbuilt-in\s+files\s+(?:have\s+)?(?:mode\s+)?(0[0-7]{3})\b/i,
	"DIR_MODE"                   => qr/\bits\s+directories\s+(?:mode\s+)?(0[0-7]{3})\b/i,
	"INODES"                     => qr/\binode\s+numbers\s+(\d+)\s+to\s+(\d+)\b/i,
	"DEFINE"                     => qr/\b(LWNFS_[A-Z0-9_]+)[,:]?\s+\(?(0x[0-9a-fA-F]+|\d+)\b/,
);
my %said;
for my $file (@ARGV) {
	open(my $fh, "<", $file) or die "docs-check: $file: $!\n";
	my ($text, @at, $fence) = ("");
	while (my $l = <$fh>) {
		chomp $l;
		if ($file =~ /\.md$/ && $l =~ /^```/) { $fence = !$fence; next }
		next if $fence;
		if ($file =~ /\.5$/) {
			next if $l =~ /^\.\\"/;
			$l =~ s/^\.[A-Z]{1,2}\b ?//;
			$l =~ s/\\f[BIRP]//g;
			$l =~ s/\\-/-/g;
			$l =~ s/\\\(aq/\x27/g;
			$l =~ s/"//g;
		}
		$l =~ s/[`*]//g;
		$l =~ s/^\s+//;
		push @at, [length($text), $.];
		$text .= "$l ";
	}
	for my $name (sort keys %rule) {
		while ($text =~ /$rule{$name}/g) {
			my $pos = $-[0];
			my $line = (grep { $_->[0] <= $pos } @at)[-1][1];
			my @said = $name eq "DEFINE" ? ([$1, $2]) :
				$name eq "INODES" ? (["INODES_FIRST", $1], ["INODES_LAST", $2]) :
				([$name, $1]);
			for (@said) {
				my ($n, $v) = @$_;
				(my $d = $v) =~ tr/,//d;	# 4,096
				$d = $n =~ /MODE$/ ? oct($d) : $d =~ /^0x/ ? hex($d) : $d;
				print "$file $line $n $v $d\n" unless $said{"$file $line $n"}++;
			}
		}
	}
}
