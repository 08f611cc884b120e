# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # DKMS_* are for the bats files; bats's run sets status and output
#
# Shared by tests/secureboot/3*-uefi-*.bats (harness/uefi-mok.sh): guests
# booted through OVMF, shim and grub with Secure Boot on, whose root has
# lwnfs-dkms installed and DKMS's key in /var/lib/dkms.

load helpers

# DKMS's key pair, made when it first signed lwnfs, and the subject it
# gives the certificate.
DKMS_CERT=/var/lib/dkms/mok.pub
DKMS_KEY=/var/lib/dkms/mok.key
DKMS_SIGNER="DKMS module signing key"

# helpers.bash's setup_file wants the copies secureboot.sh signs: not
# these guests'.  Theirs: what mokutil and the tests read.
setup_file() {
	[ -d /sys/firmware/efi ] || { echo "tests/secureboot: not booted through UEFI (harness/uefi-mok.sh)" >&2; return 1; }
	mountpoint -q /sys/firmware/efi/efivars || mount -t efivarfs efivarfs /sys/firmware/efi/efivars
	mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security
}

teardown() {
	unload_lwnfs
}

# secure_boot_on: what "Secure Boot on" means here: the firmware says so
# through mokutil, the kernel saw it, and locked itself down for it
# (integrity, the mode Debian's kernel takes), no lockdown= parameter
# asking; and it enforces module signatures, no module.sig_enforce=
# asking either (IMA's architecture policy sets it under Secure Boot).
secure_boot_on() {
	run mokutil --sb-state
	echo "$output"
	assert [ "$status" = 0 ]
	assert [ "$output" = "SecureBoot enabled" ]
	dmesg | grep -F "secureboot: Secure boot enabled"
	[[ " $(cat /proc/cmdline) " != *" lockdown="* ]]
	[[ " $(cat /proc/cmdline) " != *" module.sig_enforce="* ]]
	assert [ "$(cat /sys/kernel/security/lockdown)" = "none [integrity] confidentiality" ]
	dmesg | grep -F "Kernel is locked down from EFI Secure Boot; see man kernel_lockdown.7"
	assert [ "$(cat /sys/module/module/parameters/sig_enforce)" = Y ]
}

# dkms_signed: lwnfs as DKMS installed it for this kernel, signed with
# DKMS's key: the signature's key is the certificate's serial number.
dkms_signed() {
	local serial
	assert [ "$(modinfo -F filename lwnfs)" = "/lib/modules/$(uname -r)/updates/dkms/lwnfs.ko" ]
	assert [ "$(modinfo -F signer lwnfs)" = "$DKMS_SIGNER" ]
	serial=$(openssl x509 -inform DER -in "$DKMS_CERT" -noout -serial)
	assert [ "$(modinfo -F sig_key lwnfs | tr -d :)" = "${serial#serial=}" ]
}
