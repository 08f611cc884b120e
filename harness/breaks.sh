#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: harness/breaks.sh [NAME...]
#
# make check-breaks: each row of tests/data/breaks (or those named) breaks
# the tree or the machine on purpose; the row's check must then fail and
# print what the row expects, else it guards nothing.  A file's edit is
# made in a copy of the tree (a git repository of its own, for the checks
# that ask git); a switch is set in the check's environment, here.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=harness/settings.sh
. harness/settings.sh
top=$PWD
table=tests/data/breaks
tmp=$(mktemp -d)
trap 'rm -rf --one-file-system "$tmp"' EXIT

# row LINE: sets name, edit, command and expect from LINE's " | " fields.
row() {
	local rest=$1
	name=${rest%% | *} rest=${rest#* | }
	edit=${rest%% | *} rest=${rest#* | }
	command=${rest%% | *} expect=${rest#* | }
	if [ -z "$name" ] || [ -z "$edit" ] || [ -z "$command" ] || [ "$expect" = "$rest" ]; then
		echo "breaks: $table: not \"name | edit | command | expect\": $1" >&2
		exit 2
	fi
}

# Every row read, and the names asked for found, before a check runs.
declare -A wanted=() seen=()
for n in "$@"; do wanted[$n]=1; done
rows=()
while read -r line; do
	case $line in '' | '#'*) continue ;; esac
	row "$line"
	[ -z "${seen[$name]:-}" ] || { echo "breaks: $table: $name is named twice" >&2; exit 2; }
	seen[$name]=1
	[ $# = 0 ] || [ -n "${wanted[$name]:-}" ] || continue
	unset "wanted[$name]"
	rows+=("$line")
done <"$table"
if [ "${#wanted[@]}" != 0 ]; then
	echo "breaks: no row ${!wanted[*]} in $table" >&2
	exit 2
fi

ran=0 failed=0
for line in "${rows[@]}"; do
	row "$line"
	read -ra cmd <<<"$command"
	envs=() dir=$top ran=$((ran + 1))
	if [[ $edit =~ ^[A-Z_][A-Z0-9_]*= ]]; then
		read -ra envs <<<"$edit"
	else
		dir=$tmp/$name/tree file=${edit%% *}
		lwnfs_copy_tree "$tmp/$name" /tree
		git -C "$dir" init -q && git -C "$dir" add -A
		if ! cp "$dir/$file" "$tmp/before" || ! perl -0pi -e "${edit#* }" "$dir/$file" ||
			cmp -s "$tmp/before" "$dir/$file"; then
			echo "break $name: the edit did not change $file" >&2
			failed=$((failed + 1))
			continue
		fi
	fi
	status=0
	(cd "$dir" && env "${envs[@]}" "${cmd[@]}") >"$tmp/out" 2>&1 || status=$?
	if [ "$status" = 0 ]; then
		echo "break $name: $command passed it" >&2
		failed=$((failed + 1))
	elif ! grep -Eq -e "$expect" "$tmp/out"; then
		echo "break $name: $command failed (status $status), but printed nothing matching /$expect/:" >&2
		tail -n 20 "$tmp/out" >&2
		failed=$((failed + 1))
	else
		echo "break $name: seen ($command, status $status)"
	fi
	rm -rf --one-file-system "${tmp:?}/$name"
done
echo "breaks: $((ran - failed)) of $ran seen failing as meant"
[ "$failed" = 0 ] && [ "$ran" != 0 ]
