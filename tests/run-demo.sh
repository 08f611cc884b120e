#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo / make vm: install what is missing, build lwnfs for the distro's
# kernel and boot that kernel in QEMU to replay the article's session.
# With --shell (make vm) the guest then gives you a root shell with lwnfs
# mounted at /lwnfs; leave it with "exit".
set -euo pipefail

cd "$(dirname "$0")/.."
tests/deps.sh
release=${KERNELRELEASE:-$(tests/distro-kernel.sh)}
log=$(mktemp)
make --no-print-directory KERNELRELEASE="$release" modules >"$log" 2>&1 || {
	cat "$log" >&2
	exit 1
}
rm -f "$log"

if [ "${1:-}" = --shell ]; then
	exec tests/vm.sh -k "$release" -t 86400 -i -- tests/demo.sh --keep
fi
exec tests/vm.sh -k "$release" -t 300 -- tests/demo.sh
