#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/checks/refusals-check.sh
#
# The one-line refusals a user meets before anything is touched (make,
# make install, harness/deps.sh), each on a faked host, with no build.
set -euo pipefail

cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/bin

problems=0 checked=0
problem() {
	echo "refusals: $*" >&2
	problems=$((problems + 1))
}
# expect NAME WANT [ok]: the last command ($rc, $out) refused with the one
# line WANT (make's "Makefile:N: *** " taken off); with ok, it succeeded
# saying WANT alone.
expect() {
	checked=$((checked + 1))
	out=${out#Makefile:*: \*\*\* }
	if [ "$out" != "$2" ] || { [ "$rc" = 0 ] && [ -z "${3:-}" ]; } || { [ "$rc" != 0 ] && [ -n "${3:-}" ]; }; then
		problem "$1: status $rc, said: ${out:-nothing}; wanted${3:+ only}: $2"
	fi
}
# run_in DIR COMMAND...: in DIR, the faked commands first in PATH (or
# PATH $path alone, where set); sets rc and out, $work in it written WORK.
run_in() {
	local dir=$1
	shift
	rc=0
	out=$(cd "$dir" && PATH=${path:-$bin:$PATH} "$@" 2>&1) || rc=$?
	out=${out//"$work"/WORK}
}

# --- No headers, by distribution --------------------------------------------
# "ID|ID_LIKE|release|package": the os-release a distribution ships (its
# ID and ID_LIKE; no ID, no os-release), a kernel release of it, the
# command its line names.
distros=(
	"debian||6.1.0-57-amd64|apt install linux-headers-6.1.0-57-amd64"
	"ubuntu|debian|6.8.0-45-generic|apt install linux-headers-6.8.0-45-generic"
	"linuxmint|ubuntu debian|6.8.0-45-generic|apt install linux-headers-6.8.0-45-generic"
	"fedora||6.11.4-301.fc41.x86_64|dnf install kernel-devel-6.11.4-301.fc41.x86_64"
	"rhel|fedora|5.14.0-427.13.1.el9_4.x86_64|dnf install kernel-devel-5.14.0-427.13.1.el9_4.x86_64"
	"centos|rhel fedora|5.14.0-503.el9.x86_64|dnf install kernel-devel-5.14.0-503.el9.x86_64"
	"rocky|rhel centos fedora|5.14.0-503.el9.x86_64|dnf install kernel-devel-5.14.0-503.el9.x86_64"
	"arch||6.11.5-arch1-1|pacman -S linux-headers"
	"opensuse-tumbleweed|opensuse suse|6.11.5-1-default|zypper install kernel-default-devel"
	"opensuse-leap|suse opensuse|6.4.0-150600.23.7-rt|zypper install kernel-rt-devel"
	"sles|suse|6.4.0-150600.23.7-default|zypper install kernel-default-devel"
	"nixos||6.6.58|install the package that provides WORK/none"
	"||6.6.58|install the package that provides WORK/none"
)
for d in "${distros[@]}"; do
	IFS='|' read -r id like release want <<<"$d"
	rm -f "$work/os-release"
	[ -z "$id" ] || printf 'NAME="faked"\nID=%s\n' "$id" >"$work/os-release"
	[ -z "$like" ] || printf 'ID_LIKE="%s"\n' "$like" >>"$work/os-release"
	for target in "" install dkms-install; do
		run_in . make -s --no-print-directory ${target:+"$target"} OS_RELEASE="$work/os-release" \
			KERNELRELEASE="$release" KDIR="$work/none"
		expect "${id:-no os-release}: make $target" "no headers of Linux $release in WORK/none: $want.  Stop."
	done
done

# --- make install: only what make built, for the kernel ------------------------
# In a copy of the tree; the faked kbuild's modules_install says what it
# was given, the faked depmod that it ran.
copy=$work/tree kdir=$work/kbuild release=9.9.9-lwnfs
mkdir -p "$copy/docs" "$kdir" "$bin"
cp Makefile Kbuild conftest.sh lwnfs.c lwnfs.h lwnfs.5 "$copy/"
cp docs/walkthrough.md "$copy/docs/"
cat >"$kdir/Makefile" <<'EOF'
modules_install:
	@echo "kbuild: modules_install M=$(M) INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) DEPMOD=$(DEPMOD)"
%:
	@echo "kbuild: $@ was asked for" >&2; exit 1
EOF
printf '#!/bin/sh\necho "depmod: $*"\n' >"$bin/depmod"
chmod +x "$bin/depmod"
# fake_ko VERMAGIC: a lwnfs.ko whose .modinfo gives that vermagic.
fake_ko() {
	printf 'name=lwnfs\0vermagic=%s SMP mod_unload \0' "$1" >"$work/modinfo"
	objcopy -I binary -O elf64-x86-64 -B i386:x86-64 --rename-section .data=.modinfo \
		"$work/modinfo" "$copy/lwnfs.ko"
}
install=(make -s --no-print-directory install KDIR="$kdir" KERNELRELEASE="$release" DESTDIR="$work/dest")
refused="install: lwnfs.ko is missing or older than its sources: run make first, as your user.  Stop."
run_in "$copy" "${install[@]}"
expect "make install, no lwnfs.ko" "$refused"
fake_ko "$release"
touch -d '1 hour ago' "$copy/lwnfs.ko"
run_in "$copy" "${install[@]}"
expect "make install, lwnfs.ko older than lwnfs.c" "$refused"
for vermagic in 6.1.0-57-amd64 '<unknown>'; do
	fake_ko "$vermagic"
	[ "$vermagic" != '<unknown>' ] || echo 'not a module' >"$copy/lwnfs.ko"
	run_in "$copy" "${install[@]}"
	expect "make install, lwnfs.ko built for $vermagic" \
		"install: lwnfs.ko is built for Linux $vermagic, not $release: run make KERNELRELEASE=$release first, as your user.  Stop."
done
checked=$((checked + 1))
[ ! -e "$work/dest" ] || problem "make install refused, and yet wrote $(find "$work/dest" | head -n 3 | tr '\n' ' ')"
# With DESTDIR, no depmod: it would read and write the host's modules.
fake_ko "$release"
run_in "$copy" "${install[@]}"
expect "make install DESTDIR=" \
	"kbuild: modules_install M=WORK/tree INSTALL_MOD_PATH=WORK/dest INSTALL_MOD_DIR=extra DEPMOD=true" ok
for f in usr/local/share/man/man5/lwnfs.5 usr/local/share/doc/lwnfs/walkthrough.md; do
	checked=$((checked + 1))
	[ -f "$work/dest/$f" ] || problem "make install DESTDIR=: no $f under DESTDIR"
done

# --- harness/deps.sh: Debian on amd64, or one line ------------------------------
# fakes DIR ARCH: apt-get and dpkg-query that fail loudly, and a dpkg that
# says ARCH, in DIR.
# shellcheck disable=SC2016 # the fakes' own $0, $1 and $*
fakes() {
	mkdir -p "$1"
	printf '#!/bin/sh\necho "FAKE $(basename "$0") RAN: $*" >&2\nexit 99\n' >"$1/apt-get"
	cp "$1/apt-get" "$1/dpkg-query"
	printf '#!/bin/sh\n[ "$1" = --print-architecture ] && echo %s\n' "$2" >"$1/dpkg"
	chmod +x "$1"/*
}
# deps NAME OS-RELEASE-ID PATH WANT
deps() {
	printf 'ID=%s\n' "$2" >"$work/os-release"
	OS_RELEASE="$work/os-release" path=$3 run_in . "$BASH" harness/deps.sh
	expect "deps.sh: $1" "deps: the test guests need Debian on amd64, with apt and dpkg: $4 (plain make builds lwnfs on any distribution: see README.md)"
}
mkdir -p "$work/empty"
fakes "$work/arm64" arm64
fakes "$work/amd64" amd64
deps "no apt" fedora "$work/empty" "this host has no apt-get or dpkg-query"
deps "arm64" debian "$work/arm64" "this host is arm64, and linux-image-amd64 is amd64's"
deps "Ubuntu" ubuntu "$work/amd64" "this host is Ubuntu, whose archive has no linux-image-amd64"
deps "Fedora with apt" fedora "$work/amd64" "this host is not Debian (WORK/os-release says ID=fedora)"

[ "$problems" = 0 ] || exit 1
echo "refusals: ok ($checked checked)"
