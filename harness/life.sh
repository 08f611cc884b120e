#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/life.sh RELEASE...   (make check-life; bookworm, trixie)
#
# The life of lwnfs-dkms on a Debian user's machine: for each RELEASE,
# the suites of tests/life, a guest each, written through to one fresh
# copy of RELEASE's life root, each test going on from what the ones
# before it left.  LWNFS_LIFE_BREAK breaks the machine or the packages
# where said; LWNFS_LIFE_FILTER=REGEX is bats's --filter (a boot left
# with no test is not made).  The TAP is kept in $LWNFS_CACHE/life-logs.
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

# package VERSION OUTDIR: lwnfs-dkms of this tree at VERSION, broken as
# LWNFS_LIFE_BREAK says, built by a copy's build-deb.sh.
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
	# No build for headers installed later, nor for a new kernel.
	no-autoinstall) sed -i '/^AUTOINSTALL=/d' "$tmp/src/dkms.conf" ;;
	# No form of an API on any kernel but the running one: the build for
	# the upgrade's kernel fails, as when a kernel moves an API.
	new-kernel-fails) harness/conftest-break.sh "$tmp/src/conftest.sh" ;;
	# no-build-all: tests/life/10-first-kernel.bats breaks dkms itself.
	keep-old | no-dkms-depends | fstab-defaults | no-build-all) ;;
	*) echo "life: unknown LWNFS_LIFE_BREAK=$LWNFS_LIFE_BREAK" >&2; exit 2 ;;
	esac
	"$tmp/src/scripts/build-deb.sh" "$out" >/dev/null
	case ${LWNFS_LIFE_BREAK:-} in
	keep-old | no-dkms-depends)
		dpkg-deb -R "$out/lwnfs-dkms_${v}_all.deb" "$tmp/deb"
		if [ "$LWNFS_LIFE_BREAK" = keep-old ]; then
			# No dkms remove: an upgrade leaves the old version in DKMS.
			printf '#!/bin/sh\nexit 0\n' >"$tmp/deb/DEBIAN/prerm"
		else
			# dkms out of Depends, which Debian's dkms autopkgtest finds.
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
# The line README.md and lwnfs.5 give for /etc/fstab, the same in both.
fstab=$(grep -E '^lwnfs +/lwnfs +lwnfs ' README.md)
if [ "$(wc -l <<<"$fstab")" != 1 ] || [ "$fstab" != "$(grep -E '^lwnfs +/lwnfs +lwnfs ' lwnfs.5)" ]; then
	echo "life: README.md and lwnfs.5 do not give one and the same /etc/fstab line for /lwnfs" >&2
	exit 1
fi
# fstab-defaults: the boot stops in the emergency target.
[ "${LWNFS_LIFE_BREAK:-}" != fstab-defaults ] || fstab=$(awk '{ $4 = "defaults"; print }' <<<"$fstab")

# filtered_out SUITE: whether LWNFS_LIFE_FILTER leaves none of SUITE's tests.
filtered_out() {
	[ -n "${LWNFS_LIFE_FILTER:-}" ] &&
		! sed -n 's/^@test "\(.*\)" {$/\1/p' "$1" | grep -Eq -e "$LWNFS_LIFE_FILTER"
}

# boot [-s] ROOT RELEASE SUITE LOG: SUITE in a guest on ROOT's kernel
# RELEASE, written through to ROOT (-s: under the root's systemd).
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
	pristine=$(harness/images/root.sh "$name-life" 2>"$logs/$name-root.log") || {
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
	# mmdebstrap leaves no machine ID: else every boot is a first boot.
	lwnfs_in_root "$root" systemd-machine-id-setup
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
	if [ "$(wc -w <<<"$second")" != 1 ] && ! filtered_out tests/life/20-new-kernel.bats; then
		echo "life: $name: no single new kernel in $root/boot after the first boot: ${second:-none}" >&2
		total_failed=$((total_failed + 1))
		continue
	fi
	echo "life: $name: second boot, under systemd, $second"
	boot -s "$root" "$second" tests/life/20-new-kernel.bats "$logs/$name-second.log" || true
done

echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
[ "$total_failed" = 0 ] && [ "$total_passed" -gt 0 ]
