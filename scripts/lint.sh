#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make lint: the checks the kernel's 0-day bot runs, on lwnfs.  checkpatch
# --strict, sparse (C=2) and W=1 on the module and on tests/programs/delay's,
# coccicheck's semantic patches, shellcheck on the scripts, mandoc, groff
# and lintian on the man page and the Debian package (the checks of the
# docs against the tree are make check's, harness/check.sh).  Prints each
# finding; exits non-zero if there is any.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
harness/deps.sh lint
release=${KERNELRELEASE:-$(harness/boot/distro-kernel.sh)}
series=$(lwnfs_series "$release")
src=$LWNFS_CACHE/linux-source-$series
if [ ! -f "$src/scripts/checkpatch.pl" ]; then
	mkdir -p "$src"
	tar -xf "/usr/src/linux-source-$series.tar.xz" -C "$src" --strip-components=1 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' '*/scripts/coccinelle/*'
fi

failed=0
check() {
	local name=$1
	shift
	if "$@"; then
		echo "lint: $name: clean"
	else
		echo "lint: $name: FINDINGS"
		failed=$((failed + 1))
	fi
}

# lwnfs-peers.c calls hiredis, whose names are camel case.
checkpatch() {
	local c=("$src/scripts/checkpatch.pl" --strict --no-tree --quiet --show-types)
	local f files=()
	# Not kbuild's own lwnfs_delay.mod.c, which an earlier build leaves.
	for f in tests/programs/*.c tests/programs/delay/*.c; do
		case $f in
		tests/programs/lwnfs-peers.c | *.mod.c) ;;
		*) files+=("$f") ;;
		esac
	done
	local rc=0
	"${c[@]}" -f lwnfs.c lwnfs.h tests/programs/*.h "${files[@]}" || rc=1
	"${c[@]}" --ignore CAMELCASE -f tests/programs/lwnfs-peers.c || rc=1
	return "$rc"
}

# W=1 and sparse in one build; any warning line is a finding.
kbuild() {
	local log
	log=$(make --no-print-directory KERNELRELEASE="$release" W=1 C=2 modules test-modules 2>&1) ||
		{ echo "$log"; return 1; }
	! grep -E 'warning|error' <<<"$log"
}

# Every semantic patch in report mode.  badzero and check_bq27xxx_data
# need OCaml scripting (a 285 MB compiler): not run, and said so.
# Each semantic patch of the kernel's scripts/coccinelle, as many at once
# as there are CPUs (spatch starts in a second or two, 68 of them).
coccicheck() {
	local out found=0 cocci
	out=$(mktemp -d)
	# shellcheck disable=SC2016 # the inner shell expands $1 and $2
	find "$src/scripts/coccinelle" -name '*.cocci' ! -name badzero.cocci \
		! -name check_bq27xxx_data.cocci -print0 |
		xargs -0 -n 1 -P "$(nproc)" sh -c '
			dir=${2%/*}
			log=$1/${dir##*/}:${2##*/}
			spatch --very-quiet -D report --no-show-diff --sp-file "$2" \
				lwnfs.c lwnfs.h >"$log" 2>/dev/null || echo "spatch failed: $2" >"$log.failed"
		' - "$out" || found=1
	for cocci in "$out"/*; do
		case $cocci in
		*.failed) cat "$cocci"; found=1 ;;
		*) [ ! -s "$cocci" ] || { echo "${cocci##*/} (scripts/coccinelle):"; cat "$cocci"; found=1; } ;;
		esac
	done
	[ "$(find "$out" -type f ! -name '*.failed' | wc -l)" -gt 60 ] ||
		{ echo "coccicheck: fewer semantic patches run than the kernel has"; found=1; }
	rm -rf "$out"
	echo "coccicheck: not run: badzero.cocci, check_bq27xxx_data.cocci (need OCaml)"
	return "$found"
}

check checkpatch checkpatch
check "W=1 and sparse" kbuild
check coccicheck coccicheck
check shellcheck shellcheck -x conftest.sh harness/*.sh harness/*/*.sh harness/images/*.bash harness/guest/*.bash bench/*.sh \
	tests/checks/*.sh tests/*.bats tests/install/*.bats tests/life/*.bats tests/selinux/*.bats \
	tests/secureboot/*.bats tests/secureboot/*.bash tests/helpers.bash .ci/run \
	scripts/*.sh debian/tests/modprobe-mount
package() {
	make --no-print-directory deb >/dev/null && scripts/lint-package.sh
}
check "man page and package" package
[ "$failed" = 0 ]
