#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/checks/promises-check.pl
#
# Does tests/data/promises (its head says its form) still map every
# sentence of lwnfs.5's DESCRIPTION, OPTIONS, ERRORS and FILES to tests
# that exist, and none as "untested:"?
use strict;
use warnings;
use File::Basename qw(dirname);

chdir(dirname(dirname(dirname(__FILE__)))) or die "promises: $!\n";
my $map = 'tests/data/promises';
my @problems;
sub problem { push @problems, "promises: $_[0]\n" }

# The sentences of lwnfs.5 as the man page reads: requests and font
# escapes out, lines joined, examples left out; under an option, an
# errno or a file, each led by its tag ("EPERM: ...").
my %sentence;	# text -> its line in lwnfs.5
my ($section, $tag, $want_tag, $example, @para) = ('', '', 0, 0);
sub checked { $section =~ /^(?:DESCRIPTION|OPTIONS|ERRORS|FILES)$/ }
sub tagged { $section =~ /^(?:OPTIONS|ERRORS|FILES)$/ }
sub args {	# a request's arguments, roff quoting undone
	my ($s, @a) = (shift // '');
	push @a, defined $1 ? $1 =~ s/""/"/gr : $2 while $s =~ /\G\s*(?:"((?:[^"]|"")*)"?|(\S+))/gc;
	return @a;
}
sub flush {
	my ($p, @at) = ('');
	for (@para) {
		(my $t = $_->[0]) =~ s/\s+/ /g;
		$t =~ s/^ | $//g;
		next if $t eq '';
		$p .= ' ' if $p ne '';
		push @at, [length($p), $_->[1]];
		$p .= $t;
	}
	@para = ();
	my ($lead, $pos) = (tagged() && $tag ne '' ? "$tag: " : '', 0);
	for my $s (split /(?<=[.!?]) /, $p) {
		$sentence{"$lead$s"} //= (grep { $_->[0] <= $pos } @at)[-1][1];
		$pos += length($s) + 1;
	}
}
open(my $man, '<', 'lwnfs.5') or die "promises: lwnfs.5: $!\n";
while (my $l = <$man>) {
	chomp $l;
	next if $l =~ /^\.\\"/;
	if ($example) { $example = 0 if $l =~ /^\.EE\b/; next }
	if ($l =~ /^\.(SH|SS|PP|LP|P|IP|TP|TQ|EX|in|nf|fi|sp|br|RS|RE)\b\s*(.*)/) {
		my ($req, $arg) = ($1, $2);
		flush() if checked();
		$example = 1 if $req eq 'EX';
		($section) = args($arg) if $req eq 'SH';
		$tag = '' if $req =~ /^(?:SH|SS|PP|LP|P|IP|TP)$/;
		$want_tag = 1 if $req =~ /^T[PQ]$/;
		next;
	}
	my $t = $l =~ /^\.(?:B|I|SM|SB)(?:\s+(.*))?$/ ? join(' ', args($1))
		: $l =~ /^\.(?:BR|BI|IB|IR|RB|RI)(?:\s+(.*))?$/ ? join('', args($1)) : $l;
	if ($t =~ /^[.\x27]/) {
		problem("lwnfs.5:$.: a request promises-check.pl cannot read: $l") if checked();
		next;
	}
	$t =~ s/\\f(?:[BIRP]|\[[A-Z]*\])|\\[&%]//g;
	$t =~ s/\\-/-/g;
	$t =~ s/\\(?:\(aq|\[aq\])/\x27/g;
	$t =~ s/\\(?:\(dq|\[dq\])/"/g;
	$t =~ s/\\ / /g;
	$t =~ s/\\e/\x00/g;
	problem("lwnfs.5:$.: an escape promises-check.pl cannot read: $1") if checked() && $t =~ /(\\.)/;
	$t =~ s/\x00/\\/g;
	push @para, [$t, $.] if checked();
	next unless $want_tag;
	$want_tag = 0;	# an errno, an option, a file; elsewhere, a paragraph
	if (tagged()) { pop @para; $tag = $tag eq '' ? $t : "$tag, $t" } else { flush() }
}
flush();
problem('lwnfs.5: no sentence in DESCRIPTION, OPTIONS, ERRORS or FILES') unless %sentence;

# The map: "[ID] QUOTE", the quote going on over indented lines, then
# indented lines each a test, "untested: REASON" or "skip: REASON".
my (@entries, $e);
open(my $fh, '<', $map) or die "promises: $map: $!\n";
while (my $l = <$fh>) {
	chomp $l;
	if ($l eq '' || $l =~ /^#/) { undef $e; next }
	if ($l =~ /^\[([^\]]+)\] (.*)/) {
		push @entries, $e = { id => $1, at => $., quote => $2, tests => [] };
	} elsif ($e && $l =~ s/^\s+//) {
		if ($l =~ /^(\S+): (\@test|op) "(.+)"$/) { push @{$e->{tests}}, [$1, $2, $3] }
		elsif ($l =~ /^(untested|skip): (.*)/) { $e->{$1} = $2 }
		elsif (!@{$e->{tests}} && !$e->{untested} && !$e->{skip}) { $e->{quote} .= " $l" }
		else { problem("$map:$.: [$e->{id}]: neither a test, \"untested:\" nor \"skip:\": $l") }
	} else {
		problem("$map:$.: neither an entry, its indented line nor a comment: $l");
	}
}

# A file's tests: bats's @test names, lwnfs-fault.c's ops.
my %has;
sub has_test {
	my ($file, $kind, $name) = @_;
	if (!$has{$file}) {
		open(my $t, '<', $file) or return 0;
		while (<$t>) {
			$has{$file}{"\@test $1"} = 1 if $file =~ /\.bats$/ && /^\s*\@test "(.*)" \{\s*$/;
			$has{$file}{"op $1"} = 1 if $file =~ /lwnfs-fault\.c$/ && /\{ "([^"]+)", [a-z_]+_call, /;
		}
	}
	return $has{$file}{"$kind $name"};
}
my (%mapped, %named, $promises);
for my $e (@entries) {
	my $where = "$map:$e->{at}: [$e->{id}]";
	$mapped{$e->{quote}} = 1;
	problem("$where: not a sentence of lwnfs.5 (reworded, moved or gone?): $e->{quote}")
		unless $sentence{$e->{quote}};
	next if defined $e->{skip};
	$promises++;
	problem("$where: untested: $e->{untested}") if defined $e->{untested};
	problem("$where: names no test") unless @{$e->{tests}} || defined $e->{untested};
	for (@{$e->{tests}}) {
		my ($file, $kind, $name) = @$_;
		$named{"$file $kind $name"} = 1;
		problem("$where: $file has no $kind \"$name\"") unless has_test($file, $kind, $name);
	}
}
for (sort { $sentence{$a} <=> $sentence{$b} } grep { !$mapped{$_} } keys %sentence) {
	problem("lwnfs.5:$sentence{$_}: a sentence with no entry in $map (a promise to map, or to skip with a reason): $_");
}
print STDERR @problems;
exit 1 if @problems;
print "promises: ok ($promises promises, " . scalar(keys %named) . " tests)\n";
