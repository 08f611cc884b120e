#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/kmsg.pl mark TEXT
#        harness/guest/kmsg.pl since SEQ
#
# mark: log TEXT and print its record's sequence number.  since: print
# the records from SEQ on, "[SECONDS] MESSAGE" each; exit 3 when the log
# no longer holds them all (the ring wrapped).
use strict;
use warnings;
use Errno qw(EAGAIN EPIPE);
use Fcntl qw(O_RDONLY O_WRONLY O_NONBLOCK);

my ($cmd, $arg) = @ARGV;
die "usage: kmsg.pl mark TEXT | since SEQ\n"
	unless defined $arg && ($cmd eq 'mark' || ($cmd eq 'since' && $arg =~ /^\d+$/));

# Every record the log holds, oldest first: [SEQ, SECONDS, MESSAGE];
# /dev/kmsg gives one a read, "PRIO,SEQ,TIME,FLAGS;MESSAGE".
my $overrun = 0;
sub records {
	my @out;
	sysopen(my $fh, '/dev/kmsg', O_RDONLY | O_NONBLOCK) or die "kmsg.pl: /dev/kmsg: $!\n";
	while (1) {
		my $n = sysread($fh, my $rec, 16384);
		if (!defined $n) {
			if ($! == EPIPE) {	# records overwritten while we read
				$overrun = 1;
				next;
			}
			last if $! == EAGAIN;	# no more
			die "kmsg.pl: reading /dev/kmsg: $!\n";
		}
		last if $n == 0;
		next unless $rec =~ /^\d+,(\d+),(\d+),[^;]*;([^\n]*)/;
		push @out, [$1, $2 / 1e6, $3];
	}
	close $fh;
	return @out;
}

if ($cmd eq 'mark') {
	sysopen(my $out, '/dev/kmsg', O_WRONLY) or die "kmsg.pl: /dev/kmsg: $!\n";
	# With its newline, or the record stays open (a continuation) unread.
	syswrite($out, "$arg\n") // die "kmsg.pl: writing /dev/kmsg: $!\n";
	close $out;
	my @mine = grep { $_->[2] eq $arg } records();
	die "kmsg.pl: the record of \"$arg\" is not in the log\n" unless @mine;
	print "$mine[-1][0]\n";
	exit 0;
}

my @all = records();
if (!@all || $all[0][0] > $arg) {
	print STDERR "kmsg.pl: the kernel log no longer holds record $arg",
		(@all ? ", its oldest is $all[0][0]" : ''), "\n";
	exit 3;
}
if ($overrun) {
	print STDERR "kmsg.pl: records were overwritten while the log was read\n";
	exit 3;
}
printf "[%12.6f] %s\n", $_->[1], $_->[2] for grep { $_->[0] >= $arg } @all;
