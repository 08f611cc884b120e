#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/guest/stress.sh   (in the guest of make stress)
# Load, then reloads raced by mounts, LWNFS_STRESS_SECONDS each; then the
# values taken, and the inode and dentry counts, checked.
set -euo pipefail

seconds=${LWNFS_STRESS_SECONDS:-30}
m1=/tmp/lwnfs m2=/tmp/lwnfs2
mkdir -p "$m1" "$m2"
inodes() { awk '{ print $1 - $2 }' /proc/sys/fs/inode-nr; }
dentries() { awk '{ print $1 - $2 }' /proc/sys/fs/dentry-state; }
fail() { echo "stress: FAILED: $*"; exit 1; }

sync
inodes0=$(inodes) dentries0=$(dentries)
insmod lwnfs.ko
mount -t lwnfs lwnfs "$m1"
ops=/tmp/stress-ops
mkdir -p "$ops"

# shellcheck source=harness/guest/loop.bash
. "$(dirname "$0")/loop.bash"

end=$((SECONDS + seconds))
loop read1 cat "$m1/counter" &
loop read2 cat "$m1/subdir/subcounter" &
loop write sh -c "echo 5 > $m1/counter" &
loop made sh -c "touch $m1/x$RANDOM; rm -f $m1/x*" &
loop mount sh -c "mount -t lwnfs lwnfs $m2 && cat $m2/counter && umount $m2" &
loop rmmod_busy sh -c "! rmmod lwnfs" &
wait
grep -q '^lwnfs ' /proc/modules || fail "the module went away while mounted"
rm -f "$m1"/x*
umount "$m1"
rmmod lwnfs

# An rmmod refused while the race loop holds a mount leaves the module
# loaded: the next cycle starts from there, not from a failing insmod.
reload() {
	{ grep -q '^lwnfs ' /proc/modules || insmod lwnfs.ko; } && mount -t lwnfs lwnfs "$m1" &&
		cat "$m1/counter" && umount "$m1" && rmmod lwnfs
}
end=$((SECONDS + seconds))
loop reload reload &
loop race sh -c "mount -t lwnfs lwnfs $m2 && cat $m2/counter; umount $m2" &
wait
umount "$m1" 2>/dev/null || true
umount "$m2" 2>/dev/null || true
grep -q '^lwnfs ' /proc/modules || insmod lwnfs.ko
mount -t lwnfs lwnfs "$m1"

echo 0 >"$m1/counter"
for i in 1 2 3 4; do tests/programs/lwnfs-reader -t 2 -n 5000 "$m1/counter" >"/tmp/stress-values.$i" & done
wait
total=$(cat /tmp/stress-values.* | wc -l)
distinct=$(sort -n /tmp/stress-values.* | uniq | wc -l)
last=$(sort -n /tmp/stress-values.* | tail -n 1)
if [ "$total" != 40000 ] || [ "$distinct" != 40000 ] || [ "$last" != 39999 ]; then
	fail "values: $total taken, $distinct distinct, last $last"
fi
[ "$(cat "$m1/counter")" = 40000 ] || fail "a value was lost"

umount "$m1"
rmmod lwnfs
sync
echo 2 >/proc/sys/vm/drop_caches
inodes1=$(inodes) dentries1=$(dentries)

loops_check stress read1 read2 write made mount rmmod_busy reload race || exit 1
echo "stress: $((seconds * 2)) s of load; 40000 values read after it, all distinct, none lost"
echo "stress: inodes in use $inodes0 -> $inodes1, dentries $dentries0 -> $dentries1"
# Other processes of the guest create and free a few inodes of their own.
[ $((inodes1 - inodes0)) -lt 50 ] || fail "inodes not freed"
[ $((dentries1 - dentries0)) -lt 50 ] || fail "dentries not freed"
