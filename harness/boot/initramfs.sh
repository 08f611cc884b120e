#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/boot/initramfs.sh RELEASE OUTPUT [MODROOT [BUS]]
#
# vm.sh's busybox initramfs for kernel RELEASE (modules and busybox from
# MODROOT, default /): the 9p root read-only under a tmpfs overlay, or
# written through with lwnfs_rw=1; BUS "sd": the ext4 card lwnfs_card names
# (harness/boot/boot-sdcard.sh).
set -euo pipefail

release=$1 out=$2 modroot=${3:-/} bus=${4:-pci}
modules='virtio_pci 9pnet_virtio 9p overlay'
[ "$bus" != sd ] || modules=ext4
moddir=$modroot/lib/modules/$release
[ -d "$moddir" ] || { echo "initramfs: no modules for $release in $moddir" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{bin,dev,proc,sys,lib/modules,lower,scratch,newroot}
# A root's own busybox (busybox-static of its architecture: an i386 or
# ARM kernel runs no x86-64 program), else the host's.
busybox=/bin/busybox
[ ! -x "$modroot/bin/busybox" ] || busybox=$modroot/bin/busybox
cp "$busybox" "$work/bin/busybox"

# Module files in load order, uncompressed so busybox insmod takes them.
[ -f "$moddir/modules.dep" ] || depmod -b "$modroot" "$release"
for mod in $modules; do
	modprobe -d "$modroot" -S "$release" --show-depends "$mod"
done | awk '$1 == "insmod" { print $2 }' | awk '!seen[$0]++' |
while read -r path; do
	name=$(basename "$path")
	case $name in
	*.ko.xz) xz -dc "$path" >"$work/lib/modules/${name%.xz}"; name=${name%.xz} ;;
	*.ko.zst) zstd -qdc "$path" >"$work/lib/modules/${name%.zst}"; name=${name%.zst} ;;
	*) cp "$path" "$work/lib/modules/$name" ;;
	esac
	echo "$name" >>"$work/lib/modules/order"
done

cat >"$work/init" <<'INIT'
#!/bin/busybox sh
# Stage 1: load drivers, build the root, hand over to $lwnfs_init.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t devtmpfs devtmpfs /dev
while read -r m; do insmod "/lib/modules/$m" || echo "init: insmod $m failed"; done </lib/modules/order
if [ -n "${lwnfs_card:-}" ]; then	# the SD card vm.sh made for this boot
	tries=0
	while [ ! -b "$lwnfs_card" ] && [ "$tries" -lt 300 ]; do sleep 0.1; tries=$((tries + 1)); done
	mount -t ext4 "$lwnfs_card" /newroot
elif [ "${lwnfs_rw:-}" = 1 ]; then	# vm.sh -w: the root itself, written through
	mount -t 9p -o trans=virtio,version=9p2000.L,rw,cache=loose,msize=512000 hostroot /newroot
else
	mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 hostroot /lower
	mount -t tmpfs -o mode=0755 scratch /scratch
	mkdir -p /scratch/upper /scratch/work
	mount -t overlay -o lowerdir=/lower,upperdir=/scratch/upper,workdir=/scratch/work root /newroot
fi
umount /proc /dev
# lwnfs_init=PATH on the kernel command line reaches us as a variable.
exec switch_root /newroot "$lwnfs_init"
INIT
chmod +x "$work/init"
(cd "$work" && find . | cpio --quiet -o -H newc | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
