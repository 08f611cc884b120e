#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# docs/walkthrough.md's shell sessions, run as written: what the page
# shows is what the reader sees.

load helpers

teardown() {
	unload_lwnfs
}

@test "the walkthrough's sessions print what the page shows" {
	# They load lwnfs themselves, from a fresh start, and unload it.
	unload_lwnfs
	"$TREE/tests/checks/walkthrough-run.pl" "$KO"
}
