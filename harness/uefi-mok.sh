# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154,SC2034 # secureboot.sh's variables, which this reads and sets
#
# The second half of make check-secureboot: a real Secure Boot, and
# DKMS's own key enrolled as a Machine Owner Key.  lwnfs-dkms of this
# tree is installed in secureboot-root.sh's root, where DKMS builds lwnfs
# and signs it with the key it makes.  Two guests boot that root through
# Secure Boot (vm.sh -U), sharing one variable store with Microsoft's
# keys: before the enrollment (lwnfs refused), and after mok-enroll.sh
# has put the key into shim's MokList, as MokManager would at boot after
# "mokutil --import" (its prompts would be driven over a serial console).
# Sourced by secureboot.sh, which runs uefi_mok from the top of the tree.

# uefi_mok: the root and the two guests; adds their figures to the totals
# and sets status to 1 when one fails.
uefi_mok() {
	local dir=$PWD/build/uefi-mok version
	harness/deps.sh secureboot >/dev/null
	rm -rf "$dir"
	mkdir -p "$dir"
	lwnfs_quiet "$dir/build.log" "the package could not be built" scripts/build-deb.sh "$dir/deb"
	version=$(sed -n 's/^#define LWNFS_VERSION[[:space:]]*"\(.*\)"/\1/p' lwnfs.h)
	uefi_root=$(harness/images/secureboot-root.sh "$dir/deb/lwnfs-dkms_${version}_all.deb")
	uefi_release=$(lwnfs_root_release "$uefi_root")
	uefi_vars=$dir/OVMF_VARS_4M.fd
	cp /usr/share/OVMF/OVMF_VARS_4M.ms.fd "$uefi_vars"
	echo "uefi-mok: $uefi_release through OVMF, shim and grub with Secure Boot; lwnfs-dkms $version installed, its key not enrolled"
	uefi_mok_boot 30-uefi-before-mok
	if [ "${LWNFS_SECUREBOOT_BREAK:-}" = no-mok ]; then
		echo "uefi-mok: LWNFS_SECUREBOOT_BREAK=no-mok: the DKMS key is not enrolled"
	else
		harness/boot/mok-enroll.sh "$uefi_vars" "$uefi_root/var/lib/dkms/mok.pub"
	fi
	uefi_mok_boot 31-uefi-after-mok
}

# uefi_mok_boot SUITE: tests/secureboot's SUITE in a guest booted through
# shim and grub.  Its two suites are short: a chain that does not boot
# (a firmware, shim or grub that refuses) is stopped after 600 s, not
# the whole suite's LWNFS_SUITE_TIMEOUT.
uefi_mok_boot() {
	local log=$PWD/build/uefi-mok/$1.log start=$SECONDS
	harness/tap-run.sh -C "$uefi_root/srv/lwnfs" "$log" -r "$uefi_root" -k "$uefi_release" \
		-U "$uefi_vars" -t 600 -- bats --tap --timing "tests/secureboot/$1.bats" || status=1
	lwnfs_tally "$log"
	echo "uefi-mok: $1: booted, ran and powered off in $((SECONDS - start)) s"
}
