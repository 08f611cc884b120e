// SPDX-License-Identifier: GPL-2.0
/*
 * lwnfs-peers - taking a value from lwnfs against what users pick
 * instead for a counter shared between processes
 *
 * Usage: lwnfs-peers COUNTER SCRATCHDIR REDIS_SOCKET REDIS_PORT JSONFILE
 *
 * Run in a guest with lwnfs mounted (COUNTER one of its counters),
 * SCRATCHDIR on tmpfs and a redis-server listening on the Unix socket
 * REDIS_SOCKET and on 127.0.0.1:REDIS_PORT.  PROCS processes take ITERS
 * values each from one counter, all at once, by each of:
 *  - lwnfs: pread(fd, buf, 32, 0) on their own open file;
 *  - shared memory: atomic_fetch_add on a 64-bit word of a file on tmpfs
 *    that each maps (MAP_SHARED), the floor for any counter shared by
 *    processes;
 *  - Redis INCR with hiredis, one connection each, over the Unix socket
 *    and over loopback TCP;
 *  - SQLite, WAL, one "UPDATE ... RETURNING" a value in a transaction of
 *    its own, one connection each;
 *  - redis-cli INCR from a shell, as a script would: one process
 *    starting a redis-cli for each of SH_ITERS values, one after another
 *    (alone, after the others), so its figure is a value's latency where
 *    the others' are the two processes' throughput.
 * The measures take turns within each of RUNS runs; each figure is the
 * median of the runs, in ns a value (the time from the first take to the
 * last, over the values taken), each ratio the median of the ratios
 * within a run, with their least and greatest.  Every measure's values
 * must be distinct and contiguous, or it fails.  This is a benchmark: it
 * asserts nothing about time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lwnfs-measure.h"

#define RUNS	5
#define PROCS	2
#define ITERS	5000
#define SH_ITERS 50
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *counter, *scratch, *redis_socket;
static int redis_port;

static void fail(const char *what, const char *detail)
{
	fprintf(stderr, "lwnfs-peers: %s: %s\n", what, detail);
	exit(1);
}

/* A peer: how one process gets ready, takes a value, and is done. */
struct peer {
	const char *key, *what;
	void (*open)(struct peer *p);
	long long (*take)(struct peer *p);
	void (*close)(struct peer *p);
	int procs, iters;
	double ns[RUNS];
	/* per process, after open */
	int fd;

	_Atomic long long *word;
	redisContext *redis;
	sqlite3 *db;
	sqlite3_stmt *stmt;
};

static void lwnfs_open(struct peer *p)
{
	p->fd = open(counter, O_RDONLY);
	if (p->fd < 0)
		die(counter);
}

static long long lwnfs_take(struct peer *p)
{
	char buf[32];
	ssize_t n = pread(p->fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		die("pread");
	buf[n] = '\0';
	return atoll(buf);
}

static void fd_close(struct peer *p)
{
	close(p->fd);
}

static char shm_path[300];

static void shm_open_word(struct peer *p)
{
	int fd = open(shm_path, O_RDWR);

	if (fd < 0)
		die(shm_path);
	p->word = mmap(NULL, sizeof(*p->word), PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, 0);
	if (p->word == MAP_FAILED)
		die("mmap");
	close(fd);
}

static long long shm_take(struct peer *p)
{
	return atomic_fetch_add(p->word, 1);
}

static void shm_close(struct peer *p)
{
	munmap((void *)p->word, sizeof(*p->word));
}

static void redis_check(struct peer *p)
{
	if (!p->redis || p->redis->err)
		fail("redis", p->redis ? p->redis->errstr : "no context");
}

static void redis_unix_open(struct peer *p)
{
	p->redis = redisConnectUnix(redis_socket);
	redis_check(p);
}

static void redis_tcp_open(struct peer *p)
{
	p->redis = redisConnect("127.0.0.1", redis_port);
	redis_check(p);
}

static long long redis_take(struct peer *p)
{
	redisReply *r = redisCommand(p->redis, "INCR lwnfs-peers");
	long long v;

	if (!r || r->type != REDIS_REPLY_INTEGER)
		fail("redis INCR", r && r->str ? r->str : p->redis->errstr);
	v = r->integer;
	freeReplyObject(r);
	return v;
}

static void redis_close(struct peer *p)
{
	redisFree(p->redis);
}

static char db_path[300];

static void sqlite_open(struct peer *p)
{
	if (sqlite3_open(db_path, &p->db) != SQLITE_OK)
		fail("sqlite3_open", sqlite3_errmsg(p->db));
	sqlite3_busy_timeout(p->db, 60000);
	if (sqlite3_prepare_v2(p->db,
			       "UPDATE counter SET v = v + 1 RETURNING v", -1,
			       &p->stmt, NULL) != SQLITE_OK)
		fail("sqlite3_prepare", sqlite3_errmsg(p->db));
}

static long long sqlite_take(struct peer *p)
{
	long long v;

	if (sqlite3_step(p->stmt) != SQLITE_ROW)
		fail("sqlite UPDATE", sqlite3_errmsg(p->db));
	v = sqlite3_column_int64(p->stmt, 0);
	if (sqlite3_step(p->stmt) != SQLITE_DONE)
		fail("sqlite UPDATE", sqlite3_errmsg(p->db));
	sqlite3_reset(p->stmt);
	return v;
}

static void sqlite_close(struct peer *p)
{
	sqlite3_finalize(p->stmt);
	sqlite3_close(p->db);
}

static long long cli_take(struct peer *p)
{
	char cmd[400], out[64];
	FILE *f;

	(void)p;
	snprintf(cmd, sizeof(cmd), "redis-cli -s '%s' INCR lwnfs-peers",
		 redis_socket);
	f = popen(cmd, "r");
	if (!f || !fgets(out, sizeof(out), f))
		die("redis-cli");
	if (pclose(f))
		fail("redis-cli", "failed");
	return atoll(out);
}

static void no_open(struct peer *p)
{
	(void)p;
}

/*
 * p->procs processes take p->iters values each, all started before any
 * takes one; their values are checked distinct and contiguous.  The
 * seconds from the first process's first take to the last one's last:
 * each process stamps its own, so neither the start of the processes,
 * their connections' closing nor their exit is counted.
 */
static double run_peer(struct peer *p)
{
	long total = (long)p->procs * p->iters, i;
	size_t size = total * sizeof(long long) + 2 * p->procs * sizeof(double);
	long long *values = mmap(NULL, size, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	double *stamps = (double *)(values + total), first, last;
	int go[2], ready[2], k, status;
	char c;

	if (values == MAP_FAILED)
		die("mmap");
	if (pipe(go) || pipe(ready))
		die("pipe");
	for (k = 0; k < p->procs; k++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			/* Only the parent's ends: a child that dies is seen. */
			close(go[1]);
			close(ready[0]);
			p->open(p);
			if (write(ready[1], "r", 1) != 1)
				die("ready");
			close(ready[1]);
			if (read(go[0], &c, 1) != 0)
				die("go");
			stamps[2 * k] = now();
			for (i = 0; i < p->iters; i++)
				values[k * p->iters + i] = p->take(p);
			stamps[2 * k + 1] = now();
			p->close(p);
			_exit(0);
		}
	}
	close(go[0]);
	close(ready[1]);
	for (k = 0; k < p->procs; k++)
		if (read(ready[0], &c, 1) != 1)
			fail(p->key, "a process did not get ready");
	close(go[1]);	/* all start */
	for (k = 0; k < p->procs; k++) {
		if (wait(&status) < 0)
			die("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			fail(p->key, "a process failed");
	}
	close(ready[0]);
	first = stamps[0];
	last = stamps[1];
	for (k = 1; k < p->procs; k++) {
		if (stamps[2 * k] < first)
			first = stamps[2 * k];
		if (stamps[2 * k + 1] > last)
			last = stamps[2 * k + 1];
	}
	qsort(values, total, sizeof(*values), cmp_ll);
	for (i = 1; i < total; i++)
		if (values[i] != values[i - 1] + 1) {
			fprintf(stderr, "lwnfs-peers: %s: values %lld then %lld: ",
				p->key, values[i - 1], values[i]);
			fprintf(stderr, "not distinct and contiguous\n");
			exit(1);
		}
	munmap(values, size);
	return last - first;
}

static void setup(void)
{
	char sql[] = "PRAGMA journal_mode=WAL; "
		     "CREATE TABLE counter (v INTEGER NOT NULL); "
		     "INSERT INTO counter VALUES (0);";
	long long zero = 0;
	sqlite3 *db;
	int fd;

	snprintf(shm_path, sizeof(shm_path), "%s/peers-word", scratch);
	fd = open(shm_path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, &zero, sizeof(zero)) != sizeof(zero))
		die(shm_path);
	close(fd);
	snprintf(db_path, sizeof(db_path), "%s/peers.db", scratch);
	unlink(db_path);
	if (sqlite3_open(db_path, &db) != SQLITE_OK ||
	    sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		fail("sqlite: making the database", sqlite3_errmsg(db));
	sqlite3_close(db);
}

int main(int argc, char **argv)
{
#define PEER(k, w, o, t, c) \
	{ .key = k, .what = w, .open = o, .take = t, .close = c, \
	  .procs = PROCS, .iters = ITERS }
	struct peer peers[] = {
		PEER("peers_lwnfs_ns", "lwnfs pread", lwnfs_open, lwnfs_take,
		     fd_close),
		PEER("peers_shm_ns", "shared memory atomic_fetch_add (the floor)",
		     shm_open_word, shm_take, shm_close),
		PEER("peers_redis_unix_ns", "Redis INCR, hiredis, Unix socket",
		     redis_unix_open, redis_take, redis_close),
		PEER("peers_redis_tcp_ns", "Redis INCR, hiredis, loopback TCP",
		     redis_tcp_open, redis_take, redis_close),
		PEER("peers_sqlite_ns", "SQLite WAL, UPDATE ... RETURNING",
		     sqlite_open, sqlite_take, sqlite_close),
	};
	struct peer cli = {
		.key = "peers_redis_cli_ns", .what = "redis-cli INCR from a shell",
		.open = no_open, .take = cli_take, .close = no_open,
		.procs = 1, .iters = SH_ITERS,
	};
	int np = ARRAY_SIZE(peers), r, i;
	double ratio[RUNS], lo, hi;
	FILE *json;

	if (argc != 6) {
		fprintf(stderr, "usage: lwnfs-peers COUNTER SCRATCHDIR %s\n",
			"REDIS_SOCKET REDIS_PORT JSONFILE");
		return 2;
	}
	counter = argv[1];
	scratch = argv[2];
	redis_socket = argv[3];
	redis_port = atoi(argv[4]);
	setup();
	for (r = 0; r < RUNS; r++) {
		for (i = 0; i < np; i++) {
			/* each run starts with another measure */
			struct peer *p = &peers[(i + r) % np];

			p->ns[r] = run_peer(p) / (p->procs * p->iters) * 1e9;
		}
		cli.ns[r] = run_peer(&cli) / cli.iters * 1e9;
	}

	json = fopen(argv[5], "w");
	if (!json)
		die(argv[5]);
	printf("%d processes taking %d values each from one counter; median of %d runs\n\n",
	       PROCS, ITERS, RUNS);
	printf("%-46s %12s %14s %22s\n", "ns a value", "median", "vs lwnfs",
	       "(runs' least-greatest)");
	fprintf(json, "{\n  \"procs\": %d,\n  \"iters\": %d,\n  \"sh_iters\": %d,\n",
		PROCS, ITERS, SH_ITERS);
	fprintf(json, "  \"runs\": %d,\n  \"figures\": {\n", RUNS);
	for (i = 0; i <= np; i++) {
		struct peer *p = i < np ? &peers[i] : &cli;

		lo = p->ns[0] / peers[0].ns[0];
		hi = lo;
		for (r = 0; r < RUNS; r++) {
			ratio[r] = p->ns[r] / peers[0].ns[r];
			lo = ratio[r] < lo ? ratio[r] : lo;
			hi = ratio[r] > hi ? ratio[r] : hi;
		}
		printf("%-46s %12.0f %13.2fx %10.2fx-%.2fx\n", p->what,
		       median(p->ns, RUNS), median(ratio, RUNS), lo, hi);
		fprintf(json, "    \"%s\": { \"what\": \"%s\", ", p->key, p->what);
		fprintf(json, "\"median\": %.1f, \"vs_lwnfs\": %.3f, ",
			median(p->ns, RUNS), median(ratio, RUNS));
		fprintf(json, "\"vs_lwnfs_min\": %.3f, \"vs_lwnfs_max\": %.3f }%s\n",
			lo, hi, i < np ? "," : "");
	}
	fprintf(json, "  }\n}\n");
	if (fclose(json))
		die(argv[5]);
	return 0;
}
