# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154
#
# Sourced by stress.sh and race.sh, which set $end (in bash's $SECONDS)
# and $ops, an empty directory.

# loop NAME COMMAND...: run COMMAND until $end; count the runs and the
# runs that succeeded in $ops/NAME.PID.
loop() {
	local name=$1 runs=0 ok=0
	shift
	while [ "$SECONDS" -lt "$end" ]; do
		if "$@" >/dev/null 2>&1; then
			ok=$((ok + 1))
		fi
		runs=$((runs + 1))
	done
	echo "$ok $runs" >"$ops/$name.$BASHPID"
}

# loops_check PREFIX NAME...: print "PREFIX: NAME OK of RUNS runs
# succeeded" for every loop; fail when one of the NAMEs never succeeded.
loops_check() {
	local prefix=$1 name f
	shift
	for f in "$ops"/*.[0-9]*; do
		name=$(basename "$f")
		echo "${name%.*} $(cat "$f")"
	done | awk -v p="$prefix" '{ ok[$1] += $2; n[$1] += $3 }
		END { for (k in n) printf "%s: %-10s %d of %d runs succeeded\n", p, k, ok[k], n[k] }' | sort
	for name; do
		[ "$(cat "$ops/$name".* | awk '{ s += $1 } END { print s + 0 }')" -gt 0 ] || {
			echo "$prefix: FAILED: no $name run succeeded"
			return 1
		}
	done
}
