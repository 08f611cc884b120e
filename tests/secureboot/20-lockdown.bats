#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A kernel booted with lockdown=integrity (harness/secureboot.sh): the
# lockdown Debian's kernel puts itself in when UEFI Secure Boot is on,
# alone.  It does not set sig_enforce: the lockdown refuses what has no
# trusted signature.  (Under Secure Boot Debian's kernel enforces
# signatures too, and refuses as 10-sig-enforce.bats shows: see
# 30-uefi-before-mok.bats.)

load helpers

setup() {
	mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security
}

@test "lockdown=integrity: the kernel is locked down, sig_enforce is off" {
	grep -qw lockdown=integrity /proc/cmdline
	grep -qF '[integrity]' /sys/kernel/security/lockdown
	assert [ "$(cat /sys/module/module/parameters/sig_enforce)" = N ]
}

@test "lockdown: an unsigned lwnfs.ko is refused, nothing is loaded" {
	refused "$SB/lwnfs-unsigned.ko" "Operation not permitted" \
		"Lockdown: insmod: unsigned module loading is restricted; see man kernel_lockdown.7"
}

@test "lockdown: lwnfs.ko signed with a key the kernel does not trust is refused" {
	refused "$SB/lwnfs-untrusted.ko" "Operation not permitted" \
		"Lockdown: insmod: unsigned module loading is restricted; see man kernel_lockdown.7"
}

@test "lockdown: mount -t lwnfs says unknown filesystem type, modprobe says why" {
	installed_for_modprobe
	mount_refused "Operation not permitted" \
		"Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7"
}
