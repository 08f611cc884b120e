#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/vm.sh [-r ROOT [-w [-s]]] [-k RELEASE] [-K IMAGE -M MODROOT] [-t SECONDS]
#              [-o DIR] [-a REGEX] [-c] [-A PARAMS] [-U VARS] [-i] [--] COMMAND...
#
# Boot a Debian kernel (default: the distro's) in QEMU, with the host's root
# shared read-only over 9p under a tmpfs overlay (on a machine with no
# virtio, -r ROOT only: an SD card made from ROOT; below), run COMMAND as
# root in the current directory, with the LWNFS_* variables of this environment, and
# exit with its status.  With -r ROOT the guest's root is the directory
# ROOT instead (a Debian root made by root.sh): the kernel is
# ROOT/boot/vmlinu[zx]-RELEASE (default: the only one there), its modules come
# from ROOT, and the current directory and this script must be inside ROOT,
# where the guest finds them at the same path less ROOT; with -w the guest
# writes to ROOT itself, no overlay, so that what it installs is there
# for the next boot (the DKMS-life suites); with -s the guest boots as a
# Debian machine does, the root's own systemd as PID 1 reading its
# /etc/fstab, and COMMAND runs once the boot is over, whatever target it
# reached (from lwnfs-vm.service, which vm.sh puts in ROOT for the boot),
# and the kernel log checked is the whole boot's.  The guest's output streams
# here; the kernel log of the run is checked for the problems
# settings.sh's LWNFS_KERNEL_BAD names (BUG, WARNING, Oops, a leak, a call
# trace, a hung task, an RCU stall, ...), any of which fails the run:
# exit LWNFS_EXIT_KERNEL_LOG; a guest that does not finish (a crash, a
# hang, its time out) exits LWNFS_EXIT_GUEST_LOST; else COMMAND's status.  With -i the guest
# runs COMMAND and then an interactive shell on this terminal.  With -o,
# what COMMAND leaves in the guest's $LWNFS_OUT directory is copied to DIR,
# with vm.json: the guest's CPUs and MiB of memory.
# -K and -M boot a kernel built here: its image, and the directory its
# modules were installed into (INSTALL_MOD_PATH), which the guest sees as
# its /lib/modules.  -a REGEX: kernel-log lines that match it are not
# problems, for a COMMAND that checks those reports itself; a REGEX that
# matches one of settings.sh's LWNFS_KERNEL_BAD_SAMPLES (a KASAN report,
# a WARNING, an Oops, a leak, ...) is refused.  -c: a stack's "Call
# Trace:" line is not a problem either, for a COMMAND that checks each
# stack in the log itself (harness/guest/faults.sh).  -A PARAMS: more
# kernel parameters (module.sig_enforce=1, lockdown=integrity).
# -U VARS: boot as a Debian machine with UEFI Secure Boot does, in place
# of QEMU's -kernel (x86-64 only): OVMF's Secure Boot firmware
# (OVMF_CODE_4M.secboot.fd, harness/deps.sh secureboot) on a q35 machine
# with SMM, its variable store the file VARS, used and changed in place
# (a copy of OVMF_VARS_4M.ms.fd, whose keys are Microsoft's); an EFI
# system partition made for the boot, a FAT image as grub-install
# --removable lays it out: the root's (or the host's) shim-signed as
# EFI/BOOT/BOOTX64.EFI, MokManager beside it, and grub-efi-amd64-signed's
# grub, which reads EFI/debian/grub.cfg (its built-in prefix); that file
# boots the kernel and the initramfs, copied onto the partition, with the
# command line vm.sh gives either way.  shim checks grub, grub has shim
# check the kernel.
# A machine whose bus is "sd" in the table below (armel's rpi kernel on
# raspi0: no PCI, no virtio-mmio, so no 9p) gets its root, with -r ROOT
# only, as an ext4 SD card made from ROOT for the one boot, written to in
# place of an overlay, and finds what vm.sh hands it, and leaves what it
# hands back, in the card's /lwnfs-results, read back with debugfs once
# the guest is off (its output then, not as it comes); with the memory
# and the one CPU the board has.  -w, -s and -U are refused there.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/settings.sh
. "$here/settings.sh"
release='' timeout=$LWNFS_TOOL_TIMEOUT interactive=0 outdir='' kernel='' modroot='' root='' own_modules=''
allowed='^$' call_trace='^$' writable='' systemd='' params='' vars=''
while getopts r:wsk:K:M:t:o:a:cA:U:i opt; do
	case $opt in
	r) root=$(cd "$OPTARG" && pwd) ;;
	w) writable=1 ;;
	s) systemd=1 ;;
	k) release=$OPTARG ;;
	K) kernel=$OPTARG ;;
	M) modroot=$OPTARG own_modules=1 ;;
	t) timeout=$OPTARG ;;
	o) outdir=$OPTARG ;;
	a) allowed=$OPTARG status=0
		# An empty or broken pattern would let every problem through.
		grep -Eq -e "$allowed" </dev/null 2>/dev/null || status=$?
		if [ -z "$allowed" ] || [ "$status" != 1 ]; then
			echo "vm: -a needs a valid, non-empty extended regex" >&2
			exit 2
		fi
		# Nor may it let through a line that is always a problem.
		for line in "${LWNFS_KERNEL_BAD_SAMPLES[@]}"; do
			if grep -Eq -e "$allowed" <<<"$line"; then
				echo "vm: -a '$allowed' would let a kernel problem through: '$line'" >&2
				exit 2
			fi
		done ;;
	c) call_trace=$LWNFS_KERNEL_CALL_TRACE ;;
	A) params=$OPTARG ;;
	U) vars=$OPTARG
		[ -w "$vars" ] || { echo "vm: -U: cannot write $vars" >&2; exit 2; } ;;
	i) interactive=1 ;;
	*) echo "usage: vm.sh [-r ROOT [-w [-s]]] [-k RELEASE] [-K IMAGE -M MODROOT] [-t SECONDS] [-o DIR] [-a REGEX] [-c] [-A PARAMS] [-U VARS] [-i] [--] COMMAND..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "vm: no command given" >&2; exit 2; }
# Never the host's own root.
[ -z "$writable" ] || [ -n "$root" ] || { echo "vm: -w needs -r ROOT" >&2; exit 2; }
# The unit goes into the root, and the boot changes it: only a root
# written through.
[ -z "$systemd" ] || [ -n "$writable" ] || { echo "vm: -s needs -r ROOT -w" >&2; exit 2; }
cwd=$PWD init=$here/guest/init.sh
if [ -n "$root" ]; then
	# The guest sees ROOT as /: translate the paths it is handed.
	case $cwd/ in "$root"/*) cwd=/${cwd#"$root"/} ;; *)
		echo "vm: with -r, run from a directory inside $root" >&2; exit 2 ;;
	esac
	case $init in "$root"/*) init=/${init#"$root"/} ;; *)
		echo "vm: with -r, $init must be inside $root" >&2; exit 2 ;;
	esac
	[ -n "$release" ] || release=$(lwnfs_root_release "$root") || exit 2
fi
release=${release:-$("$here/distro-kernel.sh")}
modroot=${modroot:-${root:-/}}

kernel=${kernel:-$(lwnfs_kernel_image "$root" "$release")}
[ -r "$kernel" ] || { echo "vm: cannot read $kernel" >&2; exit 1; }

cache=$LWNFS_CACHE/initramfs  # kept between runs
mkdir -p "$cache"

# The machine to emulate: tests/data/machines' line for the kernel's
# configuration (the host's kernel, a root's, or one built here).
config=$(dirname "$kernel")/config-$release
if [ -n "$root" ] && [ ! -r "$config" ]; then
	echo "vm: cannot read $config (which machine does the kernel need?)" >&2
	exit 1
fi
option='' bin='' rest=''
read -r option bin rest < <(lwnfs_machine "$config") || true
if [ -z "$bin" ]; then
	echo "vm: no machine in tests/data/machines for the kernel of $config" >&2
	exit 1
elif [ "$bin" = none ]; then
	echo "vm: no QEMU machine boots this kernel (CONFIG_$option=y): $rest" >&2
	exit 1
fi
board='' cpu='' console='' bus='' memory='' cpus='' dtb='' package=''
read -r board cpu console bus memory cpus dtb package <<<"$rest"
[ "$memory" != - ] || memory=$LWNFS_GUEST_MEMORY
[ "$cpus" != - ] || cpus=$LWNFS_GUEST_CPUS
machine=("$bin")
[ "$board" = - ] || machine+=(-M "$board")
card=''
if [ "$bus" = sd ]; then
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
fi

# Remade when the modules change: a remade root has a new modules.dep.
initrd=$cache/${root:+$(basename "$root")-}$release.cpio.gz
if [ ! -s "$initrd" ] || [ "$here/initramfs.sh" -nt "$initrd" ] ||
	[ "$modroot/lib/modules/$release/modules.dep" -nt "$initrd" ]; then
	"$here/initramfs.sh" "$release" "$initrd" "$modroot" "$bus"
fi
# -U: what the boot through shim and grub needs.
firmware=/usr/share/OVMF/OVMF_CODE_4M.secboot.fd
shim=${root}/usr/lib/shim/shimx64.efi.signed
mokmanager=${root}/usr/lib/shim/mmx64.efi.signed
grub=${root}/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed
if [ -n "$vars" ]; then
	[ "$bin" = qemu-system-x86_64 ] || { echo "vm: -U boots x86-64 kernels only" >&2; exit 2; }
	for file in "$firmware:ovmf (harness/deps.sh secureboot)" "$shim:shim-signed" \
		"$mokmanager:shim-helpers-amd64-signed" "$grub:grub-efi-amd64-signed"; do
		[ -r "${file%%:*}" ] || {
			echo "vm: -U: ${file%%:*} is missing (${file#*:}${root:+ in $root})" >&2
			exit 1
		}
	done
	if ! command -v mkfs.fat >/dev/null || ! command -v mcopy >/dev/null; then
		echo "vm: -U: mkfs.fat or mcopy is missing (harness/deps.sh secureboot)" >&2
		exit 1
	fi
	# Secure Boot's firmware keeps its variables in SMM.
	machine+=(-M "q35,smm=on")
fi

# KVM only where a vCPU really runs: /dev/kvm alone is not enough (some
# hosts have it, and QEMU starts a KVM guest there, whose vCPU never
# runs).  The kernel must print its banner within 10 s; the verdict is
# kept until the host reboots.
kvm_runs() {
	local verdict
	verdict=$cache/kvm-$(cat /proc/sys/kernel/random/boot_id)
	if [ ! -e "$verdict" ]; then
		[ ! -w /dev/kvm ] || timeout 10 qemu-system-x86_64 -accel kvm -cpu host \
			-m 256 -nodefaults -display none -no-reboot -serial stdio \
			-kernel "$kernel" -append 'console=ttyS0 panic=-1' </dev/null 2>/dev/null |
			sed -n '/Linux version/{s/.*/yes/p;q}' >"$verdict" || true
		[ -s "$verdict" ] || echo no >"$verdict"
	fi
	[ "$(cat "$verdict")" = yes ]
}
accel=(-accel tcg) accel_name=tcg
[ "$cpu" = - ] || accel+=(-cpu "$cpu")
if [ "$bin" = qemu-system-x86_64 ] && kvm_runs; then
	accel=(-accel kvm -cpu host) accel_name=kvm
fi
command -v "$bin" >/dev/null || {
	echo "vm: $bin is missing ($package: harness/deps.sh foreign)" >&2
	exit 1
}

results=$(mktemp -d) work=$(mktemp -d) esp=''
units=()
trap 'rm -rf "$results" "$work" "${units[@]}" ${esp:+"$esp" "$esp.cfg"}' EXIT
# -s: the root's own init, and a unit that runs booted.sh once systemd
# has started it, wanted by the targets a boot can end in.  It stays
# through the isolation into emergency.target; started as a simple
# service, the boot's jobs can finish while it waits for them.
if [ -n "$systemd" ]; then
	init=/sbin/init
	unit=$root/etc/systemd/system/lwnfs-vm.service
	units=("$unit")
	cat >"$unit" <<UNIT
# Put here by harness/vm.sh -s for one boot; removed after it.
[Unit]
Description=lwnfs test command (harness/vm.sh -s)
DefaultDependencies=no
IgnoreOnIsolate=yes

[Service]
Type=simple
ExecStart=/${here#"$root"/}/guest/booted.sh
UNIT
	for target in multi-user emergency rescue; do
		mkdir -p "$root/etc/systemd/system/$target.target.wants"
		ln -sf ../lwnfs-vm.service "$root/etc/systemd/system/$target.target.wants/"
		units+=("$root/etc/systemd/system/$target.target.wants/lwnfs-vm.service")
	done
fi
printf '%s\n' "$cwd" >"$results/cwd"
printf '%q ' "$@" >"$results/cmd"
# LWNFS_* settings reach the command in the guest.
while IFS='=' read -r name value; do
	printf 'export %s=%q\n' "$name" "$value"
done < <(env | grep '^LWNFS_[A-Z_]*=' || true) >"$results/env"
[ "$interactive" = 0 ] || touch "$results/interactive"
[ -z "$own_modules" ] || printf '%s\n' "$modroot/lib/modules/$release" >"$results/modules"
: >"$results/output"
mkdir "$results/out"

ro=,readonly=on
[ -z "$writable" ] || ro=
# A ring of 8 MiB holds what the longest runs log (the guest checks
# that it still holds the run's first record).
append="console=$console panic_on_warn=1 oops=panic panic=-1 loglevel=4 log_buf_len=8M"
append+=" lwnfs_init=$init lwnfs_accel=$accel_name${writable:+ lwnfs_rw=1}${params:+ $params}"
[ "$bus" != sd ] || append+=" lwnfs_card=/dev/mmcblk0"
# Under TCG the vCPUs' TSCs are not in sync, so the kernel falls back to
# the HPET, an emulated device read on every clock read: with the TSC,
# forking and exec'ing (what bats does all day) take a third less time.
[ "$bin/$accel_name" != qemu-system-x86_64/tcg ] || append+=" tsc=reliable"
# Under TCG a vCPU is a host thread, which a loaded host of 2 CPUs can
# leave unscheduled for tens of seconds: the soft-lockup watchdog, which
# reports a CPU that ran no task switch for twice watchdog_thresh (10 s by
# default), then reports the host, not the kernel ("soft lockup - CPU#1
# stuck for 22s! [khugepaged:41]", a life guest's).  The longest
# threshold it takes, 60 s: a lockup of the kernel's own still shows,
# after 120 s.  So for RCU's stall warning (21 s by default): 60 s.
[ "$accel_name" != tcg ] || append+=" watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=60"
qemu=("${machine[@]}" "${accel[@]}" -m "$memory" -smp "$cpus" -nodefaults -display none -no-reboot)
if [ "$bus" != sd ]; then
	qemu+=(-fsdev "local,id=hostroot,path=${root:-/},security_model=none$ro,multidevs=remap"
		-device "virtio-9p-$bus,fsdev=hostroot,mount_tag=hostroot"
		-fsdev "local,id=results,path=$results,security_model=none"
		-device "virtio-9p-$bus,fsdev=results,mount_tag=results")
else
	# The card: ROOT, and room for what the suites install, in a size of
	# a power of two (QEMU takes no other); what vm.sh hands the guest in
	# its /lwnfs-results.
	card=$work/card
	size=$(du -sm "$root" | cut -f1) mib=1024
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
	dtb=$work/dtb
	pm=$(fdtget -tx "$dtb" /soc/watchdog@7e100000 reg 2>/dev/null || true)
	read -r -a pm <<<"$pm"
	[ "${#pm[@]}" -ge 2 ] ||
		{ echo "vm: $dtb: no power controller at /soc/watchdog@7e100000" >&2; exit 1; }
	fdtput -tx "$dtb" /soc/watchdog@7e100000 reg "${pm[0]}" "${pm[1]}"
	qemu+=(-dtb "$dtb" -drive "if=sd,format=raw,file=$card")
	# The board has no real-time clock: the guest's would start at 1970,
	# older than every file of the tree (and a test that sets a time of
	# 2001 would see its next change go back).  It takes the host's, as
	# the boot starts.
	append+=" lwnfs_time=$(date +%s)"
fi
if [ -z "$vars" ]; then
	qemu+=(-kernel "$kernel" -initrd "$initrd" -append "$append")
else
	# grub's script would read these as its own syntax.
	case $append in *[\$\;\"\'\\\{\}\|\&\<\>\#]*)
		echo "vm: -U: the command line has a character grub.cfg would interpret: $append" >&2
		exit 2 ;;
	esac
	esp=$(mktemp)
	cat >"$esp.cfg" <<GRUB
# harness/vm.sh -U: one boot of $release, no menu.
echo 'lwnfs-vm: grub boots /lwnfs/vmlinuz-$release'
linux /lwnfs/vmlinuz-$release $append
initrd /lwnfs/initrd.img
boot
GRUB
	# The files, 4 MiB for FAT's own, in KiB.
	size=$(du -kcL "$shim" "$mokmanager" "$grub" "$kernel" "$initrd" | tail -n 1 | cut -f1)
	rm -f "$esp"
	mkfs.fat -C -n LWNFS-ESP "$esp" $((size + 4096)) >/dev/null
	export MTOOLS_SKIP_CHECK=1
	mmd -i "$esp" ::/EFI ::/EFI/BOOT ::/EFI/debian ::/lwnfs
	mcopy -i "$esp" "$shim" ::/EFI/BOOT/BOOTX64.EFI
	mcopy -i "$esp" "$mokmanager" ::/EFI/BOOT/mmx64.efi
	mcopy -i "$esp" "$grub" ::/EFI/BOOT/grubx64.efi
	mcopy -i "$esp" "$esp.cfg" ::/EFI/debian/grub.cfg
	mcopy -i "$esp" "$kernel" "::/lwnfs/vmlinuz-$release"
	mcopy -i "$esp" "$initrd" ::/lwnfs/initrd.img
	rm "$esp.cfg"
	# The disk on the q35's SATA controller, as OVMF_VARS_4M.ms.fd's
	# boot entry for a disk has it.
	qemu+=(-global "driver=cfi.pflash01,property=secure,value=on"
		-drive "if=pflash,format=raw,unit=0,readonly=on,file=$firmware"
		-drive "if=pflash,format=raw,unit=1,file=$vars"
		-drive "if=none,id=esp,format=raw,file=$esp"
		-device "ide-hd,drive=esp,bus=ide.0")
fi

if [ "$interactive" = 1 ]; then
	timeout --foreground "$timeout" "${qemu[@]}" -serial mon:stdio || true
else
	timeout "$timeout" "${qemu[@]}" -serial "file:$results/serial.log" &
	qpid=$!
	tail -n +1 --pid="$qpid" -f "$results/output"
	wait "$qpid" || true
fi
if [ -n "$card" ]; then	# what the guest left on the card, and its output
	debugfs -R "rdump /lwnfs-results $work" "$card" >/dev/null 2>&1 || true
	[ ! -d "$work/lwnfs-results" ] || cp -r "$work/lwnfs-results/." "$results/"
	[ "$interactive" = 1 ] || cat "$results/output"
fi

# The guest's size for harness/run-json.pl -V: a board's own (raspi0's)
# is not settings.sh's.
if [ -n "$outdir" ]; then
	cp -r "$results/out/." "$outdir/"
	printf '{"cpus": %d, "memory_mib": %d}\n' "$cpus" "$memory" >"$outdir/vm.json"
fi
if [ ! -s "$results/rc" ]; then
	echo "vm: the guest did not finish (crash or ${timeout}s timeout); serial log:" >&2
	# From just before the first report, whose head names the bug; else
	# the tail.
	first=$(grep -n -m 1 -E "$LWNFS_KERNEL_BAD" "$results/serial.log" 2>/dev/null | cut -d: -f1 || true)
	if [ -n "$first" ]; then
		first=$((first > 10 ? first - 10 : 1))
		sed -n "$first,$((first + 90))p" "$results/serial.log"
	else
		tail -n 60 "$results/serial.log" 2>/dev/null || true
	fi >&2
	exit "$LWNFS_EXIT_GUEST_LOST"
fi
if [ -s "$results/dmesg-lost" ] || [ ! -e "$results/dmesg" ]; then
	echo "vm: the kernel log of the run cannot be checked: $(cat "$results/dmesg-lost" 2>/dev/null)" >&2
	exit "$LWNFS_EXIT_KERNEL_LOG"
fi
if grep -E "$LWNFS_KERNEL_BAD" "$results/dmesg" | grep -Ev -e "$allowed" -e "$call_trace" >"$results/bad"; then
	echo "vm: the kernel log of the run has problems:" >&2
	cat "$results/bad" >&2
	exit "$LWNFS_EXIT_KERNEL_LOG"
fi
exit "$(cat "$results/rc")"
