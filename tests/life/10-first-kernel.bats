#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The life of lwnfs-dkms, first boot (harness/life.sh): a Debian machine
# running its release's kernel, with no headers for it.  The tests run in
# order and share the machine: each starts where the one before left it.
# They install a newer kernel for the second boot (20-new-kernel.bats),
# and a third one, which they remove again.  apt installs from the root's
# offline archive.

load ../helpers

NEXT=$LWNFS_NEXT_VERSION
DEB_NEXT=$TREE/build/deb-next/lwnfs-dkms_${NEXT}_all.deb
export DEBIAN_FRONTEND=noninteractive

setup_file() {
	if [ -z "$LWNFS_NEXT_VERSION" ] || [ ! -f "$DEB" ] ||
		[ ! -f "$TREE/build/deb-next/lwnfs-dkms_${LWNFS_NEXT_VERSION}_all.deb" ]; then
		echo "10-first-kernel: run by harness/life.sh, which builds both packages" >&2
		return 1
	fi
}

teardown() {
	exec 7<&-	# a test that failed with it open must not hold the mount
	unload_lwnfs
}

# versions: the lwnfs versions DKMS holds, one per line.
versions() {
	dkms status -m lwnfs | sed -n 's|^lwnfs[/,] *\([^,:]*\)[,:].*|\1|p' | sort -u
}

@test "no headers: make, make install and make dkms-install stop in one line naming the package" {
	assert [ ! -e "/lib/modules/$(uname -r)/build" ]
	for target in "" install dkms-install; do
		run make -C "$TREE" --no-print-directory $target
		echo "make $target: $output"
		assert [ "$status" -ne 0 ]
		assert [ "${#lines[@]}" = 1 ]
		[[ $output == *"apt install linux-headers-$(uname -r)"* ]]
	done
	no_lwnfs_left
}

@test "no headers: installing lwnfs-dkms succeeds, DKMS says the headers are missing" {
	run dpkg -i "$DEB"
	echo "$output"
	assert [ "$status" = 0 ]
	# dkms's postinst (common.postinst): bookworm's 3.0 says the headers
	# do not seem to be installed; trixie's 3.2 that none were found,
	# naming the package to install.
	[[ $output == *"kernel headers for this kernel do not seem to be installed"* ]] ||
		[[ $output == *"No kernel headers were found"*"install the linux-headers-$(uname -r) package"* ]]
	assert [ "$(versions)" = "$VERSION" ]
	assert [ -z "$(dkms_state)" ]
	run ! modinfo lwnfs
}

@test "the headers installed afterwards: DKMS builds and installs lwnfs (header_postinst.d)" {
	run apt-get install -y "linux-headers-$(uname -r)"
	echo "$output"
	assert [ "$status" = 0 ]
	assert [ "$(dkms_state)" = installed ]
	assert [ "$(modinfo -F version lwnfs)" = "$VERSION" ]
	mkdir -p "$MNT"
	mount -t lwnfs lwnfs "$MNT"
	assert [ "$(cat /sys/module/lwnfs/version)" = "$VERSION" ]
	assert [ "$(cat "$C")" = 0 ]
}

@test "a package upgrade while lwnfs is mounted and a file open: the new version alone in DKMS" {
	modprobe lwnfs
	mkdir -p "$MNT"
	mount -t lwnfs lwnfs "$MNT"
	echo 41 >"$C"
	exec 7<"$C"
	run dpkg -i "$DEB_NEXT"
	echo "$output"
	assert [ "$status" = 0 ]
	# DKMS holds the new version only, built for this kernel; the module
	# on disk is the new one, the one loaded the old one, still in use.
	assert [ "$(versions)" = "$NEXT" ]
	dkms status -m lwnfs -v "$NEXT" -k "$(uname -r)" | grep -q ': installed'
	assert [ "$(modinfo -F version lwnfs)" = "$NEXT" ]
	assert [ "$(cat /sys/module/lwnfs/version)" = "$VERSION" ]
	assert [ "$(cat "$C")" = 41 ]
	run cat <&7
	assert [ "$output" = 42 ]
	exec 7<&-
	# The new module comes in once the old one is unloaded.
	umount "$MNT"
	rmmod lwnfs
	mount -t lwnfs lwnfs "$MNT"
	assert [ "$(cat /sys/module/lwnfs/version)" = "$NEXT" ]
	assert [ "$(cat "$C")" = 0 ]
}

@test "a downgrade back to the first version: it alone in DKMS, on disk" {
	run dpkg -i "$DEB"
	echo "$output"
	assert [ "$status" = 0 ]
	assert [ "$(versions)" = "$VERSION" ]
	assert [ "$(dkms_state)" = installed ]
	assert [ "$(modinfo -F version lwnfs)" = "$VERSION" ]
	run ! compgen -G "/usr/src/lwnfs-$NEXT"
}

@test "a kernel upgrade with apt: DKMS builds lwnfs for the new kernel, no command from the user" {
	local image new=''
	run apt-get install -y linux-image-amd64 linux-headers-amd64
	echo "$output"
	assert [ "$status" = 0 ]
	for image in /boot/vmlinuz-*; do
		[ "$image" = "/boot/vmlinuz-$(uname -r)" ] || new+=${image#/boot/vmlinuz-}
	done
	assert [ -n "$new" ]
	dkms status -m lwnfs -v "$VERSION" -k "$new" | grep -q ': installed'
	compgen -G "/lib/modules/$new/updates/dkms/lwnfs.ko*"
	assert [ "$(modinfo -k "$new" -F version lwnfs)" = "$VERSION" ]
}

# kernel_like GLOB: the one installed kernel whose release matches GLOB.
kernel_like() {
	local image found=()
	for image in /boot/vmlinuz-$1; do
		[ -e "$image" ] && found+=("${image#/boot/vmlinuz-}")
	done
	[ "${#found[@]}" = 1 ] || { echo "kernels like $1: ${found[*]:-none}" >&2; return 1; }
	echo "${found[0]}"
}

# built_for: the kernels DKMS has lwnfs $VERSION installed for, sorted.
built_for() {
	local k
	for k in $(kernels); do
		! dkms status -m lwnfs -v "$VERSION" -k "$k" | grep -q ': installed' || echo "$k"
	done
}

# kernels: every installed kernel's release, sorted.
kernels() {
	local image
	for image in /boot/vmlinuz-*; do
		echo "${image#/boot/vmlinuz-}"
	done | sort
}

# state PACKAGE: dpkg's two-letter state of PACKAGE ("ii" when configured).
state() {
	dpkg-query -W -f='${db:Status-Abbrev}' "$1" | tr -d ' '
}

@test "a kernel lwnfs cannot build for: apt fails, the kernel is left unconfigured, make.log names the API" {
	local cloud p
	# The installed sources become those of an lwnfs that knows no form of
	# an API of any kernel but the running one.
	"$TREE/harness/conftest-break.sh" "/usr/src/lwnfs-$VERSION/conftest.sh"
	run apt-get install -y linux-image-cloud-amd64 linux-headers-cloud-amd64
	echo "$output"
	assert [ "$status" = 100 ]
	[[ $output == *"E: Sub-process /usr/bin/dpkg returned an error code (1)"* ]]
	[[ $output == *"/var/lib/dkms/lwnfs/$VERSION/build/make.log"* ]]
	cloud=$(kernel_like '*-cloud-amd64')
	for p in "linux-image-$cloud" "linux-headers-$cloud"; do
		echo "$p: $(state "$p")"
	done
	# One of the two, or both, left unconfigured.
	assert [ "$(state "linux-image-$cloud") $(state "linux-headers-$cloud")" != "ii ii" ]
	assert [ -n "$(dpkg --audit)" ]
	grep -F "lwnfs: error: Linux $cloud has no known form of inode_just_drop()" \
		"/var/lib/dkms/lwnfs/$VERSION/build/make.log"
	dkms status -m lwnfs -v "$VERSION" -k "$(uname -r)" | grep -q ': installed'
}

@test "the way out README gives: remove lwnfs-dkms, dpkg --configure -a: every kernel configured, apt works" {
	local cloud p
	grep -qx 'sudo apt remove lwnfs-dkms' "$TREE/README.md"
	grep -qx 'sudo dpkg --configure -a' "$TREE/README.md"
	run apt-get remove -y lwnfs-dkms
	echo "$output"
	assert [ "$status" = 0 ]
	run dpkg --configure -a
	echo "$output"
	assert [ "$status" = 0 ]
	cloud=$(kernel_like '*-cloud-amd64')
	for p in "linux-image-$cloud" "linux-headers-$cloud" linux-image-cloud-amd64 linux-headers-cloud-amd64; do
		assert [ "$(state "$p")" = ii ]
	done
	assert [ -z "$(dpkg --audit)" ]
	apt-get check
	assert [ -z "$(dkms status -m lwnfs)" ]
	assert [ "$(kernels | wc -l)" = 3 ]
}

# all_kernels: whether dkms's configuration sets autoinstall_all_kernels,
# read as its common.postinst reads it: framework.conf, then each file
# of framework.conf.d.  Bookworm's dkms (3.0) leaves it unset; trixie's
# (3.2) ships framework.conf.d/autoinstall_all_kernels.conf setting it.
all_kernels() {
	(
		autoinstall_all_kernels=''
		for conf in /etc/dkms/framework.conf /etc/dkms/framework.conf.d/*.conf; do
			# shellcheck disable=SC1090	# dkms's own files, as it reads them
			[ ! -r "$conf" ] || . "$conf"
		done
		assert [ -n "$autoinstall_all_kernels" ]
	)
}

@test "three kernels: installing the package builds for those dkms's configuration names: all, or the running one and the newest" {
	local cloud newest
	cloud=$(kernel_like '*-cloud-amd64')
	newest=$(kernels | grep -vx -e "$(uname -r)" -e "$cloud")
	dpkg --purge lwnfs-dkms
	assert [ -z "$(built_for)" ]
	assert [ "$(kernels | wc -l)" = 3 ]
	# LWNFS_LIFE_BREAK=no-build-all: a machine whose dkms builds for the
	# running kernel and the newest only, whatever its release ships
	# (bookworm's reads framework.conf alone, and leaves it unset).
	if [ "${LWNFS_LIFE_BREAK:-}" = no-build-all ] && [ -d /etc/dkms/framework.conf.d ]; then
		echo 'autoinstall_all_kernels=""' >/etc/dkms/framework.conf.d/zz-lwnfs-life.conf
	fi
	run dpkg -i "$DEB"
	echo "$output"
	assert [ "$status" = 0 ]
	echo "built for: $(built_for | tr '\n' ' ')"
	if all_kernels; then
		echo "autoinstall_all_kernels is set: every kernel"
		assert [ "$(built_for)" = "$(kernels)" ]
	else
		# dkms's common.postinst: the running kernel and the newest; the
		# third gets nothing.
		echo "autoinstall_all_kernels is not set: the running kernel and the newest"
		assert [ "$(built_for)" = "$(printf '%s\n' "$(uname -r)" "$newest" | sort)" ]
		run ! compgen -G "/lib/modules/$cloud/updates/dkms/lwnfs.ko*"
	fi
}

@test "three kernels: after dkms autoinstall -k for any kernel without it, every kernel has its build" {
	local cloud k built
	cloud=$(kernel_like '*-cloud-amd64')
	# LWNFS_LIFE_BREAK=no-build-all: without the step, as a user who
	# never runs it.
	if [ "${LWNFS_LIFE_BREAK:-}" != no-build-all ]; then
		built=$(built_for)
		for k in $(kernels); do
			grep -qFx "$k" <<<"$built" || dkms autoinstall -k "$k"
		done
	fi
	rm -f /etc/dkms/framework.conf.d/zz-lwnfs-life.conf
	echo "kernels: $(kernels | tr '\n' ' ')"
	echo "built for: $(built_for | tr '\n' ' ')"
	assert [ "$(built_for)" = "$(kernels)" ]
	assert [ "$(modinfo -k "$cloud" -F version lwnfs)" = "$VERSION" ]
}

@test "a kernel removed with apt leaves no DKMS entry and no module directory behind" {
	local cloud
	cloud=$(kernel_like '*-cloud-amd64')
	run apt-get purge -y linux-image-cloud-amd64 linux-headers-cloud-amd64 \
		"linux-image-$cloud" "linux-headers-$cloud"
	echo "$output"
	assert [ "$status" = 0 ]
	assert [ "$(kernels | wc -l)" = 2 ]
	# dkms status -k names the kernel only where lwnfs is built or
	# installed for it; lwnfs stays "added", its sources, for the others.
	run dkms status -m lwnfs -k "$cloud"
	echo "dkms status -k $cloud: $output"
	[[ $output != *"$cloud"* ]]
	run ! compgen -G "/var/lib/dkms/lwnfs/*/$cloud"
	run ! compgen -G "/var/lib/dkms/lwnfs/kernel-$cloud-*"
	assert [ ! -e "/lib/modules/$cloud" ]
	assert [ "$(built_for)" = "$(kernels)" ]
}
