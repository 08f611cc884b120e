#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# DKMS from a source checkout: make dkms-install and make dkms-remove.

load ../helpers

teardown() {
	unload_lwnfs
	make -s -C "$TREE" dkms-remove >/dev/null 2>&1 || true
}

@test "make dkms-install adds, builds and installs this tree; dkms-remove cleans up" {
	no_lwnfs_left
	run make -C "$TREE" dkms-install KERNELRELEASE="$(uname -r)"
	echo "$output"
	assert [ "$status" -eq 0 ]
	[[ $output != *eprecated* ]]
	assert [ "$(dkms_state)" = installed ]
	run ls "/usr/src/lwnfs-$VERSION"
	assert [ "$output" = "Kbuild
conftest.sh
dkms.conf
lwnfs.c
lwnfs.h" ]
	run modinfo -n lwnfs
	[[ $output == "/lib/modules/$(uname -r)/updates/dkms/lwnfs.ko"* ]]
	modprobe lwnfs
	assert [ "$(cat /sys/module/lwnfs/version)" = "$VERSION" ]
	rmmod lwnfs

	make -C "$TREE" dkms-remove
	no_lwnfs_left
}
