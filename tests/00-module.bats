#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Loading, unloading and mounting: the module's life cycle.

load helpers

teardown() {
	unload_lwnfs
}

@test "insmod registers the lwnfs filesystem type; rmmod removes it" {
	insmod "$KO"
	grep -qx 'nodev	lwnfs' /proc/filesystems
	rmmod lwnfs
	run ! grep -q lwnfs /proc/filesystems
}

@test "modinfo: license, version, description, fs alias" {
	run modinfo -F license "$KO"
	assert [ "$output" = GPL ]
	run modinfo -F alias "$KO"
	assert [ "$output" = fs-lwnfs ]
	run modinfo -F version "$KO"
	[[ $output =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]
	run modinfo -F description "$KO"
	assert [ -n "$output" ]
}

@test "the tree: counter and subdir/subcounter, modes, owner, inode numbers" {
	load_lwnfs
	run ls -A "$MNT"
	assert [ "$output" = "counter
subdir" ]
	run ls -A "$MNT/subdir"
	assert [ "$output" = subcounter ]
	run stat -c '%n %a %u %g %F %i' "$MNT" "$C" "$MNT/subdir" "$MNT/subdir/subcounter"
	assert [ "${lines[0]}" = "$MNT 755 0 0 directory 1" ]
	assert [ "${lines[1]}" = "$C 644 0 0 regular empty file 2" ]
	assert [ "${lines[2]}" = "$MNT/subdir 755 0 0 directory 3" ]
	assert [ "${lines[3]}" = "$MNT/subdir/subcounter 644 0 0 regular empty file 4" ]
	run stat -c %h "$MNT" "$MNT/subdir"
	assert [ "$output" = "3
2" ]
}

@test "statfs: magic 0x19980122; df works" {
	load_lwnfs
	run stat -f -c %t "$MNT"
	assert [ "$output" = 19980122 ]
	df "$MNT"
}

@test "rmmod is refused while lwnfs is mounted, then succeeds after umount" {
	load_lwnfs
	run rmmod lwnfs
	assert [ "$status" -ne 0 ]
	[[ $output == *"in use"* ]]
	grep -q '^lwnfs ' /proc/modules
	umount "$MNT"
	rmmod lwnfs
	run ! grep -q '^lwnfs ' /proc/modules
}

@test "an open file keeps the module busy after a lazy umount" {
	load_lwnfs
	echo 41 >"$C"
	exec 7<"$C"
	umount -l "$MNT"
	run rmmod lwnfs
	assert [ "$status" -ne 0 ]
	run cat <&7
	assert [ "$output" = 41 ]
	exec 7<&-
	rmmod lwnfs
}

@test "values survive umount and mount while the module stays loaded" {
	load_lwnfs
	echo 77 >"$C"
	echo -5 >"$MNT/subdir/subcounter"
	umount "$MNT"
	mount -t lwnfs lwnfs "$MNT"
	assert [ "$(value "$C")" = 77 ]
	assert [ "$(value "$MNT/subdir/subcounter")" = -5 ]
}

@test "values reset to 0 when the module is reloaded" {
	load_lwnfs
	echo 77 >"$C"
	unload_lwnfs
	load_lwnfs
	assert [ "$(value "$C")" = 0 ]
	assert [ "$(value "$MNT/subdir/subcounter")" = 0 ]
}

@test "two mounts share one superblock and its counters" {
	load_lwnfs
	mkdir -p /tmp/lwnfs2
	mount -t lwnfs lwnfs /tmp/lwnfs2
	assert [ "$(stat -c %d "$MNT")" = "$(stat -c %d /tmp/lwnfs2)" ]
	echo 500 >"$C"
	assert [ "$(value /tmp/lwnfs2/counter)" = 500 ]
	assert [ "$(value "$C")" = 501 ]
	echo 9 >/tmp/lwnfs2/subdir/subcounter
	assert [ "$(value "$MNT/subdir/subcounter")" = 9 ]
}

@test "an unknown mount option fails the mount with EINVAL" {
	insmod "$KO"
	mkdir -p "$MNT"
	klog_mark
	run mount -t lwnfs -o bogus lwnfs "$MNT"
	echo "$output"
	assert [ "$status" -ne 0 ]
	# util-linux 2.39+ mounts with fsconfig(2) and prints the kernel's
	# reason; mount(2) users get EINVAL and the reason in the kernel log.
	if [[ $output != *"lwnfs: Unknown parameter 'bogus'"* ]]; then
		[[ $output == *"Invalid argument"* || $output == *"bad option"* ]]
		klog_since_mark | grep -q "lwnfs: Unknown parameter 'bogus'"
	fi
	run ! grep -q " $MNT lwnfs " /proc/mounts
}

@test "mounting from a user namespace is refused with EPERM (tmpfs there works)" {
	insmod "$KO"
	mkdir -p /tmp/userns
	unshare --user --map-root-user --mount mount -t tmpfs none /tmp/userns
	# mount(2) itself: mount(8)'s words for an errno vary by version.
	# shellcheck disable=SC2016 # perl's variables
	run unshare --user --map-root-user --mount perl -e 'use Errno;
		require "syscall.ph";
		my ($src, $dir, $type) = ("lwnfs", "/tmp/userns", "lwnfs");
		syscall(&SYS_mount, $src, $dir, $type, 0, 0) == 0 and die "mounted\n";
		print((grep { $!{$_} } keys %!), "\n")'
	assert [ "$output" = EPERM ]
	run ! grep -q ' /tmp/userns lwnfs ' /proc/mounts
}

@test "20 mount/umount cycles, counting on throughout" {
	load_lwnfs
	umount "$MNT"
	for i in $(seq 0 19); do
		mount -t lwnfs lwnfs "$MNT"
		assert [ "$(value "$C")" = "$i" ]
		umount "$MNT"
	done
	run ! grep -q " $MNT " /proc/mounts
	rmmod lwnfs
}
