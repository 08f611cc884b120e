#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Writing a counter: one decimal s64 sets it; anything else changes nothing.

load helpers

setup() {
	load_lwnfs
	echo 555 >"$C"
}

teardown() {
	unload_lwnfs
}

# accept TEXT VALUE: writing TEXT (printf %b escapes) sets the counter to VALUE.
accept() {
	run wr "$C" < <(printf '%b' "$1")
	assert [ "$output" = ok ]
	assert [ "$(cat "$C")" = "$2" ]
}

# reject TEXT ERRNO [OFFSET]: writing TEXT fails with ERRNO; 555 is kept
# (and set again, since reading it took it).
reject() {
	run wr "$C" "${3:-0}" < <(printf '%b' "$1")
	echo "write '$1': $output"
	assert [ "$output" = "$2" ]
	assert [ "$(cat "$C")" = 555 ]
	echo 555 >"$C"
}

@test "echo N > counter and printf N > counter set the value" {
	echo 1000 >"$C"
	assert [ "$(cat "$C")" = 1000 ]
	printf 42 >"$C"
	assert [ "$(cat "$C")" = 42 ]
}

@test "O_APPEND opens work too (echo N >> counter)" {
	echo 31 >>"$C"
	assert [ "$(cat "$C")" = 31 ]
}

# fopen(3) in append mode, as awk's >> opens a file, seeks to the end
# (SEEK_END) and fails when that fails; a counter open only for writing
# seeks as a file of size 0, whose end is where an appending write goes.
@test "open only for writing, a counter's end is 0: SEEK_END finds it, and awk's >> (fopen(3) in append mode) sets the counter" {
	run seeks "$C" w "END 0" "CUR 0" "SET 0"
	assert [ "$output" = "0 0 0" ]
	awk 'BEGIN { print 77 >> ARGV[1] }' "$C"
	assert [ "$(cat "$C")" = 77 ]
}

@test "accepted: sign, zero, leading zeros, one trailing newline" {
	accept '+7' 7
	accept '-5\n' -5
	accept '0' 0
	accept '-0' 0
	accept '007\n' 7
}

@test "accepted: values past 32 bits, both signs" {
	accept '4294967296' 4294967296
	accept '4294967295\n' 4294967295
	accept '-2147483649' -2147483649
	accept '-4294967296\n' -4294967296
	accept '1099511627776' 1099511627776
}

@test "accepted: the s64 limits" {
	accept '9223372036854775806\n' 9223372036854775806
	accept '-9223372036854775808' -9223372036854775808
	run wr "$C" < <(printf '+9223372036854775807\n')
	assert [ "$output" = ok ]
	run cat "$C"
	[[ $output == *"Value too large"* ]]
}

@test "rejected with EINVAL: letters, hex, exponent, trailing junk" {
	reject 'abc' EINVAL
	reject '12abc' EINVAL
	reject '0x10' EINVAL
	reject '1e3' EINVAL
	reject '5.0' EINVAL
}

@test "rejected with EINVAL: spaces, tabs and extra newlines" {
	reject ' 5' EINVAL
	reject '5 ' EINVAL
	reject '1 2' EINVAL
	reject ' ' EINVAL
	reject '\t5' EINVAL
	reject '5\n\n' EINVAL
	reject '\n' EINVAL
	reject '5\r\n' EINVAL
}

@test "rejected with EINVAL: NUL bytes" {
	reject '5\0' EINVAL
	reject '\x005' EINVAL
	reject '\0' EINVAL
}

@test "rejected with EINVAL: bare or doubled signs, empty write" {
	reject '-' EINVAL
	reject '+' EINVAL
	reject '--5' EINVAL
	reject '+-5' EINVAL
	reject '-+5' EINVAL
	reject '' EINVAL
}

@test "rejected with ERANGE: out of the s64 range" {
	reject '9223372036854775808' ERANGE
	reject '-9223372036854775809\n' ERANGE
	reject '99999999999999999999' ERANGE
}

@test "rejected with EINVAL: longer than 32 bytes, even if numeric" {
	reject "$(printf '0%.0s' $(seq 33))" EINVAL
	accept "$(printf '0%.0s' $(seq 31))1" 1
}

@test "rejected with EINVAL: a write at a position other than 0" {
	reject '7' EINVAL 1
	reject '7' EINVAL 100
}

@test "a write from an address not mapped: EFAULT, value kept" {
	run perl -e 'use Errno; require "syscall.ph";
		sysopen(my $fh, $ARGV[0], 1) or die "$!\n";
		syscall(&SYS_write, fileno($fh), 0, 3) == -1 or die "written\n";
		print((grep { $!{$_} } keys %!), "\n")' "$C"
	assert [ "$output" = EFAULT ]
	assert [ "$(cat "$C")" = 555 ]
}

@test "a second write on the same open file is refused with EINVAL" {
	run perl -e 'use Errno; open(my $fh, ">", $ARGV[0]) or die "$!\n";
		for my $v ("7\n", "8\n") {
			print defined(syswrite($fh, $v)) ? "ok" : (grep { $!{$_} } keys %!), "\n";
		}' "$C"
	assert [ "${lines[*]}" = "ok EINVAL" ]
	assert [ "$(cat "$C")" = 7 ]
}

@test "on the same open file, pwrite(2) at 0 or lseek(2) back to 0 sets the counter again" {
	# write, write at the offset reached, pwrite at 0, a read through
	# another open file, write at the offset reached, lseek to 0, write.
	# pwrite64's offset is 0 however the ABI splits it into registers.
	run perl -e 'use Errno; require "syscall.ph";
		sub said { print(($_[0] ? "ok" : (grep { $!{$_} } keys %!)), "\n") }
		open(my $fh, ">", $ARGV[0]) or die "$!\n";
		said(defined syswrite($fh, "7\n"));
		said(defined syswrite($fh, "9\n"));
		my $v = "8\n";
		said(syscall(&SYS_pwrite64, fileno($fh), $v, length($v), 0, 0, 0) == 2);
		open(my $r, "<", $ARGV[0]) or die "$!\n";
		sysread($r, my $buf, 32) // die "$!\n";
		print $buf;
		said(defined syswrite($fh, "6\n"));
		sysseek($fh, 0, 0) // die "$!\n";
		said(defined syswrite($fh, "5\n"))' "$C"
	assert [ "${lines[*]}" = "ok EINVAL ok 8 EINVAL ok" ]
	assert [ "$(cat "$C")" = 5 ]
}

@test "a write updates mtime and ctime; a refused one does not" {
	touch -d '2001-01-01 00:00:00' "$C"
	mtime=$(stat -c %y "$C") ctime=$(stat -c %z "$C")	# to the nanosecond
	run wr "$C" < <(printf x)
	assert [ "$output" = EINVAL ]
	assert [ "$(stat -c %y "$C")" = "$mtime" ]
	assert [ "$(stat -c %z "$C")" = "$ctime" ]
	run wr "$C" < <(printf 1)	# no O_TRUNC, whose setattr sets both too
	assert [ "$output" = ok ]
	# Both are the write's one timestamp: not touch's ctime, not 2001.
	assert [ "$(stat -c %z "$C")" != "$ctime" ]
	assert [ "$(stat -c %y "$C")" = "$(stat -c %z "$C")" ]
}

# As on every file (tmpfs the yardstick): past RLIMIT_FSIZE a write
# raises SIGXFSZ, and fails with EFBIG where that is ignored.
@test "a write under ulimit -f 0 raises SIGXFSZ, or fails with EFBIG, as on tmpfs; the value stays" {
	tmpfs_mount
	touch "$TMPFS/f"
	run bash -c "ulimit -f 0; echo 7 > $TMPFS/f"
	local tmpfs_status=$status
	run bash -c "trap '' XFSZ; ulimit -f 0; $(declare -f wr); wr $TMPFS/f <<<7"
	local tmpfs_output=$output
	echo "tmpfs: $tmpfs_status, $tmpfs_output"
	assert [ "$tmpfs_status" = $((128 + 25)) ]	# SIGXFSZ
	assert [ "$tmpfs_output" = EFBIG ]
	run bash -c "ulimit -f 0; echo 7 > $C"
	assert [ "$status" = "$tmpfs_status" ]
	run bash -c "trap '' XFSZ; ulimit -f 0; $(declare -f wr); wr $C <<<7"
	assert [ "$output" = EFBIG ]
	assert [ "$(cat "$C")" = 555 ]
	echo 555 >"$C"
	# A limit that would cut a write short: part of a number is another
	# number, so none of it is taken.
	run prlimit --fsize=2 bash -c "$(declare -f wr); wr $C <<<12345"
	assert [ "$output" = EFBIG ]
	assert [ "$(cat "$C")" = 555 ]
}

@test "a user other than root cannot write a counter" {
	run setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo 9 > $C"
	assert [ "$status" -ne 0 ]
	[[ $output == *"Permission denied"* ]]
	assert [ "$(cat "$C")" = 555 ]
}
