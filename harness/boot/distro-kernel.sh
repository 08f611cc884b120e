#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the release of the kernel Debian's linux-image-amd64 depends on:
# the distro's kernel, which the tests boot unless told otherwise.
set -euo pipefail

dep=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null) || {
	echo "distro-kernel: linux-image-amd64 is not installed (run harness/deps.sh)" >&2
	exit 1
}
# "linux-image-6.1.0-57-amd64 (= 6.1.192-3)" -> "6.1.0-57-amd64"
release=${dep%% *}
echo "${release#linux-image-}"
