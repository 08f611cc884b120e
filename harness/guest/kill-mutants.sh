#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/kill-mutants.sh TODO   (in the guest of make mutants)
# For each "NAME KO FIRST" of TODO, lwnfs itself ("original") first: the
# suites on KO, FIRST first, to the first failing test; "mutant NAME:
# start", then one verdict line, which harness/mutants/mutants.sh reads.  Exits
# LWNFS_EXIT_NEW_GUEST when this guest cannot go on cleanly.
set -euo pipefail

todo=${1:?usage: kill-mutants.sh TODO}
# shellcheck source=harness/settings.sh
. harness/settings.sh
# The quickest to fail first; 50-packaging.bats does not load lwnfs.
suites=(tests/20-write.bats tests/10-read.bats tests/30-options.bats
	tests/40-made.bats tests/45-manners.bats tests/00-module.bats)
tap=$(mktemp)
trap 'rm -f "$tap" "$tap.lost" "$tap.confirm"' EXIT

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

# ere_quote TEXT: TEXT as an extended regular expression matching itself
# (bats --filter takes one).
ere_quote() {
	printf '%s' "$1" | sed 's#[][\\.^$*+?(){}|/]#\\&#g'
}

# clean_up: lwnfs gone before what comes next, whatever the tests left;
# fails when the module cannot be unloaded.
clean_up() {
	awk '$3 == "lwnfs" { print $2 }' /proc/mounts | sort -r | xargs -r -n 1 umount -l
	! grep -q '^lwnfs ' /proc/modules || timeout 30 rmmod lwnfs
}

# bad_since SEQ: print the first problem line the kernel logged from SEQ
# on; fails, saying so, when the log no longer holds SEQ.
bad_since() {
	perl harness/guest/kmsg.pl since "$1" >"$tap" 2>"$tap.lost" || {
		cat "$tap.lost"
		return 1
	}
	grep -m 1 -E "$LWNFS_KERNEL_BAD" "$tap" || :
}

# new_guest WHY: stop here; harness/mutants/mutants.sh goes on in a new guest.
new_guest() {
	echo "mutants: $1; a new guest goes on"
	exit "$LWNFS_EXIT_NEW_GUEST"
}

original=''
while read -r name ko first; do
	[ "$name" != original ] || original=$ko
	echo "mutant $name: start"
	seq=$(perl harness/guest/kmsg.pl mark "lwnfs-mutant: $name")
	file='' test='' order=()
	[ "$first" = - ] || order=("$first")
	for f in "${suites[@]}"; do
		[ "$f" = "$first" ] || order+=("$f")
	done
	for f in "${order[@]}"; do
		test=$(LWNFS_KO=$ko run_until_failure "$f")
		if [ -n "$test" ]; then
			file=$f
			break
		fi
	done

	# What the clean-up logs counts for this mutant too.
	stuck=0
	clean_up || stuck=1
	# A mutant's failure is checked twice over: a test that fails by
	# chance once must not kill.  One that leaves lwnfs pinned is killed
	# by that (lwnfs unloaded clean before it).
	judged=''
	[ -z "$file" ] || [ "$name" = original ] || [ "$stuck" = 1 ] || judged=yes
	flaky=''
	if [ -n "$judged" ]; then
		again=$(LWNFS_KO=$ko run_until_failure "$file")
		if [ "$again" != "$test" ]; then
			flaky=yes
			echo "mutant $name: flaky: $file: $test: failed once, then" \
				"${again:-passed}${again:+ failed first}"
		fi
		clean_up || stuck=1
	fi
	bad=$(bad_since "$seq") || new_guest "no verdict for $name: $bad"

	# And lwnfs itself, in this guest as the mutant left it, passes that
	# test alone (the whole file when bats failed before naming one).
	confirmed=''
	if [ -n "$judged" ] && [ "$stuck" = 0 ] && [ -z "$flaky" ]; then
		filter=()
		[[ $test == "bats failed: "* ]] || filter=(--filter "^$(ere_quote "$test")\$")
		cseq=$(perl harness/guest/kmsg.pl mark "lwnfs-mutant: $name, lwnfs confirms")
		if LWNFS_KO=$original timeout -k 10 600 bats --tap "${filter[@]}" "$file" >"$tap.confirm" 2>&1 &&
			grep -q '^ok ' "$tap.confirm"; then
			confirmed=yes
			echo "mutant $name: confirmed: lwnfs passes $file: $test alone"
		else
			echo "mutant $name: unconfirmed: $file: $test fails on lwnfs too:" \
				"$(grep -m 1 '^not ok\|^#' "$tap.confirm" || tail -n 1 "$tap.confirm")"
		fi
		clean_up || stuck=1
		cbad=$(bad_since "$cseq") || new_guest "no verdict for $name: $cbad"
		[ -z "$cbad" ] || new_guest "lwnfs itself, confirming $name's kill, logged: $cbad"
	fi

	killer=''
	if [ -n "$file" ] && [ "$name" != original ] && [ "$stuck" = 1 ]; then
		killer="$file: $test; lwnfs stuck: it cannot be unloaded"
	elif [ -n "$confirmed" ] || { [ -n "$file" ] && [ "$name" = original ]; }; then
		killer="$file: $test"
	fi
	[ -z "$bad" ] || killer="${killer:+$killer; }the kernel log: $bad"
	if [ -n "$killer" ]; then
		echo "mutant $name: killed by $killer"
	elif [ -z "$file" ]; then
		echo "mutant $name: survived"
	fi	# else flaky or unconfirmed, said above
	[ "$stuck" = 0 ] || new_guest "lwnfs cannot be unloaded after $name"
	[ -z "$bad" ] || new_guest "the kernel log has problems after $name"
done <"$todo"
