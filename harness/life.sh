#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/life.sh RELEASE...    (bookworm, trixie)
#
# make check-life: the life of the lwnfs-dkms package on a Debian user's
# machine, for each RELEASE, in three guests that write to one root, a
# fresh copy of RELEASE's life root (root.sh RELEASE-life: its kernel
# image without headers, systemd, and an offline archive of what apt
# installs), whose /etc/fstab gets the line README.md and lwnfs.5 give:
#  - a boot as the machine boots, the release's systemd as PID 1, on the
#    release's kernel with no lwnfs for it
#    (tests/life/00-boot-without-lwnfs.bats): the fstab line must not
#    stop the boot;
#  - first boot, on the release's kernel (tests/life/10-first-kernel.bats):
#    make without headers; the package installed without headers, then
#    the headers; an upgrade of the package to a higher version, built
#    here from this tree and not committed, while lwnfs is mounted and a
#    file open; the downgrade back; a kernel upgrade with apt, the
#    release's backports kernel, image and headers; a third kernel, the
#    release's cloud flavour, the package installed again with three
#    kernels, then that kernel removed;
#  - second boot, under systemd again, on the backports kernel, the same
#    root (tests/life/20-new-kernel.bats): lwnfs mounted from /etc/fstab
#    at boot; what DKMS built for the kernel on its own, modprobe, mount;
#    Debian's autopkgtest of the package (autodep8's dkms test and the
#    package's own); a purge that leaves nothing.
# LWNFS_LIFE_BREAK breaks the machine or both packages, to see the suites
# fail against a broken one: fstab-defaults gives /etc/fstab the line
# with "defaults" in place of the documented options (a boot that stops
# in the emergency target); new-kernel-fails builds them with a
# conftest.sh that finds no form of an API on any kernel but the running
# one (conftest-break.sh: the kernel upgrade's build fails, as on the day
# a kernel moves an API); no-build-all gives dkms an empty
# autoinstall_all_kernels (trixie's sets it) and leaves out the step
# that gives the third kernel its build (dkms autoinstall -k), both done
# by the guest;
# no-autoinstall builds them without AUTOINSTALL (no build
# for headers installed later, nor for a new kernel); keep-old gives them
# a prerm that does nothing (an upgrade or a downgrade leaves the old
# version in DKMS); no-dkms-depends drops dkms from their Depends (what
# the first check of Debian's autopkgtest for -dkms packages is there to
# find: it removes dkms and must then fail to build);
# LWNFS_LIFE_FILTER=REGEX runs only the tests whose names match it
# (bats --filter), in each boot (a boot none of whose tests match is
# not booted): the tests a break is meant to fail, and
# the ones they build on (each test goes on from the state the ones
# before it left; the second boot comes only when the first passed and
# installed a new kernel).
# Prints the TAP of each boot, with what every test printed, passed or
# not (what apt, dpkg and dkms said; the kernels DKMS built for), kept in
# $LWNFS_CACHE/life-logs, and a closing "N passed, N failed, N
# skipped" line; exits non-zero when a test fails or a guest does not
# finish.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
[ $# -gt 0 ] || { echo "usage: life.sh RELEASE... (bookworm trixie)" >&2; exit 2; }
harness/deps.sh
version=$(sed -n 's/^#define LWNFS_VERSION[[:space:]]*"\(.*\)"/\1/p' lwnfs.h)
next=${version%.*}.$((${version##*.} + 1))
logs=$LWNFS_CACHE/life-logs
mkdir -p "$logs"

# package VERSION OUTDIR: lwnfs-dkms of this tree at VERSION (broken as
# LWNFS_LIFE_BREAK says), built from a copy by that copy's build-deb.sh.
package() {
	local v=$1 out=$2 tmp
	tmp=$(mktemp -d)
	lwnfs_copy_tree "$tmp" /src
	sed -i "s/^#define LWNFS_VERSION.*/#define LWNFS_VERSION\t\t\"$v\"/" "$tmp/src/lwnfs.h"
	sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$v\"/" "$tmp/src/dkms.conf"
	if [ "$v" != "$version" ]; then
		{
			printf 'lwnfs (%s) unstable; urgency=medium\n\n' "$v"
			printf '  * A higher version, made by harness/life.sh for the upgrade tests.\n\n'
			printf ' -- lwnfs developers <dev@lwnfs.invalid>  %s\n\n' "$(date -R)"
			cat "$tmp/src/debian/changelog"
		} >"$tmp/changelog" && mv "$tmp/changelog" "$tmp/src/debian/changelog"
	fi
	case ${LWNFS_LIFE_BREAK:-} in
	'') ;;
	no-autoinstall) sed -i '/^AUTOINSTALL=/d' "$tmp/src/dkms.conf" ;;
	new-kernel-fails) harness/conftest-break.sh "$tmp/src/conftest.sh" ;;
	keep-old | no-dkms-depends | fstab-defaults | no-build-all) ;;
	*) echo "life: unknown LWNFS_LIFE_BREAK=$LWNFS_LIFE_BREAK" >&2; exit 2 ;;
	esac
	"$tmp/src/scripts/build-deb.sh" "$out" >/dev/null
	case ${LWNFS_LIFE_BREAK:-} in
	keep-old | no-dkms-depends)
		dpkg-deb -R "$out/lwnfs-dkms_${v}_all.deb" "$tmp/deb"
		if [ "$LWNFS_LIFE_BREAK" = keep-old ]; then
			# dh_dkms's prerm (dkms remove) replaced by one that does nothing.
			printf '#!/bin/sh\nexit 0\n' >"$tmp/deb/DEBIAN/prerm"
		else
			# dkms, with or without a version, out of the list.
			perl -i -ne 'if (/^Depends: (.*)/) { my @d = grep { !/^dkms(\s|$)/ } split /,\s*/, $1;
				print "Depends: ", join(", ", @d), "\n" if @d } else { print }' "$tmp/deb/DEBIAN/control"
			if grep -qE '^Depends:(.*[ ,])?dkms([ ,]|$)' "$tmp/deb/DEBIAN/control"; then
				echo "life: dkms still in $v's Depends" >&2
				exit 1
			fi
		fi
		dpkg-deb -b "$tmp/deb" "$out/lwnfs-dkms_${v}_all.deb" >/dev/null
		;;
	esac
	rm -rf "$tmp"
}

package "$version" "$PWD/build/life/deb"
package "$next" "$PWD/build/life/deb-next"

total_passed=0 total_failed=0 total_skipped=0
# The line README.md and lwnfs.5 give for /etc/fstab: the same in both.
fstab=$(grep -E '^lwnfs +/lwnfs +lwnfs ' README.md)
if [ "$(wc -l <<<"$fstab")" != 1 ] || [ "$fstab" != "$(grep -E '^lwnfs +/lwnfs +lwnfs ' lwnfs.5)" ]; then
	echo "life: README.md and lwnfs.5 do not give one and the same /etc/fstab line for /lwnfs" >&2
	exit 1
fi
[ "${LWNFS_LIFE_BREAK:-}" != fstab-defaults ] || fstab=$(awk '{ $4 = "defaults"; print }' <<<"$fstab")

# filtered_out SUITE: whether LWNFS_LIFE_FILTER leaves none of SUITE's tests.
filtered_out() {
	[ -n "${LWNFS_LIFE_FILTER:-}" ] &&
		! sed -n 's/^@test "\(.*\)" {$/\1/p' "$1" | grep -Eq -e "$LWNFS_LIFE_FILTER"
}

# boot [-s] ROOT RELEASE SUITE LOG: one guest on ROOT's kernel RELEASE
# running the bats SUITE, written through to ROOT (-s: booted by the
# root's own systemd); adds up its TAP.
boot() {
	local systemd=()
	[ "$1" != -s ] || { systemd=(-s); shift; }
	local root=$1 release=$2 suite=$3 log=$4 status=0
	if filtered_out "$suite"; then
		echo "life: $(basename "$log" .log): no test matches LWNFS_LIFE_FILTER: not booted"
		return 0
	fi
	LWNFS_NEXT_VERSION=$next harness/tap-run.sh -C "$root/srv/lwnfs" "$log" -r "$root" -w \
		"${systemd[@]}" -k "$release" -t "$LWNFS_LIFE_TIMEOUT" -- \
		bats --tap --timing --show-output-of-passing-tests \
		${LWNFS_LIFE_FILTER:+--filter "$LWNFS_LIFE_FILTER"} "$suite" || status=1
	lwnfs_tally "$log"
	return "$status"
}

for name; do
	case $name in
	bookworm | trixie) ;;
	*) echo "life: no life root for '$name' (bookworm trixie)" >&2; exit 2 ;;
	esac
	pristine=$(harness/root.sh "$name-life" 2>"$logs/$name-root.log") || {
		cat "$logs/$name-root.log" >&2
		echo "life: $name: the life root could not be made" >&2
		total_failed=$((total_failed + 1))
		continue
	}
	# Each run on a fresh copy: the guests change it for good.
	root=$LWNFS_CACHE/life/$name
	rm -rf --one-file-system "$root"
	mkdir -p "$root"
	cp -a "$pristine/." "$root/"
	first=$(lwnfs_root_release "$root")
	# A machine ID, as an installed machine has (mmdebstrap leaves the
	# file empty, for images): else systemd's boots are first boots.
	chroot "$root" systemd-machine-id-setup
	lwnfs_copy_tree "$root" /srv/lwnfs
	mkdir -p "$root/srv/lwnfs/build"
	cp -r build/life/deb build/life/deb-next "$root/srv/lwnfs/build/"
	printf '%s\n' "$fstab" >>"$root/etc/fstab"

	echo "life: $name: a boot under systemd, $first, no lwnfs: /etc/fstab has '$fstab'"
	boot -s "$root" "$first" tests/life/00-boot-without-lwnfs.bats "$logs/$name-boot.log" || continue
	echo "life: $name: first boot, $first"
	boot "$root" "$first" tests/life/10-first-kernel.bats "$logs/$name-first.log" || continue
	second=''
	for image in "$root"/boot/vmlinuz-*; do
		release=${image#"$root"/boot/vmlinuz-}
		[ "$release" = "$first" ] || second+=" $release"
	done
	second=${second# }
	if filtered_out tests/life/20-new-kernel.bats; then
		echo "life: $name-second: no test matches LWNFS_LIFE_FILTER: not booted"
		continue
	fi
	if [ "$(wc -w <<<"$second")" != 1 ]; then
		echo "life: $name: no single new kernel in $root/boot after the first boot: ${second:-none}" >&2
		total_failed=$((total_failed + 1))
		continue
	fi
	echo "life: $name: second boot, under systemd, $second"
	boot -s "$root" "$second" tests/life/20-new-kernel.bats "$logs/$name-second.log" || true
done

echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
[ "$total_failed" = 0 ] && [ "$total_passed" -gt 0 ]
