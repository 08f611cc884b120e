#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/sample-check.sh   (make check-sample)
#
# make sample's patch in the next row's root, against its kernel's
# linux-source: it applies, passes checkpatch.pl --strict, builds W=1 C=1
# against the kernel's own config and Module.symvers; then the module's
# suites on that module in a guest of the row.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
row=next
harness/deps.sh
root=$(harness/images/root.sh "$row")
release=$(lwnfs_root_release "$root")
series=$(lwnfs_series "$release")
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
log=$logs/build.log

# run_in_root COMMAND...: COMMAND in the root, its output in $log; stops
# the script, showing it, when it fails.
run_in_root() {
	lwnfs_quiet "$log" "in $root: $* failed" lwnfs_in_root "$root" "$@"
}

# The suite the kernel came from gives the source and the tools that
# match its libraries (a backports kernel's libelf is the backport's).
run_in_root apt-get update
suite=$(lwnfs_in_root "$root" apt-cache policy "linux-image-$release" |
	awk '/^ \*\*\*/ { getline; split($3, s, "/"); print s[1]; exit }')
[ -n "$suite" ] || { echo "sample-check: no suite for linux-image-$release in $root" >&2; exit 1; }
run_in_root apt-get install -y --no-install-recommends -t "$suite" "linux-source-$series" \
	bc bison flex libssl-dev libelf-dev sparse xz-utils git python3

dir=/srv/sample
src=$dir/linux-source-$series
patch=$dir/0001-samples-add-lwnfs.patch
rm -rf --one-file-system "${root:?}$dir"
mkdir -p "$root$dir"
tar -xf "$root/usr/src/linux-source-$series.tar.xz" -C "$root$dir"
lwnfs_quiet "$log" "make sample failed" make --no-print-directory sample KSRC="$root$src" SAMPLE="$root$patch"

run_in_root git -C "$src" apply --check "$patch"
run_in_root git -C "$src" apply "$patch"
run_in_root sh -c "cd $src && scripts/checkpatch.pl --strict --no-signoff $patch"
echo "sample-check: checkpatch --strict: $(grep '^total:' "$log")"
# objtool reads the stack limit in /proc; the guest shares the root, so
# /proc is there only for the build.
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"; rm -rf "$logs"' EXIT
cp "$root/boot/config-$release" "$root$src/.config"
cp "$root/usr/src/linux-headers-$release/Module.symvers" "$root$src/"
run_in_root sh -c "cd $src && scripts/config --enable SAMPLES --module SAMPLE_LWNFS &&
	make olddefconfig KERNELRELEASE=$release && make -j$(nproc) modules_prepare KERNELRELEASE=$release"
# The kernel's own test of its checker: a sparse too old for the tree's
# headers (__typeof_unqual__) is one the tree does not run.
checker=(C=1)
run_in_root "$src/scripts/checker-valid.sh" sparse
if [ "$(cat "$log")" != 1 ]; then
	checker=()
	echo "sample-check: $(lwnfs_in_root "$root" sparse --version 2>&1) is too old for $release's headers: W=1 without sparse"
fi
run_in_root make -C "$src" -j"$(nproc)" KERNELRELEASE="$release" W=1 "${checker[@]}" M=samples/lwnfs modules
if grep -E 'warning|error' "$log" >&2; then
	echo "sample-check: the W=1${checker[*]:+ ${checker[*]}} build of samples/lwnfs has warnings" >&2
	exit 1
fi
echo "sample-check: built $src/samples/lwnfs/lwnfs.ko W=1${checker[*]:+ ${checker[*]}} for $release"
umount "$root/proc"
trap 'rm -rf "$logs"' EXIT

# The tree's own test programs, built in the root as the matrix builds them.
lwnfs_quiet "$log" "the build in $root failed" harness/images/root-build.sh "$root" "$release"
harness/tap-run.sh -R "$row" -C "$root/srv/lwnfs" "$logs/sample.log" -r "$root" -k "$release" \
	-t "$LWNFS_ROW_TIMEOUT" -- env LWNFS_KO="$src/samples/lwnfs/lwnfs.ko" bats --tap tests
