#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A kernel with a security module that labels files (harness/selinux.sh):
# the distro's kernel booted with security=selinux, under the small
# policy of tests/selinux/policy.conf, which harness/selinux.sh compiles
# and setup_file loads, permissive.  A counter or directory a process
# makes gets the label the policy gives what that process makes, as a
# file it makes on tmpfs does; the fixed tree keeps the filesystem's.

load ../helpers

POLICY=$TREE/build/selinux/policy
# The process the policy's type_transition is for, and what it makes.
MAKER=maker_u:maker_r:lwnfs_maker_t
MADE=maker_u:object_r:lwnfs_made_t
# A tmpfs of the test's own, the yardstick (teardown takes it away).
TMPFS=/tmp/lwnfs-tmpfs

setup_file() {
	[ -f "$POLICY" ] || {
		echo "tests/selinux: run by harness/selinux.sh, which compiles the policy" >&2
		return 1
	}
	mountpoint -q /sys/fs/selinux || mount -t selinuxfs selinuxfs /sys/fs/selinux
	cat "$POLICY" >/sys/fs/selinux/load
}

setup() {
	load_lwnfs
}

teardown() {
	if [ -d "$TMPFS" ]; then
		umount "$TMPFS" && rmdir "$TMPFS"
	fi
	unload_lwnfs
}

# as_context CONTEXT CMD...: run CMD in the SELinux context CONTEXT, set
# for the next execve(2) through /proc/self/attr/exec, as runcon(1) does.
as_context() {
	perl -e 'my $context = shift @ARGV;
		open(my $attr, ">", "/proc/self/attr/exec") or die "attr/exec: $!\n";
		print {$attr} $context;
		close($attr) or die "attr/exec: $!\n";
		exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!\n"' "$@"
}

# label FILE: FILE's SELinux label, its security.selinux attribute, which
# the security module gives from its label in memory where the
# filesystem stores no xattrs, as lwnfs stores none.
label() {
	perl -e 'require "syscall.ph";
		# syscall() passes strings by address and wants each writable:
		# no literal among them.
		my ($path, $name, $value) = ($ARGV[0], "security.selinux", "\0" x 256);
		my $n = syscall(&SYS_getxattr, $path, $name, $value, 256);
		die "getxattr $path: $!\n" if $n < 0;
		(my $label = substr($value, 0, $n)) =~ s/\0+$//;
		print "$label\n"' "$1"
}

@test "the kernel runs SELinux, permissive, under the test's policy" {
	grep -qw security=selinux /proc/cmdline
	assert [ "$(cat /sys/fs/selinux/enforce)" = 0 ]
	assert [ "$(as_context "$MAKER" cat /proc/self/attr/current | tr -d '\0')" = "$MAKER" ]
	assert [ "$(label "$MNT")" = system_u:object_r:lwnfs_t ]
}

# security_inode_init_security() is what labels a new inode: without it
# a made counter takes the filesystem's label, system_u:object_r:lwnfs_t,
# as the fixed tree does.
@test "a counter and a directory a process makes get the label the policy gives what it makes, as on tmpfs; the fixed tree keeps lwnfs's" {
	mkdir "$TMPFS"
	mount -t tmpfs tmpfs "$TMPFS"
	local d
	for d in "$TMPFS" "$MNT"; do
		as_context "$MAKER" touch "$d/made"
		as_context "$MAKER" mkdir "$d/dir"
		run label "$d/made"
		echo "$d/made: $output"
		assert [ "$output" = "$MADE" ]
		run label "$d/dir"
		echo "$d/dir: $output"
		assert [ "$output" = "$MADE" ]
	done
	assert [ "$(cat "$MNT/made")" = 0 ]
	run label "$C"
	assert [ "$output" = system_u:object_r:lwnfs_t ]
	run label "$MNT/subdir/subcounter"
	assert [ "$output" = system_u:object_r:lwnfs_t ]
}

@test "what root makes, under no transition, takes its directory's type, as on tmpfs" {
	mkdir "$TMPFS"
	mount -t tmpfs tmpfs "$TMPFS"
	touch "$MNT/rootmade" "$TMPFS/rootmade"
	run label "$MNT/rootmade"
	assert [ "$output" = system_u:object_r:lwnfs_t ]
	run label "$TMPFS/rootmade"
	assert [ "$output" = system_u:object_r:tmpfs_t ]
}
