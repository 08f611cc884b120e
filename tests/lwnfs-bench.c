// SPDX-License-Identifier: GPL-2.0
/*
 * lwnfs-bench - how close taking a value from lwnfs comes to the syscall
 * floor, and to what scripts use instead
 *
 * Usage: lwnfs-bench MOUNTPOINT SCRATCHDIR JSONFILE MODULE.ko
 *
 * Run as root in a guest with lwnfs mounted at MOUNTPOINT; SCRATCHDIR is
 * on tmpfs.  Prints a table and writes the same figures to JSONFILE.  Each
 * figure is the median over RUNS runs, with the fastest and slowest run.
 * This is a benchmark: it asserts nothing about time.  It does check that
 * every value the threads took is distinct, and fails if one is not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define RUNS	7
#define MAX_THREADS 64

struct figure {
	const char *key;	/* JSON name */
	const char *what;	/* table row */
	const char *unit;
	double median, min, max;
};

static struct figure figures[32];
static int nfigures;
static const char *mnt, *scratch;

static void die(const char *what)
{
	fprintf(stderr, "lwnfs-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static struct figure *record(const char *key, const char *what,
			     const char *unit, double *runs)
{
	struct figure *f = &figures[nfigures++];

	qsort(runs, RUNS, sizeof(*runs), cmp_double);
	*f = (struct figure){ key, what, unit, runs[RUNS / 2], runs[0],
			      runs[RUNS - 1] };
	return f;
}

static void record_ratio(const char *key, const char *what, double ratio)
{
	figures[nfigures++] = (struct figure){ key, what, "x", ratio, ratio,
					       ratio };
}

static void record_size(const char *key, const char *what, double bytes)
{
	figures[nfigures++] = (struct figure){ key, what, "B", bytes, bytes,
					       bytes };
}

static int xopen(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		die(path);
	return fd;
}

static void xpread(int fd, char *buf, size_t n)
{
	if (pread(fd, buf, n, 0) < 0)
		die("pread");
}

/* ns per pread(fd, buf, 32, 0), RUNS times over @iters calls. */
static struct figure *bench_pread(const char *key, const char *what,
				  const char *path, long iters)
{
	double runs[RUNS];
	int fd = xopen(path, O_RDONLY);
	char buf[32];
	long i;
	int r;

	for (r = 0; r < RUNS; r++) {
		double t = now();

		for (i = 0; i < iters; i++)
			xpread(fd, buf, sizeof(buf));
		runs[r] = (now() - t) / iters * 1e9;
	}
	close(fd);
	return record(key, what, "ns", runs);
}

/* ns per open + read + close of @path. */
static struct figure *bench_orc(const char *key, const char *what,
				const char *path, long iters)
{
	double runs[RUNS];
	char buf[64];
	long i;
	int r;

	for (r = 0; r < RUNS; r++) {
		double t = now();

		for (i = 0; i < iters; i++) {
			int fd = xopen(path, O_RDONLY);

			if (read(fd, buf, sizeof(buf)) < 0)
				die("read");
			close(fd);
		}
		runs[r] = (now() - t) / iters * 1e9;
	}
	return record(key, what, "ns", runs);
}

/* The script idiom, in C: lock a file, read a number, write it + 1. */
static void flock_take(const char *path)
{
	int fd = xopen(path, O_RDWR);
	char buf[32];
	ssize_t n;
	int len;

	if (flock(fd, LOCK_EX))
		die("flock");
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		die("pread");
	buf[n] = '\0';
	len = snprintf(buf, sizeof(buf), "%lld\n", atoll(buf) + 1);
	if (pwrite(fd, buf, len, 0) != len || ftruncate(fd, len))
		die("pwrite");
	close(fd);	/* drops the lock */
}

static struct figure *bench_flock_c(const char *path, long iters)
{
	double runs[RUNS];
	long i;
	int r;

	for (r = 0; r < RUNS; r++) {
		double t = now();

		for (i = 0; i < iters; i++)
			flock_take(path);
		runs[r] = (now() - t) / iters * 1e9;
	}
	return record("flock_c_ns", "flock read-increment-write, in C",
		      "ns", runs);
}

/* The same as a shell script does it: flock(1), sh and cat per value. */
static struct figure *bench_flock_sh(const char *path, long iters)
{
	const char *cmd = "flock \"$F\" sh -c 'echo $(($(cat \"$F\") + 1)) > \"$F\"'";
	double runs[RUNS];
	long i;
	int r;

	setenv("F", path, 1);
	for (r = 0; r < RUNS; r++) {
		double t = now();

		for (i = 0; i < iters; i++)
			if (system(cmd))
				die("flock script");
		runs[r] = (now() - t) / iters * 1e9;
	}
	return record("flock_sh_ns", "flock read-increment-write, shell",
		      "ns", runs);
}

struct taker {
	pthread_t tid;
	int fd;
	long n;
	long long *values;
};

static void *take_values(void *arg)
{
	struct taker *tk = arg;
	char buf[32];
	long i;

	for (i = 0; i < tk->n; i++) {
		ssize_t n = pread(tk->fd, buf, sizeof(buf) - 1, 0);

		if (n <= 0)
			die("pread");
		buf[n] = '\0';
		tk->values[i] = atoll(buf);
	}
	return NULL;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Values per second from @threads threads sharing one fd; all distinct. */
static struct figure *bench_threads(int threads, long per_thread)
{
	static char key[32], what[64];
	struct taker tk[MAX_THREADS];
	long long *all = calloc((size_t)threads * per_thread, sizeof(*all));
	char path[256];
	double runs[RUNS];
	long i, total = (long)threads * per_thread;
	int fd, r, t;

	if (!all)
		die("calloc");
	snprintf(path, sizeof(path), "%s/counter", mnt);
	fd = xopen(path, O_RDONLY);
	for (r = 0; r < RUNS; r++) {
		double start = now();

		for (t = 0; t < threads; t++) {
			tk[t] = (struct taker){ 0, fd, per_thread,
						all + t * per_thread };
			errno = pthread_create(&tk[t].tid, NULL, take_values,
					       &tk[t]);
			if (errno)
				die("pthread_create");
		}
		for (t = 0; t < threads; t++)
			pthread_join(tk[t].tid, NULL);
		runs[r] = total / (now() - start);
		qsort(all, total, sizeof(*all), cmp_ll);
		for (i = 1; i < total; i++) {
			if (all[i] == all[i - 1]) {
				fprintf(stderr, "lwnfs-bench: value %lld taken twice\n",
					all[i]);
				exit(1);
			}
		}
	}
	close(fd);
	free(all);
	snprintf(key, sizeof(key), "threads_%d_per_s", threads);
	snprintf(what, sizeof(what), "values/s, %d thread%s, one fd", threads,
		 threads > 1 ? "s" : "");
	return record(strdup(key), strdup(what), "/s", runs);
}

static void write_file(const char *path, const char *text)
{
	int fd = xopen(path, O_WRONLY | O_CREAT | O_TRUNC);

	if (write(fd, text, strlen(text)) < 0)
		die(path);
	close(fd);
}

/* text, data and bss of @ko, as size(1) gives them. */
static void module_sections(const char *ko, long *text, long *data, long *bss)
{
	char cmd[300];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "size --format=berkeley '%s'", ko);
	p = popen(cmd, "r");
	if (!p || fscanf(p, "%*[^\n] %ld %ld %ld", text, data, bss) != 3)
		die("size");
	pclose(p);
}

/* Slab memory in use, in bytes, from /proc/meminfo. */
static long slab_bytes(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long kb = -1;

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

/*
 * Kernel memory per user-made counter: the slab delta over @n counters
 * made in a fresh directory, and what is left once they are removed.
 */
static void bench_memory(long n)
{
	char dir[256], path[300];
	long before, made, after, i;

	snprintf(dir, sizeof(dir), "%s/memory", mnt);
	if (mkdir(dir, 0755))
		die(dir);
	sync();
	before = slab_bytes();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%ld", dir, i);
		close(xopen(path, O_CREAT | O_WRONLY));
	}
	made = slab_bytes();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%ld", dir, i);
		if (unlink(path))
			die(path);
	}
	after = slab_bytes();
	if (rmdir(dir))
		die(dir);
	record_size("made_counter_bytes", "kernel memory per made counter (slab)",
		    (double)(made - before) / n);
	record_size("made_counter_left_bytes",
		    "  slab left per counter after rm", (double)(after - before) / n);
}

/* Module size in bytes as /proc/modules gives it. */
static long module_size(void)
{
	FILE *f = fopen("/proc/modules", "r");
	char name[64];
	long size;

	if (!f)
		die("/proc/modules");
	while (fscanf(f, "%63s %ld %*[^\n]", name, &size) == 2) {
		if (!strcmp(name, "lwnfs")) {
			fclose(f);
			return size;
		}
	}
	fclose(f);
	return -1;
}

static void report(const char *json, long iters)
{
	const char *accel = getenv("lwnfs_accel");
	struct utsname u;
	FILE *f;
	int i;

	uname(&u);
	accel = accel ? accel : "unknown";
	printf("lwnfs benchmark: kernel %s, %ld online CPUs, QEMU %s\n",
	       u.release, sysconf(_SC_NPROCESSORS_ONLN), accel);
	printf("median of %d runs (fastest .. slowest); %ld calls a run\n\n",
	       RUNS, iters);
	printf("%-44s %12s %24s\n", "measure", "median", "range");
	for (i = 0; i < nfigures; i++) {
		struct figure *fg = &figures[i];

		if (!strcmp(fg->unit, "x"))
			printf("%-44s %11.2fx\n", fg->what, fg->median);
		else if (fg->min == fg->max)
			printf("%-44s %10.0f %-2s\n", fg->what, fg->median,
			       fg->unit);
		else
			printf("%-44s %10.0f %-2s %10.0f .. %-10.0f\n", fg->what,
			       fg->median, fg->unit, fg->min, fg->max);
	}

	f = fopen(json, "w");
	if (!f)
		die(json);
	fprintf(f, "{\n  \"kernel\": \"%s\",\n  \"accel\": \"%s\",\n", u.release,
		accel);
	fprintf(f, "  \"cpus\": %ld,\n  \"runs\": %d,\n  \"figures\": {\n",
		sysconf(_SC_NPROCESSORS_ONLN), RUNS);
	for (i = 0; i < nfigures; i++) {
		fprintf(f, "    \"%s\": {\"median\": %.3f, \"min\": %.3f, ",
			figures[i].key, figures[i].median, figures[i].min);
		fprintf(f, "\"max\": %.3f, \"unit\": \"%s\"}%s\n", figures[i].max,
			figures[i].unit, i + 1 < nfigures ? "," : "");
	}
	fprintf(f, "  }\n}\n");
	if (fclose(f))
		die(json);
}

int main(int argc, char **argv)
{
	char counter[256], tmpfile[256], lockfile[256];
	struct figure *take, *zero, *orc, *tmp, *proc, *fc, *fsh, *t1, *t2;
	long iters = 20000;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	long text, data, bss;

	if (argc != 5) {
		fprintf(stderr, "usage: lwnfs-bench MOUNTPOINT SCRATCHDIR JSONFILE MODULE.ko\n");
		return 2;
	}
	mnt = argv[1];
	scratch = argv[2];
	if (getenv("LWNFS_BENCH_ITERS"))
		iters = atol(getenv("LWNFS_BENCH_ITERS"));
	snprintf(counter, sizeof(counter), "%s/counter", mnt);
	snprintf(tmpfile, sizeof(tmpfile), "%s/value", scratch);
	snprintf(lockfile, sizeof(lockfile), "%s/lockcounter", scratch);
	write_file(tmpfile, "1234567\n");
	write_file(lockfile, "0\n");

	take = bench_pread("take_pread_ns", "lwnfs pread(fd, buf, 32, 0)",
			   counter, iters);
	zero = bench_pread("zero_pread_ns", "/dev/zero pread (syscall floor)",
			   "/dev/zero", iters);
	record_ratio("take_vs_zero", "  lwnfs / /dev/zero", take->median / zero->median);

	orc = bench_orc("orc_lwnfs_ns", "lwnfs open+read+close", counter, iters / 4);
	tmp = bench_orc("orc_tmpfs_ns", "tmpfs open+read+close", tmpfile, iters / 4);
	proc = bench_orc("orc_procfs_ns", "procfs open+read+close (/proc/loadavg)",
			 "/proc/loadavg", iters / 4);
	record_ratio("orc_lwnfs_vs_tmpfs", "  lwnfs / tmpfs", orc->median / tmp->median);
	record_ratio("orc_lwnfs_vs_procfs", "  lwnfs / procfs", orc->median / proc->median);

	fc = bench_flock_c(lockfile, iters / 4);
	fsh = bench_flock_sh(lockfile, iters / 2000 + 1);
	record_ratio("take_vs_flock_c", "  values/s: lwnfs pread / flock in C",
		     fc->median / take->median);
	record_ratio("take_vs_flock_sh", "  values/s: lwnfs pread / flock script",
		     fsh->median / take->median);

	t1 = bench_threads(1, iters);
	t2 = bench_threads(2, iters);
	record_ratio("threads_2_vs_1", "  2 threads / 1 thread", t2->median / t1->median);
	if (ncpu > 2 && ncpu <= MAX_THREADS)
		bench_threads(ncpu, iters);

	bench_memory(10000);
	module_sections(argv[4], &text, &data, &bss);
	record_size("module_text_bytes", "module text (size)", text);
	record_size("module_data_bytes", "module data (size)", data);
	record_size("module_bss_bytes", "module bss (size)", bss);
	record_size("module_loaded_bytes", "module loaded (/proc/modules)",
		    module_size());
	report(argv[3], iters);
	return 0;
}
