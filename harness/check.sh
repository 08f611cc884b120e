#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: install what is missing, build lwnfs W=1 for the distro's
# kernel and the Debian package, check on the host that kernel features
# are found in the headers (backport.sh), that every doc is still true
# to the tree, docs/walkthrough.md's excerpts included (docs-check.pl),
# that docs/results.md is what docs/data/*.json make (results-check.sh),
# that every promise of lwnfs.5 is mapped to its tests
# (promises-check.pl), that the Makefile's and deps.sh's one-line
# refusals say what they should on faked hosts (refusals-check.sh) and
# that the verdict on a guest's kernel log and exit status is sound
# (verdict-check.sh), and
# run the whole
# bats suite, the module's suites and the installation suites, in a guest
# booted on that kernel.  Prints TAP and a closing "N passed, N failed,
# N skipped" line; exits non-zero on a failure.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
harness/deps.sh
release=${KERNELRELEASE:-$(harness/distro-kernel.sh)}

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
# The package the DKMS tests install is built here: under TCG in the guest
# it would take minutes.
lwnfs_quiet "$log" "make deb failed" make --no-print-directory deb

tests/checks/backport.sh "$release"
tests/checks/docs-check.pl
tests/checks/results-check.sh
tests/checks/verdict-check.sh
tests/checks/promises-check.pl
tests/checks/refusals-check.sh

# The host's release names its row of tests/data/skips.
status=0
harness/tap-run.sh -R "$(lwnfs_codename)" "$logs/check.log" \
	-k "$release" -t "$LWNFS_SUITE_TIMEOUT" -- bats --tap --timing tests tests/install || status=1
read -r passed failed skipped _ <"$logs/check.log.count"
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"
