#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/images/root-kernel.sh ROOT FLAVOUR   (root.sh's mmdebstrap hook)
#
# Install into the foreign-architecture root ROOT the kernel image and
# headers linux-image-FLAVOUR depends on, or the newest older ones the
# archive serves (served.bash's served_kernel), without the metapackages.
# Writes "PACKAGE VERSION CANDIDATE" to ROOT/.lwnfs-kernel: what was
# installed and the metapackage's version in the archive, which root.sh's
# check for a newer kernel compares.
set -euo pipefail

usage='usage: root-kernel.sh ROOT FLAVOUR'
root=${1:?$usage}
flavour=${2:?$usage}

# shellcheck source=harness/images/served.bash
. "$(dirname "$0")/served.bash"

arch=$(lwnfs_in_root "$root" dpkg --print-architecture)
read -r version image candidate < <(served_kernel image "$flavour" "$arch" headers) || exit 1
lwnfs_in_root "$root" apt-get install -y -q=2 --no-install-recommends \
	"$image=$version" "linux-headers-${image#linux-image-}=$version" >&2
echo "$image $version $candidate" >"$root/.lwnfs-kernel"
