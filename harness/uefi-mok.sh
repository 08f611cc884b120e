#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/uefi-mok.sh
#
# The second half of make check-secureboot: a real Secure Boot, as a
# Debian machine boots with it, and DKMS's own key enrolled as a Machine
# Owner Key.  lwnfs-dkms, built from this tree, is installed in a root
# made by secureboot-root.sh (bookworm's life root, its signed kernel,
# shim-signed, grub-efi-amd64-signed, mokutil), where DKMS builds lwnfs
# and signs it with the key it makes.  Then two guests boot that root
# through OVMF's Secure Boot firmware, Microsoft's keys enrolled, shim,
# grub and the kernel (vm.sh -U), sharing one variable store,
# build/uefi-mok/OVMF_VARS_4M.fd, a fresh copy of OVMF_VARS_4M.ms.fd:
#  - before enrollment (tests/secureboot/30-uefi-before-mok.bats): Secure
#    Boot on, the kernel locked down, and the DKMS-signed lwnfs refused;
#  - then mok-enroll.sh puts /var/lib/dkms/mok.pub into shim's MokList in
#    the store, as MokManager does at boot after "mokutil --import" (done
#    on the host: MokManager's prompts would be driven over a serial
#    console), and the second guest (31-uefi-after-mok.bats) shows the
#    key enrolled and lwnfs loading, mounting and counting.
# LWNFS_SECUREBOOT_BREAK=no-mok leaves the enrollment out, to see the
# second guest's tests fail when the key is not there.
# Prints each guest's TAP, how long each boot took, and a closing "N
# passed, N failed, N skipped" line; exits non-zero when a test fails or a
# guest does not finish.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
case ${LWNFS_SECUREBOOT_BREAK:-} in
'' | no-enforcement | no-mok) ;;
*) echo "uefi-mok: unknown LWNFS_SECUREBOOT_BREAK=$LWNFS_SECUREBOOT_BREAK" >&2; exit 2 ;;
esac
harness/deps.sh >/dev/null
harness/deps.sh secureboot >/dev/null
dir=$PWD/build/uefi-mok
rm -rf "$dir"
mkdir -p "$dir"
log=$dir/build.log
lwnfs_quiet "$log" "the package could not be built" scripts/build-deb.sh "$dir/deb"
version=$(sed -n 's/^#define LWNFS_VERSION[[:space:]]*"\(.*\)"/\1/p' lwnfs.h)
root=$(harness/secureboot-root.sh "$dir/deb/lwnfs-dkms_${version}_all.deb")
release=$(lwnfs_root_release "$root")
vars=$dir/OVMF_VARS_4M.fd
cp /usr/share/OVMF/OVMF_VARS_4M.ms.fd "$vars"

total_passed=0 total_failed=0 total_skipped=0
# A boot and its tests take half a minute under TCG: a chain that does
# not boot (a firmware, shim or grub that refuses) is stopped in 10.
timeout=600
# boot SUITE: a guest booted through shim and grub with $vars, running
# the bats SUITE; adds up its TAP.
boot() {
	local suite=$1 start=$SECONDS status=0
	harness/tap-run.sh -C "$root/srv/lwnfs" "$dir/$suite.log" -r "$root" -k "$release" \
		-U "$vars" -t "$timeout" -- bats --tap --timing "tests/secureboot/$suite.bats" || status=1
	lwnfs_tally "$dir/$suite.log"
	echo "uefi-mok: $suite: booted, ran and powered off in $((SECONDS - start)) s"
	return "$status"
}

status=0
echo "uefi-mok: $release through OVMF, shim and grub with Secure Boot; lwnfs-dkms $version installed, its key not enrolled"
boot 30-uefi-before-mok || status=1
if [ "${LWNFS_SECUREBOOT_BREAK:-}" = no-mok ]; then
	echo "uefi-mok: LWNFS_SECUREBOOT_BREAK=no-mok: the DKMS key is not enrolled"
else
	harness/mok-enroll.sh "$vars" "$root/var/lib/dkms/mok.pub"
fi
boot 31-uefi-after-mok || status=1
echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
[ "$status" = 0 ] && [ "$total_failed" = 0 ] && [ "$total_passed" -gt 0 ]
