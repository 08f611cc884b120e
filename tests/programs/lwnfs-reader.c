// SPDX-License-Identifier: GPL-2.0
/*
 * lwnfs-reader - take values from an lwnfs counter, one per line on stdout
 *
 * Usage: lwnfs-reader [-o] [-v] [-t THREADS] [-n COUNT] FILE
 *        lwnfs-reader -e ROOM FILE
 *
 * Each of THREADS threads (default 1) takes COUNT values (default 1000).
 * By default all threads share one open file and take values with
 * pread(fd, buf, 32, 0); with -o each value is an open, read and close.
 * With -v each read is a preadv(2) into two buffers, 3 bytes and 28,
 * so that a value's text spans both (the kernel's iterator has two
 * segments, where a pread's has one buffer).
 * Exits non-zero if a read fails or returns anything but "<number>\n".
 *
 * With -e, one pread(fd, buf, 32, 0) into the last ROOM bytes of a
 * mapping that an inaccessible page follows, then a pread at the
 * position it reached: prints what each returned, "FIRST|REST".
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

static const char *path;
static int shared_fd = -1;
static long count = 1000;
static int reopen;
static int vectored;

static void die(const char *what)
{
	fprintf(stderr, "lwnfs-reader: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void take(char *buf, size_t size)
{
	int fd = reopen ? open(path, O_RDONLY) : shared_fd;
	ssize_t n;
	char *end;

	if (fd < 0)
		die(path);
	if (vectored) {
		struct iovec iov[2] = {
			{ .iov_base = buf, .iov_len = 3 },
			{ .iov_base = buf + 3, .iov_len = size - 1 - 3 },
		};

		n = preadv(fd, iov, 2, 0);
	} else {
		n = pread(fd, buf, size - 1, 0);
	}
	if (n < 0)
		die(vectored ? "preadv" : "pread");
	if (reopen && close(fd))
		die("close");
	buf[n] = '\0';
	errno = 0;
	strtoll(buf, &end, 10);
	if (n < 2 || errno || end != buf + n - 1 || *end != '\n') {
		fprintf(stderr, "lwnfs-reader: bad value text '%s'\n", buf);
		exit(1);
	}
}

static void *reader(void *arg)
{
	char buf[32];
	long i;

	(void)arg;
	for (i = 0; i < count; i++) {
		take(buf, sizeof(buf));
		fputs(buf, stdout);
	}
	return NULL;
}

/* A read cut short by the end of the memory it was given, then the rest. */
static void edge(long room)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map, *buf, rest[32];
	int fd = open(path, O_RDONLY);
	ssize_t n, m;

	if (fd < 0)
		die(path);
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		die("mmap");
	if (mprotect(map + page, page, PROT_NONE))
		die("mprotect");
	buf = map + page - room;
	n = pread(fd, buf, 32, 0);
	if (n < 0)
		die("pread");
	m = pread(fd, rest, sizeof(rest), n);
	if (m < 0)
		die("pread");
	printf("%.*s|%.*s", (int)n, buf, (int)m, rest);
}

int main(int argc, char **argv)
{
	pthread_t tids[64];
	int threads = 1;
	long room = 0;
	int opt, i;

	while ((opt = getopt(argc, argv, "ovt:n:e:")) != -1) {
		switch (opt) {
		case 'e':
			room = atol(optarg);
			if (room < 1 || room > 32)
				goto usage;
			break;
		case 'o':
			reopen = 1;
			break;
		case 'v':
			vectored = 1;
			break;
		case 't':
			threads = atoi(optarg);
			break;
		case 'n':
			count = atol(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || threads < 1 || threads > 64 || count < 0 ||
	    (room && vectored))
		goto usage;
	path = argv[optind];
	if (room) {
		edge(room);
		return fflush(stdout) ? 1 : 0;
	}
	if (!reopen) {
		shared_fd = open(path, O_RDONLY);
		if (shared_fd < 0)
			die(path);
	}
	for (i = 0; i < threads; i++) {
		errno = pthread_create(&tids[i], NULL, reader, NULL);
		if (errno)
			die("pthread_create");
	}
	for (i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	if (fflush(stdout))
		die("stdout");
	return 0;
usage:
	fprintf(stderr, "usage: lwnfs-reader [-o] [-v] [-t THREADS] [-n COUNT] FILE\n"
		"       lwnfs-reader -e ROOM FILE (ROOM: 1 to 32 bytes)\n");
	return 2;
}
