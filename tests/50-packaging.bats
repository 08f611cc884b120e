#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The packaging metadata, read as DKMS and dpkg read it: no kernel needed.

load helpers

@test "one version: lwnfs.h, dkms.conf, debian/changelog, lwnfs.5, modinfo agree" {
	[[ $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]
	run bash -c '. "$1" && echo "$PACKAGE_VERSION"' _ "$TREE/dkms.conf"
	assert [ "$output" = "$VERSION" ]
	# "lwnfs (1.0.0) unstable; ..." (a native package: no Debian revision;
	# a backport's or a stable update's suffix, 1.0.0~bpo12+1 or
	# 1.0.0+deb13u1, is not upstream's: debian/rules reads it the same way)
	run sed -n '1s/^lwnfs (\([^)~+]*\)[^)]*).*/\1/p' "$TREE/debian/changelog"
	assert [ "$output" = "$VERSION" ]
	run sed -n 's/^\.TH LWNFS 5 [^ ]* "lwnfs \([^"]*\)".*/\1/p' "$TREE/lwnfs.5"
	assert [ "$output" = "$VERSION" ]
	run modinfo -F version "$KO"
	assert [ "$output" = "$VERSION" ]
}

@test "dkms.conf: the fields DKMS needs, for the kernel DKMS names" {
	# DKMS sources dkms.conf with these set; a build for another kernel
	# must use them, never the running kernel.
	run bash -c 'kernel_source_dir=/KSRC dkms_tree=/DTREE kernelver=9.9.9-x
		. "$1"
		echo "$PACKAGE_NAME|${BUILT_MODULE_NAME[0]}|${DEST_MODULE_LOCATION[0]}"
		echo "$AUTOINSTALL|$BUILD_EXCLUSIVE_KERNEL_MIN"
		echo "${MAKE[0]}"' _ "$TREE/dkms.conf"
	assert [ "$status" -eq 0 ]
	assert [ "${lines[0]}" = "lwnfs|lwnfs|/updates/dkms" ]
	assert [ "${lines[1]}" = "yes|5.10" ]
	assert [ "${lines[2]}" = "make -C /KSRC M=/DTREE/lwnfs/$VERSION/build modules" ]
	# No "uname" outside comments: DKMS names the kernel, not uname -r.
	run ! grep -E '^[^#]*uname' "$TREE/dkms.conf"
}

@test "dkms.conf: no field that dkms deprecates (CLEAN since 3.2, REMAKE_INITRD, MODULES_CONF*)" {
	run grep -E '^[[:space:]]*(CLEAN|REMAKE_INITRD|MODULES_CONF[A-Z_]*)(\[[0-9]*\])?=' "$TREE/dkms.conf"
	assert [ "$status" -eq 1 ]
}

@test "dkms.conf: BUILD_EXCLUSIVE_KERNEL admits 5.10 and later only (for dkms < 3.0.11)" {
	regex=$(bash -c '. "$1" && echo "$BUILD_EXCLUSIVE_KERNEL"' _ "$TREE/dkms.conf")
	assert [ -n "$regex" ]
	for k in 5.10.0-32-amd64 5.15.0 5.19.17 6.1.0-57-amd64 6.12.117+deb13-amd64 \
		7.2.13+deb14-amd64 10.0.1 "$(uname -r)"; do
		[[ $k =~ $regex ]] || { echo "refuses $k" >&2; return 1; }
	done
	for k in 4.19.0-27-amd64 5.4.0 5.9.16 5.1.0 3.16.0 2.6.32; do
		! [[ $k =~ $regex ]] || { echo "admits $k" >&2; return 1; }
	done
}
