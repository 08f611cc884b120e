// SPDX-License-Identifier: GPL-2.0
/*
 * lwnfs-bench - how close taking a value from lwnfs comes to the syscall
 * floor, and to what scripts use instead
 *
 * Usage: lwnfs-bench MOUNTPOINT SCRATCHDIR JSONFILE MODULE.ko
 *        lwnfs-bench --loop pread|preadv FILE N
 *
 * Run as root in a guest with lwnfs mounted at MOUNTPOINT; SCRATCHDIR is
 * on tmpfs.  Prints a table and writes the same figures to JSONFILE.  Each
 * figure is the median over RUNS runs, with the fastest and slowest run;
 * the measures compared take turns within a run, in an order that changes
 * every slice, and each ratio is the median of the ratios within a run.
 * This is a benchmark: it asserts nothing about time.  It does check that
 * every value the threads took is distinct, and fails if one is not.
 * --loop makes N preads (or one-vector preadv calls) of 32 bytes at 0 of
 * FILE and nothing else, for a profiler to sample (make bench-profile).
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
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lwnfs-measure.h"

#define RUNS	7
#define SLICES	10	/* turns a run of measures takes (run_rounds()) */
#define MAX_THREADS 64

struct figure {
	const char *key;	/* JSON name */
	const char *what;	/* table row */
	const char *unit;
	double median, min, max;
	long calls;		/* calls a run (a thread's), for a timing */
};

#define MAX_FIGURES 32
static struct figure figures[MAX_FIGURES];
static int nfigures;
static const char *mnt, *scratch;

static void add_figure(struct figure fg)
{
	if (nfigures == MAX_FIGURES) {
		fprintf(stderr, "lwnfs-bench: more figures than figures[] holds\n");
		exit(1);
	}
	figures[nfigures++] = fg;
}

/* The median of @runs of @calls calls each, with the lowest and highest. */
static void record(const char *key, const char *what, const char *unit,
		   const double *runs, long calls)
{
	struct figure fg = { key, what, unit, median(runs, RUNS), runs[0],
			     runs[0], calls };
	int r;

	for (r = 1; r < RUNS; r++) {
		if (runs[r] < fg.min)
			fg.min = runs[r];
		if (runs[r] > fg.max)
			fg.max = runs[r];
	}
	add_figure(fg);
}

/* A figure found once: a size, or a ratio of medians. */
static void record_one(const char *key, const char *what, const char *unit,
		       double value)
{
	add_figure((struct figure){ key, what, unit, value, value, value, 0 });
}

static int xopen(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		die(path);
	return fd;
}

/*
 * One thing measured: @run makes @iters calls (each a value taken, a file
 * opened, ...; with @n threads, @iters each) and returns the seconds spent.
 * @runs holds RUNS figures: ns per call, or values per second.
 */
struct measure {
	const char *key, *what, *unit;
	double (*run)(const struct measure *m);
	const char *path;
	long iters;
	int n;		/* an open fd, or a thread count */
	double runs[RUNS];
};

/*
 * Which of @nm measures goes @i-th in slice @k (counted over all the
 * runs): the order turns one place each slice, forwards for @nm slices,
 * then backwards for @nm, so that each measure goes first and last in
 * turn and none always follows the same other (with 3 measures, the 6
 * orders there are).
 */
static int turn(int k, int i, int nm)
{
	if ((k / nm) % 2)
		return ((k - i) % nm + nm) % nm;
	return (k + i) % nm;
}

/*
 * RUNS runs of every measure of @m, each run made of @slices slices, and
 * the measures take turns slice by slice, in an order that changes every
 * slice (turn()): what one measure leaves behind (the flock measure's
 * file writes, a thread's caches) does not always fall on the same one.  A
 * guest under TCG shares the machine with everything on the host, whose
 * slow spells (half the speed for a tenth of a second, and more) come and
 * go: in turns, a spell falls on every measure of a run alike, and each
 * ratio is taken within a run (record_ratio()).
 */
static void run_rounds(struct measure *m, int nm, int slices)
{
	int r, s, i, k = 0;

	for (r = 0; r < RUNS; r++) {
		for (i = 0; i < nm; i++)
			m[i].runs[r] = 0;
		for (s = 0; s < slices; s++, k++)
			for (i = 0; i < nm; i++) {
				struct measure *mi = &m[turn(k, i, nm)];

				mi->runs[r] += mi->run(mi);
			}
		for (i = 0; i < nm; i++) {
			double calls = (double)m[i].iters * slices;

			if (!strcmp(m[i].unit, "/s"))
				m[i].runs[r] = calls * m[i].n / m[i].runs[r];
			else
				m[i].runs[r] = m[i].runs[r] / calls * 1e9;
		}
	}
	for (i = 0; i < nm; i++)
		record(m[i].key, m[i].what, m[i].unit, m[i].runs,
		       m[i].iters * slices);
}

/* Calls a slice of a run of @calls calls makes. */
static long per_slice(long calls)
{
	return calls >= SLICES ? calls / SLICES : 1;
}

/* @a over @b in each run: the median, with the lowest and the highest. */
static void record_ratio(const char *key, const char *what,
			 const struct measure *a, const struct measure *b)
{
	double ratio[RUNS];
	int r;

	for (r = 0; r < RUNS; r++)
		ratio[r] = a->runs[r] / b->runs[r];
	record(key, what, "x", ratio, 0);
}

/* pread(fd, buf, 32, 0) */
static double run_pread(const struct measure *m)
{
	double t = now();
	char buf[32];
	long i;

	for (i = 0; i < m->iters; i++)
		if (pread(m->n, buf, sizeof(buf), 0) < 0)
			die("pread");
	return now() - t;
}

/*
 * preadv(fd, one vector of 32 bytes, 0): for /dev/zero, whose pread goes
 * through its ->read, the path through its ->read_iter, the one lwnfs's
 * every read takes; and lwnfs's through the same system call, whose
 * iovec import a pread does not pay.
 */
static double run_preadv(const struct measure *m)
{
	double t = now();
	char buf[32];
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	long i;

	for (i = 0; i < m->iters; i++)
		if (preadv(m->n, &iov, 1, 0) < 0)
			die("preadv");
	return now() - t;
}

/* open + read + close */
static double run_orc(const struct measure *m)
{
	double t = now();
	char buf[64];
	long i;

	for (i = 0; i < m->iters; i++) {
		int fd = xopen(m->path, O_RDONLY);

		if (read(fd, buf, sizeof(buf)) < 0)
			die("read");
		close(fd);
	}
	return now() - t;
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

static double run_flock_c(const struct measure *m)
{
	double t = now();
	long i;

	for (i = 0; i < m->iters; i++)
		flock_take(m->path);
	return now() - t;
}

/* The same as a shell script does it: flock(1), sh and cat per value. */
static double run_flock_sh(const struct measure *m)
{
	const char *cmd = "flock \"$F\" sh -c 'echo $(($(cat \"$F\") + 1)) > \"$F\"'";
	double t;
	long i;

	setenv("F", m->path, 1);
	t = now();
	for (i = 0; i < m->iters; i++)
		if (system(cmd))
			die("flock script");
	return now() - t;
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

/*
 * m->n threads sharing one fd of m->path make m->iters preads each,
 * leaving what they read, as numbers, in @all; the seconds they took.
 */
static double run_takers(const struct measure *m, long long *all)
{
	struct taker tk[MAX_THREADS];
	int fd = xopen(m->path, O_RDONLY), t;
	double start = now(), spent;

	for (t = 0; t < m->n; t++) {
		tk[t] = (struct taker){ 0, fd, m->iters, all + t * m->iters };
		errno = pthread_create(&tk[t].tid, NULL, take_values, &tk[t]);
		if (errno)
			die("pthread_create");
	}
	for (t = 0; t < m->n; t++)
		pthread_join(tk[t].tid, NULL);
	spent = now() - start;
	close(fd);
	return spent;
}

/* Threads taking values: fails unless every value taken is distinct. */
static double run_threads(const struct measure *m)
{
	long i, total = (long)m->n * m->iters;
	long long *all = calloc(total, sizeof(*all));
	double spent;

	if (!all)
		die("calloc");
	spent = run_takers(m, all);
	qsort(all, total, sizeof(*all), cmp_ll);
	for (i = 1; i < total; i++) {
		if (all[i] == all[i - 1]) {
			fprintf(stderr, "lwnfs-bench: value %lld taken twice\n",
				all[i]);
			exit(1);
		}
	}
	free(all);
	return spent;
}

/* The same preads of /dev/zero: what threads in system calls can reach. */
static double run_zero_threads(const struct measure *m)
{
	long long *all = calloc((long)m->n * m->iters, sizeof(*all));
	double spent;

	if (!all)
		die("calloc");
	spent = run_takers(m, all);
	free(all);
	return spent;
}

static void *spin(void *arg)
{
	long i, n = *(const long *)arg, sum = 0;

	for (i = 0; i < n; i++) {
		sum += i;
		asm volatile("" : "+r" (sum));	/* kept: each addition made */
	}
	return NULL;
}

/*
 * m->n threads adding m->iters numbers each, no system call: what the
 * machine gives threads at all, the bound for the threads taking values.
 */
static double run_spin(const struct measure *m)
{
	pthread_t tid[MAX_THREADS];
	double start = now();
	int t;

	for (t = 0; t < m->n; t++) {
		errno = pthread_create(&tid[t], NULL, spin, (void *)&m->iters);
		if (errno)
			die("pthread_create");
	}
	for (t = 0; t < m->n; t++)
		pthread_join(tid[t], NULL);
	return now() - start;
}

/* Taking a value, against the syscall floor and the flock idiom. */
static void bench_take(const char *counter, const char *lockfile, long iters)
{
	struct measure m[] = {
		{ .key = "take_pread_ns", .what = "lwnfs pread(fd, buf, 32, 0)",
		  .unit = "ns", .run = run_pread, .iters = per_slice(iters),
		  .n = xopen(counter, O_RDONLY) },
		{ .key = "zero_pread_ns", .what = "/dev/zero pread (->read floor)",
		  .unit = "ns", .run = run_pread, .iters = per_slice(iters),
		  .n = xopen("/dev/zero", O_RDONLY) },
		{ .key = "zero_preadv_ns",
		  .what = "/dev/zero preadv, 1 vector (->read_iter floor)",
		  .unit = "ns", .run = run_preadv, .iters = per_slice(iters),
		  .n = xopen("/dev/zero", O_RDONLY) },
		{ .key = "take_preadv_ns",
		  .what = "lwnfs preadv, 1 vector",
		  .unit = "ns", .run = run_preadv, .iters = per_slice(iters),
		  .n = xopen(counter, O_RDONLY) },
		{ .key = "flock_c_ns", .what = "flock read-increment-write, in C",
		  .unit = "ns", .run = run_flock_c, .path = lockfile,
		  .iters = per_slice(iters / 4) },
	};
	/*
	 * The shell runs alone, after: a fork and three execs a value would
	 * slow whichever measure came next, and its ratio is so large that
	 * the host's slow spells do not matter to it.
	 */
	struct measure sh = {
		.key = "flock_sh_ns", .what = "flock read-increment-write, shell",
		.unit = "ns", .run = run_flock_sh, .path = lockfile,
		.iters = iters / 2000 + 1,
	};

	run_rounds(m, 5, SLICES);
	close(m[0].n);
	close(m[1].n);
	close(m[2].n);
	close(m[3].n);
	run_rounds(&sh, 1, 1);
	record_ratio("take_vs_zero", "  lwnfs / /dev/zero pread", &m[0], &m[1]);
	record_ratio("take_vs_zero_iter", "  lwnfs / /dev/zero preadv (iterator floor)",
		     &m[0], &m[2]);
	/* one system call on both sides, both through ->read_iter */
	record_ratio("take_preadv_vs_zero_iter",
		     "  lwnfs preadv / /dev/zero preadv (same call)", &m[3], &m[2]);
	record_ratio("take_vs_flock_c", "  values/s: lwnfs pread / flock in C",
		     &m[4], &m[0]);
	/* the most lwnfs could reach against flock: a read that costs nothing */
	record_ratio("flock_c_vs_zero", "  values/s: /dev/zero pread / flock in C",
		     &m[4], &m[1]);
	/* runs it shared no turns with: the medians' ratio, not a median ratio */
	record_one("take_vs_flock_sh", "  values/s: lwnfs pread / flock script",
		   "x", median(sh.runs, RUNS) / median(m[0].runs, RUNS));
}

/* open + read + close, against tmpfs and procfs */
static void bench_orc(const char *counter, const char *tmpfile, long iters)
{
	struct measure m[] = {
		{ .key = "orc_lwnfs_ns", .what = "lwnfs open+read+close",
		  .path = counter },
		{ .key = "orc_tmpfs_ns", .what = "tmpfs open+read+close",
		  .path = tmpfile },
		{ .key = "orc_procfs_ns",
		  .what = "procfs open+read+close (/proc/loadavg)",
		  .path = "/proc/loadavg" },
	};
	int i;

	for (i = 0; i < 3; i++) {
		m[i].unit = "ns";
		m[i].run = run_orc;
		m[i].iters = per_slice(iters);
	}
	run_rounds(m, 3, SLICES);
	record_ratio("orc_lwnfs_vs_tmpfs", "  lwnfs / tmpfs", &m[0], &m[1]);
	record_ratio("orc_lwnfs_vs_procfs", "  lwnfs / procfs", &m[0], &m[2]);
}

/*
 * Threads sharing one fd: 1, 2, and one per CPU where there are more, in
 * turns with 1 and 2 threads reading /dev/zero, the bound for them.
 */
static void bench_threads(const char *counter, long iters, long ncpu)
{
	static char key[32], what[64];
	struct measure m[] = {
		{ .key = "threads_1_per_s", .what = "values/s, 1 thread, one fd",
		  .n = 1, .run = run_threads, .path = counter },
		{ .key = "threads_2_per_s", .what = "values/s, 2 threads, one fd",
		  .n = 2, .run = run_threads, .path = counter },
		{ .key = "zero_threads_1_per_s",
		  .what = "/dev/zero preads/s, 1 thread, one fd", .n = 1,
		  .run = run_zero_threads, .path = "/dev/zero" },
		{ .key = "zero_threads_2_per_s",
		  .what = "/dev/zero preads/s, 2 threads, one fd", .n = 2,
		  .run = run_zero_threads, .path = "/dev/zero" },
		{ .key = key, .what = what, .n = ncpu, .run = run_threads,
		  .path = counter },
	};
	struct measure spins[] = {
		{ .key = "spin_1_per_s", .what = "additions/s, 1 thread", .n = 1 },
		{ .key = "spin_2_per_s", .what = "additions/s, 2 threads", .n = 2 },
	};
	int i;

	snprintf(key, sizeof(key), "threads_%ld_per_s", ncpu);
	snprintf(what, sizeof(what), "values/s, %ld threads, one fd", ncpu);
	for (i = 0; i < 5; i++) {
		m[i].unit = "/s";
		m[i].iters = iters;
	}
	/* in one slice: each slice would start its threads anew */
	run_rounds(m, ncpu > 2 && ncpu <= MAX_THREADS ? 5 : 4, 1);
	record_ratio("threads_2_vs_1", "  2 threads / 1 thread", &m[1], &m[0]);
	/* below 2 where the system calls of two CPUs slow each other */
	record_ratio("zero_threads_2_vs_1", "  2 threads / 1, /dev/zero pread",
		     &m[3], &m[2]);
	for (i = 0; i < 2; i++) {
		spins[i].unit = "/s";
		spins[i].run = run_spin;
		spins[i].iters = iters * 100;
	}
	run_rounds(spins, 2, 1);
	/* below 2 when the emulator or the host cannot give 2 CPUs their fill */
	record_ratio("spin_2_vs_1", "  2 threads / 1, no system call", &spins[1],
		     &spins[0]);
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

/*
 * Kernel memory per user-made counter: the slab delta over @n counters
 * made in a fresh directory, and what is left once they are removed,
 * each read settled as lwnfs-scale reads it (settled_slab()): a slab
 * read right after the unlinks still holds what waits for RCU.
 */
static void bench_memory(long n)
{
	char dir[256], path[300];
	long long before, made, after;
	long i;

	snprintf(dir, sizeof(dir), "%s/memory", mnt);
	if (mkdir(dir, 0755))
		die(dir);
	before = settled_slab();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%ld", dir, i);
		close(xopen(path, O_CREAT | O_WRONLY));
	}
	made = settled_slab();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%ld", dir, i);
		if (unlink(path))
			die(path);
	}
	after = settled_slab();
	if (rmdir(dir))
		die(dir);
	record_one("made_counter_bytes", "kernel memory per made counter (slab)",
		   "B", (double)(made - before) / n);
	record_one("made_counter_left_bytes", "  slab left per counter after rm",
		   "B", (double)(after - before) / n);
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

static void report(const char *json)
{
	const char *accel = getenv("lwnfs_accel");
	struct utsname u;
	FILE *f;
	int i;

	uname(&u);
	accel = accel ? accel : "unknown";
	printf("lwnfs benchmark: kernel %s, %ld online CPUs, QEMU %s\n",
	       u.release, sysconf(_SC_NPROCESSORS_ONLN), accel);
	printf("median of %d runs (lowest .. highest), a ratio the median of the\n"
	       "ratios within a run; calls: how many a run makes (a thread)\n\n",
	       RUNS);
	printf("%-44s %12s %24s %10s\n", "measure", "median", "range", "calls");
	for (i = 0; i < nfigures; i++) {
		struct figure *fg = &figures[i];

		if (!strcmp(fg->unit, "x") && fg->min == fg->max)
			printf("%-44s %10.2f x\n", fg->what, fg->median);
		else if (!strcmp(fg->unit, "x"))
			printf("%-44s %10.2f x  %10.2f .. %-10.2f\n", fg->what,
			       fg->median, fg->min, fg->max);
		else if (fg->min == fg->max)
			printf("%-44s %10.0f %-2s\n", fg->what, fg->median,
			       fg->unit);
		else
			printf("%-44s %10.0f %-2s %10.0f .. %-10.0f %10ld\n",
			       fg->what, fg->median, fg->unit, fg->min, fg->max,
			       fg->calls);
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
		fprintf(f, "\"max\": %.3f, \"unit\": \"%s\", \"calls\": %ld}%s\n",
			figures[i].max, figures[i].unit, figures[i].calls,
			i + 1 < nfigures ? "," : "");
	}
	fprintf(f, "  }\n}\n");
	if (fclose(f))
		die(json);
}

/* --loop pread|preadv FILE N */
static int profile_loop(char **argv)
{
	struct measure m = { .iters = atol(argv[3]) };

	if (strcmp(argv[1], "pread") && strcmp(argv[1], "preadv")) {
		fprintf(stderr, "lwnfs-bench: --loop pread or preadv, not %s\n",
			argv[1]);
		return 2;
	}
	m.n = xopen(argv[2], O_RDONLY);
	if (!strcmp(argv[1], "pread"))
		run_pread(&m);
	else
		run_preadv(&m);
	close(m.n);
	return 0;
}

int main(int argc, char **argv)
{
	char counter[256], tmpfile[256], lockfile[256];
	long iters = 20000;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	long text, data, bss;

	if (argc == 5 && !strcmp(argv[1], "--loop"))
		return profile_loop(argv + 1);
	if (argc != 5) {
		fprintf(stderr, "usage: lwnfs-bench MOUNTPOINT SCRATCHDIR JSONFILE MODULE.ko\n"
			"       lwnfs-bench --loop pread|preadv FILE N\n");
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

	bench_take(counter, lockfile, iters);
	bench_orc(counter, tmpfile, iters / 4);
	bench_threads(counter, iters, ncpu);
	bench_memory(10000);
	module_sections(argv[4], &text, &data, &bss);
	record_one("module_text_bytes", "module text (size)", "B", text);
	record_one("module_data_bytes", "module data (size)", "B", data);
	record_one("module_bss_bytes", "module bss (size)", "B", bss);
	record_one("module_loaded_bytes", "module loaded (/proc/modules)", "B",
		   module_size());
	report(argv[3]);
	return 0;
}
