#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/race.sh [MODULE]   (on the KCSAN kernel)
# The races no functional test can order, for LWNFS_RACE_SECONDS, under
# KCSAN and lwnfs-race's own checks; then the options and counter read back.
# Every path walk starts in a directory made here, not in the fixed
# tree whose owner and mode the remounts change: the VFS reads those
# unlocked by design (generic_permission()), and KCSAN's report of that
# would end the run before lwnfs's code is looked at.
set -euo pipefail

module=${1:-lwnfs.ko}
race=$PWD/tests/programs/lwnfs-race
delay_module=$PWD/tests/programs/delay/lwnfs_delay.ko
seconds=${LWNFS_RACE_SECONDS:-60}
here=$(cd "$(dirname "$0")" && pwd)
mnt=/tmp/lwnfs-race ops=/tmp/race-ops
fail() { echo "race: FAILED: $*"; exit 1; }
# shellcheck source=harness/guest/loop.bash
. "$here/loop.bash"

debugfs=/sys/kernel/debug
mountpoint -q "$debugfs" || mount -t debugfs debugfs "$debugfs"
grep -qx 'enabled: 1' "$debugfs/kcsan" || fail "KCSAN is not enabled"
skip=/sys/module/kcsan/parameters/skip_watch delay=/sys/module/kcsan/parameters/udelay_task
skip0=$(cat "$skip") delay0=$(cat "$delay")
trap 'echo "$skip0" >"$skip"; echo "$delay0" >"$delay"' EXIT
# KCSAN watches one access in skip_watch (the kernel's: 4000), stalling
# udelay_task us for another to touch it: watch often, so that a run
# meets the narrow windows.
echo 100 >"$skip"
echo 80 >"$delay"

rm -rf "$ops"
mkdir -p "$mnt" "$ops"
insmod "$module"
insmod "$delay_module" || fail "tests/programs/delay's module did not load"
mount -t lwnfs lwnfs "$mnt"
mkdir "$mnt/d"
cd "$mnt/d"
echo 0 >c
echo 0 >t
echo 0 >w

put() { echo "$1" >c; }
made() { : >"x$BASHPID" && rm "x$BASHPID"; }

end=$((SECONDS + seconds))
pids=()
"$race" remount "$mnt" "$seconds" & pids+=($!)
"$race" show "$mnt" "$seconds" & pids+=($!)
"$race" show "$mnt" "$seconds" & pids+=($!)
loop write1 put 1 &
loop write2 put 2 &
"$race" times t "$seconds" & pids+=($!)
"$race" times w "$seconds" /sys/module/lwnfs_delay/parameters/holding & pids+=($!)
loop made made &
for pid in "${pids[@]}"; do
	wait "$pid" || fail "tests/programs/lwnfs-race: status $? (above)"
done
wait

loops_check race write1 write2 made || exit 1
mount -o remount,uid=1007,gid=2007,mode=0700,max_counters=99 "$mnt"
grep -q "^lwnfs $mnt lwnfs rw,.*uid=1007,gid=2007,mode=700,max_counters=99 " /proc/self/mounts ||
	fail "the options read back: $(grep "^lwnfs $mnt " /proc/self/mounts)"
value=$(cat c)
case $value in 1 | 2) ;; *) fail "the counter holds $value, written: 1 and 2" ;; esac
held=$(cat /sys/module/lwnfs_delay/parameters/delays)
cd /
umount "$mnt"
rmmod lwnfs lwnfs_delay
echo "race: $seconds s of load, $held writes held, kcsan.skip_watch $(cat "$skip") and udelay_task $(cat "$delay")" \
	"(the kernel's: $skip0 and $delay0, back on exit);" \
	"$(grep -E '^(setup_watchpoints|data_races|races_unknown_origin):' "$debugfs/kcsan" | tr '\n' ' ')"
