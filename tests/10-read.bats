#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Reading a counter: each value handed out once, none lost.

load helpers

# Every reader here is bounded: a read path that never reaches the end of
# a value's text (one that hands out a new value at every offset) would
# have cat and dd read forever, and hold the guest; so each is stopped
# after 20 s (a read of a value takes milliseconds, under TCG too), and
# the test that read fails, by name.  (bats's BATS_TEST_TIMEOUT does not
# do it: it stops the test's own children, and a reader in $(...) is a
# grandchild.)
cat() { timeout 20 cat "$@"; }
dd() { timeout 20 dd "$@"; }
od() { timeout 20 od "$@"; }
tail() { timeout 20 tail "$@"; }

setup() {
	load_lwnfs
}

teardown() {
	unload_lwnfs
}

@test "the article's session: 0, 1, echo 1000, 1000, 1001" {
	assert [ "$(cat "$C")" = 0 ]
	assert [ "$(cat "$C")" = 1 ]
	echo 1000 >"$C"
	assert [ "$(cat "$C")" = 1000 ]
	assert [ "$(cat "$C")" = 1001 ]
}

@test "a read returns the value and a newline" {
	assert [ "$(od -An -tx1 "$C" | tr -d ' ')" = 300a ]
}

@test "subdir/subcounter is a counter of its own" {
	echo 10 >"$C"
	assert [ "$(cat "$MNT/subdir/subcounter")" = 0 ]
	assert [ "$(cat "$MNT/subdir/subcounter")" = 1 ]
	assert [ "$(cat "$C")" = 10 ]
	assert [ "$(cat "$MNT/subdir/subcounter")" = 2 ]
}

@test "dd bs=1 reads one whole value and counts it once" {
	echo 123456 >"$C"
	# Bytes, newline included: bats's $output drops it.
	dd if="$C" bs=1 status=none >"$BATS_TEST_TMPDIR/read"
	assert [ "$(od -An -tx1 "$BATS_TEST_TMPDIR/read" | tr -d ' \n')" = 3132333435360a ]
	assert [ "$(cat "$C")" = 123457 ]
}

@test "head -c1 takes one value; the rest of its text is not reused" {
	echo 98 >"$C"
	assert [ "$(head -c1 "$C")" = 9 ]
	assert [ "$(cat "$C")" = 99 ]
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
		assert [ "${lines[*]}" = "$((${#v} + 1)):$v 0" ]
	done
	assert [ "$(cat "$C")" = 1 ]
}

@test "a read past the text of the value returns EOF, not a new value" {
	exec 7<"$C"
	run head -c 2 <&7
	assert [ "$output" = 0 ]
	run cat <&7
	assert [ -z "$output" ]
	exec 7<&-
	assert [ "$(cat "$C")" = 1 ]
}

@test "a read at a position > 0 before any value was taken returns EOF" {
	# Bytes, not bats's $output, which drops a trailing newline.
	dd if="$C" bs=1 skip=1 status=none >"$BATS_TEST_TMPDIR/read"
	assert [ ! -s "$BATS_TEST_TMPDIR/read" ]
	assert [ "$(cat "$C")" = 0 ]
}

@test "a read of 0 bytes returns 0 and takes no value" {
	echo 7 >"$C"
	run perl -e 'open(my $fh, "<", $ARGV[0]) or die "$!\n";
		print sysread($fh, my $buf, 0) // "error $!", "\n"' "$C"
	assert [ "$output" = 0 ]
	assert [ "$(cat "$C")" = 7 ]
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
	assert [ "$output" = "EFAULT
41" ]
	assert [ "$(cat "$C")" = 42 ]
}

@test "a read cut short by memory not mapped takes its value once; the rest follows" {
	echo 41 >"$C"
	# Room for 2 bytes of "41\n": what fitted, "|", then the read at the
	# position the first one reached.
	"$READER" -e 2 "$C" >"$BATS_TEST_TMPDIR/read"
	assert [ -n "$(cut -d '|' -f 1 "$BATS_TEST_TMPDIR/read")" ]
	# "41\n" whole once the two parts are put together, newline included.
	assert [ "$(tr -d '|' <"$BATS_TEST_TMPDIR/read" | od -An -tx1 | tr -d ' \n')" = 34310a ]
	assert [ "$(cat "$C")" = 42 ]
}

@test "pread at 0 on one open file takes the next value each time" {
	run "$READER" -n 5 "$C"
	assert [ "$output" = "0
1
2
3
4" ]
	assert [ "$(cat "$C")" = 5 ]
}

# Across 2^32: on 32-bit kernels the s64 counter is two words, and the
# atomic a compare-and-exchange loop (cmpxchg8b, ldrexd/strexd).
@test "threads sharing one fd never see the same value (4 x 5000 preads across 2^32)" {
	echo 4294957296 >"$C"
	"$READER" -t 4 -n 5000 "$C" >/tmp/values
	assert [ "$(wc -l </tmp/values)" = 20000 ]
	assert [ "$(sort -n /tmp/values | uniq | wc -l)" = 20000 ]
	assert [ "$(sort -n /tmp/values | head -n 1)" = 4294957296 ]
	assert [ "$(sort -n /tmp/values | tail -n 1)" = 4294977295 ]
	assert [ "$(cat "$C")" = 4294977296 ]
}

# pread(2) reaches ->read_iter as one user buffer, preadv(2) as two
# segments: a read that lost the race must take its copy back across the
# segments' boundary (iov_iter_revert()) before it copies the new value.
@test "threads sharing one fd with preadv(2) into two buffers: never the same value (4 x 5000)" {
	echo 99990000 >"$C"
	"$READER" -v -t 4 -n 5000 "$C" >/tmp/values
	assert [ "$(wc -l </tmp/values)" = 20000 ]
	assert [ "$(sort -n /tmp/values | uniq | wc -l)" = 20000 ]
	assert [ "$(sort -n /tmp/values | head -n 1)" = 99990000 ]
	assert [ "$(sort -n /tmp/values | tail -n 1)" = 100009999 ]
	assert [ "$(cat "$C")" = 100010000 ]
}

@test "processes each opening the file per value: all distinct and contiguous" {
	echo -3000 >"$C"
	local pids=()
	for i in 1 2 3 4; do
		"$READER" -o -n 2000 "$C" >"/tmp/values.$i" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid"
	done
	sort -n /tmp/values.* >/tmp/values
	assert [ "$(wc -l </tmp/values)" = 8000 ]
	assert [ "$(uniq </tmp/values | wc -l)" = 8000 ]
	assert [ "$(head -n 1 /tmp/values)" = -3000 ]
	assert [ "$(tail -n 1 /tmp/values)" = 4999 ]
	assert [ "$(cat "$C")" = 5000 ]
}

@test "cat of both counters in parallel: each counts only its own reads" {
	for i in $(seq 50); do cat "$C"; done >/tmp/a &
	local pid=$!
	for i in $(seq 50); do cat "$MNT/subdir/subcounter"; done >/tmp/b
	wait "$pid"
	assert [ "$(sort -n /tmp/a | uniq | tr '\n' ' ')" = "$(seq 0 49 | tr '\n' ' ')" ]
	assert [ "$(sort -n /tmp/b | uniq | tr '\n' ' ')" = "$(seq 0 49 | tr '\n' ' ')" ]
}

@test "the counter stops at S64_MAX: EOVERFLOW, value kept" {
	echo 9223372036854775806 >"$C"
	assert [ "$(cat "$C")" = 9223372036854775806 ]
	run cat "$C"
	assert [ "$status" -ne 0 ]
	[[ $output == *"Value too large"* ]]
	run cat "$C"
	assert [ "$status" -ne 0 ]
	echo 5 >"$C"
	assert [ "$(cat "$C")" = 5 ]
}

@test "negative values count up through zero" {
	echo -2 >"$C"
	assert [ "$(cat "$C" "$C" "$C" "$C" | tr '\n' ' ')" = "-2 -1 0 1 " ]
}

@test "values count on across 2^31 and 2^32, and up to -2^31 and -2^32" {
	local v
	for v in 2147483646 4294967294 -2147483650 -4294967298; do
		echo "$v" >"$C"
		assert [ "$(cat "$C" "$C" "$C" | tr '\n' ' ')" = "$v $((v + 1)) $((v + 2)) " ]
	done
}

@test "a user other than root can read a counter" {
	echo 3 >"$C"
	run setpriv --reuid=65534 --regid=65534 --clear-groups cat "$C"
	assert [ "$status" -eq 0 ]
	assert [ "$output" = 3 ]
	assert [ "$(cat "$C")" = 4 ]
}

# Seeking a counter open for reading.  A counter that seeks as a file
# of size 0 (generic_file_llseek()) finds 0 at SEEK_END: the SEEK_END
# test fails on it, and the tail test too where coreutils is 9.8 or
# later; the SEEK_SET and SEEK_CUR tests hold what it does already.

@test "SEEK_SET: to any offset from 0 to 2^31 - 1; a read at 0 takes a value, one further on continues it, one past its text is EOF; below 0 or past 2^31 - 1: EINVAL" {
	echo 123 >"$C"
	run seeks "$C" r read "SET 1" read "SET 0" read "SET -1" "SET 100" read \
		"SET 2147483647" "SET 2147483648"
	assert [ "$output" = '123\n 1 23\n 0 124\n EINVAL 100 EOF 2147483647 EINVAL' ]
	assert [ "$(cat "$C")" = 125 ]
}

@test "SEEK_CUR: from where the file is, to any offset from 0 on; below 0: EINVAL, the offset kept" {
	echo 123 >"$C"
	run seeks "$C" r "CUR 0" read "CUR 0" "CUR -2" read "CUR -5" "CUR 0" "CUR -4" read
	assert [ "$output" = '0 123\n 4 2 3\n EINVAL 4 0 124\n' ]
	assert [ "$(cat "$C")" = 125 ]
}

# /proc/uptime's seq_file refuses every whence but SEEK_SET and SEEK_CUR;
# /proc/sys's files find their size, 0, at SEEK_END, which is what
# makes tail(1) find nothing in them (below).
@test "SEEK_END, SEEK_DATA and SEEK_HOLE on a counter open for reading: EINVAL, the offset kept, as /proc/uptime answers them" {
	local ops=("CUR 0" "END 0" "END -1" "END 5" "DATA 0" "HOLE 0" "CUR 0")
	run seeks /proc/uptime r "${ops[@]}"
	assert [ "$output" = "0 EINVAL EINVAL EINVAL EINVAL EINVAL 0" ]
	echo 7 >"$C"
	run seeks "$C" r "${ops[@]}" read
	assert [ "$output" = '0 EINVAL EINVAL EINVAL EINVAL EINVAL 0 7\n' ]
	run seeks "$C" rw "${ops[@]}" read
	assert [ "$output" = '0 EINVAL EINVAL EINVAL EINVAL EINVAL 0 8\n' ]
}

# tail(1) looks for the end with lseek(2) SEEK_END, from where the file
# is: coreutils 9.8 and later print nothing when the end is where the
# file is, as a size of 0 makes it (their commit 3918655d4, "tail:
# refactor SEEK_END and lines"), and older ones read on.  Where SEEK_END
# fails, every version reads the file through, as it reads /proc/uptime.
@test "tail -n 1 and tail -c 3 print a counter's value, taking one each, as tail prints /proc/uptime" {
	assert [ -n "$(tail -n 1 /proc/uptime)" ]
	echo 41 >"$C"
	assert [ "$(tail -n 1 "$C")" = 41 ]
	assert [ "$(tail -c 3 "$C")" = 42 ]
	assert [ "$(cat "$C")" = 43 ]
}
