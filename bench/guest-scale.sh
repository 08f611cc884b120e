#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: bench/guest-scale.sh   (in the guest of make bench-scale)
# lwnfs-scale against tmpfs, then lwnfs-peers against a redis-server
# started here; scale.json, peers.json and guest.json into $LWNFS_OUT.
set -euo pipefail

read -r -a sizes <<<"${LWNFS_SCALE_N:-1000 10000 100000}"
largest=0
for n in "${sizes[@]}"; do
	[ "$n" -le "$largest" ] || largest=$n
done
insmod lwnfs.ko
mkdir -p /tmp/lwnfs /tmp/tmpfs /run/redis-bench
# The largest directory and its entries; a tree 1,000 deep, its counter
# and the directory it is made in.
mount -t lwnfs -o "max_counters=$((largest + 1002))" lwnfs /tmp/lwnfs
mount -t tmpfs -o size=1G,nr_inodes=0 tmpfs /tmp/tmpfs
tests/programs/lwnfs-scale /tmp/lwnfs /tmp/tmpfs "$LWNFS_OUT/scale.json" "${sizes[@]}"

# Redis on loopback too: the guest has it down.
ip link set lo up
sock=/run/redis-bench/redis.sock port=6390
redis-server --port "$port" --bind 127.0.0.1 --unixsocket "$sock" --save '' \
	--appendonly no --daemonize yes --dir /run/redis-bench \
	--logfile /run/redis-bench/log
for _ in $(seq 100); do
	[ ! -S "$sock" ] || break
	sleep 0.1
done
[ -S "$sock" ] || {
	cat /run/redis-bench/log >&2
	echo "bench-scale: redis-server did not open $sock in 10 s" >&2
	exit 1
}
tests/programs/lwnfs-peers /tmp/lwnfs/counter /tmp/tmpfs "$sock" "$port" "$LWNFS_OUT/peers.json"
redis-cli -s "$sock" shutdown nosave >/dev/null
umount /tmp/lwnfs /tmp/tmpfs
rmmod lwnfs
# vm.sh's lwnfs_accel= kernel parameter reaches init's environment.
printf '{ "kernel": "%s", "accel": "%s" }\n' "$(uname -r)" "${lwnfs_accel:-unknown}" \
	>"$LWNFS_OUT/guest.json"
