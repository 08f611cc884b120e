#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/images/debug-kernel.sh [debug|kcsan]
#
# Build once, cached, a checking kernel from Debian's linux-source, and
# print its build directory: arch/x86/boot/bzImage, KDIR for lwnfs, and
# modroot/, its /lib/modules.  Rebuilt, incrementally, when the source,
# a fragment or this script changes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/settings.sh
. "$here/../settings.sh"
flavour=${1:-debug}
fragments=("$here/kconfig/guest.config" "$here/kconfig/$flavour.config")
[ -r "${fragments[1]}" ] || { echo "debug-kernel: no $flavour.config in $here/kconfig" >&2; exit 2; }
"$here/../deps.sh" debug
series=$(lwnfs_series "$("$here/../boot/distro-kernel.sh")")
tarball=/usr/src/linux-source-$series.tar.xz
src=$LWNFS_CACHE/linux-src-$series
dir=$LWNFS_CACHE/kernel-$series-$flavour
# One build at a time: the flavours share the unpacked source, and a
# second caller waits, then finds the kernel built.
mkdir -p "$LWNFS_CACHE"
exec 9>"$LWNFS_CACHE/debug-kernel.lock"
flock 9

source_stamp=$(stat -c %Y "$tarball")
if [ "$(cat "$src/.lwnfs-unpacked" 2>/dev/null)" != "$source_stamp" ]; then
	rm -rf "$src"
	mkdir -p "$src"
	tar -xf "$tarball" -C "$src" --strip-components=1
	echo "$source_stamp" >"$src/.lwnfs-unpacked"
fi

# The fragments and this script (how they are merged and built).
stamp="$source_stamp $(cat "${fragments[@]}" "$0" | sha256sum | cut -c1-16)"
if [ -f "$dir/.lwnfs-built" ] && [ "$(cat "$dir/.lwnfs-built")" = "$stamp" ]; then
	echo "$dir"
	exit 0
fi
# A build from another source starts over; a changed fragment only
# reconfigures, and kbuild rebuilds what the change touches.
[ "$(cat "$dir/.lwnfs-source" 2>/dev/null)" = "$source_stamp" ] || rm -rf "$dir"
mkdir -p "$dir"
echo "$source_stamp" >"$dir/.lwnfs-source"
rm -f "$dir/.lwnfs-built"

start=$SECONDS
{
	"$src/scripts/kconfig/merge_config.sh" -m -O "$dir" "$src/arch/x86/configs/x86_64_defconfig" \
		"$src/kernel/configs/kvm_guest.config" "${fragments[@]}"
	make -C "$src" O="$dir" olddefconfig
	make -C "$src" O="$dir" -j"$(nproc)" bzImage modules
	rm -rf "$dir/modroot"
	make -C "$src" O="$dir" modules_install INSTALL_MOD_PATH="$dir/modroot"
} >"$dir/build.log" 2>&1 || {
	tail -n 30 "$dir/build.log" >&2
	echo "debug-kernel: the build failed; log in $dir/build.log" >&2
	exit 1
}
# What the fragments ask for is what was built: a symbol whose
# dependencies are missing is dropped without a word.
missing=0
while read -r line; do
	case $line in
	CONFIG_*) grep -qxF -- "$line" "$dir/.config" || { echo "debug-kernel: $line did not stick" >&2; missing=1; } ;;
	"# CONFIG_"*" is not set")
		name=${line#\# }
		name=${name%% *}
		! grep -q "^$name=" "$dir/.config" || { echo "debug-kernel: $name is still set" >&2; missing=1; } ;;
	esac
done < <(cat "${fragments[@]}")
[ "$missing" = 0 ] || exit 1
echo "$stamp" >"$dir/.lwnfs-built"
echo "debug-kernel: $flavour kernel built in $((SECONDS - start)) s" >&2
echo "$dir"
