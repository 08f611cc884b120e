# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154 # vm.sh's variables, which this reads and adds to
#
# vm.sh -U VARS: boot x86-64 as a Debian machine with UEFI Secure Boot
# does, in place of QEMU's -kernel: OVMF's Secure Boot firmware, its
# variable store VARS changed in place, and an EFI system partition laid
# out as grub-install --removable does: ROOT's (or the host's) signed
# shim, MokManager and grub, whose grub.cfg boots the kernel and the
# initramfs with vm.sh's command line.  shim checks grub, grub has shim
# check the kernel.
# Sourced by vm.sh: functions, called in this order.

uefi_firmware=/usr/share/OVMF/OVMF_CODE_4M.secboot.fd

# uefi_check: refuse a boot that cannot be made, before anything is;
# sets uefi_shim, uefi_mokmanager and uefi_grub.
uefi_check() {
	local file
	[ "$bin" = qemu-system-x86_64 ] || { echo "vm: -U boots x86-64 kernels only" >&2; exit 2; }
	uefi_shim=$root/usr/lib/shim/shimx64.efi.signed
	uefi_mokmanager=$root/usr/lib/shim/mmx64.efi.signed
	uefi_grub=$root/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed
	for file in "$uefi_firmware:ovmf (harness/deps.sh secureboot)" "$uefi_shim:shim-signed" \
		"$uefi_mokmanager:shim-helpers-amd64-signed" "$uefi_grub:grub-efi-amd64-signed"; do
		[ -r "${file%%:*}" ] || {
			echo "vm: -U: ${file%%:*} is missing (${file#*:}${root:+ in $root})" >&2
			exit 1
		}
	done
	if ! command -v mkfs.fat >/dev/null || ! command -v mcopy >/dev/null; then
		echo "vm: -U: mkfs.fat or mcopy is missing (harness/deps.sh secureboot)" >&2
		exit 1
	fi
}

# uefi_boot: the EFI system partition, in $work, booting kernel and initrd
# with append; adds it, the firmware and VARS to qemu.
uefi_boot() {
	local esp=$work/esp cfg=$work/grub.cfg size
	# grub's script would read these as its own syntax.
	case $append in *[\$\;\"\'\\\{\}\|\&\<\>\#]*)
		echo "vm: -U: the command line has a character grub.cfg would interpret: $append" >&2
		exit 2 ;;
	esac
	cat >"$cfg" <<GRUB
# harness/boot/vm.sh -U: one boot of $release, no menu.
echo 'lwnfs-vm: grub boots /lwnfs/vmlinuz-$release'
linux /lwnfs/vmlinuz-$release $append
initrd /lwnfs/initrd.img
boot
GRUB
	# The files, 4 MiB for FAT's own, in KiB.
	size=$(du -kcL "$uefi_shim" "$uefi_mokmanager" "$uefi_grub" "$kernel" "$initrd" |
		tail -n 1 | cut -f1)
	mkfs.fat -C -n LWNFS-ESP "$esp" $((size + 4096)) >/dev/null
	export MTOOLS_SKIP_CHECK=1
	mmd -i "$esp" ::/EFI ::/EFI/BOOT ::/EFI/debian ::/lwnfs
	mcopy -i "$esp" "$uefi_shim" ::/EFI/BOOT/BOOTX64.EFI
	mcopy -i "$esp" "$uefi_mokmanager" ::/EFI/BOOT/mmx64.efi
	mcopy -i "$esp" "$uefi_grub" ::/EFI/BOOT/grubx64.efi
	mcopy -i "$esp" "$cfg" ::/EFI/debian/grub.cfg
	mcopy -i "$esp" "$kernel" "::/lwnfs/vmlinuz-$release"
	mcopy -i "$esp" "$initrd" ::/lwnfs/initrd.img
	# Secure Boot's firmware keeps its variables in SMM; the disk where
	# OVMF_VARS_4M.ms.fd's boot entry looks, on the q35's SATA controller.
	qemu+=(-M "q35,smm=on" -global "driver=cfi.pflash01,property=secure,value=on"
		-drive "if=pflash,format=raw,unit=0,readonly=on,file=$uefi_firmware"
		-drive "if=pflash,format=raw,unit=1,file=$vars"
		-drive "if=none,id=esp,format=raw,file=$esp"
		-device "ide-hd,drive=esp,bus=ide.0")
}
