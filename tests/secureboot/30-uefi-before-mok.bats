#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Booted through OVMF, shim and grub with Secure Boot on (harness/uefi-mok.sh),
# lwnfs-dkms installed, DKMS's key not enrolled yet: what a user sees who
# installed the package and did not enroll the key.

load uefi

@test "UEFI Secure Boot: mokutil says enabled, the kernel locked itself down" {
	secure_boot_on
}

@test "DKMS built lwnfs for this kernel and signed it with its own key" {
	assert [ -s "$DKMS_KEY" ]
	assert [ "$(openssl x509 -inform DER -in "$DKMS_CERT" -noout -subject)" = "subject=CN = $DKMS_SIGNER" ]
	dkms_signed
}

@test "before enrollment: mokutil --test-key says the DKMS key is not enrolled" {
	run mokutil --test-key "$DKMS_CERT"
	echo "$output"
	assert [ "$output" = "$DKMS_CERT is not enrolled" ]
	run mokutil --list-enrolled
	echo "$output"
	[[ $output != *"CN=$DKMS_SIGNER"* ]]
}

@test "before enrollment: shim hands the kernel no DKMS key" {
	dmesg >"$BATS_TEST_TMPDIR/dmesg"
	grep -F "Loading X.509 certificate: UEFI:MokListRT" "$BATS_TEST_TMPDIR/dmesg"
	run ! grep -F "Loaded X.509 cert '$DKMS_SIGNER: " "$BATS_TEST_TMPDIR/dmesg"
}

@test "before enrollment: mount -t lwnfs says unknown filesystem type, modprobe lwnfs is refused" {
	mount_refused "Key was rejected by service" "Loading of module with unavailable key is rejected"
}
