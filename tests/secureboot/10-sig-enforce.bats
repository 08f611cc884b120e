#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A kernel booted with module.sig_enforce=1 (harness/secureboot.sh):
# modules must carry a signature by a key it trusts.

load helpers

@test "module.sig_enforce=1: the kernel enforces module signatures" {
	grep -qw module.sig_enforce=1 /proc/cmdline
	assert [ "$(cat /sys/module/module/parameters/sig_enforce)" = Y ]
}

@test "sig_enforce: an unsigned lwnfs.ko is refused, nothing is loaded" {
	assert [ -z "$(modinfo -F signer "$SB/lwnfs-unsigned.ko")" ]
	refused "$SB/lwnfs-unsigned.ko" "Key was rejected by service" \
		"Loading of unsigned module is rejected"
}

@test "sig_enforce: lwnfs.ko signed with a key the kernel does not trust is refused" {
	assert [ "$(modinfo -F signer "$SB/lwnfs-untrusted.ko")" = "lwnfs test key, trusted by no kernel" ]
	refused "$SB/lwnfs-untrusted.ko" "Key was rejected by service" \
		"Loading of module with unavailable key is rejected"
}

@test "sig_enforce: mount -t lwnfs says unknown filesystem type, modprobe says why" {
	installed_for_modprobe
	mount_refused "Key was rejected by service" "Loading of unsigned module is rejected"
}
