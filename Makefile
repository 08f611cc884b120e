# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of lwnfs.  The module is built for KERNELRELEASE, the
# running kernel unless told otherwise (DKMS passes its $kernelver here).

KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build

READER := tests/lwnfs-reader
BENCH := tests/lwnfs-bench
FUZZ := tests/lwnfs-fuzz

.PHONY: all modules clean install demo vm check check-debug bench lint fuzz stress help

all: modules $(READER)

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

$(READER) $(BENCH) $(FUZZ): %: %.c
	$(CC) -O2 -Wall -Wextra -Werror -pthread -o $@ $<

clean:
	rm -f *.o *.ko *.mod *.mod.c .*.cmd Module.symvers modules.order $(READER) $(BENCH) $(FUZZ) bench.json
	rm -rf .tmp_versions

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(KERNELRELEASE)

# The targets below boot a Debian kernel in QEMU; they set themselves up.
demo:
	tests/run-guest.sh -t 300 -- tests/demo.sh

vm:
	tests/run-guest.sh -i -t 86400 -- tests/demo.sh --keep

check:
	tests/check.sh

check-debug:
	tests/check-debug.sh

bench:
	tests/run-guest.sh -b $(BENCH) -t 1800 -o . -- tests/bench-guest.sh
	@echo 'bench: figures in bench.json'

lint:
	tests/lint.sh

fuzz:
	tests/run-guest.sh -d debug -b $(FUZZ) -t 1800 -- tests/fuzz-guest.sh

stress:
	tests/run-guest.sh -t 1800 -- tests/stress-guest.sh

help:
	@echo 'make [KERNELRELEASE=<release>|KDIR=<dir>]  build lwnfs.ko'
	@echo 'make install   install lwnfs.ko for KERNELRELEASE and run depmod'
	@echo 'make demo      boot the distro kernel in QEMU and replay the article'
	@echo 'make vm        the same, then an interactive shell in the guest'
	@echo 'make check     build, then run the test suite in a QEMU guest'
	@echo 'make check-debug  the suite, fuzz and stress on a KASAN/lockdep/kmemleak kernel'
	@echo 'make lint      checkpatch, sparse, W=1, coccicheck, shellcheck'
	@echo 'make fuzz      our seeded syscall fuzzer, then trinity, on an lwnfs mount'
	@echo 'make stress    readers, writers, mounts and reloads at once, then checks'
	@echo 'make bench     measure lwnfs against the syscall floor and the alternatives'
	@echo 'make clean     remove build products'
