#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/booted.sh
# Run by the lwnfs-vm.service vm.sh -s puts in a root: wait until the
# root's systemd has finished booting, whatever it reached, then become
# command.sh with the whole boot's kernel log.
set -euo pipefail

mkdir -p /run/results
mountpoint -q /run/results ||
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results /run/results
# is-system-running exits non-zero for any state but "running": the
# state is what counts here, and the tests ask systemctl themselves.
state=$(systemctl is-system-running --wait) || :
echo "lwnfs-vm: the boot is over: ${state:-systemctl said nothing}" >/dev/console
exec "$(dirname "$0")/command.sh" 0
