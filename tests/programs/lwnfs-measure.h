/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmarks (lwnfs-bench, lwnfs-scale, lwnfs-peers) share: the
 * clock, dying with the program's name, sorting figures and their median,
 * the slab, settled; lwnfs-race takes the first two.
 * Included after _GNU_SOURCE is defined (program_invocation_short_name).
 */
#ifndef LWNFS_MEASURE_H
#define LWNFS_MEASURE_H

#ifndef _GNU_SOURCE
#error "define _GNU_SOURCE before the first #include"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what,
		strerror(errno));
	exit(1);
}

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static inline int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

#define MEDIAN_MAX	16	/* the most figures median() takes */

/* The median of the @n figures of @v (@n odd: the runs); @v is kept as is. */
static inline double median(const double *v, int n)
{
	double s[MEDIAN_MAX];

	if (n < 1 || n > MEDIAN_MAX) {
		fprintf(stderr, "%s: the middle of %d figures\n",
			program_invocation_short_name, n);
		exit(1);
	}
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s[n / 2];
}

/* Slab memory in use, in bytes, from /proc/meminfo. */
static inline long long slab_bytes(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long long kb = -1;

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %lld kB", &kb) == 1)
			break;
	fclose(f);
	if (kb < 0) {
		errno = ENOENT;
		die("/proc/meminfo's Slab line");
	}
	return kb * 1024;
}

/*
 * What the slab holds once freed objects have gone: after RCU's grace
 * periods (a pause) and drop_caches; the slab's per-CPU caches stay.
 */
static inline long long settled_slab(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	/* Freed dentries and inodes go after RCU grace periods: a pause. */
	if (fd < 0)
		die("/proc/sys/vm/drop_caches");
	usleep(200000);
	/* Only what is unused: lwnfs's counters are pinned. */
	if (write(fd, "2", 1) != 1)
		die("drop_caches");
	close(fd);
	usleep(200000);
	return slab_bytes();
}

#endif
