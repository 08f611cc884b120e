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
# Kernel log lines each of which is a problem, as vm.sh reads the log
# (harness/guest/kmsg.pl's "[SECONDS] MESSAGE"): what vm.sh -a may never
# let through.  Each must match LWNFS_KERNEL_BAD.
LWNFS_KERNEL_BAD_SAMPLES=(
	'[   12.345678] BUG: KASAN: slab-use-after-free in lwnfs_take+0x1c4/0x2d0 [lwnfs]'
	'[   12.345678] BUG: kernel NULL pointer dereference, address: 0000000000000008'
	'[   12.345678] WARNING: CPU: 0 PID: 1 at fs/libfs.c:1792 simple_unlink+0x5a/0x70'
	'[   12.345678] Oops: 0000 [#1] PREEMPT SMP KASAN NOPTI'
	'[   12.345678] kmemleak: 1 new suspected memory leaks (see /sys/kernel/debug/kmemleak)'
	'[   12.345678] VFS: Busy inodes after unmount of lwnfs (lwnfs)'
	'[   12.345678] BUG: Dentry 00000000c3a1e1f0{i=5,n=seq}  still in use (1) [unmount of lwnfs lwnfs]'
	'[   12.345678] Call Trace:'
	'[   12.345678] UBSAN: shift-out-of-bounds in /srv/lwnfs/lwnfs.c:210:15'
	'[   12.345678] general protection fault, probably for non-canonical address 0xdffffc0000000003: 0000 [#1] SMP KASAN NOPTI'
)
# The one line vm.sh -c lets through: a stack's header, for a command
# that checks each stack in the log itself.
LWNFS_KERNEL_CALL_TRACE='^\[ *[0-9]+\.[0-9]+\] Call Trace:[[:space:]]*$'
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
