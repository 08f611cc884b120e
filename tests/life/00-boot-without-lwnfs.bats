#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The life of lwnfs-dkms, before it (harness/life.sh): a Debian machine
# booted by its own systemd, whose /etc/fstab has the line README.md and
# lwnfs.5 give, on a kernel with no lwnfs: the package is not installed
# yet, as on a kernel whose headers never came, whose build failed or
# whose kernel refuses the module.  Run once the boot is over
# (harness/boot/vm.sh -s).

load ../helpers

@test "booted by systemd: the documented fstab line and no lwnfs: multi-user, lwnfs.mount alone failed" {
	local state failed
	grep -E '^lwnfs +/lwnfs +lwnfs ' /etc/fstab
	assert [ "$(cat /proc/1/comm)" = systemd ]
	run ! modinfo lwnfs
	state=$(systemctl is-system-running) || :
	failed=$(systemctl list-units --state=failed --plain --no-legend | awk '{ print $1 }')
	echo "is-system-running: $state; failed units: ${failed:-none}"
	echo "multi-user.target, local-fs.target, emergency.target:" \
		"$(systemctl is-active multi-user.target local-fs.target emergency.target | tr '\n' ' ')"
	systemctl status --no-pager lwnfs.mount || :
	# The boot went on (nofail: local-fs.target only wants the mount)...
	assert [ "$(systemctl is-active multi-user.target)" = active ]
	assert [ "$(systemctl is-active local-fs.target)" = active ]
	run systemctl is-active emergency.target
	assert [ "$output" = inactive ]
	# ...and says what failed: the mount, for want of the filesystem.
	assert [ "$(systemctl is-active lwnfs.mount)" = failed ]
	assert [ "$failed" = lwnfs.mount ]
	assert [ "$state" = degraded ]
	journalctl -b -u lwnfs.mount --no-pager | grep -F "unknown filesystem type 'lwnfs'"
	run ! findmnt /lwnfs
}
