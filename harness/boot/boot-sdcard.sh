# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154 # vm.sh's variables, which this reads and adds to
#
# vm.sh's boot on a board with no virtio, so no 9p (bus "sd" in
# tests/data/machines), with -r ROOT only: the guest's root is an ext4
# SD card made from ROOT for the boot.  What vm.sh hands the guest and
# the guest hands back is in the card's /lwnfs-results (guest/init.sh),
# read with debugfs once the guest is off: its output shows only then.
# Sourced by vm.sh: functions, called in this order.

# sdcard_check: refuse what the card cannot do, before anything is made;
# dtb becomes the path of the kernel's device tree for the board.
sdcard_check() {
	local tool
	[ -n "$root" ] || { echo "vm: $board boots a root made by root.sh (-r ROOT), as an SD card" >&2; exit 2; }
	[ -z "$writable$vars" ] || { echo "vm: -w, -s and -U need virtio, which $board has not" >&2; exit 2; }
	for tool in mke2fs:e2fsprogs debugfs:e2fsprogs fdtput:device-tree-compiler; do
		command -v "${tool%%:*}" >/dev/null ||
			{ echo "vm: ${tool%%:*} is missing (${tool#*:}: harness/deps.sh foreign)" >&2; exit 1; }
	done
	[ "$dtb" != - ] || { echo "vm: tests/data/machines gives $board no device tree" >&2; exit 1; }
	dtb=$root/usr/lib/linux-image-$release/$dtb
	[ -r "$dtb" ] || { echo "vm: cannot read $dtb" >&2; exit 1; }
	# What the guest hands back goes there: never an earlier run's.
	[ ! -e "$root/lwnfs-results" ] ||
		{ echo "vm: $root/lwnfs-results is in the way of the card's results" >&2; exit 1; }
}

# sdcard_boot: the card, in $work, with $results in its /lwnfs-results,
# and the device tree; adds them to qemu, and to append what the guest
# needs to find them.
sdcard_boot() {
	local card=$work/card size mib=1024 file pm
	# ROOT, and room for what the suites install, in a size of a power of
	# two (QEMU takes no other).
	size=$(du -sm "$root" | cut -f1)
	while [ "$mib" -lt $((size * 2 + 512)) ]; do mib=$((mib * 2)); done
	truncate -s "${mib}M" "$card"
	mke2fs -q -t ext4 -L lwnfs-root -d "$root" "$card"
	{
		echo "mkdir /lwnfs-results"
		echo "mkdir /lwnfs-results/out"
		for file in "$results"/*; do
			[ ! -f "$file" ] || echo "write $file /lwnfs-results/${file##*/}"
		done
	} | debugfs -w -f - "$card" >/dev/null 2>&1
	debugfs -R 'cat /lwnfs-results/cmd' "$card" 2>/dev/null | cmp -s - "$results/cmd" ||
		{ echo "vm: cannot write /lwnfs-results to the SD card $card" >&2; exit 1; }
	# The kernel's device tree less the ASB registers of its power
	# controller, which QEMU does not emulate: the power-domain driver
	# that their range brings up faults at boot reading them ("Unhandled
	# fault: external abort" in bcm2835_power_probe).  The first range,
	# the watchdog's, still powers the guest off.
	cp "$dtb" "$work/dtb"
	pm=$(fdtget -tx "$work/dtb" /soc/watchdog@7e100000 reg 2>/dev/null || true)
	read -r -a pm <<<"$pm"
	[ "${#pm[@]}" -ge 2 ] ||
		{ echo "vm: $dtb: no power controller at /soc/watchdog@7e100000" >&2; exit 1; }
	fdtput -tx "$work/dtb" /soc/watchdog@7e100000 reg "${pm[0]}" "${pm[1]}"
	qemu+=(-dtb "$work/dtb" -drive "if=sd,format=raw,file=$card")
	# The board has no real-time clock: the guest's would start at the
	# epoch, older than every file of the tree, and a test that sets an
	# old time would see its next change go back.  It takes the host's,
	# as the boot starts.
	append+=" lwnfs_card=/dev/mmcblk0 lwnfs_time=$(date +%s)"
}

# sdcard_results: what the guest left on the card, into $results; its
# output, unless it ran on this terminal.
sdcard_results() {
	debugfs -R "rdump /lwnfs-results $work" "$work/card" >/dev/null 2>&1 || true
	[ ! -d "$work/lwnfs-results" ] || cp -r "$work/lwnfs-results/." "$results/"
	[ "$interactive" = 1 ] || cat "$results/output"
}
