# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source this
#
# The harness's settings and shared functions.  Those written ${NAME:-...}
# can be set in the environment; the verdict (the kernel-log pattern, the
# exit statuses) cannot.

LWNFS_CACHE=${LWNFS_CACHE:-/var/cache/lwnfs}
# The tree's top, for the tables of tests/data and the sources.
lwnfs_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# MiB and vCPUs of a guest (TCG runs one host thread per vCPU: two
# guests side by side on two cores run each other down).
LWNFS_GUEST_MEMORY=${LWNFS_GUEST_MEMORY:-1024}
LWNFS_GUEST_CPUS=${LWNFS_GUEST_CPUS:-2}
# Seconds a guest may take before it is stopped and counted as failed:
# the whole suite (make check), one matrix row, one boot of make
# check-life (apt installs headers and two kernels under TCG), anything
# else.
LWNFS_SUITE_TIMEOUT=${LWNFS_SUITE_TIMEOUT:-3600}
LWNFS_ROW_TIMEOUT=${LWNFS_ROW_TIMEOUT:-1800}
LWNFS_LIFE_TIMEOUT=${LWNFS_LIFE_TIMEOUT:-7200}
LWNFS_TOOL_TIMEOUT=${LWNFS_TOOL_TIMEOUT:-1800}
# What in a guest's kernel log fails a run (case matters: "VFS: Warning:
# ... old stat() call" is no kernel bug).  A stack's header is "Call
# Trace:" on x86 and riscv64, "Call trace:" on arm64; a hung task and an
# RCU stall print neither on every architecture.
LWNFS_KERNEL_BAD='BUG|WARNING|Oops|[Ll]eak|still in use|Busy inodes|Call [Tt]race|UBSAN|general protection|Unable to handle kernel|blocked for more than|detected (expedited )?stalls? on|hard LOCKUP|Kernel panic'
# LWNFS_KERNEL_BAD_SAMPLES, LWNFS_KERNEL_GOOD_SAMPLES: lines that are a
# problem, and lines that are none (tests/data/kernel-log).
mapfile -t LWNFS_KERNEL_BAD_SAMPLES < <(sed -n 's/^bad //p' "$lwnfs_top/tests/data/kernel-log")
mapfile -t LWNFS_KERNEL_GOOD_SAMPLES < <(sed -n 's/^good //p' "$lwnfs_top/tests/data/kernel-log")
# The one line vm.sh -c lets through: a stack's header, for a command
# that checks each stack in the log itself.
LWNFS_KERNEL_CALL_TRACE='^\[ *[0-9]+\.[0-9]+\] Call [Tt]race:[[:space:]]*$'
# Exit statuses with one meaning each across the harness, besides 0
# (passed), 1 (failed) and 2 (a bad command line).  None is one that
# timeout(1) gives (124 to 127), nor a signal's (128 and up).
LWNFS_EXIT_KERNEL_LOG=65	# vm.sh: the run's kernel log has problems or cannot be read
LWNFS_EXIT_GUEST_LOST=66	# vm.sh: the guest did not finish: a crash, a hang, its time out
LWNFS_EXIT_NEW_GUEST=75	# guest/kill-mutants.sh: go on in a new guest
LWNFS_EXIT_SKIP=77	# nothing to run: the row's kernel does not exist (root.sh)

# lwnfs_status_says STATUS: a guest run's exit status in words.
lwnfs_status_says() {
	case $1 in
	0) echo ok ;;
	1) echo "tests failed" ;;
	"$LWNFS_EXIT_KERNEL_LOG") echo "the kernel log has problems" ;;
	"$LWNFS_EXIT_GUEST_LOST") echo "the guest did not finish (crash, hang or timeout)" ;;
	124) echo "a command in the guest timed out" ;;
	*) echo "the guest failed with status $1" ;;
	esac
}

# Hours between two checks for a newer kernel in a root's archive.
LWNFS_ROOT_CHECK=${LWNFS_ROOT_CHECK:-12}

# lwnfs_quiet LOG MESSAGE COMMAND...: run COMMAND, its output into LOG;
# when it fails, print LOG and "SCRIPT: MESSAGE" on stderr and exit 1.
lwnfs_quiet() {
	local log=$1 message=$2 me=${0##*/}
	shift 2
	"$@" >"$log" 2>&1 && return
	cat "$log" >&2
	echo "${me%.sh}: $message" >&2
	exit 1
}

# lwnfs_in_root ROOT COMMAND...: COMMAND in the chroot ROOT, with none of
# the host's environment; nothing answers a package's questions there.
lwnfs_in_root() {
	local root=$1
	shift
	chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C \
		DEBIAN_FRONTEND=noninteractive "$@"
}

# lwnfs_build_mutant KDIR DIR LIST NAME: lwnfs with the mutant NAME of the
# list LIST (harness/mutants/mutant.pl), or as it is for NAME "original", built in
# DIR against the kernel tree KDIR; says where the log is when it fails.
lwnfs_build_mutant() {
	local kdir=$1 dir=$2 list=$3 name=$4 top=$lwnfs_top
	mkdir -p "$dir"
	cp "$top/Kbuild" "$top/conftest.sh" "$top/lwnfs.h" "$dir/"
	if [ "$name" = original ]; then
		cp "$top/lwnfs.c" "$dir/"
	else
		"$top/harness/mutants/mutant.pl" "$list" "$name" "$top/lwnfs.c" >"$dir/lwnfs.c" || return 1
	fi
	make -C "$kdir" M="$dir" modules >"$dir/build.log" 2>&1 && return
	echo "${0##*/}: $name does not build against $kdir (see $dir/build.log)" >&2
	return 1
}

# lwnfs_tally LOG: add the figures tap-run.sh wrote for LOG (LOG.count)
# to the caller's total_passed, total_failed and total_skipped.
lwnfs_tally() {
	local p f s
	read -r p f s _ <"$1.count"
	total_passed=$((total_passed + p)) total_failed=$((total_failed + f))
	total_skipped=$((total_skipped + s))
}

# lwnfs_row ROW: "RELEASE ARCH FLAVOUR BUILD CI BOOTS" of the matrix row
# ROW (tests/data/rows; BOOTS is "yes" or why not, in words); nothing for
# a row the table has not.
lwnfs_row() {
	awk -v row="$1" '!/^#/ && $1 == row { $1 = ""; sub(/^ +/, ""); print; exit }' \
		"$lwnfs_top/tests/data/rows"
}

# lwnfs_rows [COLUMN=VALUE...]: the names of the rows whose columns
# (release, arch, flavour, build, ci, boots) have those values, in the
# table's order, one a line.
lwnfs_rows() {
	awk -v want="$*" '
		BEGIN { n = split("row release arch flavour build ci boots", name)
			for (i = 1; i <= n; i++) col[name[i]] = i
			m = split(want, w, " ")
			for (i = 1; i <= m; i++) {
				split(w[i], kv, "=")
				if (!(kv[1] in col)) {
					print "lwnfs_rows: no column " kv[1] " in tests/data/rows" > "/dev/stderr"
					exit 2
				}
			} }
		/^#/ || !NF { next }
		{ for (i = 1; i <= m; i++) { split(w[i], kv, "="); if ($col[kv[1]] != kv[2]) next }
			print $1 }' "$lwnfs_top/tests/data/rows"
}

# lwnfs_arches: the architectures of tests/data/arches, in its order.
lwnfs_arches() {
	awk '!/^#/ && NF { print $1 }' "$lwnfs_top/tests/data/arches"
}

# lwnfs_arch ARCH: "TRIPLET BITS PROGRAMS" of ARCH (tests/data/arches);
# nothing for amd64 or an architecture the table has not.
lwnfs_arch() {
	awk -v a="$1" '!/^#/ && $1 == a { print $2, $3, $4; exit }' "$lwnfs_top/tests/data/arches"
}

# lwnfs_machine CONFIG: "OPTION QEMU MACHINE CPU CONSOLE BUS MEMORY CPUS DTB
# PACKAGE" of the machine that boots the kernel whose configuration is the
# file CONFIG (tests/data/machines: the first line whose option CONFIG
# sets, the first line when there is no CONFIG to read); "OPTION none WHY"
# where none does; nothing when no line fits.
lwnfs_machine() {
	local table=$lwnfs_top/tests/data/machines
	if [ -r "$1" ]; then
		awk 'FILENAME == ARGV[1] { if (sub(/^CONFIG_/, "") && sub(/=y$/, "")) set[$0] = 1; next }
			!/^#/ && NF && $1 in set { print; exit }' "$1" "$table"
	else
		awk '!/^#/ && NF { print; exit }' "$table"
	fi
}

# lwnfs_machine_packages: the Debian packages of tests/data/machines'
# QEMU binaries, one a line.
lwnfs_machine_packages() {
	awk '!/^#/ && NF && $2 != "none" && !seen[$NF]++ { print $NF }' "$lwnfs_top/tests/data/machines"
}

# lwnfs_series RELEASE: the kernel series, "6.1" for "6.1.0-57-amd64".
lwnfs_series() {
	local major=${1%%.*} rest=${1#*.}
	echo "$major.${rest%%[!0-9]*}"
}

# lwnfs_root_release ROOT: the release of the one kernel image in ROOT/boot
# (vmlinux where Debian installs it uncompressed: riscv64, ppc64el); says
# so and fails when there is not exactly one.
lwnfs_root_release() {
	local images=("$1"/boot/vmlinu[xz]-*)
	if [ "${#images[@]}" != 1 ] || [ ! -r "${images[0]}" ]; then
		echo "${0##*/}: no single kernel image in $1/boot" >&2
		return 1
	fi
	echo "${images[0]#"$1"/boot/vmlinu[xz]-}"
}

# lwnfs_kernel_image ROOT RELEASE: the path of RELEASE's image in ROOT/boot.
lwnfs_kernel_image() {
	local image=$1/boot/vmlinuz-$2
	[ -e "$image" ] || image=$1/boot/vmlinux-$2
	echo "$image"
}

# lwnfs_copy_tree ROOT DEST: a fresh copy of this tree's tracked and new
# files at ROOT/DEST, for a build inside a root: none of the host's objects.
lwnfs_copy_tree() {
	local root=${1:?} dest=${2:?} src=$lwnfs_top
	rm -rf --one-file-system "$root$dest"
	mkdir -p "$root$dest"
	if ! (cd "$src" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 cp --parents -t "$root$dest"); then
		echo "${0##*/}: copying the tree to $root$dest failed" >&2
		return 1
	fi
}

# lwnfs_apt_sources: the host's apt sources of binary packages,
# "URI SUITE SIGNED-BY COMPONENT..." (harness/images/apt-sources.awk).
lwnfs_apt_sources() {
	local list parts files=() f
	eval "$(apt-config shell list Dir::Etc::sourcelist/f parts Dir::Etc::sourceparts/d)"
	[ ! -f "$list" ] || files+=("$list")
	for f in "$parts"*; do
		case $f in
		*.list | *.sources) [ ! -f "$f" ] || files+=("$f") ;;
		esac
	done
	[ "${#files[@]}" != 0 ] || return 0
	awk -f "$lwnfs_top/harness/images/apt-sources.awk" "${files[@]}"
}

# lwnfs_codename: the host's release, as /etc/os-release names it
# (bookworm); "host" when it names none.
lwnfs_codename() {
	(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-host}") || echo host
}

# lwnfs_mirror main|security: the URI of the Debian archive, or of its
# security archive, that the host's apt sources name, so that no
# archive's host name is written in the harness.  The archive is the
# first entry for the host's release, else sid or unstable, testing,
# stable; the security archive the first for a "-security" suite; either
# with component main, signed by Debian's archive keyring or not said.
# Says so in one line and fails when the sources have none.
lwnfs_mirror() {
	local kind=$1 codename uri what
	codename=$(lwnfs_codename)
	[ "$codename" != host ] || codename=''
	# A third party's "stable" is commoner than Debian's: it ranks last.
	uri=$(lwnfs_apt_sources | awk -v kind="$kind" -v codename="$codename" '
		BEGIN { best = 9 }
		$3 != "-" && $3 !~ /debian-archive-keyring/ { next }
		{
			main = 0
			for (i = 4; i <= NF; i++)
				main = main || $i == "main"
		}
		!main { next }
		kind == "security" { if ($2 ~ /-security$/) { print $1; exit }; next }
		{
			rank = $2 == codename ? 1 : $2 == "sid" || $2 == "unstable" ? 2 : \
				$2 == "testing" ? 3 : $2 == "stable" ? 4 : 9
			if (rank < best) { best = rank; uri = $1 }
		}
		END { if (uri != "") print uri }')
	if [ -z "$uri" ]; then
		case $kind in
		main) what="archive (an entry for ${codename:+$codename, }sid, unstable, testing or stable" ;;
		security) what="security archive (an entry for a -security suite" ;;
		esac
		echo "${0##*/}: the host's apt sources name no Debian $what, component main)" >&2
		return 1
	fi
	echo "$uri"
}
