#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/images/secureboot-root.sh DEB
#
# Make afresh the root of harness/uefi-mok.sh's guests: the base root,
# this tree at /srv/lwnfs, and DEB (lwnfs-dkms) installed with apt in a
# chroot (not in the guest: slow under TCG), so that DKMS builds lwnfs
# and signs it with the key it makes.  The base, remade when its inputs
# change, is the bookworm life root with shim, MokManager, grub and
# mokutil from the host's archive, whose source it then forgets.
# Prints the root's path.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/settings.sh
. "$here/../settings.sh"
deb=$(realpath "${1:?usage: secureboot-root.sh DEB}")
[ -r "$deb" ] || { echo "secureboot-root: cannot read $deb" >&2; exit 1; }
packages="shim-signed grub-efi-amd64-signed mokutil"

dir=$LWNFS_CACHE/secureboot
base=$dir/base
root=$dir/bookworm-uefi
mkdir -p "$dir"
exec 9>"$dir/lock"
flock 9

log=$(mktemp)
mounted=''
trap 'rm -f "$log"; [ -z "$mounted" ] || umount "$mounted"' EXIT
pristine=$("$here/root.sh" bookworm-life 2>"$log") || {
	cat "$log" >&2
	echo "secureboot-root: the bookworm life root could not be made" >&2
	exit 1
}
release=$(lwnfs_root_release "$pristine")
record="$(cat "$pristine/.lwnfs-packages") kernel:$release secureboot:$packages"

# in_root ROOT COMMAND...: COMMAND in the chroot ROOT, its output in $log;
# shows it and stops when COMMAND fails.
in_root() {
	lwnfs_quiet "$log" "'${*:2}' failed in $1" lwnfs_in_root "$@"
}

# make_base: the base root, at $base.
make_base() {
	local sources file
	echo "secureboot-root: copying $pristine to $base, adding $packages" >&2
	rm -rf --one-file-system "$base.new"
	cp -a "$pristine" "$base.new"
	sources=$base.new/etc/apt/sources.list.d/lwnfs-secureboot.list
	lwnfs_apt_sources | while read -r uri suite signed components; do
		case $suite in bookworm | bookworm-updates | bookworm-security) ;; *) continue ;; esac
		[ "$signed" = - ] || uri="[signed-by=$signed] $uri"
		echo "deb $uri $suite $components"
	done >"$sources"
	[ -s "$sources" ] || {
		echo "secureboot-root: the host's apt sources name no bookworm archive" >&2
		exit 1
	}
	in_root "$base.new" apt-get -o Acquire::Languages=none update
	# shellcheck disable=SC2086 # the list is words
	in_root "$base.new" apt-get -y --no-install-recommends install $packages
	in_root "$base.new" apt-get clean
	rm "$sources"
	in_root "$base.new" apt-get -o Acquire::Languages=none update
	for file in /usr/lib/shim/shimx64.efi.signed /usr/lib/shim/mmx64.efi.signed \
		/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed /usr/bin/mokutil; do
		[ -e "$base.new$file" ] || { echo "secureboot-root: no $file in the root" >&2; exit 1; }
	done
	echo "$record" >"$base.new/.lwnfs-secureboot"
	rm -rf --one-file-system "$base"
	mv "$base.new" "$base"
}
[ "$(cat "$base/.lwnfs-secureboot" 2>/dev/null)" = "$record" ] || make_base

# The root of this run: the base, the tree, the package.
rm -rf --one-file-system "$root"
cp -a "$base" "$root"
lwnfs_copy_tree "$root" /srv/lwnfs
mkdir -p "$root/srv/lwnfs/build"
cp "$deb" "$root/srv/lwnfs/build/"
# kbuild and DKMS want /proc.
mount -t proc proc "$root/proc"
mounted=$root/proc
in_root "$root" apt-get -y --no-install-recommends install \
	"/srv/lwnfs/build/${deb##*/}" "linux-headers-$release"
umount "$mounted"
mounted=''
# What DKMS left: its key, and lwnfs for the root's kernel, signed with it.
ko=$root/lib/modules/$release/updates/dkms/lwnfs.ko
for file in "$root/var/lib/dkms/mok.key" "$root/var/lib/dkms/mok.pub" "$ko"; do
	[ -s "$file" ] || { cat "$log" >&2; echo "secureboot-root: DKMS left no $file" >&2; exit 1; }
done
signer=$(modinfo -F signer "$ko")
[ "$signer" = "DKMS module signing key" ] || {
	cat "$log" >&2
	echo "secureboot-root: $ko is signed by '$signer', not by DKMS's key" >&2
	exit 1
}
echo "$root"
