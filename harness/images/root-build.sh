#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/images/root-build.sh ROOT RELEASE
#
# Build lwnfs W=1 for kernel RELEASE inside the Debian root ROOT (made by
# root.sh), with that root's own compiler and kbuild, as DKMS would on a
# machine running that release.  The build works on a copy of this tree at
# ROOT/srv/lwnfs (the same path inside the root and in its guest), so the
# work tree never sees a foreign kernel's objects.  The build's output goes
# to stdout; the exit status is make's.
set -euo pipefail

root=${1:?usage: root-build.sh ROOT RELEASE} release=${2:?usage: root-build.sh ROOT RELEASE}
# shellcheck source=harness/settings.sh
. "$(dirname "$0")/../settings.sh"
dest=/srv/lwnfs
chroot "$root" test -d "/lib/modules/$release/build" || {
	echo "root-build: no headers for $release in $root" >&2
	exit 1
}

lwnfs_copy_tree "$root" "$dest"

# objtool reads /proc; kbuild writes to /dev/null (root.sh's roots have it).
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT
make_in_root() {
	lwnfs_in_root "$root" make --no-print-directory -C "$dest" KERNELRELEASE="$release" "$@" 2>&1
}
make_in_root W=1 modules test-programs
# Again as a user builds it, so that make install in the guest finds it
# built (under TCG a rebuild there is slow).
make_in_root modules >/dev/null
