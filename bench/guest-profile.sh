#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: bench/guest-profile.sh   (in the guest of make bench-profile)
# perf on its software clock (TCG emulates no PMU) over four read loops
# of lwnfs-bench --loop; a report each into $LWNFS_OUT/profile-NAME.txt.
set -euo pipefail

n=${LWNFS_PROFILE_CALLS:-1000000}
insmod lwnfs.ko
mkdir -p /tmp/lwnfs
mount -t lwnfs lwnfs /tmp/lwnfs
echo 0 >/proc/sys/kernel/kptr_restrict
echo -1 >/proc/sys/kernel/perf_event_paranoid
for run in "lwnfs pread /tmp/lwnfs/counter" "lwnfs-iter preadv /tmp/lwnfs/counter" \
	"zero-iter preadv /dev/zero" "zero-read pread /dev/zero"; do
	read -r name how file <<<"$run"
	perf record -q -e cpu-clock -F 2000 -o /tmp/perf.data -- \
		tests/programs/lwnfs-bench --loop "$how" "$file" "$n"
	{
		echo "# $how of $file, $n calls, kernel $(uname -r)"
		perf report -i /tmp/perf.data --stdio --quiet --sort sym \
			--percent-limit 0.5
	} >"$LWNFS_OUT/profile-$name.txt"
done
umount /tmp/lwnfs
rmmod lwnfs
