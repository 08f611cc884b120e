#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Mount options: uid=, gid=, mode=, max_counters=.

load helpers

setup() {
	clear_leftovers
	insmod "$KO"
	mkdir -p "$MNT" /tmp/lwnfs2 /tmp/lwnfs3
}

teardown() {
	unload_lwnfs
}

# opts MOUNTPOINT: the options /proc/mounts shows for it.
opts() {
	awk -v m="$1" '$2 == m { print $4 }' /proc/mounts
}

@test "defaults: root-owned, root dir 0755, no options shown" {
	mount -t lwnfs lwnfs "$MNT"
	assert [ "$(opts "$MNT")" = rw,relatime ]
	assert [ "$(stat -c '%a %u %g' "$MNT")" = "755 0 0" ]
}

@test "uid= and gid= own the built-in tree; a made entry is its creator's" {
	mount -t lwnfs -o uid=1000,gid=100 lwnfs "$MNT"
	touch "$MNT/made"
	run stat -c '%u:%g' "$MNT" "$C" "$MNT/subdir" "$MNT/subdir/subcounter" "$MNT/made"
	assert [ "${lines[*]}" = "1000:100 1000:100 1000:100 1000:100 0:0" ]
	[[ $(opts "$MNT") == *,uid=1000,gid=100* ]]
}

@test "the owner given by uid= may write counters and make new ones" {
	mount -t lwnfs -o uid=65534,gid=65534 lwnfs "$MNT"
	setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo 12 > $C; touch $MNT/mine"
	assert [ "$(cat "$C")" = 12 ]
	assert [ -f "$MNT/mine" ]
}

@test "mode= sets the root directory's mode" {
	mount -t lwnfs -o mode=1777 lwnfs "$MNT"
	assert [ "$(stat -c %a "$MNT")" = 1777 ]
	[[ $(opts "$MNT") == *,mode=1777* ]]
	# The rest of the fixed tree keeps its own type and mode.
	run stat -c '%a %F' "$C" "$MNT/subdir" "$MNT/subdir/subcounter"
	assert [ "${lines[*]}" = "644 regular empty file 755 directory 644 regular empty file" ]
}

@test "max_counters= is shown and bounds user-made entries" {
	mount -t lwnfs -o max_counters=3 lwnfs "$MNT"
	[[ $(opts "$MNT") == *,max_counters=3* ]]
	touch "$MNT/a" "$MNT/b"
	mkdir "$MNT/d"
	run touch "$MNT/c"
	assert [ "$status" -ne 0 ]
	[[ $output == *"No space left on device"* ]]
	run mkdir "$MNT/e"
	[[ $output == *"No space left on device"* ]]
	rm "$MNT/a"
	touch "$MNT/c"
}

@test "max_counters defaults to 4096: the 4097th entry fails with ENOSPC" {
	mount -t lwnfs lwnfs "$MNT"
	run perl -e 'my $dir = shift;
		for (1 .. 4097) {
			open(my $fh, ">", "$dir/c$_") or do { print "$_: $!\n"; exit };
		}
		print "all 4097 made\n"' "$MNT"
	assert [ "$output" = "4097: No space left on device" ]
}

@test "max_counters lowered below what exists removes nothing; making waits until enough are gone" {
	mount -t lwnfs -o max_counters=10 lwnfs "$MNT"
	for n in 1 2 3 4; do echo "$n" >"$MNT/c$n"; done
	mkdir "$MNT/d"
	mount -o remount,max_counters=2 "$MNT"
	[[ $(opts "$MNT") == *,max_counters=2* ]]
	assert [ "$(cd "$MNT" && echo *)" = "c1 c2 c3 c4 counter d subdir" ]
	assert [ "$(cat "$MNT/c3")" = 3 ]
	run touch "$MNT/new"
	[[ $output == *"No space left on device"* ]]
	rm "$MNT/c1" "$MNT/c2" "$MNT/c3"
	rmdir "$MNT/d"
	touch "$MNT/new"
	run touch "$MNT/new2"
	[[ $output == *"No space left on device"* ]]
	assert [ "$(cat "$MNT/c4")" = 4 ]
}

@test "remount changes the options given and keeps the others" {
	mount -t lwnfs -o uid=5,max_counters=9 lwnfs "$MNT"
	mount -o remount,gid=6,mode=700 "$MNT"
	assert [ "$(stat -c '%a %u %g' "$MNT")" = "700 5 6" ]
	assert [ "$(stat -c '%u %g' "$C")" = "5 6" ]
	[[ $(opts "$MNT") == *,uid=5,gid=6,mode=700,max_counters=9* ]]
}

# state: what a mount of the fixed tree could change, on one line.
state() {
	echo "$(stat -c '%u:%g %a' "$MNT" "$C" "$MNT/subdir") $(opts "$MNT")"
}

@test "a second mount with the options in force, or none, shares the tree" {
	mount -t lwnfs -o uid=7,max_counters=9 lwnfs "$MNT"
	local before
	before=$(state)
	mount -t lwnfs -o uid=7 lwnfs /tmp/lwnfs2
	mount -t lwnfs lwnfs /tmp/lwnfs3
	assert [ "$(state)" = "$before" ]
	touch /tmp/lwnfs3/made
	assert [ -f "$MNT/made" ]
}

# A mount can still fail after lwnfs has its options (a busy mount point,
# a security module's checks), so a mount of the mounted lwnfs that would
# change an option fails, before anything changes.  busybox calls
# mount(2) as it is, and says what it returned.
@test "a second mount with other options fails with EBUSY, says to remount, and changes nothing" {
	mount -t lwnfs -o uid=7 lwnfs "$MNT"
	touch "$MNT/made"
	local before dir
	before=$(state)
	for dir in /tmp/lwnfs2 "$MNT"; do
		klog_mark
		run busybox mount -t lwnfs -o uid=1000,gid=1000,mode=0700,max_counters=0 none "$dir"
		echo "$dir: $output"
		assert [ "$status" -ne 0 ]
		[[ $output == *"Device or resource busy"* ]]
		klog_since_mark | grep -q "lwnfs: mounted with other options; change them with remount"
		assert [ "$(state)" = "$before" ]
		touch "$MNT/made-$status"	# max_counters=0 did not take
	done
	# Each option alone, too.
	for o in uid=8 gid=8 mode=700 max_counters=0; do
		run busybox mount -t lwnfs -o "$o" none /tmp/lwnfs2
		echo "$o: $output"
		[[ $output == *"Device or resource busy"* ]]
	done
	assert [ "$(state)" = "$before" ]
	run ! grep -q " /tmp/lwnfs2 lwnfs " /proc/mounts
	# The same options on its own mount point: EBUSY from the VFS.
	run busybox mount -t lwnfs -o uid=7 none "$MNT"
	[[ $output == *"Device or resource busy"* ]]
	assert [ "$(state)" = "$before" ]
}

# fsconfig(2)'s FSCONFIG_CMD_CREATE runs ->get_tree; without fsmount(2)
# nothing is mounted, and nothing may change.
@test "fsconfig(FSCONFIG_CMD_CREATE) with other options and no fsmount(2) fails with EBUSY and changes nothing" {
	mount -t lwnfs lwnfs "$MNT"
	local before
	before=$(state)
	run perl -e '
		use Errno;
		require "syscall.ph";
		my ($set_string, $cmd_create) = (1, 6);
		my $type = "lwnfs";
		my $fd = syscall(&SYS_fsopen, $type, 0);
		$fd >= 0 or die "fsopen: $!\n";
		for (["uid", "1000"], ["mode", "700"], ["max_counters", "0"]) {
			my ($key, $value) = @$_;	# syscall() may write to its arguments
			syscall(&SYS_fsconfig, $fd, $set_string, $key, $value, 0) == 0
				or die "fsconfig $key: $!\n";
		}
		syscall(&SYS_fsconfig, $fd, $cmd_create, 0, 0, 0) == 0 and die "created\n";
		print((grep { $!{$_} } keys %!), "\n");'
	echo "$output"
	assert [ "$output" = EBUSY ]
	assert [ "$(state)" = "$before" ]
	touch "$MNT/made"
}

@test "chown and chmod stay through mounts and remounts without uid=, gid=, mode=" {
	mount -t lwnfs lwnfs "$MNT"
	touch "$MNT/own"
	chown 1234:1234 "$MNT/own" "$C"
	chmod 600 "$MNT/own"
	chmod 700 "$MNT"
	mount -t lwnfs lwnfs /tmp/lwnfs2
	mount -o remount,max_counters=9 "$MNT"
	mount -o remount "$MNT"
	run stat -c '%u:%g %a' "$MNT/own" "$C" "$MNT"
	assert [ "${lines[*]}" = "1234:1234 600 1234:1234 644 0:0 700" ]
}

@test "an explicit uid= or gid= re-owns the fixed tree; made entries keep theirs" {
	mount -t lwnfs lwnfs "$MNT"
	touch "$MNT/own"
	chown 1234:1234 "$MNT/own" "$C"
	mount -o remount,uid=5,gid=6 "$MNT"
	run stat -c %u:%g "$MNT" "$C" "$MNT/subdir" "$MNT/subdir/subcounter" "$MNT/own"
	assert [ "${lines[*]}" = "5:6 5:6 5:6 5:6 1234:1234" ]
	touch "$MNT/new"	# its creator's, root's
	assert [ "$(stat -c %u:%g "$MNT/new")" = 0:0 ]
}

# chown(2) of a file takes its set-user-ID bit away, and its
# set-group-ID bit when group-executable; a directory keeps both.
@test "an option that changes an owner drops the set-ID bits as chown(2) does" {
	mount -t lwnfs lwnfs "$MNT"
	chmod 6755 "$C"
	chmod 2644 "$MNT/subdir/subcounter"
	chmod 2755 "$MNT/subdir"
	mount -o remount,uid=1000 "$MNT"
	run stat -c '%a %u' "$C" "$MNT/subdir/subcounter" "$MNT/subdir"
	assert [ "${lines[*]}" = "755 1000 2644 1000 2755 1000" ]
	# The yardstick: chown(2) by root on tmpfs.
	tmpfs_mount
	touch "$TMPFS/a" "$TMPFS/b"
	chmod 6755 "$TMPFS/a"
	chmod 2644 "$TMPFS/b"
	chown 1000 "$TMPFS/a" "$TMPFS/b"
	run stat -c '%a %u' "$TMPFS/a" "$TMPFS/b"
	assert [ "${lines[*]}" = "755 1000 2644 1000" ]
	# gid= alone does the same; the owner it has already changes nothing.
	chmod 6755 "$C"
	mount -o remount,uid=1000 "$MNT"
	assert [ "$(stat -c %a "$C")" = 6755 ]
	mount -o remount,gid=5 "$MNT"
	assert [ "$(stat -c '%a %g' "$C")" = "755 5" ]
	# Set-group-ID without group execute, a mounter outside the group
	# (5) and without CAP_FSETID: it goes, as chown(2) by that task does.
	chmod 2644 "$C"
	setpriv --bounding-set=-fsetid mount -o remount,gid=6 "$MNT"
	assert [ "$(stat -c '%a %g' "$C")" = "644 6" ]
}

@test "an unknown or malformed option fails with EINVAL, naming it" {
	# busybox passes the options to mount(2) as they are; util-linux 2.39+
	# parses uid= and gid= itself and would refuse uid=abc before lwnfs.
	# 4294967295 is (uid_t)-1, no uid at all: a u32, but not a valid one.
	for o in bogus uid=abc gid=-1 uid=4294967295 gid=4294967295 mode=8888 mode=17777 max_counters=-1 max_counters=x; do
		run busybox mount -t lwnfs -o "$o" lwnfs "$MNT"
		echo "$o: $output"
		assert [ "$status" -ne 0 ]
		[[ $output == *"Invalid argument"* ]]
		# 6.11+ parses uid= and gid= itself: "Invalid uid '4294967295'".
		dmesg | tail -n 1 | grep -q -E "lwnfs: .*('${o%%=*}'|Invalid ${o%%=*} )"
		run ! grep -q " $MNT lwnfs " /proc/mounts
	done
}

@test "a malformed option on remount fails with EINVAL and changes nothing" {
	mount -t lwnfs -o uid=3 lwnfs "$MNT"
	# busybox, so that uid=abc reaches the kernel (see above).
	run busybox mount -o remount,uid=abc "$MNT"
	echo "$output"
	assert [ "$status" -ne 0 ]
	[[ $output == *"Invalid argument"* ]]
	dmesg | tail -n 1 | grep -q "lwnfs: .*'uid'"
	assert [ "$(stat -c %u "$C")" = 3 ]
	[[ $(opts "$MNT") == *,uid=3* ]]
}
