// SPDX-License-Identifier: GPL-2.0
/*
 * lwnfs-scale - how the cost of lwnfs's directory operations grows with
 * the number of entries, against tmpfs
 *
 * Usage: lwnfs-scale LWNFS_DIR TMPFS_DIR JSONFILE N...
 *
 * Run as root in a guest with lwnfs mounted at LWNFS_DIR (max_counters
 * at least the largest N plus 1,002) and TMPFS_DIR on tmpfs.  For each N:
 * make N counters (files in tmpfs) in one directory, stat each, read
 * each once, list the directory (getdents64 alone, and getdents64 with a
 * stat of every entry, as ls -l does; repeated to list 100,000 entries
 * at least), rename each, unlink each; each phase on lwnfs and on tmpfs
 * in turn, the first of the two changing from run to run, RUNS runs.
 * Each figure is the median of the runs in ns per entry, each ratio the
 * median of the ratios within a run, with the least and the greatest of
 * them.  Then the memory, one filesystem
 * at a time: the slab grown by making N entries, per entry, and what is
 * left of it once the same phases have run and unlinked them all.  Then
 * a tree 1,000 directories deep: a stat of the counter at its bottom by
 * its whole path, and a walk of the whole tree (nftw).
 * Prints a table and writes the figures to JSONFILE.
 * This is a benchmark: it asserts nothing about time.  It checks that
 * every call succeeded, every read of a new counter returned "0\n" and
 * every listing held each entry once, and fails otherwise.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lwnfs-measure.h"

#define RUNS	5
#define DEPTH	1000
#define NFS	2	/* lwnfs, tmpfs */
#define MAX_N	8

enum phase { MAKE, STAT, READ, LIST, LIST_STAT, RENAME, UNLINK, NPHASES };

static const char *const phase_key[NPHASES] = {
	"create", "stat", "read", "readdir", "readdir_stat", "rename", "unlink",
};

static const char *const phase_what[NPHASES] = {
	"make a counter (open O_CREAT|O_EXCL, close)",
	"stat a counter by name",
	"read a counter once (open, read, close)",
	"list the directory (getdents64), per entry",
	"list it as ls -l does (getdents64, fstatat each)",
	"rename a counter in the directory",
	"unlink a counter",
};

static void fail(const char *what)
{
	fprintf(stderr, "lwnfs-scale: %s\n", what);
	exit(1);
}

static int dir_fd(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		die(path);
	return fd;
}

static void name(char *buf, size_t len, char prefix, long i)
{
	snprintf(buf, len, "%c%ld", prefix, i);
}

/* The index of a counter's name, "c0" to "c<n - 1>" as made; else -1. */
static long entry_index(const char *name, long n)
{
	char *end;
	long i;

	if (!strcmp(name, "."))
		return n;
	if (!strcmp(name, ".."))
		return n + 1;
	/* One spelling a number: no sign, no leading zero. */
	if (name[0] != 'c' || name[1] < '0' || name[1] > '9' ||
	    (name[1] == '0' && name[2]))
		return -1;
	i = strtol(name + 1, &end, 10);
	return *end || i >= n ? -1 : i;
}

/*
 * getdents64 over the whole of @dfd, which holds "c0" to "c<n - 1>";
 * with @stat_each, fstatat each entry.  With @check, fails unless it
 * lists each of them, ".", ".." and nothing else, once; without, only
 * counts them (the timed listings: the check is not the filesystem's
 * cost).
 */
static void list_dir(int dfd, long n, int stat_each, int check)
{
	static unsigned char *seen;
	static long seen_n;
	char buf[32768];
	long entries = 0, i = 0;
	struct stat st;

	if (check && seen_n < n + 2) {
		free(seen);
		seen = malloc(n + 2);
		if (!seen)
			die("malloc");
		seen_n = n + 2;
	}
	if (check)
		memset(seen, 0, n + 2);

	if (lseek(dfd, 0, SEEK_SET) < 0)
		die("lseek");
	for (;;) {
		long got = syscall(SYS_getdents64, dfd, buf, sizeof(buf));
		long off;

		if (got < 0)
			die("getdents64");
		if (got == 0)
			break;
		for (off = 0; off < got;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);

			if (check) {
				i = entry_index(d->d_name, n);
				if (i < 0 || seen[i]++)
					fail("the listing has an entry twice, or one not made");
			}
			if (stat_each && d->d_name[0] != '.' &&
			    fstatat(dfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW))
				die("fstatat");
			entries++;
			off += d->d_reclen;
		}
	}
	if (entries != n + 2)
		fail("the listing has not every entry");
}

/*
 * Listings of fewer than LIST_ENTRIES entries are repeated to list that
 * many: one listing of 1,000 takes a millisecond, which a slow spell of
 * an emulated CPU doubles.
 */
#define LIST_ENTRIES	100000

/* One phase over @n entries of the directory @dfd; seconds. */
static double run_phase(enum phase p, int dfd, long n, int is_lwnfs)
{
	char a[32], b[32], buf[32];
	struct stat st;
	double t = now();
	long i, reps;

	switch (p) {
	case MAKE:
		for (i = 0; i < n; i++) {
			int fd;

			name(a, sizeof(a), 'c', i);
			fd = openat(dfd, a, O_CREAT | O_EXCL | O_WRONLY, 0644);
			if (fd < 0)
				die("create");
			close(fd);
		}
		break;
	case STAT:
		for (i = 0; i < n; i++) {
			name(a, sizeof(a), 'c', i);
			if (fstatat(dfd, a, &st, 0))
				die("stat");
		}
		break;
	case READ:
		for (i = 0; i < n; i++) {
			ssize_t got;
			int fd;

			name(a, sizeof(a), 'c', i);
			fd = openat(dfd, a, O_RDONLY);
			if (fd < 0)
				die("open");
			got = read(fd, buf, sizeof(buf));
			if (got < 0)
				die("read");
			/* A new counter's first value; tmpfs's file is empty. */
			if (is_lwnfs ? got != 2 || memcmp(buf, "0\n", 2) : got != 0)
				fail("a new counter did not read \"0\\n\" once");
			close(fd);
		}
		break;
	case LIST:
	case LIST_STAT:
		reps = (LIST_ENTRIES + n - 1) / n;
		for (i = 0; i < reps; i++)
			list_dir(dfd, n, p == LIST_STAT, 0);
		t = (now() - t) / reps;
		/* Then one listing checked, untimed. */
		list_dir(dfd, n, 0, 1);
		return t;
	case RENAME:
		for (i = 0; i < n; i++) {
			name(a, sizeof(a), 'c', i);
			name(b, sizeof(b), 'r', i);
			if (renameat(dfd, a, dfd, b))
				die("rename");
		}
		break;
	case UNLINK:
		for (i = 0; i < n; i++) {
			name(b, sizeof(b), 'r', i);
			if (unlinkat(dfd, b, 0))
				die("unlink");
		}
		break;
	default:
		fail("no such phase");
	}
	return now() - t;
}

struct scale {
	long n;
	double ns[NFS][NPHASES][RUNS];	/* per entry */
	double made[NFS], left[NFS];	/* slab bytes per entry */
};

static int scale_dir(const char *top)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/scale", top);
	if (mkdir(path, 0755))
		die(path);
	return dir_fd(path);
}

static void scale_dir_remove(int dfd, const char *top)
{
	char path[4096];

	close(dfd);
	snprintf(path, sizeof(path), "%s/scale", top);
	if (rmdir(path))
		die(path);
}

/* The timed runs: each phase on both filesystems in turn. */
static void scale_run(struct scale *sc, const char *const dirs[NFS])
{
	int r, p, k;

	for (r = 0; r < RUNS; r++) {
		int dfd[NFS];

		for (k = 0; k < NFS; k++)
			dfd[k] = scale_dir(dirs[k]);
		for (p = 0; p < NPHASES; p++) {
			int turn;

			/* lwnfs first in even runs, tmpfs first in odd ones. */
			for (turn = 0; turn < NFS; turn++) {
				int f = (turn + r) % NFS;
				double s = run_phase(p, dfd[f], sc->n, f == 0);

				sc->ns[f][p][r] = s / sc->n * 1e9;
			}
		}
		for (k = 0; k < NFS; k++)
			scale_dir_remove(dfd[k], dirs[k]);
	}
}

/*
 * The memory: one filesystem's whole life at a time, so that the slab
 * holds no entry of the other's: grown by the making, and left once
 * every phase has run and the unlinks are done.
 */
static void memory_run(struct scale *sc, const char *const dirs[NFS])
{
	long long before;
	int f, p, dfd;

	for (f = 0; f < NFS; f++) {
		dfd = scale_dir(dirs[f]);
		before = settled_slab();
		run_phase(MAKE, dfd, sc->n, f == 0);
		sc->made[f] = (double)(settled_slab() - before) / sc->n;
		for (p = MAKE + 1; p < NPHASES; p++)
			run_phase(p, dfd, sc->n, f == 0);
		sc->left[f] = (double)(settled_slab() - before) / sc->n;
		scale_dir_remove(dfd, dirs[f]);
	}
}

static long walked;

static int count_entry(const char *path, const struct stat *st, int flag,
		       struct FTW *ftw)
{
	(void)path;
	(void)st;
	(void)flag;
	(void)ftw;
	walked++;
	return 0;
}

struct deep {
	double lookup_ns[NFS][RUNS], walk_ns[NFS][RUNS];
};

/*
 * A tree DEPTH directories deep under @top, a counter at its bottom:
 * stat of that counter by its whole path, and nftw over the tree.
 */
static void deep_make(const char *top, char *path, size_t len)
{
	int fd, dfd = dir_fd(top), i;
	size_t at;

	at = (size_t)snprintf(path, len, "%s", top);
	for (i = 0; i < DEPTH; i++) {
		int next;

		if (mkdirat(dfd, "d", 0755))
			die("mkdir (deep)");
		next = openat(dfd, "d", O_RDONLY | O_DIRECTORY);
		if (next < 0)
			die("open (deep)");
		close(dfd);
		dfd = next;
		if (at + 3 >= len)
			fail("the deep path is longer than PATH_MAX");
		memcpy(path + at, "/d", 3);
		at += 2;
	}
	fd = openat(dfd, "counter", O_CREAT | O_EXCL | O_WRONLY, 0644);
	if (fd < 0)
		die("create (deep)");
	close(fd);
	close(dfd);
	if (at + 9 >= len)
		fail("the deep path is longer than PATH_MAX");
	memcpy(path + at, "/counter", 9);
}

static void deep_remove(const char *top)
{
	char path[8192];
	size_t at = (size_t)snprintf(path, sizeof(path), "%s", top);
	int i;

	for (i = 0; i < DEPTH; i++) {
		memcpy(path + at, "/d", 3);
		at += 2;
	}
	memcpy(path + at, "/counter", 9);
	if (unlink(path))
		die("unlink (deep)");
	for (i = 0; i < DEPTH; i++) {
		path[at] = '\0';
		if (rmdir(path))
			die("rmdir (deep)");
		at -= 2;
	}
}

static void deep_run(struct deep *dp, const char *const dirs[NFS])
{
	static char paths[NFS][8192], tops[NFS][4096];
	int r, k, turn;

	/* In a directory of its own on each: the walk sees the tree alone. */
	for (k = 0; k < NFS; k++) {
		snprintf(tops[k], sizeof(tops[k]), "%s/deep", dirs[k]);
		if (mkdir(tops[k], 0755))
			die(tops[k]);
		deep_make(tops[k], paths[k], sizeof(paths[k]));
	}
	for (r = 0; r < RUNS; r++)
		for (turn = 0; turn < NFS; turn++) {
			int f = (turn + r) % NFS, i;
			struct stat st;
			double t = now();

			for (i = 0; i < 1000; i++)
				if (stat(paths[f], &st))
					die("stat (deep)");
			dp->lookup_ns[f][r] = (now() - t) / 1000 * 1e9;
			t = now();
			walked = 0;
			if (nftw(tops[f], count_entry, 64, FTW_PHYS))
				die("nftw");
			dp->walk_ns[f][r] = (now() - t) * 1e9;
			/* The top, DEPTH directories, the counter. */
			if (walked != DEPTH + 2)
				fail("the walk did not see the deep tree's entries once each");
		}
	for (k = 0; k < NFS; k++) {
		deep_remove(tops[k]);
		if (rmdir(tops[k]))
			die(tops[k]);
	}
}

static double ratio_median(const double *a, const double *b)
{
	double v[RUNS];
	int r;

	for (r = 0; r < RUNS; r++)
		v[r] = a[r] / b[r];
	return median(v, RUNS);
}

/* The least and the greatest of the runs' ratios. */
static void ratio_range(const double *a, const double *b, double *lo,
			double *hi)
{
	int r;

	*lo = a[0] / b[0];
	*hi = *lo;
	for (r = 1; r < RUNS; r++) {
		if (a[r] / b[r] < *lo)
			*lo = a[r] / b[r];
		if (a[r] / b[r] > *hi)
			*hi = a[r] / b[r];
	}
}

/* One figure of the deep tree: a line of the table, its JSON keys. */
static void deep_figure(FILE *json, const char *what, const char *key,
			double ns[NFS][RUNS])
{
	double x = ratio_median(ns[0], ns[1]), lo, hi;

	ratio_range(ns[0], ns[1], &lo, &hi);
	printf("%-50s %12.0f %12.0f %6.2fx %.2fx-%.2fx\n", what,
	       median(ns[0], RUNS), median(ns[1], RUNS), x, lo, hi);
	fprintf(json, ", \"%s_lwnfs_ns\": %.1f, \"%s_tmpfs_ns\": %.1f", key,
		median(ns[0], RUNS), key, median(ns[1], RUNS));
	fprintf(json, ", \"%s_ratio\": %.3f, \"%s_ratio_min\": %.3f", key, x,
		key, lo);
	fprintf(json, ", \"%s_ratio_max\": %.3f", key, hi);
}

int main(int argc, char **argv)
{
	static struct scale sc[MAX_N];
	struct deep dp;
	const char *dirs[NFS];
	int nn = argc - 4, i, p;
	FILE *json;

	if (argc < 5 || nn > MAX_N) {
		fprintf(stderr, "usage: lwnfs-scale LWNFS_DIR TMPFS_DIR JSONFILE N... (up to %d)\n",
			MAX_N);
		return 2;
	}
	dirs[0] = argv[1];
	dirs[1] = argv[2];
	for (i = 0; i < nn; i++) {
		sc[i].n = atol(argv[4 + i]);
		if (sc[i].n < 1)
			fail("N is a number of entries, 1 or more");
	}
	for (i = 0; i < nn; i++) {
		fprintf(stderr, "lwnfs-scale: %ld entries, %d runs, then the memory\n",
			sc[i].n, RUNS);
		scale_run(&sc[i], dirs);
		memory_run(&sc[i], dirs);
	}
	fprintf(stderr, "lwnfs-scale: a tree %d directories deep\n", DEPTH);
	deep_run(&dp, dirs);

	json = fopen(argv[3], "w");
	if (!json)
		die(argv[3]);
	printf("%-50s %9s %10s %10s %7s %s\n", "per entry", "N", "lwnfs ns",
	       "tmpfs ns", "ratio", "(runs' least-greatest)");
	fprintf(json, "{\n  \"runs\": %d,\n  \"scale\": [", RUNS);
	for (i = 0; i < nn; i++)
		for (p = 0; p < NPHASES; p++) {
			double l = median(sc[i].ns[0][p], RUNS);
			double t = median(sc[i].ns[1][p], RUNS);
			double x = ratio_median(sc[i].ns[0][p], sc[i].ns[1][p]);
			double lo, hi;

			ratio_range(sc[i].ns[0][p], sc[i].ns[1][p], &lo, &hi);
			printf("%-50s %9ld %10.0f %10.0f %6.2fx %.2fx-%.2fx\n",
			       phase_what[p], sc[i].n, l, t, x, lo, hi);
			fprintf(json, "%s\n    { \"n\": %ld, \"op\": \"%s\", ",
				i || p ? "," : "", sc[i].n, phase_key[p]);
			fprintf(json, "\"lwnfs_ns\": %.1f, \"tmpfs_ns\": %.1f, ",
				l, t);
			fprintf(json, "\"ratio\": %.3f, \"ratio_min\": %.3f, ", x, lo);
			fprintf(json, "\"ratio_max\": %.3f }", hi);
		}
	fprintf(json, "\n  ],\n  \"memory\": [");
	printf("\n%-50s %9s %12s %12s\n", "slab bytes per entry", "N", "lwnfs", "tmpfs");
	for (i = 0; i < nn; i++) {
		const double *m = sc[i].made, *left = sc[i].left;

		printf("%-50s %9ld %12.0f %12.0f\n", "grown by the making",
		       sc[i].n, m[0], m[1]);
		printf("%-50s %9ld %12.0f %12.0f\n", "left after the unlinks",
		       sc[i].n, left[0], left[1]);
		fprintf(json, "%s\n    { \"n\": %ld, ", i ? "," : "", sc[i].n);
		fprintf(json, "\"lwnfs_made\": %.1f, \"tmpfs_made\": %.1f, ",
			m[0], m[1]);
		fprintf(json, "\"lwnfs_left\": %.1f, \"tmpfs_left\": %.1f }",
			left[0], left[1]);
	}
	fprintf(json, "\n  ],\n");
	printf("\n%-50s %12s %12s %7s %s\n", "a tree 1,000 directories deep",
	       "lwnfs ns", "tmpfs ns", "ratio", "(runs' least-greatest)");
	fprintf(json, "  \"deep\": { \"depth\": %d", DEPTH);
	deep_figure(json, "stat the counter at the bottom by path", "lookup",
		    dp.lookup_ns);
	deep_figure(json, "walk the whole tree (nftw)", "walk", dp.walk_ns);
	fprintf(json, " }\n}\n");
	if (fclose(json))
		die(argv[3]);
	return 0;
}
