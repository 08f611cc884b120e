#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# The messages README.md's Troubleshooting quotes, for
# tests/checks/docs-check.sh: "LINE<TAB>MESSAGE" for each.
use strict;
use warnings;

my ($on, $fence, $lang, $para, $at) = (0, 0, "", "", 0);
my $flush = sub {
	while ($para =~ /`([^`]+)`/g) {
		my $m = $1;
		$m =~ s/\s+/ /g;
		my @w = split(" ", $m);
		print "$at\t$m\n" if @w >= 3;
	}
	($para, $at) = ("", 0);
};
while (my $l = <>) {
	chomp $l;
	if ($l =~ /^## /) { $flush->(); $on = $l =~ /^## Troubleshooting$/; next }
	next unless $on;
	if ($l =~ /^```(.*)/) {
		$flush->();
		if ($fence) { $fence = 0 } else { $fence = 1; $lang = $1 }
		next;
	}
	if ($fence) { print "$.\t$l\n" if $lang ne "sh" && $l =~ /\S/; next }
	if ($l =~ /^\s*$/) { $flush->(); next }
	$at ||= $.;
	$para .= "$l ";
}
$flush->();
