#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/checks/docs-check.sh
#        DOCS_TREE=DIR docs-check.sh
#
# On the host, with no guest: are the docs (README.md, lwnfs.5 and
# docs/*.md) still true to the tree?  In the tree DOCS_TREE (default: the
# one holding this script) it checks
#  - paths: each path under harness/, tests/, scripts/, debian/, docs/ or
#    .ci/ that a doc names exists (a glob must match; a test program may be
#    named without its .c), and so does each file named alone in
#    backticks (lwnfs.c, init.sh, ...), unless KERNEL_PATHS or BUILT below
#    list it;
#  - links: each relative Markdown link's file exists, and its #anchor is
#    a heading of it;
#  - names: each lwnfs_* or LWNFS_* name, in backticks or not (lwnfs.5
#    too), is in lwnfs.c, lwnfs.h, conftest.sh or Kbuild (an LWNFS_*
#    setting of the harness may be in harness/, tests/, scripts/ or .ci/
#    instead); each other C name in backticks (one with an underscore, or
#    written as name()) and each name() outside them is in the code,
#    dkms.conf or the Makefile, or (docs/testing.md) in the harness, or
#    in NAMES below, each with why;
#  - constants: each value a doc states for LWNFS_MAGIC (every 8-digit
#    0x number), LWNFS_WRITE_MAX ("longer than N bytes"),
#    LWNFS_TEXT_MAX ("N bytes or more"), the defaults of mode= and
#    max_counters= as lwnfs.c sets them, however phrased ("default 755",
#    "defaults to 0755", "default mode 0755", "0755 by default", "0755
#    (the default)", the option named in the same clause), the built-in
#    files' and directories' modes, the fixed tree's inode numbers
#    ("inode numbers 1 to N"), and any LWNFS_ define followed by a number
#    ("LWNFS_TEXT_MAX (24)"), matches the code;
#  - make targets: each make command a doc shows (in backticks, a sh
#    block, or bold in lwnfs.5) names a target of the Makefile;
#  - errors: each errno under ERRORS in lwnfs.5 is one lwnfs.c or lwnfs.h
#    returns, or one in VFS_ERRNOS below, which the VFS, libfs or a kernel
#    helper returns for lwnfs; and each errno the code returns is there;
#  - errnos in prose: each sentence of README.md, docs/walkthrough.md and
#    lwnfs.5 (an ERRORS entry is one) that names an errno and an input the
#    tests reject (a reject call's TEXT in a bats file: `0x10`, `1e3`) or
#    a phrase of ERRNO_PHRASES below ("S64_MAX") has the tests' errno
#    for it next to it: the last errno before it or the first after;
#  - commands: each command of a sh block of README.md (after sudo and
#    VAR=value words, each of a && || ; | chain) is make, a script of the
#    tree, or one of COMMANDS below, each with its Debian package;
#  - messages: each message README.md's Troubleshooting quotes (a span
#    of three words or more that is no command, or a line of a block that
#    is not sh) is one the tree produces or tests: each of its pieces (cut
#    at <placeholders>, "..." and ": ") of two words or more is in
#    lwnfs.c, lwnfs.h, conftest.sh, Kbuild, the Makefile, dkms.conf or
#    under harness/, tests/, scripts/, debian/ or .ci/, whole or less its
#    last words (a value there: "module lwnfs.ko" for "module $1"), down
#    to three words; or it is another program's, in OTHERS_MESSAGES below;
#  - figures: no doc but docs/results.md states a time, a date, a commit
#    or a count of tests (lwnfs.5's .TH date aside);
#  - targets: make help and docs/testing.md's table name the same ones;
#  - lint tools: a doc that lists make lint's tools in a table row
#    ("| `make lint` | TOOLS |", docs/testing.md's) lists make help's.
# Prints one line per problem on stderr and exits 1; else prints
# "docs: ok (N docs; N paths, N links, N names, N constants, N targets,
# N errnos, N errno pairings, N commands, N messages checked)".
#
# To see it fail: cp -r . /tmp/t, change LWNFS_WRITE_MAX in /tmp/t/lwnfs.h,
# remove a target from /tmp/t/Makefile, write "`EFAULT` for anything
# else" in /tmp/t/docs/walkthrough.md, a command frobnicate in a sh block
# of /tmp/t/README.md or "run cmake first" in its Troubleshooting, then
# DOCS_TREE=/tmp/t tests/checks/docs-check.sh.
set -euo pipefail

# Names the docs put in backticks that lwnfs's code does not contain.
declare -A NAMES=(
	# The 2002 article's code, which the walkthrough shows beside lwnfs's.
	[lfs_*]="the 2002 article's own functions"
	[get_sb_single]="2002: the mount helper get_tree_single() replaced"
	[mount_single]="2.6.37 to 6.x: between get_sb_single() and get_tree_single()"
	[d_alloc_root]="2002: the root's dentry, before d_make_root()"
	[d_make_root]="called for lwnfs inside simple_fill_super()"
	[d_alloc]="2002: the dentry, before d_alloc_name()"
	[full_name_hash]="2002: the name's hash, which d_alloc_name() computes now"
	[PAGE_CACHE_SIZE]="2002: the block size, removed in 4.6"
	[CURRENT_TIME]="2002: the time, before current_time()"
	[simple_strtol]="2002: the write's parser, before kstrtos64()"
	[simple_dir_inode_operations]="2002: the article's directory operations"
	# The kernel's own filesystems, which lwnfs does as they do.
	[mode_strip_sgid]="the VFS's, which clears set-group-ID from a new file's mode before ->create"
	[seq_lseek]="the llseek of /proc's seq_file files, which a counter open for reading seeks as"
	# Kernel configuration: what a kernel built so does.
)
# Paths in the docs that are the kernel's, not this tree's.
declare -A KERNEL_PATHS=(
	[merge_config.sh]="the kernel's scripts/kconfig/merge_config.sh"
	[checkpatch.pl]="the kernel's scripts/checkpatch.pl"
	[kvm_guest.config]="the kernel's arch/x86/configs/kvm_guest.config"
)
# Errors lwnfs.c returns that no user sees, so that ERRORS need not list them.
declare -A UNSEEN_ERRNOS=(
	[EAGAIN]="only to io_uring's IOCB_NOWAIT try, which io_uring then makes again in its own threads"
)
# What the docs may pair with an errno besides the inputs of the tests'
# reject calls: a phrase, and the errno a test's name gives it with it
# (docs-check fails when no test name in tests/ says both).
declare -A ERRNO_PHRASES=(
	[S64_MAX]=EOVERFLOW
	[s64 range]=ERANGE
	[other than 0]=EINVAL
	[longer than 32 bytes]=EINVAL
	[longer than 255 bytes]=ENAMETOOLONG
	[other size]=EINVAL
	[unknown]=EINVAL
	[same open file]=EINVAL
	[symlink]=EPERM
	[read-only mount]=EROFS
)
# Files the build makes, which the docs name but git does not hold.
declare -A BUILT=(
	[conftest.h]="written by conftest.sh at build time"
)
# Commands the README shows that are neither make nor a script of the
# tree: each is on a Debian system with the package named.
declare -A COMMANDS=(
	[apt]="apt"
	[cat]="coreutils"
	[dkms]="dkms"
	[dpkg]="dpkg"
	[insmod]="kmod"
	[mkdir]="coreutils"
	[mokutil]="mokutil"
	[mount]="mount"
	[reboot]="systemd-sysv"
	[rmmod]="kmod"
	[sign-file]="the kernel's scripts/sign-file, in its headers (linux-headers-*)"
	[umount]="mount"
)
# Messages README.md's Troubleshooting quotes that are other programs',
# which no test of the tree checks: the start of each, and whose it is.
declare -A OTHERS_MESSAGES=(
	["Error! Bad return status for module build"]="dkms's, when a build fails"
	["dpkg: error processing package"]="dpkg's, for the kernel package whose DKMS hook failed"
)
# Errors of lwnfs.5 that lwnfs.c does not return itself.
declare -A VFS_ERRNOS=(
	[EACCES]="the VFS's permission check, before lwnfs is called"
	[ENODEV]="the VFS's do_mmap() for a file without ->mmap, as a counter is"
	[EOPNOTSUPP]="the VFS's vfs_tmpfile() for a directory without ->tmpfile, as lwnfs's are"
	[ENAMETOOLONG]="the VFS's lookup refuses a name over NAME_MAX (255)"
	[ENOTEMPTY]="libfs's simple_rmdir(), which lwnfs_rmdir() calls"
	[EROFS]="the VFS's mnt_want_write() on a read-only mount"
	[ERANGE]="kstrtos64(), whose error lwnfs_write_iter() returns"
)

checks=$(cd "$(dirname "$0")" && pwd)
tree=${DOCS_TREE:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$tree"
if [ ! -f lwnfs.c ] || [ ! -f Makefile ]; then
	echo "docs: $tree is not an lwnfs tree" >&2
	exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

declare -A used=()	# the entries of the lists above that a doc needed
problems=0
problem() {
	echo "docs: $*" >&2
	problems=$((problems + 1))
}

docs=()
for f in README.md lwnfs.5 docs/*.md; do
	if [ -f "$f" ]; then
		docs+=("$f")
	else
		problem "no $f"
	fi
done
md_docs=()
for f in "${docs[@]}"; do
	[[ $f != *.md ]] || md_docs+=("$f")
done
code=()
for f in lwnfs.c lwnfs.h conftest.sh Kbuild; do
	if [ -f "$f" ]; then code+=("$f"); else problem "no $f"; fi
done
mapfile -t harness < <(find harness tests scripts .ci -type f 2>/dev/null)
code+=(/dev/null) harness+=(/dev/null)	# never none: grep would read stdin

# --- What the docs say --------------------------------------------------
# "FILE<TAB>LINE<TAB>KIND<TAB>TEXT" for each thing to check, KIND being
# span (in backticks, outside fenced blocks), path (a path under one of
# the tree's folders, outside fenced blocks or in a sh block), sh (a line
# of a sh block), link (a link's target), heading (its anchor) or make (a
# make command in bold in lwnfs.5).
awk -v OFS='\t' -f "$checks/docs-said.awk" "${docs[@]}" >"$work/said"

# --- Paths ---------------------------------------------------------------
declare -A in_tree=()	# every file name in the tree
while IFS= read -r f; do
	in_tree[${f##*/}]=1
done < <(find . -path ./.git -prune -o -type f -print)
n_paths=0
check_path() {	# FILE LINE PATH
	local path=${3#./}
	path=${path%%#*}
	[ -n "$path" ] || return 0
	[[ $path != *'<'* && $path != *'>'* && $path != *'$'* ]] || return 0
	if [ -n "${KERNEL_PATHS[$path]:-}" ] || [ -n "${BUILT[$path]:-}" ]; then
		used[$path]=1
		return 0
	fi
	n_paths=$((n_paths + 1))
	if [[ $path == *[*?[]* ]]; then
		compgen -G "$path" >/dev/null || problem "$1:$2: nothing matches $path"
	elif [[ $path == */* ]]; then
		[ -e "$path" ] || [ -e "$path.c" ] || problem "$1:$2: no $path"
	elif [ -z "${in_tree[$path]:-}" ]; then
		problem "$1:$2: no file $path in the tree"
	fi
}
while IFS=$'\t' read -r file line kind text; do
	case $kind in
	path) check_path "$file" "$line" "$text" ;;
	span)
		read -r -a words <<<"$text"
		for word in ${words[@]+"${words[@]}"}; do
			word=${word#./}
			[[ $word =~ ^[A-Za-z0-9_.-]+\.(c|h|sh|pl|md|bats|bash|5|conf|config|expected)$ ||
				$word =~ ^(Kbuild|Makefile|LICENSE)$ ]] || continue
			check_path "$file" "$line" "$word"
		done
		;;
	esac
done <"$work/said"

# --- Links ---------------------------------------------------------------
declare -A headings=()
while IFS=$'\t' read -r file _ kind text; do
	[ "$kind" != heading ] || headings[$file#$text]=1
done <"$work/said"
n_links=0
while IFS=$'\t' read -r file line kind text; do
	[ "$kind" = link ] || continue
	case $text in http://* | https://* | mailto:*) continue ;; esac
	n_links=$((n_links + 1))
	target=${text%%#*} anchor=
	[[ $text != *'#'* ]] || anchor=${text#*#}
	if [ -z "$target" ]; then
		target=$file
	else
		target=$(realpath -m --relative-to=. "$(dirname "$file")/$target")
	fi
	if [ ! -e "$target" ]; then
		problem "$file:$line: a link to $text: no $target"
	elif [ -n "$anchor" ] && [ -z "${headings[$target#$anchor]:-}" ]; then
		problem "$file:$line: a link to $text: no heading #$anchor in $target"
	fi
done <"$work/said"

# --- Names ---------------------------------------------------------------
# words FILE...: the C words of FILEs, one a line.
words() { grep -IhoE '[A-Za-z0-9_]+' "$@" | sort -u; }	# text files only
declare -A in_code=() in_build=() in_harness=()
while read -r w; do in_code[$w]=1; done < <(words "${code[@]}")
while read -r w; do in_build[$w]=1; done < <(words dkms.conf Makefile 2>/dev/null)
while read -r w; do in_harness[$w]=1; done < <(words "${harness[@]}")
allowed() {	# NAME: in NAMES, or matches a pattern there
	local key
	for key in "${!NAMES[@]}"; do
		# shellcheck disable=SC2053 # the keys are patterns
		if [[ $1 == $key ]]; then
			used[$key]=1
			return 0
		fi
	done
	return 1
}
n_names=0
declare -A seen=()
while IFS=$'\t' read -r file line kind id; do
	case $kind in name | kname) ;; *) continue ;; esac
	[ -z "${seen[$file $id]:-}" ] || continue
	seen[$file $id]=1
	n_names=$((n_names + 1))
	[ -z "${in_code[$id]:-}" ] || continue
	if [ "$kind" = name ]; then
		if [[ $id == lwnfs_* ]]; then
			problem "$file:$line: $id is in none of lwnfs.c, lwnfs.h, conftest.sh, Kbuild"
		elif [ -z "${in_harness[$id]:-}" ]; then
			problem "$file:$line: $id is in neither the code nor the harness"
		fi
		continue
	fi
	[ -z "${in_build[$id]:-}" ] || continue
	[ "$file" != docs/testing.md ] || [ -z "${in_harness[$id]:-}" ] || continue
	allowed "$id" ||
		problem "$file:$line: $id is not in the code, and not on docs-check.sh's list of names"
done <"$work/said"

# --- Constants -------------------------------------------------------------
# What the code says: "NAME VALUE", VALUE in decimal.
{
	sed -nE 's/^#define[[:space:]]+(LWNFS_[A-Z0-9_]+)[[:space:]]+(0x[0-9a-fA-F]+|[0-9]+)\b.*/\1 \2/p' lwnfs.h |
		while read -r name value; do echo "$name $((value))"; done
	# The fixed tree: inode numbers 1 (the root) to the entries before
	# LWNFS_NR_BUILTIN, each made with number which + 1.
	if grep -qF 'which + 1' lwnfs.c; then
		echo "INODES_LAST $(awk '/^enum lwnfs_builtin/ { on = 1; next }
			on && /LWNFS_NR_BUILTIN/ { print n; exit }
			on && /^\tLWNFS_/ { n++ }' lwnfs.c)"
	fi
	echo "FILE_MODE $((8#$(sed -nE 's/.*"counter", S_IFREG \| ([0-7]+),.*/\1/p' lwnfs.c)))"
	echo "DIR_MODE $((8#$(sed -nE 's/.*"subdir", S_IFDIR \| ([0-7]+),.*/\1/p' lwnfs.c)))"
	# The options' defaults, as lwnfs.c sets them on a new superblock:
	# a number, or a define of lwnfs.h.
	sed -nE 's/^[[:space:]]*sbi->opts\.(mode|max_counters) = ([A-Za-z0-9_]+);.*/\1 \2/p' lwnfs.c |
		while read -r option value; do
			if [[ $value == LWNFS_* ]]; then
				value=$(sed -nE "s/^#define[[:space:]]+${value}[[:space:]]+(0x[0-9a-fA-F]+|[0-9]+)\b.*/\1/p" lwnfs.h)
			fi
			[[ $value =~ ^(0x[0-9a-fA-F]+|[0-9]+)$ ]] || continue
			echo "DEFAULT_${option^^} $((value))"
		done
} >"$work/values"
value_of() { awk -v n="$1" '$1 == n { print $2 }' "$work/values"; }

# What the docs say: "FILE LINE NAME VALUE DECIMAL" for each stated value
# (a mode is octal, however written), from the
# text of each doc with lines joined (a statement may span two), markup
# and backticks taken out.
perl "$checks/docs-stated.pl" "${docs[@]}" >"$work/stated"

n_constants=0
while read -r file line name stated decimal; do
	if [ "$name" = INODES_FIRST ]; then want=1; else want=$(value_of "$name"); fi
	if [ -z "$want" ]; then
		# a define of another kind (a string), or a name the code lost
		[[ $name != LWNFS_* ]] || grep -qw -- "$name" lwnfs.h ||
			problem "$file:$line: states $name = $stated, and the code has no $name"
		[[ $name == LWNFS_* ]] ||
			problem "$file:$line: states $name, which docs-check.sh cannot find in the code"
		continue
	fi
	n_constants=$((n_constants + 1))
	case $name in
	*MODE) has=$(printf '0%o' "$want") ;;
	*MAGIC) has=$(printf '0x%x' "$want") ;;
	*) has=$want ;;
	esac
	[ "$decimal" = "$want" ] ||
		problem "$file:$line: states $name = $stated, the code has $has"
done <"$work/stated"
for name in LWNFS_MAGIC LWNFS_WRITE_MAX DEFAULT_MODE DEFAULT_MAX_COUNTERS INODES_LAST; do
	awk -v n="$name" '$1 == "lwnfs.5" && $3 == n { found = 1 } END { exit !found }' "$work/stated" ||
		problem "lwnfs.5 no longer states $name: the check would check nothing"
done

# --- Make targets ----------------------------------------------------------
targets=" $(sed -nE 's/^([A-Za-z0-9][A-Za-z0-9_ -]*):([^=]|$).*/\1/p' Makefile | tr '\n' ' ') "
n_targets=0
while IFS=$'\t' read -r file line kind text; do
	case $kind in span | sh | make) ;; *) continue ;; esac
	text=${text%%#*}
	while [[ $text =~ \<[^\>]*\> ]]; do	# <placeholders>
		text=${text/"${BASH_REMATCH[0]}"/X}
	done
	[[ $text =~ (^|[[:space:]])make([[:space:]]|$) ]] || continue
	# a command: make, after nothing but sudo and VAR=value words
	read -r -a words <<<"${text%%make*}"
	command=1
	for word in ${words[@]+"${words[@]}"}; do
		[[ $word == sudo || $word == *=* ]] || command=0
	done
	[ "$command" = 1 ] || continue
	read -r -a words <<<"${text#*make}"
	target=
	skip=0
	for word in ${words[@]+"${words[@]}"}; do
		if [ "$skip" = 1 ]; then skip=0; continue; fi
		case $word in
		-C | -f | -j | -o) skip=1 ;;
		-* | *=*) ;;
		'&&' | '||' | ';' | '|') break ;;
		*) target=$word; break ;;
		esac
	done
	[ -n "$target" ] || continue
	n_targets=$((n_targets + 1))
	if ! [[ $target =~ ^[a-z][a-z0-9_-]*$ && $targets == *" $target "* ]]; then
		problem "$file:$line: make $target: no such target in the Makefile"
	fi
done <"$work/said"

# --- Errors of lwnfs.5 -----------------------------------------------------
mapfile -t listed < <(awk '/^\.SH / { on = ($2 == "ERRORS") } on && prev == ".TP" && /^\.B E[A-Z0-9]+$/ { print $2 } { prev = $0 }' lwnfs.5)
mapfile -t returned < <(grep -ohE -- '-E[A-Z0-9]+\b' lwnfs.c lwnfs.h | tr -d - | sort -u)
[ "${#listed[@]}" -gt 0 ] || problem "lwnfs.5: no errno under ERRORS"
for e in ${listed[@]+"${listed[@]}"}; do
	[ -z "${VFS_ERRNOS[$e]:-}" ] || used[$e]=1
	[[ " ${returned[*]} " == *" $e "* ]] || [ -n "${VFS_ERRNOS[$e]:-}" ] ||
		problem "lwnfs.5: ERRORS lists $e, which lwnfs.c and lwnfs.h never return, and which is not in docs-check.sh's VFS_ERRNOS"
done
for e in ${returned[@]+"${returned[@]}"}; do
	if [ -n "${UNSEEN_ERRNOS[$e]:-}" ]; then
		used[$e]=1
		[[ " ${listed[*]} " != *" $e "* ]] ||
			problem "lwnfs.5: ERRORS lists $e, which docs-check.sh's UNSEEN_ERRNOS says no user sees"
		continue
	fi
	[[ " ${listed[*]} " == *" $e "* ]] ||
		problem "lwnfs.5: the code returns $e, which ERRORS does not list"
done

# --- Errnos in prose ---------------------------------------------------------
# The tests' input->errno table: each `reject 'TEXT' ERRNO` of a bats file
# (TEXT as printf %b gives it, when it is a word a doc could quote), and
# each ERRNO_PHRASES entry, which a test's name must say with its errno.
# Each sentence of README.md, docs/walkthrough.md and lwnfs.5 (an ERRORS
# entry is one) that names an errno and an input of the table must have
# the table's errno next to the input: the last errno before it, or the
# first after it.  Prints "problem TEXT", "used PHRASE", "checked N".
phrases=()
for key in "${!ERRNO_PHRASES[@]}"; do
	phrases+=("$key=${ERRNO_PHRASES[$key]}")
done
perl "$checks/docs-errnos.pl" tests/*.bats -- ${phrases[@]+"${phrases[@]}"} -- README.md docs/walkthrough.md lwnfs.5 >"$work/errnos"
n_pairings=0
while read -r what rest; do
	case $what in
	problem) problem "$rest" ;;
	used) used[$rest]=1 ;;
	checked) n_pairings=$rest ;;
	esac
done <"$work/errnos"

# --- Commands of the README --------------------------------------------------
# is_command WORDS...: the first word, after sudo and VAR=value words, is
# make, a script of the tree or one of COMMANDS (marked used); cmd_word
# is set to it.
is_command() {
	local w
	cmd_word=
	for w in "$@"; do
		[[ $w == sudo || $w =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] && continue
		cmd_word=$w
		if [ "$w" = make ] || [[ $w == */* && $w != /* && -f ${w#./} ]]; then
			return 0
		fi
		[ -n "${COMMANDS[${w##*/}]:-}" ] || return 1
		used[${w##*/}]=1
		return 0
	done
	return 1
}
n_commands=0
continued=0
while IFS=$'\t' read -r file line kind text; do
	if [ "$file" != README.md ] || [ "$kind" != sh ]; then
		continue
	fi
	# the rest of a command a line ending in \ began
	if [ "$continued" = 1 ]; then
		[[ $text == *\\ ]] || continued=0
		continue
	fi
	[[ $text != *\\ ]] || continued=1
	text=${text%%#*}
	while [[ $text =~ \$\([^\)]*\) ]]; do	# $(uname -r)
		text=${text/"${BASH_REMATCH[0]}"/X}
	done
	text=${text//'&&'/;}
	text=${text//'||'/;}
	text=${text//|/;}
	IFS=';' read -r -a parts <<<"$text"
	for part in ${parts[@]+"${parts[@]}"}; do
		read -r -a words <<<"$part"
		[ "${#words[@]}" -gt 0 ] || continue
		n_commands=$((n_commands + 1))
		is_command "${words[@]}" ||
			problem "README.md:$line: $cmd_word: neither make, a script of the tree, nor in docs-check.sh's COMMANDS"
	done
done <"$work/said"

# --- Messages README.md's Troubleshooting quotes -------------------------------
# "LINE<TAB>MESSAGE" for each span (joined across lines) of three words or
# more, and each line of a block that is not sh, in the section.
perl "$checks/docs-messages.pl" README.md >"$work/messages"
corpus=$work/corpus
cat lwnfs.c lwnfs.h conftest.sh Kbuild Makefile dkms.conf >"$corpus"
find harness tests scripts debian .ci -type f -exec cat {} + >>"$corpus" 2>/dev/null
n_messages=0
while IFS=$'\t' read -r line message; do
	read -r -a words <<<"$message"
	! is_command "${words[@]}" || continue
	n_messages=$((n_messages + 1))
	message=${message#... }
	other=
	for key in "${!OTHERS_MESSAGES[@]}"; do
		if [[ $message == "$key"* ]]; then other=$key; fi
	done
	if [ -n "$other" ]; then
		used[$other]=1
		continue
	fi
	# the pieces: cut at <placeholders>, "..." and ": "
	pieces=$(sed -E 's/<[^>]*>/\n/g; s/\.\.\./\n/g; s/: /\n/g' <<<"$message")
	while IFS= read -r piece; do
		piece=$(sed -E 's/^[[:space:],;:(]+//; s/[[:space:],;:]+$//' <<<"$piece")
		[ "$(grep -oE '[A-Za-z]{2,}' <<<"$piece" | wc -l)" -ge 2 ] || continue
		read -r -a words <<<"$piece"
		found=0
		while :; do
			if grep -qF -- "${words[*]}" "$corpus"; then found=1; break; fi
			[ "${#words[@]}" -gt 3 ] || break
			unset 'words[${#words[@]}-1]'
		done
		[ "$found" = 1 ] ||
			problem "README.md:$line: quotes \"$piece\" ($message), which nothing in the tree says or tests, and which docs-check.sh's OTHERS_MESSAGES does not list"
	done <<<"$pieces"
done <"$work/messages"

# --- make lint's tools: make help and the docs that list them -------------------
# make help is the list; a doc that lists them too (a table row of
# targets, as docs/testing.md has) must say the same.
help_lint=$(make -s --no-print-directory help 2>/dev/null | sed -n 's/^make lint  *//p')
[ -n "$help_lint" ] || problem "make help lists no tools for make lint"
lint_rows=0
for f in "${md_docs[@]}"; do
	# shellcheck disable=SC2016 # the backticks are Markdown's
	doc_lint=$(sed -n 's/^| `make lint` | \(.*\) |$/\1/p' "$f")
	[ -n "$doc_lint" ] || continue
	lint_rows=$((lint_rows + 1))
	[ "$doc_lint" = "$help_lint" ] ||
		problem "make help lists make lint's tools as \"$help_lint\", $f as \"$doc_lint\""
done
[ "$lint_rows" -gt 0 ] || problem "no doc lists make lint's tools (| \`make lint\` | TOOLS |): the check checks nothing"

# --- Figures outside results.md -------------------------------------------------
# Measured figures live in docs/results.md, generated, and go stale
# anywhere else: no other doc states a time (a number and a unit of
# time), a date (but lwnfs.5's .TH line), a commit or a count of tests.
figure='\b[0-9]+([.,][0-9]+)? ?(ms|s|sec|seconds?|min|minutes?|h|hours?)\b'
figure+='|\b(19|20)[0-9]{2}-[0-9]{2}-[0-9]{2}\b'
figure+='|\b[0-9]{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* (19|20)[0-9]{2}\b'
figure+='|\bcommit [0-9a-f]{7,40}\b|\b[0-9]+ (tests|passed|failed|skipped)\b'
for f in "${docs[@]}"; do
	[ "$f" != docs/results.md ] || continue
	while IFS=: read -r line text; do
		[[ $text == .TH\ * ]] ||
			problem "$f:$line: a measured figure belongs in docs/results.md: $text"
	done < <(grep -nE -e "$figure" "$f")
done

# --- The targets: make help and docs/testing.md's table ---------------------------
# Two lists of the same targets, the terse one and the doc's: each target
# of one is in the other.
help_targets=$(make -s --no-print-directory help 2>/dev/null |
	sed -n 's/^make \([a-z][a-z0-9-]*\).*/\1/p' | sort -u)
# shellcheck disable=SC2016 # the backticks are Markdown's
table_targets=$(sed -n 's/^| \(`make[^|]*\) |.*/\1/p' docs/testing.md |
	grep -o '`make [a-z][a-z0-9-]*`' | sed 's/`make \(.*\)`/\1/' | sort -u)
while read -r target; do
	[ -n "$target" ] || continue
	problem "make help lists make $target, docs/testing.md's table of targets does not"
done < <(comm -23 <(echo "$help_targets") <(echo "$table_targets"))
while read -r target; do
	[ -n "$target" ] || continue
	problem "docs/testing.md's table of targets lists make $target, make help does not"
done < <(comm -13 <(echo "$help_targets") <(echo "$table_targets"))

# A list entry that no doc needs any more is stale: take it out.
for key in "${!NAMES[@]}" "${!KERNEL_PATHS[@]}" "${!BUILT[@]}" "${!VFS_ERRNOS[@]}" \
	"${!UNSEEN_ERRNOS[@]}" "${!ERRNO_PHRASES[@]}" "${!COMMANDS[@]}" "${!OTHERS_MESSAGES[@]}"; do
	[ -n "${used[$key]:-}" ] ||
		problem "docs-check.sh lists $key, which no doc needs any more"
done

if [ "$problems" -gt 0 ]; then
	exit 1
fi
echo "docs: ok (${#docs[@]} docs; $n_paths paths, $n_links links, $n_names names," \
	"$n_constants constants, $n_targets targets, ${#listed[@]} errnos, $n_pairings errno pairings," \
	"$n_commands commands, $n_messages messages checked)"
