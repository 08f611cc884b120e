#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The Debian package lwnfs-dkms as a distro user meets it: installing it
# makes DKMS build the module; then modprobe, mount autoload, fstab; purging
# it leaves nothing behind.  The .deb is built on the host before the guest
# boots (make deb; harness/check.sh does it).  The tests run in order and
# share one installation: the last one purges it.

load ../helpers

setup_file() {
	[ -f "$DEB" ] || { echo "20-dkms-deb: no $DEB (run make deb)" >&2; return 1; }
	no_lwnfs_left
	DEBIAN_FRONTEND=noninteractive dpkg -i "$DEB" >"$BATS_FILE_TMPDIR/dpkg.log" 2>&1 || {
		cat "$BATS_FILE_TMPDIR/dpkg.log" >&2
		return 1
	}
}

teardown() {
	unload_lwnfs
}

teardown_file() {
	unload_lwnfs
	DEBIAN_FRONTEND=noninteractive dpkg --purge lwnfs-dkms >/dev/null 2>&1 || true
}

@test "deb: installing lwnfs-dkms leaves lwnfs installed in DKMS for the running kernel" {
	assert [ "$(dkms_state)" = installed ]
	run ! grep -i -e deprecated -e error "$BATS_FILE_TMPDIR/dpkg.log"
}

@test "deb: sources in /usr/src/lwnfs-VERSION, the man page, the docs (walkthrough too)" {
	run ls "/usr/src/lwnfs-$VERSION"
	assert [ "$output" = "Kbuild
conftest.sh
dkms.conf
lwnfs.c
lwnfs.h" ]
	cmp "$TREE/dkms.conf" "/usr/src/lwnfs-$VERSION/dkms.conf"
	run dpkg -L lwnfs-dkms
	[[ $output == *"/usr/share/man/man5/lwnfs.5.gz"* ]]
	[[ $output == *"/usr/share/doc/lwnfs-dkms/README.md.gz"* ]]
	# dh_compress compresses docs over 4 KiB, as README.md
	[[ $output == *"/usr/share/doc/lwnfs-dkms/walkthrough.md.gz"* ]]
	zcat /usr/share/doc/lwnfs-dkms/walkthrough.md.gz | cmp - "$TREE/docs/walkthrough.md"
	[[ $output == *"/usr/share/doc/lwnfs-dkms/copyright"* ]]
	zcat /usr/share/man/man5/lwnfs.5.gz | grep -q '^\.SH NAME'
}

@test "deb: modprobe lwnfs loads the DKMS-built module by name" {
	# compressed as the kernel's own modules are
	assert [ "$(modinfo -n lwnfs)" = "/lib/modules/$(uname -r)/updates/dkms/lwnfs.ko$(module_suffix)" ]
	assert [ "$(modinfo -F version lwnfs)" = "$VERSION" ]
	modprobe lwnfs
	grep -q '^lwnfs ' /proc/modules
	assert [ "$(cat /sys/module/lwnfs/version)" = "$VERSION" ]
	modprobe -r lwnfs
	run ! grep -q '^lwnfs ' /proc/modules
}

@test "deb: mount -t lwnfs loads the module on demand" {
	run ! grep -q '^lwnfs ' /proc/modules
	mkdir -p "$MNT"
	mount -t lwnfs lwnfs "$MNT"
	grep -q '^lwnfs ' /proc/modules
	assert [ "$(cat "$C")" = 0 ]
	assert [ "$(cat "$C")" = 1 ]
}

@test "deb: an /etc/fstab line mounts lwnfs with mount -a" {
	cp /etc/fstab "$BATS_TEST_TMPDIR/fstab"
	echo "lwnfs  $MNT  lwnfs  defaults  0  0" >>/etc/fstab
	mkdir -p "$MNT"
	rc=0
	mount -a -t lwnfs || rc=$?
	findmnt -n -o FSTYPE "$MNT" >"$BATS_TEST_TMPDIR/fstype" || true
	cp "$BATS_TEST_TMPDIR/fstab" /etc/fstab
	assert [ "$rc" = 0 ]
	assert [ "$(cat "$BATS_TEST_TMPDIR/fstype")" = lwnfs ]
	assert [ "$(cat "$C")" = 0 ]
}

@test "deb: DKMS signed the module with its MOK key (/var/lib/dkms/mok.pub)" {
	# Signing came with dkms 3.0 (bookworm); bullseye's 2.8 leaves it out.
	dkms --version | grep -q -E 'dkms-([3-9]|[1-9][0-9])\.' ||
		skip "$(dkms --version) does not sign modules"
	assert [ -f /var/lib/dkms/mok.pub ]
	# modinfo prints the serial as colon-separated hex, openssl as plain hex.
	serial=$(openssl x509 -inform DER -in /var/lib/dkms/mok.pub -noout -serial)
	serial=${serial#serial=}
	assert [ -n "$(modinfo -F signer lwnfs)" ]
	run modinfo -F sig_key lwnfs
	assert [ -n "$output" ]
	assert [ "$(echo "${output//:/}" | tr a-f A-F)" = "$(echo "$serial" | tr a-f A-F)" ]
}

@test "deb: purging lwnfs-dkms removes the module and leaves no file behind" {
	DEBIAN_FRONTEND=noninteractive dpkg --purge lwnfs-dkms
	run dpkg-query -W -f='${db:Status-Status}' lwnfs-dkms
	[[ $output != installed && $output != config-files ]]
	no_lwnfs_left
	assert [ ! -e /usr/share/man/man5/lwnfs.5.gz ]
	assert [ ! -e /usr/share/doc/lwnfs-dkms ]
}
