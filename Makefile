# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of lwnfs.  The module is built for KERNELRELEASE, the
# running kernel unless told otherwise (DKMS passes its $kernelver here).

KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build

READER := tests/lwnfs-reader

.PHONY: all modules clean install demo vm check check-all help

all: modules $(READER)

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

$(READER): $(READER).c
	$(CC) -O2 -Wall -Wextra -Werror -pthread -o $@ $<

clean:
	rm -f *.o *.ko *.mod *.mod.c .*.cmd Module.symvers modules.order $(READER)
	rm -rf .tmp_versions

# extra/ on every kernel: newer kbuilds default to updates/.
install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=extra modules_install
	depmod -a $(KERNELRELEASE)

# The targets below boot a Debian kernel in QEMU; they set themselves up.
demo:
	tests/run-demo.sh

vm:
	tests/run-demo.sh --shell

check:
	tests/check.sh

# KERNELS="bullseye sid" make check-all runs a part of the matrix.
check-all:
	tests/matrix.sh

help:
	@echo 'make [KERNELRELEASE=<release>|KDIR=<dir>]  build lwnfs.ko'
	@echo 'make install   install lwnfs.ko for KERNELRELEASE and run depmod'
	@echo 'make demo      boot the distro kernel in QEMU and replay the article'
	@echo 'make vm        the same, then an interactive shell in the guest'
	@echo 'make check     build, then run the test suite in a QEMU guest'
	@echo 'make check-all build and test on every Debian release'"'"'s own kernel'
	@echo 'make clean     remove build products'
