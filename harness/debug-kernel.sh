#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/debug-kernel.sh
# Build (once; then print from the cache) a sanitizer kernel from Debian's
# linux-source package: KASAN, KMEMLEAK, PROVE_LOCKING, DEBUG_ATOMIC_SLEEP,
# UBSAN, DEBUG_LIST and KFENCE, on x86_64_defconfig plus kvm_guest.config
# so virtio and 9p are built in, with module signing as Debian's kernels
# have it (not enforced), without debug info or the drivers a guest does
# not use.  Prints the build directory: arch/x86/boot/bzImage is the
# kernel, and lwnfs builds against it with KDIR=<dir>; <dir>/modroot holds
# its /lib/modules.  Rebuilt when the tarball or configure() changes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/settings.sh
. "$here/settings.sh"
"$here/deps.sh" debug
series=$(lwnfs_series "$("$here/distro-kernel.sh")")
tarball=/usr/src/linux-source-$series.tar.xz
dir=$LWNFS_CACHE/debug-kernel-$series

# configure: the sanitizer config, in the source tree.
configure() {
	make x86_64_defconfig
	make kvm_guest.config
	scripts/config --set-str LOCALVERSION -lwnfs-debug -d LOCALVERSION_AUTO \
		-e MODULES -e MODULE_UNLOAD -e MODULE_SIG -e MODULE_SIG_SHA256 -e OVERLAY_FS -e TMPFS \
		-e USER_NS -e DEVTMPFS -e BLK_DEV_INITRD -e RD_GZIP -e MAGIC_SYSRQ \
		-e DEBUG_INFO_NONE -d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_BTF \
		-e DEBUG_KERNEL -e KASAN -e KASAN_GENERIC -e KASAN_INLINE \
		-e DEBUG_KMEMLEAK -d DEBUG_KMEMLEAK_DEFAULT_OFF -d DEBUG_KMEMLEAK_AUTO_SCAN \
		-e PROVE_LOCKING -e DEBUG_ATOMIC_SLEEP -e UBSAN -e UBSAN_BOUNDS \
		-e DEBUG_LIST -e KFENCE -e DEBUG_FS
	# Trimmed for a 2-core build: the guest has a serial line and 9p
	# over virtio-pci, no display, sound, USB, disks or network cards.
	scripts/config -d DRM -d FB -d AGP -d SOUND -d USB_SUPPORT -d HID \
		-d INPUT_MOUSE -d INPUT_JOYSTICK -d INPUT_TABLET -d INPUT_TOUCHSCREEN \
		-d WIRELESS -d WLAN -d ETHERNET -d NETFILTER -d IPV6 -d NFS_FS \
		-d ATA -d SCSI -d MD -d PCCARD -d HIBERNATION
	# 4-level paging: QEMU's "-cpu max" offers LA57, and in 6.1
	# identify_cpu() clears the CPU's feature bits for a moment, so an
	# interrupt then sees pgtable_l5_enabled() false and KASAN reports a
	# wild access (about one boot in ten here).
	scripts/config -d X86_5LEVEL
	# Under TCG, ACPI's AML interpreter runs so slowly on this kernel
	# that working out PCI interrupt routing (_PRT) took a minute of
	# every boot, to a timeout: route them from the BIOS's table.
	scripts/config -e CMDLINE_BOOL --set-str CMDLINE pci=noacpi
	# No PREEMPT_DYNAMIC (Debian's default, voluntary, built in): with
	# it, PREEMPTION selects TASKS_RCU, and PROVE_RCU's early-boot
	# synchronize_rcu_tasks() self-test hung 4 boots in 7 under TCG.
	scripts/config -d PREEMPT_DYNAMIC -e PREEMPT_VOLUNTARY
	make olddefconfig
	echo "$stamp" >.lwnfs-configured
}

stamp="$(stat -c %Y "$tarball") $(declare -f configure | sha256sum | cut -c1-16)"
if [ -f "$dir/.lwnfs-built" ] && [ "$(cat "$dir/.lwnfs-built")" = "$stamp" ]; then
	echo "$dir"
	exit 0
fi

# An interrupted build resumes: the source and .config are kept until the
# tarball or configure() changes.
start=$SECONDS
if [ "$(cat "$dir/.lwnfs-configured" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xf "$tarball" -C "$dir" --strip-components=1
fi
cd "$dir"
{
	[ "$(cat .lwnfs-configured 2>/dev/null)" = "$stamp" ] || configure
	make -j"$(nproc)" bzImage modules
	make modules_install INSTALL_MOD_PATH="$dir/modroot"
} >>"$dir/build.log" 2>&1 || {
	tail -n 30 "$dir/build.log" >&2
	echo "debug-kernel: the build failed; log in $dir/build.log" >&2
	exit 1
}
for opt in CMDLINE_BOOL KASAN DEBUG_KMEMLEAK PROVE_LOCKING DEBUG_ATOMIC_SLEEP UBSAN DEBUG_LIST \
	KFENCE MODULE_SIG NET_9P_VIRTIO 9P_FS OVERLAY_FS VIRTIO_PCI; do
	grep -q "^CONFIG_$opt=y" .config || {
		echo "debug-kernel: CONFIG_$opt did not stick" >&2
		exit 1
	}
done
for opt in X86_5LEVEL TASKS_RCU; do
	! grep -q "^CONFIG_$opt=y" .config || {
		echo "debug-kernel: CONFIG_$opt is still set" >&2
		exit 1
	}
done
echo "$stamp" >.lwnfs-built
echo "debug-kernel: built in $((SECONDS - start)) s" >&2
echo "$dir"
