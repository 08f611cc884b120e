#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Booted through OVMF, shim and grub with Secure Boot on (harness/uefi-mok.sh),
# DKMS's key enrolled as a Machine Owner Key since the boot before: shim
# hands it to the kernel, which trusts it for modules.

load uefi

@test "UEFI Secure Boot: mokutil says enabled, the kernel locked itself down" {
	secure_boot_on
}

@test "the DKMS key is enrolled: mokutil --test-key and --list-enrolled say so" {
	run mokutil --test-key "$DKMS_CERT"
	echo "$output"
	assert [ "$output" = "$DKMS_CERT is already enrolled" ]
	run mokutil --list-enrolled
	echo "$output"
	[[ $output == *"Subject: CN=$DKMS_SIGNER"* ]]
}

@test "the kernel loaded the DKMS key from shim's MokListRT" {
	local id
	# The kernel names a key by its subject and its subject key identifier.
	id=$(openssl x509 -inform DER -in "$DKMS_CERT" -noout -ext subjectKeyIdentifier |
		sed -n 's/^ *\([0-9A-F:]*\)$/\1/p' | tr -d : | tr A-F a-f)
	assert [ -n "$id" ]
	dmesg | grep -F "Loading X.509 certificate: UEFI:MokListRT"
	dmesg | grep -F "Loaded X.509 cert '$DKMS_SIGNER: $id'"
}

@test "the DKMS-signed lwnfs loads, mounts and counts" {
	dkms_signed
	klog_mark
	modprobe lwnfs
	assert [ -d /sys/module/lwnfs ]
	# Out of tree (O), and signed with a key the kernel trusts: no E.
	assert [ "$(cat /sys/module/lwnfs/taint)" = O ]
	mkdir -p "$MNT"
	mount -t lwnfs lwnfs "$MNT"
	assert [ "$(cat "$C")" = 0 ]
	assert [ "$(cat "$C")" = 1 ]
	klog_since_mark >"$BATS_TEST_TMPDIR/klog"
	run ! grep -E "Lockdown|rejected|verification failed" "$BATS_TEST_TMPDIR/klog"
}
