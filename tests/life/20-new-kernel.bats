#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The life of lwnfs-dkms, second boot (harness/life.sh): the same machine
# on the kernel that the first boot's apt installed, booted by its own
# systemd, which mounted /lwnfs from /etc/fstab; run once the boot is
# over (harness/boot/vm.sh -s).  The tests run in order; the last purges the
# package.

load ../helpers

export DEBIAN_FRONTEND=noninteractive

teardown() {
	unload_lwnfs
}

# kernels: the releases /lib/modules has headers for, one per line.
kernels() {
	for b in /lib/modules/*/build; do
		[ -d "$b" ] && basename "$(dirname "$b")"
	done
}

@test "booted by systemd on the new kernel: lwnfs mounted from /etc/fstab, a counter counts" {
	local state
	assert [ "$(cat /proc/1/comm)" = systemd ]
	state=$(systemctl is-system-running) || :
	echo "is-system-running: $state"
	systemctl list-units --state=failed --no-pager
	assert [ "$(systemctl is-active lwnfs.mount)" = active ]
	assert [ "$(findmnt -n -o FSTYPE /lwnfs)" = lwnfs ]
	assert [ "$(cat /sys/module/lwnfs/version)" = "$VERSION" ]
	assert [ "$(cat /lwnfs/counter)" = 0 ]
	assert [ "$(cat /lwnfs/counter)" = 1 ]
	assert [ "$state" = running ]
}

@test "booted on the new kernel: dkms status shows lwnfs installed for both kernels" {
	dkms status -m lwnfs
	assert [ "$(kernels | wc -l)" = 2 ]
	for k in $(kernels); do
		dkms status -m lwnfs -v "$VERSION" -k "$k" | grep -q ': installed'
	done
	assert [ "$(dkms_state)" = installed ]
}

@test "on the new kernel: modprobe lwnfs, mount -t lwnfs, and mount by the fstab line" {
	modprobe lwnfs
	assert [ "$(cat /sys/module/lwnfs/version)" = "$VERSION" ]
	rmmod lwnfs
	mkdir -p "$MNT"
	mount -t lwnfs lwnfs "$MNT"
	assert [ "$(cat "$C")" = 0 ]
	umount "$MNT"
	mount /lwnfs
	assert [ "$(findmnt -n -o FSTYPE /lwnfs)" = lwnfs ]
	# The module stayed loaded: its counter goes on.
	assert [ "$(cat /lwnfs/counter)" = 1 ]
}

@test "Debian's autopkgtest (debian/tests and autodep8's dkms test) passes for both kernels' headers" {
	grep -q '^Testsuite: autopkgtest-pkg-dkms$' "$TREE/debian/control"
	grep -q '^Tests: modprobe-mount$' "$TREE/debian/tests/control"
	# autodep8's test breaks the testbed (it purges and reinstalls);
	# this guest's machine is at the end of its life: let it.
	# Its wrapper makes FIFOs in TMPDIR, which this guest's root, shared
	# over 9p, cannot hold (mkfifo: No such device or address), unlike a
	# machine's disk: TMPDIR is on a tmpfs, /run's.
	# debian/tests/modprobe-mount loads a module, so it asks for
	# isolation-machine: this guest is such a machine, a throwaway one of
	# its own, but the null runner does not say so, and trixie's
	# autopkgtest (5.49) skips the test for it where bookworm's ran it.
	mkdir -p /run/lwnfs-autopkgtest
	run env TMPDIR=/run/lwnfs-autopkgtest autopkgtest --no-built-binaries \
		--ignore-restrictions=breaks-testbed,isolation-machine "$DEB" "$TREE/" -- null
	echo "$output"
	echo "autopkgtest: status $status"
	if [ "$status" != 0 ]; then
		# Whether the guest's own caches of its 9p root tell
		# another story than the root: modinfo, before and after they
		# are dropped.
		echo "after autopkgtest: modinfo -n lwnfs: $(modinfo -n lwnfs 2>&1)"
		ls -li --full-time "/lib/modules/$(uname -r)"/modules.dep* || :
		sync
		echo 3 >/proc/sys/vm/drop_caches
		echo "after drop_caches: modinfo -n lwnfs: $(modinfo -n lwnfs 2>&1)"
	fi
	# Both tests run: autodep8 prints debian/tests/control, then its own
	# test, and autopkgtest runs what it prints.  Ours is not superficial,
	# so all passing is status 0 (with autodep8's superficial test alone
	# it was 8, "all non-superficial tests were skipped"); a skip of ours
	# (no headers for the running kernel) would be 8 again.  The summary
	# has a line a test, "NAME<spaces>PASS".
	assert [ "$status" = 0 ]
	[[ $output =~ $'\n'"modprobe-mount "+"PASS"($'\n'|$) ]]
	[[ $output =~ $'\n'"dkms-autopkgtest "+"PASS" ]]
	# Its summary, a line a kernel: "I: PASS KERNEL" from bookworm's dkms
	# 3.0, "I: PASS lwnfs/VERSION KERNEL" from trixie's 3.2.
	for k in $(kernels); do
		[[ $output =~ $'\n'"I: PASS "("lwnfs/$VERSION ")?"$k"$'\n' ]]
	done
	[[ $output != *"I: FAIL"* ]]
}

@test "purging lwnfs-dkms leaves nothing behind, for either kernel" {
	dpkg --purge lwnfs-dkms
	no_lwnfs_left
	assert [ ! -e /usr/share/doc/lwnfs-dkms ]
}
