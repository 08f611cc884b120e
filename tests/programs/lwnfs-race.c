// SPDX-License-Identifier: GPL-2.0
/*
 * lwnfs-race - the sides of lwnfs's races, for harness/guest/race.sh
 *
 * Usage: lwnfs-race remount DIR SECONDS
 *        lwnfs-race show DIR SECONDS
 *        lwnfs-race times COUNTER SECONDS [HOLDING]
 *
 * remount: for SECONDS, remount the lwnfs mounted on DIR with mount(2),
 * K going round 0 to 3: uid=1000+K, gid=2000+K, mode=0755 or 0775 and
 * max_counters=1000+K.  Exits non-zero when a remount fails.
 * show: for SECONDS, read /proc/self/mounts; on DIR's line uid= and gid=
 * come from one remount (uid - 1000 == gid - 2000) once a remount has
 * set them.  Exits non-zero on a torn pair, printing the line.
 * times: for SECONDS, rounds of two threads let go at once, one writing
 * "1" to COUNTER, one setting its times with futimens(2); afterwards its
 * times are the last one's: a write's (mtime equal to ctime) or the
 * setter's (its mtime).  Exits non-zero on times of neither, printing
 * them.  With HOLDING, the writer is named "lwnfs-race-held", the task
 * whose writes tests/programs/delay's module holds between setting ctime and
 * mtime, and the setter waits (up to 100 ms) for HOLDING, that module's
 * "holding" parameter, to say a write is held before it sets the times:
 * in the middle of the write.  Exits non-zero if no round's setter came
 * in while the write was held.  Each prints "lwnfs-race: MODE: N runs".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lwnfs-measure.h"

static char table[1 << 16];
static pthread_barrier_t start, done;
static struct timespec times[2];	/* the setter's atime and mtime */
static int counter_fd, holding_fd = -1, stop;
static long held;			/* rounds whose setter came in a hold */
static const char times_fmt[] =
	"lwnfs-race: torn times%s: mtime %lld.%09ld, ctime %lld.%09ld, set %lld.%09ld\n";

static void remount(const char *dir, long k)
{
	char opts[128];

	snprintf(opts, sizeof(opts), "uid=%ld,gid=%ld,mode=07%ld5,max_counters=%ld",
		 1000 + k, 2000 + k, k % 2 * 2 + 5, 1000 + k);
	if (mount("lwnfs", dir, "lwnfs", MS_REMOUNT, opts))
		die("remount");
}

/* Whether DIR's line in the mount table, if any, holds a torn pair. */
static int mounts_torn(const char *dir)
{
	size_t len = 0, dirlen = strlen(dir);
	char *line, *next, *uid, *gid;
	ssize_t n;
	int fd = open("/proc/self/mounts", O_RDONLY);

	if (fd < 0)
		die("/proc/self/mounts");
	while ((n = read(fd, table + len, sizeof(table) - 1 - len)) > 0)
		len += n;
	if (n < 0)
		die("read /proc/self/mounts");
	if (len == sizeof(table) - 1) {
		errno = EFBIG;
		die("/proc/self/mounts");
	}
	close(fd);
	table[len] = '\0';
	for (line = table; *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (strncmp(line, "lwnfs ", 6) || strncmp(line + 6, dir, dirlen) ||
		    line[6 + dirlen] != ' ')
			continue;
		uid = strstr(line, ",uid=");
		gid = strstr(line, ",gid=");
		if (uid && gid && uid < next && gid < next &&
		    strtol(uid + 5, NULL, 10) - 1000 != strtol(gid + 5, NULL, 10) - 2000) {
			fprintf(stderr, "lwnfs-race: a torn pair: %.*s", (int)(next - line), line);
			return 1;
		}
	}
	return 0;
}

/* Whether HOLDING says a write is held, within 100 ms. */
static int holds(void)
{
	double t0 = now();
	char c;

	do {
		if (pread(holding_fd, &c, 1, 0) != 1)
			die("read HOLDING");
		if (c != '0')
			return 1;
	} while (now() - t0 < 0.1);
	return 0;
}

static void *setter(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_barrier_wait(&start);
		if (__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
			return NULL;
		if (holding_fd >= 0 && holds())
			held++;
		if (futimens(counter_fd, times))
			die("futimens");
		pthread_barrier_wait(&done);
	}
}

/* One round of a write against futimens(2); whether the times are torn. */
static int times_torn(long round)
{
	struct stat st;

	times[1].tv_sec = 1000000 + round % 1000;
	times[1].tv_nsec = 123456789;
	times[0] = times[1];
	pthread_barrier_wait(&start);
	if (pwrite(counter_fd, "1", 1, 0) != 1)
		die("pwrite");
	pthread_barrier_wait(&done);
	if (fstat(counter_fd, &st))
		die("fstat");
	if ((st.st_mtim.tv_sec == st.st_ctim.tv_sec && st.st_mtim.tv_nsec == st.st_ctim.tv_nsec) ||
	    (st.st_mtim.tv_sec == times[1].tv_sec && st.st_mtim.tv_nsec == times[1].tv_nsec))
		return 0;
	fprintf(stderr, times_fmt, holding_fd >= 0 ? " of a held write" : "",
		(long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		(long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec,
		(long long)times[1].tv_sec, times[1].tv_nsec);
	return 1;
}

int main(int argc, char **argv)
{
	pthread_t thread;
	long runs = 0;
	time_t end;

	if ((argc != 4 && (argc != 5 || strcmp(argv[1], "times"))) ||
	    (strcmp(argv[1], "remount") && strcmp(argv[1], "show") && strcmp(argv[1], "times"))) {
		fprintf(stderr, "usage: lwnfs-race remount|show DIR SECONDS\n"
			"       lwnfs-race times COUNTER SECONDS [HOLDING]\n");
		return 2;
	}
	if (argv[1][0] == 't') {
		counter_fd = open(argv[2], O_WRONLY);
		if (counter_fd < 0)
			die(argv[2]);
		if (argc == 5) {
			holding_fd = open(argv[4], O_RDONLY);
			if (holding_fd < 0)
				die(argv[4]);
		}
		if (pthread_barrier_init(&start, NULL, 2) || pthread_barrier_init(&done, NULL, 2) ||
		    pthread_create(&thread, NULL, setter, NULL))
			die("threads");
		/* After the setter's start: a thread takes its maker's name. */
		if (holding_fd >= 0 && prctl(PR_SET_NAME, "lwnfs-race-held"))
			die("prctl");
	}
	end = time(NULL) + atol(argv[3]);
	while (time(NULL) < end) {
		if (argv[1][0] == 'r')
			remount(argv[2], runs % 4);
		else if (argv[1][0] == 's' ? mounts_torn(argv[2]) : times_torn(runs))
			return 1;
		runs++;
	}
	if (argv[1][0] == 't') {
		__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
		pthread_barrier_wait(&start);
		pthread_join(thread, NULL);
	}
	if (holding_fd < 0) {
		printf("lwnfs-race: %s: %ld runs\n", argv[1], runs);
		return 0;
	}
	printf("lwnfs-race: times held: %ld runs, %ld with the setter in the hold\n", runs, held);
	if (held)
		return 0;
	fprintf(stderr, "lwnfs-race: no write was held while the setter waited (2 CPUs?)\n");
	return 1;
}
