#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Reading a counter: each value handed out once, none lost.

load helpers

setup() {
	load_lwnfs
}

teardown() {
	unload_lwnfs
}

@test "the article's session: 0, 1, echo 1000, 1000, 1001" {
	[ "$(cat "$C")" = 0 ]
	[ "$(cat "$C")" = 1 ]
	echo 1000 >"$C"
	[ "$(cat "$C")" = 1000 ]
	[ "$(cat "$C")" = 1001 ]
}

@test "a read returns the value and a newline" {
	[ "$(od -An -tx1 "$C" | tr -d ' ')" = 300a ]
}

@test "subdir/subcounter is a counter of its own" {
	echo 10 >"$C"
	[ "$(cat "$MNT/subdir/subcounter")" = 0 ]
	[ "$(cat "$MNT/subdir/subcounter")" = 1 ]
	[ "$(cat "$C")" = 10 ]
	[ "$(cat "$MNT/subdir/subcounter")" = 2 ]
}

@test "dd bs=1 reads one whole value and counts it once" {
	echo 123456 >"$C"
	# Bytes, newline included: bats's $output drops it.
	dd if="$C" bs=1 status=none >"$BATS_TEST_TMPDIR/read"
	[ "$(od -An -tx1 "$BATS_TEST_TMPDIR/read" | tr -d ' \n')" = 3132333435360a ]
	[ "$(cat "$C")" = 123457 ]
}

@test "head -c1 takes one value; the rest of its text is not reused" {
	echo 98 >"$C"
	[ "$(head -c1 "$C")" = 9 ]
	[ "$(cat "$C")" = 99 ]
}

@test "one read of 24 bytes takes a value whole, the longest ones too" {
	local v
	# Bytes read and the text, then what a read at the offset reached
	# returns: the newline is in the count, and nothing is left.
	for v in -9223372036854775808 9223372036854775806 0; do
		echo "$v" >"$C"
		run perl -e 'open(my $fh, "<", $ARGV[0]) or die "$!\n";
			my $n = sysread($fh, my $buf, 24) // die "$!\n";
			my $rest = sysread($fh, my $more, 24) // die "$!\n";
			print "$n:$buf$rest\n"' "$C"
		[ "${lines[*]}" = "$((${#v} + 1)):$v 0" ]
	done
	[ "$(cat "$C")" = 1 ]
}

@test "a read past the text of the value returns EOF, not a new value" {
	exec 7<"$C"
	run head -c 2 <&7
	[ "$output" = 0 ]
	run cat <&7
	[ -z "$output" ]
	exec 7<&-
	[ "$(cat "$C")" = 1 ]
}

@test "a read at a position > 0 before any value was taken returns EOF" {
	# Bytes, not bats's $output, which drops a trailing newline.
	dd if="$C" bs=1 skip=1 status=none >"$BATS_TEST_TMPDIR/read"
	[ ! -s "$BATS_TEST_TMPDIR/read" ]
	[ "$(cat "$C")" = 0 ]
}

@test "a read of 0 bytes returns 0 and takes no value" {
	echo 7 >"$C"
	run perl -e 'open(my $fh, "<", $ARGV[0]) or die "$!\n";
		print sysread($fh, my $buf, 0) // "error $!", "\n"' "$C"
	[ "$output" = 0 ]
	[ "$(cat "$C")" = 7 ]
}

@test "a read into an address not mapped: EFAULT, no value taken" {
	echo 41 >"$C"
	# The same open file then reads the value the bad read did not take.
	run perl -e 'use Errno; require "syscall.ph";
		open(my $fh, "<", $ARGV[0]) or die "$!\n";
		syscall(&SYS_read, fileno($fh), 0, 32) == -1 or die "read\n";
		print((grep { $!{$_} } keys %!), "\n");
		sysread($fh, my $buf, 32) // die "$!\n";
		print $buf' "$C"
	[ "$output" = "EFAULT
41" ]
	[ "$(cat "$C")" = 42 ]
}

@test "a read cut short by memory not mapped takes its value once; the rest follows" {
	echo 41 >"$C"
	# Room for 2 bytes of "41\n": what fitted, "|", then the read at the
	# position the first one reached.
	"$READER" -e 2 "$C" >"$BATS_TEST_TMPDIR/read"
	[ -n "$(cut -d '|' -f 1 "$BATS_TEST_TMPDIR/read")" ]
	# "41\n" whole once the two parts are put together, newline included.
	[ "$(tr -d '|' <"$BATS_TEST_TMPDIR/read" | od -An -tx1 | tr -d ' \n')" = 34310a ]
	[ "$(cat "$C")" = 42 ]
}

@test "pread at 0 on one open file takes the next value each time" {
	run "$READER" -n 5 "$C"
	[ "$output" = "0
1
2
3
4" ]
	[ "$(cat "$C")" = 5 ]
}

# Across 2^32: on 32-bit kernels the s64 counter is two words, and the
# atomic a compare-and-exchange loop (cmpxchg8b, ldrexd/strexd).
@test "threads sharing one fd never see the same value (4 x 5000 preads across 2^32)" {
	echo 4294957296 >"$C"
	"$READER" -t 4 -n 5000 "$C" >/tmp/values
	[ "$(wc -l </tmp/values)" = 20000 ]
	[ "$(sort -n /tmp/values | uniq | wc -l)" = 20000 ]
	[ "$(sort -n /tmp/values | head -n 1)" = 4294957296 ]
	[ "$(sort -n /tmp/values | tail -n 1)" = 4294977295 ]
	[ "$(cat "$C")" = 4294977296 ]
}

# pread(2) reaches ->read_iter as one user buffer, preadv(2) as two
# segments: a read that lost the race must take its copy back across the
# segments' boundary (iov_iter_revert()) before it copies the new value.
@test "threads sharing one fd with preadv(2) into two buffers: never the same value (4 x 5000)" {
	echo 99990000 >"$C"
	"$READER" -v -t 4 -n 5000 "$C" >/tmp/values
	[ "$(wc -l </tmp/values)" = 20000 ]
	[ "$(sort -n /tmp/values | uniq | wc -l)" = 20000 ]
	[ "$(sort -n /tmp/values | head -n 1)" = 99990000 ]
	[ "$(sort -n /tmp/values | tail -n 1)" = 100009999 ]
	[ "$(cat "$C")" = 100010000 ]
}

@test "processes each opening the file per value: all distinct and contiguous" {
	echo -3000 >"$C"
	for i in 1 2 3 4; do
		"$READER" -o -n 2000 "$C" >"/tmp/values.$i" &
	done
	wait
	sort -n /tmp/values.* >/tmp/values
	[ "$(wc -l </tmp/values)" = 8000 ]
	[ "$(uniq </tmp/values | wc -l)" = 8000 ]
	[ "$(head -n 1 /tmp/values)" = -3000 ]
	[ "$(tail -n 1 /tmp/values)" = 4999 ]
	[ "$(cat "$C")" = 5000 ]
}

@test "cat of both counters in parallel: each counts only its own reads" {
	for i in $(seq 50); do cat "$C"; done >/tmp/a &
	for i in $(seq 50); do cat "$MNT/subdir/subcounter"; done >/tmp/b
	wait
	[ "$(sort -n /tmp/a | uniq | tr '\n' ' ')" = "$(seq 0 49 | tr '\n' ' ')" ]
	[ "$(sort -n /tmp/b | uniq | tr '\n' ' ')" = "$(seq 0 49 | tr '\n' ' ')" ]
}

@test "the counter stops at S64_MAX: EOVERFLOW, value kept" {
	echo 9223372036854775806 >"$C"
	[ "$(cat "$C")" = 9223372036854775806 ]
	run cat "$C"
	[ "$status" -ne 0 ]
	[[ $output == *"Value too large"* ]]
	run cat "$C"
	[ "$status" -ne 0 ]
	echo 5 >"$C"
	[ "$(cat "$C")" = 5 ]
}

@test "negative values count up through zero" {
	echo -2 >"$C"
	[ "$(cat "$C" "$C" "$C" "$C" | tr '\n' ' ')" = "-2 -1 0 1 " ]
}

@test "values count on across 2^31 and 2^32, and up to -2^31 and -2^32" {
	local v
	for v in 2147483646 4294967294 -2147483650 -4294967298; do
		echo "$v" >"$C"
		[ "$(cat "$C" "$C" "$C" | tr '\n' ' ')" = "$v $((v + 1)) $((v + 2)) " ]
	done
}

@test "a user other than root can read a counter" {
	echo 3 >"$C"
	run setpriv --reuid=65534 --regid=65534 --clear-groups cat "$C"
	[ "$status" -eq 0 ]
	[ "$output" = 3 ]
	[ "$(cat "$C")" = 4 ]
}
