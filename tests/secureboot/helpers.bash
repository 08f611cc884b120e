# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # SB is for the bats files; bats's run sets status and output
#
# Shared by tests/secureboot/*.bats (harness/secureboot.sh): lwnfs.ko as
# make builds it, unsigned, and a copy signed with a key no kernel trusts,
# in build/secureboot/.

load ../helpers

SB=$TREE/build/secureboot

# nothing_loaded: no lwnfs module, filesystem type or mount.
nothing_loaded() {
	assert [ ! -e /sys/module/lwnfs ]
	run ! grep -qw lwnfs /proc/modules
	run ! grep -qw lwnfs /proc/filesystems
	run ! grep -qw lwnfs /proc/mounts
}

# refused_by KLOG EXPECTED COMMAND...: COMMAND fails with status 1 and
# prints EXPECTED, the kernel log says KLOG, and nothing of lwnfs is left.
refused_by() {
	local klog=$1 expected=$2
	shift 2
	klog_mark
	run "$@"
	echo "$output"
	assert [ "$status" = 1 ]
	assert [ "$output" = "$expected" ]
	klog_since_mark | grep -F -- "$klog"
	nothing_loaded
}

# refused KO ERROR KLOG: insmod KO fails with ERROR, the log says KLOG.
refused() {
	refused_by "$3" "insmod: ERROR: could not insert module $1: $2" insmod "$1"
}

# installed_for_modprobe: the unsigned lwnfs.ko where make install puts
# it, known to modprobe (the guest's root is a throwaway overlay).
installed_for_modprobe() {
	install -D -m 644 "$SB/lwnfs-unsigned.ko" "/lib/modules/$(uname -r)/extra/lwnfs.ko"
	depmod -a "$(uname -r)"
	assert [ "$(modinfo -F filename lwnfs)" = "/lib/modules/$(uname -r)/extra/lwnfs.ko" ]
}

# mount_refused ERROR KLOG: mount -t lwnfs, which has the kernel run
# modprobe, fails with "unknown filesystem type"; modprobe itself with
# ERROR; the log says KLOG; nothing is left.
mount_refused() {
	mkdir -p "$MNT"
	run mount -t lwnfs lwnfs "$MNT"
	echo "$output"
	assert [ "$status" = 32 ]
	[[ $output == *"unknown filesystem type 'lwnfs'"* ]]
	refused_by "$2" "modprobe: ERROR: could not insert 'lwnfs': $1" modprobe lwnfs
}

setup_file() {
	if [ ! -f "$SB/lwnfs-unsigned.ko" ] || [ ! -f "$SB/lwnfs-untrusted.ko" ]; then
		echo "tests/secureboot: run by harness/secureboot.sh, which signs the copies" >&2
		return 1
	fi
}
