#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage (inside a guest on the data-race kernel): harness/guest/race.sh [MODULE]
# The races no functional test can order, run for KCSAN to see
# (harness/debug-kernel.sh kcsan) for LWNFS_RACE_SECONDS (default 60):
#  - remounts that change uid=, gid=, mode= and max_counters= (with
#    mount(2), tests/programs/lwnfs-race remount) against two readers of
#    /proc/self/mounts (tests/programs/lwnfs-race show), whose line
#    lwnfs_show_options() writes from the options under sbi->lock; the
#    readers also check that uid= and gid= come from one remount (each
#    sets them as a pair);
#  - two writers of one counter (each open truncates it: setattr);
#  - on another counter, rounds of a write against futimens(2) let go at
#    once (tests/programs/lwnfs-race times), after each of which its times must be
#    the last one's, not a mix;
#  - on a third, the same rounds with the write held for 20 ms between
#    setting ctime and mtime (tests/programs/delay's module, built against the
#    guest's kernel) and the futimens(2) sent in once the module says a
#    write is held: the window KCSAN's sampling meets once in thousands
#    of rounds, entered on purpose (it needs the guest's 2 CPUs);
#  - counters made and removed beside them.
# Every path walk of the loops starts in a directory made here, never in
# the fixed tree, whose owner and mode the remounts change: the VFS reads
# those without a lock when it walks (generic_permission()), its own
# design, which KCSAN may report, ending the run before lwnfs's code is
# looked at.
# KCSAN samples: it watches about one access in kcsan.skip_watch, and
# stalls the task up to kcsan.udelay_task microseconds to see whether
# another changes it; for the run they are LWNFS_RACE_SKIP_WATCH (100;
# the kernel's 4000) and LWNFS_RACE_UDELAY (80, the kernel's).  The
# stalls also widen the windows the checks look into.  With 1,000 us
# stalls KCSAN reported a race of the kernel's own tick code
# (tick_nohz_next_event) under lwnfs itself, which ends the run.
# A KCSAN report panics the guest (panic_on_warn=1) and fails the run.
# Checks: every remount succeeded, no reader saw a torn pair, no round
# left torn times, a setter came in while a write was held; after the
# load, every loop succeeded at least once, the options read back are the
# last ones set, the counter holds a value that was written.
# Exits non-zero on a failure.
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
echo "${LWNFS_RACE_SKIP_WATCH:-100}" >"$skip"
echo "${LWNFS_RACE_UDELAY:-80}" >"$delay"

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
