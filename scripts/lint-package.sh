#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/lint-package.sh [DEBDIR]
#
# After make deb: the man page must be clean under mandoc and groff, and
# the packages, source and binary, under the newest lintian, sid's, run
# in the sid root (harness/images/root.sh sid makes it if need be): errors,
# warnings, info and pedantic tags fail it.  Prints what is wrong; exits
# non-zero if anything is.
set -euo pipefail

cd "$(dirname "$0")/.."
debdir=${1:-build/deb}
rc=0

if ! mandoc -T lint -W all lwnfs.5; then
	echo "lint: mandoc finds problems in lwnfs.5" >&2
	rc=1
fi
warnings=$(groff -ww -man -z lwnfs.5 2>&1)
if [ -n "$warnings" ]; then
	echo "$warnings" >&2
	echo "lint: groff warns about lwnfs.5" >&2
	rc=1
fi

changes=("$debdir"/lwnfs_*.changes)
[ -f "${changes[0]}" ] || { echo "lint: no .changes in $debdir (run make deb)" >&2; exit 1; }
sid=$(harness/images/root.sh sid) || { echo "lint: the sid root could not be made (harness/images/root.sh sid)" >&2; exit 1; }
rm -rf "$sid/srv/lintian"
mkdir -p "$sid/srv/lintian"
cp "$debdir"/lwnfs* "$sid/srv/lintian/"
echo "lint: $(chroot "$sid" lintian --version) (sid's)"
# lintian says it should not run as root, which is how make check runs.
# --fail-on replaces lintian's default (error) rather than adding to it:
# errors are named too, or a package with only errors would pass.
if ! chroot "$sid" lintian -EI -L +pedantic --fail-on error,warning,info,pedantic \
	"/srv/lintian/${changes[0]##*/}" 2> >(grep -v 'running with root privileges' >&2); then
	echo "lint: lintian finds problems in the package" >&2
	rc=1
fi
exit "$rc"
