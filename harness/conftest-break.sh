#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/conftest-break.sh CONFTEST
#
# Make CONFTEST, a copy of conftest.sh, that of an lwnfs which knows no
# form of an API of any kernel but the running one: for the others it
# compiles each probe as if inode_just_drop() and generic_delete_inode(),
# the API's newer and older forms, were both gone from the headers, as on
# the day a new kernel moves an API again.  A build for such a kernel
# then stops with conftest's one line naming the API.  For harness/life.sh's
# new-kernel-fails and the life test of a kernel lwnfs cannot build for.
set -euo pipefail

file=${1:?usage: conftest-break.sh CONFTEST}
# shellcheck disable=SC2016 # the line as written in conftest.sh
line='	cat >"$dir/$1.c"'
[ "$(grep -cxF "$line" "$file")" = 1 ] || {
	echo "conftest-break: $file has no one line '$line' to break" >&2
	exit 1
}
perl -pi -e '
	next unless $_ eq "\tcat >\"\$dir/\$1.c\"\n";
	$_ = "\tif [ \"\$release\" = \"\$(uname -r)\" ]; then cat; else\n" .
	     "\t\tsed -e \"s/\\\\<inode_just_drop(/inode_just_drop_gone(/g\" \\\n" .
	     "\t\t    -e \"s/\\\\<generic_delete_inode(/generic_delete_inode_gone(/g\"\n" .
	     "\tfi >\"\$dir/\$1.c\"\n";
' "$file"
