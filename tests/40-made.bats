#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Counters and directories users make: create, mkdir, rm, rmdir, mv.

load helpers

# A process a test leaves working in a directory (teardown stops it).
HOLDER=

setup() {
	load_lwnfs
}

teardown() {
	exec 7<&-	# a counter a failed test left open
	if [ -n "$HOLDER" ]; then
		kill "$HOLDER" || :
		wait "$HOLDER" || :
	fi
	if [ -d "$TMPFS" ]; then
		umount "$TMPFS" && rmdir "$TMPFS"
	fi
	unload_lwnfs
}

# make_one f|d PATH: make a file (f, with O_EXCL) or a directory (d) at
# PATH; print "ok" or the errno's name, e.g. "ENOSPC".
make_one() {
	perl -e 'use Errno; use Fcntl;
		my ($kind, $path) = @ARGV;
		my $made = $kind eq "d" ? mkdir($path) :
			sysopen(my $fh, $path, O_CREAT | O_EXCL | O_WRONLY);
		print $made ? "ok" : (grep { $!{$_} } keys %!), "\n"' "$@"
}

@test "touch NAME makes a counter starting at 0" {
	touch "$MNT/seq"
	assert [ "$(stat -c '%F %a' "$MNT/seq")" = "regular empty file 644" ]
	assert [ "$(cat "$MNT/seq")" = 0 ]
	assert [ "$(cat "$MNT/seq")" = 1 ]
	assert [ "$(cat "$C")" = 0 ]
	# Numbered after the fixed tree's 1 to 4, each its own.
	touch "$MNT/seq2"
	assert [ "$(stat -c %i "$MNT/seq")" -gt 4 ]
	assert [ "$(stat -c %i "$MNT/seq2")" -gt "$(stat -c %i "$MNT/seq")" ]
}

# An inode number is the lowest free one after the fixed tree's: never
# two alike, and bounded by what lives, so that no count of makes wraps
# it into another inode's, on 32 bits either.
@test "inode numbers: each its own, never the fixed tree's, and bounded by the entries that live" {
	mount -o remount,max_counters=8 "$MNT"
	mkdir "$MNT/d" "$MNT/subdir/e"
	touch "$MNT/a" "$MNT/d/b" "$MNT/subdir/e/c"
	run perl -e '
		my $dir = shift;
		my $max = 0;
		for (1 .. 3000) {
			open(my $fh, ">", "$dir/cycled") or die "$_: $!\n";
			my $ino = (stat($fh))[1];
			$max = $ino if $ino > $max;
			close($fh);
			unlink("$dir/cycled") or die "$_: $!\n";
		}
		print "$max\n"' "$MNT"
	echo "highest of 3000 made and removed: $output"
	assert [ "$status" = 0 ]
	assert [ "$output" -le $((4 + 8)) ]
	run find "$MNT" -printf '%i %P\n'
	printf '%s\n' "${lines[@]}"
	assert [ "$(printf '%s\n' "${lines[@]}" | cut -d ' ' -f 1 | sort -n | uniq -d)" = "" ]
	assert [ "$(printf '%s\n' "${lines[@]}" | awk '$1 <= 4 { print $2 }' | sort | tr '\n' ' ')" = " counter subdir subdir/subcounter " ]
}

@test "making and removing entries updates the directory's mtime and ctime" {
	local mtime ctime
	for what in "touch $MNT/subdir/n" "mkdir $MNT/subdir/d" "rm $MNT/subdir/n"; do
		# mtime back to 2001; ctime, which no call sets back, to now
		touch -d '2001-01-01 00:00:00' "$MNT/subdir"
		mtime=$(stat -c %y "$MNT/subdir") ctime=$(stat -c %z "$MNT/subdir")
		# Past a tick of the filesystem's coarse clock (a jiffy, 10 ms
		# at HZ=100): a ctime the call sets is later than touch's.
		sleep 0.05
		$what
		echo "$what: $(stat -c '%y %z' "$MNT/subdir"), was $mtime $ctime"
		# both set by the call (the same width and zone: compared as text)
		[[ $(stat -c %y "$MNT/subdir") > $mtime ]]
		[[ $(stat -c %z "$MNT/subdir") > $ctime ]]
		# one timestamp for both, as the VFS's own updates make it
		assert [ "$(stat -c %y "$MNT/subdir")" = "$(stat -c %z "$MNT/subdir")" ]
	done
}

@test "echo 5 > NAME makes a counter holding 5" {
	echo 5 >"$MNT/five"
	assert [ "$(cat "$MNT/five")" = 5 ]
	assert [ "$(cat "$MNT/five")" = 6 ]
}

@test "mknod(2) of a regular file makes a counter at 0" {
	# mknod(1) makes only devices and FIFOs: mknodat(2) itself, of type
	# 0 (a regular file, as mknod(2) says) and of S_IFREG.
	run perl -e 'require "syscall.ph";
		for (["plain", 0644], ["reg", 0100600]) {
			my ($path, $mode) = ("$ARGV[0]/$_->[0]", $_->[1]);
			syscall(&SYS_mknodat, -100, $path, $mode, 0) == 0 or die "$path: $!\n";
		}' "$MNT"
	assert [ "$status" = 0 ]
	run stat -c '%F %a' "$MNT/plain" "$MNT/reg"
	assert [ "${lines[*]}" = "regular empty file 644 regular empty file 600" ]
	assert [ "$(cat "$MNT/plain")" = 0 ]
	assert [ "$(cat "$MNT/plain")" = 1 ]
	assert [ "$(cat "$MNT/reg")" = 0 ]
}

@test "a bad first write still makes the counter, at 0" {
	run bash -c "echo junk > $MNT/bad"
	assert [ "$status" -ne 0 ]
	assert [ "$(cat "$MNT/bad")" = 0 ]
}

@test "mkdir makes directories, nested, and counters go in them" {
	mkdir -p "$MNT/a/b"
	echo 9 >"$MNT/a/b/c"
	assert [ "$(cat "$MNT/a/b/c")" = 9 ]
	echo 3 >"$MNT/subdir/mine"
	assert [ "$(cat "$MNT/subdir/mine")" = 3 ]
	assert [ "$(stat -c %h "$MNT/a")" = 3 ]
}

@test "rm removes a counter; rmdir removes only an empty directory" {
	mkdir "$MNT/d"
	touch "$MNT/d/x"
	run rmdir "$MNT/d"
	[[ $output == *"not empty"* ]]
	rm "$MNT/d/x"
	rmdir "$MNT/d"
	assert [ "$(ls -A "$MNT")" = "counter
subdir" ]
}

@test "slots: a failed rmdir keeps its slot, an exchange frees none, a replacing mv one" {
	mount -o remount,max_counters=4 "$MNT"
	mkdir "$MNT/d"
	touch "$MNT/d/x"
	run rmdir "$MNT/d"
	[[ $output == *"not empty"* ]]
	echo 1 >"$MNT/a"
	echo 2 >"$MNT/b"
	run touch "$MNT/c"
	[[ $output == *"No space left on device"* ]]
	# simple_rename() exchanges if libfs has simple_rename_exchange()
	# (after 5.10); 5.10 refuses with EINVAL, changing nothing.  No
	# slot is freed either way.
	run exchange "$MNT/a" "$MNT/b"
	echo "exchange: $output"
	if grep -qw simple_rename_exchange /proc/kallsyms; then
		assert [ "$output" = ok ]
		assert [ "$(cat "$MNT/a")" = 2 ]
		assert [ "$(cat "$MNT/b")" = 1 ]
	else
		assert [ "$output" = EINVAL ]
		assert [ "$(cat "$MNT/a")" = 1 ]
		assert [ "$(cat "$MNT/b")" = 2 ]
	fi
	run touch "$MNT/c"
	[[ $output == *"No space left on device"* ]]
	mv "$MNT/a" "$MNT/b"
	touch "$MNT/c"
	run touch "$MNT/e"
	[[ $output == *"No space left on device"* ]]
}

# tmpfs's nr_inodes counts an inode until it is evicted, its root too:
# nr_inodes=3 leaves room for 2 entries, as max_counters=2 does.  Each
# way a name goes while its inode is held: rm of an open counter, mv over
# an open counter, rmdir of a directory a process works in.  A third
# entry is refused while it is held and made once it is let go.
@test "max_counters counts entries until they are let go: removed while open or worked in, or replaced by mv while open, each keeps its slot, as tmpfs's nr_inodes does" {
	mount -o remount,max_counters=2 "$MNT"
	mkdir "$TMPFS"
	mount -t tmpfs -o nr_inodes=3 tmpfs "$TMPFS"
	local d said
	for d in "$MNT" "$TMPFS"; do
		said=()
		touch "$d/a" "$d/b"
		exec 7<"$d/a"
		rm "$d/a"
		said+=("$(make_one f "$d/c")")
		exec 7<&-
		said+=("$(make_one f "$d/c")")
		rm "$d/b" "$d/c"

		touch "$d/a" "$d/b"
		exec 7<"$d/b"
		mv "$d/a" "$d/b"
		said+=("$(make_one f "$d/c")")
		exec 7<&-
		said+=("$(make_one f "$d/c")")
		rm "$d/b" "$d/c"

		mkdir "$d/x" "$d/y"
		(cd "$d/x" && exec sleep 600) &
		HOLDER=$!
		until [ "$(readlink "/proc/$HOLDER/cwd")" = "$d/x" ]; do
			sleep 0.05
		done
		rmdir "$d/x"
		said+=("$(make_one d "$d/z")")
		kill "$HOLDER"
		wait "$HOLDER" || :
		HOLDER=
		said+=("$(make_one d "$d/z")")
		rmdir "$d/y" "$d/z"
		echo "$d: ${said[*]}"
		assert [ "${said[*]}" = "ENOSPC ok ENOSPC ok ENOSPC ok" ]
	done
}

@test "mv renames and moves counters, keeping their values" {
	echo 40 >"$MNT/old"
	mkdir "$MNT/dir"
	mv "$MNT/old" "$MNT/dir/new"
	assert [ ! -e "$MNT/old" ]
	assert [ "$(cat "$MNT/dir/new")" = 40 ]
	echo 1 >"$MNT/other"
	mv "$MNT/dir/new" "$MNT/other"	# replaces other
	assert [ "$(cat "$MNT/other")" = 41 ]
	mv "$MNT/dir" "$MNT/subdir/dir2"
	assert [ -d "$MNT/subdir/dir2" ]
}

@test "the built-in tree cannot be removed or renamed: EPERM" {
	touch "$MNT/x"
	for cmd in "rm $C" "rm $MNT/subdir/subcounter" "rmdir $MNT/subdir" \
		"mv $C $MNT/c2" "mv $MNT/subdir $MNT/s2" "mv $MNT/x $C" \
		"mv $MNT/x $MNT/subdir/subcounter" "rm -rf $MNT/subdir"; do
		run $cmd
		echo "$cmd: $output"
		assert [ "$status" -ne 0 ]
		[[ $output == *"Operation not permitted"* ]]
	done
	assert [ "$(cd "$MNT" && echo *)" = "counter subdir x" ]
	assert [ "$(cd "$MNT/subdir" && echo *)" = subcounter ]
}

@test "mknod, mkfifo, symlinks and hard links are refused with EPERM" {
	touch "$MNT/t"
	for cmd in "mkfifo $MNT/f" "mknod $MNT/n c 1 3" "ln -s t $MNT/s" \
		"ln $MNT/t $MNT/h"; do
		run $cmd
		echo "$cmd: $output"
		assert [ "$status" -ne 0 ]
		[[ $output == *"Operation not permitted"* ]]
	done
}

@test "block devices and sockets cannot be made either: EPERM" {
	run mknod "$MNT/b" b 7 0
	echo "mknod b: $output"
	assert [ "$status" -ne 0 ]
	[[ $output == *"Operation not permitted"* ]]
	# bind(2) of a unix socket makes its node with mknod(2).
	run perl -e 'use Errno; use Socket;
		socket(my $s, AF_UNIX, SOCK_STREAM, 0) or die "socket: $!\n";
		bind($s, pack_sockaddr_un($ARGV[0])) and die "bound\n";
		print((grep { $!{$_} } keys %!), "\n")' "$MNT/sock"
	assert [ "$output" = EPERM ]
	assert [ "$(cd "$MNT" && echo *)" = "counter subdir" ]
}

@test "a name longer than 255 bytes: ENAMETOOLONG" {
	run touch "$MNT/$(printf 'x%.0s' $(seq 256))"
	[[ $output == *"File name too long"* ]]
	touch "$MNT/$(printf 'x%.0s' $(seq 255))"
}

@test "made counters belong to the superblock: shared by mounts, gone at umount" {
	mkdir -p /tmp/lwnfs2
	mount -t lwnfs lwnfs /tmp/lwnfs2
	echo 70 >"$MNT/shared"
	assert [ "$(cat /tmp/lwnfs2/shared)" = 70 ]
	umount /tmp/lwnfs2
	assert [ "$(cat "$MNT/shared")" = 71 ]
	umount "$MNT"
	mount -t lwnfs lwnfs "$MNT"
	assert [ ! -e "$MNT/shared" ]
}

@test "an open made counter outlives its unlink" {
	echo 8 >"$MNT/gone"
	exec 7<"$MNT/gone"
	rm "$MNT/gone"
	run cat <&7
	exec 7<&-
	assert [ "$output" = 8 ]
}

# inodes: the kernel's count of inodes in use.
inodes() {
	awk '{ print $1 - $2 }' /proc/sys/fs/inode-nr
}

@test "2000 made counters are all freed by rm, and by umount" {
	base=$(inodes)
	mkdir "$MNT/many"
	(cd "$MNT/many" && seq 2000 | xargs touch)
	assert [ "$(find "$MNT/many" -type f | wc -l)" = 2000 ]
	assert [ $(($(inodes) - base)) -ge 2000 ]
	rm -r "$MNT/many"
	assert [ $(($(inodes) - base)) -lt 100 ]
	(cd "$MNT" && seq 2000 | xargs touch)
	umount "$MNT"
	assert [ $(($(inodes) - base)) -lt 100 ]
	rmmod lwnfs
}

# slab_objects FILE: into FILE, each slab cache's objects in use, "NAME
# COUNT" a line, once what was freed has settled: RCU's grace periods
# (a pause), unused dentries and inodes dropped, and each cache's
# per-CPU slabs flushed (SLUB's shrink), so that free objects are not
# counted as in use.
slab_objects() {
	perl -e 'sub put { open(my $f, ">", $_[0]) or return; print $f "$_[1]\n"; close($f) }
		select(undef, undef, undef, 0.3);
		put("/proc/sys/vm/drop_caches", 2);
		select(undef, undef, undef, 0.3);
		put($_, 1) for glob("/sys/kernel/slab/*/shrink");
		open(my $i, "<", "/proc/slabinfo") or die "/proc/slabinfo: $!\n";
		while (<$i>) { print "$1 $2\n" if /^(\S+)\s+(\d+)\s/ }' >"$1"
}

# slab_returned BEFORE MADE AFTER N: the caches that grew by nine tenths
# of N objects or more from BEFORE to MADE (what N made counters took:
# dentries, inodes, values, a security module's blobs; others come and
# go meanwhile), and how many of those AFTER still holds; fails when one
# holds a tenth of N or more, or fewer than two grew (the values' cache
# and a dentry or inode cache at least).
slab_returned() {
	perl -e 'my ($before, $made, $after, $n) = @ARGV;
		sub load { my %c; open(my $f, "<", $_[0]) or die "$!\n";
			while (<$f>) { my ($k, $v) = split; $c{$k} += $v } return \%c }
		my ($was, $now, $left) = map { load($_) } $before, $made, $after;
		my %took = map { $_ => $now->{$_} - ($was->{$_} // 0) } keys %$now;
		my ($grew, $bad) = (0, 0);
		for my $k (sort keys %took) {
			next if $took{$k} < $n * 0.9;
			my $held = ($left->{$k} // 0) - ($was->{$k} // 0);
			$grew++;
			$bad++ if $held >= $n / 10;
			print "$k: $took{$k} objects for $n counters, $held still in use\n";
		}
		# what else grew most, for a failure to show
		my @more = (sort { $took{$b} <=> $took{$a} } grep { $took{$_} < $n * 0.9 } keys %took)[0 .. 4];
		print "(then ", join(", ", map { "$_ +$took{$_}" } grep { defined } @more), ")\n";
		exit($grew >= 2 && !$bad ? 0 : 1)' "$@"
}

@test "the memory of 10000 made counters returns to every slab cache it came from, at rm and at umount" {
	local how try returned
	mount -o remount,max_counters=20000 "$MNT"
	for how in rm umount; do
		slab_objects "$BATS_TEST_TMPDIR/before"
		mkdir "$MNT/many"
		perl -e 'for (1 .. 10000) { open(my $fh, ">", "$ARGV[0]/$_") or die "$!\n" }' "$MNT/many"
		slab_objects "$BATS_TEST_TMPDIR/made"
		if [ "$how" = rm ]; then
			rm -r "$MNT/many"
		else
			umount "$MNT"
		fi
		# What RCU frees (dentries, a security module's inode blobs) goes
		# a grace period and its callbacks after rm or umount, which
		# under TCG can lag by seconds: measured again, once a second,
		# for up to ten seconds; a leak still holds then.
		returned=
		for try in 1 2 3 4 5 6 7 8 9 10; do
			slab_objects "$BATS_TEST_TMPDIR/after"
			if slab_returned "$BATS_TEST_TMPDIR/before" "$BATS_TEST_TMPDIR/made" \
				"$BATS_TEST_TMPDIR/after" 10000 >"$BATS_TEST_TMPDIR/verdict"; then
				returned=yes
				break
			fi
			[ "$try" = 10 ] || sleep 1
		done
		echo "after $how, measured $try times:"
		cat "$BATS_TEST_TMPDIR/verdict"
		assert [ "$returned" = yes ]
	done
}

# slab_kept BEFORE AFTER N: the caches that hold N/2 objects or more in
# AFTER than in BEFORE, a line each; fails when there is one.
slab_kept() {
	perl -e 'my ($before, $after, $n) = @ARGV;
		sub load { my %c; open(my $f, "<", $_[0]) or die "$!\n";
			while (<$f>) { my ($k, $v) = split; $c{$k} += $v } return \%c }
		my ($was, $now) = map { load($_) } $before, $after;
		my @kept = grep { $now->{$_} - ($was->{$_} // 0) >= $n / 2 } sort keys %$now;
		print "$_: ", $now->{$_} - ($was->{$_} // 0), " more objects\n" for @kept;
		exit(@kept ? 1 : 0)' "$@"
}

# Each mount of an lwnfs not mounted makes a superblock, with lwnfs's
# own part of it; umount must free them all, as kill_sb frees that part.
@test "500 mounts and umounts give back each superblock's memory" {
	umount "$MNT"
	local try kept
	slab_objects "$BATS_TEST_TMPDIR/before"
	run perl -e 'require "syscall.ph";
		my ($src, $dir, $type) = ("lwnfs", $ARGV[0], "lwnfs");
		for (1 .. 500) {
			syscall(&SYS_mount, $src, $dir, $type, 0, 0) == 0 or die "mount $_: $!\n";
			syscall(&SYS_umount2, $dir, 0) == 0 or die "umount $_: $!\n";
		}' "$MNT"
	assert [ "$status" = 0 ]
	# What RCU frees lags, as in the test above.
	for try in 1 2 3 4 5 6 7 8 9 10; do
		slab_objects "$BATS_TEST_TMPDIR/after"
		if kept=$(slab_kept "$BATS_TEST_TMPDIR/before" "$BATS_TEST_TMPDIR/after" 500); then
			break
		fi
		[ "$try" = 10 ] || sleep 1
	done
	echo "measured $try times; $kept"
	assert [ -z "$kept" ]
}

@test "unlinked counters still open go, with their memory, when they are closed" {
	base=$(inodes)
	mkdir "$MNT/open"
	(cd "$MNT/open" && seq 500 | xargs touch)
	# One process opens all 500, unlinks them, and counts the inodes in
	# use with them open, then closed.
	run perl -e 'my $dir = $ARGV[0];
		sub inodes {
			open(my $f, "<", "/proc/sys/fs/inode-nr") or die "$!\n";
			my ($nr, $unused) = split(" ", <$f>);
			return $nr - $unused;
		}
		my @fh = map { open(my $fh, "<", "$dir/$_") or die "$!\n"; $fh } 1 .. 500;
		unlink("$dir/$_") or die "$!\n" for 1 .. 500;
		print inodes(), "\n";
		close($_) for @fh;
		print inodes(), "\n"' "$MNT/open"
	echo "inodes in use: $base before, then ${lines[*]}"
	assert [ "$status" = 0 ]
	assert [ -z "$(ls -A "$MNT/open")" ]
	assert [ $((lines[0] - base)) -ge 500 ]
	assert [ $((lines[1] - base)) -lt 100 ]
}

race_write() { echo "$1" >"$MNT/r$((RANDOM % 8))"; }
race_mkdir() { mkdir "$MNT/d$((RANDOM % 8))"; }
race_rename() {
	local n=$((RANDOM % 8))
	mv "$MNT/r$n" "$MNT/r$(((n + 1) % 8))"
}
race_unlink() { rm "$MNT/r$((RANDOM % 8))"; }
race_rmdir() { rmdir "$MNT/d$((RANDOM % 8))"; }
race_read() { cat "$MNT/r$((RANDOM % 8))"; }

@test "race: creators, removers and readers on the same names for 10 s" {
	# shellcheck source=harness/guest/loop.bash
	. "$BATS_TEST_DIRNAME/../harness/guest/loop.bash"
	mount -o remount,max_counters=16 "$MNT"
	local ops=$BATS_TEST_TMPDIR/ops end=$((SECONDS + 10))
	mkdir "$ops"
	for w in 1 2 3; do
		loop write race_write "$w" &
		loop mkdir race_mkdir &
		loop rename race_rename &
		loop unlink race_unlink &
		loop rmdir race_rmdir &
		loop read race_read &
	done
	wait
	# A loaded host may leave a loop no time: each kind must have done
	# its work at least once, or the race was not run.
	loops_check race write mkdir rename unlink rmdir read
	rm -f "$MNT"/r*
	rmdir "$MNT"/d* 2>/dev/null || true
	assert [ "$(cd "$MNT" && echo *)" = "counter subdir" ]
	# The slot count came back to 0: exactly 16 can be made again.
	for n in $(seq 16); do touch "$MNT/n$n"; done
	run touch "$MNT/n17"
	[[ $output == *"No space left on device"* ]]
}
