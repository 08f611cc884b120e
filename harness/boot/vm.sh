#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/boot/vm.sh [-r ROOT [-w [-s]]] [-k RELEASE] [-K IMAGE -M MODROOT] [-t SECONDS]
#              [-o DIR] [-a REGEX] [-c] [-A PARAMS] [-U VARS] [-i] [--] COMMAND...
#
# Run COMMAND as root, in this directory, with this environment's LWNFS_*
# variables, in a QEMU guest booted on kernel RELEASE (default: the
# distro's) on the machine tests/data/machines gives it, the host's root
# read-only over 9p under a tmpfs overlay; its output streams here.
# Exits with COMMAND's status, LWNFS_EXIT_KERNEL_LOG or
# LWNFS_EXIT_GUEST_LOST (settings.sh).
#  -r ROOT    a root made by root.sh, its kernel and modules; this
#             directory and vm.sh must be inside it
#  -w         written through to ROOT, no overlay, for the next boot
#  -s         ROOT's systemd is PID 1; COMMAND runs once the boot is over
#  -K IMAGE -M MODROOT  a kernel built here, and its INSTALL_MOD_PATH
#  -t SECONDS the guest's time (default LWNFS_TOOL_TIMEOUT)
#  -o DIR     gets what COMMAND leaves in $LWNFS_OUT, and vm.json
#  -a REGEX   kernel-log lines that are no problem; -c: nor a stack's
#             header (for a COMMAND that checks each stack itself)
#  -A PARAMS  more kernel parameters
#  -U VARS    boot through UEFI Secure Boot, VARS its variable store
#  -i         then an interactive shell on this terminal
# A board with no virtio boots ROOT from an SD card (boot-sdcard.sh).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/settings.sh
. "$here/../settings.sh"
# shellcheck source=harness/boot/boot-sdcard.sh
. "$here/boot-sdcard.sh"
# shellcheck source=harness/boot/boot-uefi.sh
. "$here/boot-uefi.sh"
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
# The unit goes into the root, and the boot changes it.
[ -z "$systemd" ] || [ -n "$writable" ] || { echo "vm: -s needs -r ROOT -w" >&2; exit 2; }
# What runs in the guest: harness/guest, beside this folder.
guest=${here%/*}/guest
cwd=$PWD init=$guest/init.sh
if [ -n "$root" ]; then
	# The guest sees ROOT as /.
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

cache=$LWNFS_CACHE/initramfs
mkdir -p "$cache"

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
[ "$bus" != sd ] || sdcard_check
[ -z "$vars" ] || uefi_check

# Remade when the modules change: a remade root has a new modules.dep.
initrd=$cache/${root:+$(basename "$root")-}$release.cpio.gz
if [ ! -s "$initrd" ] || [ "$here/initramfs.sh" -nt "$initrd" ] ||
	[ "$modroot/lib/modules/$release/modules.dep" -nt "$initrd" ]; then
	"$here/initramfs.sh" "$release" "$initrd" "$modroot" "$bus"
fi

# KVM only where a vCPU really runs: some hosts have a /dev/kvm on which
# QEMU starts a guest whose vCPU never runs.  Tried once per host boot.
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

results=$(mktemp -d) work=$(mktemp -d)
units=()
trap 'rm -rf "$results" "$work" "${units[@]}"' EXIT
# -s: a unit that runs booted.sh, wanted by every target a boot can end
# in.  It survives the isolation into emergency.target; as a simple
# service, the boot's jobs can finish while it waits for them.
if [ -n "$systemd" ]; then
	init=/sbin/init
	unit=$root/etc/systemd/system/lwnfs-vm.service
	units=("$unit")
	cat >"$unit" <<UNIT
# Put here by harness/boot/vm.sh -s for one boot; removed after it.
[Unit]
Description=lwnfs test command (harness/boot/vm.sh -s)
DefaultDependencies=no
IgnoreOnIsolate=yes

[Service]
Type=simple
ExecStart=/${guest#"$root"/}/booted.sh
UNIT
	for target in multi-user emergency rescue; do
		mkdir -p "$root/etc/systemd/system/$target.target.wants"
		ln -sf ../lwnfs-vm.service "$root/etc/systemd/system/$target.target.wants/"
		units+=("$root/etc/systemd/system/$target.target.wants/lwnfs-vm.service")
	done
fi
printf '%s\n' "$cwd" >"$results/cwd"
printf '%q ' "$@" >"$results/cmd"
while IFS='=' read -r name value; do
	printf 'export %s=%q\n' "$name" "$value"
done < <(env | grep '^LWNFS_[A-Z_]*=' || true) >"$results/env"
[ "$interactive" = 0 ] || touch "$results/interactive"
[ -z "$own_modules" ] || printf '%s\n' "$modroot/lib/modules/$release" >"$results/modules"
: >"$results/output"
mkdir "$results/out"

# 8 MiB of log: the guest checks that it still holds the run's first record.
append="console=$console panic_on_warn=1 oops=panic panic=-1 loglevel=4 log_buf_len=8M"
append+=" lwnfs_init=$init lwnfs_accel=$accel_name${writable:+ lwnfs_rw=1}${params:+ $params}"
# Under TCG the vCPUs' TSCs disagree and the kernel falls back to the
# emulated HPET, which slows every fork and exec.
[ "$bin/$accel_name" != qemu-system-x86_64/tcg ] || append+=" tsc=reliable"
# Under TCG a vCPU is a host thread that a loaded host can leave
# unscheduled for tens of seconds: the watchdogs' longest thresholds, so
# that they report the kernel, not the host.
[ "$accel_name" != tcg ] || append+=" watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=60"
qemu=("${machine[@]}" "${accel[@]}" -m "$memory" -smp "$cpus" -nodefaults -display none -no-reboot)
if [ "$bus" = sd ]; then
	sdcard_boot
else
	ro=,readonly=on
	[ -z "$writable" ] || ro=
	qemu+=(-fsdev "local,id=hostroot,path=${root:-/},security_model=none$ro,multidevs=remap"
		-device "virtio-9p-$bus,fsdev=hostroot,mount_tag=hostroot"
		-fsdev "local,id=results,path=$results,security_model=none"
		-device "virtio-9p-$bus,fsdev=results,mount_tag=results")
fi
if [ -n "$vars" ]; then
	uefi_boot
else
	qemu+=(-kernel "$kernel" -initrd "$initrd" -append "$append")
fi

if [ "$interactive" = 1 ]; then
	timeout --foreground "$timeout" "${qemu[@]}" -serial mon:stdio || true
else
	timeout "$timeout" "${qemu[@]}" -serial "file:$results/serial.log" &
	qpid=$!
	tail -n +1 --pid="$qpid" -f "$results/output"
	wait "$qpid" || true
fi
[ "$bus" != sd ] || sdcard_results

# The guest's size for harness/run-json.pl -V: a board's own is not
# settings.sh's.
if [ -n "$outdir" ]; then
	cp -r "$results/out/." "$outdir/"
	printf '{"cpus": %d, "memory_mib": %d}\n' "$cpus" "$memory" >"$outdir/vm.json"
fi
if [ ! -s "$results/rc" ]; then
	echo "vm: the guest did not finish (crash or ${timeout}s timeout); serial log:" >&2
	# From just before the first report, whose head names the bug.
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
