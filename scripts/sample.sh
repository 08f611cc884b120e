#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/sample.sh KSRC OUT
#
# make sample: write OUT, a patch for the kernel tree KSRC that adds lwnfs
# as samples/lwnfs (CONFIG_SAMPLE_LWNFS, a module only), in the form the
# kernel takes: lwnfs.c as it is, less lwnfs.h.  The steps are mechanical,
# so that the sample is always this tree's lwnfs.c:
#  - the constants of lwnfs.h (LWNFS_MAGIC to LWNFS_DEFAULT_MAX_COUNTERS)
#    take the place of its #include; the compatibility part is dropped;
#  - the two names lwnfs.h adapts for older kernels get the newest
#    kernel's form: lwnfs_iop_NAME is lwnfs_NAME, lwnfs_result_uid(fc,
#    &result) and lwnfs_result_gid() are result.uid and result.gid.
# MAINTAINERS gets a section with the list and no maintainer (Orphan),
# and the patch no Signed-off-by: whoever sends it adds both.  Fails
# with one line when lwnfs.c or lwnfs.h no longer hold what a step needs.
set -euo pipefail

usage="usage: scripts/sample.sh KSRC OUT"
ksrc=$(realpath -- "${1:?$usage}") out=$(realpath -m -- "${2:?$usage}")
cd "$(dirname "$0")/.."
# The patch is git's, not the user's: no diff.noprefix, no signoff, no hooks.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
for f in MAINTAINERS samples/Kconfig samples/Makefile; do
	[ -f "$ksrc/$f" ] || { echo "sample: $ksrc has no $f: not a kernel tree" >&2; exit 1; }
done
[ -x "$(command -v git)" ] || { echo "sample: git is not installed" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$work" init -q
git -C "$work" config user.name lwnfs
git -C "$work" config user.email lwnfs@localhost
mkdir -p "$work/samples/lwnfs"
cp "$ksrc/samples/Kconfig" "$ksrc/samples/Makefile" "$work/samples/"
cp "$ksrc/MAINTAINERS" "$work/"
git -C "$work" add MAINTAINERS samples
git -C "$work" commit -q -m base

perl scripts/sample.pl c lwnfs.c lwnfs.h >"$work/samples/lwnfs/lwnfs.c"
cat >"$work/samples/lwnfs/Makefile" <<'EOF'
# SPDX-License-Identifier: GPL-2.0
obj-$(CONFIG_SAMPLE_LWNFS) += lwnfs.o
EOF
perl scripts/sample.pl kbuild "$work/samples/Kconfig" "$work/samples/Makefile"
perl scripts/sample.pl maintainers "$work/MAINTAINERS"

git -C "$work" add MAINTAINERS samples
git -C "$work" commit -q -F - <<'EOF'
samples: add lwnfs, a filesystem of counter files

lwnfs is a modern port of the libfs example of Jonathan Corbet's LWN
article "Creating Linux virtual filesystems" (2002): a filesystem whose
files are counters kept in the dentry cache.  Reading a counter returns
its value and increments it, atomically; writing a decimal number sets
it.  It shows the fs_context API (init_fs_context, get_tree_single,
simple_fill_super), a tree that lives in the dentry cache alone, read
and write through iov_iter, mount options with fs_parse() and remount,
and directories and counters that users make, with their own limit.
EOF
git -C "$work" format-patch -q -1 --stdout >"$out"
echo "sample: $out"
