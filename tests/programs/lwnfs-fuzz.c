// SPDX-License-Identifier: GPL-2.0
/*
 * lwnfs-fuzz - a seeded, reproducible syscall driver for an lwnfs mount
 *
 * Usage: lwnfs-fuzz [-s SEED] [-n OPS] MOUNTPOINT
 *
 * Runs OPS (default 100000) system calls picked at random from open, read,
 * pread, write, pwrite, lseek, truncate, mmap, ioctl, rename, unlink,
 * mkdir, rmdir, chmod, getdents and close, with random sizes, offsets,
 * flags and bytes, on a small pool of names in MOUNTPOINT.  The same seed
 * makes the same calls.  Errors are expected and only counted.  Afterwards
 * it checks the filesystem is still consistent: the built-in tree is
 * there, a counter still counts, and every user-made entry can be removed.
 * Exits non-zero if it is not.
 */
#define _GNU_SOURCE
/* 64-bit offsets on 32-bit userlands too (i386, armhf): 1 << 40 below. */
#define _FILE_OFFSET_BITS 64
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NFDS	16

static const char *const names[] = {
	"counter", "subdir", "subdir/subcounter", "f0", "f1", "f2", "d0",
	"d1", "d0/f3", "d0/d2", "d0/d2/f4", "subdir/f5", "d1/f6",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NNAMES	ARRAY_SIZE(names)

static unsigned long long rng;
static int fds[NFDS];
static long calls, failures;

static unsigned long long rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned int pick(unsigned int n)
{
	return rnd() % n;
}

static const char *name(void)
{
	return names[pick(NNAMES)];
}

/* A slot with an open file if there is one, so few calls hit EBADF. */
static int *fd_slot(void)
{
	int i, start = pick(NFDS);

	for (i = 0; i < NFDS; i++)
		if (fds[(start + i) % NFDS] >= 0)
			return &fds[(start + i) % NFDS];
	return &fds[start];
}

static off_t offset(void)
{
	static const off_t offs[] = { 0, 0, 0, 1, 2, 3, 10, 20, 31, 32, 4096,
				      -1, 1LL << 40, INT64_MAX };

	return offs[pick(ARRAY_SIZE(offs))];
}

/* Bytes to write: a number, a number with junk, or random bytes. */
static size_t payload(char *buf, size_t size)
{
	size_t i, n = pick(size);

	switch (pick(4)) {
	case 0:
		return snprintf(buf, size, "%lld\n", (long long)rnd());
	case 1:
		return snprintf(buf, size, "%d", (int)pick(1000) - 500);
	case 2:
		n = snprintf(buf, size, "%u", pick(100));
		buf[pick(n + 1)] = " x\n\0+-"[pick(6)];
		return n;
	}
	for (i = 0; i < n; i++)
		buf[i] = rnd();
	return n;
}

static void count(long ret)
{
	calls++;
	if (ret < 0)
		failures++;
}

static void one_op(void)
{
	static const int access[] = { O_RDONLY, O_WRONLY, O_RDWR };
	static const int flags[] = { 0, 0, 0, O_CREAT, O_TRUNC, O_APPEND,
				     O_EXCL, O_DIRECTORY, O_NONBLOCK };
	char buf[128];
	int *fd = fd_slot();
	int f = 0, i;
	void *map;

	switch (pick(17)) {
	case 0:
	case 1:
		fd = &fds[pick(NFDS)];
		if (*fd >= 0)
			close(*fd);
		f = access[pick(3)];
		for (i = 0; i < 2; i++)
			f |= flags[pick(ARRAY_SIZE(flags))];
		*fd = open(name(), f, pick(0777));
		count(*fd);
		break;
	case 2:
		if (*fd >= 0)
			count(close(*fd));
		*fd = -1;
		break;
	case 3:
		count(read(*fd, buf, pick(sizeof(buf))));
		break;
	case 4:
		count(pread(*fd, buf, pick(sizeof(buf)), offset()));
		break;
	case 5:
		count(write(*fd, buf, payload(buf, sizeof(buf))));
		break;
	case 6:
		count(pwrite(*fd, buf, payload(buf, sizeof(buf)), offset()));
		break;
	case 7:
		count(lseek(*fd, offset(), pick(5)));
		break;
	case 8:
		count(pick(2) ? ftruncate(*fd, offset()) :
				truncate(name(), offset()));
		break;
	case 9:
		map = mmap(NULL, 4096, pick(2) ? PROT_READ : PROT_WRITE,
			   pick(2) ? MAP_SHARED : MAP_PRIVATE, *fd, 0);
		count(map == MAP_FAILED ? -1 : 0);
		if (map != MAP_FAILED)
			munmap(map, 4096);
		break;
	case 10:
		count(ioctl(*fd, (unsigned long)rnd(), rnd()));
		break;
	case 11:
		count(syscall(SYS_renameat2, AT_FDCWD, name(), AT_FDCWD,
			      name(), pick(8)));
		break;
	case 12:
		count(unlink(name()));
		break;
	case 13:
		count(mkdir(name(), pick(0777)));
		break;
	case 14:
		count(rmdir(name()));
		break;
	case 15:
		count(chmod(name(), pick(07777)));
		break;
	case 16:
		count(syscall(SYS_getdents64, *fd, buf, pick(sizeof(buf))));
		break;
	}
}

static int fail(const char *what)
{
	fprintf(stderr, "lwnfs-fuzz: inconsistent: %s (%s)\n", what,
		strerror(errno));
	return 1;
}

/* Remove what users made, deepest first: built-ins refuse with EPERM. */
static int remove_made(const char *path, const struct stat *st, int type,
		       struct FTW *ftw)
{
	(void)st;
	(void)type;
	if (ftw->level > 0 && remove(path) && errno != EPERM)
		fprintf(stderr, "lwnfs-fuzz: remove %s: %s\n", path,
			strerror(errno));
	return 0;
}

/* Does @dir hold exactly the entries in @want (NULL-terminated)? */
static int holds_only(const char *dir, const char *const *want)
{
	int n = 0, nwant = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		for (i = 0; want[i] && strcmp(want[i], de->d_name); i++)
			;
		n += want[i] ? 1 : 100;
	}
	closedir(d);
	while (want[nwant])
		nwant++;
	return n == nwant;
}

/* The built-in tree is intact and counts; user-made entries all go. */
static int consistent(void)
{
	char buf[32];
	int fd, i;

	nftw(".", remove_made, 16, FTW_DEPTH | FTW_PHYS);
	if (access("counter", F_OK) || access("subdir/subcounter", F_OK))
		return fail("built-in tree gone");
	chmod("counter", 0644);
	fd = open("counter", O_RDWR | O_TRUNC);
	if (fd < 0 || write(fd, "0\n", 2) != 2)
		return fail("counter not writable");
	for (i = 0; i < 100; i++) {
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

		if (n < 0)
			return fail("pread");
		buf[n] = '\0';
		if (atoi(buf) != i)
			return fail("counter does not count");
	}
	close(fd);
	if (!holds_only(".", (const char *const[]){ "counter", "subdir", NULL }) ||
	    !holds_only("subdir", (const char *const[]){ "subcounter", NULL }))
		return fail("user-made entries left");
	return 0;
}

int main(int argc, char **argv)
{
	long ops = 100000, i;
	int opt;

	rng = 1;
	while ((opt = getopt(argc, argv, "s:n:")) != -1) {
		switch (opt) {
		case 's':
			rng = strtoull(optarg, NULL, 0) | 1;
			break;
		case 'n':
			ops = atol(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;
	if (chdir(argv[optind]))
		return fail(argv[optind]);
	printf("lwnfs-fuzz: seed %llu, %ld operations\n",
	       (unsigned long long)rng, ops);
	for (i = 0; i < NFDS; i++)
		fds[i] = -1;
	for (i = 0; i < ops; i++)
		one_op();
	for (i = 0; i < NFDS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	printf("lwnfs-fuzz: %ld calls, %ld failed as expected\n", calls,
	       failures);
	return consistent();
usage:
	fprintf(stderr, "usage: lwnfs-fuzz [-s SEED] [-n OPS] MOUNTPOINT\n");
	return 2;
}
