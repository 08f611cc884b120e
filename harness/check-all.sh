#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/check-all.sh
#
# make check-all: every guest-booting check, one after another (one guest
# at a time), each to its end whatever the ones before it found: the
# kernel matrix (KERNELS= a part of it), the life of the package (LIFE=
# its releases), Secure Boot, SELinux, the sample patch, and then the
# breaks, each of which one of those checks must fail.  Prints each
# part's verdict, then the parts that failed; exits non-zero if any did.
set -euo pipefail

cd "$(dirname "$0")/.."
read -ra life <<<"${LIFE:-bookworm trixie}"
failed=()
part() {
	echo "check-all: $*"
	"$@" || failed+=("$*")
}
part harness/matrix.sh
part harness/life.sh "${life[@]}"
part harness/secureboot.sh
part harness/selinux.sh
part harness/sample-check.sh
part harness/breaks.sh
if [ "${#failed[@]}" != 0 ]; then
	printf 'check-all: failed: %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "check-all: every part passed"
