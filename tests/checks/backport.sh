#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/checks/backport.sh [RELEASE]
#
# lwnfs finds kernel features in the headers, not in the version number:
# lwnfs built W=1 against copies of RELEASE's headers (default: the
# distro's kernel), changed as each numbered part below says.
set -euo pipefail

cd "$(dirname "$0")/../.."
release=${1:-$(harness/boot/distro-kernel.sh)}
release_re=${release//./\\.} release_re=${release_re//+/\\+}
kdir=$(realpath "/lib/modules/$release/build")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "backport: FAILED: $*" >&2; exit 1; }

# copy_headers DIR: a copy of $kdir at DIR/build.  Debian splits the
# headers: the flavour's directory includes a common one by its path, and
# both link kbuild's scripts relatively; the copy points to the copies.
copy_headers() {
	local dest=$1/build common
	mkdir -p "$1"
	cp -a "$kdir" "$dest"
	common=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$kdir/Makefile")
	if [ -n "$common" ]; then
		cp -a "$common" "$1/common"
		echo "include $1/common/Makefile" >"$dest/Makefile"
		for dir in "$dest" "$1/common"; do
			for link in scripts tools; do
				[ ! -L "$dir/$link" ] ||
					ln -sfn "$(realpath "$kdir/$link")" "$dir/$link"
			done
		done
	fi
}

# build DIR [ARG...]: build a copy of the module sources against
# DIR/build; rebuild: build that copy again, as it is.
build() {
	mkdir -p "$1/lwnfs"
	cp Kbuild conftest.sh lwnfs.c lwnfs.h "$1/lwnfs/"
	rebuild "$@"
}
rebuild() {
	make --no-print-directory -C "$1/build" M="$1/lwnfs" W=1 "${@:2}" modules >"$1/build.log" 2>&1
}
# stops DIR WHAT LINE: the build in DIR failed with LINE (grep -E), and
# with no other error but make's own.
stops() {
	! build "$1" "${@:4}" || fail "the build against $2 succeeded"
	{ grep -qE -- "$3" "$1/build.log" && [ "$(grep -c -i 'error' "$1/build.log")" -le 3 ]; } ||
		{ cat "$1/build.log" >&2; fail "$2: not the one line $3"; }
	echo "backport: ok: $2: the build stops with: $(grep 'lwnfs: error' "$1/build.log")"
}

# The flavour's headers or the common ones, whichever holds the file.
header() {
	local f
	for f in "$1/build/$2" "$1/common/$2"; do
		[ ! -f "$f" ] || { echo "$f"; return; }
	done
	fail "no $2 in the headers of $release"
}

# 1. ->create() as 7.3 has it, put in place into headers built against:
# the build again, without a clean, must see the header change.
copy_headers "$work/create"
build "$work/create" || { cat "$work/create/build.log" >&2; fail "the build against the copied headers failed"; }
conftest_h=$work/create/lwnfs/conftest.h
grep -qx '/\* LWNFS_HAVE_IOP_CREATE_NO_EXCL: no \*/' "$conftest_h" ||
	fail "the unchanged headers of $release already have the 7.3 ->create()"
cp "$conftest_h" "$work/create/conftest.h.before"
fs_h=$(header "$work/create" include/linux/fs.h)
perl -0pi -e 's/(int \(\*create\) \([^;]*?umode_t),\s*bool\);/$1);/' "$fs_h"
grep -q -Pzo 'int \(\*create\) \([^;]*umode_t\);' "$fs_h" || fail "could not change ->create() in $fs_h"
rebuild "$work/create" || { cat "$work/create/build.log" >&2; fail "the build against the changed headers failed"; }
! grep -E 'warning:' "$work/create/build.log" >&2 || fail "the build warns"
grep -qx '#define LWNFS_HAVE_IOP_CREATE_NO_EXCL 1' "$conftest_h" ||
	fail "conftest.sh did not find the 7.3 ->create() in the headers changed in place"
[ "$(diff "$work/create/conftest.h.before" "$conftest_h" | grep -c '^[<>]')" = 2 ] ||
	{ diff "$work/create/conftest.h.before" "$conftest_h" >&2; fail "more than IOP_CREATE_NO_EXCL changed"; }
echo "backport: ok: ->create() without excl put in place into $release's headers: the build again found it, built W=1-clean"

# 2. Headers older than 5.10: one line, naming it.
copy_headers "$work/old"
version_h=$(header "$work/old" include/generated/uapi/linux/version.h)
sed -i 's/^#define LINUX_VERSION_CODE .*/#define LINUX_VERSION_CODE 267008/' "$version_h"
stops "$work/old" "headers saying 4.19" '^lwnfs: error: Linux 5\.10 or later is needed'

# 3. Neither form of an API: one line naming it, before lwnfs.c compiles.
copy_headers "$work/unknown"
fs_h=$(header "$work/unknown" include/linux/fs.h)
# (Headers of 6.18 and later declare inode_just_drop() instead: it goes too.)
sed -i -e '/^extern int generic_delete_inode(struct inode \*inode);$/d' \
	-e '/^extern int inode_just_drop(struct inode \*inode);$/d' "$fs_h"
! grep -q -e 'generic_delete_inode' -e 'inode_just_drop' "$fs_h" ||
	fail "could not take generic_delete_inode() and inode_just_drop() out of $fs_h"
stops "$work/unknown" "headers without either form of inode_just_drop()" \
	"^lwnfs: error: Linux $release_re has no known form of inode_just_drop\\(\\) \\(not the newer one, probe INODE_JUST_DROP, nor generic_delete_inode\\(\\) of before 6\\.18\\); see README\\.md, \"Supported kernels\"\$"

# 4. A compiler killed on one probe: no guess, the build stops.
kcc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\{0,1\}\([^ ]*\) .*/\1/p' "$kdir/include/config/auto.conf")
cat >"$work/cc" <<EOF
#!/bin/bash
case " \$* " in
*/IOP_CREATE_NO_EXCL.c\ *)
	echo "gcc: fatal error: Killed signal terminated program cc1" >&2
	exit 1 ;;
esac
exec $kcc "\$@"
EOF
chmod +x "$work/cc"
mkdir -p "$work/killed"
ln -s "$kdir" "$work/killed/build"
stops "$work/killed" "a compiler killed on a probe" \
	'^lwnfs: error: the compiler failed on probe IOP_CREATE_NO_EXCL' CC="$work/cc"
