// SPDX-License-Identifier: GPL-2.0
/*
 * lwnfs-io - read and write an lwnfs counter through the kernel's other
 * I/O paths
 *
 * Usage: lwnfs-io readv FILE
 *        lwnfs-io splice FILE
 *        lwnfs-io sendfile FILE
 *        lwnfs-io fsync FILE
 *        lwnfs-io exec FILE
 *        lwnfs-io unsupported FILE
 *        lwnfs-io uring THREADS COUNT FILE
 *        lwnfs-io splice-to FILE DATA...
 *        lwnfs-io sendfile-to FILE SOURCE...
 *
 * readv: one readv(2) at position 0 into buffers of 1, 2 and 29 bytes.
 * splice: one splice(2) of up to 64 bytes from FILE into a pipe.
 * sendfile: one sendfile(2) of up to 64 bytes from FILE into a pipe.
 * Each prints what arrived.  fsync: fsync(2) and fdatasync(2) on FILE
 * open for reading and for writing; prints "ok" or the first error.
 * exec: execve(2) of FILE, whose first bytes the kernel reads with
 * kernel_read() to find its format; prints "ENOEXEC" when it found none,
 * else what execve(2) failed with (it does not return on success).
 * unsupported: an unnamed file in FILE's directory (open(2) with
 * O_TMPFILE), a shared mapping of FILE (mmap(2)) and an open(2) of FILE
 * with O_DIRECT; prints what each gave, "ok" or strerror() of its error,
 * one per line.
 * uring: THREADS threads, each with an io_uring of its own (raw system
 * calls, no liburing), submit COUNT reads of FILE at position 0 each,
 * up to 32 in flight; every value read is printed, one per line.
 * splice-to: FILE is opened once, for writing; each DATA goes into a
 * pipe of its own in packet mode (O_DIRECT), where each write(2) stays a
 * pipe buffer of its own, one write for each piece between '/'s, and one
 * splice(2) moves all of it from the pipe into FILE.
 * sendfile-to: FILE is opened once, for writing; one sendfile(2) of up
 * to 64 bytes from each SOURCE into it.
 * Both print what each call returned, one per line: the bytes it moved,
 * or strerror() of its error.
 * Exits non-zero when a call other than those fails or a value's text
 * is not "<number>\n".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define TEXT 32		/* room for any value's text */
#define DEPTH 32	/* reads in flight per ring */

static const char *path;
static long count;

static void die(const char *what)
{
	fprintf(stderr, "lwnfs-io: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int open_or_die(int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		die(path);
	return fd;
}

/* Check that @buf holds one value's text, "<number>\n", and print it. */
static void print_value(const char *buf, long n)
{
	char *end;

	errno = 0;
	if (n >= 2 && n < TEXT)
		strtoll(buf, &end, 10);
	if (n < 2 || n >= TEXT || errno || end != buf + n - 1 || *end != '\n') {
		fprintf(stderr, "lwnfs-io: bad value text '%.*s'\n",
			(int)(n > 0 && n < TEXT ? n : 0), buf);
		exit(1);
	}
	fwrite(buf, 1, n, stdout);
}

static void do_readv(void)
{
	char a[1], b[2], c[TEXT - 3], all[TEXT];
	struct iovec iov[] = { { a, sizeof(a) }, { b, sizeof(b) }, { c, sizeof(c) } };
	int fd = open_or_die(O_RDONLY);
	ssize_t n = preadv(fd, iov, 3, 0);

	if (n < 0)
		die("preadv");
	memcpy(all, a, 1);
	memcpy(all + 1, b, 2);
	memcpy(all + 3, c, sizeof(c));
	print_value(all, n);
}

/* splice or sendfile FILE into a pipe, then print what the pipe holds. */
static void do_pipe(int use_sendfile)
{
	int fd = open_or_die(O_RDONLY), p[2];
	char buf[TEXT + 64];
	ssize_t n, m;

	if (pipe(p))
		die("pipe");
	if (use_sendfile)
		n = sendfile(p[1], fd, NULL, 64);
	else
		n = splice(fd, NULL, p[1], NULL, 64, 0);
	if (n < 0)
		die(use_sendfile ? "sendfile" : "splice");
	close(p[1]);
	m = read(p[0], buf, sizeof(buf));
	if (m != n) {
		fprintf(stderr, "lwnfs-io: %zd bytes moved, %zd in the pipe\n", n, m);
		exit(1);
	}
	print_value(buf, m);
}

/* What a splice(2) or sendfile(2) returned: the bytes or the error. */
static void print_moved(ssize_t n)
{
	if (n < 0)
		puts(strerror(errno));
	else
		printf("%zd\n", n);
}

/* Each of @data spliced into @path from a packet-mode pipe of its own. */
static void do_splice_to(char **data, int n)
{
	int fd = open_or_die(O_WRONLY), p[2], i;
	char *piece, *next;
	size_t len, all;

	for (i = 0; i < n; i++) {
		if (pipe2(p, O_DIRECT))
			die("pipe2");
		all = 0;
		for (piece = data[i]; piece; piece = next) {
			next = strchr(piece, '/');
			if (next)
				*next++ = '\0';
			len = strlen(piece);
			if (write(p[1], piece, len) != (ssize_t)len)
				die("write to the pipe");
			all += len;
		}
		print_moved(splice(p[0], NULL, fd, NULL, all, 0));
		close(p[0]);
		close(p[1]);
	}
	close(fd);
}

/* Up to 64 bytes of each of @sources sent into @path. */
static void do_sendfile_to(char **sources, int n)
{
	int fd = open_or_die(O_WRONLY), in, i;

	for (i = 0; i < n; i++) {
		in = open(sources[i], O_RDONLY);
		if (in < 0)
			die(sources[i]);
		print_moved(sendfile(fd, in, NULL, 64));
		close(in);
	}
	close(fd);
}

static void do_fsync(void)
{
	int modes[] = { O_RDONLY, O_WRONLY };
	int i, fd;

	for (i = 0; i < 2; i++) {
		fd = open_or_die(modes[i]);
		if (fsync(fd))
			die("fsync");
		if (fdatasync(fd))
			die("fdatasync");
		close(fd);
	}
	puts("ok");
}

static void do_exec(void)
{
	char *const argv[] = { (char *)path, NULL };
	static char *const envp[] = { NULL };

	execve(path, argv, envp);
	puts(errno == ENOEXEC ? "ENOEXEC" : strerror(errno));
}

static void report(int failed)
{
	puts(failed ? strerror(errno) : "ok");
}

static void do_unsupported(void)
{
	char *dir = strdup(path), *slash;
	void *map;
	int fd;

	if (!dir)
		die("strdup");
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	fd = open(slash ? dir : ".", O_TMPFILE | O_WRONLY, 0600);
	report(fd < 0);
	if (fd >= 0)
		close(fd);
	free(dir);

	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open");
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	report(map == MAP_FAILED);
	if (map != MAP_FAILED)
		munmap(map, 4096);
	close(fd);

	fd = open(path, O_RDONLY | O_DIRECT);
	report(fd < 0);
	if (fd >= 0)
		close(fd);
}

/* One io_uring, mapped: just what reads at position 0 need. */
struct ring {
	int fd;
	unsigned int *sq_head, *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static void *map_ring(int fd, size_t len, off_t off)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, fd, off);

	if (p == MAP_FAILED)
		die("mmap io_uring");
	return p;
}

static void ring_setup(struct ring *r)
{
	struct io_uring_params p;
	char *sq, *cq;

	memset(&p, 0, sizeof(p));
	r->fd = syscall(__NR_io_uring_setup, DEPTH, &p);
	if (r->fd < 0)
		die("io_uring_setup");
	sq = map_ring(r->fd, p.sq_off.array + p.sq_entries * sizeof(unsigned int),
		      IORING_OFF_SQ_RING);
	cq = map_ring(r->fd, p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe),
		      IORING_OFF_CQ_RING);
	r->sqes = map_ring(r->fd, p.sq_entries * sizeof(struct io_uring_sqe),
			   IORING_OFF_SQES);
	r->sq_head = (unsigned int *)(sq + p.sq_off.head);
	r->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p.sq_off.array);
	r->cq_head = (unsigned int *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
}

/* Queue a read of up to TEXT - 1 bytes at 0 into @buf; @slot tags it. */
static void ring_read(struct ring *r, int fd, char *buf, unsigned int slot)
{
	unsigned int tail = *r->sq_tail, i = tail & *r->sq_mask;
	struct io_uring_sqe *sqe = &r->sqes[i];

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_READ;
	sqe->fd = fd;
	sqe->addr = (unsigned long)buf;
	sqe->len = TEXT - 1;
	sqe->off = 0;
	sqe->user_data = slot;
	r->sq_array[i] = i;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
}

static void *uring_thread(void *arg)
{
	static char bufs[64][DEPTH][TEXT];
	long me = (long)arg, submitted = 0, done = 0, n;
	int fd = open_or_die(O_RDONLY);
	unsigned int head, slot, queued;
	struct io_uring_cqe *cqe;
	struct ring r;

	ring_setup(&r);
	while (done < count) {
		/* a slot's last byte, which no read reaches, marks it in use */
		queued = 0;
		for (slot = 0; slot < DEPTH && submitted < count; slot++) {
			if (bufs[me][slot][TEXT - 1])
				continue;
			bufs[me][slot][TEXT - 1] = 1;
			ring_read(&r, fd, bufs[me][slot], slot);
			submitted++;
			queued++;
		}
		n = syscall(__NR_io_uring_enter, r.fd, queued, 1,
			    IORING_ENTER_GETEVENTS, NULL, 0);
		if (n < 0)
			die("io_uring_enter");
		if (n >= 0 && n != (long)queued) {
			fprintf(stderr, "lwnfs-io: %ld of %u reads submitted\n", n, queued);
			exit(1);
		}
		head = *r.cq_head;
		while (head != __atomic_load_n(r.cq_tail, __ATOMIC_ACQUIRE)) {
			cqe = &r.cqes[head & *r.cq_mask];
			slot = cqe->user_data;
			if (cqe->res < 0) {
				errno = -cqe->res;
				die("io_uring read");
			}
			flockfile(stdout);
			print_value(bufs[me][slot], cqe->res);
			funlockfile(stdout);
			bufs[me][slot][TEXT - 1] = 0;
			head++;
			done++;
		}
		__atomic_store_n(r.cq_head, head, __ATOMIC_RELEASE);
	}
	close(fd);
	close(r.fd);
	return NULL;
}

static void do_uring(int threads)
{
	pthread_t tids[64];
	long i;

	for (i = 0; i < threads; i++) {
		errno = pthread_create(&tids[i], NULL, uring_thread, (void *)i);
		if (errno)
			die("pthread_create");
	}
	for (i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int threads;

	if (argc == 3) {
		path = argv[2];
		if (!strcmp(cmd, "readv"))
			do_readv();
		else if (!strcmp(cmd, "splice"))
			do_pipe(0);
		else if (!strcmp(cmd, "sendfile"))
			do_pipe(1);
		else if (!strcmp(cmd, "fsync"))
			do_fsync();
		else if (!strcmp(cmd, "exec"))
			do_exec();
		else if (!strcmp(cmd, "unsupported"))
			do_unsupported();
		else
			goto usage;
	} else if (argc >= 4 && !strcmp(cmd, "splice-to")) {
		path = argv[2];
		do_splice_to(argv + 3, argc - 3);
	} else if (argc >= 4 && !strcmp(cmd, "sendfile-to")) {
		path = argv[2];
		do_sendfile_to(argv + 3, argc - 3);
	} else if (argc == 5 && !strcmp(cmd, "uring")) {
		threads = atoi(argv[2]);
		count = atol(argv[3]);
		path = argv[4];
		if (threads < 1 || threads > 64 || count < 1)
			goto usage;
		do_uring(threads);
	} else {
		goto usage;
	}
	if (fflush(stdout))
		die("stdout");
	return 0;
usage:
	fprintf(stderr, "usage: lwnfs-io readv|splice|sendfile|fsync|exec|unsupported FILE\n"
		"       lwnfs-io uring THREADS COUNT FILE (THREADS: 1 to 64)\n"
		"       lwnfs-io splice-to FILE DATA...\n"
		"       lwnfs-io sendfile-to FILE SOURCE...\n");
	return 2;
}
