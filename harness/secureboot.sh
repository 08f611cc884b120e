#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/secureboot.sh   (make check-secureboot)
#
# tests/secureboot's sig_enforce and lockdown suites, a guest each on the
# distro's kernel, with lwnfs.ko unsigned and signed by a key made here
# that no kernel trusts; then harness/uefi-mok.sh's.
# LWNFS_SECUREBOOT_BREAK=no-enforcement boots the first two without the
# parameter; no-mok leaves uefi-mok.sh's enrollment out.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
# shellcheck source=harness/uefi-mok.sh
. harness/uefi-mok.sh
harness/deps.sh
release=${KERNELRELEASE:-$(harness/boot/distro-kernel.sh)}
case ${LWNFS_SECUREBOOT_BREAK:-} in
'' | no-enforcement | no-mok) ;;
*) echo "secureboot: unknown LWNFS_SECUREBOOT_BREAK=$LWNFS_SECUREBOOT_BREAK" >&2; exit 2 ;;
esac

log=$(mktemp)
trap 'rm -f "$log"' EXIT
lwnfs_quiet "$log" "the build failed" make --no-print-directory KERNELRELEASE="$release" modules
dir=build/secureboot
rm -rf "$dir"
mkdir -p "$dir"
lwnfs_quiet "$log" "openssl could not make the key" \
	openssl req -new -x509 -newkey rsa:2048 -nodes -days 2 -sha256 \
	-subj "/CN=lwnfs test key, trusted by no kernel/" \
	-keyout "$dir/key.pem" -outform DER -out "$dir/cert.der"
cp lwnfs.ko "$dir/lwnfs-unsigned.ko"
cp lwnfs.ko "$dir/lwnfs-untrusted.ko"
"/lib/modules/$release/build/scripts/sign-file" sha256 "$dir/key.pem" "$dir/cert.der" \
	"$dir/lwnfs-untrusted.ko"

total_passed=0 total_failed=0 total_skipped=0 status=0
for run in "10-sig-enforce module.sig_enforce=1" "20-lockdown lockdown=integrity"; do
	suite=${run%% *} params=${run#* }
	[ "${LWNFS_SECUREBOOT_BREAK:-}" != no-enforcement ] || params=''
	echo "secureboot: $suite, booted with '${params:-nothing more}'"
	harness/tap-run.sh "$dir/$suite.log" -k "$release" ${params:+-A "$params"} -- \
		bats --tap --timing "tests/secureboot/$suite.bats" || status=1
	lwnfs_tally "$dir/$suite.log"
done
echo "secureboot: UEFI Secure Boot through shim and grub, DKMS's key as a MOK (harness/uefi-mok.sh)"
uefi_mok
echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
[ "$status" = 0 ] && [ "$total_failed" = 0 ] && [ "$total_passed" -gt 0 ]
