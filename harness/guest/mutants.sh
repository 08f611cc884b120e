#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/mutants.sh TODO
#
# In the guest of make mutants (harness/mutants.sh): for each line
# "NAME KO FIRST" of TODO, run the module's suites with lwnfs.ko taken
# from KO, one bats file after another (FIRST first, unless it is "-"),
# stopping at the first test that fails, and
# print "mutant NAME: start", then "mutant NAME: killed by FILE: TEST" or
# "mutant NAME: survived".  A mutant whose kernel log, from its start to
# the end of the clean-up after its suites, shows a problem is killed by
# it ("killed by the kernel log: LINE" when no test failed: the host has
# that seen again alone).  A log that no longer holds the mutant's start
# gives no verdict.  Exits 3 when the guest cannot go on cleanly (lwnfs
# stuck, a kernel log with a problem in it, or lost), so that a new guest
# takes the rest; the host knows from the "start" lines where to go on.
set -euo pipefail

todo=${1:?usage: mutants.sh TODO}
# shellcheck source=harness/settings.sh
. harness/settings.sh
# The quickest to fail first; 50-packaging.bats does not load lwnfs.
suites=(tests/20-write.bats tests/10-read.bats tests/30-options.bats
	tests/40-made.bats tests/45-manners.bats tests/00-module.bats)
tap=$(mktemp)
trap 'rm -f "$tap" "$tap.lost" "$tap.bad"' EXIT

# run_until_failure FILE: run bats on FILE, stopped at its first "not ok";
# print that test's name, or nothing when every test passed.
run_until_failure() {
	local pid
	setsid timeout -k 10 600 bats --tap "$1" >"$tap" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if grep -q '^not ok ' "$tap"; then
			kill -TERM -- "-$pid" 2>/dev/null || true
			break
		fi
		sleep 0.2
	done
	if wait "$pid"; then
		return
	fi
	sed -n 's/^not ok [0-9]* \(.*\)/\1/p' "$tap" | head -n 1 | grep . ||
		echo "bats failed: $(tail -n 1 "$tap")"
}

while read -r name ko first; do
	echo "mutant $name: start"
	seq=$(perl harness/guest/kmsg.pl mark "lwnfs-mutant: $name")
	killer='' order=()
	[ "$first" = - ] || order=("$first")
	for f in "${suites[@]}"; do
		[ "$f" = "$first" ] || order+=("$f")
	done
	for f in "${order[@]}"; do
		test=$(LWNFS_KO=$ko run_until_failure "$f")
		if [ -n "$test" ]; then
			killer="$f: $test"
			break
		fi
	done

	# lwnfs gone before the next one, whatever the tests left; what the
	# clean-up logs counts for this mutant too.
	stuck=0
	awk '$3 == "lwnfs" { print $2 }' /proc/mounts | sort -r | xargs -r -n 1 umount -l
	if grep -q '^lwnfs ' /proc/modules && ! timeout 30 rmmod lwnfs; then
		stuck=1
	fi

	# What the kernel said since this mutant began.
	if ! perl harness/guest/kmsg.pl since "$seq" >"$tap" 2>"$tap.lost"; then
		echo "mutants: no verdict for $name: $(cat "$tap.lost"); a new guest goes on"
		exit 3
	fi
	dirty=0
	if grep -E "$LWNFS_KERNEL_BAD" "$tap" >"$tap.bad"; then
		dirty=1 killer="${killer:+$killer; }the kernel log: $(head -n 1 "$tap.bad")"
	fi
	if [ -n "$killer" ]; then
		echo "mutant $name: killed by $killer"
	else
		echo "mutant $name: survived"
	fi
	if [ "$stuck" = 1 ]; then
		echo "mutants: lwnfs cannot be unloaded after $name; a new guest goes on"
		exit 3
	fi
	[ "$dirty" = 0 ] || exit 3
done <"$todo"
