# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of lwnfs.  The module is built for KERNELRELEASE, the
# running kernel unless told otherwise.  DKMS does not use this file:
# dkms.conf runs the kernel's own make on Kbuild, for DKMS's $kernelver.

KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build

# What builds or installs the module needs the headers of the kernel it is
# for: without them, one line saying which package to install, before
# anything is touched.  The package is the one of the distribution that
# OS_RELEASE names: the first of its ID and ID_LIKE known here.  openSUSE
# names it for the kernel's flavour, the last part of the release
# (6.4.0-150600.23.7-default); Arch's and openSUSE's are the newest
# kernel's.  tests/checks/refusals-check.sh checks each message.
OS_RELEASE ?= /etc/os-release
os_ids = $(shell [ ! -r '$(OS_RELEASE)' ] || (. '$(OS_RELEASE)' && echo "$$ID $$ID_LIKE"))
os_family = $(firstword $(foreach id,$(os_ids),$(or \
	$(if $(filter debian ubuntu,$(id)),debian), \
	$(if $(filter fedora rhel centos,$(id)),fedora), \
	$(if $(filter arch,$(id)),arch), \
	$(if $(filter opensuse opensuse-% suse sles,$(id)),suse))))
suse_flavour = $(or $(filter-out %0 %1 %2 %3 %4 %5 %6 %7 %8 %9,$(lastword $(subst -, ,$(KERNELRELEASE)))),default)
headers_debian = apt install linux-headers-$(KERNELRELEASE)
headers_fedora = dnf install kernel-devel-$(KERNELRELEASE)
headers_arch = pacman -S linux-headers
headers_suse = zypper install kernel-$(suse_flavour)-devel
headers_ = install the package that provides $(KDIR)
ifneq ($(filter all modules test-modules install dkms-install,$(or $(MAKECMDGOALS),all)),)
ifeq ($(wildcard $(KDIR)/Makefile),)
$(error no headers of Linux $(KERNELRELEASE) in $(KDIR): $(headers_$(os_family)))
endif
endif

# make install installs the lwnfs.ko that make built, and builds nothing:
# sudo make install building in the checkout would leave files of root's
# there, which the user's next make could not replace.  One line refuses a
# lwnfs.ko that is missing, older than a source, or built for another
# kernel, before anything is touched.
MODULE_SOURCES := Kbuild conftest.sh lwnfs.c lwnfs.h
ifneq ($(filter install,$(MAKECMDGOALS)),)
ifneq ($(shell if [ -f lwnfs.ko ]; then find $(MODULE_SOURCES) -newer lwnfs.ko; else echo none; fi),)
$(error install: lwnfs.ko is missing or older than its sources: run make first, as your user)
endif
ko_vermagic := $(shell PATH=$$PATH:/sbin:/usr/sbin modinfo -F vermagic lwnfs.ko 2>/dev/null)
ifneq ($(firstword $(ko_vermagic)),$(KERNELRELEASE))
$(error install: lwnfs.ko is built for Linux $(or $(firstword $(ko_vermagic)),<unknown>), not $(KERNELRELEASE): run make KERNELRELEASE=$(KERNELRELEASE) first, as your user)
endif
endif

READER := tests/programs/lwnfs-reader
BENCH := tests/programs/lwnfs-bench
FUZZ := tests/programs/lwnfs-fuzz
FAULT := tests/programs/lwnfs-fault
IO := tests/programs/lwnfs-io
RACE := tests/programs/lwnfs-race
# make bench-scale's; the peers need hiredis and SQLite, so only
# harness/deps.sh bench installs what builds them.
SCALE := tests/programs/lwnfs-scale
PEERS := tests/programs/lwnfs-peers

# The one version string is LWNFS_VERSION in lwnfs.h; dkms.conf and
# debian/changelog repeat it; debian/rules and tests/50-packaging.bats keep
# them equal.
VERSION := $(shell sed -n 's/^\#define LWNFS_VERSION[[:space:]]*"\(.*\)"/\1/p' lwnfs.h)
# What DKMS needs to build the module: the sources of the Debian package too.
DKMS_FILES := dkms.conf Kbuild conftest.sh lwnfs.c lwnfs.h
DKMS_SRC := /usr/src/lwnfs-$(VERSION)
DEB_DIR := build/deb
PREFIX ?= /usr/local
MAN5DIR := $(DESTDIR)$(PREFIX)/share/man/man5
DOCDIR := $(DESTDIR)$(PREFIX)/share/doc/lwnfs

.PHONY: all modules test-programs test-modules clean install uninstall dkms-install dkms-remove deb sample \
	demo vm check check-all check-life check-secureboot check-selinux check-debug check-breaks check-sample mutants mutants-kcsan bench bench-profile bench-scale results lint fuzz stress help

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# The C test helpers, for the targets that boot a guest: not part of a
# user's build, so a newer compiler's warning never fails that.
test-programs: $(READER) $(BENCH) $(FUZZ) $(FAULT) $(IO) $(RACE) $(SCALE)

$(READER) $(BENCH) $(FUZZ) $(FAULT) $(IO) $(RACE) $(SCALE): %: %.c
	$(CC) -O2 -Wall -Wextra -Werror -pthread -o $@ $<

$(BENCH) $(SCALE) $(PEERS) $(RACE): tests/programs/lwnfs-measure.h

# The test module of harness/guest/race.sh (tests/programs/delay), for KDIR's kernel.
test-modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/tests/programs/delay modules

$(PEERS): %: %.c
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $< -lhiredis -lsqlite3

# kbuild knows what it wrote (newer ones also .module-common.o); without
# the headers, remove what kbuild writes by hand.
clean:
	for dir in $(CURDIR) $(CURDIR)/tests/programs/delay; do \
		if [ -d $(KDIR) ]; then $(MAKE) -C $(KDIR) M=$$dir clean; else \
			(cd $$dir && rm -f *.o .*.o *.ko *.mod *.mod.c .*.cmd .*.d \
				Module.symvers modules.order conftest.h && rm -rf .tmp_versions); fi || exit 1; \
	done
	rm -f $(READER) $(BENCH) $(FUZZ) $(FAULT) $(IO) $(RACE) $(SCALE) $(PEERS) bench.json bench-[0-9]*.json \
		scale.json peers.json bench-*.svg profile-*.txt vm.json
	rm -rf build

# extra/ on every kernel: newer kbuilds default to updates/.  DESTDIR
# stages the whole install (kbuild's INSTALL_MOD_PATH for the module) and
# runs no depmod, neither this file's nor kbuild's (which runs where the
# build directory has a System.map): the machine the files go to runs it,
# as a package's postinst does; depmod -b on DESTDIR would write module
# indexes there that list lwnfs alone.
install:
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=extra INSTALL_MOD_PATH=$(DESTDIR) \
		$(if $(DESTDIR),DEPMOD=true) modules_install
	$(if $(DESTDIR),,depmod -a $(KERNELRELEASE))
	install -D -m 644 lwnfs.5 $(MAN5DIR)/lwnfs.5
	install -D -m 644 docs/walkthrough.md $(DOCDIR)/walkthrough.md

uninstall:
	rm -f $(DESTDIR)/lib/modules/$(KERNELRELEASE)/extra/lwnfs.ko*
	$(if $(DESTDIR),,depmod -a $(KERNELRELEASE))
	rm -f $(MAN5DIR)/lwnfs.5
	rm -f $(DOCDIR)/walkthrough.md
	[ ! -d $(DOCDIR) ] || rmdir --ignore-fail-on-non-empty $(DOCDIR)

# DKMS from this checkout: copy the sources to $(DKMS_SRC), then add, build
# and install for KERNELRELEASE.  Run again after a change to reinstall.
dkms-install:
	@command -v dkms >/dev/null || { echo "dkms-install: dkms is not installed" >&2; exit 1; }
	@! dpkg-query -S $(DKMS_SRC) >/dev/null 2>&1 || \
		{ echo "dkms-install: $(DKMS_SRC) belongs to a package; remove it first" >&2; exit 1; }
	@[ -z "$$(dkms status -m lwnfs -v $(VERSION))" ] || dkms remove -m lwnfs -v $(VERSION) --all
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)
	install -m 644 $(DKMS_FILES) $(DKMS_SRC)/
	dkms add -m lwnfs -v $(VERSION)
	dkms build -m lwnfs -v $(VERSION) -k $(KERNELRELEASE)
	dkms install -m lwnfs -v $(VERSION) -k $(KERNELRELEASE)

dkms-remove:
	@command -v dkms >/dev/null || { echo "dkms-remove: dkms is not installed" >&2; exit 1; }
	@! dpkg-query -S $(DKMS_SRC) >/dev/null 2>&1 || \
		{ echo "dkms-remove: $(DKMS_SRC) belongs to a package; remove that instead" >&2; exit 1; }
	@[ -z "$$(dkms status -m lwnfs -v $(VERSION))" ] || dkms remove -m lwnfs -v $(VERSION) --all
	rm -rf $(DKMS_SRC)

# The Debian package lwnfs-dkms, built from a copy of the tree under
# $(DEB_DIR): the .deb lands in $(DEB_DIR), never next to the checkout.
deb:
	scripts/build-deb.sh $(DEB_DIR)

# lwnfs as a patch that adds samples/lwnfs to the kernel tree KSRC, the
# form the kernel takes (scripts/sample.sh): make sample KSRC=~/linux.
SAMPLE ?= build/sample/0001-samples-add-lwnfs.patch
sample:
	@[ -n "$(KSRC)" ] || { echo "sample: say which kernel tree: make sample KSRC=<dir>" >&2; exit 1; }
	@mkdir -p $(dir $(SAMPLE))
	scripts/sample.sh $(KSRC) $(SAMPLE)

# The targets below boot a Debian kernel in QEMU; they set themselves up.
demo:
	harness/run-guest.sh -- harness/guest/demo.sh

vm:
	harness/run-guest.sh -i -t 86400 -- harness/guest/demo.sh --keep

check:
	harness/check.sh

# The life of lwnfs-dkms (package and kernel upgrades, no headers,
# autopkgtest) on these releases: LIFE=trixie make check-life runs one.
LIFE ?= bookworm trixie

# KERNELS="bullseye sid" make check-all runs a part of the matrix.
check-all:
	LIFE="$(LIFE)" harness/check-all.sh

check-life:
	harness/life.sh $(LIFE)

check-sample:
	harness/sample-check.sh

check-secureboot:
	harness/secureboot.sh

# Labels under SELinux (the security module Debian's kernels have that
# labels files), and the mutants only it can catch; part of check-all.
check-selinux:
	harness/selinux.sh

check-debug:
	harness/check-debug.sh

# BREAKS="selinux-off" make check-breaks runs a part of tests/data/breaks.
check-breaks:
	harness/breaks.sh $(BREAKS)

# MUTANTS="read-taken-unchecked evict-slot-kept" make mutants runs a
# part of the suites' mutants; without it, the racing ones follow on the
# data-race kernel (make mutants-kcsan, MUTANTS= for a part of them).
mutants:
ifeq ($(MUTANTS),)
	@status=0; harness/mutants/mutants.sh || status=1; harness/mutants/mutants-kcsan.sh || status=1; exit $$status
else
	harness/mutants/mutants.sh $(MUTANTS)
endif

mutants-kcsan:
	harness/mutants/mutants-kcsan.sh $(MUTANTS)

# LWNFS_BENCH_BOOTS=5 make bench: the median of 5 boots, each boot's in bench-N.json.
bench:
	bench/bench.sh
	@echo 'bench: figures in bench.json'

# Where a read's time goes in the kernel: perf's software clock over
# lwnfs's read, and /dev/zero's through ->read_iter and ->read
# (profile-*.txt).
bench-profile:
	harness/run-guest.sh -d profile -b $(BENCH) -o . -- bench/guest-profile.sh
	@echo 'bench-profile: reports in profile-lwnfs.txt, profile-lwnfs-iter.txt, profile-zero-iter.txt, profile-zero-read.txt'

# Directories of 1,000 to 100,000 entries against tmpfs, and taking a
# value against Redis, SQLite and shared memory; plotted.
bench-scale:
	bench/scale.sh

# docs/results.md, with the kernel table, from the last runs' JSON
# in docs/data/ (copy there the matrix.json, bench.json, scale.json and
# peers.json a run left); then the plots, where gnuplot is installed.
# Boots nothing; tests/checks/results-check.sh keeps the docs equal to the JSON.
results:
	harness/results.pl
	@if command -v gnuplot >/dev/null; then \
		bench/plot.pl -o docs/plots docs/data/scale.json docs/data/peers.json; \
	else echo 'results: no gnuplot, docs/plots left as they are (harness/deps.sh bench installs it)'; fi

lint:
	scripts/lint.sh

fuzz:
	harness/run-guest.sh -d debug -b $(FUZZ) -- harness/guest/fuzz.sh

stress:
	harness/run-guest.sh -b $(READER) -- harness/guest/stress.sh

help:
	@echo 'make [KERNELRELEASE=<release>|KDIR=<dir>]  build lwnfs.ko'
	@echo 'make install   install the lwnfs.ko make built, for KERNELRELEASE, and run depmod; lwnfs.5, the walkthrough (DESTDIR=: staged, no depmod)'
	@echo 'make uninstall undo make install'
	@echo 'make dkms-install  install this tree with DKMS for KERNELRELEASE'
	@echo 'make dkms-remove   remove it from DKMS for every kernel'
	@echo 'make deb       build the Debian package lwnfs-dkms into $(DEB_DIR)/'
	@echo 'make sample KSRC=<dir>  a patch adding lwnfs to the kernel tree <dir> as samples/lwnfs, into $(SAMPLE)'
	@echo 'make demo      boot the distro kernel in QEMU and replay the article'
	@echo 'make vm        the same, then an interactive shell in the guest'
	@echo 'make check     build, then run the test suite in a QEMU guest'
	@echo 'make check-all build and test on every Debian release'"'"'s own kernel, then check-life, check-secureboot, check-selinux, check-sample and check-breaks'
	@echo 'make check-life  lwnfs-dkms through kernel and package upgrades, no headers, boots under systemd, autopkgtest'
	@echo 'make check-secureboot  lwnfs refused, unsigned or signed with an untrusted key, by kernels that enforce signatures; a UEFI Secure Boot through shim and grub, DKMS'"'"'s key enrolled as a MOK'
	@echo 'make check-sample  the sample patch in the newest Debian kernel'"'"'s source: checkpatch --strict, W=1 C=1, the module'"'"'s suites on it'
	@echo 'make check-selinux  what users make gets its SELinux label, as on tmpfs, on the distro kernel booted with security=selinux'
	@echo 'make check-debug  suite, fuzz, stress, fault injection on a KASAN kernel; suite, stress, races on KCSAN'
	@echo 'make check-breaks  each break of tests/data/breaks, which the check it names must fail'
	@echo 'make mutants   run the module'"'"'s suites on each mutant of lwnfs.c in tests/data/mutants, then the racing ones'
	@echo 'make mutants-kcsan  the racing mutants under harness/guest/race.sh on the KCSAN kernel'
	@echo 'make lint      checkpatch, sparse, W=1, coccicheck, shellcheck, mandoc, groff, lintian'
	@echo 'make fuzz      our seeded syscall fuzzer, then trinity, on an lwnfs mount'
	@echo 'make stress    readers, writers, mounts and reloads at once, then checks'
	@echo 'make bench     measure lwnfs against the syscall floor and the alternatives'
	@echo 'make bench-profile  where the time of a read goes: perf over the lwnfs read and the two /dev/zero paths'
	@echo 'make bench-scale  lwnfs against tmpfs from 1,000 to 100,000 entries, against Redis and SQLite; SVG plots'
	@echo 'make results   docs/results.md and docs/plots from docs/data/*.json'
	@echo 'make clean     remove build products'
