#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/check.sh   (make check)
#
# Build lwnfs W=1 and the Debian package for the distro's kernel (or
# KERNELRELEASE), run the host checks of tests/checks, then the whole bats
# suite, installation suites included, in a guest booted on that kernel.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
harness/deps.sh
release=${KERNELRELEASE:-$(harness/boot/distro-kernel.sh)}

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
log=$logs/build.log
lwnfs_quiet "$log" "the build failed" \
	make --no-print-directory KERNELRELEASE="$release" W=1 modules test-programs
if grep -E 'warning:|error:' "$log" >&2; then
	echo "check: the W=1 build has warnings" >&2
	exit 1
fi
# Again as a user builds it, so that make install in the guest finds it
# built (under TCG a rebuild there takes a minute).
lwnfs_quiet "$log" "the build failed" make --no-print-directory KERNELRELEASE="$release" modules
# The package the DKMS tests install: under TCG in the guest it would
# take minutes.
lwnfs_quiet "$log" "make deb failed" make --no-print-directory deb

tests/checks/backport.sh "$release"
tests/checks/docs-check.pl
tests/checks/results-check.sh
tests/checks/verdict-check.sh
tests/checks/promises-check.pl
tests/checks/refusals-check.sh

# The host's release names its row of tests/data/skips.
harness/tap-run.sh -R "$(lwnfs_codename)" "$logs/check.log" \
	-k "$release" -t "$LWNFS_SUITE_TIMEOUT" -- bats --tap --timing tests tests/install
