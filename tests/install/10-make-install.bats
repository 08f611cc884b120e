#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# make install and make uninstall, as a user without DKMS does them.

load ../helpers

teardown() {
	unload_lwnfs
}

@test "make install, then modprobe loads it by name and mount autoloads it" {
	make -C "$TREE" install KERNELRELEASE="$(uname -r)"
	# compressed as the kernel's own modules are (.ko.xz on 6.12 and
	# later)
	assert [ "$(modinfo -n lwnfs)" = "/lib/modules/$(uname -r)/extra/lwnfs.ko$(module_suffix)" ]
	assert [ -f /usr/local/share/man/man5/lwnfs.5 ]
	cmp "$TREE/docs/walkthrough.md" /usr/local/share/doc/lwnfs/walkthrough.md
	modprobe lwnfs
	grep -q '^lwnfs ' /proc/modules
	rmmod lwnfs
	mkdir -p "$MNT"
	mount -t lwnfs lwnfs "$MNT"
	grep -q '^lwnfs ' /proc/modules
	assert [ "$(cat "$C")" = 0 ]
	# make uninstall undoes it all, so that DKMS tests find no stray copy.
	unload_lwnfs
	make -C "$TREE" uninstall KERNELRELEASE="$(uname -r)"
	run ! modinfo lwnfs
	assert [ ! -e /usr/local/share/man/man5/lwnfs.5 ]
	assert [ ! -e /usr/local/share/doc/lwnfs ]
}

@test "without the headers, make, make install and make dkms-install stop in one line, touching nothing" {
	local rel=9.9.9-none
	no_lwnfs_left
	touch "$BATS_TEST_TMPDIR/stamp"
	sleep 1
	for target in "" modules install dkms-install; do
		run make -C "$TREE" --no-print-directory $target KERNELRELEASE="$rel"
		echo "make $target: $output"
		assert [ "$status" -ne 0 ]
		assert [ "${#lines[@]}" = 1 ]
		[[ $output == *"no headers of Linux $rel in /lib/modules/$rel/build: apt install linux-headers-$rel"* ]]
	done
	assert [ ! -e "/lib/modules/$rel" ]
	assert [ -z "$(find "$TREE" -newer "$BATS_TEST_TMPDIR/stamp" -print -quit)" ]
	# What make install and make dkms-install would have written.
	assert [ ! -e /usr/local/share/man/man5/lwnfs.5 ]
	assert [ ! -e /usr/local/share/doc/lwnfs ]
	no_lwnfs_left
}
