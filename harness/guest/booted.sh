#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/booted.sh
#
# The lwnfs-vm.service that vm.sh -s puts in a root runs this under the
# root's own systemd, as soon as systemd starts it: it waits until the
# boot is over, whatever the boot reached (multi-user.target, or the
# emergency target when a mount of /etc/fstab failed), says so on the
# console, and becomes command.sh with the whole boot's kernel log, the
# mounts of /etc/fstab included.
set -euo pipefail

mkdir -p /run/results
mountpoint -q /run/results ||
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results /run/results
# is-system-running exits non-zero for any state but "running": the
# state is what counts here, and the tests ask systemctl themselves.
state=$(systemctl is-system-running --wait) || :
echo "lwnfs-vm: the boot is over: ${state:-systemctl said nothing}" >/dev/console
exec "$(dirname "$0")/command.sh" 0
