# SPDX-License-Identifier: GPL-2.0
#
# Shared by the bats files: the module's suites in tests/, the
# installation suites in tests/install/.  They run as root inside a test
# guest (vm.sh):
# every test starts with lwnfs freshly loaded and mounted at $MNT, and ends
# with every lwnfs mount gone and the module unloaded.

# Under TCG a program run costs 50 ms (a file's every test loads this and
# runs setup and teardown): what bash does itself runs no program.
# shellcheck disable=SC2034 # READER, C and DEB are for the bats files
TREE=.
[[ ${BASH_SOURCE[0]} != */* ]] || TREE=${BASH_SOURCE[0]%/*}
TREE=$(cd "$TREE/.." && pwd)
KO=${LWNFS_KO:-$TREE/lwnfs.ko}
READER=$TREE/tests/programs/lwnfs-reader
MNT=/tmp/lwnfs
C=$MNT/counter
# What tests make outside lwnfs: a tmpfs of their own, the yardstick, and
# a memory cgroup for their processes (their teardowns take them away).
TMPFS=/tmp/lwnfs-tmpfs
export MEMCG=/sys/fs/cgroup/lwnfs-test	# for the tests' inner shells too
# The one version, LWNFS_VERSION in lwnfs.h.
VERSION=
while read -r define name value; do
	[ "$define $name" != "#define LWNFS_VERSION" ] || { VERSION=${value//\"/}; break; }
done <"$TREE/lwnfs.h"
# The Debian package, built on the host before the guest boots (make deb).
DEB=${LWNFS_DEB:-$TREE/build/deb/lwnfs-dkms_${VERSION}_all.deb}

bats_require_minimum_version 1.5.0
# assert, assert_equal, ...: a failed check prints the values it saw.
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

# module_suffix: what follows ".ko" in the names of the kernel's own
# modules: ".xz", ".zst" or nothing.
module_suffix() {
	local own
	own=$(find "/lib/modules/$(uname -r)/kernel" -name '*.ko*' -print -quit)
	[ -n "$own" ] || return 1
	echo "${own##*.ko}"
}

# clear_leftovers: take away what a test stopped midway leaves (make
# mutants stops a suite at its first failure, teardown or not): lwnfs
# mounted and loaded, the tests' tmpfs and memory cgroup, its processes
# moved out.  Bash alone when nothing is left, so that it costs a test
# nothing.
clear_leftovers() {
	local source target type rest pid
	while read -r source target type rest; do
		[ "$target" != "$TMPFS" ] || umount "$TMPFS"
	done </proc/mounts
	[ ! -d "$TMPFS" ] || rmdir "$TMPFS"
	if [ -d "$MEMCG" ]; then
		while read -r pid; do
			echo "$pid" >/sys/fs/cgroup/cgroup.procs || :	# gone since
		done <"$MEMCG/cgroup.procs"
		rmdir "$MEMCG"
	fi
	unload_lwnfs
}

# tmpfs_mount: a tmpfs at $TMPFS whose root, like /tmp, anyone may
# write (mode 1777); clear_leftovers takes it away.
tmpfs_mount() {
	mkdir "$TMPFS"
	mount -t tmpfs -o mode=1777 tmpfs "$TMPFS"
}

load_lwnfs() {
	clear_leftovers
	insmod "$KO"
	[ -d "$MNT" ] || mkdir "$MNT"
	mount -t lwnfs lwnfs "$MNT"
}

# Every lwnfs mount, the last made first (a mount over another one), then
# the module; fails when the module cannot go, as when a mount stays
# (bats runs teardown without set -e: its status is the function's).
unload_lwnfs() {
	local source target type rest mounts=() i rc=0
	while read -r source target type rest; do
		[ "$type" != lwnfs ] || mounts=("$target" "${mounts[@]}")
	done </proc/mounts
	for i in "${mounts[@]}"; do
		# One that stays keeps the module: rmmod fails below.  (One
		# already gone with another, propagated, is no failure.)
		umount "$i" || :
	done
	while read -r source rest; do
		[ "$source" != lwnfs ] || { rmmod lwnfs || rc=1; break; }
	done </proc/modules
	return "$rc"
}

# wr FILE [OFFSET]: write stdin to FILE in one write(2) at OFFSET (default
# 0), without O_TRUNC; print "ok" or the errno name, e.g. "EINVAL".
wr() {
	perl -e '
		use Errno;
		my ($file, $off) = @ARGV;
		local $/; binmode STDIN; my $data = <STDIN> // "";
		sysopen(my $fh, $file, 1) or die "open $file: $!\n";
		sysseek($fh, $off // 0, 0) or die "seek: $!\n";
		if (defined syswrite($fh, $data)) { print "ok\n"; exit 0 }
		print((grep { $!{$_} } keys %!), "\n");
	' "$@"
}

# seeks FILE r|w|rw OP...: open FILE for reading, writing or both, make
# each OP in turn and print on one line what each gave: "read" what one
# read(2) of up to 64 bytes returned ("EOF" for nothing, a newline as
# "\n"); "SET N", "CUR N", "END N", "DATA N" and "HOLE N" an lseek(2) by
# N with that whence: the new offset or the errno's name, e.g. "EINVAL".
seeks() {
	perl -e '
		use Errno;
		use Fcntl;
		my ($file, $mode, @ops) = @ARGV;
		my %how = (r => O_RDONLY, w => O_WRONLY, rw => O_RDWR);
		my %whence = (SET => 0, CUR => 1, END => 2, DATA => 3, HOLE => 4);
		sysopen(my $fh, $file, $how{$mode}) or die "open $file: $!\n";
		my @said;
		for my $op (@ops) {
			if ($op eq "read") {
				defined(sysread($fh, my $text, 64)) or die "read: $!\n";
				$text =~ s/\n/\\n/g;
				push @said, $text eq "" ? "EOF" : $text;
				next;
			}
			my ($w, $by) = split / /, $op;
			my $at = sysseek($fh, $by, $whence{$w});
			push @said, defined $at ? 0 + $at : (grep { $!{$_} } keys %!);
		}
		print "@said\n";
	' "$@"
}

# exchange A B: swap A and B with renameat2(RENAME_EXCHANGE); print "ok"
# or the errno name.  perl's syscall.ph has the number for this machine.
exchange() {
	perl -e '
		use Errno;
		require "syscall.ph";
		my ($from, $to) = @ARGV;
		my ($at_fdcwd, $rename_exchange) = (-100, 2);
		if (syscall(&SYS_renameat2, $at_fdcwd, $from, $at_fdcwd, $to,
			    $rename_exchange) == 0) { print "ok\n"; exit 0 }
		print((grep { $!{$_} } keys %!), "\n");
	' "$@"
}

# klog_mark: a line of this test's in the kernel log; klog_since_mark
# prints the log from it on (failing if the log no longer holds it), so
# that a check finds only what came after.
klog_mark() {
	KLOG_SEQ=$(perl "$TREE/harness/guest/kmsg.pl" mark "lwnfs-test: $BATS_TEST_NUMBER")
}

klog_since_mark() {
	perl "$TREE/harness/guest/kmsg.pl" since "$KLOG_SEQ"
}

# value FILE: take one value (and so advance the counter).
value() {
	cat "$1"
}

# dkms_state: the state "dkms status" gives lwnfs $VERSION on the running
# kernel ("installed", "built", ...), or nothing.  dkms 3 prints
# "lwnfs/1.0.0, 6.1.0-1-amd64, x86_64: installed", dkms 2 "lwnfs, 1.0.0, ...".
dkms_state() {
	dkms status -m lwnfs -v "$VERSION" -k "$(uname -r)" |
		sed -n "s|^lwnfs[/,] *$VERSION, $(uname -r), [^:]*: \([a-z-]*\).*|\1|p"
}

# no_lwnfs_left: no trace of lwnfs in DKMS, /usr/src or /lib/modules, and
# modprobe cannot find it.
no_lwnfs_left() {
	run ! modinfo lwnfs
	assert [ -z "$(dkms status -m lwnfs)" ]
	assert [ ! -e /var/lib/dkms/lwnfs ]
	run ! compgen -G '/usr/src/lwnfs-*'
	run ! compgen -G '/lib/modules/*/updates/dkms/lwnfs.ko*'
	run ! compgen -G '/lib/modules/*/extra/lwnfs.ko*'
}
