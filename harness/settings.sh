# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source this
#
# The harness's settings, in one place: every script of harness/ and
# scripts/ that needs one sources this file.  Each can be set in the
# environment instead (LWNFS_CACHE=/srv/cache make check).

# Kernel images, roots, packages, initramfs images, the debug kernel and
# the matrix's logs are kept here between runs.
LWNFS_CACHE=${LWNFS_CACHE:-/var/cache/lwnfs}
# What a guest gets: MiB of memory and vCPUs (TCG runs one host thread
# per vCPU: two side by side on two cores run each other down).
LWNFS_GUEST_MEMORY=${LWNFS_GUEST_MEMORY:-1024}
LWNFS_GUEST_CPUS=${LWNFS_GUEST_CPUS:-2}
# Seconds a guest may take before it is stopped and counted as failed:
# the whole suite (make check), one matrix row, one boot of make
# check-life, anything else (demo, bench, fuzz, stress).
LWNFS_SUITE_TIMEOUT=${LWNFS_SUITE_TIMEOUT:-3600}
LWNFS_ROW_TIMEOUT=${LWNFS_ROW_TIMEOUT:-1800}
# One boot of the DKMS-life suites: apt installs headers and a kernel
# under TCG, 25 minutes when the machine is quiet.
LWNFS_LIFE_TIMEOUT=${LWNFS_LIFE_TIMEOUT:-3600}
LWNFS_TOOL_TIMEOUT=${LWNFS_TOOL_TIMEOUT:-1800}
# What in a guest's kernel log fails a run (case matters: "VFS: Warning:
# ... old stat() call" is no kernel bug).
LWNFS_KERNEL_BAD='BUG|WARNING|Oops|[Ll]eak|still in use|Busy inodes|Call Trace|UBSAN|general protection'
# Hours between two checks for a newer kernel in a root's archive.
LWNFS_ROOT_CHECK=${LWNFS_ROOT_CHECK:-12}

# lwnfs_series RELEASE: the kernel series, "6.1" for "6.1.0-57-amd64".
lwnfs_series() {
	local major=${1%%.*} rest=${1#*.}
	echo "$major.${rest%%[!0-9]*}"
}

# lwnfs_root_release ROOT: the release of the one kernel image in ROOT/boot
# (a root made by root.sh); says so and fails when there is not exactly one.
lwnfs_root_release() {
	local images=("$1"/boot/vmlinuz-*)
	if [ "${#images[@]}" != 1 ] || [ ! -r "${images[0]}" ]; then
		echo "${0##*/}: no single kernel image in $1/boot" >&2
		return 1
	fi
	echo "${images[0]#"$1"/boot/vmlinuz-}"
}

# lwnfs_copy_tree ROOT DEST: a fresh copy of this tree's tracked and new
# files at ROOT/DEST (for a build inside a root), none of the host's
# objects; root-build.sh's and cross-build.sh's.
lwnfs_copy_tree() {
	local root=${1:?} dest=${2:?} src
	src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	rm -rf --one-file-system "$root$dest"
	mkdir -p "$root$dest"
	if ! (cd "$src" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 cp --parents -t "$root$dest"); then
		echo "${0##*/}: copying the tree to $root$dest failed" >&2
		return 1
	fi
}
