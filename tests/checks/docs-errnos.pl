#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Errnos in prose, for tests/checks/docs-check.sh: each sentence that names an
# errno and an input the tests reject has the tests' errno next to it (its
# "Errnos in prose" says how).  Prints "problem TEXT", "used PHRASE",
# "checked N".

use strict;
use warnings;
use Errno;
my %is_errno = map { $_ => 1 } keys %!;
my (@bats, @docs, %table, %from, %phrase);
while (@ARGV) {
	my $arg = shift @ARGV;
	last if $arg eq "--";
	push @bats, $arg;
}
while (@ARGV) {
	my $arg = shift @ARGV;
	last if $arg eq "--";
	my ($p, $e) = $arg =~ /^(.*)=(E[A-Z0-9]+)$/ or die "docs-check: phrase $arg\n";
	$phrase{$p} = $e;
}
@docs = @ARGV;

# printf %b of a bats single-quoted TEXT
sub unescape {
	my $t = shift;
	$t =~ s/\\(x[0-9a-fA-F]{1,2}|0[0-7]{0,3}|[ntr\\])/
		my $c = $1;
		$c eq "n" ? "\n" : $c eq "t" ? "\t" : $c eq "r" ? "\r" :
		$c eq "\\" ? "\\" : $c =~ m{^x} ? chr(hex(substr($c, 1))) : chr(oct($c))/ge;
	return $t;
}
my @names;	# every @test name, "FILE: NAME"
for my $file (@bats) {
	open(my $fh, "<", $file) or die "docs-check: $file: $!\n";
	while (my $l = <$fh>) {
		push @names, [$file, $1] if $l =~ /^\@test "(.*)" \{/;
		next unless $l =~ /^\s*reject\s+\x27([^\x27]*)\x27\s+(E[A-Z0-9]+)\s*$/;
		my ($text, $errno) = (unescape($1), $2);
		# a word a doc could quote: printable, no space, not a bare sign
		next unless $text =~ /^[\x21-\x7e]+$/ && $text =~ /[A-Za-z0-9]/;
		if (defined $table{$text} && $table{$text} ne $errno) {
			print "problem $file:$.: writing \x27$text\x27 fails with $errno, $from{$text} says $table{$text}\n";
			next;
		}
		$table{$text} = $errno;
		$from{$text} //= "$file:$.";
	}
}
my @keys = map { [$_, qr/(?<![A-Za-z0-9_.+\-])\Q$_\E(?![A-Za-z0-9_+\-]|\.[A-Za-z0-9])/] } sort keys %table;
for my $p (sort keys %phrase) {
	my $re = qr/\b\Q$p\E\b/i;
	my ($test) = grep { $_->[1] =~ /\Q$p\E/i && $_->[1] =~ /\b$phrase{$p}\b/ } @names;
	if (!$test) {
		print "problem docs-check.sh pairs \"$p\" with $phrase{$p} in ERRNO_PHRASES, which no test name in tests/ does\n";
		next;
	}
	$table{$p} = $phrase{$p};
	$from{$p} = "$test->[0], \@test \"$test->[1]\"";
	push @keys, [$p, $re];
}

# The units of a doc: [text, [[offset, line]...]], a sentence each (an
# ERRORS entry of lwnfs.5 whole), markup taken out.
sub units {
	my ($file) = @_;
	my (@units, @at);
	my ($text, $fence, $section, $man) = ("", 0, "", $file =~ /\.5$/ ? 1 : 0);
	my $flush = sub {
		if ($text =~ /\S/) {
			my $whole = $man && $section eq "ERRORS";
			my $start = 0;
			my @parts = $whole ? ($text) : split(/(?<=[.!?])\s+(?=[A-Z(\[])/, $text);
			for my $s (@parts) {
				my $from = index($text, $s, $start);
				$start = $from + length($s);
				my @map = map { [$_->[0] - $from, $_->[1]] } @at;
				push @units, [$s, \@map];
			}
		}
		($text, @at) = ("");
	};
	open(my $fh, "<", $file) or die "docs-check: $file: $!\n";
	while (my $l = <$fh>) {
		chomp $l;
		if ($man) {
			next if $l =~ /^\.\\"/;
			if ($l =~ /^\.(EX|nf)\b/) { $flush->(); $fence = 1; next }
			if ($l =~ /^\.(EE|fi)\b/) { $fence = 0; next }
			next if $fence;
			if ($l =~ /^\.(SH|SS)\s+"?([^"]*)"?/) {
				$flush->();
				$section = $2 if $1 eq "SH";
				next;
			}
			if ($l =~ /^\.(PP|P|LP|TP|TQ|IP|RS|RE|in|sp|br)\b/) { $flush->(); next }
			if ($l =~ /^\.(BR|RB|IR|RI|BI|IB)\s+(.*)/) {
				my $args = $2;
				my @w = $args =~ /"([^"]*)"|(\S+)/g;
				$l = join("", grep { defined } @w);
			} elsif ($l =~ /^\.(B|I)\s+(.*)/) {
				($l = $2) =~ s/"//g;
			} elsif ($l =~ /^\./) {
				next;
			}
			$l =~ s/\\f[BIRP]//g;
			$l =~ s/\\-/-/g;
			$l =~ s/\\\(aq/\x27/g;
			$l =~ s/\\\(\S\S|\\\[[^\]]*\]/ /g;
			$l =~ s/\\e/\\/g;
		} else {
			if ($l =~ /^```/) { $flush->(); $fence = !$fence; next }
			next if $fence;
			if ($l =~ /^\s*$/ || $l =~ /^#/ || $l =~ /^\s*<!--/) { $flush->(); next }
			$flush->() if $l =~ /^\s*(?:[-*+]|\d+\.)\s/ || $l =~ /^\|/;
			$l =~ s/^\s*>\s?//;
			$l =~ s/`\@test "[^"]*"`/a test/g;	# the test names themselves
			$l =~ s/\[([^\]]*)\]\([^)]*\)/$1/g;
			$l =~ s/[`*]//g;
		}
		$l =~ s/^\s+//;
		push @at, [length($text), $.];
		$text .= "$l ";
	}
	$flush->();
	return @units;
}

my ($checked, %used) = (0);
for my $file (@docs) {
	my @found;	# [line, text], in the order of the doc
	for my $u (units($file)) {
		my ($s, $map) = @$u;
		my @errnos;
		while ($s =~ /\b(E[A-Z0-9]{2,})\b/g) {
			push @errnos, [$1, $-[0], $+[0]] if $is_errno{$1};
		}
		next unless @errnos;
		for my $k (@keys) {
			my ($key, $re) = @$k;
			while ($s =~ /$re/g) {
				my ($from, $to) = ($-[0], $+[0]);
				my ($before) = grep { $_->[2] <= $from } reverse @errnos;
				my ($after) = grep { $_->[1] >= $to } @errnos;
				my @near = map { $_->[0] } grep { defined } $before, $after;
				next unless @near;
				$checked++;
				$used{$key} = 1 if $phrase{$key};
				next if grep { $_ eq $table{$key} } @near;
				my $line = (grep { $_->[0] <= $from } @$map)[-1][1];
				my %seen;
				my $said = join(" and ", grep { !$seen{$_}++ } @near);
				push @found, [$line, $from, "problem $file:$line: pairs \"$key\" with $said, the tests with $table{$key} ($from{$key})\n"];
			}
		}
	}
	print map { $_->[2] } sort { $a->[0] <=> $b->[0] || $a->[1] <=> $b->[1] } @found;
}
print "used $_\n" for sort keys %used;
print "checked $checked\n";
